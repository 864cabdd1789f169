"""Cards shown the same way everywhere: suit symbols and rank letters, by language or by a
regulating authority's preference.

Ranks are stored as PBN writes them (``AKQJT98765432``); only their display changes. By default
every page shows the international letters A K Q J 10. A national body may prefer its own
letters (the Dutch H V B for K Q J, the Icelandic Á K D G, the Ukrainian Т К Д В): with the
preference ``"national"`` the letters of the page's language are used, and a language with no
letters of its own (Hebrew and Greek texts print A K Q J) falls back to the international ones.

    rank_letters("international")          -> {"A": "A", "K": "K", ..., "T": "10", "9": "9", ...}
    rank_letters("national", language="nl") -> {"A": "A", "K": "H", "Q": "V", "J": "B", "T": "10", ...}
    rank_letters("nl")                      -> the same: a language code means its national letters
    display_ranks("AKT9", rank_letters("nl")) -> "AH109"

Which of the two a tournament shows is its regulating authority's setting ``card_rank_letters``
(scoring/authority_settings.py), read with :func:`rank_preference`. Views pass it to templates
as ``card_ranks``; the SVG diagram (bridge/diagrams.py, plain Python) is given the mapping
``rank_letters(preference)`` by its view, so this table is the only one.

Templates: ``register`` below is the template library ``bridge_cards`` (settings.TEMPLATES,
OPTIONS["libraries"]): ``{% load bridge_cards %}``, then ``{{ ranks|ranks:card_ranks }}``,
``{{ lead|card:card_ranks }}`` and ``{{ suit|suit_symbol }}``. Which letters each language
uses, and what backs them, is in docs/translations.md.

:func:`translate` shows a message of the plain-Python modules (bridge.messages) in the
reader's language.
"""

from django import template
from django.utils.translation import get_language, gettext, ngettext, pgettext_lazy

from bridge.deals import DealError, normalise_call
from bridge.messages import Message

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RED_SUITS = frozenset({"H", "D"})
PBN_RANKS = "AKQJT98765432"

INTERNATIONAL = "international"
NATIONAL = "national"
PREFERENCES = (INTERNATIONAL, NATIONAL)

_INTERNATIONAL_LETTERS = {"A": "A", "K": "K", "Q": "Q", "J": "J", "T": "10"}

# A, K, Q, J in each language's own letters; the ten is "10" everywhere. A language that is not
# listed (or maps to None) prints the international letters. See docs/translations.md for the
# source of each line: only Hebrew (A K Q J in the 2007 Laws, Law 1) and the Ukrainian card
# names (Туз, Король, Дама, Валет in the UFSB rules, Правило 1) come from the seed texts.
NATIONAL_LETTERS = {
    "en": None,
    "he": None,  # the Hebrew Laws print אס (A), מלך (K), מלכה (Q), נסיך (J): Latin letters
    "el": None,  # not backed by a source: Greek bridge texts are taken to print A K Q J
    "nl": {"A": "A", "K": "H", "Q": "V", "J": "B"},  # aas, heer, vrouw, boer
    "is": {"A": "Á", "K": "K", "Q": "D", "J": "G"},  # ás, kóngur, drottning, gosi
    "uk": {"A": "Т", "K": "К", "Q": "Д", "J": "В"},  # туз, король, дама, валет
}


def _language_code(language):
    return (language or "en").lower().replace("_", "-").split("-")[0]


def rank_letters(language_or_preference=None, language=None):
    """How each PBN rank is shown: a dict from ``A K Q J T 9 ... 2`` to the text to print.

    ``language_or_preference`` is ``"international"`` (A K Q J 10, also the default for None),
    ``"national"`` (the letters of ``language``, or of the active language when that is None),
    or a language code such as ``"nl"`` (that language's letters)."""
    choice = (language_or_preference or INTERNATIONAL).strip()
    if choice == INTERNATIONAL:
        honours = None
    elif choice == NATIONAL:
        honours = NATIONAL_LETTERS.get(_language_code(language or get_language()))
    else:
        honours = NATIONAL_LETTERS.get(_language_code(choice))
    letters = dict(_INTERNATIONAL_LETTERS)
    letters.update(honours or {})
    letters.update({rank: rank for rank in "98765432"})
    return letters


def display_ranks(ranks, letters=None, separator=""):
    """The ranks of one suit, e.g. PBN ``"AKT9"``, as printed: ``"AK109"`` (international),
    ``"AH109"`` (Dutch). Ranks already written ``10`` are read as the ten. An empty suit is
    an em dash."""
    letters = letters or rank_letters()
    text = (ranks or "").upper().replace("10", "T")
    if not text or text == "-":
        return "\u2014"
    return separator.join(letters.get(rank, rank) for rank in text)


def suit_symbol(suit):
    """♠ ♥ ♦ ♣ for S H D C (any case); anything else is returned as it is."""
    return SUIT_SYMBOLS.get(str(suit).upper(), suit)


def display_card(card, letters=None):
    """A card as printed: ``"HK"`` -> ``"♥K"`` (``"♥H"`` in Dutch letters), ``"S10"`` or ``"ST"``
    -> ``"♠10"``. Anything that is not a card is returned as it is; empty stays empty."""
    text = (card or "").strip().upper()
    if len(text) < 2 or text[0] not in SUIT_SYMBOLS:
        return card or ""
    return suit_symbol(text[0]) + display_ranks(text[1:], letters)


def rank_preference(tournament):
    """``"international"`` or ``"national"``: how ``tournament``'s regulating authority wants card
    ranks shown (its setting ``card_rank_letters`` in force on the tournament's first day)."""
    if tournament is None:
        return INTERNATIONAL
    return tournament.regulations().get("card_rank_letters") or INTERNATIONAL


def translate(message):
    """A message of the plain-Python modules in the active language.

    ``message`` is a :class:`bridge.messages.Message`, an error carrying one (``DealError``,
    ``PbnError``, ``LinError``, ``ContractError``, ``EngineInputError``: their ``text``), or
    anything else, which is shown as ``str()`` gives it."""
    if isinstance(message, BaseException):
        message = getattr(message, "text", None) or str(message)
    if isinstance(message, Message):
        return message.render(gettext, ngettext)
    return str(message)


# The calls that are words, in the reader's language (a bid is written as a bid everywhere).
CALL_WORDS = {
    # Translators: the call, in an auction diagram's cell, a poll's count, an auction's note.
    "Pass": pgettext_lazy("call", "Pass"),
    # Translators: the call X, as a player polled chose it ("Double 3").
    "X": pgettext_lazy("call", "Double"),
    # Translators: the call XX, as a player polled chose it ("Redouble 1").
    "XX": pgettext_lazy("call", "Redouble"),
}
_SPELLED_CALLS = {"double": "X", "dbl": "X", "dbl.": "X", "redouble": "XX", "rdbl": "XX", "redbl": "XX"}


def call_words(text):
    """A call as a person wrote it (a poll's action: "pass", "Double", "4s", "X") in the reader's
    words: Pass, Double and Redouble translated, a bid as a bid ("4S"); anything that is not a
    call is shown as written."""
    text = str(text or "")
    try:
        call = normalise_call(_SPELLED_CALLS.get(text.strip().lower(), text))
    except DealError:
        return text
    return str(CALL_WORDS.get(call, call))


register = template.Library()


@register.filter(name="call_words")
def call_words_filter(text):
    """``{{ vote.action|call_words }}``: see :func:`call_words`."""
    return call_words(text)


@register.filter(name="ranks")
def ranks_filter(ranks, language_or_preference=None):
    """``{{ ranks|ranks }}`` (international) or ``{{ ranks|ranks:"national" }}``."""
    return display_ranks(ranks, rank_letters(language_or_preference))


@register.filter(name="suit_symbol")
def suit_symbol_filter(suit):
    return suit_symbol(suit)


@register.filter(name="card")
def card_filter(card, language_or_preference=None):
    """``{{ result.lead|card:card_ranks }}``: ``"HK"`` as ``"♥K"`` (or ``"♥H"``)."""
    return display_card(card, rank_letters(language_or_preference))
