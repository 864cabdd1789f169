"""Issue #27, "Wrong words": numbers, sides and calls in the reader's words on the ruling's
pages. A 10% procedural penalty read "1E+1 percent of a top (NS)"; a poll counted "pass 4 · 4S 1"
in English on a Hebrew page; an auction's note said "East Pass" in every language; a precedent's
outcome was the casebook's English words."""

import re
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation

from appeals.models import Outcome
from bridge.auction import Auction, AuctionCall
from bridge.diagrams import auction_notes
from core import reader
from core.i18n import call_words, translate
from national.models import PrecedentCase
from rulings.models import Penalty
from tests.conftest import page_in
from tests.rulings.test_rulings import rule

pytestmark = pytest.mark.django_db


def text_of(html):
    """The page's text as a reader reads it: tags gone, each no-break space a space."""
    return re.sub(r"<[^>]+>", "", html).replace("\xa0", " ")


@pytest.mark.parametrize(
    ("value", "language", "shown"),
    [
        (Decimal("10.00"), "en", "10"),
        (Decimal("1E+1"), "en", "10"),  # what Decimal.normalize() makes of 10
        (Decimal("25"), "he", "25"),
        (Decimal("3"), "el", "3"),
        (Decimal("33.333"), "en", "33.33"),
        (Decimal("33.333"), "nl", "33,33"),
        (Decimal("2.50"), "uk", "2,5"),
        ("0.6", "is", "0,6"),
        (None, "en", ""),
    ],
)
def test_a_number_is_plain_and_in_the_readers_format(value, language, shown):
    with translation.override(language):
        assert reader.number(value) == shown


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "Procedural penalty (Law 90): 10 percent of a top (E-W) · slow play"),
        ("he", "עונש מינהלי (חוק 90): 10 אחוזים מטופ (מזרח-מערב) · slow play"),
        ("nl", "Procedurele straf (artikel 90): 10 procent van een top (OW) · slow play"),
    ],
)
def test_a_ten_percent_penalty_reads_as_ten_percent_of_a_top_with_the_side_named(
    client, field, director, language, line
):
    ruling = rule(
        field,
        director,
        penalty={"side": "EW", "amount": "10.00", "unit": Penalty.Unit.PERCENT_OF_TOP, "offence": "slow play"},
    )
    page = text_of(page_in(client, director, reverse("rulings:ruling", args=[ruling.pk]), language))
    assert line in page
    assert "1E+1" not in page and "(EW)" not in page


def test_matchpoints_in_dutch_have_a_decimal_comma(client, field, director):
    ruling = rule(
        field,
        director,
        penalty={"side": "NS", "amount": "2.5", "unit": Penalty.Unit.MATCHPOINTS, "offence": "slow play"},
    )
    page = text_of(page_in(client, director, reverse("rulings:ruling", args=[ruling.pk]), "nl"))
    assert "Procedurele straf (artikel 90): 2,5 matchpunten (NZ) · slow play" in page


@pytest.mark.parametrize(
    ("written", "language", "shown"),
    [
        ("pass", "he", "פאס"),
        ("Pass", "el", "Πάσο"),
        ("double", "uk", "Контра"),
        ("X", "nl", "Doublet"),
        ("redouble", "is", "redobl"),
        ("XX", "en", "Redouble"),
        ("4s", "he", "4S"),
        ("hesitate", "he", "hesitate"),  # not a call: as the director wrote it
    ],
)
def test_a_call_someone_wrote_is_shown_in_the_readers_words(written, language, shown):
    with translation.override(language):
        assert call_words(written) == shown


def test_the_poll_counts_its_calls_in_the_readers_words(client, field, director):
    ruling = rule(
        field,
        director,
        kind="ui",
        laws="16B1a",
        poll={
            "question": "What do you call?",
            "votes": [{"player": f"P{n}", "action": "pass"} for n in range(4)] + [{"player": "P9", "action": "4S"}],
        },
    )
    page = page_in(client, director, reverse("rulings:ruling", args=[ruling.pk]), "he")
    assert '<bdi class="nowrap">פאס 4</bdi> · <bdi class="nowrap">4S 1</bdi>' in page
    assert "<bdi>P0</bdi>: <bdi>פאס</bdi>" in page


def test_an_auctions_note_names_the_call_in_the_readers_words():
    auction = Auction("N", [AuctionCall("1S"), AuctionCall("Pass", tempo_seconds=20), AuctionCall("4S")])
    (note,) = auction_notes(auction)
    with translation.override("he"):
        assert translate(note["text"]) == "מזרח פאס — קצב: 20 שניות"
    with translation.override("nl"):
        assert translate(note["text"]).startswith("Oost Pas — ")


def test_a_precedents_outcome_is_in_the_readers_words_and_its_reasons_as_published():
    case = PrecedentCase(
        outcome=Outcome.UPHOLD, language="en", decision="Ruling upheld · weighted 60% 4S N =: The claim stands"
    )
    with translation.override("he"):
        assert (case.outcome_words(), case.decision_rest()) == ("הפסיקה אושרה", "weighted 60% 4S N =: The claim stands")
    assert PrecedentCase(outcome="", language="en", decision="The claim stands").decision_rest() == "The claim stands"
