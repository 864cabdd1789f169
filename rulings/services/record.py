"""A ruling opened (on a result, or on a board and table before the result), its result attached
when it exists, and who sat where."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db.models import Max
from django.utils.translation import gettext as _

from audit import services as audit
from audit.hints import Choice
from core import policy, reader, texts
from core.retry import atomic_with_retry
from rulings.models import Ruling
from rulings.services.citations import cite_laws
from rulings.services.common import full_save, ruling_name, snapshot, tournament_at
from scoring.deadlines import check_in_period
from scoring.models import Result, Table, Tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from scoring.models import Board, Round


def others_at_table(board: Board, table: Table, director: User) -> list[Ruling]:
    """Rulings in force at this board and table that another director recorded, first first."""
    return list(
        Ruling.objects.filter(board=board, table=table)
        .exclude(state=Ruling.State.SUPERSEDED)
        .exclude(director=director)
        .select_related("director")
        .order_by("number")
    )


class TableRuled(ValidationError):
    """Another director's ruling in force at the table: the ruling refused, naming it
    (``others``: the rulings, first first). The API answers 409 with a ``Link`` to the first;
    the ruling form and the drafts page offer to open it or to record a further ruling."""

    def __init__(self, message: Any, others: list[Ruling]) -> None:
        super().__init__(message)
        self.others = others


def named_rulings(others: list[Ruling]) -> str:
    """ "Ruling 3 by Ann Smith, recorded at 14:02; ..." in the reader's language."""
    tournament = others[0].board.session.event.tournament
    return "; ".join(
        _("Ruling %(number)s by %(director)s, recorded at %(time)s")
        % {
            "number": other.number,
            "director": other.director.get_full_name() or other.director.get_username() if other.director else "-",
            "time": reader.event_time(other.created_at, tournament),
        }
        for other in others
    )


def _one_per_table(board: Board, table: Table, director: User, further: bool) -> list[Ruling]:
    """One ruling per table unless a director says otherwise, kept by the database (issue #41):
    the table's row is locked before the others are read, so of two rulings recorded at the same
    moment the second waits for the first to commit and then reads it (READ COMMITTED: each
    statement sees what committed before it began). The rulings already there, when ``further``."""
    Table.objects.select_for_update().filter(pk=table.pk).first()
    others = others_at_table(board, table, director)
    if others and not further:
        raise TableRuled(
            {
                "further_ruling": _(
                    "Another director has already ruled at this table: %(rulings)s. Read that ruling first; to "
                    "record yours beside it, choose “a further ruling on this table”."
                )
                % {"rulings": named_rulings(others)}
            },
            others,
        )
    return others


@atomic_with_retry
def record_ruling(
    *,
    director: User,
    kind: Choice,
    result: Result | None = None,
    board: Board | None = None,
    table: Table | None = None,
    round: Round | None = None,
    laws: Iterable[str] = (),
    further_ruling: bool = False,
    **fields: Any,
) -> Ruling:
    """Open a ruling (a draft) on ``result``, or on a ``board`` and ``table`` (and ``round``)
    whose result is not recorded yet (a director called during the auction or the play): the
    result is attached as soon as it exists. ``laws`` are citations such as "16B1a". Where
    another director has ruled at the table, refused (``TableRuled``) unless ``further_ruling``
    says the director adds a further ruling knowing of it (recorded on the ruling and in its
    audit entry); a correction (``supersedes``) is no further ruling."""
    policy.require(director, "ruling", tournament_at(result, board))
    if result is not None:
        board, table, round = result.board, result.table, result.round
    else:
        errors = {}
        if board is None:
            errors["board"] = _("Say which board the ruling is on.")
        if table is None:
            errors["table"] = _("Say at which table the director was called.")
        if errors:
            raise ValidationError(errors)
        assert board is not None  # for mypy: refused above when missing
        result = Result.objects.filter(board=board, table=table).select_related("round").first()
        if result is not None:
            round = result.round
    # A ruling asked for after the official score: within the Law 92B period (81C6), counted
    # from when the director was called when that is recorded. A correction of a ruling given
    # checks its own period (correct_ruling: Law 79C1, or 79C2).
    known: list[Ruling] = []
    if fields.get("supersedes") is None:
        check_in_period(board.session, "ruling_request", now=fields.get("called_at"))
        assert table is not None  # for mypy: a result has its table; refused above when missing
        known = _one_per_table(board, table, director, further_ruling)
    tournament = Tournament.objects.select_for_update().get(pk=board.session.event.tournament_id)
    last = Ruling.objects.filter(board__session__event__tournament=tournament).aggregate(n=Max("number"))
    ruling = Ruling(
        result=result,
        board=board,
        table=table,
        round=round,
        director=director,
        kind=kind,
        number=(last["n"] or 0) + 1,
        further_ruling=bool(known),
        **fields,
    )
    check_screens(ruling)
    full_save(ruling)
    if laws:
        cite_laws(ruling=ruling, by=director, laws=laws)
    audit.record(
        action="ruling.recorded",
        obj=ruling,
        actor=director,
        tournament=tournament.pk,
        after={**snapshot(ruling), **({"further_ruling_beside": [other.number for other in known]} if known else {})},
        summary=texts.text("rulings.kind", ruling=ruling_name(ruling), kind=ruling.kind),
    )
    return ruling


def check_screens(ruling: Ruling) -> None:
    if ruling.tray_delay_seconds is not None and not ruling.screens:
        raise ValidationError({"tray_delay_seconds": _("A tray delay is recorded only when screens are in use.")})
    if ruling.kind == Ruling.Kind.DIRECTORS_ERROR and ruling.offending_side:
        raise ValidationError(
            {
                "offending_side": _(
                    "A director's error (Law 82C) has no offending side: both sides are treated as non-offending."
                )
            }
        )


@atomic_with_retry
def link_result(ruling: Ruling, *, by: User) -> Ruling:
    """Attach the table's result to a ruling opened before it existed; returns the ruling."""
    policy.require(by, "ruling", ruling)
    if ruling.result_id is not None:
        return ruling
    result = Result.objects.filter(board_id=ruling.board_id, table_id=ruling.table_id).first()
    if result is None:
        return ruling
    Ruling.objects.filter(pk=ruling.pk, result__isnull=True).update(result=result, round=result.round_id)
    ruling.result, ruling.round_id = result, result.round_id
    audit.record(
        action="ruling.result_attached",
        obj=ruling,
        tournament=ruling.tournament.pk,
        after={"result": result.pk, "contract": str(result.contract_display)},
        summary=texts.text("rulings.about", ruling=ruling_name(ruling), what=str(result.contract_display)),
    )
    return ruling


@atomic_with_retry
def record_seating(*, ruling: Ruling, by: User, seating: dict[str, Any]) -> Ruling:
    """Who sat where at the table (player ids by seat); an empty mapping clears it."""
    policy.require(by, "ruling", ruling)
    ruling = Ruling.objects.select_for_update().get(pk=ruling.pk)
    before = ruling.seating
    try:
        ruling.seating = {seat: int(player) for seat, player in (seating or {}).items()} or None
    except (AttributeError, TypeError, ValueError):
        raise ValidationError(
            {"seating": _('must look like {"N": 12, "E": 14, "S": 13, "W": 15} (player ids)')}
        ) from None
    full_save(ruling)
    audit.record(
        action="ruling.seating",
        obj=ruling,
        actor=by,
        tournament=ruling.tournament.pk,
        before={"seating": before},
        after={"seating": ruling.seating},
        summary=texts.text("rulings.seating", ruling=ruling_name(ruling)),
    )
    return ruling
