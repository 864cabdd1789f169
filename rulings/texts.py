"""The rulings app's stored texts (see core/texts.py): the audit trail's summaries of a ruling's
steps, each a code with its values, shown in the reader's language.

Adding one: a code here, ``texts.text("rulings.<code>", ...)`` where the service writes it, its
translations in every .po file, and a test that writes it in English and reads it in Hebrew or
Greek (tests/rulings/test_stored_texts.py).
"""

import re

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from core import reader
from core.texts import Template, label, register, register_actions, shown_sentences
from rulings.models import SIDE_CHOICES, Penalty, Ruling, TrickRuling
from scoring.texts import moment, score_words

R = {"ruling": "rulings.ruling"}


def _amount(value):
    """A penalty's amount as the summary stored it ("10 ", or "" for none) in the reader's
    number format."""
    value = str(value or "").strip()
    try:
        return f"{reader.number(value)} " if value else ""
    except ArithmeticError:
        return f"{value} "  # how read_back finds a ruling's name in an English summary


TEXTS = {
    "ruling": Template(_("Ruling %(number)s"), name=True),
    # Values and punctuation only: the same in every language, so not marked.
    "kind": Template("%(ruling)s: %(kind)s", formats={"kind": label(Ruling.Kind)}, nested=R),
    "about": Template("%(ruling)s: %(what)s", nested=R),
    "penalty": Template(
        "%(ruling)s: %(kind)s: %(amount)s%(unit)s (%(side)s)",
        formats={
            "kind": label(Penalty.Kind),
            "amount": _amount,
            "unit": label(Penalty.Unit),
            "side": label(SIDE_CHOICES),
        },
        nested=R,
    ),
    "trick": Template(
        "%(ruling)s: %(kind)s %(law)s %(transfer)s",
        formats={"kind": label(TrickRuling.Kind, lower=True)},
        nested=R,
    ),
    "superseded": Template(
        _("%(earlier)s superseded by %(correction)s: %(reason)s"),
        nested={"earlier": "rulings.ruling", "correction": "rulings.ruling"},
    ),
    "final": Template(_("%(ruling)s: the appeal period ended %(when)s"), formats={"when": moment}, nested=R),
    "seating": Template(_("%(ruling)s: seating"), nested=R),
    "score_confirmed": Template(
        _("%(ruling)s: adjusted score entered by %(entered)s, confirmed by %(confirmed)s"), nested=R
    ),
    # Why a ruling changed a score (ScoreChange.reason).
    "penalty_reason": Template(_("Penalty: %(offence)s"), kind="score_reason"),
    "correction_reason": Template(
        _("%(correction)s corrects %(earlier)s: %(reason)s"),
        nested={"correction": "rulings.ruling", "earlier": "rulings.ruling"},
        kind="score_reason",
    ),
    # A revoke's, defective trick's or claim's ruling words (rulings/revokes.py), stored in English
    # in the ruling's text and rectification, which the director may add to: shown sentence by
    # sentence (core.texts.shown_sentences) in the reader's language.
    "trick_claim": Template(
        ngettext_lazy(
            "Claim: %(tricks)s trick awarded to declarer (%(contract)s).",
            "Claim: %(tricks)s tricks awarded to declarer (%(contract)s).",
            "tricks",
        ),
        formats={"contract": score_words},
        kind="ruling_words",
    ),
    "trick_transfer": Template(
        ngettext_lazy(
            "Law %(law)s: %(n)s trick transferred; %(contract)s.",
            "Law %(law)s: %(n)s tricks transferred; %(contract)s.",
            "n",
        ),
        formats={"contract": score_words},
        kind="ruling_words",
    ),
    "trick_equity": Template(
        ngettext_lazy("Law 64C: %(n)s further trick for equity.", "Law 64C: %(n)s further tricks for equity.", "n"),
        kind="ruling_words",
    ),
}


# As the words were written before they had their plural forms ("1 trick(s) transferred").
_BEFORE_PLURALS = re.compile(r"(?<=: )(\d+) (further )?trick(?:s|\(s\))(?= (?:awarded|transferred|for equity))")


def _with_plurals(match):
    number, further = match.group(1), match.group(2) or ""
    return f"{number} {further}{'trick' if number == '1' else 'tricks'}"


def ruling_words(stored):
    """A ruling's text or rectification in the reader's language where a service wrote it."""
    if not stored:
        return stored
    text = _BEFORE_PLURALS.sub(_with_plurals, stored)
    shown = shown_sentences(text, "ruling_words")
    return stored if shown == text else shown


register("rulings", TEXTS)


# The labels of this app's audit actions (core.texts.action_label: the national desk's trail).
AUDIT_ACTIONS = {
    "ruling.recorded": _("Ruling recorded"),
    "ruling.result_attached": _("Ruling linked to the table's result"),
    "ruling.seating": _("Seating recorded"),
    "ruling.draft_updated": _("Ruling draft updated"),
    "ruling.given": _("Ruling given"),
    "ruling.final": _("Ruling final"),
    "ruling.superseded": _("Ruling superseded by a correction"),
    "ruling.changed": _("Ruling changed"),
    "ruling.score_confirmed": _("Adjusted score confirmed by a second director"),
    "ruling.attachment_added": _("Attachment added"),
    "ruling.auction_entered": _("Deal and auction entered"),
    "ruling.call_tempo": _("Time of a call recorded"),
    "ruling.deal_override": _("Deal accepted despite a difference"),
    "ruling.irregularity": _("Irregularity recorded"),
    "ruling.penalty_added": _("Penalty given"),
    "ruling.penalty_cancelled": _("Penalty cancelled"),
    "ruling.unauthorised_information": _("Unauthorised information found (Law 16)"),
    "ruling.revoke_recorded": _("Revoke recorded"),
    "ruling.defective_trick_recorded": _("Defective trick recorded"),
    "ruling.claim_recorded": _("Claim recorded"),
    "ruling.revoke_confirmed": _("Revoke ruling confirmed"),
    "ruling.defective_trick_confirmed": _("Defective trick ruling confirmed"),
    "ruling.claim_confirmed": _("Claim ruling confirmed"),
}
register_actions(AUDIT_ACTIONS)
