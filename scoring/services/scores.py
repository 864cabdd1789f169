"""Effective scores: what a result counts for when that is not its table score (an adjusted score
of any kind, procedural penalties), checked against the engine and the authority's settings,
logged as a ``ScoreChange`` and sent to the recalculation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from audit import services as audit
from audit.hints import Choice
from bridge.engine.scores import EngineInputError, TeamAdjustment, Weighted, parse_result
from core import texts
from core.i18n import translate
from core.retry import atomic_with_retry
from scoring import recalculation
from scoring.models import Adjustment, BoardScore, EffectiveScore, Result, ScoreChange
from scoring.services.common import full_save

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from bridge.engine.scores import Entry


def describe_score(kind: Choice, score: dict[str, Any] | None, result: Result) -> str:
    """A score in the words a scorer uses: "+420", "weighted 60% +420 / 40% -50", "AVE+ / AVE-"."""
    if kind == Adjustment.TABLE or score is None:
        if result.not_played:
            return _("not played")
        return f"{result.contract_display} {result.score_ns:+d}" if result.contract != "PASS" else _("passed out")

    def one(value: Any) -> str:
        if isinstance(value, list):
            # Each weight as it was typed ("1/3", "30%", "0.6"), never turned into a percentage.
            return "weighted " + " / ".join(f"{_typed(w)} {int(p):+d}" for p, w in value)
        if isinstance(value, dict) and "imps" in value:
            return f"{value['imps']} IMPs (Law 86D)"
        if isinstance(value, dict) and "total_points" in value:
            return f"{value['total_points']} total points (Law 86D)"
        if isinstance(value, dict):
            return (
                "redress (table {table:+d}, normal play {normal_play:+d}, without the infraction "
                "{without_infraction:+d})".format(**{k: int(v) for k, v in value.items() if k != "non_offending"})
            )
        if isinstance(value, int):
            return f"{value:+d}"
        return str(value)

    ns, ew = score.get("ns"), score.get("ew")
    if ew is None or ew == ns:
        return one(ns)
    return f"N-S {one(ns)}, E-W {one(ew)}"


def _typed(weight: Any) -> str:
    """A weight as its writer typed it: "30 %" is "30%", a number is its text."""
    text = str(weight).strip()
    return text[:-1].strip() + "%" if text.endswith("%") else text


def validate_effective_score(
    *, result: Result, score: dict[str, Any] | None, penalty: dict[str, Any] | None = None, outside_agency: bool = False
) -> Entry:
    """Check an adjusted score against the engine and the regulating authority's settings;
    raise ValidationError on ``score`` saying what is allowed."""
    regs = result.board.session.event.tournament.regulations()
    authority = result.board.session.event.tournament.authority
    data = {"id": result.pk, **(score or {"ns": result.score_ns})}
    if penalty:
        data["penalty"] = penalty
    if outside_agency:
        data["outside_agency"] = True
    try:
        entry = parse_result(
            data,
            where=_("board %(board)s, table %(table)s") % {"board": result.board.number, "table": result.table.number},
            max_components=regs["weighted_max_components"],
            weight_decimals=regs["weight_decimals"],
        )
    except EngineInputError as error:
        raise ValidationError({"score": translate(error)}) from None
    event = result.board.session.event
    given = [entry.penalty(side) for side in ("NS", "EW")]
    if event.is_teams and any(each is not None and each.percent for each in given):
        # A team board is scored at IMPs, where the engine refuses a percentage (bridge.engine.imps)
        # only when the worker scores the board, and again on every pass after.
        raise ValidationError(
            {
                "penalty": _(
                    "%(event)s is scored at IMPs: a procedural penalty is given in IMPs, not as a percentage of a top."
                )
                % {"event": event.name}
            }
        )
    adjustments = [entry.raw(side) for side in ("NS", "EW") if isinstance(entry.raw(side), TeamAdjustment)]
    if adjustments:
        _check_team_adjustment(event, regs, authority, adjustments)
    if not regs["weighted_scores_allowed"] and any(isinstance(entry.raw(side), Weighted) for side in ("NS", "EW")):
        raise ValidationError(
            {
                "score": _(
                    "%(body)s does not allow weighted scores: assign one result to each side, the most favourable "
                    "likely result to the non-offenders and the most unfavourable probable one to the offenders "
                    "(Law 12C1e)."
                )
                % {"body": authority}
            }
        )
    return entry


def team_adjustment_allowed(event: Any, regs: dict[str, Any] | None = None) -> bool:
    """Whether an adjusted score on ``event`` may be the board's result in IMPs (Law 86D): a team
    match scored at IMPs, where the regulating authority's dated setting allows it. The ruling
    form offers it only then (rulings.forms, through rulings.views)."""
    regs = regs if regs is not None else event.tournament.regulations()
    return event.is_teams and bool(regs["team_adjustment_in_imps"])


def _check_team_adjustment(event: Any, regs: dict[str, Any], authority: Any, adjustments: list[Any]) -> None:
    if not event.is_teams:
        raise ValidationError(
            {
                "score": _(
                    "%(event)s is not a team match: an adjusted score in IMPs or total points (Law 86D) is given "
                    "only in team play; assign a table result."
                )
                % {"event": event.name}
            }
        )
    if not team_adjustment_allowed(event, regs):
        raise ValidationError(
            {
                "score": _(
                    "%(body)s does not allow an adjusted score in IMPs or total points (Law 86D): assign a table "
                    "result."
                )
                % {"body": authority}
            }
        )
    if any(each.unit != "imps" for each in adjustments):  # every team event here is scored at IMPs
        raise ValidationError(
            {"score": _("%(event)s is scored at IMPs: give the adjustment in IMPs (Law 86D).") % {"event": event.name}}
        )


@atomic_with_retry
def set_effective_score(
    *,
    result: Result,
    kind: Choice,
    score: dict[str, Any] | None = None,
    reason: str,
    penalty: dict[str, Any] | None = None,
    outside_agency: bool = False,
    cause_type: str = "",
    cause_id: int | None = None,
    cause_label: str = "",
    by: User | None = None,
    description: str = "",
) -> ScoreChange:
    """Set what ``result`` counts for: its table result (``kind="table"``, no score) or an
    adjusted score in the engine's form (``{"ns": ..., "ew": ...}``), with a reason and an
    optional cause (a ruling or decision). Logs the change and schedules the recalculation."""
    if kind not in Adjustment.values:
        raise ValidationError({"kind": _("'%(kind)s' is not a kind of score.") % {"kind": kind}})
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say why the score changes: the players will ask.")})
    recalculation.lock_board(result.board_id)  # the board before its results, as everywhere
    result = recalculation.lock_result(result.pk, related=("board__session__event__tournament__authority", "table"))
    if kind == Adjustment.TABLE:
        score = None
    elif not score:
        raise ValidationError({"score": _("An adjusted score needs a score for N-S (and E-W if it differs).")})
    if kind != Adjustment.TABLE or penalty:
        validate_effective_score(result=result, score=score, penalty=penalty, outside_agency=outside_agency)
    elif result.not_played:
        raise ValidationError({"kind": _("This board was not played: give it an adjusted score.")})
    current = EffectiveScore.objects.filter(result=result).first()
    old_kind = current.kind if current else Adjustment.TABLE
    old_value = current.score if current else None
    old_description = current.description if current else describe_score(Adjustment.TABLE, None, result)
    new_description = description or describe_score(kind, score, result)
    if kind == Adjustment.TABLE and not penalty:
        if current:
            current.delete()
    else:
        current = current or EffectiveScore(result=result)
        current.kind, current.score, current.penalty = kind, score, penalty
        current.outside_agency, current.description = outside_agency, new_description
        full_save(current)
    board_score = BoardScore.objects.filter(result=result).first()
    version = recalculation.mark_board_dirty(result.board)
    audit.record(
        action="score.adjusted" if kind != Adjustment.TABLE else "score.table_result_restored",
        obj=result,
        actor=by,
        tournament=result.board.session.event.tournament_id,
        before={"kind": old_kind, "score": old_value, "description": old_description},
        after={
            "kind": kind,
            "score": score,
            "penalty": penalty,
            "description": new_description,
            "reason": reason.strip(),
            "cause": cause_label or cause_type,
        },
        summary=texts.text(
            "scoring.result", board=result.board.number, table=result.table.number, what=str(new_description)
        ),
    )
    return ScoreChange.objects.create(
        result=result,
        changed_by=by,
        old_kind=old_kind,
        old_value=old_value,
        old_description=old_description,
        new_kind=kind,
        new_value=score,
        new_description=new_description,
        reason=reason.strip(),
        cause_type=cause_type,
        cause_id=cause_id,
        cause_label=cause_label,
        board_version=version,
        ns_before=board_score.ns if board_score else None,
        ew_before=board_score.ew if board_score else None,
    )
