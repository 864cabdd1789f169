"""Telling people that a case waits for them: a row per person (listed on their appeals pages),
and an e-mail sent by ``appeals.tasks.send_notification_mail`` once the step has committed, so a
step never waits for, or fails with, the mail server."""

from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from appeals.models import Appeal, Notification
from core import dispatch
from core.texts import split


def notify(users, appeal, text, now=None):
    """Record ``text`` (a text of appeals/texts.py, shown in each reader's language) for each of ``users`` (people without an account are skipped, each person
    once) and queue its e-mail after the surrounding transaction commits."""
    now = now or timezone.now()
    stored, code, params = split(text)
    seen, made = set(), []
    for user in users:
        if user is None or user.pk in seen:
            continue
        seen.add(user.pk)
        made.append(
            Notification.objects.create(user=user, appeal=appeal, text=stored, code=code, params=params, created_at=now)
        )
    if made:
        # By name (core/dispatch.py): the tasks call the services, which call this module.
        ids = [n.pk for n in made]
        transaction.on_commit(lambda: [dispatch.send("appeals.tasks.send_notification_mail", pk) for pk in ids])
    return made


State = Appeal.State
# A notice of a step waits for its reader while the case is still where the step left it: the
# body formed (until the hearing is fixed), the hearing fixed (until the decision), the decision
# (until the case reopens, and only the last decision), the time to decide running out (while open).
HOLDS = {
    "appeals.notice_sits": Q(appeal__state__in=[State.LODGED, State.CONSTITUTED]),
    "appeals.notice_heard": Q(appeal__state=State.SCHEDULED),
    "appeals.notice_decided": Q(appeal__state=State.DECIDED, created_at__gte=F("appeal__decided_at")),
    "appeals.notice_due": Q(appeal__state__in=Appeal.OPEN_STATES),
}


def still_holding():
    """The notices whose step the case has not moved past (``HOLDS``); any other kind holds."""
    holding = ~Q(code__in=list(HOLDS))
    for code, holds in HOLDS.items():
        holding |= Q(code=code) & holds
    return holding


def waiting_for(user, limit=20):
    # Each notice shows its time in its tournament's zone: the tournament and its authority are
    # read with the notices, not one chain of six queries per notice.
    notices = list(
        Notification.objects.filter(still_holding(), user=user).select_related(
            "appeal__ruling__result__board__session__event__tournament__authority"
        )[:limit]
    )
    # One authority object per authority, so its own terms (appeals/terms.py: the body a notice
    # names) are read once for all its notices, not once a notice.
    shared: dict[int, Any] = {}
    for notice in notices:
        tournament = notice.appeal.tournament
        tournament.authority = shared.setdefault(tournament.authority_id, tournament.authority)
    return notices
