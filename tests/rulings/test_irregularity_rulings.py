"""Irregularities recorded on a ruling (rulings/services/irregularities.py, issue #28): the irregular
call or card kept in the ruling's auction as it happened, the options of the edition in force, the
option chosen. Table X of the ``field`` fixture: dealer North, 1S P 4S P P P, 4S by North; East
leads the C4 (tests/fixtures/lin/revoke_board1.lin)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from bridge.auction import Auction
from rulings import services
from rulings.models import Ruling
from tests.rulings.test_revoke_rulings import edition, open_ruling


def test_an_insufficient_bid_replaced_by_a_pass(field, director):
    """East bid 1D over North's 1S; South drew attention; East replaced it with a pass: 27B2,
    West must pass throughout, and declarer may prohibit the lead of any one suit East did not
    specify in the legal auction (2017 26B: all four; no requirement)."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    facts = {"call_number": 2, "inserted": "1D", "attention_by": "S"}
    options = services.irregularity_options(ruling, kind="insufficient_bid", facts=facts)
    assert [o["key"] for o in options] == ["27A1", "27B1a:2D", "27B1b", "27B2", "27B3"]
    services.record_irregularity(ruling=ruling, by=director, kind="insufficient_bid", facts=facts, chosen="27B2")
    ruling.refresh_from_db()
    assert ruling.irregularity_law == "27B2"
    assert ruling.irregularity["edition"] == "2017"
    assert ruling.irregularity["chosen"] == "27B2"
    assert ruling.irregularity["rectification"]["partner_must_pass"] == "throughout"
    assert ruling.irregularity["lead_restriction"]["law"] == "26B"
    assert ruling.irregularity["lead_restriction"]["require"] == []
    assert ruling.irregularity["lead_restriction"]["prohibit"] == ["S", "H", "D", "C"]
    auction = Auction.from_dict(ruling.auction)
    assert [c.call for c in auction.calls] == ["1S", "1D", "Pass", "4S", "Pass", "Pass", "Pass"]
    irregular = auction.as_called().irregular
    assert [(c.seat, c.call, c.status, c.law, c.attention_by, c.option) for c in irregular] == [
        ("E", "1D", "cancelled", "27B2", "S", "27B2")
    ]
    assert auction.validate() == ("4S", "N")


CONDONED_LIN = (
    "pn|sam,wendy,nora,eddie|st||md|3ST73HAQ653DAQ8CA2,S54H7DK96532CJ875,SAK96HKJ8DT74CQ93,SQJ82HT942DJCKT64|"
    "rh||ah|Board 1|sv|o|mb|1H|mb|1D|mb|p|mb|p|mb|p|"
)


def test_an_insufficient_bid_accepted(field, director):
    """1H 1D P P P: attached as called (condoned, 27A1: 1D by East); South had drawn attention and
    chose to accept: the director records 27A1."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED, lin=CONDONED_LIN)
    assert Auction.from_dict(ruling.auction).validate() == ("1D", "E")
    services.record_irregularity(
        ruling=ruling,
        by=director,
        kind="insufficient_bid",
        facts={"call_number": 2, "attention_by": "S"},
        chosen="27A1",
    )
    ruling.refresh_from_db()
    assert ruling.irregularity_law == "27A1"
    irregular = Auction.from_dict(ruling.auction).as_called().irregular
    assert [(c.seat, c.call, c.status, c.law) for c in irregular] == [("E", "1D", "accepted", "27A1")]


def test_the_edition_decides_the_options(field, director):
    edition(field, "1997")
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    options = services.irregularity_options(ruling, kind="insufficient_bid", facts={"call_number": 2, "inserted": "1D"})
    assert [o["key"] for o in options] == ["27A1", "27B1a:2D", "27B2", "27B3"]


def test_a_refused_choice_names_the_options(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    with pytest.raises(ValidationError) as raised:
        services.record_irregularity(
            ruling=ruling, by=director, kind="insufficient_bid", facts={"call_number": 2, "inserted": "1D"}, chosen="99"
        )
    assert raised.value.message_dict["chosen"] == [
        "Choose one of the options the Laws offer: 27A1, 27B1a:2D, 27B1b, 27B2, 27B3."
    ]
    with pytest.raises(ValidationError) as raised:
        services.irregularity_options(ruling, kind="insufficient_bid", facts={"call_number": 1, "inserted": "1D"})
    assert raised.value.message_dict["call_number"] == ["No bid was made before this call: it is not insufficient."]


def test_an_opening_lead_out_of_turn_refused_with_a_penalty_card(field, director):
    """West faced the D5; declarer had it retracted (54D): a major penalty card; East, on lead,
    is the offender's partner: declarer prohibits diamonds (50D2a) and the card is picked up."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    facts = {"trick": 1, "seat": "W", "card": "D5", "attention_by": "N"}
    options = services.irregularity_options(ruling, kind="lead_out_of_turn", facts=facts)
    assert [o["key"] for o in options] == ["54A", "54B", "54D"]
    services.record_irregularity(
        ruling=ruling, by=director, kind="lead_out_of_turn", facts=facts, chosen="54D", lead_option="prohibit:D"
    )
    ruling.refresh_from_db()
    assert ruling.irregularity_law == "54D"
    assert ruling.irregularity["rectification"]["penalty_card"] == "major"
    assert [o["key"] for o in ruling.irregularity["lead_options"]] == ["require:D", "prohibit:D", "none"]
    assert ruling.irregularity["penalty_cards"] == [
        {"seat": "W", "card": "D5", "major": True, "law": "54D", "played_at": None, "picked_up_at": 1}
    ]
    auction = Auction.from_dict(ruling.auction)
    assert [(i.kind, i.seat, i.card, i.option) for i in auction.play_irregularities] == [
        ("lead_out_of_turn", "W", "D5", "54D"),
        ("penalty_card_lead", "E", "", "prohibit:D"),
    ]


def test_a_card_the_offender_does_not_hold_is_refused(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    with pytest.raises(ValidationError) as raised:
        services.record_irregularity(
            ruling=ruling,
            by=director,
            kind="lead_out_of_turn",
            facts={"trick": 1, "seat": "W", "card": "SA"},
            chosen="54D",
        )
    assert raised.value.message_dict["card"] == ["W does not hold SA."]


def test_the_page_offers_the_options_and_records_the_choice(client, field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    client.force_login(director)
    url = reverse("rulings:ruling-irregularity", args=[ruling.pk])
    data = {"kind": "insufficient_bid", "call_number": 2, "inserted": "1D", "attention_by": "S"}
    page = client.post(url, {**data, "action": "options"})
    assert page.status_code == 200
    assert b'value="27B1a:2D"' in page.content
    response = client.post(url, {**data, "action": "record", "chosen": "27B1a:2D"})
    assert response.status_code == 302
    ruling.refresh_from_db()
    assert ruling.irregularity["chosen"] == "27B1a:2D"
    # the record's replacement is a pass, not 2D: the law is what the pass brings (27B2)
    assert ruling.irregularity_law == "27B2"
    api = client.get(f"/api/v1/rulings/{ruling.pk}/")
    assert api.json()["irregularity_law"] == "27B2"
    assert api.json()["irregularity"]["chosen"] == "27B1a:2D"


def test_the_api_records_a_lead_out_of_turn(client, field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    client.force_login(director)
    body = {
        "kind": "lead_out_of_turn",
        "facts": {"trick": 1, "seat": "W", "card": "D5", "attention_by": "N"},
        "chosen": "54D",
        "lead_option": "none",
    }
    response = client.post(f"/api/v1/rulings/{ruling.pk}/irregularity/", body, content_type="application/json")
    assert response.status_code == 200, response.content
    assert response.json()["irregularity_law"] == "54D"
    assert response.json()["irregularity"]["penalty_cards"] == [
        {"seat": "W", "card": "D5", "major": True, "law": "54D", "played_at": None, "picked_up_at": None}
    ]
    refused = client.post(
        f"/api/v1/rulings/{ruling.pk}/irregularity/", {**body, "chosen": "53A"}, content_type="application/json"
    )
    assert refused.status_code == 409  # well formed, refused by the record (core.api_contract.exception_handler)
    assert refused.json()["chosen"] == ["Choose one of the options the Laws offer: 54A, 54B, 54D."]


def test_a_premature_play_by_a_defender(field, director):
    """Trick 2 (South leads the H3 after winning the CA): East plays the H2 before his partner West
    has played: a major penalty card (57A); declarer has West play his lowest heart (57A2). East
    then plays the H2 at his turn: the penalty card is played at trick 2."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    facts = {"trick": 2, "seat": "E", "card": "H2", "attention_by": "S"}
    options = services.irregularity_options(ruling, kind="premature_play", facts=facts)
    # West holds all four suits; hearts were led, so 57A3 (require) and 57A4 (forbid) name the other three.
    assert [o["key"] for o in options] == [
        "57A1",
        "57A2",
        "57A3:S",
        "57A3:D",
        "57A3:C",
        "57A4:S",
        "57A4:D",
        "57A4:C",
    ]
    services.record_irregularity(ruling=ruling, by=director, kind="premature_play", facts=facts, chosen="57A2")
    ruling.refresh_from_db()
    assert ruling.irregularity_law == "57A2"
    assert ruling.irregularity["penalty_cards"] == [
        {"seat": "E", "card": "H2", "major": True, "law": "57A", "played_at": 2, "picked_up_at": None}
    ]
    edition(field, "1997")
    options = services.irregularity_options(ruling, kind="premature_play", facts=facts)
    assert "may not play a card of the suit declarer names (S)" in options[2]["text"]
