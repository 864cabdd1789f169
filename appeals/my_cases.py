"""Reads for a player's (or captain's) own page: the rulings of their tables with the state of
each, their appeal windows, their requests to appeal and the appeals of their tables."""

from django.utils import timezone

from appeals import selectors
from appeals.models import Appeal, AppealRequest
from core import policy
from rulings.models import Ruling
from scoring.models import Player
from scoring.selectors import session_clocks


def players_of(user):
    return list(Player.objects.filter(user=user))


def _side_players(result):
    """The ids of the members and captains of both sides (what selectors.side_of asks the
    database per ruling), from the prefetched members."""
    for contestant in (result.ns, result.ew):
        yield from (member.pk for member in contestant.members.all())
        if contestant.captain_id:
            yield contestant.captain_id


def my_rulings(user, now=None):
    """Each ruling given at a table of the user's own (core.policy.own: as a player or a captain,
    playing or not, the home page's answer too), newest first, with ``me`` (the user's player
    there), ``deadline``, ``window_open`` and ``can_request``."""
    now = now or timezone.now()
    players = players_of(user)
    if not players:
        return []
    # Queries constant in the number of rulings: the sides' members prefetched (no members query
    # per ruling) and every session's appeal deadline read at once (scoring's session_clocks).
    rulings = list(
        Ruling.objects.exclude(state=Ruling.State.DRAFT)
        .filter(pk__in=policy.own(user, Ruling.objects.all()).values("pk"))
        .select_related(
            "board__session__event__tournament__authority",
            "result__board__session__event",
            "result__ns",
            "result__ew",
        )
        .prefetch_related(
            "result__ns__members",
            "result__ew__members",
            "appeals",
            "appeal_extensions",
            "appeal_requests",
            "filings__tournament__authority",
        )
        .order_by("-pk")[:200]
    )
    clocks = session_clocks({ruling.session for ruling in rulings})

    rows = []
    for ruling in rulings:
        at_table = set(_side_players(ruling.result))
        me = next((player for player in players if player.pk in at_table), None)
        deadline = clocks[ruling.session.pk]["appeal_deadline"]
        limit = ruling.appeal_limit(deadline)  # the one answer: rulings.models.Ruling.appeal_open
        open_ = ruling.appeal_open(now, deadline)
        requested = [r for r in ruling.appeal_requests.all() if r.player_id == (me.pk if me else None)]
        rows.append(
            {
                "ruling": ruling,
                "me": me,
                "deadline": limit,
                "window_open": open_,
                "appeals": list(ruling.appeals.all()),
                "requests": requested,
                "can_request": selectors.may_ask_to_appeal(ruling, me, now=now, deadline=deadline),
                # What the player filed on this ruling, each with its acknowledgement (issue #44).
                "filings": [f for f in ruling.filings.all() if me is not None and f.filer_id == me.pk],
                "state": ruling.shown_state(now, deadline),
            }
        )
    return rows


def open_requests(tournaments):
    """Players' requests to appeal still waiting for a director, in the given tournaments."""
    return (
        AppealRequest.objects.filter(
            state=AppealRequest.State.OPEN, ruling__result__board__session__event__tournament__in=tournaments
        )
        .select_related("ruling__result__board__session__event", "player")
        .order_by("requested_at")
    )


def my_appeals(user):
    players = players_of(user)
    if not players:
        return Appeal.objects.none()
    return (
        Appeal.objects.filter(pk__in=policy.own(user, Appeal.objects.all(), policy.APPEAL).values("pk"))
        .select_related("ruling__result__board__session__event__tournament", "appellant")
        .order_by("-lodged_at")
    )
