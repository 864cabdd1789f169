"""Who may sit on a body, in words: the conflicts that bar a person from a case, the warning
when the chief director would seat himself, and the candidates the chief director is offered
for a seat (the case page lists them with both; ``services.appoint_member`` refuses a conflict
and records the warning). Reads only: the services and the pages share it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from appeals.models import Appeal, AppealPart, Body, BodyMember, Stage
from core import policy, roles
from scoring.models import Player

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def conflicts_of(user: User, body: Body) -> list[str]:
    """Why ``user`` may not sit on ``body``, in words (empty: no known conflict): the director who
    gave the ruling, a member or captain of either side, anyone on a lower body for the matter."""
    ruling = body.appeal.ruling
    reasons = []
    if user.pk == ruling.director_id and not body.is_director_in_charge:
        reasons.append(_("gave the ruling"))
    player = Player.objects.filter(user=user).first()
    if player is not None:
        result = ruling.given_result
        for label, contestant in (("N-S", result.ns), ("E-W", result.ew)):
            if contestant.captain_id == player.pk:
                reasons.append(_("captains %(c)s (%(side)s)") % {"c": contestant, "side": label})
            elif contestant.members.filter(pk=player.pk).exists():
                reasons.append(_("plays for %(c)s (%(side)s)") % {"c": contestant, "side": label})
    if (
        not body.is_director_in_charge
        and AppealPart.objects.filter(appeal__ruling=ruling, decided_by=user, kind=AppealPart.Kind.LAW).exists()
    ):
        reasons.append(_("decided a part of this matter as director in charge"))
    if (
        body.stage == Stage.FURTHER
        and BodyMember.objects.filter(user=user, body__stage=Stage.EVENT, body__appeal__ruling=ruling).exists()
    ):
        reasons.append(_("sat on the event's appeals body for this matter"))
    if body.stage == Stage.FURTHER and Appeal.objects.filter(ruling=ruling, decided_by=user).exists():
        reasons.append(_("decided this matter at the event"))
    return reasons


def own_seat_warning(user: User, body: Body) -> str:
    """The warning when the tournament's chief director would sit on a body that reviews his own
    directors' ruling (empty otherwise, and when he hears the case alone, Law 93A)."""
    if body.stage != Stage.EVENT or body.is_director_in_charge:
        return ""
    if not policy.holds(user, policy.CHIEF_DIRECTOR, body.appeal.tournament):
        return ""
    return _(
        "%(u)s is the chief director: the body reviews his directors' ruling, so he should sit on it "
        "only when no one else can (Law 93B)."
    ) % {"u": user.get_full_name() or user.username}


@dataclass
class Candidate:
    """A person the chief director may seat, with what bars or warns against it."""

    user: User
    conflicts: list[str] = field(default_factory=list)
    warning: str = ""

    @property
    def name(self) -> str:
        return self.user.get_full_name() or self.user.username


def candidates(appeal: Appeal, body: Body | None = None) -> list[Candidate]:
    """The tournament's appeals members and chief directors not sitting on ``body`` (the case's
    event body; all of them before it is formed), each with their conflicts and any warning."""
    users = (
        get_user_model()
        .objects.filter(
            officiating__tournament=appeal.tournament,
            officiating__role__in=[roles.APPEALS_MEMBER, roles.CHIEF_DIRECTOR],
        )
        .distinct()
        .order_by("last_name", "first_name", "username")
    )
    if body is not None:
        users = users.exclude(pk__in=body.members.values("user"))
    probe = body or Body(appeal=appeal, stage=Stage.EVENT, kind=Body.Kind.COMMITTEE)
    return [Candidate(user, conflicts_of(user, probe), own_seat_warning(user, probe)) for user in users]
