"""Messages with a number are whole sentences in every language's own plural forms: each is
checked with 0, 1, 2 and 5 (and 11, 21, 22, where Ukrainian and Icelandic change form), and
no sentence is pasted together from words."""

import polib
import pytest
from django.conf import settings
from django.utils import translation

from bridge.deals import DealError, parse_deal
from bridge.messages import PluralMessage, ngettext
from core.i18n import translate
from tests.test_translations import LOCALE, PERCENT_RE

CARDS = ("%(seat)s holds %(n)s card", "%(seat)s holds %(n)s cards")
LANGUAGES = [code for code, _name in settings.LANGUAGES]


def _holds(n, seat="North"):
    return ngettext(*CARDS, n, seat=ngettext_free(seat), n=n)


def ngettext_free(seat):
    from bridge.deals import SEAT_WORDS

    return SEAT_WORDS[seat[0]]


@pytest.mark.parametrize(
    "language,expected",
    [
        ("en", {0: "North holds 0 cards", 1: "North holds 1 card", 2: "North holds 2 cards", 5: "North holds 5 cards"}),
        (
            "uk",
            {
                0: "Північ тримає 0 карт",
                1: "Північ тримає 1 карту",
                2: "Північ тримає 2 карти",
                5: "Північ тримає 5 карт",
                11: "Північ тримає 11 карт",
                21: "Північ тримає 21 карту",
                22: "Північ тримає 22 карти",
            },
        ),
        ("he", {0: "לצפון יש 0 קלפים", 1: "לצפון יש 1 קלף", 2: "לצפון יש 2 קלפים", 5: "לצפון יש 5 קלפים"}),
        (
            "nl",
            {
                0: "Noord heeft 0 kaarten",
                1: "Noord heeft 1 kaart",
                2: "Noord heeft 2 kaarten",
                5: "Noord heeft 5 kaarten",
            },
        ),
    ],
)
def test_a_count_takes_the_languages_own_form(language, expected):
    with translation.override(language):
        assert {n: translate(_holds(n)) for n in expected} == expected


def test_english_without_django_picks_singular_and_plural():
    assert [str(_holds(n)) for n in (0, 1, 2)] == ["North holds 0 cards", "North holds 1 card", "North holds 2 cards"]
    message = _holds(14)
    assert isinstance(message, PluralMessage) and message.number == 14


def test_a_fourteen_card_hand_is_refused_in_ukrainian_with_the_right_form():
    deal = "N:AKQJT98765432.K.. .AQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    with pytest.raises(DealError) as error:
        parse_deal(deal)
    with translation.override("uk"):
        text = translate(error.value)
    assert text.startswith("Північ тримає 14 карт")


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_every_plural_entry_has_every_form_with_the_same_placeholders(language):
    catalogue = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    plurals = [entry for entry in catalogue if entry.msgid_plural and not entry.obsolete]
    assert len(plurals) >= 10
    forms = int(catalogue.metadata["Plural-Forms"].split("nplurals=")[1].split(";")[0])
    for entry in plurals:
        assert sorted(entry.msgstr_plural) == list(range(forms)), entry.msgid
        wanted = sorted(set(PERCENT_RE.findall(entry.msgid_plural)))
        for index, text in entry.msgstr_plural.items():
            assert text, f"{language}: form {index} of {entry.msgid!r} is empty"
            assert sorted(set(PERCENT_RE.findall(text))) == wanted, (language, entry.msgid, index)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_every_plural_message_renders_with_its_number(language, n):
    catalogue = polib.pofile(str(LOCALE / "en" / "LC_MESSAGES" / "django.po"))
    plurals = [entry for entry in catalogue if entry.msgid_plural and not entry.obsolete]
    assert len(plurals) >= 10  # the catalogue's plural messages, not an empty loop
    with translation.override(language):
        for entry in plurals:
            names = {name[2:-2] for name in PERCENT_RE.findall(entry.msgid_plural) if name.startswith("%(")}
            values = {name: (n if name in {"n", "counter", "count", "minutes"} else f"<{name}>") for name in names}
            text = translation.ngettext(entry.msgid, entry.msgid_plural, n) % values
            assert text.strip() and "%(" not in text, (language, entry.msgid)
            if any(values[name] == n for name in values):
                assert str(n) in text, (language, entry.msgid, n, text)
