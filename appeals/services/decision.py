"""Decisions: the director in charge's on law (93B1), the body's (93B3 limits), appeals without
merit (92A), and the body's recommendations and their answers."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from appeals import lifecycle, selectors, stake
from appeals.lifecycle import Step
from appeals.models import (
    OUTCOME_RANK,
    Appeal,
    AppealPart,
    Deposit,
    MeritWarning,
    Outcome,
    Recommendation,
    Stage,
)
from appeals.notifications import notify
from appeals.services.common import (
    Action,
    advance,
    apply_score,
    cancel_ruling_penalties,
    check_score_for,
    check_votes,
    checked_outcome,
    locked,
    log_step,
    refuse,
    require_chief,
    require_director,
    require_hearing_begun,
    require_open,
    require_sitting,
    require_text,
    save_checked,
    setting,
    settle_ruling,
)
from appeals.services.lodging import forfeit
from appeals.texts import moment_param
from audit.hints import Choice
from core import policy, roles, texts
from core.retry import atomic_with_retry, run_with_retry
from rulings import services as rulings_services
from rulings.models import Ruling
from scoring import services as scoring_services
from scoring.models import Adjustment, EffectiveScore, Match, TournamentOfficial

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from core.texts import Coded

# --- Decisions ---------------------------------------------------------------------------------


def _officials(appeal: Appeal, role_names: Iterable[str]) -> list[User]:
    return [
        o.user
        for o in TournamentOfficial.objects.filter(tournament=appeal.tournament, role__in=role_names).select_related(
            "user"
        )
    ]


def _close(appeal: Appeal, step: Step, *, by: User, now: datetime.datetime, reasons: str, note: str | Coded) -> Appeal:
    """Record the appeal's decision (``step``: the body's, or the director in charge's on the
    last part about law): the most far-reaching of its parts' outcomes."""
    outcomes = [appeal.outcome] if appeal.outcome else []
    outcomes += [p.outcome for p in appeal.parts.all() if p.outcome]
    appeal.outcome = max(outcomes, key=OUTCOME_RANK.__getitem__)
    appeal.reasons, appeal.decided_by, appeal.decided_at = reasons, by, now
    # What was at stake, as the standings stood under the ruling (the decision's own change is
    # scored after this transaction commits): recorded now, shown to every reader from now on.
    appeal.effect_at_decision = stake.recorded(stake.stake(appeal), now.isoformat())
    advance(appeal, step, action=Action.DECIDED, by=by, at=now, note=note)
    save_checked(appeal)
    players = [p.user for p in selectors.appellant_players(appeal)] if appeal.appellant_id else []
    notify(
        [*_officials(appeal, (roles.DIRECTOR, roles.CHIEF_DIRECTOR)), *players],
        appeal,
        texts.text("appeals.notice_decided", n=appeal.number, outcome=appeal.outcome),
        now,
    )
    settle_ruling(appeal.ruling)
    return appeal


@atomic_with_retry
def decide_law_part(
    *,
    part: AppealPart,
    by: User,
    outcome: Choice,
    reasons: str,
    score_kind: Choice = "",
    ns: Any = None,
    ew: Any = None,
    cancel_penalties: bool = False,
    now: datetime.datetime | None = None,
) -> AppealPart:
    """The director in charge decides a part solely about law or regulation (Law 93B1). A score
    given with a varied or overturned ruling applies at once. With ``cancel_penalties`` a varied
    or overturned decision also cancels the ruling's Law 90 procedural penalties, as the body's
    may (the same rule, ``cancel_ruling_penalties``): a decision on law that finds no infraction takes
    away the penalty that rested on it. When every part of the appeal is about law, this decides
    the appeal; the appellants may still take it to the body (``appeal_law_decision``)."""
    now = now or timezone.now()
    part = AppealPart.objects.select_for_update().get(pk=part.pk)
    appeal = locked(part.appeal)
    require_chief(by, "law_part", appeal.tournament, _("decides a part about law or regulation (Law 93B1)"))
    require_open(appeal)
    if part.kind != AppealPart.Kind.LAW:
        refuse("part", _("This part is about facts or judgement: the body decides it, not the director alone."))
    if part.outcome:
        refuse(
            "part",
            _("The director in charge has already decided this part (%(o)s).")
            % {"o": part.get_outcome_display().lower()},
        )
    lifecycle.check(appeal, Step.DECIDE_ON_LAW)
    outcome = checked_outcome(outcome)
    reasons = require_text("reasons", reasons, _("Give the reasons for the decision."))
    check_score_for(outcome, score_kind)
    if cancel_penalties:
        cancel_ruling_penalties(appeal, outcome=outcome, by=by, reasons=reasons)
    kind, score, description = apply_score(
        appeal,
        outcome=outcome,
        score_kind=score_kind,
        ns=ns,
        ew=ew,
        by=by,
        reasons=reasons,
        label=f"appeal {appeal.number} decision",
        penalties_cancelled=cancel_penalties,
    )
    part.outcome, part.reasons, part.decided_by, part.decided_at = outcome, reasons, by, now
    save_checked(part)
    if outcome != Outcome.UPHOLD:
        appeal.score_kind, appeal.score, appeal.score_description = kind, score, description
    log_step(
        appeal,
        Action.LAW_PART_DECIDED,
        by=by,
        at=now,
        note=texts.text("appeals.law_part_decided", question=part.question, outcome=part.outcome),
    )
    if not appeal.parts.exclude(kind=AppealPart.Kind.LAW).exists() and not appeal.parts.filter(outcome="").exists():
        _close(appeal, Step.DECIDE_ON_LAW, by=by, now=now, reasons=reasons, note=texts.text("appeals.decided_on_law"))
    settle_ruling(appeal.ruling)
    return part


@atomic_with_retry
def appeal_law_decision(*, part: AppealPart, by: User, now: datetime.datetime | None = None) -> AppealPart:
    """The appellants take the director in charge's decision on a law part to the body (93B1).
    The body may uphold it or recommend a change; it may not overrule it (93B3)."""
    now = now or timezone.now()
    part = AppealPart.objects.select_for_update().get(pk=part.pk)
    appeal = locked(part.appeal)
    require_director(
        by,
        "appeal_law_decision",
        appeal.tournament,
        _("a director takes the director in charge's decision to the body for the appellants (Law 93B1)."),
    )
    if part.kind != AppealPart.Kind.LAW or not part.outcome:
        refuse("part", _("Only the director in charge's decision on a law part can be taken to the body."))
    if part.to_body:
        refuse("part", _("This decision is already before the body."))
    if setting(appeal.tournament, "appeals_body") == "none" or (
        appeal.body() is not None and appeal.body().is_director_in_charge
    ):
        refuse("part", _("There is no appeals body: the director in charge's decision stands (Law 93A)."))
    if appeal.state in (Appeal.State.WITHDRAWN, Appeal.State.OUT_OF_TIME) or hasattr(appeal, "further"):
        refuse("state", _("This case can no longer go to the body."))
    part.to_body = True
    save_checked(part)
    if appeal.state == Appeal.State.DECIDED:
        body = appeal.body()
        appeal.outcome, appeal.reasons, appeal.decided_by, appeal.decided_at = "", "", None, None
        appeal.save()
        step = Step.LAW_TO_BODY if body is not None and body.is_constituted else Step.LAW_TO_NEW_BODY
        advance(appeal, step, action=Action.LAW_PART_TO_BODY, by=by, at=now, note=part.question)
    else:
        log_step(appeal, Action.LAW_PART_TO_BODY, by=by, at=now, note=part.question)
    settle_ruling(appeal.ruling)
    return part


@atomic_with_retry
def decide_appeal(
    *,
    appeal: Appeal,
    by: User,
    outcome: Choice,
    reasons: str,
    score_kind: Choice = "",
    ns: Any = None,
    ew: Any = None,
    cancel_penalties: bool = False,
    now: datetime.datetime | None = None,
) -> Appeal:
    """The body's decision (or, with no appeals body, the director in charge's, Law 93A):
    uphold, vary or overturn the ruling, with reasons. A varied or overturned ruling takes the
    adjusted score given (``score_kind``, ``ns``, ``ew`` as for a ruling) or, without one, the
    table result; it reaches the scores with the appeal as the cause. With
    ``cancel_penalties`` a varied or overturned ruling loses its Law 90 procedural penalties
    (``rulings.services.cancel_penalties``: one in VPs is withdrawn from the team's match).

    The body cannot overrule the director in charge on law or regulation, nor on a Law 91
    disciplinary decision (93B3): such a decision is refused; record a recommendation instead.
    """
    now = now or timezone.now()
    appeal = locked(appeal)
    body = appeal.body()
    if body is not None:
        require_sitting(body, by, "decision", _("records its decision"))
    require_open(appeal)
    outcome = checked_outcome(outcome)
    reasons = require_text("reasons", reasons, _("Give the reasons for the decision."))
    lifecycle.check(appeal, Step.DECIDE)
    require_hearing_begun(appeal, now, _("the body decides"))
    parts = list(appeal.parts.all())
    if body.is_director_in_charge:
        heard = [p for p in parts if not p.outcome]
    else:
        waiting = [p.question for p in parts if p.kind == AppealPart.Kind.LAW and not p.outcome]
        if waiting:
            refuse(
                "parts",
                _("The director in charge first decides the part about law or regulation (Law 93B1): %(q)s")
                % {"q": "; ".join(waiting)},
            )
        heard = [p for p in parts if p.kind == AppealPart.Kind.JUDGEMENT]
        if outcome != Outcome.UPHOLD and appeal.ruling.kind == Ruling.Kind.DISCIPLINARY_PENALTY:
            refuse(
                "outcome",
                _(
                    "The body cannot overrule the director in charge on the exercise of the "
                    "disciplinary powers of Law 91 (Law 93B3). Record a recommendation to the director "
                    "instead."
                ),
            )
        if outcome != Outcome.UPHOLD and not heard:
            refuse(
                "outcome",
                _(
                    "The body cannot overrule the director in charge on law or regulation (Law 93B3): "
                    "it may uphold the decision, or record a recommendation to the director."
                ),
            )
    check_votes(body, outcome, now=now)
    check_score_for(outcome, score_kind)
    if cancel_penalties:
        cancel_ruling_penalties(appeal, outcome=outcome, by=by, reasons=reasons)
    kind, score, description = apply_score(
        appeal,
        outcome=outcome,
        score_kind=score_kind,
        ns=ns,
        ew=ew,
        by=by,
        reasons=reasons,
        label=f"appeal {appeal.number} decision",
        penalties_cancelled=cancel_penalties,
    )
    for part in heard:
        part.outcome, part.reasons, part.decided_by, part.decided_at = outcome, reasons, by, now
        save_checked(part)
    appeal.outcome = outcome
    if outcome != Outcome.UPHOLD:
        appeal.score_kind, appeal.score, appeal.score_description = kind, score, description
    if outcome != Outcome.UPHOLD and description:
        note = texts.text("appeals.decided_score", outcome=outcome, score=description)
    else:
        note = texts.text("appeals.decided", outcome=outcome)
    return _close(appeal, Step.DECIDE, by=by, now=now, reasons=reasons, note=note)


@atomic_with_retry
def find_without_merit(
    *,
    appeal: Appeal,
    by: User,
    reasons: str,
    penalty: str | int | Decimal | None = None,
    now: datetime.datetime | None = None,
) -> Appeal:
    """The body finds the appeal without merit (Law 92A), with reasons, and the regulations'
    sanction is applied: the deposit kept, a procedural penalty on the appellants in the event's
    units (``penalty``, e.g. "25%" of a top, or 6 IMPs; the regulations' figure by default), or a
    warning recorded against each appellant."""
    now = now or timezone.now()
    appeal = locked(appeal)
    if appeal.state != Appeal.State.DECIDED:
        refuse("state", _("An appeal is found without merit once it is decided."))
    if appeal.origin == Appeal.Origin.DIRECTOR:
        refuse("origin", _("The director referred this case: there are no appellants to sanction."))
    if appeal.outcome != Outcome.UPHOLD:
        refuse(
            "outcome",
            _("The ruling was %(o)s: an appeal that changed it had merit.")
            % {"o": appeal.get_outcome_display().lower().replace("ruling ", "")},
        )
    if appeal.without_merit:
        refuse("state", _("The appeal was already found without merit."))
    body = appeal.body()
    if body is not None and body.members.filter(user=by).exists():
        require_sitting(body, by, "decision", _("judges the appeal's merit"))
    elif body is None or body.is_director_in_charge or appeal.decided_by_id == by.pk:
        require_chief(by, "merit_alone", appeal.tournament, _("judges the merit of an appeal he decided"))
    else:  # a body decided it: the chief director who did not sit on it is refused, like anyone else
        require_sitting(body, by, "decision", _("judges the appeal's merit"))
    reasons = require_text("reasons", reasons, _("Give the reasons: the appellants will read them."))
    sanction = setting(appeal.tournament, "without_merit_sanction")
    applied = []
    if sanction in ("deposit", "deposit_and_penalty"):
        deposit = appeal.deposits.filter(stage=Stage.EVENT, state=Deposit.State.HELD).first()
        if deposit:
            appeal.without_merit = True  # forfeit_deposit checks the finding
            appeal.save(update_fields=["without_merit"])
            forfeit(deposit, by=by, reason=_("appeal without merit"), now=now)
            applied.append(texts.text("appeals.deposit_kept", a=str(deposit.amount), c=deposit.currency))
        else:
            applied.append(texts.text("appeals.no_deposit"))
    if sanction in ("penalty", "deposit_and_penalty"):
        amount = penalty or (setting(appeal.tournament, "without_merit_penalty") or {}).get(appeal.event.kind)
        if not amount:
            refuse(
                "penalty",
                _(
                    "%(body)s's sanction includes a score penalty: give it in the event's units "
                    "(e.g. 25%% of a top, or 6 IMPs)."
                )
                % {"body": appeal.tournament.authority},
            )
        _penalise(appeal, amount, by=by, reasons=reasons)
        applied.append(texts.text("appeals.merit_penalty", p=str(amount), side=appeal.side))
    if sanction == "warning":
        players = selectors.appellant_players(appeal)
        for player in players:
            MeritWarning.objects.create(appeal=appeal, player=player, recorded_at=now)
        applied.append(texts.text("appeals.merit_warning", names=", ".join(str(p) for p in players)))
    appeal.without_merit, appeal.without_merit_reasons, appeal.sanction = True, reasons, sanction
    save_checked(appeal)
    sanctions = [item.as_param() for item in applied or [texts.text("appeals.no_sanction")]]
    log_step(
        appeal,
        Action.WITHOUT_MERIT,
        by=by,
        at=now,
        note=texts.text("appeals.without_merit", reasons=reasons, sanctions=sanctions),
    )
    return appeal


def _penalise(appeal: Appeal, amount: str | int | Decimal, *, by: User, reasons: str) -> None:
    text = str(amount).strip()
    if text.upper().endswith("VP"):  # "1 VP": against the team in its match, not on the board
        return _penalise_match(appeal, text[:-2].strip(), by=by, reasons=reasons)
    try:
        Decimal(text[:-1] if text.endswith("%") else text)
    except InvalidOperation:
        refuse(
            "penalty",
            _("'%(p)s' is not a penalty: a number in the event's units, or a percentage of a top such as 25%%.")
            % {"p": text},
        )
    result = appeal.ruling.given_result
    current = EffectiveScore.objects.filter(result=result).first()
    penalties = dict(current.penalty or {}) if current else {}
    side = appeal.side.lower()
    if side in penalties:
        refuse(
            "penalty",
            _(
                "%(side)s already has a procedural penalty on this board (%(p)s): the engine takes "
                "one per side; add them up and change the ruling's penalty."
            )
            % {"side": appeal.get_side_display(), "p": penalties[side]},
        )
    penalties[side] = text
    try:
        scoring_services.set_effective_score(
            result=result,
            kind=current.kind if current else Adjustment.TABLE,
            score=current.score if current else None,
            penalty=penalties,
            outside_agency=current.outside_agency if current else False,
            description=current.description if current else "",
            # In English, read back into each reader's language where it is shown (core.texts.shown).
            reason=texts.text("appeals.without_merit_reason", r=reasons).english(),
            cause_type="decision",
            cause_id=appeal.pk,
            cause_label=f"appeal {appeal.number} without merit",
            by=by,
        )
    except ValidationError as error:
        raise ValidationError({"penalty": error.messages}) from None


def _penalise_match(appeal: Appeal, amount: str | int | Decimal, *, by: User, reasons: str) -> None:
    """A penalty in VPs (the EBU's 1 VP at teams) against the appellants' team in the match the
    ruling's table was part of, through the scoring service (audited, recalculated)."""
    result, team = appeal.ruling.given_result, appeal.appellant
    if team is None:
        refuse("origin", _("The director referred this case: there are no appellants to sanction."))
    match = (
        Match.objects.filter(round_id=result.round_id)
        .filter(Q(open_room_id=result.table_id) | Q(closed_room_id=result.table_id))
        .first()
    )
    if match is None:
        refuse(
            "penalty",
            _("A penalty in VPs is taken off a team's match: board %(board)s, table %(table)s is in no match.")
            % {"board": result.board.number, "table": result.table.number},
        )
    offence = _("Appeal without merit: %(r)s") % {"r": reasons}
    try:
        scoring_services.give_match_penalty(
            match=match, team=team, amount=amount, unit="vps", offence=offence[:300], by=by
        )
    except ValidationError as error:
        raise ValidationError({"penalty": error.messages}) from None


@atomic_with_retry
def record_recommendation(
    *, appeal: Appeal, by: User, about: Choice, text: str, now: datetime.datetime | None = None
) -> Recommendation:
    """Where it may not overrule the director in charge (law or regulation, Law 91), the body
    recommends a change (Law 93B3)."""
    now = now or timezone.now()
    appeal = locked(appeal)
    body = appeal.body()
    if body is None or body.is_director_in_charge:
        refuse("body", _("Only an appeals body recommends to the director in charge."))
    require_sitting(body, by, "recommendation", _("recommends to the director in charge"))
    if about not in Recommendation.About.values:
        refuse("about", _("A recommendation is about law or regulation, or about disciplinary powers (Law 91)."))
    text = require_text("text", text, _("Write what the body recommends."))
    recommendation = save_checked(
        Recommendation(appeal=appeal, about=about, text=text, recommended_by=by, recommended_at=now)
    )
    log_step(appeal, Action.RECOMMENDATION, by=by, at=now, note=text)
    notify(
        _officials(appeal, (roles.CHIEF_DIRECTOR,)),
        appeal,
        texts.text("appeals.notice_recommendation", n=appeal.number),
        now,
    )
    return recommendation


@atomic_with_retry
def respond_to_recommendation(
    *,
    recommendation: Recommendation,
    by: User,
    accepted: bool,
    response: str,
    score_kind: Choice = "",
    ns: Any = None,
    ew: Any = None,
    now: datetime.datetime | None = None,
) -> Recommendation:
    """The director in charge accepts or declines a recommendation, in words. Accepting it with a
    new adjusted score (``score_kind``, ``ns``, ``ew`` as for a ruling) changes the ruling through
    the rulings service (``change_ruling``), and the scores follow."""
    now = now or timezone.now()
    recommendation = Recommendation.objects.select_for_update().get(pk=recommendation.pk)
    appeal = locked(recommendation.appeal)
    require_chief(by, "respond", appeal.tournament, _("answers the body's recommendation"))
    if recommendation.accepted is not None:
        refuse("accepted", _("The director already answered this recommendation."))
    if score_kind and not accepted:
        refuse("score_kind", _("A declined recommendation changes nothing: give a score only when accepting it."))
    recommendation.accepted = bool(accepted)
    recommendation.response = require_text("response", response, _("Write the director's answer."))
    recommendation.responded_by, recommendation.responded_at = by, now
    save_checked(recommendation)
    log_step(
        appeal,
        Action.RECOMMENDATION_ANSWERED,
        by=by,
        at=now,
        note=texts.text(
            "appeals.recommendation_accepted" if accepted else "appeals.recommendation_declined",
            response=recommendation.response,
        ),
    )
    if accepted and score_kind:
        rulings_services.change_ruling(
            ruling=appeal.ruling,
            by=by,
            outcome=Ruling.Outcome.ADJUSTED,
            score_kind=score_kind,
            ns=ns,
            ew=ew,
            reason=texts.text("appeals.recommendation_reason", r=recommendation.response).english(),
        )
    return recommendation


# How long before an appeal must be decided the people deciding it are reminded.
DECISION_REMINDER = datetime.timedelta(hours=1)


def remind_decisions_due(now: datetime.datetime | None = None, *, by: Any) -> int:
    """One hour before an open appeal must be decided (``decide_by``: the start of the event's
    next session), tell the members sitting on its body and the tournament's chief directors,
    once per appeal and deadline. Celery beat runs it every few minutes; returns how many
    appeals were reminded. The task's step (core.policy.SYSTEM)."""
    policy.require(by, "remind_decisions", None)
    from appeals.models import Notification
    from scoring.models import TournamentOfficial

    now = now or timezone.now()
    due = Appeal.objects.filter(
        state__in=Appeal.OPEN_STATES, decide_by__gt=now, decide_by__lte=now + DECISION_REMINDER
    ).select_related("ruling__result__board__session__event__tournament")
    reminded = 0
    for appeal in due:
        tournament = appeal.ruling.tournament
        text = texts.text("appeals.notice_due", n=appeal.number, when=moment_param(appeal.decide_by, tournament))
        if Notification.objects.filter(appeal=appeal, code=text.code, text=text.english()).exists():
            continue
        members = [member.user for body in appeal.bodies.all() for member in body.sitting()]
        chiefs = [
            official.user
            for official in TournamentOfficial.objects.filter(
                tournament=tournament, role=TournamentOfficial.Role.CHIEF_DIRECTOR
            ).select_related("user")
        ]
        run_with_retry(notify, members + chiefs, appeal, text, now)
        reminded += 1
    return reminded
