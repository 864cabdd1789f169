"""Law 90 penalties on a team's match (in IMPs or VPs): given on the match page or carried from a
ruling's penalty at a table, and withdrawn."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import services as audit
from core import policy, texts
from scoring import recalculation
from scoring.models import Board, Contestant, Event, Match, MatchPenalty, Result
from scoring.services.common import full_save

if TYPE_CHECKING:
    from django.contrib.auth.models import User


# What each value of the authority's ``team_penalty_units`` setting allows.
TEAM_PENALTY_UNITS = {"vps": ("vps",), "imps": ("imps",), "vps_or_imps": ("vps", "imps")}


def check_match_penalty_unit(event: Event, unit: str) -> None:
    """Refuse (on field ``unit``) a unit the event's match penalties cannot take: a knockout match
    takes IMPs only; otherwise the authority's ``team_penalty_units`` says which."""
    if unit not in MatchPenalty.Unit.values:
        raise ValidationError({"unit": _("'%(unit)s' is not a unit: VPs or IMPs.") % {"unit": unit}})
    if unit == MatchPenalty.Unit.VPS and event.kind == Event.Kind.KNOCKOUT_TEAMS:
        raise ValidationError({"unit": _("A knockout match is decided on IMPs: give the penalty in IMPs.")})
    allowed = TEAM_PENALTY_UNITS[event.tournament.regulations()["team_penalty_units"]]
    if event.kind != Event.Kind.KNOCKOUT_TEAMS and unit not in allowed:
        raise ValidationError(
            {
                "unit": _("%(body)s gives a team's penalties in a match in %(allowed)s, not in %(unit)s.")
                % {
                    "body": event.tournament.authority,
                    "allowed": " / ".join(str(MatchPenalty.Unit(u).label) for u in allowed),
                    "unit": MatchPenalty.Unit(unit).label,
                }
            }
        )


@transaction.atomic
def add_match_penalty(
    *, match: Match, team: Contestant, amount: Decimal | int | str, unit: str, offence: str, by: Any
) -> MatchPenalty:
    """A director's procedural penalty against ``team`` in ``match`` (core.policy,
    "match_penalty"): :func:`give_match_penalty`."""
    policy.require(by, "match_penalty", match.round.session.event.tournament)
    return give_match_penalty(match=match, team=team, amount=amount, unit=unit, offence=offence, by=by)


@transaction.atomic
def give_match_penalty(
    *, match: Match, team: Contestant, amount: Decimal | int | str, unit: str, offence: str, by: Any
) -> MatchPenalty:
    """A procedural penalty against ``team`` in ``match``: ``amount`` VPs (off its VPs) or IMPs
    (off its IMP margin before the conversion), in a unit the authority's ``team_penalty_units``
    allows; a knockout match, scored without VPs, takes IMPs only. Audited; the event's
    standings are recalculated. A step of :func:`add_match_penalty`, a ruling and an appeal's
    decision, which ask the policy for their own action."""
    by = policy.person(by)
    match = Match.objects.select_related("round__session__event__tournament__authority", "home", "away").get(
        pk=match.pk
    )
    event = match.round.session.event
    if not event.is_teams:
        raise ValidationError({"match": _("Penalties against a team in a match are for team events.")})
    if getattr(team, "pk", None) not in (match.home_id, match.away_id):
        raise ValidationError(
            {"team": _("%(team)s does not play in the match %(match)s.") % {"team": team, "match": match}}
        )
    check_match_penalty_unit(event, unit)
    try:
        value = Decimal(str(amount).strip())
    except InvalidOperation:
        value = None
    if value is None or not value.is_finite() or value <= 0 or value != value.quantize(Decimal("0.01")):
        raise ValidationError(
            {
                "amount": _("'%(amount)s' is not a penalty: a number above 0, with at most two decimals.")
                % {"amount": amount}
            }
        )
    if not (offence or "").strip():
        raise ValidationError({"offence": _("Say what the penalty is for: the team will ask.")})
    penalty = full_save(
        MatchPenalty(match=match, team=team, amount=value, unit=unit, offence=offence.strip(), given_by=by)
    )
    audit.record(
        action="match.penalty_added",
        obj=match,
        actor=by,
        tournament=event.tournament_id,
        after={"penalty": penalty.pk, "team": team.pk, "amount": str(value), "unit": unit, "offence": penalty.offence},
        summary=texts.text("scoring.match_penalty", **_penalty_words(match, penalty)),
    )
    _rescore_match(match)
    return penalty


def add_table_penalty(
    *, result: Result, side: str, amount: Decimal | int | str, unit: str, offence: str, by: User | None = None
) -> MatchPenalty:
    """A Law 90 penalty given at a table (with a ruling) against the team sitting ``side`` ("NS"
    or "EW"), taken off the match that table was part of in the result's round: the one way a
    ruling's penalty in VPs reaches a match (``add_match_penalty``'s checks apply)."""
    match = (
        Match.objects.filter(round_id=result.round_id)
        .filter(Q(open_room_id=result.table_id) | Q(closed_room_id=result.table_id))
        .first()
    )
    if match is None:
        raise ValidationError(
            {
                "unit": _(
                    "A penalty in %(unit)s is taken off a team's match: board %(board)s, table %(table)s is in no "
                    "match."
                )
                % {"unit": unit, "board": result.board.number, "table": result.table.number}
            }
        )
    team = result.ns if side.upper() == "NS" else result.ew
    return give_match_penalty(match=match, team=team, amount=amount, unit=unit, offence=offence, by=by)


def _penalty_words(match: Match, penalty: MatchPenalty) -> dict[str, Any]:
    return {
        "round": match.round.number,
        "match": str(match),
        "team": str(penalty.team),
        "amount": f"{penalty.amount.normalize():f}",
        "unit": penalty.unit,
        "offence": penalty.offence,
    }


@transaction.atomic
def withdraw_match_penalty(*, penalty: MatchPenalty, reason: str, by: Any) -> MatchPenalty:
    """A director withdraws a penalty given in error (core.policy, "match_penalty"):
    :func:`cancel_match_penalty`."""
    policy.require(by, "match_penalty", penalty.match.round.session.event.tournament)
    return cancel_match_penalty(penalty=penalty, reason=reason, by=by)


@transaction.atomic
def cancel_match_penalty(*, penalty: MatchPenalty, reason: str, by: Any) -> MatchPenalty:
    """Withdraw a penalty (it stays in the record, counted no more); audited and recalculated. A
    step of :func:`withdraw_match_penalty` and of a ruling changed or appealed."""
    by = policy.person(by)
    penalty = MatchPenalty.objects.select_for_update().select_related("match__round__session__event").get(pk=penalty.pk)
    if penalty.withdrawn_at is not None:
        raise ValidationError({"penalty": _("This penalty was already withdrawn.")})
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say why the penalty is withdrawn: the teams will ask.")})
    penalty.withdrawn_at, penalty.withdrawn_by, penalty.withdrawal_reason = timezone.now(), by, reason.strip()
    full_save(penalty)
    match = penalty.match
    audit.record(
        action="match.penalty_withdrawn",
        obj=match,
        actor=by,
        tournament=match.round.session.event.tournament_id,
        before={"penalty": penalty.pk, "amount": str(penalty.amount), "unit": penalty.unit},
        after={"reason": penalty.withdrawal_reason},
        summary=texts.text("scoring.match_penalty_withdrawn", **_penalty_words(match, penalty)),
    )
    _rescore_match(match)
    return penalty


def _rescore_match(match: Match) -> int | None:
    """The match's standings through the pipeline: its first board is marked as changed, so a
    worker (or the sweep, if the broker is down) recalculates the event."""
    board = Board.objects.filter(results__round=match.round, results__table=match.open_room).order_by("number").first()
    if board is None:
        return None  # nothing played yet: the penalty counts once the boards are scored
    recalculation.lock_board(board.pk)
    return recalculation.mark_board_dirty(board)
