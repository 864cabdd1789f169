"""Table results recorded and corrected (Law 79), and a session's official score made available
(which starts the Law 79C and 92B clocks)."""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import services as audit
from core import policy, texts
from core.retry import atomic_with_retry
from scoring import deadlines, recalculation
from scoring.deadlines import check_in_period
from scoring.models import (
    Board,
    BoardScore,
    Contestant,
    Event,
    OfficialScorePosting,
    Result,
    Round,
    Section,
    Session,
    Table,
)
from scoring.services.common import full_save, full_update, in_words
from scoring.texts import session_param

if TYPE_CHECKING:
    pass


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
    by: Any,
) -> Result:
    """Record the table result of one board; the Law 77 score is computed from it. The upload of
    one result: :func:`record_results` (in its transaction, retried on a conflict) checks and
    writes it."""
    row: dict[str, Any] = {"board": board, "round": round, "table": table, "ns": ns, "ew": ew}
    row |= {"contract": contract, "declarer": declarer, "tricks": tricks, "lead": lead, "not_played": not_played}
    try:
        return record_results(rows=[row], by=by)[0]
    except ResultsRefused as refused:
        raise refused.rows[0][1] from None


class ResultsRefused(ValidationError):
    """:func:`record_results` refused some of its rows and wrote nothing. ``rows``: each refused
    row's index and its ValidationError (by field), in the rows' order; the messages name each
    row's board and table."""

    def __init__(self, rows: list[tuple[int, ValidationError]], results: list[Result]) -> None:
        self.rows = rows
        super().__init__(
            [
                "%s: %s"
                % (
                    _("board %(board)s, table %(table)s")
                    % {"board": results[index].board.number, "table": results[index].table.number},
                    in_words(error),
                )
                for index, error in rows
            ]
        )


@atomic_with_retry
def record_results(*, rows: Iterable[dict[str, Any]], by: Any) -> list[Result]:
    """Record the table results of one session at once (a club's upload, an imported file): each
    row a dict of :func:`record_result`'s arguments, checked as that checks one result (against
    the results recorded and the rows before it), in a handful of statements whatever their
    number (issue #33). All or nothing: :class:`ResultsRefused` with every row refused."""
    results = [_unsaved(row) for row in rows]
    if not results:
        policy.require(by, "write_record", None)  # nothing to write: an official somewhere
        return []
    session = _session_of(results)
    policy.require(by, "write_record", session.event.tournament)
    errors = {index: error for index, result in enumerate(results) if (error := _invalid(result))}
    boards = sorted({result.board_id for result in results})
    recalculation.lock_boards(boards)  # the boards before their results, as everywhere
    refused = _refused(results, errors, session.event.is_teams)
    if refused:
        raise ResultsRefused(refused, results)
    Result.objects.bulk_create(results)
    recalculation.mark_boards_dirty(boards)
    if session.event.kind in (Event.Kind.MP_PAIRS, Event.Kind.INDIVIDUAL):
        # A board's top follows the session's plays.
        recalculation.mark_session_if_plays_grew_by(session.pk, Counter(result.board_id for result in results))
    audit.record_many(
        {
            "action": "result.recorded",
            "obj": result,
            "after": audit.snapshot(result, RESULT_FIELDS),
            "tournament": session.event.tournament_id,
            "summary": texts.text(
                "scoring.result",
                board=result.board.number,
                table=result.table.number,
                what=str(result.contract_display),
            ),
        }
        for result in results
    )
    return results


REQUIRED = ("board", "round", "table", "ns", "ew")
OPTIONAL = {"contract": "", "declarer": "", "tricks": None, "lead": "", "not_played": False}


def _unsaved(row: dict[str, Any]) -> Result:
    """A row of :func:`record_results` as an unsaved result: the arguments :func:`record_result`
    takes, the same ones required, an unknown one a TypeError as a call's would be."""
    if unknown := set(row) - set(REQUIRED) - set(OPTIONAL):
        raise TypeError(f"unknown result fields: {', '.join(sorted(unknown))}")
    if missing := set(REQUIRED) - set(row):
        raise TypeError(f"missing result fields: {', '.join(sorted(missing))}")
    values = OPTIONAL | row
    values["contract"], values["declarer"] = values["contract"] or "", values["declarer"] or ""
    values["lead"] = (values["lead"] or "").upper()
    return Result(**values)


def _session_of(results: list[Result]) -> Session:
    """The one session of the results' boards, with its event (one query): every board, and
    every table's section, then holds what the model's checks read, with no query of its own."""
    sessions = {result.board.session_id for result in results}
    if len(sessions) != 1:
        raise ValueError("record_results records the results of one session at a time")
    session = Session.objects.select_related("event").get(pk=sessions.pop())
    for result in results:
        result.board.session = session
    tables = [result.table for result in results if result.table_id and not Table.section.is_cached(result.table)]
    if tables:
        sections = Section.objects.in_bulk({table.section_id for table in tables})
        for table in tables:
            table.section = sections[table.section_id]
    return session


# The model's checks but for the foreign keys' existence (the rows hold saved records) and the
# database constraints (the uniques are the clashes below; the checks follow from clean()).
_FOREIGN_KEYS = ("board", "round", "table", "ns", "ew")


def _invalid(result: Result) -> ValidationError | None:
    """What :meth:`Result.full_clean` finds wrong with one row, computing its Law 77 score; no query."""
    try:
        given = [name for name in _FOREIGN_KEYS if getattr(result, f"{name}_id") is not None]
        result.full_clean(exclude=given, validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        return error
    return None


def _refused(
    results: list[Result], errors: dict[int, ValidationError], teams: bool
) -> list[tuple[int, ValidationError]]:
    """Each row refused, in order: one that clashes with a result recorded or a row before it
    that was not refused (the same board at its table, or its contestants), else one the model
    refuses. The results recorded that could clash are read in one query."""
    boards = {result.board_id for result in results}
    seats = {result.ns_id for result in results} | {result.ew_id for result in results}
    recorded = Result.objects.filter(board_id__in=boards).filter(
        Q(table_id__in={result.table_id for result in results}) | Q(ns_id__in=seats) | Q(ew_id__in=seats)
    )
    taken: dict[str, set[tuple[int | None, int | None]]] = {"table": set(), "ns": set(), "ew": set()}
    for board_id, table_id, ns_id, ew_id in recorded.order_by().values_list("board_id", "table_id", "ns_id", "ew_id"):
        _take(taken, board_id, table_id, ns_id, ew_id)
    refused = []
    for index, result in enumerate(results):
        error = _clash(result, taken, teams) or errors.get(index)
        if error is not None:
            refused.append((index, error))
        else:
            _take(taken, result.board_id, result.table_id, result.ns_id, result.ew_id)
    return refused


def _take(taken: dict[str, set[tuple[int | None, int | None]]], board: int | None, *seats: int | None) -> None:
    for name, seat in zip(("table", "ns", "ew"), seats, strict=True):
        taken[name].add((board, seat))


def _clash(result: Result, taken: dict[str, set[tuple[int | None, int | None]]], teams: bool) -> ValidationError | None:
    """Say in words which constraint a second result for the same board would break."""
    if (result.board_id, result.table_id) in taken["table"]:
        return ValidationError(
            {
                "table": _("Board %(b)s already has a result at table %(t)s.")
                % {"b": result.board.number, "t": result.table.number}
            }
        )
    # A team plays each board twice, once in each direction; a pair or an individual once.
    for field, label in (("ns", "N-S"), ("ew", "E-W")):
        seat = (result.board_id, getattr(result, f"{field}_id"))
        other = "ew" if field == "ns" else "ns"
        if seat in taken[field] or (not teams and seat in taken[other]):
            return ValidationError(
                {
                    field: _("%(c)s has already played board %(b)s (%(side)s).")
                    % {"c": getattr(result, field), "b": result.board.number, "side": label}
                }
            )
    return None


@atomic_with_retry
def correct_result(*, result: Result, by: Any, late_correction: dict | None = None, **fields: Any) -> Result:
    """Change a recorded table result (a Law 79 correction). After the correction period only by
    the Law 79C2 route where the regulations allow it: ``late_correction`` the director's and the
    organiser's statement (scoring.deadlines.clean_late_correction), kept in the audit trail."""
    policy.require(by, "write_record", result.board.session.event.tournament)
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


@transaction.atomic
def post_official_scores(
    *, session: Session, by: Any, at: datetime.datetime | None = None, note: str = "", shows: str = ""
) -> OfficialScorePosting:
    """Make the session's official score available: this starts the Law 79C and 92B clocks, and
    a second posting starts them again from its time (scoring/deadlines.py). ``by`` must be a
    director, chief director or scorer of the tournament, or a task (core.policy, "post_scores")."""
    policy.require(by, "post_scores", session.event.tournament)
    by = policy.person(by)
    # What every player can now see (issue #44): by default what the regulations ask for, so that
    # the posting starts the clocks; less, and the score is not yet made available for checking.
    regulations = session.event.tournament.regulations()
    shows = shows or regulations["checking_requires"]
    if shows not in deadlines.CHECKING_LEVELS:
        raise ValidationError(
            {
                "shows": _(
                    "Say what every player can now see: their own results, the full travellers and standings, or those and the hand records."
                )
            }
        )
    checkable = deadlines.counts_for_checking(shows, regulations)
    posting = full_save(
        OfficialScorePosting(
            session=session, posted_by=by, posted_at=at or timezone.now(), note=note, shows=shows, checkable=checkable
        )
    )
    audit.record(
        action="session.official_score_posted",
        obj=session,
        actor=by,
        after={"posted_at": posting.posted_at.isoformat(), "note": note, "shows": shows, "checkable": checkable},
        tournament=session.event.tournament_id,
        summary=texts.text("scoring.session_posted", event=session.event.name, session=session_param(session)),
    )
    return posting
