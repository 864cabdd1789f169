"""Table results recorded and corrected (Law 79), and a session's official score made available
(which starts the Law 79C and 92B clocks)."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import services as audit
from core import policy, texts
from core.retry import atomic_with_retry
from scoring import recalculation
from scoring.deadlines import check_in_period
from scoring.models import Board, BoardScore, Contestant, Event, OfficialScorePosting, Result, Round, Session, Table
from scoring.services.common import full_save, full_update
from scoring.texts import session_param

if TYPE_CHECKING:
    from django.contrib.auth.models import User


RESULT_FIELDS = (
    "board",
    "round",
    "table",
    "ns",
    "ew",
    "not_played",
    "contract",
    "declarer",
    "tricks",
    "lead",
    "score_ns",
)


@atomic_with_retry
def record_result(
    *,
    board: Board,
    round: Round,
    table: Table,
    ns: Contestant,
    ew: Contestant,
    contract: str = "",
    declarer: str = "",
    tricks: int | None = None,
    lead: str = "",
    not_played: bool = False,
) -> Result:
    """Record the table result of one board; the Law 77 score is computed from it."""
    recalculation.lock_board(board.pk)  # the board before its results, as everywhere
    result = Result(
        board=board,
        round=round,
        table=table,
        ns=ns,
        ew=ew,
        contract=contract or "",
        declarer=declarer or "",
        tricks=tricks,
        lead=(lead or "").upper(),
        not_played=not_played,
    )
    _check_not_recorded(result)
    full_save(result)
    recalculation.mark_board_dirty(board)
    if board.session.event.kind in (Event.Kind.MP_PAIRS, Event.Kind.INDIVIDUAL):
        recalculation.mark_session_if_plays_grew(board)  # a board's top follows the session's plays
    audit.record(
        action="result.recorded",
        obj=result,
        after=audit.snapshot(result, RESULT_FIELDS),
        tournament=board.session.event.tournament_id,
        summary=texts.text("scoring.result", board=board.number, table=table.number, what=str(result.contract_display)),
    )
    return result


@atomic_with_retry
def correct_result(*, result: Result, late_correction: dict | None = None, **fields: Any) -> Result:
    """Change a recorded table result (a Law 79 correction). After the correction period only by
    the Law 79C2 route where the regulations allow it: ``late_correction`` the director's and the
    organiser's statement (scoring.deadlines.clean_late_correction), kept in the audit trail."""
    fields.setdefault("declarer", fields.get("declarer", result.declarer) or "")
    if "lead" in fields:
        fields["lead"] = (fields["lead"] or "").upper()
    recalculation.lock_board(result.board_id)  # the board before its results, as everywhere
    result = recalculation.lock_result(result.pk)
    # After the official score, only within the correction period (Law 79C1), or by 79C2.
    late = check_in_period(result.board.session, "result_correction", late=late_correction)
    before = audit.snapshot(result, RESULT_FIELDS)
    seats = (result.ns_id, result.ew_id)
    full_update(result, fields)
    if (result.ns_id, result.ew_id) != seats:
        # Its board score was another pair's: without it the recalculation totals the event
        # from scratch instead of moving the old pair's totals.
        BoardScore.objects.filter(result=result).delete()
    recalculation.mark_board_dirty(result.board)
    audit.record(
        action="result.corrected",
        obj=result,
        before=before,
        after={**audit.snapshot(result, RESULT_FIELDS), **({"late_correction": late} if late else {})},
        tournament=result.board.session.event.tournament_id,
        summary=texts.text(
            "scoring.result", board=result.board.number, table=result.table.number, what=str(result.contract_display)
        ),
    )
    return result


def _check_not_recorded(result: Result) -> None:
    """Say in words which constraint a second result for the same board would break."""
    clashes = Result.objects.filter(board=result.board)
    if clashes.filter(table=result.table).exists():
        raise ValidationError(
            {
                "table": _("Board %(b)s already has a result at table %(t)s.")
                % {"b": result.board.number, "t": result.table.number}
            }
        )
    # A team plays each board twice, once in each direction; a pair or an individual once.
    teams = result.board.session.event.is_teams
    for field, label in (("ns", "N-S"), ("ew", "E-W")):
        contestant = getattr(result, field)
        other = "ew" if field == "ns" else "ns"
        if clashes.filter(**{field: contestant}).exists() or (
            not teams and clashes.filter(**{other: contestant}).exists()
        ):
            raise ValidationError(
                {
                    field: _("%(c)s has already played board %(b)s (%(side)s).")
                    % {"c": contestant, "b": result.board.number, "side": label}
                }
            )


@transaction.atomic
def post_official_scores(
    *, session: Session, by: User | None = None, at: datetime.datetime | None = None, note: str = ""
) -> OfficialScorePosting:
    """Make the session's official score available: this starts the Law 79C and 92B clocks, and
    a second posting starts them again from its time (scoring/deadlines.py). ``by``, when given,
    must be a director, chief director or scorer of the tournament (core.policy, "write_record")."""
    if by is not None and not policy.may(by, "write_record", session.event.tournament):
        raise PermissionDenied(
            _("Only a director, chief director or scorer of this tournament may post its official score.")
        )
    posting = full_save(OfficialScorePosting(session=session, posted_by=by, posted_at=at or timezone.now(), note=note))
    audit.record(
        action="session.official_score_posted",
        obj=session,
        actor=by,
        after={"posted_at": posting.posted_at.isoformat(), "note": note},
        tournament=session.event.tournament_id,
        summary=texts.text("scoring.session_posted", event=session.event.name, session=session_param(session)),
    )
    return posting
