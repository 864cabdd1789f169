"""The body that hears a case: forming it, appointing members with conflict checks, declaring
interests and recusing."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.utils import timezone
from django.utils.translation import gettext as _

from appeals import lifecycle
from appeals.conflicts import conflicts_of, own_seat_warning
from appeals.lifecycle import Step
from appeals.models import (
    Appeal,
    Body,
    BodyMember,
    FurtherAppeal,
    Stage,
)
from appeals.notifications import notify
from appeals.services.common import (
    Action,
    advance,
    locked,
    log_step,
    refuse,
    require_chief,
    require_national_officer,
    require_open,
    require_own_seat,
    require_text,
    save_checked,
    setting,
)
from audit.hints import Choice
from core import policy, texts
from core.retry import atomic_with_retry

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from scoring.models import Tournament

# --- The body ---------------------------------------------------------------------------------


def _body_size(tournament: Tournament, kind: Choice, size: int | None) -> int:
    if kind == Body.Kind.COMMITTEE:
        expected = setting(tournament, "appeals_committee_size")
        if expected % 2 == 0:
            refuse("size", _("A committee has an odd number of members; the regulations say %(n)s.") % {"n": expected})
        return expected
    if kind in (Body.Kind.REFEREE, Body.Kind.REVIEWER, Body.Kind.DIRECTOR_IN_CHARGE):
        return 1
    size = size or 3
    if size % 2 == 0 or not 1 <= size <= 9:
        refuse("size", _("A body has an odd number of members (1 to 9), not %(n)s.") % {"n": size})
    return size


def _mark_constituted(appeal: Appeal, body: Body, *, by: User, now: datetime.datetime) -> None:
    if body.stage == Stage.EVENT and appeal.state == Appeal.State.LODGED and body.is_constituted:
        names = ", ".join(str(m) for m in body.sitting())
        advance(
            appeal,
            Step.CONSTITUTE,
            action=Action.CONSTITUTED,
            by=by,
            at=now,
            note=texts.text("appeals.constituted", kind=body.kind, names=names),
        )
        notify(
            [m.user for m in body.sitting()],
            appeal,
            texts.text("appeals.notice_sits", n=appeal.number, body=body.kind),
            now,
        )


@atomic_with_retry
def constitute_body(
    *,
    appeal: Appeal,
    by: User,
    kind: Choice | None = None,
    members: Iterable[User] = (),
    chair: User | None = None,
    size: int | None = None,
    stage: Choice = Stage.EVENT,
    now: datetime.datetime | None = None,
) -> Body:
    """Form the body that hears the case and appoint ``members`` (users), ``chair`` among them.

    At the event the chief director forms it: the kind defaults to the regulations' appeals
    body; with none, the director in charge hears the case alone (Law 93A). A further appeal's
    body is the regulating authority's, formed by one of its national officers. A committee has
    the regulations' size; a referee, a reviewer or the director in charge sits alone.
    """
    now = now or timezone.now()
    appeal = locked(appeal)
    tournament = appeal.tournament
    if stage == Stage.EVENT:
        require_chief(by, "body", tournament, _("forms the body that hears an appeal"))
        require_open(appeal)
        regulated = setting(tournament, "appeals_body")
        kind = kind or (Body.Kind.DIRECTOR_IN_CHARGE if regulated == "none" else regulated)
        if regulated == "none" and kind != Body.Kind.DIRECTOR_IN_CHARGE:
            refuse(
                "kind",
                _("%(body)s has no appeals body: the director in charge hears every appeal (Law 93A).")
                % {"body": tournament.authority},
            )
        if kind == Body.Kind.NATIONAL:
            refuse("kind", _("The regulating authority's body hears only a further appeal (Law 93C)."))
        if kind == Body.Kind.DIRECTOR_IN_CHARGE and not members:
            members = [by]
    else:
        require_national_officer(by, tournament)
        if not hasattr(appeal, "further") or appeal.further.state != FurtherAppeal.State.LODGED:
            refuse("stage", _("No further appeal is waiting for the regulating authority."))
        kind = kind or Body.Kind.NATIONAL
        if kind != Body.Kind.NATIONAL:
            refuse("kind", _("A further appeal is heard by the regulating authority's body."))
    if kind not in Body.Kind.values:
        refuse("kind", _("'%(k)s' is not a kind of appeals body.") % {"k": kind})
    if appeal.bodies.filter(stage=stage).exists():
        refuse("kind", _("A body is already formed for this case: appoint or replace its members instead."))
    body = save_checked(
        Body(
            appeal=appeal,
            stage=stage,
            kind=kind,
            size=_body_size(tournament, kind, size),
            constituted_by=by,
            created_at=now,
        )
    )
    log_step(
        appeal,
        Action.BODY_CREATED,
        by=by,
        at=now,
        note=texts.text("appeals.body_formed", kind=body.kind, n=body.size),
    )
    for user in members:
        appoint_member(body=body, user=user, by=by, chair=user == chair, now=now)
    return body


@atomic_with_retry
def appoint_member(
    *, body: Body, user: User, by: User, chair: bool = False, now: datetime.datetime | None = None
) -> BodyMember:
    """Seat ``user`` on ``body`` after checking for conflicts of interest."""
    now = now or timezone.now()
    body = (
        Body.objects.select_for_update(of=("self",))
        .select_related("appeal__ruling__result__ns", "appeal__ruling__result__ew")
        .get(pk=body.pk)
    )
    appeal = locked(body.appeal)
    if body.stage == Stage.EVENT:
        require_chief(by, "body", appeal.tournament, _("forms the body that hears an appeal"))
        require_open(appeal)
    else:
        require_national_officer(by, appeal.tournament)
    if body.members.filter(user=user).exists():
        refuse("user", _("%(u)s is already appointed to this body.") % {"u": user})
    if body.sitting().count() >= body.size:
        refuse(
            "user",
            lifecycle.body_full(body),
        )
    if chair and body.sitting().filter(is_chair=True).exists():
        refuse("chair", _("%(c)s already chairs this body.") % {"c": body.sitting().get(is_chair=True)})
    if body.is_director_in_charge and not policy.may(user, "hear_alone", appeal.tournament):
        refuse(
            "user",
            _("Only the director in charge of %(t)s %(what)s; %(user)s is not.")
            % {"t": appeal.tournament, "what": _("hears an appeal alone (Law 93A)"), "user": user},
        )
    conflicts = conflicts_of(user, body)
    if conflicts:
        refuse("user", _("%(u)s cannot sit on this case: %(why)s.") % {"u": user, "why": "; ".join(conflicts)})
    member = BodyMember(body=body, user=user, is_chair=chair, appointed_by=by, appointed_at=now)
    if body.is_director_in_charge:
        member.declared_at = now  # the director in charge hears appeals of his own tournament (93A)
    save_checked(member)
    if own_seat_warning(user, body):  # allowed, but the timeline keeps the warning he was given
        note = texts.text("appeals.chief_seated", member=str(member), kind=body.kind)
    else:
        note = texts.text(
            "appeals.chair_appointed" if chair else "appeals.member_appointed", member=str(member), kind=body.kind
        )
    log_step(appeal, Action.MEMBER_APPOINTED, by=by, at=now, note=note)
    _mark_constituted(appeal, body, by=by, now=now)
    return member


@atomic_with_retry
def appoint_to_case(
    *, appeal: Appeal, user: User, by: User, chair: bool = False, now: datetime.datetime | None = None
) -> BodyMember:
    """The chief director seats ``user`` on the case's event body, formed already: a seat never
    filled, or the seat of a member who stepped down (recused). Conflicts are refused as for any
    appointment (``appeals.conflicts``); the chief director seating himself is allowed with a
    warning the timeline keeps. The case stays in its state; the new member declares next."""
    now = now or timezone.now()
    appeal = locked(appeal)
    require_chief(by, "body", appeal.tournament, _("forms the body that hears an appeal"))
    body = appeal.body()
    lifecycle.require_vacant_seat(appeal, body)
    return appoint_member(body=body, user=user, by=by, chair=chair, now=now)


@atomic_with_retry
def declare_conflict(
    *, member: BodyMember, by: User, conflict: str = "", now: datetime.datetime | None = None
) -> BodyMember:
    """``member`` declares their interests before sitting: ``conflict`` in words, or empty for
    none. A member with a conflict cannot vote and should recuse. ``by``: the member, in person."""
    require_own_seat(by, member)
    now = now or timezone.now()
    member = BodyMember.objects.select_for_update(of=("self",)).select_related("body", "user").get(pk=member.pk)
    if member.recused_at:
        refuse("member", _("%(m)s has recused.") % {"m": member})
    policy.require(by, "seat", member.body)
    member.declared_at, member.conflict = now, (conflict or "").strip()
    if member.conflict:
        member.vote, member.dissent, member.voted_at = "", "", None
    save_checked(member)
    appeal = locked(member.body.appeal)
    log_step(
        appeal,
        Action.INTERESTS_DECLARED,
        by=member.user,
        at=now,
        note=f"{member}: {member.conflict}"
        if member.conflict
        else texts.text("appeals.no_conflict", member=str(member)),
    )
    _mark_constituted(appeal, member.body, by=member.user, now=now)
    return member


@atomic_with_retry
def recuse(*, member: BodyMember, reason: str, by: User, now: datetime.datetime | None = None) -> BodyMember:
    """``member`` stands down from the case; a replacement is appointed with ``appoint_member``.
    ``by``: the member, in person."""
    require_own_seat(by, member)
    now = now or timezone.now()
    member = BodyMember.objects.select_for_update(of=("self",)).select_related("body", "user").get(pk=member.pk)
    if member.recused_at:
        refuse("member", _("%(m)s has already recused.") % {"m": member})
    policy.require(by, "seat", member.body)
    reason = require_text("reason", reason, _("Say why the member recuses."))
    appeal = locked(member.body.appeal)
    if member.body.stage == Stage.EVENT and appeal.state == Appeal.State.DECIDED:
        refuse("member", _("The case is decided: a hidden conflict found now goes to the regulating authority."))
    member.recused_at, member.recusal_reason = now, reason
    member.vote, member.dissent, member.voted_at = "", "", None
    save_checked(member)
    log_step(appeal, Action.RECUSED, by=member.user, at=now, note=f"{member}: {reason}")
    return member
