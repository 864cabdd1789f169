"""A ruling drafted on a phone with no network, sent when the network returns (issue #31).

The phone sends the ruling form's fields with an ``Idempotency-Key`` (the draft's own id), so a
draft sent twice is one ruling. The server's clock decides: the periods are checked at the time
the server receives the draft, whatever the phone's clock says; the phone's time is kept in
``Ruling.device_time`` and the server's in ``Ruling.received_at``, both shown. A draft for a
table where another director has ruled is refused with the other ruling named, never merged
silently: the table's row is locked for the check, so two drafts sent at the same moment are one
ruling and one refusal (issue #41). The director reads it and merges theirs into it (its page),
sends theirs again as a further ruling (``acknowledge_others``) or deletes the draft.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from core import policy
from core.retry import atomic_with_retry
from rulings.models import Ruling
from rulings.services.common import tournament_at
from rulings.services.form import rule
from rulings.services.record import TableRuled, named_rulings, others_at_table
from scoring.deadlines import check_in_period
from scoring.models import Table

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from scoring.models import Board, Result, Round

__all__ = ["TableRuled", "others_at_table", "result_fingerprint", "rule_from_phone"]


def result_fingerprint(result: Result | None) -> str:
    """The table's result as the board page's "Ruling" link carries it (``seen`` in
    templates/scoring/board_detail.html): contract, declarer, tricks, not played."""
    if result is None:
        return ""
    tricks = "" if result.tricks is None else str(result.tricks)
    return f"{result.contract}.{result.declarer}.{tricks}.{1 if result.not_played else 0}"


def _seen_words(seen: str) -> str:
    from scoring.models import Result

    contract, declarer, tricks, not_played = (seen.split(".") + ["", "", "", "0"])[:4]
    try:
        shown = Result(
            contract=contract, declarer=declarer, tricks=int(tricks) if tricks else None, not_played=not_played == "1"
        )
        return str(shown.contract_display)
    except (TypeError, ValueError):
        return seen


def _result_changed(result: Result | None, seen: str) -> ValidationError:
    return ValidationError(
        {
            "result": _(
                "The result at this table changed while your draft waited: it was %(seen)s when you wrote the draft, "
                "it is %(now)s now. Your draft is kept on this phone: check the result, then write the ruling again "
                "or delete this draft."
            )
            % {"seen": _seen_words(seen), "now": result.contract_display if result else _("not entered")}
        }
    )


def _conflict(others: list[Ruling]) -> TableRuled:
    return TableRuled(
        {
            "table": _(
                "Another director has ruled at this table while your draft waited: %(rulings)s. Your draft is "
                "kept on this phone: read that ruling, then send yours as a further ruling or delete it."
            )
            % {"rulings": named_rulings(others)}
        },
        others,
    )


@atomic_with_retry
def rule_from_phone(
    *,
    director: User,
    board: Board,
    table: Table,
    round: Round | None = None,
    result: Result | None = None,
    device_time: datetime.datetime | None = None,
    acknowledge_others: bool = False,
    seen_result: str = "",
    give: bool = False,
    **decision: Any,
) -> Ruling:
    """Record (and with ``give``, give) a ruling drafted on a phone, as the ruling form does,
    received now by the server's clock."""
    policy.require(director, "ruling", tournament_at(result, board))
    received_at = timezone.now()
    # The server's clock decides: the request for a ruling must arrive within the Law 92B
    # period after the official score (81C6), whenever the phone says it was drafted.
    check_in_period(board.session, "ruling_request", now=received_at, field="table")
    # The result the director saw on the board's page when the draft was written, if any.
    if seen_result and seen_result != result_fingerprint(result):
        raise _result_changed(result, seen_result)
    # One ruling per table unless a director says otherwise, kept by the database (issue #41):
    # the table's row is locked before the others are read (record_ruling locks it again and
    # keeps the rule for every path), here to answer in the draft's words.
    Table.objects.select_for_update().filter(pk=table.pk).first()
    others = others_at_table(board, table, director)
    if others and not acknowledge_others:
        raise _conflict(others)
    return rule(
        director=director,
        board=board,
        table=table,
        round=round,
        result=result,
        give=give,
        device_time=device_time,
        received_at=received_at,
        further_ruling=acknowledge_others,
        **decision,
    )
