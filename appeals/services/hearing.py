"""The hearing: scheduling it, attendance, its record, and the members' votes."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from django.utils import timezone
from django.utils.translation import gettext as _

from appeals import lifecycle, selectors
from appeals.lifecycle import Step
from appeals.models import (
    Appeal,
    Attendance,
    BodyMember,
    FurtherAppeal,
    Hearing,
    Stage,
)
from appeals.notifications import notify
from appeals.services.common import (
    Action,
    advance,
    checked_outcome,
    locked,
    log_step,
    refuse,
    require_chief,
    require_director,
    require_director_or_sitting,
    require_hearing_begun,
    require_open,
    require_own_seat,
    require_text,
    save_checked,
)
from appeals.texts import moment_param
from audit.hints import Choice
from core import policy, texts
from core.retry import atomic_with_retry

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from scoring.models import Player

# --- Hearing ---------------------------------------------------------------------------------


@atomic_with_retry
def extend_decision_time(
    *, appeal: Appeal, by: User, until: datetime.datetime, reason: str, now: datetime.datetime | None = None
) -> Appeal:
    """The chief director gives an open case until ``until`` to be decided, for a stated reason:
    the regulations' step when a case from an earlier session cannot be heard before the next
    session starts (it was lodged after a re-posting, or the hearing could not sit in time).
    The timeline keeps the time it replaces."""
    now = now or timezone.now()
    appeal = locked(appeal)
    tournament = appeal.tournament
    require_chief(by, "extend_decision", tournament, _("extends the time to decide a case"))
    require_open(appeal)
    reason = require_text("reason", reason, _("Say why the case is given more time."))
    if until is None or timezone.is_naive(until):
        refuse("until", _("Give the time by which the case is to be decided, with its time zone."))
    if until <= now:
        refuse(
            "until",
            _("%(when)s has passed: the case is given until a time still to come.")
            % {"when": selectors.local_time(until, tournament)},
        )
    if appeal.decide_by and until <= appeal.decide_by:
        refuse(
            "until",
            _("Appeal %(n)s is already to be decided by %(when)s: an extension ends later.")
            % {"n": appeal.number, "when": selectors.local_time(appeal.decide_by, tournament)},
        )
    before, appeal.decide_by = appeal.decide_by, until
    appeal.save(update_fields=["decide_by"])
    values = {"until": moment_param(until, tournament), "reason": reason}
    if before is None:
        note = texts.text("appeals.decision_time_set", **values)
    else:
        note = texts.text("appeals.decision_time_extended", before=moment_param(before, tournament), **values)
    log_step(appeal, Action.DECISION_TIME_EXTENDED, by=by, at=now, note=note)
    return appeal


@atomic_with_retry
def schedule_hearing(
    *,
    appeal: Appeal,
    by: User,
    starts_at: datetime.datetime,
    mode: Choice = Hearing.Mode.IN_PERSON,
    place: str = "",
    scribe: User | None = None,
    now: datetime.datetime | None = None,
) -> Hearing:
    """Fix when and how the body hears the case. A case from a session that is not the last must
    be decided before the next session starts."""
    now = now or timezone.now()
    appeal = locked(appeal)
    require_director(by, "hearing", appeal.tournament, _("a director schedules the hearing."))
    require_open(appeal)
    body = appeal.body()
    lifecycle.check(appeal, Step.SCHEDULE)
    if appeal.decide_by and starts_at >= appeal.decide_by:
        tournament = appeal.tournament
        refuse(
            "starts_at",
            _(
                "Appeal %(n)s must be decided by %(limit)s; this hearing would start at %(when)s. The chief "
                "director can extend the time to decide, with a reason, or the case can be referred to the "
                "regulating authority (Law 93C) where its regulations provide it."
            )
            % {
                "n": appeal.number,
                "limit": selectors.local_time(appeal.decide_by, tournament),
                "when": selectors.local_time(starts_at, tournament),
            },
        )
    hearing = save_checked(
        Hearing(
            appeal=appeal,
            body=body,
            starts_at=starts_at,
            mode=mode,
            place=place,
            scribe=scribe,
            scheduled_by=by,
            scheduled_at=now,
        )
    )
    notify(
        [m.user for m in body.sitting()],
        appeal,
        texts.text("appeals.notice_heard", n=appeal.number, when=moment_param(starts_at, appeal.tournament)),
        now,
    )
    advance(
        appeal,
        Step.SCHEDULE,
        action=Action.HEARING_SCHEDULED,
        by=by,
        at=now,
        note=texts.text(
            "appeals.hearing_at" if place else "appeals.hearing",
            when=moment_param(starts_at, appeal.tournament),
            mode=hearing.mode,
            **({"place": place} if place else {}),
        ),
    )
    return hearing


@atomic_with_retry
def sit_early(*, hearing: Hearing, by: User, reason: str, now: datetime.datetime | None = None) -> Hearing:
    """The body sits before the time fixed (every side is present, the room is free): the reason
    goes into the record, and the members may vote and decide from now."""
    now = now or timezone.now()
    appeal = locked(hearing.appeal)
    require_director_or_sitting(by, appeal, _("records the hearing"))
    require_open(appeal)
    hearing = Hearing.objects.select_for_update().get(pk=hearing.pk)
    if hearing.begun(now):
        refuse(
            "state",
            _("The hearing has already begun (%(when)s).")
            % {"when": selectors.local_time(hearing.sat_early_at or hearing.starts_at, appeal.tournament)},
        )
    reason = require_text("reason", reason, _("Say why the body sits before the time fixed."))
    hearing.sat_early_at, hearing.early_reason = now, reason
    save_checked(hearing)
    log_step(
        appeal,
        Action.SAT_EARLY,
        by=by,
        at=now,
        note=texts.text("appeals.sat_early", fixed=moment_param(hearing.starts_at, appeal.tournament), reason=reason),
    )
    return hearing


@atomic_with_retry
def record_attendance(
    *, hearing: Hearing, player: Player, by: User, now: datetime.datetime | None = None
) -> Attendance:
    """``player`` attended the hearing for their side."""
    now = now or timezone.now()
    appeal = locked(hearing.appeal)
    require_director_or_sitting(by, appeal, _("records the hearing"))
    side = selectors.side_of(player, appeal.ruling)
    if side is None:
        refuse("player", _("%(p)s plays for neither side at this table.") % {"p": player})
    if hearing.attendance.filter(player=player).exists():
        refuse("player", _("%(p)s's attendance is already recorded.") % {"p": player})
    attendance = save_checked(Attendance(hearing=hearing, player=player, side=side))
    log_step(
        appeal,
        Action.ATTENDANCE,
        by=by,
        at=now,
        note=texts.text("appeals.attendance", p=str(player), side=attendance.side),
    )
    return attendance


@atomic_with_retry
def record_hearing_notes(
    *,
    hearing: Hearing,
    by: User,
    director_account: str | None = None,
    director_present: bool | None = None,
    notes: str | None = None,
    scribe: User | None = None,
    now: datetime.datetime | None = None,
) -> Hearing:
    """The ruling director's account and presence, and the scribe's record of the arguments."""
    now = now or timezone.now()
    hearing = Hearing.objects.select_for_update().get(pk=hearing.pk)
    require_director_or_sitting(by, hearing.appeal, _("records the hearing"))
    for name, value in (
        ("director_account", director_account),
        ("director_present", director_present),
        ("notes", notes),
        ("scribe", scribe),
    ):
        if value is not None:
            setattr(hearing, name, value)
    save_checked(hearing)
    log_step(locked(hearing.appeal), Action.HEARING_NOTES, by=by, at=now)
    return hearing


@atomic_with_retry
def record_vote(
    *, member: BodyMember, outcome: Choice, by: User, dissent: str = "", now: datetime.datetime | None = None
) -> BodyMember:
    """``member``'s vote (uphold, vary, overturn), with any dissent in their words. ``by``: the
    member, in person."""
    require_own_seat(by, member)
    now = now or timezone.now()
    member = BodyMember.objects.select_for_update(of=("self",)).select_related("body", "user").get(pk=member.pk)
    body = member.body
    appeal = locked(body.appeal)
    if body.stage == Stage.EVENT:
        require_open(appeal)
        if not appeal.hearings.exists():
            refuse("state", _("The case has not been heard: schedule the hearing (it may be in writing) first."))
        require_hearing_begun(appeal, now, _("the members vote"))
    elif appeal.further.state != FurtherAppeal.State.LODGED:
        refuse("state", _("The further appeal is already decided."))
    if member.recused_at:
        refuse("member", _("%(m)s recused and cannot vote.") % {"m": member})
    policy.require(by, "seat", body)
    if member.declared_at is None:
        refuse(
            "member", _("%(m)s has not declared any conflict of interest: declare first, then vote.") % {"m": member}
        )
    if member.conflict:
        refuse(
            "member",
            _("%(m)s declared a conflict (%(c)s) and cannot vote: recuse, and appoint a replacement.")
            % {"m": member, "c": member.conflict},
        )
    member.vote, member.dissent, member.voted_at = checked_outcome(outcome), (dissent or "").strip(), now
    save_checked(member)
    log_step(
        appeal,
        Action.VOTE,
        by=member.user,
        at=now,
        note=texts.text("appeals.vote_dissent" if member.dissent else "appeals.vote", member=str(member), vote=outcome),
    )
    return member
