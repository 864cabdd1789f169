"""Card ranks shown the regulating authority's way (setting ``card_rank_letters``): A K Q J 10
everywhere by default, the letters of the page's language when the body prefers national ones.
The ruling page's diagram, its SVG image and the board page all follow the same setting.

The deal is tests/conftest.py's: North holds AK96.KJ8.T74.Q93 (in Dutch letters AH96 HB8 1074
V93), East QJ82.T942.J.KT64."""

import datetime
import re
import xml.etree.ElementTree as ET

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from core import policy
from core.i18n import display_card, rank_letters, rank_preference
from rulings import services as ruling_services
from rulings.models import Ruling
from scoring import authority_settings, services
from tests.conftest import page_in, table_result

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"
AUCTION = {
    "dealer": "N",
    "calls": [{"call": c} for c in ("1S", "Pass", "4S", "Pass", "Pass", "Pass")],
    "opening_lead": "HQ",
}

INTERNATIONAL = {"N": ["AK96", "KJ8", "1074", "Q93"], "E": ["QJ82", "10942", "J", "K1064"]}
DUTCH = {"N": ["AH96", "HB8", "1074", "V93"], "E": ["VB82", "10942", "B", "H1064"]}
ICELANDIC = {"N": ["ÁK96", "KG8", "1074", "D93"], "E": ["DG82", "10942", "G", "K1064"]}


def prefer(record, value, effective_from=datetime.date(2026, 1, 1)):
    services.set_authority_setting(
        authority=record.authority,
        key="card_rank_letters",
        value=value,
        effective_from=effective_from,
        by=policy.SYSTEM,
    )


@pytest.fixture
def ruled(record, people):
    """Board 1 played at table 1 (4S N =, the queen of hearts led) and a ruling on it whose
    auction ends in 4S by North, West leading the queen of hearts."""
    result = table_result(record, 0, contract="4S", declarer="N", tricks=10, lead="HQ")
    ruling = ruling_services.rule(
        result=result,
        director=people.director,
        kind=Ruling.Kind.CLAIM,
        laws="70D1",
        ruling_text="Result stands",
        outcome="result_stands",
        give=True,
    )
    ruling_services.attach_deal_and_auction(ruling=ruling, by=ruling.director, auction=AUCTION)
    record.result, record.ruling = result, ruling
    return record


def html_hand(page, seat):
    """The four suits of ``seat``'s hand in the page's diagram, as printed."""
    block = re.search(rf'<div class="hand hand-{seat.lower()}">(.*?)</div></div>', page, re.S)[1] + "</div>"
    return re.findall(r'<span class="sym s-[SHDC]">[♠♥♦♣]</span> ([^<]*)</div>', block)


def svg_hand(svg, seat):
    root = ET.fromstring(svg)
    group = next(g for g in root.iter(f"{SVG}g") if g.get("data-seat") == seat)
    return ["".join(t.itertext())[2:] for t in group.iter(f"{SVG}text")][1:]


@pytest.mark.parametrize(
    "preference,language,letters",
    [
        ("national", "nl", DUTCH),
        ("national", "is", ICELANDIC),
        ("national", "en", INTERNATIONAL),
        ("national", "he", INTERNATIONAL),  # the Hebrew Laws print A K Q J
        ("international", "nl", INTERNATIONAL),
        (None, "nl", INTERNATIONAL),  # the default
    ],
)
def test_the_ruling_page_and_its_svg_follow_the_authority_and_the_page_language(
    client, ruled, people, preference, language, letters
):
    if preference:
        prefer(ruled, preference)
    page = page_in(client, people.director, reverse("rulings:ruling", args=[ruled.ruling.pk]), language)
    svg = page_in(client, people.director, reverse("rulings:ruling-svg", args=[ruled.ruling.pk]), language)
    for seat in ("N", "E"):
        assert html_hand(page, seat) == letters[seat], seat
        assert svg_hand(svg, seat) == letters[seat], seat
    queen = letters["N"][3][0]  # the letter the diagram prints for the queen
    assert f'<span dir="ltr">♥{queen}</span>' in page  # the opening lead
    assert f": ♥{queen}</text>" in svg  # the lead, after "lead:" in the page's language


def test_national_letters_on_a_dutch_page_are_h_v_b_and_10(client, ruled, people):
    prefer(ruled, "national")
    page = page_in(client, people.director, reverse("rulings:ruling", args=[ruled.ruling.pk]), "nl")
    assert '<div class="seat">Noord</div><div class="suit" dir="ltr"><span class="sym s-S">♠</span> AH96</div>' in page
    assert '<span class="sym s-D">♦</span> 1074</div>' in page and "</span> T74" not in page
    svg = page_in(client, people.director, reverse("rulings:ruling-svg", args=[ruled.ruling.pk]), "nl")
    assert "\u2660 AH96" in svg and "\u2663 V93" in svg and "AK96" not in svg
    english = page_in(client, people.director, reverse("rulings:ruling-svg", args=[ruled.ruling.pk]), "en")
    assert "\u2660 AK96" in english and "\u2663 Q93" in english and "\u2666</tspan> 1074" in english


def test_the_board_page_diagram_and_lead_follow_the_setting(client, ruled, people):
    url = reverse("scoring:board", args=[ruled.boards[0].pk])
    page = page_in(client, people.director, url, "nl")
    assert html_hand(page, "N") == INTERNATIONAL["N"] and 'class="lead">♥Q</td>' in page
    prefer(ruled, "national")
    page = page_in(client, people.director, url, "nl")
    assert html_hand(page, "N") == DUTCH["N"] and 'class="lead">♥V</td>' in page
    page = page_in(client, people.director, url, "en")
    assert html_hand(page, "N") == INTERNATIONAL["N"] and 'class="lead">♥Q</td>' in page


def test_a_setting_dated_after_the_tournament_does_not_change_it(client, ruled, people):
    prefer(ruled, "national", effective_from=datetime.date(2026, 6, 1))  # the tournament began 1 May 2026
    assert rank_preference(ruled.tournament) == "international"
    page = page_in(client, people.director, reverse("rulings:ruling", args=[ruled.ruling.pk]), "nl")
    assert html_hand(page, "N") == INTERNATIONAL["N"]


def test_the_setting_takes_only_its_two_values():
    assert authority_settings.defaults()["card_rank_letters"] == "international"
    authority_settings.validate_setting("card_rank_letters", "national")
    with pytest.raises(ValidationError):
        authority_settings.validate_setting("card_rank_letters", "dutch")


def test_cards_as_printed():
    assert display_card("HQ", rank_letters("nl")) == "♥V"
    assert display_card("S10") == display_card("ST") == "♠10"
    assert display_card("") == "" and display_card("??") == "??"


@pytest.mark.parametrize(
    "language, words",
    [
        (
            "he",
            [
                "לוח 1",
                "מחלק: צפון",
                "פגיעות: אין",
                "צפון",
                "מערב",
                "מזרח",
                "דרום",
                "פאס",
                "חוזה: 4♠ על-ידי צפון; הובלה: ♥Q",
            ],
        ),
        (
            "el",
            [
                "Διανομή 1",
                "Μοιραστής: Βορράς",
                "Ευπάθεια: κανείς",
                "Βορράς",
                "Δύση",
                "Ανατολή",
                "Νότος",
                "Πάσο",
                "Συμβόλαιο: 4♠ από Βορράς· αντάμ: ♥Q",
            ],
        ),
        (
            "nl",
            [
                "Spel 1",
                "Gever: Noord",
                "Kwetsbaar: niemand",
                "Noord",
                "West",
                "Oost",
                "Zuid",
                "Pas",
                "Contract: 4♠ door Noord; uitkomst: ♥Q",
            ],
        ),
        (
            "en",
            [
                "Board 1",
                "Dealer: North",
                "Vul: None",
                "North",
                "West",
                "East",
                "South",
                "Pass",
                "Contract: 4♠ by North; lead: ♥Q",
            ],
        ),
    ],
)
def test_the_svg_diagram_reads_in_the_pages_language(client, ruled, people, language, words):
    """The diagram's own words (board, dealer, vulnerability, the seats over the hands and over
    the auction, Pass, the contract and lead) in the language of the page that asks for it."""
    svg = page_in(client, people.director, reverse("rulings:ruling-svg", args=[ruled.ruling.pk]), language)
    texts = ["".join(element.itertext()) for element in ET.fromstring(svg).iter(f"{SVG}text")]
    board, dealer, vulnerability, north, west, east, south, pass_, contract = words
    assert texts[1:4] == [board, dealer, vulnerability]
    assert [texts[4], texts[9], texts[14], texts[19]] == [north, west, east, south]  # over the hands
    auction = texts[texts.index("1") + 1 :]
    assert auction == [west, north, east, south, "1♠", pass_, "4♠", pass_, pass_, pass_, contract]
