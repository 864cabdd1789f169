"""What every stage of an appeal shares: refusals, the event log, locks, the role checks, the
ruling's state from its appeals, applying a decision's score, and counting votes."""

from __future__ import annotations

import datetime
from collections import Counter
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from appeals import lifecycle, selectors
from appeals.models import (
    Appeal,
    AppealEvent,
    FurtherAppeal,
    Outcome,
)
from audit import services as audit
from audit.hints import Choice
from core import policy, roles, texts
from rulings import lifecycle as ruling_lifecycle
from rulings import services as rulings_services
from rulings.models import Ruling
from rulings.services import build_adjusted_score
from scoring import services as scoring_services
from scoring.models import (
    Adjustment,
    EffectiveScore,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.db.models import Model

    from appeals.models import Body, BodyMember
    from core.texts import Coded
    from scoring.models import Tournament

Action = AppealEvent.Action
DIRECTORS = (roles.DIRECTOR, roles.CHIEF_DIRECTOR)
_M = TypeVar("_M", bound="Model")  # a model instance, returned as given


def setting(tournament: Tournament, key: str) -> Any:
    """A regulating-authority setting as in force for the tournament (see scoring.authority_settings)."""
    return tournament.regulations()[key]


# --- Small helpers -----------------------------------------------------------------------


def refuse(field: str, message: str) -> NoReturn:
    raise ValidationError({field: message})


def save_checked(instance: _M) -> _M:
    instance.full_clean()
    instance.save()
    return instance


def log_step(
    appeal: Appeal,
    action: Choice,
    *,
    by: User,
    at: datetime.datetime,
    note: str | Coded = "",
    before: Choice | None = None,
) -> AppealEvent:
    """Log a step; ``note`` is a person's words (a str) or a text of appeals/texts.py (a Coded),
    kept as its code and values so that each reader sees it in their language. ``before``: the
    state the step left (``advance`` passes it; a step that moves no state leaves it out)."""
    before = before or appeal.state
    note, note_code, note_params = texts.split(note)
    event = AppealEvent.objects.create(
        appeal=appeal,
        action=action,
        by=by,
        at=at,
        note=note,
        note_code=note_code,
        note_params=note_params,
        from_state=before,
        to_state=appeal.state,
    )
    # Every step of a case also goes into the tamper-evident trail of the whole system.
    audit.record(
        action=f"appeal.{action}",
        obj=appeal,
        actor=by,
        tournament=appeal.tournament.pk,
        before={"state": before},
        after={"state": appeal.state, "at": at.isoformat(), "note": note},
        summary=texts.text("appeals.audit_step", appeal=appeal_name(appeal), action=action),
    )
    return event


def advance(
    appeal: Appeal,
    step: lifecycle.Step,
    *,
    action: Choice,
    by: User,
    at: datetime.datetime,
    note: str | Coded = "",
) -> AppealEvent:
    """Move the appeal along the transition table (appeals/lifecycle.py) and log the step: the one
    way ``Appeal.state`` changes. A transition the table does not have is refused, naming the
    state and the states the step is taken from."""
    before = appeal.state
    appeal.state = lifecycle.APPEAL.target(before, step, appeal.number)
    if appeal.state != before:
        appeal.save(update_fields=["state"])
    return log_step(appeal, action, by=by, at=at, note=note, before=before)


def appeal_name(appeal: Appeal) -> dict[str, Any]:
    return texts.text("appeals.appeal", number=appeal.number).as_param()


def ruling_name(ruling: Ruling) -> dict[str, Any]:
    return texts.text("appeals.ruling", number=ruling.number).as_param()


def locked(appeal: Appeal) -> Appeal:
    return (
        Appeal.objects.select_for_update(of=("self",))
        .select_related("ruling__result__board__session__event__tournament__authority", "appellant")
        .get(pk=appeal.pk)
    )


def require_open(appeal: Appeal) -> None:
    if not appeal.is_open:
        refuse(
            "state",
            _("Appeal %(n)s is %(state)s: nothing more can be done at the event.")
            % {"n": appeal.number, "state": appeal.get_state_display().lower()},
        )


def require_director(user: User, action: str, tournament: Tournament, what: str) -> None:
    """``action``'s rule (a director's step, core.policy) or its refusal, naming the person."""
    policy.require(user, action, tournament, what)


def require_chief(user: User, action: str, tournament: Tournament, what: str) -> None:
    """``action``'s rule (the director in charge's step, core.policy) or its refusal."""
    policy.require(user, action, tournament, what)


def require_text(field: str, text: str, message: str) -> str:
    if not (text or "").strip():
        refuse(field, message)
    return text.strip()


def require_sitting(body: Body, user: User, action: str, what: str) -> None:
    """``action``'s rule (a step of the members sitting on ``body``, core.policy) or its refusal."""
    policy.require(user, action, body, what)


def require_hearing_begun(appeal: Appeal, now: datetime.datetime, what: str) -> None:
    """Members vote and the body decides once its hearing has begun: at the time fixed, or
    earlier when the body sat early with its reason recorded (``sit_early``)."""
    hearing = appeal.hearing()
    if hearing is not None and not hearing.begun(now):
        refuse(
            "hearing",
            _(
                "The hearing of appeal %(n)s starts at %(when)s: %(what)s after it starts, or record why the "
                "body sits early."
            )
            % {"n": appeal.number, "when": selectors.local_time(hearing.starts_at, appeal.tournament), "what": what},
        )


def require_director_or_sitting(user: User, appeal: Appeal, what: str) -> None:
    """A director of the tournament, or a member sitting on the case (its scribe)."""
    policy.require(user, "hearing_record", appeal, what)


def require_own_seat(user: Any, member: BodyMember) -> None:
    """A member declares, recuses and votes in person, from their own seat (core.policy, "seat"):
    nobody else acts for them, the superuser and a task included."""
    if getattr(policy.person(user), "pk", None) != member.user_id:
        policy.refuse("seat")


def require_national_officer(user: User, tournament: Tournament) -> None:
    policy.require(user, "national_body", tournament)


def checked_outcome(value: str) -> str:
    if value not in Outcome.values:
        refuse("outcome", _("'%(v)s' is not a decision: uphold, vary or overturn.") % {"v": value})
    return value


def check_score_for(outcome: Choice, score_kind: Choice) -> None:
    if outcome == Outcome.UPHOLD and score_kind:
        refuse(
            "score_kind",
            _("An upheld ruling keeps its own score: give a score only when the ruling is varied or overturned."),
        )


def settle_ruling(ruling: Ruling) -> Ruling:
    """The ruling's state from its appeals: under appeal while any is open; changed by appeal if
    any decision varied or overturned it; final once decided; given again if all were withdrawn."""
    ruling = Ruling.objects.select_for_update().get(pk=ruling.pk)
    appeals = list(ruling.appeals.all())
    changed = (
        any(a.state == Appeal.State.DECIDED and a.outcome != Outcome.UPHOLD for a in appeals)
        or FurtherAppeal.objects.filter(
            appeal__ruling=ruling,
            binding=True,
            state=FurtherAppeal.State.DECIDED,
            outcome__in=[Outcome.VARY, Outcome.OVERTURN],
        ).exists()
    )
    if any(a.is_open for a in appeals):
        step = ruling_lifecycle.Step.SETTLE_OPEN
    elif changed:
        step = ruling_lifecycle.Step.SETTLE_CHANGED
    elif any(a.state == Appeal.State.DECIDED for a in appeals):
        step = ruling_lifecycle.Step.SETTLE_DECIDED
    else:
        step = ruling_lifecycle.Step.SETTLE_WITHDRAWN
    if ruling.state != ruling_lifecycle.RULING.steps[step].target:
        ruling_lifecycle.RULING.move(ruling, step)
        ruling.save(update_fields=["state", "updated_at"])
    return ruling


def cancel_ruling_penalties(appeal: Appeal, *, outcome: Choice, by: User, reasons: str) -> None:
    """A varied or overturned decision cancels the ruling's Law 90 procedural penalties, the
    body's (93B3 leaves it all the director's powers but law and Law 91) and the director in
    charge's on a point of law alike: one rule for both. Each penalty stays in the record,
    marked cancelled with the reasons; one in VPs is withdrawn from the team's match; the board's
    leave the score ``apply_score(penalties_cancelled=True)`` then sets. Refused on an upheld
    ruling, and when there is no Law 90 penalty (a Law 91 one is never cancelled here)."""
    if outcome == Outcome.UPHOLD:
        refuse(
            "cancel_penalties",
            _("An upheld ruling keeps its penalties: vary or overturn it to cancel its procedural penalty."),
        )
    if not rulings_services.cancel_penalties(ruling=appeal.ruling, by=by, reason=reasons):
        refuse("cancel_penalties", _("The ruling has no procedural penalty (Law 90) to cancel."))


def apply_score(
    appeal: Appeal,
    *,
    outcome: Choice,
    score_kind: Choice,
    ns: Any,
    ew: Any,
    by: User,
    reasons: str,
    label: str,
    penalties_cancelled: bool = False,
) -> tuple[str, dict[str, Any] | None, str]:
    """Make the scores say what a decision says; returns (kind, score, description) as stored on
    the decision. An upheld ruling changes nothing; a varied or overturned one takes the adjusted
    score given, or the table result when none is given. Procedural penalties already on the
    result stay (the body cannot undo a Law 91 penalty), unless the decision cancelled the
    ruling's Law 90 ones (``penalties_cancelled``): the board then keeps those of the rulings in
    force only."""
    if outcome == Outcome.UPHOLD:
        return "", None, ""
    result = appeal.ruling.given_result
    current = EffectiveScore.objects.filter(result=result).first()
    penalty = current.penalty if current else None
    if penalties_cancelled:
        penalty = rulings_services.board_penalties(result)
    outside_agency = current.outside_agency if current else appeal.ruling.kind == Ruling.Kind.DIRECTORS_ERROR
    if score_kind:
        score, description = build_adjusted_score(result=result, score_kind=score_kind, ns=ns, ew=ew)
        kind = score_kind
    else:
        kind, score, description = Adjustment.TABLE, None, ""
        if current is None:
            return "", None, _("table result")
    change = scoring_services.set_effective_score(
        result=result,
        kind=kind,
        score=score,
        penalty=penalty,
        outside_agency=outside_agency,
        reason=reasons,
        cause_type="decision",
        cause_id=appeal.pk,
        cause_label=label,
        by=by,
        description=description,
    )
    return (score_kind, score, change.new_description)


def check_votes(body: Body, outcome: Choice, *, now: datetime.datetime) -> None:
    """A single member's decision is their vote; a body of several decides by the majority of
    its sitting members, every one of whom must have voted."""
    sitting = list(body.sitting().select_related("user"))
    if body.size == 1:
        member = sitting[0]
        member.vote, member.voted_at = outcome, now
        member.save(update_fields=["vote", "voted_at"])
        return
    missing = [str(m) for m in sitting if not m.vote]
    if missing:
        refuse(
            "votes",
            _("Every member votes before the decision is recorded; still to vote: %(names)s.")
            % {"names": ", ".join(missing)},
        )
    counts = Counter(m.vote for m in sitting)
    tally = ", ".join(f"{n} {vote}" for vote, n in counts.most_common())
    majority = [vote for vote, n in counts.items() if 2 * n > len(sitting)]
    if not majority:
        refuse("votes", _("No majority (%(tally)s): the members vote again.") % {"tally": tally})
    if majority[0] != outcome:
        refuse(
            "outcome",
            _("The members voted %(tally)s: the decision is the majority's (%(majority)s).")
            % {"tally": tally, "majority": majority[0]},
        )
