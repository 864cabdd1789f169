"""Issue #28: a change of call (Law 25) and an inadmissible call (Laws 35-39) recorded on a
ruling as they happened, per edition. Table X: dealer North, 1S P 4S P P P (South's 4S is the
call changed or replaced below)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from bridge.auction import Auction
from rulings import services
from rulings.models import Ruling
from tests.rulings.test_revoke_rulings import edition, open_ruling

pytestmark = pytest.mark.django_db

# South said "three spades", meant four, paused and said "four spades".
SLIP = {"call_number": 3, "inserted": "3S", "unintended": True, "pause_for_thought": True, "attention_by": "W"}


def keys(ruling, kind, facts):
    return [o["key"] for o in services.irregularity_options(ruling, kind=kind, facts=facts)]


def test_2017_an_unintended_call_replaced_after_a_pause_is_25A_and_the_intended_call_stands(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    assert keys(ruling, "change_of_call", SLIP) == ["25A"]
    services.record_irregularity(ruling=ruling, by=director, kind="change_of_call", facts=SLIP, chosen="25A")
    ruling.refresh_from_db()
    assert ruling.irregularity_law == "25A"
    auction = Auction.from_dict(ruling.auction)
    assert [(c.call, c.status) for c in auction.calls[:4]] == [
        ("1S", ""),
        ("Pass", ""),
        ("3S", "withdrawn"),
        ("4S", ""),
    ]
    assert auction.validate() == ("4S", "N")


@pytest.mark.parametrize("law_edition", ["2007"])
def test_before_2017_a_pause_for_thought_makes_it_25B_the_opponent_choosing(field, director, law_edition):
    edition(field, law_edition)
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    assert keys(ruling, "change_of_call", SLIP) == ["25B1", "25B2"]
    services.record_irregularity(ruling=ruling, by=director, kind="change_of_call", facts=SLIP, chosen="25B2")
    ruling.refresh_from_db()
    assert ruling.irregularity_law == "25B2"
    auction = Auction.from_dict(ruling.auction)
    # The second call cancelled, the first stands: 3S, then the passes.
    assert [(c.call, c.status, c.seat) for c in auction.calls[2:4]] == [("3S", "", ""), ("4S", "cancelled", "S")]
    assert auction.validate() == ("3S", "N")


def test_25B1_the_left_hand_opponent_accepts_the_second_call(field, director):
    edition(field, "2007")
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    services.record_irregularity(ruling=ruling, by=director, kind="change_of_call", facts=SLIP, chosen="25B1")
    ruling.refresh_from_db()
    assert ruling.irregularity_law == "25B1"
    assert Auction.from_dict(ruling.auction).validate() == ("4S", "N")


def test_too_late_after_partner_called(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    assert keys(ruling, "change_of_call", {**SLIP, "partner_called": True}) == ["25A2"]


def test_an_inadmissible_double_of_partners_bid_is_cancelled_36B(field, director):
    """South doubled his partner's 1S (Law 19 allows no such double); West had not called:
    36B, South makes a legal call (4S), North must pass throughout."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    facts = {"call_number": 3, "inserted": "X", "inadmissible": "double", "attention_by": "W"}
    assert keys(ruling, "inadmissible_call", facts) == ["36B"]
    assert keys(ruling, "inadmissible_call", {**facts, "lho_called": True}) == ["36A"]
    services.record_irregularity(ruling=ruling, by=director, kind="inadmissible_call", facts=facts, chosen="36B")
    ruling.refresh_from_db()
    assert ruling.irregularity_law == "36B"
    assert ruling.irregularity["rectification"]["partner_must_pass"] == "throughout"
    auction = Auction.from_dict(ruling.auction)
    assert [(c.call, c.status) for c in auction.calls[2:4]] == [("X", "cancelled"), ("4S", "")]
    assert auction.validate() == ("4S", "N")


def test_an_inadmissible_call_of_no_kind_is_refused_at_its_field(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    with pytest.raises(ValidationError) as error:
        services.irregularity_options(ruling, kind="inadmissible_call", facts={"call_number": 3})
    assert list(error.value.message_dict) == ["inadmissible"]


def test_the_page_offers_change_of_call_and_inadmissible_calls(client, field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    client.force_login(director)
    url = reverse("rulings:ruling-irregularity", args=[ruling.pk])
    page = client.get(url).content.decode()
    assert "Change of call (Law 25)" in page and "Inadmissible call (Laws 35-39)" in page
    data = {"kind": "change_of_call", "call_number": 3, "inserted": "3S", "unintended": "on", "attention_by": "W"}
    page = client.post(url, {**data, "action": "options"}).content.decode()
    assert 'value="25A"' in page
    response = client.post(url, {**data, "action": "record", "chosen": "25A"})
    assert response.status_code == 302
    assert Ruling.objects.get(pk=ruling.pk).irregularity_law == "25A"


def test_2017_25B2_a_defenders_change_not_accepted_brings_law_26B(field, director):
    """2017 25B2 "The original call stands and the auction continues (Law 26 may apply)": East
    said 2H, then changed it to a pass on purpose; South did not accept the pass (25B2). East's 2H
    stands, the pass is cancelled, and when East-West defend declarer may prohibit the lead of one
    suit East did not specify (26B). Before, 25B2 brought no lead restriction."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    facts = {"call_number": 2, "inserted": "2H", "unintended": False, "attention_by": "S"}
    assert keys(ruling, "change_of_call", facts) == ["25B1", "25B2"]
    services.record_irregularity(ruling=ruling, by=director, kind="change_of_call", facts=facts, chosen="25B2")
    ruling.refresh_from_db()
    assert ruling.irregularity_law == "25B2"
    auction = Auction.from_dict(ruling.auction)
    assert [(c.call, c.status, c.seat) for c in auction.calls[:3]] == [
        ("1S", "", ""),
        ("2H", "", ""),
        ("Pass", "cancelled", "E"),
    ]
    assert ruling.irregularity["lead_restriction"]["law"] == "26B"
    assert ruling.irregularity["lead_restriction"]["prohibit"] == ["S", "D", "C"]


def test_1997_25B2b1_after_a_pause_the_first_call_stands_and_partner_passes_at_his_next_turn(field, director):
    """1997 25B2(b)(1): South's 4S (after a pause) not accepted, South lets his 3S stand; "his
    partner must pass when next it is his turn to call". The options name the offender's two
    choices (25B2(b)(1), (b)(2)) where one 25B2 named both."""
    edition(field, "1997")
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    assert keys(ruling, "change_of_call", SLIP) == ["25B1", "25B2b1", "25B2b2"]
    services.record_irregularity(ruling=ruling, by=director, kind="change_of_call", facts=SLIP, chosen="25B2b1")
    ruling.refresh_from_db()
    assert ruling.irregularity_law == "25B2b1"
    assert ruling.irregularity["rectification"]["partner_must_pass"] == "next"
    auction = Auction.from_dict(ruling.auction)
    assert [(c.call, c.status, c.seat) for c in auction.calls[2:4]] == [("3S", "", ""), ("4S", "cancelled", "S")]
    assert auction.validate() == ("3S", "N")
    assert "25B2" in [c.law.number for c in ruling.citations.select_related("law") if c.law is not None]


def test_1997_25B2b2_any_other_legal_call_stands_at_most_average_minus(field, director):
    """1997 25B2(b)(2): South makes his other legal call (4S again, the call after the changed
    one); his side gets at most average minus."""
    edition(field, "1997")
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    services.record_irregularity(ruling=ruling, by=director, kind="change_of_call", facts=SLIP, chosen="25B2b2")
    ruling.refresh_from_db()
    assert ruling.irregularity_law == "25B2b2"
    assert ruling.irregularity["rectification"]["score_cap"] == "average_minus"
    auction = Auction.from_dict(ruling.auction)
    assert [(c.call, c.status) for c in auction.calls[2:4]] == [("3S", "withdrawn"), ("4S", "")]
    assert auction.validate() == ("4S", "N")
