"""Reads of appeals: the director's appeal windows, open cases, a member's queue, a timeline."""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from appeals.models import Appeal, AppealEvent, Body, BodyMember, Concurrence, Filing, Hearing, Stage
from audit.hints import Choice
from core import policy, reader
from rulings.models import UNREAD, Ruling
from scoring.models import Contestant, Player, Session

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    from scoring.models import Tournament


def visible_appeals(user: User | AnonymousUser) -> QuerySet[Appeal]:
    """Officials and auditors of the tournament see every case; an appeals member only the cases
    they sit on; a player the cases of their own table (core.policy, "view_appeal")."""
    return policy.visible(
        user,
        "view_appeal",
        Appeal.objects.select_related(
            "ruling__result__board__session__event__tournament",
            "appellant",
            "ruling__result__table",
            "ruling__result__ns",
            "ruling__result__ew",
        ),
    )


def local_time(moment: datetime.datetime, tournament: Tournament) -> str:
    """A moment as the players read it, in the tournament's zone and the reader's language:
    "21:30 on 1 May 2026 (Europe/London)" in English (core.reader says the policy)."""
    return reader.event_time(moment, tournament)


def plays_for(player: Player, contestant: Contestant) -> bool:
    """True if ``player`` is a member or the captain of ``contestant``."""
    return contestant.captain_id == player.pk or any(m.pk == player.pk for m in contestant.members.all())


def side_of(player: Player, ruling: Ruling) -> str | None:
    """ "NS" or "EW": the side at the ruling's table that ``player`` plays for; None if neither."""
    result = ruling.result
    if result is None:  # no result recorded at the table yet: nobody's side is known
        return None
    for side, contestant in (("NS", result.ns), ("EW", result.ew)):
        if plays_for(player, contestant):
            return side
    return None


def side_appeal(ruling: Ruling, side: str | None) -> Appeal | None:
    """The appeal ``side`` has lodged against ``ruling`` (one per ruling and side, Law 92), if
    any not withdrawn: the ruling's prefetched appeals are read when there are some."""
    if side is None:
        return None
    return next(
        (a for a in ruling.appeals.all() if a.side == side and a.state != Appeal.State.WITHDRAWN),
        None,
    )


def late_filing_pending(appeal: Appeal) -> bool:
    """The appeal was received after the appeal period and its body has not yet said whether it
    is valid (issue #44: the desk receives it; the body decides)."""
    return appeal.filings.filter(validity=Filing.Validity.PENDING).exclude(kind=Filing.Kind.MEMO).exists()


def filing_of(appeal: Appeal) -> Filing | None:
    """The filing the appeal came in by (its number, time, who received it, its validity)."""
    return appeal.filings.exclude(kind=Filing.Kind.MEMO).select_related("received_by", "validity_by").first()


def filings(tournament: Tournament) -> QuerySet[Filing]:
    """The tournament's register of filings received, in the order received."""
    return (
        Filing.objects.filter(tournament=tournament)
        .select_related("ruling", "appeal", "filer", "received_by", "validity_by")
        .order_by("number")
    )


def filings_of_case(appeal: Appeal) -> QuerySet[Filing]:
    """A case's filings (its request to appeal, the appeal, the players' memos), in the order received."""
    return appeal.filings.select_related("tournament__authority", "filer", "received_by").order_by("number")


def may_ask_to_appeal(
    ruling: Ruling,
    player: Player | None,
    *,
    now: datetime.datetime | None = None,
    deadline: Any = UNREAD,
) -> bool:
    """Whether ``player`` may ask to appeal ``ruling`` now: the one answer the player's page and
    the service give. The window is open (``Ruling.appeal_open``), the player sits at the table,
    no request of theirs waits for the director, and their side has no appeal lodged already.
    After the window a request is still received (issue #44), marked late: the body decides
    whether it is valid; ``Ruling.appeal_open`` says which the page offers."""
    if player is None or ruling.state not in Ruling.APPEALABLE_STATES:
        return False
    side = side_of(player, ruling)
    if side is None or side_appeal(ruling, side) is not None:
        return False
    return not any(r.player_id == player.pk and r.state == "open" for r in ruling.appeal_requests.all())


def concurrence_awaited(appeal: Appeal) -> list[Player]:
    """The players whose concurrence the director may still record: those needed who have not
    agreed (the player who lodged agreed by lodging)."""
    agreed = {concurrence.player_id for concurrence in appeal.concurrences.all()}
    return [p for p in concurrence_needed(appeal) if p is not None and p.pk not in agreed]


def concurrence_needed(appeal: Appeal) -> list[Player | None]:
    """Whose agreement the appeal needs (Law 92D): both members of a pair, a team's captain,
    nobody in an individual or for a director's referral. ``None`` stands for a team captain
    who is not recorded."""
    contestant = appeal.appellant
    if appeal.origin == Appeal.Origin.DIRECTOR or contestant is None:
        return []
    if contestant.kind == Contestant.Kind.TEAM:
        return [contestant.captain]
    if contestant.kind == Contestant.Kind.PAIR:
        return list(contestant.members.all())
    return []


def concurrence_missing(appeal: Appeal) -> list[str]:
    """The names of those whose concurrence is still needed; empty when it is complete."""
    agreed = {concurrence.player_id for concurrence in appeal.concurrences.all()}  # prefetched by for_api
    missing: list[str] = []
    for player in concurrence_needed(appeal):
        if player is None:
            missing.append(_("the team's captain (none is recorded for %(team)s)") % {"team": appeal.appellant})
        elif player.pk not in agreed:
            missing.append(str(player))
    return missing


def deposit_due(appeal: Appeal, stage: Choice = Stage.EVENT) -> tuple[Decimal, str] | None:
    """(amount, currency) the regulations ask for as the deposit of the appeal (``stage``
    "event") or of its further appeal, or None: a director's referral pays none."""
    regulations = appeal.tournament.regulations()
    if stage == Stage.EVENT:
        if appeal.origin == Appeal.Origin.DIRECTOR:
            return None
        deposits = regulations["deposits"] or {}
        amount, currency = deposits.get("amounts", {}).get(appeal.event.kind), deposits.get("currency")
    else:
        deposits = regulations["further_appeal_deposit"] or {}
        amount, currency = deposits.get("amount"), deposits.get("currency")
    if not amount or Decimal(str(amount)) <= 0:
        return None
    return Decimal(str(amount)), currency or ""  # the settings ask a currency of a deposit


def appellant_players(appeal: Appeal) -> list[Player]:
    """The players an appeal-without-merit warning is recorded against: whoever lodged the
    appeal and whoever concurred in it."""
    ids = set(appeal.concurrences.values_list("player_id", flat=True))
    if appeal.lodged_by_id:
        ids.add(appeal.lodged_by_id)
    return list(Player.objects.filter(pk__in=ids))


@dataclass
class AppealWindow:
    """One session's Law 92B window: ``status`` is "not started" (no official score posted),
    "open" or "closed"; ``rulings`` are those given in the session that may be appealed."""

    session: Session
    deadline: datetime.datetime | None
    status: str
    deadline_text: str = ""
    rulings: list[Ruling] = field(default_factory=list)


def appeal_windows(*, tournament: Tournament, now: datetime.datetime | None = None) -> list[AppealWindow]:
    """Every session of ``tournament`` with its appeal deadline, in the tournament's time zone."""
    now = now or timezone.now()
    rulings: defaultdict[int, list[Ruling]] = defaultdict(list)
    for ruling in (
        Ruling.objects.filter(
            result__board__session__event__tournament=tournament,
            state__in=[Ruling.State.GIVEN, Ruling.State.UNDER_APPEAL],
        )
        .select_related("result__board", "result__table")
        .order_by("number")
    ):
        rulings[ruling.given_result.board.session_id].append(ruling)
    windows: list[AppealWindow] = []
    for session in (
        Session.objects.filter(event__tournament=tournament)
        .select_related("event__tournament")
        .order_by("event__name", "number")
    ):
        deadline = session.appeal_deadline()
        if deadline is None:
            status, text = "not started", _("not started: the official score is not posted")
        else:
            status, text = ("open" if now <= deadline else "closed"), local_time(deadline, tournament)
        windows.append(
            AppealWindow(
                session=session, deadline=deadline, status=status, deadline_text=text, rulings=rulings[session.pk]
            )
        )
    return windows


def _appeals() -> QuerySet[Appeal]:
    return Appeal.objects.select_related(
        "ruling__result__board__session__event__tournament", "appellant", "ruling__result__table"
    )


def open_cases(*, tournament: Tournament | None = None) -> QuerySet[Appeal]:
    """Appeals lodged and not yet decided or withdrawn, oldest first."""
    qs = _appeals().filter(state__in=Appeal.OPEN_STATES)
    if tournament is not None:
        qs = qs.filter(ruling__result__board__session__event__tournament=tournament)
    return qs.order_by("lodged_at", "pk")


def open_cases_by_state(*, tournament: Tournament | None = None) -> dict[Choice, list[Appeal]]:
    """``{"lodged": [...], "constituted": [...], "scheduled": [...]}``."""
    grouped: dict[Choice, list[Appeal]] = {state: [] for state in Appeal.OPEN_STATES}
    for appeal in open_cases(tournament=tournament):
        grouped[appeal.state].append(appeal)
    return grouped


def cases_for_member(user: User | AnonymousUser, *, open_only: bool = False) -> QuerySet[Appeal]:
    """The cases ``user`` sits on (appointed and not recused), at the event or further; a member
    sees no other case."""
    if not user.is_authenticated:
        return Appeal.objects.none()
    seats = BodyMember.objects.filter(user=user, recused_at__isnull=True)
    if open_only:
        seats = seats.filter(
            Q(body__stage=Stage.EVENT, body__appeal__state__in=Appeal.OPEN_STATES)
            | Q(body__stage=Stage.FURTHER, body__appeal__further__state="lodged")
        )
    return _appeals().filter(pk__in=seats.values("body__appeal")).order_by("lodged_at", "pk")


def member_queue(user: User | AnonymousUser) -> QuerySet[Appeal]:
    """What a body member still has to hear or decide."""
    return cases_for_member(user, open_only=True)


def for_api(appeals: QuerySet[Appeal]) -> QuerySet[Appeal]:
    """``appeals`` with what the API shows of each prefetched (timeline, parts, the body at the
    event and its members, concurrences, the appellants), so a list of them costs the same few
    queries however long it is."""
    from django.db.models import Prefetch

    return appeals.select_related("appellant__captain").prefetch_related(
        Prefetch(
            "events", queryset=AppealEvent.objects.select_related("by").order_by("at", "pk"), to_attr="api_timeline"
        ),
        "parts",
        "concurrences",
        "appellant__members",
        Prefetch(
            "bodies",
            queryset=Body.objects.filter(stage=Stage.EVENT).prefetch_related("members").order_by("pk"),
            to_attr="api_event_bodies",
        ),
    )


def is_constituted(body: Body) -> bool:
    """Body.is_constituted from the body's (prefetched) members, without a query: every seat
    filled by a member who sits, each declared with no conflict, and a chair when more than one
    (Body.missing() says the same in words)."""
    sitting = [member for member in body.members.all() if member.recused_at is None]
    return (
        len(sitting) == body.size
        and all(m.declared_at is not None and not m.conflict for m in sitting)
        and (body.size == 1 or any(m.is_chair for m in sitting))
    )


def timeline(appeal: Appeal) -> QuerySet[AppealEvent]:
    """Every step of the case in the order it happened."""
    return AppealEvent.objects.filter(appeal=appeal).select_related("by").order_by("at", "pk")


def concurrences(appeal: Appeal) -> QuerySet[Concurrence]:
    return Concurrence.objects.filter(appeal=appeal).select_related("player", "recorded_by")


@dataclass
class AppealClock:
    """An open appeal and its next deadline: ``next_kind`` "hearing" (the hearing fixed, still
    to come, starts at ``next_at``), "decision" (the case is to be decided by ``next_at``) or ""
    (no time set yet)."""

    appeal: Appeal
    next_kind: str
    next_at: datetime.datetime | None


def my_open_appeals(user: User | AnonymousUser, now: datetime.datetime | None = None) -> list[AppealClock]:
    """The open appeals against rulings at the tables where ``user`` plays (a member or the
    captain of either side), of those the policy lets them read ("view_appeal"), oldest first,
    each with its next deadline: the hearing fixed if it is still to come, else the time the case
    is to be decided by."""
    from django.db.models import Prefetch

    if not user.is_authenticated:
        return []
    now = now or timezone.now()
    appeals = (
        policy.own(user, visible_appeals(user), policy.APPEAL)
        .filter(state__in=Appeal.OPEN_STATES)
        .prefetch_related(Prefetch("hearings", Hearing.objects.order_by("-scheduled_at", "-pk")))
        .order_by("lodged_at", "pk")
    )
    rows = []
    for appeal in appeals:
        hearing = next(iter(appeal.hearings.all()), None)  # the one the case waits for (Appeal.hearing)
        if hearing is not None and hearing.starts_at > now:
            rows.append(AppealClock(appeal, "hearing", hearing.starts_at))
        else:
            rows.append(AppealClock(appeal, "decision" if appeal.decide_by else "", appeal.decide_by))
    return rows


def my_tables(user: User | AnonymousUser, now: datetime.datetime | None = None) -> list[Any]:
    """The rulings at ``user``'s tables with their clocks (``rulings.selectors.rulings_at_my_tables``),
    each saying whether they may ask to appeal it now (``may_ask_to_appeal``, the answer of their
    own page): the home page's "Ask to appeal" leads only where the request can be made."""
    from rulings.selectors import rulings_at_my_tables

    rows = rulings_at_my_tables(user, now)
    players = list(Player.objects.filter(user=user)) if user.is_authenticated else []
    for row in rows:
        me = next((p for p in players if side_of(p, row.ruling) is not None), None)
        row.can_request = row.window_open and may_ask_to_appeal(row.ruling, me)
    return rows
