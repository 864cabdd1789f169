"""Laws of the play on a ruling, per edition (issue #39). Table X of the ``field`` fixture:
dealer North, 1S P 4S P P P, 4S by North, South dummy."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from rulings import services
from rulings.models import Ruling
from tests.rulings.test_revoke_rulings import edition, open_ruling


@pytest.mark.parametrize("seat, card", [("N", "SA"), ("S", "H3")])
def test_48a_a_card_exposed_by_declarer_or_dummy_is_no_penalty_card(field, director, seat, card):
    """48A: "no card of declarer's or dummy's hand ever becomes a penalty card": the only option is
    48A, no penalty card is followed through the play."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    facts = {"trick": 2, "seat": seat, "card": card}
    options = services.irregularity_options(ruling, kind="exposed_card", facts=facts)
    assert [(o["key"], o["penalty_card"]) for o in options] == [("48A", "")]
    services.record_irregularity(ruling=ruling, by=director, kind="exposed_card", facts=facts, chosen="48A")
    ruling.refresh_from_db()
    assert ruling.irregularity_law == "48A"
    assert "penalty_cards" not in ruling.irregularity


def test_2007_57a3_forbids_the_suit_on_a_ruling(field, director):
    """2007 57A3 "forbid offender's partner to play a card of a different suit specified by
    declarer": East played before West to trick 2 (hearts led); the suit options forbid."""
    edition(field, "2007")
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    options = services.irregularity_options(
        ruling, kind="premature_play", facts={"trick": 2, "seat": "E", "card": "H2"}
    )
    named = [o for o in options if o["key"].startswith("57A3:")]
    assert [o["key"] for o in named] == ["57A3:S", "57A3:D", "57A3:C"]
    assert all("may not play a card of the suit declarer names" in o["text"] for o in named)


@pytest.mark.parametrize("value, offered", [("2007", ["54A", "54B"]), ("2017", ["54B"])])
def test_54c_declarer_who_could_have_seen_dummy_must_accept_on_a_ruling(field, director, value, offered):
    """54C: West faced the opening lead out of turn and declarer could have seen dummy's cards:
    he must accept; 2017 "and the presumed declarer then becomes declarer" leaves 54B alone."""
    edition(field, value)
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    facts = {"trick": 1, "seat": "W", "card": "D5", "dummy_seen": True}
    options = services.irregularity_options(ruling, kind="lead_out_of_turn", facts=facts)
    assert [o["key"] for o in options] == offered


def test_2017_53a_no_lead_out_of_turn_is_accepted_at_the_thirteenth_trick_on_a_ruling(field, director):
    """2017 53A "Prior to the thirteenth trick": East's lead out of turn at trick 13 is retracted (56)."""
    edition(field, "2017")
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    options = services.irregularity_options(
        ruling, kind="lead_out_of_turn", facts={"trick": 13, "seat": "E", "card": "C2"}
    )
    assert [o["key"] for o in options] == ["56"]


@pytest.mark.parametrize("value", ["1997", "2007", "2017"])
def test_50b_a_second_low_card_exposed_by_the_same_defender_is_major_on_a_ruling(field, director, value):
    """50B: "when one defender has two or more penalty cards, all such cards become major penalty
    cards": West dropped the C8 at trick 2 (a minor penalty card, 50C) and drops the C7 at trick 3,
    the C8 still on the table: the page offers 50D, a major penalty card (it offered 50C)."""
    edition(field, value)
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    first = {"trick": 2, "seat": "W", "card": "C8"}
    assert [o["key"] for o in services.irregularity_options(ruling, kind="exposed_card", facts=first)] == ["50C"]
    services.record_irregularity(ruling=ruling, by=director, kind="exposed_card", facts=first, chosen="50C")
    ruling.refresh_from_db()
    second = {"trick": 3, "seat": "W", "card": "C7"}
    options = services.irregularity_options(ruling, kind="exposed_card", facts=second)
    assert [(o["key"], o["penalty_card"]) for o in options] == [("50D", "major")]
    # The same card recorded again is not a second penalty card.
    assert [o["key"] for o in services.irregularity_options(ruling, kind="exposed_card", facts=first)] == ["50C"]


def test_55b2_dummy_led_when_declarer_was_to_lead_on_a_ruling(field, director):
    """55B2 "declarer has led from the wrong hand when it was his turn to lead from his hand or
    dummy's": North won trick 2 with the HK (the play attached), so a card led from South (dummy)
    to trick 3 is led from the wrong hand: the defenders may accept it (55A) or have it retracted
    under 55B2; 55B1 (a defender's turn) is not offered (it was, with 55B2)."""
    edition(field, "2017")
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    options = services.irregularity_options(
        ruling, kind="lead_out_of_turn", facts={"trick": 3, "seat": "S", "card": "D8"}
    )
    assert [(o["key"], o["chooser"]) for o in options] == [("55A", "defender"), ("55B2", "defender")]


def test_52_a_penalty_card_not_played_on_the_page(client, field, director):
    """Law 52 on the irregularity page: West's CJ is a major penalty card from trick 2; at trick 3
    he discards the D2 instead (50D1: it had to be played). Declarer may accept the D2 (52B1a) or
    not (52B2); North led to trick 4 after it, so he must accept it (52B1b), recorded with its law
    and words. Declarer and dummy have no penalty card to fail to play (48A)."""
    edition(field, "2017")
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    exposed = {"trick": 2, "seat": "W", "card": "CJ"}
    services.record_irregularity(ruling=ruling, by=director, kind="exposed_card", facts=exposed, chosen="50D")
    ruling.refresh_from_db()
    facts = {"trick": 3, "seat": "W", "card": "D2"}
    kind = "penalty_card_not_played"
    assert [o["key"] for o in services.irregularity_options(ruling, kind=kind, facts=facts)] == ["52B1a", "52B2"]
    client.force_login(director)
    url = reverse("rulings:ruling-irregularity", args=[ruling.pk])
    data = {"kind": kind, **facts, "declarer_played": "on"}
    page = client.post(url, {**data, "action": "options"})
    assert "Penalty card not played when it had to be (Law 52)" in page.content.decode()
    assert b'value="52B1b"' in page.content and b'value="52B1a"' not in page.content
    assert client.post(url, {**data, "action": "record", "chosen": "52B1b"}).status_code == 302
    ruling.refresh_from_db()
    assert ruling.irregularity_law == "52B1b"
    assert ruling.irregularity["rectification"]["text"] == (
        "declarer has played to the trick since: he must accept the card led or played, and the penalty card "
        "stays on the table"
    )
    with pytest.raises(ValidationError):
        services.irregularity_options(ruling, kind=kind, facts={"trick": 3, "seat": "N", "card": "H8"})
