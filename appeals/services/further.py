"""Further appeal to the regulating authority (Law 93C)."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from django.utils import timezone
from django.utils.translation import gettext as _

from appeals import selectors
from appeals.lifecycle import FURTHER, START, Step, require_constituted
from appeals.models import (
    Appeal,
    FurtherAppeal,
    Stage,
)
from appeals.services.common import (
    Action,
    apply_score,
    check_score_for,
    check_votes,
    checked_outcome,
    locked,
    log_step,
    refuse,
    require_director,
    require_sitting,
    require_text,
    save_checked,
    setting,
    settle_ruling,
)
from audit.hints import Choice
from core import texts
from core.retry import atomic_with_retry
from rulings.services import build_adjusted_score

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from scoring.models import Player

# --- Further appeal (Law 93C) ---------------------------------------------------------------------


@atomic_with_retry
def lodge_further_appeal(
    *,
    appeal: Appeal,
    by: User,
    grounds: str,
    origin: Choice = FurtherAppeal.Origin.PLAYER,
    player: Player | None = None,
    now: datetime.datetime | None = None,
) -> FurtherAppeal:
    """Take a decided case to the regulating authority, where it provides a further appeal: by a
    player of either side within the regulations' period after the decision, or as a referral by
    the director or the body. An advisory further appeal never changes scores."""
    now = now or timezone.now()
    appeal = locked(appeal)
    tournament = appeal.tournament
    if origin == FurtherAppeal.Origin.PLAYER:  # the person first: a refused one learns nothing of the case
        require_director(
            by, "further_appeal", tournament, _("a further appeal is lodged through a director (Law 92C).")
        )
    mode = setting(tournament, "further_appeal")
    if mode not in ("binding", "advisory"):
        refuse(
            "appeal",
            _("%(body)s provides no further appeal (Law 93C): the decision at the event is final.")
            % {"body": tournament.authority},
        )
    if hasattr(appeal, "further"):
        refuse("appeal", _("This case is already before the regulating authority."))
    grounds = require_text("grounds", grounds, _("Write the grounds of the further appeal."))
    side = ""
    deadline: datetime.datetime | None = None
    if origin == FurtherAppeal.Origin.PLAYER:
        decided_at = appeal.decided_at
        if appeal.state != Appeal.State.DECIDED or decided_at is None:
            refuse("state", _("A further appeal comes after the appeal at the event is decided (Law 93C)."))
        side_at_table = selectors.side_of(player, appeal.ruling) if player is not None else None
        if side_at_table is None:
            refuse("player", _("Only a player or captain of either side at the table may appeal further."))
        side = side_at_table
        minutes = setting(tournament, "further_appeal_period_minutes")
        # Empty: no time limit of general application (a body may still dismiss a late one).
        deadline = decided_at + datetime.timedelta(minutes=minutes) if minutes != "" else None
        if deadline is not None and now > deadline:
            refuse(
                "deadline",
                _("Too late: a further appeal had to be lodged by %(when)s.")
                % {"when": selectors.local_time(deadline, tournament)},
            )
    elif origin == FurtherAppeal.Origin.DIRECTOR:
        require_director(
            by, "further_appeal", tournament, _("only a director refers a case to the regulating authority.")
        )
        player = None
    elif origin == FurtherAppeal.Origin.BODY:
        body = appeal.body()
        if body is None or body.is_director_in_charge:
            refuse("origin", _("No appeals body sits on this case."))
        require_sitting(body, by, "refer_further", _("refers the case to the regulating authority"))
        player = None
    else:
        refuse("origin", _("A further appeal comes from a player, the director or the body."))
    if appeal.state == Appeal.State.WITHDRAWN:
        refuse("state", _("The appeal was withdrawn."))
    if appeal.state == Appeal.State.OUT_OF_TIME:
        refuse("state", _("The body found the appeal out of time: it was not heard, and the ruling stands."))
    further = save_checked(
        FurtherAppeal(
            appeal=appeal,
            origin=origin,
            side=side,
            lodged_by=player,
            recorded_by=by,
            lodged_at=now,
            deadline=deadline,
            grounds=grounds,
            binding=mode == "binding",
            state=FURTHER.target(START, Step.LODGE_FURTHER),
        )
    )
    log_step(
        appeal,
        Action.FURTHER_LODGED,
        by=by,
        at=now,
        note=texts.text(
            "appeals.further_lodged_binding" if further.binding else "appeals.further_lodged_advisory",
            origin=further.origin,
            grounds=grounds,
        ),
    )
    return further


@atomic_with_retry
def decide_further_appeal(
    *,
    further_appeal: FurtherAppeal,
    by: User,
    outcome: Choice,
    reasons: str,
    score_kind: Choice = "",
    ns: Any = None,
    ew: Any = None,
    now: datetime.datetime | None = None,
) -> FurtherAppeal:
    """The regulating authority's body decides. A binding decision that varies or overturns
    changes the scores, with the appeal as the cause; an advisory one is recorded (with any score
    it suggests) and changes nothing."""
    now = now or timezone.now()
    further = FurtherAppeal.objects.select_for_update().get(pk=further_appeal.pk)
    appeal = locked(further.appeal)
    body = appeal.body(Stage.FURTHER)
    require_constituted(body)
    require_sitting(body, by, "decision", _("records its decision"))  # the person before the case
    if further.state != FurtherAppeal.State.LODGED:
        refuse("state", _("The further appeal is already decided."))
    outcome = checked_outcome(outcome)
    reasons = require_text("reasons", reasons, _("Give the reasons for the decision."))
    check_votes(body, outcome, now=now)
    check_score_for(outcome, score_kind)
    if further.binding:
        kind, score, description = apply_score(
            appeal,
            outcome=outcome,
            score_kind=score_kind,
            ns=ns,
            ew=ew,
            by=by,
            reasons=reasons,
            label=f"appeal {appeal.number} further decision",
        )
    elif score_kind:
        score, description = build_adjusted_score(
            result=appeal.ruling.given_result, score_kind=score_kind, ns=ns, ew=ew
        )
        kind = score_kind
    else:
        kind, score, description = "", None, ""
    further.outcome, further.reasons, further.decided_by, further.decided_at = outcome, reasons, by, now
    further.score_kind, further.score, further.score_description = kind, score, description
    further.state = FURTHER.target(further.state, Step.DECIDE_FURTHER, appeal.number)
    save_checked(further)
    log_step(
        appeal,
        Action.FURTHER_DECIDED,
        by=by,
        at=now,
        note=texts.text("appeals.decided" if further.binding else "appeals.further_decided_advisory", outcome=outcome),
    )
    settle_ruling(appeal.ruling)
    return further
