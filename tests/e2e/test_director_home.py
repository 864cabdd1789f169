"""The director's home page shows the rulings they gave or drafted still open, with their clocks
(issue #42, item 10: "the home pages of a player and a director do not show their own rulings and
clocks"). On a 390x844 phone the demo's director sees their card: one row per ruling of theirs
still open (drafts, scores awaiting a second director's check, appeal periods running, newest
first), none of another director's; the appeal period's clock counts down live in the browser,
by the server's clock; a tap on a row's ruling opens that ruling's page."""

import re

import pytest
from django.contrib.auth import get_user_model

from rulings import selectors
from rulings.models import Ruling
from tests.e2e.conftest import log_in, screenshot
from tests.e2e.test_appeal_journey import fits
from tests.e2e.test_national import small_demo  # noqa: F401 - fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HOURS_LEFT = re.compile(r"(\d+) days?, (\d+) hours? left")


def hours_left(text):
    found = HOURS_LEFT.fullmatch(text)
    assert found, text
    return int(found.group(1)) * 24 + int(found.group(2))


def test_the_director_sees_their_open_rulings_with_a_live_clock_and_taps_one_open(phone, live_server, small_demo):  # noqa: F811
    director = get_user_model().objects.get(username="director")
    expected = selectors.my_open_rulings(director)
    drafts = [row.ruling.pk for row in expected if row.ruling.state == Ruling.State.DRAFT]
    running = [row for row in expected if row.window_open and row.deadline]
    assert drafts and running  # the demo gives the director both
    phone.clock.install()  # the phone's clock, moved on below to see the countdown run
    log_in(phone, live_server, "director", "director-demo")
    card = phone.locator("section.my-open-rulings")
    assert card.locator("h2").inner_text() == "Your rulings still open"
    rows = card.locator("table.ruling-clocks tbody tr")
    assert [row.get_attribute("id") for row in rows.all()] == [f"home-ruling-{row.ruling.pk}" for row in expected]
    for pk in drafts:  # a draft has no clock
        draft = card.locator(f"#home-ruling-{pk}")
        assert "Draft" in draft.inner_text() and draft.locator("[role=timer]").count() == 0
    first = running[0]
    row = card.locator(f"#home-ruling-{first.ruling.pk}")
    assert row.locator("td").nth(0).inner_text().startswith(str(first.ruling))
    assert row.locator("td").nth(1).inner_text() == str(first.ruling.board.number)
    assert row.locator("td").nth(2).inner_text() == str(first.ruling.table.number)
    assert "Given at the table" in row.inner_text()
    clock = row.locator("[role=timer]")
    assert clock.get_attribute("data-deadline") == first.deadline.isoformat(timespec="seconds")
    before = hours_left(clock.inner_text())
    fits(phone)
    screenshot(phone, "director-home-open-rulings")
    # Two hours on, by the phone's clock: the countdown has run without a reload.
    phone.evaluate("window.__notReloaded = true")
    phone.clock.fast_forward("02:00:00")  # the page's own timer (static/js/countdown.js) fires
    assert hours_left(clock.inner_text()) in (before - 2, before - 3)
    assert phone.evaluate("window.__notReloaded === true")
    with phone.expect_navigation():
        row.locator("td").nth(0).locator("a").tap()
    assert phone.url == f"{live_server.url}/rulings/{first.ruling.pk}/"
    assert phone.locator("h1").inner_text().startswith(str(first.ruling))
    fits(phone)
