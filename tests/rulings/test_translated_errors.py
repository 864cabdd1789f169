"""Messages of the plain-Python readers and the engine reach a director in the language of the
page: a PBN file refused on the ruling form, a LIN link or a contract refused by the API. They
name the same line and field as in English (the PBN tag, the LIN key, the JSON field stay as
written)."""

from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from rulings.models import Ruling
from tests.conftest import table_result

pytestmark = pytest.mark.django_db
FOURTEEN_CARDS = (Path(__file__).resolve().parents[1] / "fixtures" / "pbn" / "bad_14_cards.pbn").read_bytes()

# The file's board 2 gives North 14 cards and East 12 (tests/scoring/test_pbn_parser.py).
REFUSED = {
    "en": "line 73: Deal: North holds 14 cards and East 12: a hand has 13",
    "nl": "regel 73: Deal: Noord heeft 14 kaarten en Oost 12: een hand heeft er 13",
    "he": "שורה 73: Deal: לצפון יש 14 קלפים ולמזרח 12: ביד יש 13",
    "uk": "рядок 73: Deal: Північ тримає 14 карт і Схід: 12; у руці має бути 13",
}


@pytest.fixture
def result(record):
    return table_result(record, 0, contract="4S", declarer="N", tricks=10)


@pytest.mark.parametrize("language", ["en", "nl", "he", "uk"])
def test_a_pbn_file_with_a_fourteen_card_hand_is_refused_in_the_page_language(client, people, result, language):
    client.force_login(people.director)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.post(
        reverse("rulings:ruling-new", args=[result.pk]),
        {
            "kind": "claim",
            "laws": "70D1",
            "ruling_text": "Result stands",
            "outcome": "result_stands",
            "deal_file": SimpleUploadedFile("session.pbn", FOURTEEN_CARDS),
            "draft": "1",
        },
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert f'<ul class="errorlist" id="id_deal_source_error"><li>{REFUSED[language]}</li></ul>' in page
    if language != "en":
        assert REFUSED["en"] not in page and "holds 14 cards" not in page
    assert not Ruling.objects.exists()


def api(user, language):
    client = APIClient()
    client.force_authenticate(user)
    client.credentials(HTTP_ACCEPT_LANGUAGE=language)
    return client


def ruling_request(result, **extra):
    data = {
        "result": result.pk,
        "kind": "claim",
        "laws": ["70D1"],
        "ruling_text": "Adjusted",
        "give": True,
        "outcome": "adjusted",
        "score_kind": "assigned",
        "offending_side": "NS",
        "ns": {"contract": "4S", "declarer": "N", "tricks": 9},
    }
    data.update(extra)
    return data


@pytest.mark.parametrize(
    "change,field,english,dutch",
    [
        (
            {"deal_source": "https://www.bridgebase.com/tools/handviewer.html?bbo=y"},
            "deal_source",
            "the link has no lin= parameter",
            "de link heeft geen parameter lin=",
        ),
        (
            {"deal_source": "md|1SAK4HQ73DKJ82CA96,SQJ965HAKJ92D5C74,ST7H85DAQ963CKQJ3,|sv|o|mb|1N|mb|p|mb|1S|"},
            "deal_source",
            "mb 3 (1S): insufficient: the last bid was 1NT",
            "mb 3 (1S): onvoldoende: het laatste bod was 1NT",
        ),
        (
            {"ns": {"contract": "8NT", "declarer": "N", "tricks": 9}},
            "ns",
            "contract: '8NT' has level 8: a level is 1 to 7.",
            "contract: '8NT' heeft niveau 8: een niveau is 1 tot en met 7.",
        ),
        (
            {"score_kind": "weighted", "ns": [{"contract": "4S", "declarer": "N", "tricks": 10, "weight": "0.6"}]},
            "score",
            "board 1, table 1, ns: weights add up to 0.6, not 1",
            "spel 1, tafel 1, ns: de gewichten tellen op tot 0.6, niet 1",
        ),
    ],
)
def test_the_api_refuses_in_the_language_asked_for(people, result, change, field, english, dutch):
    for language, message in (("en", english), ("nl", dutch)):
        response = api(people.director, language).post(
            "/api/v1/rulings/", ruling_request(result, **change), format="json"
        )
        assert response.status_code == 409  # well formed, refused by the service (the API contract)
        assert message in " ".join(response.json()[field]), (language, response.json())
    assert not Ruling.objects.exists()


def test_an_auction_refused_on_the_form_names_the_call_in_the_page_language(client, people, result):
    client.force_login(people.director)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    pbn = (
        '[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        '[Deal "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"]\n'
        '[Auction "N"]\n1S Pass 1H Pass\n'
    )
    page = client.post(
        reverse("rulings:ruling-new", args=[result.pk]),
        {
            "kind": "claim",
            "laws": "70D1",
            "ruling_text": "Result stands",
            "outcome": "result_stands",
            "deal_source": pbn,
            "draft": "1",
        },
    ).content.decode()
    assert "regel 6: Auction: 1H van Zuid (bieding 3) is onvoldoende: het laatste bod was 1S" in page


@pytest.mark.parametrize(
    "language,expected",
    [
        ("en", "Law 12C9 does not exist in the 2017 Laws: the sub-sections of Law 12C run from 12C1 to 12C4"),
        (
            "nl",
            "Artikel 12C9 bestaat niet in de Spelregels van 2017: de paragrafen van artikel 12C lopen van 12C1 tot "
            "en met 12C4",
        ),
        ("he", "חוק 12C9 אינו קיים בחוקי 2017: הסעיפים של חוק 12C הם 12C1 עד 12C4"),
        ("el", "Ο νόμος 12C9 δεν υπάρχει στους Νόμους του 2017: οι υποενότητες του νόμου 12C είναι από 12C1 έως 12C4"),
    ],
)
def test_a_law_the_edition_does_not_have_is_refused_in_the_readers_language(result, people, language, expected):
    from django.core.exceptions import ValidationError
    from django.utils import translation

    from rulings import services as rulings_services

    ruling = rulings_services.rule(
        result=result,
        director=people.director,
        kind="claim",
        laws="70D1",
        ruling_text="Result stands",
        outcome="result_stands",
    )
    with translation.override(language), pytest.raises(ValidationError) as error:
        rulings_services.cite_laws(ruling=ruling, by=ruling.director, laws=["12C9"])
    assert expected in str(error.value)


LIN_LINK = (Path(__file__).resolve().parents[1] / "fixtures" / "lin" / "handviewer.txt").read_text().strip()


@pytest.mark.parametrize(
    "language,note",
    [
        ("en", "South 1NT \u2014 alerted: 15-17"),
        ("nl", "Zuid 1NT \u2014 gealerteerd: 15-17"),
        ("he", "\u05d3\u05e8\u05d5\u05dd 1NT \u2014 \u05d4\u05d5\u05ea\u05e8\u05e2: 15-17"),
    ],
)
def test_auction_notes_on_the_ruling_page_are_in_the_readers_language(client, people, result, language, note):
    from rulings import services as rulings_services

    ruling = rulings_services.rule(
        result=result,
        director=people.director,
        kind="mi",
        laws="20F1",
        ruling_text="Result stands",
        outcome="result_stands",
        deal_source=LIN_LINK,
        deal_override="The hand record of board 7, shown for its alerts",
    )
    client.force_login(people.director)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(reverse("rulings:ruling", args=[ruling.pk])).content.decode()
    assert note in page
