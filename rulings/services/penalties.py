"""Penalties: Law 90 procedural (an amount the scores take off) and Law 91 disciplinary, and the
cancellation of the procedural ones by an appeal decision."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from audit import services as audit
from audit.hints import Choice
from core import policy, texts
from core.retry import atomic_with_retry
from rulings.models import Penalty, Ruling
from rulings.services.common import edition_in_force, full_save, ruling_name
from rulings.services.effect import apply_rulings, sync_match_penalties
from scoring import services as scoring_services

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from scoring.models import Player


POINT_UNITS = (Penalty.Unit.MATCHPOINTS, Penalty.Unit.PERCENT_OF_TOP, Penalty.Unit.IMPS, Penalty.Unit.VPS)


# Law 91: points and suspension (91A) and disqualification (91B), and the lesser measures
# regulations add: a warning, a fine, and one the regulating authority names (its
# disciplinary_lesser_measure). Points come off the score as Law 90's do; an appeals body cannot
# cancel them (Law 93B3).
DISCIPLINARY_UNITS = (
    *POINT_UNITS,
    Penalty.Unit.WARNING,
    Penalty.Unit.FINE,
    Penalty.Unit.LESSER,
    Penalty.Unit.SUSPENSION,
    Penalty.Unit.DISQUALIFICATION,
)


@atomic_with_retry
def add_penalty(
    *,
    by: User,
    ruling: Ruling,
    kind: Choice,
    side: Choice,
    unit: Choice,
    offence: str,
    amount: Decimal | int | str | None = None,
    player: Player | None = None,
    approved_by: str = "",
    approved_at: datetime.datetime | str | None = None,
) -> Penalty:
    """A procedural penalty (Law 90: an amount in matchpoints, percent of a top or IMPs, which
    the scores take off) or a disciplinary one (Law 91: a warning, a fine (its amount), the
    lesser measure the regulations name, suspension or disqualification of a player or
    contestant, with no matchpoint or IMP value of its own, or points (91A) the scores take off).
    A disqualification (91B) carries the tournament organiser's approval: ``approved_by`` who
    gave it, ``approved_at`` when (now when not given); the ruling is not given without it."""
    policy.require(by, "ruling", ruling)
    measure = ""
    approved_at = _moment(approved_at)
    if kind == Penalty.Kind.DISCIPLINARY and unit == Penalty.Unit.LESSER:
        measure = str(ruling.tournament.regulations().get("disciplinary_lesser_measure") or "").strip()
        if not measure:
            raise ValidationError({"unit": _("The regulations in force name no lesser disciplinary measure (Law 91).")})
    penalty = Penalty(
        measure=measure,
        ruling=ruling,
        kind=kind,
        side=side,
        unit=unit,
        offence=offence,
        player=player,
        amount=Decimal(str(amount)) if amount not in (None, "") else None,
        approved_by=(approved_by or "").strip(),
        approved_at=approved_at,
    )
    _check_kind_and_unit(penalty)
    _check_approval(penalty, given=Ruling.objects.filter(pk=ruling.pk).exclude(state=Ruling.State.DRAFT).exists())
    result = ruling.result
    if (
        player is not None
        and result is not None
        and not (result.ns.members.filter(pk=player.pk).exists() or result.ew.members.filter(pk=player.pk).exists())
    ):
        raise ValidationError({"player": _("%(player)s did not play at this table.") % {"player": player}})
    full_save(penalty)
    audit.record(
        action="ruling.penalty_added",
        obj=ruling,
        actor=ruling.director,
        tournament=ruling.tournament.pk,
        after={
            "kind": kind,
            "side": side,
            "unit": unit,
            "amount": penalty.amount,
            "offence": offence,
            **(
                {"approved_by": penalty.approved_by, "approved_at": penalty.approved_at.isoformat()}
                if penalty.approved_at
                else {}
            ),
        },
        summary=texts.text(
            "rulings.penalty",
            ruling=ruling_name(ruling),
            kind=penalty.kind,
            amount=f"{penalty.amount.normalize():f} " if penalty.amount is not None else "",
            unit=penalty.unit,
            side=penalty.side,
        ),
    )
    if ruling.state != Ruling.State.DRAFT:
        apply_rulings(
            ruling, by=ruling.director, reason=texts.text("rulings.penalty_reason", offence=offence).english()
        )
    return penalty


def _moment(value: datetime.datetime | str | None) -> datetime.datetime | None:
    """An approval time as given (a datetime, or ISO text from the API), aware in the current zone."""
    if not value:
        return None
    moment = parse_datetime(value.strip()) if isinstance(value, str) else value
    if moment is None:
        raise ValidationError(
            {"approved_at": _("'%(value)s' is not a date and time such as 2026-11-28 14:30.") % {"value": value}}
        )
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment)


def _check_kind_and_unit(penalty: Penalty) -> None:
    """A Law 91 penalty is points (91A, as Law 90's), a fine (its amount) or a measure with no
    amount; a Law 90 one an amount above 0 in a unit the scores take off, given to a side."""
    if penalty.kind == Penalty.Kind.DISCIPLINARY:
        if penalty.unit == Penalty.Unit.FINE:
            if penalty.amount is None or penalty.amount <= 0:
                raise ValidationError({"amount": _("A fine needs an amount above 0.")})
        elif penalty.unit in POINT_UNITS:
            _check_points(penalty)
        elif penalty.amount is not None:
            raise ValidationError(
                {
                    "amount": _(
                        "A disciplinary penalty (Law 91) has no matchpoint or IMP value of its own: leave the amount "
                        "empty."
                    )
                }
            )
    elif penalty.kind == Penalty.Kind.PROCEDURAL:
        if penalty.unit not in POINT_UNITS:
            raise ValidationError(
                {
                    "unit": _(
                        "A procedural penalty (Law 90) is in matchpoints, percent of a top or IMPs; a warning, a fine, "
                        "suspension and disqualification are disciplinary penalties (Law 91)."
                    )
                }
            )
        if penalty.player is not None:
            raise ValidationError({"player": _("A procedural penalty (Law 90) is given to a side, not a player.")})
        _check_points(penalty)


def _check_points(penalty: Penalty) -> None:
    """Points (Law 90, or Law 91A) come off a side's score: an amount above 0, in VPs only in a
    team event scored in VPs."""
    if penalty.amount is None or penalty.amount <= 0:
        raise ValidationError(
            {"amount": _("A penalty in %(unit)s needs an amount above 0.") % {"unit": penalty.get_unit_display()}}
        )
    if penalty.unit == Penalty.Unit.VPS:
        event = penalty.ruling.board.session.event
        if not event.is_teams:
            raise ValidationError(
                {
                    "unit": _(
                        "A penalty in VPs comes off a team's match; %(event)s is not a team event: give it in "
                        "matchpoints or percent of a top."
                    )
                    % {"event": event}
                }
            )
        # Refused now, on the form, rather than when the ruling is given.
        scoring_services.check_match_penalty_unit(event, penalty.unit)


def approval_missing(edition: str) -> str:
    """Law 91B's refusal, in the edition's words: 1997 names the sponsoring organisation (its
    Law 80), 2007 and 2017 the tournament organiser."""
    if edition == "1997":
        return _(
            "Law 91B: a disqualification needs the sponsoring organisation's approval: fill in \"Approved by the "
            'tournament organiser" with who approved it.'
        )
    return _(
        "Law 91B: a disqualification needs the tournament organiser's approval: fill in \"Approved by the "
        'tournament organiser" with who approved it.'
    )


def _check_approval(penalty: Penalty, *, given: bool) -> None:
    """Only a disqualification carries the organiser's approval (Law 91B); one added to a ruling
    already given must carry it. Approved with no time given: approved now."""
    if penalty.unit != Penalty.Unit.DISQUALIFICATION:
        if penalty.approved_by or penalty.approved_at:
            raise ValidationError(
                {
                    "approved_by": _(
                        "Only a disqualification needs the tournament organiser's approval (Law 91B): leave "
                        '"Approved by the tournament organiser" empty for a %(unit)s.'
                    )
                    % {"unit": penalty.get_unit_display()}
                }
            )
        return
    if penalty.approved_at and not penalty.approved_by:
        raise ValidationError(
            {"approved_by": _("Say who approved the disqualification: an approval time alone is no approval.")}
        )
    if penalty.approved_by and penalty.approved_at is None:
        penalty.approved_at = timezone.now()
    if penalty.approved_at and penalty.approved_at > timezone.now():
        raise ValidationError({"approved_at": _("The approval cannot be later than now.")})
    if given and not penalty.approved_by:
        raise ValidationError({"approved_by": approval_missing(edition_in_force(penalty.ruling.tournament))})


@atomic_with_retry
def cancel_penalties(*, ruling: Ruling, by: User, reason: str) -> list[Penalty]:
    """An appeal decision cancels the ruling's Law 90 procedural penalties: each stays in the
    record, marked cancelled with the reason, and counts no more (one in VPs is withdrawn from
    the team's match here; the board's are left out of the score the decision sets). A Law 91
    penalty is the director's alone (Law 93B3) and stays."""
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say why the penalty is cancelled: the teams will ask.")})
    cancelled = list(ruling.penalties.filter(kind=Penalty.Kind.PROCEDURAL, cancelled_at__isnull=True).order_by("pk"))
    now = timezone.now()
    for penalty in cancelled:
        penalty.cancelled_at, penalty.cancellation_reason = now, reason.strip()[:300]
        penalty.save(update_fields=["cancelled_at", "cancellation_reason"])
        audit.record(
            action="ruling.penalty_cancelled",
            obj=ruling,
            actor=by,
            tournament=ruling.tournament.pk,
            before={"unit": penalty.unit, "amount": str(penalty.amount), "side": penalty.side},
            after={"reason": penalty.cancellation_reason},
            summary=texts.text("rulings.about", ruling=ruling_name(ruling), what=penalty.cancellation_reason[:200]),
        )
    if cancelled and ruling.result is not None:
        sync_match_penalties(ruling.result, by=by, reason=reason.strip())
    return cancelled
