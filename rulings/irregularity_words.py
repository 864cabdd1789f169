"""The irregularities of a ruling in the reader's words (issue #39): who did what, the call or
card as a symbol, the Law and its title in the edition in force, the option chosen and by whom,
and the restriction in force; never a stored key.

A ruling stores its irregularities as keys (``Ruling.irregularities``: the kind, the option's key,
the laws, and each rectification's English template with its values, ``text_template`` and
``text_params``); the words are made here, at read time, in the language of the page.
``irregularity_laws`` gives the laws the rectifications use, which the ruling cites.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from bridge.auction import Auction
from bridge.deals import SEAT_WORDS, DealError
from bridge.diagrams import call_text
from bridge.irregularities import read_auction
from core.i18n import call_words, display_card, rank_letters, suit_symbol, translate

KIND_WORDS = {
    "insufficient_bid": _("insufficient bid"),
    "out_of_rotation": _("call out of rotation"),
    "change_of_call": _("change of call"),
    "inadmissible_call": _("inadmissible call"),
    "lead_out_of_turn": _("lead out of turn"),
    "exposed_card": _("exposed card"),
    "premature_play": _("premature lead or play"),
    "penalty_card_not_played": _("penalty card not played"),
}
CHOOSER_WORDS = {
    "lho": _("chosen by the left-hand opponent"),
    "offender": _("the offender's choice"),
    "declarer": _("chosen by declarer"),
    "director": _("the director's ruling"),
}


def _seat(seat: str) -> str:
    return translate(SEAT_WORDS[seat]) if seat in SEAT_WORDS else str(seat or "")


def _value(name: str, value: Any) -> str:
    """A stored value in the reader's signs: a suit as its symbol, a card as printed, a seat in words."""
    text = str(value)
    if name in ("suit", "suits"):
        return ", ".join(suit_symbol(part.strip()) for part in text.split(",") if part.strip())
    if name in ("card", "first"):
        return display_card(text, rank_letters())
    if name in ("seat", "who") and text in SEAT_WORDS:
        return _seat(text)
    if name in ("call", "bid", "last"):
        return call_text(str(call_words(text)))
    return text


def stored_words(stored: dict[str, Any] | None) -> str:
    """A stored rectification's words in the reader's language: its English template (the
    catalogue's key) translated, its values shown in the reader's signs. A text stored without its
    template is its English msgid, translated."""
    if not stored:
        return ""
    template = str(stored.get("text_template") or stored.get("text") or "")
    params = {name: _value(name, value) for name, value in (stored.get("text_params") or {}).items()}
    try:
        return gettext(template) % params if template else ""
    except (KeyError, ValueError, TypeError):
        return str(stored.get("text") or "")


def _option(item: dict[str, Any], key: str, listed: str = "options") -> dict[str, Any]:
    return next((o for o in item.get(listed) or [] if o.get("key") == key), {})


def _what(item: dict[str, Any], auction: Auction | None, seats: list[str]) -> str:
    """Who did what: "East: 1♦ (call 2), insufficient bid", "Trick 1: West, ♦5, lead out of turn"."""
    facts = item.get("facts") or {}
    kind = str(KIND_WORDS.get(item.get("kind", ""), item.get("kind", "")))
    position = item.get("position") or []
    if position[:1] == ["auction"] or (not position and "call_number" in facts):
        index = position[1] if position else int(facts.get("call_number") or 1) - 1
        call = auction.calls[index].call if auction and index < len(auction.calls) else str(facts.get("inserted") or "")
        seat = seats[index] if index < len(seats) else str(facts.get("seat") or "")
        return _html(
            gettext("%(seat)s: %(call)s (call %(n)s), %(kind)s"),
            seat=_seat(seat),
            call=_ltr(call_text(str(call_words(call)))),
            n=index + 1,
            kind=kind,
        )
    return _html(
        gettext("Trick %(n)s: %(seat)s, %(card)s, %(kind)s"),
        n=facts.get("trick") or "",
        seat=_seat(str(facts.get("seat") or "")),
        card=_ltr(display_card(str(facts.get("card") or ""), rank_letters())),
        kind=kind,
    )


def _ltr(text: str) -> str:
    """A call or card left to right in a right-to-left sentence."""
    return format_html('<bdi dir="ltr">{}</bdi>', text)


def _html(template: str, **values: Any) -> str:
    """A translated sentence with its values, escaped, the values' own markup kept."""
    return mark_safe(conditional_escape(template) % {k: conditional_escape(v) for k, v in values.items()})  # noqa: S308


def _auction_seats(auction: Auction | None) -> list[str]:
    if auction is None:
        return []
    try:
        return list(read_auction(auction.dealer, auction.calls, complete=False).seats)
    except DealError:
        return [call.seat for call in auction.calls]


def irregularity_lines(ruling: Any, titles: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Each irregularity of ``ruling`` in words, in table order: ``law``, ``title`` (the
    edition's, in the reader's language), ``what``, ``chooser``, ``text`` (the rectification),
    ``option`` (the option chosen when it names another law than the one applied: its law and
    words), ``restriction`` (Law 26) and ``lead`` (declarer's Law 50D2 choice), each ``law``/``text``."""
    items = ruling.irregularity_list
    if not items:
        return []
    auction = Auction.from_dict(ruling.auction) if ruling.auction else None
    seats = _auction_seats(auction)
    titles = titles if titles is not None else law_titles(ruling, items)
    lines = []
    for item in items:
        law = str(item.get("law") or "")
        chosen = _option(item, str(item.get("chosen") or ""))
        line: dict[str, Any] = {
            "law": law,
            "title": titles.get(law, ""),
            "what": _what(item, auction, seats),
            "chooser": str(CHOOSER_WORDS.get(chosen.get("chooser", ""), "")),
            "text": stored_words(item.get("rectification")),
            "option": None,
            "restriction": None,
            "lead": None,
        }
        key = str(item.get("chosen") or "")
        if chosen and chosen.get("law") != law:
            line["option"] = {"law": chosen.get("law", ""), "text": stored_words(chosen), "call": _key_call(key)}
        restriction = item.get("lead_restriction")
        if restriction and restriction.get("law"):
            suits = restriction.get("prohibit") or restriction.get("require") or []
            line["restriction"] = {
                "law": restriction["law"],
                "title": titles.get(restriction["law"], ""),
                "text": stored_words(restriction),
                "suits": " ".join(suit_symbol(s) for s in suits),
            }
        lead = _option(item, str(item.get("lead_option") or ""), "lead_options")
        if lead:
            line["lead"] = {
                "law": lead.get("law", ""),
                "title": titles.get(lead.get("law", ""), ""),
                "text": stored_words(lead),
            }
        lines.append(line)
    return lines


def _key_call(key: str) -> str:
    """The call an option's key names ("27B1a:2D" -> "2♦"), as a symbol."""
    _law, _colon, value = key.partition(":")
    return call_text(value) if value[:1].isdigit() else ""


def irregularity_laws(items: list[dict[str, Any]]) -> list[str]:
    """The laws the rectifications of ``items`` use, in order, each once: the law applied, the
    Law 26 lead restriction, declarer's Law 50D2 choice."""
    laws: list[str] = []
    for item in items:
        laws.append(str(item.get("law") or ""))
        laws.append(str((item.get("lead_restriction") or {}).get("law") or ""))
        laws.append(str(_option(item, str(item.get("lead_option") or ""), "lead_options").get("law") or ""))
    return list(dict.fromkeys(law for law in laws if law))


def law_titles(ruling: Any, items: list[dict[str, Any]]) -> dict[str, str]:
    """Each law of ``items`` with its title in the edition the irregularity was ruled under, in the
    reader's language (the nearest catalogue entry when the catalogue has no such sub-section)."""
    from rulings.models import LawEntry

    wanted: dict[tuple[str, str], str] = {}
    for item in items:
        edition = str(item.get("edition") or "")
        for law in irregularity_laws([item]):
            for number in law_paragraphs(law):
                wanted.setdefault((edition, number), law)
    entries = LawEntry.objects.filter(edition__in={e for e, _n in wanted}, number__in={n for _e, n in wanted})
    found = {(e.edition, e.number): e for e in entries}
    titles: dict[str, str] = {}
    for item in items:
        edition = str(item.get("edition") or "")
        for law in irregularity_laws([item]):
            entry = next((found[(edition, n)] for n in law_paragraphs(law) if (edition, n) in found), None)
            if entry is not None and law not in titles:
                titles[law] = entry.title_in()
    return titles


def law_paragraphs(law: str) -> list[str]:
    """``"27B1a"``, ``"27B1"``, ``"27B"``, ``"27"``: the law and the paragraphs it belongs to."""
    return [
        law[:end]
        for end in range(len(law), 0, -1)
        if end == len(law) or not (law[end - 1].isdigit() and law[end].isdigit())
    ]


STORED_TEXTS = ("rectification", "lead_restriction")
STORED_LISTS = ("options", "lead_options")


def english_translations() -> dict[str, str]:
    """Every translated text of the catalogues (locale/*/django.po) with its English msgid: how a
    text stored in the recorder's language is read back to its key."""
    from pathlib import Path

    import polib
    from django.conf import settings

    back: dict[str, str] = {}
    for path in sorted(Path(settings.BASE_DIR, "locale").glob("*/LC_MESSAGES/django.po")):
        for entry in polib.pofile(str(path)):
            if entry.msgstr and not entry.msgctxt:
                back.setdefault(entry.msgstr, entry.msgid)
    return back


def as_keys(item: dict[str, Any], back: dict[str, str]) -> dict[str, Any]:
    """An irregularity as stored before its texts were keys (each in the language of the director
    who recorded it): every text made its English template with its values again."""

    def english(stored: dict[str, Any]) -> dict[str, Any]:
        stored = dict(stored)
        template, params = stored.get("text_template"), stored.get("text_params") or {}
        if template:
            try:
                stored["text"] = template % params
            except (KeyError, ValueError, TypeError):
                stored["text"] = template
        elif stored.get("text"):
            stored["text"] = back.get(stored["text"], stored["text"])
        return stored

    item = dict(item)
    for name in STORED_TEXTS:
        if isinstance(item.get(name), dict):
            item[name] = english(item[name])
    for name in STORED_LISTS:
        if isinstance(item.get(name), list):
            item[name] = [english(each) if isinstance(each, dict) else each for each in item[name]]
    return item
