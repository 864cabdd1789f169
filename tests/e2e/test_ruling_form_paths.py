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
    page.check("[name=kind][value=change_of_call]")
    page.tap("#tap-auction button[data-value='3']")
    page.tap("#tap-inserted .box-call[data-call='3S']")
    page.check("[name=unintended]")
    page.check("[name=pause_for_thought]")
    page.check("[name=attention_by][value=W]")
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
    assert "Disciplinary penalty (Law 91): 20 fine (N-S)" in page.inner_text("main")
    _fits(page, "ruling page")


def test_a_law_16_hesitation_from_the_source_to_the_weighted_score_on_a_phone(phone, live_server, field):
    """North passed slowly; South bid 3S (not pass). The poll: five of eight passed, two doubled.
    The director records the source, the alternatives and what was suggested; the page proposes
    5/7 of 3H W = and 2/7 of 3HX W -1, and the ruling form offers them as the weighted score."""
    page = phone
    _open_ruling(page, live_server, field, "North passed after about 15 seconds; South bid 3S.")
    ruling = Ruling.objects.get()
    page.goto(f"{live_server.url}/rulings/{ruling.pk}/edit/")
    page.click("text=Player poll (Law 16B1a)")
    page.fill("[name=poll_question]", "South's call over 3H?")
    votes = "\n".join(f"P{i}: {a}" for i, a in enumerate(["Pass"] * 5 + ["Double"] * 2 + ["3S"]))
    page.fill("[name=poll_votes]", votes)
    with page.expect_navigation():
        page.click("button[name=draft]")
    with page.expect_navigation():
        page.click("#record-ui-link")
    assert "Pass 5 · Double 2 · 3S 1" in page.inner_text("#ui-poll")
    page.select_option("[name=source_kind]", "hesitation")
    page.select_option("[name=source_seat]", "N")
    page.fill("[name=seconds]", "15")
    page.fill("[name=chosen]", "3S")
    for i, (action, contract, tricks) in enumerate((("Pass", "3H", "9"), ("Double", "3HX", "8")), start=1):
        page.fill(f"[name=alt{i}_action]", action)
        page.check(f"[name=alt{i}_suggested]")
        page.fill(f"[name=alt{i}_contract]", contract)
        page.select_option(f"[name=alt{i}_declarer]", "W")
        page.fill(f"[name=alt{i}_tricks]", tricks)
    page.check("[name=gained]")
    _fits(page, "Law 16 page")
    with page.expect_navigation():
        page.click("#record-ui")
    assert "16B1a, 16B1b, 16B3, 12C1c" in page.inner_text("#ui-finding")
    weights = page.inner_text("#ui-weights")
    assert "5/7" in weights and "2/7" in weights
    screenshot(page, "law-16-finding-phone")
    _fits(page, "Law 16 finding")
    with page.expect_navigation():
        page.click("#ui-to-ruling-form")
    assert page.input_value("[name=w1_weight]") == "5/7"
    assert page.input_value("[name=w2_contract]") == "3HX"
    page.fill("[name=ruling_text]", "Score adjusted (Law 16B1a)")
    with page.expect_navigation():
        page.click("button[name=give]")
    ruling = Ruling.objects.get()
    assert (ruling.state, ruling.score_kind, ruling.offending_side) == ("given", "weighted", "NS")
    assert sorted(c.law.number for c in ruling.citations.all()) == ["12C1c", "16B1a", "16B1b", "16B3"]
    # The poll's finding on the ruling page (issue #44): no share set, so every action a peer took
    # is proposed against 3S, weighted as the peers chose.
    finding = page.inner_text("#poll-finding")
    assert "Logical alternatives found from the poll: Pass, Double." in finding and "Pass 5/7, Double 2/7" in finding
    _fits(page, "ruling page")
