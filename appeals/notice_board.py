"""The hall's notice board for one tournament, on a large screen: the hearings to come, the
appeal windows open now with their clocks, and the cases decided, naming the appellants only as
far as the regulating authority's ``casebook_names`` allows (docs/appeals.md, "Notice board").

A read in a constant number of queries, however many cases: the page polls it (core/live.py).

The hall's own screen (``hall_screen``) shows the same board and each event's standings without a
login, at an address that carries a signed token (``hall_token``): the tournament's officials
find it on the notice board and open it on the screen in the room, where nobody signs in.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core import signing
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from appeals.models import Appeal, HallAddress, Hearing
from appeals.selectors import AppealWindow, appeal_windows
from scoring import selectors as scoring_selectors
from scoring.models import Tournament

if TYPE_CHECKING:
    from scoring.models import Event, Standing

DECIDED_SHOWN = 12  # the latest decisions on the board; the case pages hold the rest
HALL_SALT = "appeals.hall-screen"  # the hall screen's tokens are signed for it alone
HALL_REFRESH_SECONDS = 30  # the hall's screen reloads itself: nobody is there to press a key
# The board's page is rendered once per version and audience for this long at most
# (core/renders.py): its clocks (a hearing in progress, a window that closed) move without a change.
SHARED_SECONDS = 10


@dataclass
class Decided:
    appeal: Appeal
    appellants: str  # the side ("North-South"), or its names where the regulations allow them


@dataclass
class NoticeBoard:
    tournament: Tournament
    now: datetime.datetime
    hearings: list[Hearing]  # still to come
    in_progress: list[Hearing]  # past their time, the case not decided yet
    waiting: list[Appeal]  # lodged, or with a body, and no hearing yet
    windows: list[AppealWindow]
    decided: list[Decided]
    names_shown: bool


def appellants(appeal: Appeal, names_shown: bool) -> str:
    """Who appealed, as the hall may read it: the director's referral; the side; with the
    pair's or team's name only when the regulations publish names (``casebook_names`` "names")."""
    if appeal.origin == Appeal.Origin.DIRECTOR:
        return _("the director (Law 83)")
    side = _("North-South") if appeal.side == "NS" else _("East-West")
    contestant = appeal.appellant
    if names_shown and contestant is not None:
        names = contestant.name or " & ".join(str(player) for player in contestant.members.all())
        return _("%(side)s: %(names)s") % {"side": side, "names": names}
    return side


def _appeals_of(tournament: Tournament) -> QuerySet[Appeal]:
    return Appeal.objects.filter(ruling__board__session__event__tournament=tournament).select_related(
        "ruling__board__session__event", "ruling__table", "appellant"
    )


def notice_board(tournament: Tournament, now: datetime.datetime | None = None) -> NoticeBoard:
    """What the hall sees of ``tournament`` at ``now``."""
    now = now or timezone.now()
    names_shown = tournament.regulations()["casebook_names"] == "names"
    hearings = list(
        Hearing.objects.filter(
            appeal__ruling__board__session__event__tournament=tournament, appeal__state__in=Appeal.OPEN_STATES
        )
        .select_related("appeal__ruling__board__session__event", "appeal__ruling__table", "body")
        .order_by("starts_at", "pk")
    )
    heard = {hearing.appeal_id for hearing in hearings}
    in_progress = [hearing for hearing in hearings if hearing.starts_at <= now]
    hearings = [hearing for hearing in hearings if hearing.starts_at > now]
    waiting = [
        appeal
        for appeal in _appeals_of(tournament).filter(state__in=Appeal.OPEN_STATES).order_by("lodged_at", "pk")
        if appeal.pk not in heard
    ]
    windows = [w for w in appeal_windows(tournament=tournament, now=now) if w.status == "open"]
    windows.sort(key=lambda w: w.deadline or now)
    decided = [
        Decided(appeal=appeal, appellants=appellants(appeal, names_shown))
        for appeal in _appeals_of(tournament)
        .filter(state=Appeal.State.DECIDED)
        .prefetch_related("appellant__members")
        .order_by("-decided_at", "-pk")[:DECIDED_SHOWN]
    ]
    return NoticeBoard(
        tournament=tournament,
        now=now,
        hearings=hearings,
        in_progress=in_progress,
        waiting=waiting,
        windows=windows,
        decided=decided,
        names_shown=names_shown,
    )


@dataclass
class HallStandings:
    event: Event
    fields: list[tuple[str, list[Standing]]]  # ("NS", rows), ("EW", rows) or ("", rows)
    unit: str


@dataclass
class HallScreen:
    board: NoticeBoard
    standings: list[HallStandings]


def hall_generation(tournament: Tournament) -> int:
    """Which of ``tournament``'s hall addresses is in force: 0 until the chief director first
    revokes one (``services.revoke_hall_address``), one more at each revocation."""
    address = HallAddress.objects.filter(tournament=tournament).first()
    return address.generation if address is not None else 0


def hall_token(tournament: Tournament) -> str:
    """The signed token in the address of ``tournament``'s hall screen: the same address each time
    (it is set up once on the room's screen) until the chief director revokes it."""
    generation = hall_generation(tournament)
    value = str(tournament.pk) if not generation else f"{tournament.pk}.{generation}"
    return signing.Signer(salt=HALL_SALT).sign(value)


@dataclass
class HallLookup:
    """What a hall screen's token opens: its tournament (None for a token not signed here) and
    whether the address was revoked (an earlier generation: refused, with a message)."""

    tournament: Tournament | None
    revoked: bool = False


def hall_tournament(token: str) -> HallLookup:
    """The tournament whose hall screen ``token`` opens, and whether its address was revoked."""
    try:
        pk, _dot, generation = signing.Signer(salt=HALL_SALT).unsign(token).partition(".")
        pk_, generation_ = int(pk), int(generation or 0)
    except (signing.BadSignature, ValueError):
        return HallLookup(None)
    tournament = Tournament.objects.select_related("authority").filter(pk=pk_).first()
    if tournament is None:
        return HallLookup(None)
    return HallLookup(tournament, revoked=generation_ != hall_generation(tournament))


def hall_screen(tournament: Tournament, now: datetime.datetime | None = None) -> HallScreen:
    """The notice board and each event's standings (the whole event so far), for the room."""
    board = notice_board(tournament, now)
    standings = []
    for event in tournament.events.order_by("pk"):
        rows = list(scoring_selectors.standings(event))
        fields = sorted({row.field for row in rows})
        standings.append(
            HallStandings(
                event=event,
                fields=[(field, [row for row in rows if row.field == field]) for field in fields],
                unit=_("VPs") if event.is_teams else scoring_selectors.score_unit(event),
            )
        )
    return HallScreen(board=board, standings=standings)
