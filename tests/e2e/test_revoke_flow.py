"""A revoke on a phone: the director opens a revoke ruling at table X with the table's LIN
(tests/fixtures/lin/revoke_board1.lin: East revokes at trick 3, declarer claims 10), works out the
transfer from the play (2017 Laws, 64A2: one trick), confirms and gives it; a real worker
recalculates and the standings show 4S N +1 in place of 4S N =."""

from pathlib import Path

import pytest

from core import policy, roles
from rulings.models import Ruling, TrickRuling
from scoring import services
from tests.conftest import make_user, settled, wait_for
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
LIN = (Path(__file__).resolve().parents[1] / "fixtures" / "lin" / "revoke_board1.lin").read_text().strip()


def test_director_rules_on_a_revoke_from_the_lin_on_a_phone(phone, live_server, worker, field):
    director = make_user("rhea", first_name="Rhea", last_name="Director")
    director.set_password("table-side")
    director.save()
    services.appoint_official(tournament=field.tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    board = field.boards[0]
    wait_for(lambda: settled(board))

    page = phone
    log_in(page, live_server, "rhea", "table-side")
    page.goto(f"{live_server.url}/events/{field.event.pk}/standings/")
    assert "8.00" in page.locator("table.standings tr", has_text="P13 Player13").inner_text()

    page.goto(f"{live_server.url}/boards/{board.pk}/")
    with page.expect_navigation():
        page.locator("table.traveller tbody tr").nth(6).get_by_role("link", name="Ruling").click()
    page.select_option("[name=kind]", "revoke")
    page.fill("[name=facts]", "East showed out of hearts at trick 3; he still held three.")
    page.click("text=Deal and auction")
    page.fill("[name=deal_source]", LIN)
    with page.expect_navigation():
        page.click("button[name=draft]")

    with page.expect_navigation():
        page.click("#work-out-revoke")
    assert "trick 3: C6" in page.inner_text("#from-play")
    with page.expect_navigation():
        page.click("#work-out")
    assert page.inner_text("#transfer-law") == "Law 64A2 (2017 Laws)"
    assert page.inner_text("#transfer-tricks") == "1"
    assert page.inner_text("#table-result").split() == ["4S", "N", "10"]
    assert page.inner_text("#result-after").split() == ["4S", "N", "11"]
    # The double-dummy guide comes from the worker: the page shows it once it is in.
    wait_for(lambda: (TrickRuling.objects.get().guide or {}).get("double_dummy") is not None)
    page.reload()
    assert "non-offending side takes" in page.inner_text("#equity-guide")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the revoke page is {width}px wide on a 390px phone"
    screenshot(page, "revoke-phone")
    with page.expect_navigation():
        page.click("#confirm-transfer")

    page.wait_for_selector("h1:has-text('Ruling 1')")
    ruling = Ruling.objects.get()
    assert ruling.state == Ruling.State.GIVEN
    assert ruling.score == {"ns": 450}
    assert TrickRuling.objects.get(ruling=ruling).confirmed_by == director
    assert "Law 64A2" in page.inner_text("main")

    wait_for(lambda: settled(board))
    page.goto(f"{live_server.url}/events/{field.event.pk}/standings/")
    row = page.locator("table.standings tr", has_text="P13 Player13")
    assert "11.00" in row.inner_text()  # table X's N-S pair: 8 before the ruling
    screenshot(page, "standings-after-revoke-phone")
