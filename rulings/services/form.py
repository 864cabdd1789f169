"""The ruling form's whole path in one transaction: record or complete a draft, cite, attach the
deal, add the penalty, record the poll, set the outcome and (when asked) give the ruling."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from audit import services as audit
from audit.hints import Choice
from core import policy, texts
from core.retry import atomic_with_retry
from rulings.models import Penalty, Ruling
from rulings.services.citations import cite_laws
from rulings.services.common import full_save, jsonable, penalty_errors, ruling_name, snapshot, tournament_at
from rulings.services.deals import attach_deal_and_auction, read_deal_source
from rulings.services.giving import give_ruling
from rulings.services.penalties import add_penalty
from rulings.services.poll import record_poll
from rulings.services.record import check_screens, link_result, record_ruling
from rulings.services.scores import set_outcome
from scoring.models import Result

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from scoring.models import Board, Round, Table


def _decide(
    ruling: Ruling,
    *,
    by: User,
    laws: str,
    outcome: Choice,
    score_kind: Choice,
    ns: Any,
    ew: Any,
    penalty: dict[str, Any] | None,
    deal_source: str,
    deal_override: str,
    poll: dict[str, Any] | None,
) -> None:
    """Cite, attach the deal, add the penalty, record the poll and set the outcome; every
    refusal is collected, by field."""
    citations = [part.strip() for part in laws.replace(";", ",").split(",") if part.strip()]
    errors = {}

    def add_the_penalty() -> Penalty:
        try:
            return add_penalty(ruling=ruling, by=by, **{"kind": Penalty.Kind.PROCEDURAL, **(penalty or {})})
        except ValidationError as error:
            raise ValidationError(penalty_errors(error)) from None

    for step in (
        lambda: cite_laws(ruling=ruling, by=by, laws=citations),
        lambda: deal_source
        and attach_deal_and_auction(
            ruling=ruling, by=by, record=read_deal_source(deal_source, ruling=ruling), override_reason=deal_override
        ),
        lambda: penalty and add_the_penalty(),
        lambda: poll is not None and record_poll(ruling=ruling, by=by, **poll),
        lambda: set_outcome(ruling=ruling, by=by, outcome=outcome, score_kind=score_kind, ns=ns, ew=ew),
    ):
        try:
            step()
        except ValidationError as error:
            errors.update(error.message_dict)
    if errors:
        raise ValidationError(errors)


@atomic_with_retry
def rule(
    *,
    director: User,
    kind: Choice,
    result: Result | None = None,
    board: Board | None = None,
    table: Table | None = None,
    round: Round | None = None,
    give: bool = False,
    laws: str = "",
    outcome: Choice = Ruling.Outcome.RESULT_STANDS,
    score_kind: str = "",
    ns: Any = None,
    ew: Any = None,
    offending_side: str = "",
    penalty: dict[str, Any] | None = None,
    deal_source: str = "",
    deal_override: str = "",
    poll: dict[str, Any] | None = None,
    given_at: datetime.datetime | None = None,
    **fields: Any,
) -> Ruling:
    """The fast path of the ruling form: record (on a result, or on a board and table whose
    result is not in yet), cite, attach the deal, set the outcome, any penalty (``penalty``
    with its ``kind``: Law 90 procedural by default, or Law 91 disciplinary), the Law 16B poll,
    and (with ``give``) give the ruling, in one transaction; on any refusal nothing is written."""
    policy.require(director, "ruling", tournament_at(result, board))
    ruling = record_ruling(
        result=result,
        board=board,
        table=table,
        round=round,
        director=director,
        kind=kind,
        offending_side=offending_side,
        **fields,
    )
    _decide(
        ruling,
        by=director,
        laws=laws,
        outcome=outcome,
        score_kind=score_kind,
        ns=ns,
        ew=ew,
        penalty=penalty,
        deal_source=deal_source,
        deal_override=deal_override,
        poll=poll,
    )
    if give:
        give_ruling(ruling=ruling, by=director, at=given_at)
    return Ruling.objects.get(pk=ruling.pk)


DRAFT_FIELDS = (
    "kind",
    "called_by",
    "called_at",
    "facts",
    "statement_ns",
    "statement_ew",
    "ruling_text",
    "reasoning",
    "offending_side",
    "appeal_notice",
    "facts_agreed",
    "screens",
    "tray_delay_seconds",
    "noticed_by",
    "colleagues_consulted",
)


@atomic_with_retry
def update_draft(
    *,
    ruling: Ruling,
    by: User,
    give: bool = False,
    laws: str = "",
    outcome: Choice = Ruling.Outcome.RESULT_STANDS,
    score_kind: str = "",
    ns: Any = None,
    ew: Any = None,
    penalty: dict[str, Any] | None = None,
    deal_source: str = "",
    deal_override: str = "",
    poll: dict[str, Any] | None = None,
    **fields: Any,
) -> Ruling:
    """Complete a ruling saved earlier (typically opened during the auction, before the result):
    the same inputs as ``rule``; the draft's penalties are replaced by ``penalty``."""
    policy.require(by, "ruling", ruling)
    ruling = Ruling.objects.select_for_update().get(pk=ruling.pk)
    if ruling.state != Ruling.State.DRAFT:
        raise ValidationError(
            {"state": _("%(ruling)s was given: correct it instead (Law 82C, Law 79C).") % {"ruling": ruling}}
        )
    before = snapshot(ruling)
    for name, value in fields.items():
        if name not in DRAFT_FIELDS:
            raise ValidationError({name: _("This field cannot be changed here.")})
        setattr(ruling, name, value)
    link_result(ruling, by=by)
    check_screens(ruling)
    full_save(ruling)
    ruling.penalties.all().delete()
    _decide(
        ruling,
        by=by,
        laws=laws,
        outcome=outcome,
        score_kind=score_kind,
        ns=ns,
        ew=ew,
        penalty=penalty,
        deal_source=deal_source,
        deal_override=deal_override,
        poll=poll,
    )
    audit.record(
        action="ruling.draft_updated",
        obj=ruling,
        actor=by,
        tournament=ruling.tournament.pk,
        before=jsonable(before),
        after=jsonable(snapshot(Ruling.objects.get(pk=ruling.pk))),
        summary=texts.text("rulings.kind", ruling=ruling_name(ruling), kind=ruling.kind),
    )
    if give:
        give_ruling(ruling=ruling, by=by)
    return Ruling.objects.get(pk=ruling.pk)
