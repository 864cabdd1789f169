"""A published session's change log (issue #44, "a public log of changes to published results,
with reasons": players received 53%, then 57%, then 49% with no word).

A session is published once its official score has first been made available
(``OfficialScorePosting``). From then on every change to one of its results or to what a result
counts for is in the log, oldest first, with its time and its reason:

- a score changed (``ScoreChange``: a ruling, an appeal decision, a results file imported again,
  a correction through the score service), with each side's board score before and after once
  the workers have run: what moved the standings;
- a table result corrected (Law 79C; the audit trail's ``result.corrected``, with the Law 79C2
  statement where the correction came after the period);
- the official score posted again (what restarts the correction and appeal periods), with its
  note.

Nothing is kept twice: the log is read from the record those changes already write. Contestants
are named by their number, as on the standings; by their names too only where the regulating
authority's ``casebook_names`` publishes names (the same setting the notice board and the
casebooks follow). The officials who made a change are not named: the cause is.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from audit.models import AuditEntry
from scoring.models import Contestant, Result, ScoreChange, Session

if TYPE_CHECKING:
    from django.utils.safestring import SafeString

# What caused a ScoreChange (its cause_type), as the log names it.
CAUSES = {
    "ruling": "ruling",
    "decision": "decision",
    "import": "import",
    "correction": "correction",
}


@dataclass
class Change:
    at: datetime.datetime
    kind: str  # "score", "result", "posting": what changed
    cause: str  # "ruling", "decision", "import", "correction", "posting"
    board: int | None = None
    table: int | None = None
    ns: str = ""
    ew: str = ""
    text: str | SafeString = ""  # the change in words
    reason: str = ""
    scores: list[tuple[str, Decimal | None, Decimal | None]] = field(default_factory=list)
    pending: bool = False

    @property
    def cause_label(self) -> str:
        return {
            "ruling": _("Ruling by the director"),
            "decision": _("Appeal decision"),
            "import": _("Results imported again"),
            "correction": _("Correction of the table result (Law 79C)"),
            "posting": _("Official score posted again"),
        }.get(self.cause, _("Score changed"))


@dataclass
class ChangeLog:
    session: Session
    published_at: datetime.datetime | None
    names_shown: bool
    unit: str
    changes: list[Change]


def contestant_words(contestant: Contestant, names_shown: bool) -> str:
    """A contestant as the log names it: its number, and its names where the regulations publish them."""
    label = contestant.label
    if not names_shown:
        return label
    names = contestant.name or " & ".join(str(player) for player in contestant.members.all())
    return f"{label} {names}" if names else label


def result_words(snapshot: dict | None) -> str:
    """A table result from the audit trail's snapshot: "4S N 10 tricks, N-S +420"."""
    snapshot = snapshot or {}
    if snapshot.get("not_played"):
        return str(_("not played"))
    contract = snapshot.get("contract") or ""
    if contract == "PASS":
        return str(_("passed out"))
    words = _("%(contract)s %(declarer)s, %(tricks)s tricks") % {
        "contract": contract,
        "declarer": snapshot.get("declarer") or "",
        "tricks": snapshot.get("tricks"),
    }
    if snapshot.get("score_ns") is not None:
        words += ", " + _("N-S %(score)s") % {"score": f"{snapshot['score_ns']:+d}"}
    return words


def session_change_log(session: Session, unit: str) -> ChangeLog:
    """Every change to ``session``'s results since its official score was first made available,
    oldest first. Before that the session is not published and the log is empty."""
    postings = list(session.score_postings.order_by("posted_at", "pk"))
    tournament = session.event.tournament
    names_shown = tournament.regulations()["casebook_names"] == "names"
    if not postings:
        return ChangeLog(session, None, names_shown, unit, [])
    published = postings[0].posted_at
    changes = [
        Change(at=posting.posted_at, kind="posting", cause="posting", reason=posting.note) for posting in postings[1:]
    ]
    results = {
        result.pk: result
        for result in Result.objects.filter(board__session=session)
        .select_related("board", "table", "ns", "ew")
        .prefetch_related("ns__members", "ew__members")
    }
    for change in (
        ScoreChange.objects.filter(result__board__session=session, changed_at__gte=published)
        .select_related("result__board")
        .order_by("changed_at", "pk")
    ):
        result = results[change.result_id]
        changes.append(
            Change(
                at=change.changed_at,
                kind="score",
                cause=CAUSES.get(change.cause_type, ""),
                board=result.board.number,
                table=result.table.number,
                ns=contestant_words(result.ns, names_shown),
                ew=contestant_words(result.ew, names_shown),
                text=change.explain_html("NS", unit),
                reason=str(change.reason_text),
                scores=[("NS", change.ns_before, change.ns_after), ("EW", change.ew_before, change.ew_after)],
                pending=change.ns_after is None and change.result.board.scored_version < change.board_version,
            )
        )
    for entry in AuditEntry.objects.filter(
        action="result.corrected",
        object_type="scoring.result",
        object_id__in=[str(pk) for pk in results],
        at__gte=published,
    ).order_by("sequence"):
        result = results[int(entry.object_id)]
        late = (entry.after or {}).get("late_correction")
        changes.append(
            Change(
                at=entry.at,
                kind="result",
                cause="correction",
                board=result.board.number,
                table=result.table.number,
                ns=contestant_words(result.ns, names_shown),
                ew=contestant_words(result.ew, names_shown),
                text=_("Table result %(old)s corrected to %(new)s")
                % {"old": result_words(entry.before), "new": result_words(entry.after)},
                reason=(_("Law 79C2: %(statement)s") % {"statement": late["statement"]}) if late else "",
            )
        )
    changes.sort(key=lambda change: change.at)
    return ChangeLog(session, published, names_shown, unit, changes)
