"""The change marks of the traveller and the standings (issue #42, item 5): a row whose score
changed carries a mark that opens each change's reason (a ruling, a correction of the table
result, a committee's decision, a results file imported again) and its time, as the
contestant's page says "why scores changed". Read from the record the changes already write:
the score changes (``ScoreChange``) and the audit trail's table result corrections.

A mark names its cause with a link where the reader may open it: a ruling the reader may see
(``view_ruling``), an appeal the reader may see (``view_appeal``). The rulings and the appeals
are reached through the result's own relations, so this module imports no higher layer.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Q
from django.utils.translation import gettext as _

from audit.models import AuditEntry
from core import policy, renders
from scoring.change_log import CAUSES, Change, result_words
from scoring.models import Result, ScoreChange

if TYPE_CHECKING:
    from django.db.models import Model, QuerySet
    from django.utils.safestring import SafeString


@dataclass
class Mark:
    """One change as a row's mark opens it."""

    at: datetime.datetime
    cause: str  # "ruling", "decision", "import", "correction"
    text: str | SafeString  # the change in words, from the row's point of view
    reason: str
    board: int
    table: int
    ruling: int | None = None  # the ruling to open, where the reader may
    appeal: int | None = None  # the appeal to open, where the reader may
    # A shared render (core/renders.py): the cause's link is a placeholder, opened for each reader
    # who may open it as the page is served: (kind, id).
    apart: tuple[str, int] | None = None

    @property
    def link_open(self) -> str:
        return renders.link_open(*self.apart) if self.apart else ""

    @property
    def link_close(self) -> str:
        return renders.link_close(*self.apart) if self.apart else ""

    @property
    def cause_label(self) -> str:
        return Change(at=self.at, kind="score", cause=self.cause).cause_label


def _model(model: type[Model], relation: str) -> type[Model]:
    related = model._meta.get_field(relation).related_model
    assert related is not None and not isinstance(related, str)
    return related


def _visible(user: Any, action: str, model: type[Model], causes: QuerySet[ScoreChange], cause_type: str) -> set[int]:
    """The ids of the causes of ``cause_type`` among ``causes`` that ``user`` may open. A
    subquery, never a list of ids: the page's queries do not depend on what changed."""
    ids = causes.filter(cause_type=cause_type).values("cause_id")
    return set(policy.visible(user, action, model._default_manager.filter(pk__in=ids)).values_list("pk", flat=True))


def _openable(action: str, model: Any) -> Any:
    def openable(user: Any, ids: set[int]) -> set[int]:
        return set(policy.visible(user, action, model._default_manager.filter(pk__in=ids)).values_list("pk", flat=True))

    return openable


# The causes whose page a mark links to, by the kind of link of a shared render.
LINK_KINDS = {"ruling": "ruling", "decision": "appeal"}
_RULING = _model(Result, "rulings")
renders.links("ruling", "rulings:ruling", _openable("view_ruling", _RULING))
renders.links("appeal", "appeals:appeal", _openable("view_appeal", _model(_RULING, "appeals")))


def _marks(
    user: Any, results: QuerySet[Result], tournament_id: int, unit: str, sides: tuple[str, ...], shared: bool = False
) -> list[tuple[Result, str, Mark]]:
    """Every change to ``results``, oldest first, each with its result and the side ("NS",
    "EW") from which it is worded, once for each of ``sides``. Five queries however many."""
    by_pk = {r.pk: r for r in results.select_related("board", "table")}
    causes = ScoreChange.objects.filter(result__in=results)
    changes = list(causes.select_related("result__board"))
    ruling_model = _model(Result, "rulings")
    if shared:  # each reader's links are found as the page is served (core/renders.py)
        rulings, appeals = set(), set()
    else:
        rulings = _visible(user, "view_ruling", ruling_model, causes, "ruling")
        appeals = _visible(user, "view_appeal", _model(ruling_model, "appeals"), causes, "decision")
    corrections = [
        entry
        for entry in AuditEntry.objects.filter(
            action="result.corrected", object_type="scoring.result", tournament_id=tournament_id
        )
        if entry.object_id.isdigit() and int(entry.object_id) in by_pk
    ]
    marks = []
    for side in sides:
        for change in changes:
            result = by_pk[change.result_id]
            mark = Mark(
                at=change.changed_at,
                cause=CAUSES.get(change.cause_type, ""),
                text=change.explain_html(side, unit),
                reason=str(change.reason_text),
                board=result.board.number,
                table=result.table.number,
                ruling=change.cause_id if change.cause_id in rulings and change.cause_type == "ruling" else None,
                appeal=change.cause_id if change.cause_id in appeals and change.cause_type == "decision" else None,
                apart=(LINK_KINDS[change.cause_type], change.cause_id)
                if shared and change.cause_type in LINK_KINDS and change.cause_id is not None
                else None,
            )
            marks.append((result, side, mark))
        for entry in corrections:
            result = by_pk[int(entry.object_id)]
            late = (entry.after or {}).get("late_correction")
            mark = Mark(
                at=entry.at,
                cause="correction",
                text=_("Table result %(old)s corrected to %(new)s")
                % {"old": result_words(entry.before), "new": result_words(entry.after)},
                reason=(_("Law 79C2: %(statement)s") % {"statement": late["statement"]}) if late else "",
                board=result.board.number,
                table=result.table.number,
            )
            marks.append((result, side, mark))
    marks.sort(key=lambda triple: triple[2].at)
    return marks


def traveller_marks(user: Any, board: Any, unit: str, shared: bool = False) -> dict[int, list[Mark]]:
    """{result id: its changes, oldest first} for a board's traveller, worded for N-S; with
    ``shared``, for a shared render: the causes' links as placeholders (``Mark.apart``)."""
    marks: dict[int, list[Mark]] = defaultdict(list)
    rows = Result.objects.filter(board=board)
    for result, _side, mark in _marks(user, rows, board.session.event.tournament_id, unit, ("NS",), shared):
        marks[result.pk].append(mark)
    return dict(marks)


def standings_marks(user: Any, event: Any, session: Any, unit: str, shared: bool = False) -> dict[int, list[Mark]]:
    """{contestant id: the changes to the results it played, oldest first} for an event's
    standings (of one session where ``session`` is given), each worded from its side."""
    rows = Result.objects.filter(board__session__event=event)
    if session is not None:
        rows = rows.filter(board__session=session)
    corrected = AuditEntry.objects.filter(
        action="result.corrected", object_type="scoring.result", tournament_id=event.tournament_id
    )
    rows = rows.filter(Q(pk__in=ScoreChange.objects.values("result_id")) | Q(pk__in=_as_ids(corrected)))
    marks: dict[int, list[Mark]] = defaultdict(list)
    for result, side, mark in _marks(user, rows, event.tournament_id, unit, ("NS", "EW"), shared):
        contestant = result.ns_id if side == "NS" else result.ew_id
        if contestant is not None:
            marks[contestant].append(mark)
    return dict(marks)


def _as_ids(object_ids: QuerySet[AuditEntry]) -> list[int]:
    return [int(pk) for pk in object_ids.values_list("object_id", flat=True) if str(pk).isdigit()]
