"""The hall's screen on a phone and on the room's screen, signed out (issue #42, item 9): the
notice board needed a login, so the room read a user's name and "Log out". The screen opens
without one, shows no user's controls, has no WCAG 2.2 A/AA violation, fits a 390 px phone, and
shows a hearing fixed after it was opened without anyone touching it."""

import pytest

from appeals.notice_board import hall_token
from tests.appeals.conftest import case, ready  # noqa: F401 (case is a fixture)
from tests.e2e.test_accessibility import violations_in
from tests.e2e.test_appeal_journey import fits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_hall_screen_opens_signed_out_and_shows_itself_again(phone, live_server, case, monkeypatch):  # noqa: F811
    from appeals import notice_board

    monkeypatch.setattr(notice_board, "HALL_REFRESH_SECONDS", 2)
    phone.goto(f"{live_server.url}/hall/{hall_token(case.record.tournament)}/")
    text = phone.inner_text("body")
    assert "Log out" not in text and phone.locator("header.site-header, #language").count() == 0
    assert phone.locator("h1").inner_text() == case.record.tournament.name
    assert "No hearing is scheduled." in text
    assert violations_in(phone) == []
    fits(phone, "hall-screen-phone")

    ready(case)  # a hearing is fixed in Room 2 while the screen is up
    phone.wait_for_selector("main >> text=Room 2", timeout=10000)
    assert "In progress" in phone.inner_text("main")
    fits(phone)


def test_the_hall_screen_reads_across_the_room(browser, live_server, case):  # noqa: F811
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"{live_server.url}/hall/{hall_token(case.record.tournament)}/")
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('main')).fontSize)")
    assert size >= 28, size  # about 2 cm tall letters on a 1080p screen
    context.close()
