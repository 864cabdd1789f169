"""The rulings app's stored texts (see audit/texts.py): the audit trail's summaries of a ruling's
steps, each a code with its values, shown in the reader's language.

Adding one: a code here, ``texts.text("rulings.<code>", ...)`` where the service writes it, its
translations in every .po file, and a test that writes it in English and reads it in Hebrew or
Greek (tests/rulings/test_stored_texts.py).
"""

from django.utils.translation import gettext_lazy as _

from audit.texts import Template, label, register
from rulings.models import SIDE_CHOICES, Penalty, Ruling, TrickRuling
from scoring.texts import moment

R = {"ruling": "rulings.ruling"}  # how read_back finds a ruling's name in an English summary

TEXTS = {
    "ruling": Template(_("Ruling %(number)s"), name=True),
    # Values and punctuation only: the same in every language, so not marked.
    "kind": Template("%(ruling)s: %(kind)s", formats={"kind": label(Ruling.Kind)}, nested=R),
    "about": Template("%(ruling)s: %(what)s", nested=R),
    "penalty": Template(
        "%(ruling)s: %(kind)s: %(amount)s%(unit)s (%(side)s)",
        formats={"kind": label(Penalty.Kind), "unit": label(Penalty.Unit), "side": label(SIDE_CHOICES)},
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
    # Why a ruling changed a score (ScoreChange.reason).
    "penalty_reason": Template(_("Penalty: %(offence)s"), kind="score_reason"),
    "correction_reason": Template(
        _("%(correction)s corrects %(earlier)s: %(reason)s"),
        nested={"correction": "rulings.ruling", "earlier": "rulings.ruling"},
        kind="score_reason",
    ),
}

register("rulings", TEXTS)
