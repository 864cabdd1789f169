"""What the rulings in force at a table do to its score together: the adjusted score of the one
that adjusts and the Law 90 penalties of all (those in VPs carried to the team's match), sent to
the scoring service only when it differs from what the scores already say."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from core import texts
from rulings.models import Penalty, Ruling
from rulings.services.common import penalty_errors
from scoring import services as scoring_services
from scoring.models import EffectiveScore, Result, ScoreChange

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.db.models import QuerySet


# The rulings whose score effect counts: given and not superseded by a correction.
IN_FORCE = (Ruling.State.GIVEN, Ruling.State.FINAL, Ruling.State.UNDER_APPEAL, Ruling.State.CHANGED_BY_APPEAL)


def penalty_dict(rulings: Iterable[Ruling]) -> dict[str, str] | None:
    """The procedural (Law 90) penalties and disciplinary points (Law 91A) of ``rulings`` in the
    board's units, as the engine takes them: {"ns": 1.5, "ew": "25%"}. Two penalties on one side
    in the same unit add up."""
    totals: dict[str, tuple[str, Decimal]] = {}
    for ruling in rulings:
        for p in ruling.penalties.filter(
            kind__in=(Penalty.Kind.PROCEDURAL, Penalty.Kind.DISCIPLINARY),
            unit__in=[Penalty.Unit.MATCHPOINTS, Penalty.Unit.PERCENT_OF_TOP, Penalty.Unit.IMPS],
            cancelled_at__isnull=True,
        ):
            if p.amount is None:  # points always have one (penalties._check_points)
                continue
            side = p.side.lower()
            if side in totals and totals[side][0] != p.unit:
                raise ValidationError(
                    {
                        "penalties": _(
                            "%(side)s already has a penalty in %(unit)s on this board: give penalties of one side in "
                            "one unit, so that they add up."
                        )
                        % {"side": p.get_side_display(), "unit": Penalty.Unit(totals[side][0]).label}
                    }
                )
            unit, amount = totals.get(side, (p.unit, Decimal(0)))
            totals[side] = (unit, amount + p.amount)
    penalty = {}
    for side, (unit, amount) in totals.items():
        text = format(amount.normalize(), "f")  # 10, not 1E+1
        penalty[side] = f"{text}%" if unit == Penalty.Unit.PERCENT_OF_TOP else text
    return penalty or None


def rulings_in_force(result: Result) -> QuerySet[Ruling]:
    return Ruling.objects.filter(result=result, state__in=IN_FORCE).order_by("number")


def rulings_counted(result: Result) -> QuerySet[Ruling]:
    """The rulings in force whose effect reaches the scores: not one whose adjusted score still
    awaits a second director's check (rulings/services/checking.py)."""
    return rulings_in_force(result).exclude(score_check=Ruling.ScoreCheck.AWAITING)


def board_penalties(result: Result) -> dict[str, str] | None:
    """The Law 90 penalties on ``result``'s board of the rulings in force at its table, not
    cancelled, as the engine takes them."""
    return penalty_dict(rulings_counted(result))


def sync_match_penalties(result: Result, *, by: User, reason: str) -> None:
    """Make the match penalties of the table's rulings say what the rulings in force say: each
    Law 90 penalty (or Law 91A points) in VPs of a ruling in force, not cancelled, carried once to the team's match
    (scoring.services.add_table_penalty); that of a ruling superseded, or of a penalty cancelled,
    withdrawn. A match penalty a director withdrew on the match page is not given again."""
    in_force = set(rulings_counted(result).values_list("pk", flat=True))
    for penalty in (
        Penalty.objects.filter(ruling__result=result, unit=Penalty.Unit.VPS)
        .select_related("ruling", "match_penalty")
        .order_by("pk")
    ):
        wanted = penalty.ruling_id in in_force and penalty.cancelled_at is None
        carried = penalty.match_penalty
        if carried is not None and carried.withdrawn_at is None and not wanted:
            scoring_services.cancel_match_penalty(penalty=carried, reason=reason[:300], by=by)
        elif carried is None and wanted and penalty.amount is not None:  # points have one
            # Free text on the match, as a director would write it there.
            offence = "%s: %s" % (_("Ruling %(number)s") % {"number": penalty.ruling.number}, penalty.offence)
            try:
                penalty.match_penalty = scoring_services.add_table_penalty(
                    result=result,
                    side=penalty.side,
                    amount=penalty.amount,
                    unit="vps",
                    offence=offence[:300],
                    by=by,
                )
            except ValidationError as error:
                raise ValidationError(penalty_errors(error)) from None
            penalty.save(update_fields=["match_penalty"])


def apply_rulings(ruling: Ruling, *, by: User, reason: str) -> ScoreChange | None:
    """Make the result's score say what the rulings in force at its table say together: the
    adjusted score of the one that adjusts (at most one), and the procedural penalties of all
    (those in VPs on the team's match). Nothing is sent to the scores when that is what they
    already say, so a change reaches the recalculation once; a ruling that leaves the score
    alone does not undo a score that no ruling set (a scorer's correction, an appeal decision)."""
    result = ruling.result
    if result is None:
        return None
    sync_match_penalties(result, by=by, reason=reason)
    return _apply_board(ruling, result, by=by, reason=reason)


def _apply_board(ruling: Ruling, result: Result, *, by: User, reason: str) -> ScoreChange | None:
    in_force = list(rulings_counted(result))
    adjusting = [r for r in in_force if r.outcome == Ruling.Outcome.ADJUSTED]
    penalty = penalty_dict(in_force)
    current = EffectiveScore.objects.filter(result=result).first()
    have = (current.kind, current.score, current.penalty) if current else ("table", None, None)
    cause = dict(
        cause_type="ruling",
        cause_id=ruling.pk,
        cause_label=texts.text("scoring.cause_ruling", number=ruling.number).english(),
        by=by,
    )
    if adjusting:
        source = adjusting[-1]
        if (
            current is not None
            and have == (source.score_kind, source.score, penalty)
            and current.outside_agency == (source.kind == Ruling.Kind.DIRECTORS_ERROR)
        ):
            return None
        return scoring_services.set_effective_score(
            result=result,
            kind=source.score_kind,
            score=source.score,
            penalty=penalty,
            reason=reason,
            outside_agency=source.kind == Ruling.Kind.DIRECTORS_ERROR,
            description=source.score_description,
            **cause,
        )
    if have == ("table", None, penalty):
        return None
    if not penalty and not ScoreChange.objects.filter(result=result, cause_type="ruling").exists():
        return None
    return scoring_services.set_effective_score(result=result, kind="table", penalty=penalty, reason=reason, **cause)
