""" "Waiting for you": what needs this person now, per role, oldest deadline first. Worked out
from the cases' states each time, so a step taken takes its item away; the notices of cases still
open follow (a decided case's notice is done, and gone)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Prefetch
from django.urls import reverse
from django.utils.translation import gettext as _

from appeals.models import Appeal, AppealRequest, Body, BodyMember, Hearing, Stage
from core import roles

FAR = datetime.datetime.max.replace(tzinfo=datetime.UTC)


@dataclass
class Item:
    text: str
    url: str
    due: datetime.datetime | None
    tournament: object
    # The due time is the case's "decide by" (not a hearing's start), and it has passed.
    overdue: bool = False


def _official_tournaments(user, *wanted):
    return [o.tournament_id for o in user.officiating.filter(role__in=wanted)]


def todo_for(user) -> list[Item]:
    """The reader's to-do list: requests to appeal to lodge or decline and hearings to fix (a
    director), bodies to form and seats to fill (the chief director), interests to declare and
    hearings to sit at (a member); oldest deadline first."""
    from appeals import lifecycle

    items: list[Item] = []
    directing = _official_tournaments(user, roles.DIRECTOR, roles.CHIEF_DIRECTOR)
    chief = set(_official_tournaments(user, roles.CHIEF_DIRECTOR))
    for request in AppealRequest.objects.filter(
        state=AppealRequest.State.OPEN, ruling__result__board__session__event__tournament__in=directing
    ).select_related("ruling__result__board__session__event__tournament", "player"):
        ruling = request.ruling
        items.append(
            Item(
                _("%(r)s: %(p)s asks to appeal; lodge it or decline it") % {"r": ruling, "p": request.player},
                reverse("appeals:appeal-lodge", args=[ruling.pk]),
                ruling.appeal_limit(),
                ruling.tournament,
            )
        )
    for appeal in (
        Appeal.objects.filter(
            state__in=Appeal.OPEN_STATES, ruling__result__board__session__event__tournament__in=directing
        )
        .select_related("ruling__result__board__session__event__tournament")
        .prefetch_related(
            # the event body and its members with the cases: the same queries however many cases
            Prefetch(
                "bodies", Body.objects.filter(stage=Stage.EVENT).prefetch_related("members"), to_attr="event_bodies"
            )
        )
    ):
        tournament = appeal.tournament
        body = appeal.event_bodies[0] if appeal.event_bodies else None
        text = ""
        if tournament.pk in chief and body is None and appeal.state == Appeal.State.LODGED:
            text = _("Appeal %(n)s: form the body that hears it") % {"n": appeal.number}
        elif tournament.pk in chief and body is not None and lifecycle.vacant_seats(appeal, body):
            text = _("Appeal %(n)s: a seat on the body is free") % {"n": appeal.number}
        elif appeal.state == Appeal.State.CONSTITUTED:
            text = _("Appeal %(n)s: fix the hearing") % {"n": appeal.number}
        if text:
            url = reverse("appeals:appeal", args=[appeal.pk])
            items.append(Item(text, url, appeal.decide_by, tournament, appeal.decision_overdue()))
    for seat in (
        BodyMember.objects.filter(user=user, recused_at__isnull=True)
        .select_related("body__appeal__ruling__result__board__session__event__tournament", "body__appeal__further")
        .prefetch_related(Prefetch("body__appeal__hearings", Hearing.objects.order_by("-starts_at")))
    ):
        case = seat.body.appeal
        further = seat.body.stage == Stage.FURTHER
        if further and getattr(getattr(case, "further", None), "state", "") != "lodged":
            continue
        if not further and case.state not in Appeal.OPEN_STATES:
            continue
        if seat.declared_at is None:
            text = _("Appeal %(n)s: declare your interests") % {"n": case.number}
        elif further:
            text = _("Appeal %(n)s: decide the further appeal") % {"n": case.number}
        elif case.state == Appeal.State.SCHEDULED:
            text = _("Appeal %(n)s: the hearing, then the decision") % {"n": case.number}
        else:
            text = _("Appeal %(n)s: the hearing is to be fixed") % {"n": case.number}
        hearing = next(iter(case.hearings.all()), None)  # the latest (prefetched in that order)
        due = hearing.starts_at if hearing else case.decide_by
        overdue = hearing is None and not further and case.decision_overdue()
        items.append(Item(text, reverse("appeals:appeal", args=[case.pk]), due, case.tournament, overdue))
    return sorted(items, key=lambda item: item.due or FAR)
