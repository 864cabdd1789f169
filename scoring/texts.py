"""The scoring app's stored texts (see core/texts.py): the audit trail's summaries of results,
sessions and presets, and the words of a score as services write them ("weighted 60% +420 /
40% -50", "redress (table ..., normal play ..., without the infraction ...)", "N-S ..., E-W
..."), shown in the reader's language.

A score's words are written by code in a fixed form (never typed by a person), so they are read
back at read time (``score_words``) rather than stored as a code: every score description
already written reads in the reader's language, whatever the column that holds it.

Adding a text: a code here, ``texts.text("scoring.<code>", ...)`` where the service writes it,
its translations in every .po file, and a test that writes it in English and reads it in
Hebrew or Greek (tests/scoring/test_stored_texts.py).
"""

import datetime
import re
from decimal import Decimal

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, ngettext_lazy, pgettext

from core.texts import Template, label, register, register_actions, shown
from scoring.kinds import PenaltyUnit


def moment(value):
    """``{"at": ISO 8601, "zone": "Europe/London"}`` in that zone, in the reader's format."""
    from core import reader

    return reader.event_time(datetime.datetime.fromisoformat(value["at"]), value["zone"])


def session_param(session):
    """A session as a summary names it: its own name, or "Session 2" in each reader's language."""
    if session.name:
        return session.name
    return {"code": "scoring.session", "params": {"number": session.number}, "text": f"Session {session.number}"}


def moment_param(at, tournament):
    return {"at": at.isoformat(), "zone": tournament.zone.key}


_REDRESS = re.compile(
    r"redress \(table (?P<table>.*?), normal play (?P<normal>.*?), without the infraction (?P<without>.*?)\)"
)
_WORDS = re.compile(r"\b(?:N-S|E-W|weighted|passed out|not played|table result)\b")


def score_words(text):
    """A score's words as services write them, in the reader's language: "weighted 60% +420 /
    40% -50" -> "σταθμισμένο 60% +420 / 40% -50". Contracts, numbers and AVE+/AVE/AVE- stay."""
    if not text:
        return text

    def redress(match):
        return str(
            _("redress (table %(table)s, normal play %(normal)s, without the infraction %(without)s)")
            % {key: score_words(value) for key, value in match.groupdict().items()}
        )

    def word(match):
        found = match.group(0)
        if found == "weighted":
            # Translators: an adjusted score shared between results ("weighted 60% +420 / 40% -50").
            return pgettext("score", "weighted")
        return str(
            {
                "N-S": _("N-S"),
                "E-W": _("E-W"),
                "passed out": _("passed out"),
                "not played": _("not played"),
                "table result": _("table result"),
            }[found]
        )

    return _percentages(_WORDS.sub(word, _REDRESS.sub(redress, text)))


# A number written with a decimal point, in a score's words: a weight ("0.6", "33.5%"), IMPs
# ("+2.5 IMPs"). A fraction ("1/3") and a whole number stay as they are.
_DECIMAL = re.compile(r"(?<![\d.,/])(\d+)\.(\d+)(?![\d/])")


def _percentages(text):
    """A score's numbers as written ("0.6", "33.33%", "1/3"), each decimal with the reader's
    decimal mark ("0,6", "33,33%" in Dutch) and every digit kept: a weight reads as the
    director typed it, never rounded or made a percentage (Django's number format, as
    core.reader.number)."""
    from django.utils import formats

    def local(match):
        return formats.number_format(Decimal(match.group(0)), len(match.group(2)))

    return _DECIMAL.sub(local, text)


def score_html(text):
    """:func:`score_words` as safe HTML for a page: the translated words as they are, every
    fragment between them (contracts, scores, percentages) isolated left to right, so a
    right-to-left sentence around them does not reorder "60% 4S N = / 40% 4S N -1"."""
    if not text:
        return ""
    redress = _REDRESS.search(text)
    if redress:
        return sentence_html(
            "%(before)s%(redress)s%(after)s",
            before=score_html(text[: redress.start()]),
            redress=sentence_html(
                _("redress (table %(table)s, normal play %(normal)s, without the infraction %(without)s)"),
                **{key: score_html(value) for key, value in redress.groupdict().items()},
            ),
            after=score_html(text[redress.end() :]),
        )
    parts = []
    at = 0
    for match in _WORDS.finditer(text):
        parts.append(_isolated(text[at : match.start()]))
        parts.append(conditional_escape(score_words(match.group(0))))
        at = match.end()
    parts.append(_isolated(text[at:]))
    return mark_safe("".join(str(part) for part in parts))  # noqa: S308 - every part is escaped


def sentence_html(template, **params):
    """A translated sentence with %(name)s placeholders as safe HTML: the sentence escaped,
    each parameter escaped unless it is already safe HTML (an isolated fragment)."""
    return mark_safe(  # noqa: S308 - the sentence and every parameter are escaped
        str(conditional_escape(str(template))) % {key: conditional_escape(value) for key, value in params.items()}
    )


def _isolated(fragment):
    """A fragment between words, isolated and kept on one line ("3S S +2" never wraps away from
    its contract); the spaces and separating commas around it stay outside."""
    core = fragment.strip(" ,")
    if not core:
        return conditional_escape(fragment)
    start = fragment.index(core)
    end = start + len(core)
    return format_html(
        '{}<bdi dir="ltr" class="nowrap">{}</bdi>{}', fragment[:start], _percentages(core), fragment[end:]
    )


def _boards(n):
    return ngettext("%(n)s board", "%(n)s boards", n) % {"n": n}


def _results(n):
    return ngettext("%(n)s result", "%(n)s results", n) % {"n": n}


def _imported(values):
    return _("%(event)s, %(session)s: %(format)s file, %(boards)s, %(results)s") % dict(
        values, boards=_boards(values["boards"]), results=_results(values["results"])
    )


def _replaced(values):
    return _(
        "%(event)s, %(session)s: replaced (%(old_boards)s, %(old_results)s) by a %(format)s file, %(boards)s, %(results)s"
    ) % dict(
        values,
        boards=_boards(values["boards"]),
        results=_results(values["results"]),
        old_boards=_boards(values["old_boards"]),
        old_results=_results(values["old_results"]),
    )


def _unit(value):
    return label(PenaltyUnit)(value)


def auction_words(rows):
    """An auction's rows (bridge.diagrams.auction_rows) with "Pass" in the reader's language; X
    and XX are symbols, the same in every language, as bids are."""
    # Translators: the call, in an auction diagram's cell.
    word = pgettext("call", "Pass")
    return [[dict(cell, text=word) if cell["call"] == "Pass" else cell for cell in row] for row in rows]


TEXTS = {
    "session": Template(_("Session %(number)s"), name=True),
    "result": Template(_("Board %(board)s, table %(table)s: %(what)s"), formats={"what": score_words}),
    "session_posted": Template("%(event)s, %(session)s", nested={"session": "scoring.session"}),
    "preset": Template(
        ngettext_lazy(
            "%(authority)s: preset %(code)s, %(n)s dated value written",
            "%(authority)s: preset %(code)s, %(n)s dated values written",
            "n",
        )
    ),
    "preset_corrected": Template(
        ngettext_lazy(
            "%(authority)s: %(n)s correction from preset %(code)s applied",
            "%(authority)s: %(n)s corrections from preset %(code)s applied",
            "n",
        )
    ),
    "created": Template(_("%(authority)s created")),
    "created_preset": Template(_("%(authority)s created with preset %(code)s")),
    "match_penalty": Template(
        _("Round %(round)s, %(match)s: %(team)s: -%(amount)s %(unit)s (%(offence)s)"), formats={"unit": _unit}
    ),
    "match_penalty_withdrawn": Template(
        _("Round %(round)s, %(match)s: %(team)s: -%(amount)s %(unit)s (%(offence)s) withdrawn"),
        formats={"unit": _unit},
    ),
    "event_vp_scale": Template(_("%(event)s: victory-point scale %(scale)s")),
    "event_scoring_method": Template(_("%(event)s: scoring method %(method)s")),
    "vp_scale_added": Template(_("%(authority)s: victory-point scale %(scale)s added")),
    # What a score change says caused it, and why (ScoreChange.cause_label and .reason: stored in
    # English, shown through core.texts.shown).
    "cause_ruling": Template(_("ruling %(number)s"), kind="score_cause"),
    "cause_decision": Template(_("appeal %(number)s decision"), kind="score_cause"),
    "cause_further": Template(_("appeal %(number)s further decision"), kind="score_cause"),
    "cause_without_merit": Template(_("appeal %(number)s without merit"), kind="score_cause"),
    "import_reason": Template(
        _("Imported from the scoring program's %(format)s file as %(code)s"), kind="score_reason"
    ),
    "imported": Template(compose=_imported),
    "replaced": Template(compose=_replaced),
}

register("scoring", TEXTS)


def explain_change(change, side, unit, html):
    """A ``ScoreChange`` in words for one side (``ScoreChange.explain``), as safe HTML with
    ``html`` (``explain_html``)."""

    def sentence(template, **params):
        return sentence_html(template, **params) if html else str(template) % params

    def isolated(fragment):
        return format_html('<bdi dir="ltr" class="nowrap">{}</bdi>', fragment) if html else fragment

    words = score_html if html else score_words
    # Translators: short for matchpoints, a column heading and a unit ("4 -> 4.5 MP").
    unit = unit or _("MP")
    text = sentence(
        _("Board %(board)s: %(old)s replaced by %(new)s"),
        board=change.result.board.number,
        old=words(change.old_description),
        new=words(change.new_description),
    )
    if change.cause_label:
        text = sentence(
            "%(text)s %(cause)s",
            text=text,
            cause=sentence(_("by %(cause)s"), cause=shown(change.cause_label, "score_cause")),
        )
    before = change.ns_before if side == "NS" else change.ew_before
    after = change.ns_after if side == "NS" else change.ew_after
    if after is not None:
        scores = f"{_score_text(before) if before is not None else '—'} -> {_score_text(after)}"
        text = sentence("%(text)s, %(scores)s %(unit)s", text=text, scores=isolated(scores), unit=unit)
    elif change.result.board.scored_version < change.board_version:
        text = sentence("%(text)s, %(pending)s", text=text, pending=_("recalculation pending"))
    return text


def _score_text(value):
    """A stored score as scorers print it: 12.5, 9.3, 7 (one decimal at most)."""
    text = f"{value.quantize(Decimal('0.1')):f}"
    return text[:-2] if text.endswith(".0") else text


# The labels of this app's audit actions (core.texts.action_label: the national desk's trail).
AUDIT_ACTIONS = {
    "result.recorded": _("Result recorded"),
    "result.corrected": _("Result corrected"),
    "session.official_score_posted": _("Official score posted"),
    "session.imported": _("Session imported"),
    "session.replaced": _("Session replaced by an import"),
    "score.adjusted": _("Score adjusted"),
    "score.table_result_restored": _("Table result restored"),
    "score_check.accepted": _("Flagged result checked and kept"),
    "field_upload.received": _("Club upload received"),
    "field_upload.flag_confirmed": _("Club upload's flag confirmed"),
    "field_upload.row_corrected": _("Club upload's result corrected"),
    "field_upload.joined": _("Club upload joined the field"),
    "match.penalty_added": _("Match penalty given"),
    "match.penalty_withdrawn": _("Match penalty withdrawn"),
    "event.scoring_method_set": _("Scoring method set"),
    "event.vp_scale_set": _("Victory point scale chosen"),
}
register_actions(AUDIT_ACTIONS)
