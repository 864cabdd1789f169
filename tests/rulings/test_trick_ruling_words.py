"""A revoke's or claim's ruling words (rulings/revokes.py) are stored in English whatever the
director's language, and each reader sees them in their own (rulings/texts.py, the
``ruling_words`` filter). The board is tests/rulings/test_revoke_rulings.py's: 4S by North made
10 at table X, East's established revoke transfers one trick (64A2)."""

import pytest
from django.urls import reverse
from django.utils import translation

from rulings import revokes
from rulings.models import Ruling
from rulings.texts import ruling_words
from tests.conftest import page_in
from tests.rulings.test_revoke_rulings import open_ruling

pytestmark = pytest.mark.django_db

EQUITY = "Without the revoke declarer makes 12 tricks in every line."


@pytest.fixture
def revoke_ruled_in_hebrew(field, director):
    ruling = open_ruling(field, director)
    revokes.record_revoke(ruling=ruling, by=director)
    with translation.override("he"):  # the director works in Hebrew
        revokes.confirm(ruling=ruling, by=director, equity_tricks=1, equity_reason=EQUITY)
    return Ruling.objects.get(pk=ruling.pk)


def test_a_revokes_words_are_stored_in_english_whatever_the_directors_language(revoke_ruled_in_hebrew):
    words = "Law 64A2: 1 trick transferred; 4S N +2. Law 64C: 1 further trick for equity."
    assert (revoke_ruled_in_hebrew.ruling_text, revoke_ruled_in_hebrew.rectification) == (words, words)


@pytest.mark.parametrize(
    "language, words",
    [
        ("he", "חוק 64A2: 1 לקיחה הועברה; 4S N +2. חוק 64C: 1 לקיחה נוספת לשם הוגנות."),
        (
            "el",
            "Νόμος 64A2: μεταβιβάζεται 1 λεβέ· 4S N +2. Νόμος 64C: 1 επιπλέον λεβέ για την αποκατάσταση της ισότητας.",
        ),
        ("en", "Law 64A2: 1 trick transferred; 4S N +2. Law 64C: 1 further trick for equity."),
    ],
)
def test_the_ruling_page_shows_a_revokes_words_in_the_readers_language(
    client,
    revoke_ruled_in_hebrew,
    director,
    language,
    words,  # noqa: F811 - the imported fixture
):
    page = page_in(client, director, reverse("rulings:ruling", args=[revoke_ruled_in_hebrew.pk]), language)
    assert page.count(words) == 2  # the ruling and its rectification


def test_a_claims_words_in_greek_and_hebrew(field, director):  # noqa: F811 - the imported fixture
    ruling = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    revokes.record_claim(ruling=ruling, by=director, claimer="N", statement="Drawing trumps, all mine")
    revokes.confirm(ruling=ruling, by=director, awarded_tricks=9, normal_line="Trumps not drawn: East ruffs")
    ruling.refresh_from_db()
    assert ruling.ruling_text == "Claim: 9 tricks awarded to declarer (4S N -1)."
    with translation.override("el"):
        assert ruling_words(ruling.ruling_text) == "Διεκδίκηση: 9 λεβέ επιδικάζονται στον εκτελεστή (4S N -1)."
    with translation.override("he"):
        assert ruling_words(ruling.ruling_text) == "תביעה: 9 לקיחות נפסקו לכרוז (4S N -1)."


@pytest.mark.parametrize(
    "stored, hebrew",
    [
        # written before the words had plural forms
        ("Law 64A1: 1 trick(s) transferred; 4S N +1.", "חוק 64A1: 1 לקיחה הועברה; 4S N +1."),
        ("Law 64A1: 2 trick(s) transferred; 4S N +2.", "חוק 64A1: 2 לקיחות הועברו; 4S N +2."),
        ("Claim: 1 tricks awarded to declarer (passed out).", "תביעה: 1 לקיחה נפסקה לכרוז (פאס מכל השחקנים)."),
        # a director's own words around the service's stay as written
        (
            "Law 64A1: 1 trick transferred; 4S N +1. East was told twice.",
            "חוק 64A1: 1 לקיחה הועברה; 4S N +1. East was told twice.",
        ),
        ("East was told twice.", "East was told twice."),
    ],
)
def test_old_and_extended_ruling_words_read_in_hebrew(stored, hebrew):
    with translation.override("he"):
        assert ruling_words(stored) == hebrew
