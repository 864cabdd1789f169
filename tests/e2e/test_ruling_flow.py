"""A director at the table, on a phone: a weighted adjusted score with the deal from a BBO
link, given in the browser; a real worker recalculates; the standings show it."""

from pathlib import Path

import pytest

from rulings.models import Ruling
from scoring import roles, services
from tests.conftest import make_user, settled, wait_for
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
LIN_LINK = (Path(__file__).resolve().parents[1] / "fixtures" / "lin" / "handviewer_board1.txt").read_text().strip()


def test_director_gives_a_weighted_ruling_on_a_phone(phone, live_server, worker, field):
    director = make_user("dana", first_name="Dana", last_name="Director")
    director.set_password("table-side")
    director.save()
    services.appoint_official(tournament=field.tournament, user=director, role=roles.DIRECTOR)
    board = field.boards[0]
    wait_for(lambda: settled(board))

    page = phone
    log_in(page, live_server, "dana", "table-side")
    page.goto(f"{live_server.url}/boards/{board.pk}/")
    with page.expect_navigation():
        page.locator("table.traveller tbody tr").nth(6).get_by_role("link", name="Ruling").click()
    page.select_option("[name=kind]", "ui")
    page.fill("[name=laws]", "16B1a, 12C1c")
    page.fill("[name=facts]", "North hesitated for about 15 seconds before passing 3S; South bid 4S.")
    page.fill("[name=ruling_text]", "Score adjusted: weighted.")
    page.check("input[name=outcome][value=adjusted]")
    page.select_option("[name=score_kind]", "weighted")
    page.select_option("[name=offending_side]", "NS")
    for row, (tricks, weight) in enumerate([(10, "0.5"), (11, "0.3"), (9, "0.2")], start=1):
        page.fill(f"[name=w{row}_contract]", "4S")
        page.select_option(f"[name=w{row}_declarer]", "N")
        page.fill(f"[name=w{row}_tricks]", str(tricks))
        page.fill(f"[name=w{row}_weight]", weight)
    assert page.inner_text("#weight-sum") == "1"
    page.click("text=Deal and auction")
    page.fill("[name=deal_source]", LIN_LINK)
    screenshot(page, "ruling-form-phone")
    with page.expect_navigation():
        page.click("button[name=give]")

    page.wait_for_selector("h1:has-text('Ruling 1')")
    ruling = Ruling.objects.get()
    assert ruling.state == Ruling.State.GIVEN
    assert ruling.score == {"ns": [[420, "0.5"], [450, "0.3"], [-50, "0.2"]]}
    text = page.inner_text("main")
    assert "50% 4S N = / 30% 4S N +1 / 20% 4S N -1" in text
    assert "15-17" in text  # the alert explanation from the BBO link, as a numbered note
    assert "Law 16B1a" in text
    assert page.locator(".diagram .hand").count() == 4
    screenshot(page, "ruling-page-phone")

    wait_for(lambda: settled(board))
    page.goto(f"{live_server.url}/events/{field.event.pk}/standings/")
    row = page.locator("table.standings tr", has_text="P13 Player13")
    assert "7.50" in row.inner_text()  # table X's N-S pair: 8 before the ruling
    screenshot(page, "standings-after-ruling-phone")
