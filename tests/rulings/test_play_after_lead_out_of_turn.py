"""The play as it went after an opening lead out of turn accepted (2017 Law 54B: "declarer may
accept the lead ... dummy's hand is spread ... the second card to the trick is played from
declarer's hand"): the LIN of the play is accepted once 54B is recorded on the ruling, and read
from the seat that really led (issue #39, item 11: it was refused, "pc 1 (CK): South is to play and
does not hold CK"). Table X of the ``field`` tournament: 4S by North, East on lead; West led the
CJ out of turn, North (declarer) played the C3 second, East the C4, South (dummy) the CA."""

from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from bridge.auction import Auction
from rulings import services
from rulings.models import Ruling
from tests.rulings.test_revoke_rulings import LIN, open_ruling

pytestmark = pytest.mark.django_db

WITHOUT_PLAY = LIN.split("|pc|")[0] + "|"
PLAYED = WITHOUT_PLAY + "pc|CJ|pc|C3|pc|C4|pc|CA|"


def test_without_the_54b_recorded_the_play_is_refused():
    with pytest.raises(ValidationError) as error:
        services.read_deal_source(PLAYED)
    assert error.value.message_dict["deal_source"] == ["pc 1 (CJ): East is to play and does not hold CJ"]


def test_after_54b_the_play_as_it_went_is_attached(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED, lin=WITHOUT_PLAY)
    services.record_irregularity(
        ruling=ruling,
        by=director,
        kind="lead_out_of_turn",
        facts={"trick": 1, "seat": "W", "card": "CJ", "attention_by": "N"},
        chosen="54B",
    )
    ruling = Ruling.objects.get(pk=ruling.pk)
    record = services.read_deal_source(PLAYED, ruling=ruling)
    services.attach_deal_and_auction(ruling=ruling, record=record, by=director)
    auction = Auction.from_dict(Ruling.objects.get(pk=ruling.pk).auction)
    assert auction.play == [["CJ", "C3", "C4", "CA"]]
    ((irregularity),) = auction.play_irregularities
    assert (irregularity.kind, irregularity.seat, irregularity.card, irregularity.option) == (
        "lead_out_of_turn",
        "W",
        "CJ",
        "54B",
    )


PBN = (Path(__file__).resolve().parents[1] / "fixtures" / "pbn" / "lead_out_of_turn_54b.pbn").read_text()


def test_without_the_54b_recorded_the_pbn_from_the_leaders_column_is_refused():
    """The file's Play section starts from West, who led; East was on lead."""
    with pytest.raises(ValidationError) as error:
        services.read_deal_source(PBN)
    assert error.value.message_dict["deal_source"] == [
        "line 19: Play: the play starts with W but the opening leader is E, on declarer N's left"
    ]


def test_after_54b_the_pbn_of_the_play_as_it_went_is_attached(field, director):
    """2017 54B1: "declarer may accept the lead ... dummy's hand is spread ... the second card to
    the trick is played from declarer's hand": the PBN file read after 54B is recorded."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED, lin=WITHOUT_PLAY)
    services.record_irregularity(
        ruling=ruling,
        by=director,
        kind="lead_out_of_turn",
        facts={"trick": 1, "seat": "W", "card": "CJ", "attention_by": "N"},
        chosen="54B",
    )
    ruling = Ruling.objects.get(pk=ruling.pk)
    services.attach_deal_and_auction(ruling=ruling, record=services.read_deal_source(PBN, ruling=ruling), by=director)
    auction = Auction.from_dict(Ruling.objects.get(pk=ruling.pk).auction)
    assert auction.play == [["CJ", "C3", "C4", "CA"]]
    assert [(i.seat, i.card, i.option) for i in auction.play_irregularities] == [("W", "CJ", "54B")]


def test_the_pbn_exported_after_54b_reads_back_in_the_order_played(field, director):
    """The export puts each card under the seat that played it, from the opening leader's column
    (East): read with the 54B recorded, the trick starts with West's CJ again."""
    from bridge.lin import parse_lin
    from bridge.pbn_record import parse_pbn_record, to_pbn

    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED, lin=WITHOUT_PLAY)
    services.record_irregularity(
        ruling=ruling, by=director, kind="lead_out_of_turn",
        facts={"trick": 1, "seat": "W", "card": "CJ", "attention_by": "N"}, chosen="54B",
    )  # fmt: skip
    recorded = Auction.from_dict(Ruling.objects.get(pk=ruling.pk).auction).play_irregularities
    exported = to_pbn(parse_lin(PLAYED, play_irregularities=recorded))
    assert '[Play "E"]' in exported
    assert parse_pbn_record(exported, play_irregularities=recorded).auction.play == [["CJ", "C3", "C4", "CA"]]
