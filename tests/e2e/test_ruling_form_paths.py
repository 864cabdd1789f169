"""The ruling form's new paths on a 390x844 phone (issues #27, #28): a change of call (Law 25)
recorded on the irregularity page, and on the ruling form the facts disputed, screens with the
tray's delay, the colleagues consulted and a Law 91 fine."""

from decimal import Decimal

import pytest

from bridge.auction import Auction
from rulings.models import Penalty, Ruling
from tests.e2e.conftest import screenshot
from tests.e2e.test_irregularity_flow import _fits, _open_ruling

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_change_of_call_on_a_phone(phone, live_server, field):
    page = phone
    _open_ruling(page, live_server, field, "South said three spades, meant four, and said four spades.")
    page.select_option("[name=kind]", "change_of_call")
    page.fill("[name=call_number]", "3")
    page.fill("[name=inserted]", "3S")
    page.check("[name=unintended]")
    page.check("[name=pause_for_thought]")
    page.select_option("[name=attention_by]", "W")
    with page.expect_navigation():
        page.click("#show-options")
    assert "25A" in page.inner_text("#options")  # 2017: the pause does not matter
    _fits(page, "irregularity page")
    screenshot(page, "change-of-call-phone")
    page.check("input[name=chosen][value='25A']")
    with page.expect_navigation():
        page.click("#record-irregularity")
    ruling = Ruling.objects.get()
    assert ruling.irregularity_law == "25A"
    calls = Auction.from_dict(ruling.auction).calls
    assert [(c.call, c.status) for c in calls[2:4]] == [("3S", "withdrawn"), ("4S", "")]
    _fits(page, "ruling page")


def test_screens_tray_delay_colleagues_and_a_law_91_fine_on_a_phone(phone, live_server, field):
    page = phone
    _open_ruling(page, live_server, field, "North's tray came back after 40 seconds; East-West noticed it.")
    page.goto(f"{live_server.url}/rulings/{Ruling.objects.get().pk}/edit/")
    page.check("[name=facts_agreed][value=disputed]")
    page.click("text=Screens and colleagues consulted")
    assert not page.is_visible("[name=tray_delay_seconds]")  # only with screens
    page.check("[name=screens]")
    page.fill("[name=tray_delay_seconds]", "40")
    page.select_option("[name=noticed_by]", "EW")
    page.fill("[name=colleagues_consulted]", "R. Levi, chief director")
    page.click("text=Penalty (Law 90 or Law 91)")
    page.check("[name=penalty_kind][value=disciplinary]")
    page.select_option("[name=penalty_side]", "NS")
    assert not page.is_visible("[name=penalty_fine]")  # only for a fine
    page.select_option("[name=penalty_measure]", "fine")
    page.fill("[name=penalty_fine]", "20")
    page.fill("[name=penalty_offence]", "Telephone rang in the playing area")
    _fits(page, "ruling form")
    screenshot(page, "ruling-form-screens-fine-phone")
    with page.expect_navigation():
        page.click("button[name=draft]")
    ruling = Ruling.objects.get()
    assert (ruling.facts_agreed, ruling.screens, ruling.tray_delay_seconds, ruling.noticed_by) == (
        False,
        True,
        40,
        "EW",
    )
    assert ruling.colleagues_consulted == "R. Levi, chief director"
    penalty = Penalty.objects.get()
    assert (penalty.kind, penalty.unit, penalty.amount) == ("disciplinary", "fine", Decimal("20.00"))
    assert "Disciplinary penalty (Law 91): 20 fine (NS)" in page.inner_text("main")
    _fits(page, "ruling page")
