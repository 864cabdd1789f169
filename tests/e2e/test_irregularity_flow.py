"""Irregularities on a phone (issue #28): the director opens a ruling at table X with the table's LIN
(dealer North, 1S P 4S P P P, East leads the C4), then records what happened and the option chosen:
an insufficient bid (East's 1D over 1S, replaced by a pass: 27B2) and a lead out of turn with a
penalty card (West faced the D5, declarer had it retracted: 54D; East on lead, declarer prohibits
diamonds: 50D2, the D5 picked up)."""

from pathlib import Path

import pytest

from bridge.auction import Auction
from core import policy, roles
from rulings.models import Ruling
from scoring import services
from tests.conftest import make_user
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
LIN = (Path(__file__).resolve().parents[1] / "fixtures" / "lin" / "revoke_board1.lin").read_text().strip()


def _open_ruling(page, live_server, field, facts):
    director = make_user("iris", first_name="Iris", last_name="Director")
    director.set_password("table-side")
    director.save()
    services.appoint_official(tournament=field.tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    log_in(page, live_server, "iris", "table-side")
    page.goto(f"{live_server.url}/boards/{field.boards[0].pk}/")
    with page.expect_navigation():
        page.locator("table.traveller tbody tr").nth(6).get_by_role("link", name="Ruling").click()
    page.select_option("[name=kind]", "law_applied")
    page.fill("[name=facts]", facts)
    page.click("text=Deal and auction")
    page.fill("[name=deal_source]", LIN)
    with page.expect_navigation():
        page.click("button[name=draft]")
    with page.expect_navigation():
        page.click("#record-irregularity-link")


def _fits(page, what):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the {what} is {width}px wide on a 390px phone"


def test_an_insufficient_bid_on_a_phone(phone, live_server, field):
    page = phone
    _open_ruling(page, live_server, field, "East bid 1D over North's 1S; South drew attention.")
    page.check("[name=kind][value=insufficient_bid]")
    page.tap("#tap-auction button[data-value='2']")  # the call the insufficient bid came before
    page.tap("#tap-inserted .box-call[data-call='1D']")
    page.check("[name=attention_by][value=S]")
    with page.expect_navigation():
        page.click("#show-options")
    options = page.inner_text("#options")
    for law in ("Law 27A1", "Law 27B1a \u00b7 2\u2666", "Law 27B1b", "Law 27B2", "Law 27B3"):
        assert law in options
    assert "comparable call" in options and "27B1a:2D" not in options  # the law and the bid, never the key
    _fits(page, "irregularity page")
    screenshot(page, "insufficient-bid-phone")
    page.check("input[name=chosen][value='27B2']")
    with page.expect_navigation():
        page.click("#record-irregularity")

    page.wait_for_selector("#irregularity")
    # Each law once, with its title; the call as a symbol; no stored key (issue #39).
    shown = page.inner_text("#irregularity")
    assert shown.startswith("East: 1\u2666 (call 2), insufficient bid · Law 27B2 Other sufficient bid or pass")
    assert shown.count("27B2") == 1 and "Law 26B" in shown
    ruling = Ruling.objects.get()
    assert ruling.irregularity["rectification"]["partner_must_pass"] == "throughout"
    assert ruling.irregularity["lead_restriction"]["require"] == []  # 2017 26B: prohibit only
    assert ruling.irregularity["lead_restriction"]["prohibit"] == ["S", "H", "D", "C"]
    calls = Auction.from_dict(ruling.auction).calls
    assert [(c.call, c.status, c.attention_by) for c in calls[:3]] == [
        ("1S", "", ""),
        ("1D", "cancelled", "S"),
        ("Pass", "", ""),
    ]
    # The auction shows the calls as called: the cancelled 1D in East's column, struck through, and
    # its note says what became of it.
    assert page.inner_text("table.auction td.cancelled").startswith("1\u2666")
    assert "insufficient bid, cancelled (27B2)" in page.inner_text("ol.notes")
    _fits(page, "ruling page")


def test_a_lead_out_of_turn_with_a_penalty_card_on_a_phone(phone, live_server, field):
    page = phone
    _open_ruling(page, live_server, field, "West faced the D5 before East led.")
    page.check("[name=kind][value=lead_out_of_turn]")
    page.select_option("[name=trick]", "1")
    page.tap("#tap-card button[data-value='D5']")  # West's card: West is the offender
    assert page.is_checked("[name=seat][value=W]")
    page.check("[name=attention_by][value=N]")
    with page.expect_navigation():
        page.click("#show-options")
    assert [key for key in ("54A", "54B", "54D") if key in page.inner_text("#options")] == ["54A", "54B", "54D"]
    lead_options = page.inner_text("#lead-options")
    assert "Law 50D2a \u00b7 \u2666 declarer prohibits" in lead_options and "prohibit:D" not in lead_options
    page.check("input[name=chosen][value='54D']")
    page.check("input[name=lead_option][value='prohibit:D']")
    _fits(page, "irregularity page")
    screenshot(page, "lead-out-of-turn-phone")
    with page.expect_navigation():
        page.click("#record-irregularity")

    page.wait_for_selector("#irregularity")
    shown = page.inner_text("#irregularity")
    assert shown.startswith("Trick 1: West, \u26665, lead out of turn · Law 54D Declarer Refuses Opening Lead")
    assert shown.count("54D") == 1 and "prohibit:D" not in shown
    assert "declarer prohibits the lead of \u2666" in shown
    ruling = Ruling.objects.get()
    assert ruling.irregularity_law == "54D"
    assert ruling.irregularity["penalty_cards"] == [
        {"seat": "W", "card": "D5", "major": True, "law": "54D", "played_at": None, "picked_up_at": 1}
    ]
    irregularities = Auction.from_dict(ruling.auction).play_irregularities
    assert [(i.kind, i.seat, i.card, i.option) for i in irregularities] == [
        ("lead_out_of_turn", "W", "D5", "54D"),
        ("penalty_card_lead", "E", "", "prohibit:D"),
    ]
    _fits(page, "ruling page")
