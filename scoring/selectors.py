"""Reads of the competition record that need joins or that depend on who is asking."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeAlias

from django.db.models import Count, Max, Q, QuerySet
from django.utils.translation import gettext as _

from audit.models import AuditEntry
from core import policy, renders, roles
from scoring.deadlines import deadline
from scoring.models import (
    Board,
    Contestant,
    Event,
    Match,
    RecalculationRequest,
    RegulatingAuthority,
    Result,
    ScoreChange,
    Session,
    Standing,
    Tournament,
    TournamentOfficial,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    from scoring.models import MatchPenalty

    AnyUser: TypeAlias = "User | AnonymousUser"


def visible_tournaments(user: AnyUser) -> QuerySet[Tournament]:
    """The tournaments ``user`` may read: those they officiate at, those under a body they
    audit, and those they play in (core.policy, "view_tournament"). Nothing for anyone else."""
    return policy.visible(user, "view_tournament", Tournament.objects.select_related("authority"))


def can_write(user: AnyUser, tournament: Tournament) -> bool:
    return policy.may(user, "write_record", tournament)


def match_detail(match: Match) -> tuple[Match, list[MatchPenalty]]:
    """A match with its score and every penalty given in it (withdrawn ones too), latest last."""
    return match, list(match.penalties.select_related("team", "given_by", "withdrawn_by").order_by("given_at", "pk"))


def sees_private_details(user: AnyUser, tournament: Tournament) -> bool:
    """Membership numbers and other personal data: officials and auditors, not players."""
    return policy.may(user, "view_private_details", tournament)


def tournament_events(tournament: Tournament) -> QuerySet[Event]:
    return tournament.events.annotate(
        session_count=Count("sessions", distinct=True), contestant_count=Count("contestants", distinct=True)
    ).order_by("name")


def event_sessions(event: Event) -> QuerySet[Session]:
    return event.sessions.annotate(board_count=Count("boards", distinct=True)).prefetch_related("score_postings")


# Each setting of a scoring method, with the values a director picks from (none: written in).
METHOD_CHOICES = {
    "fewer_played": ("neuberg", "average", "own-top"),
    "rounding": ("exact", "0.1-half-to-average", "0.01-half-up"),
    "totals": ("exact", "rounded-lines"),
    "percent_rounding": ("exact", "0.01-half-up"),
    "artificial_scores": ("session-rule", "as-awarded"),
    "butler_drop": (),
    "butler_rounding": ("half-up", "half-down", "half-even", "half-away"),
    "cross_imps": ("mean", "sum"),
    "matchpoint_scale": ("2/1", "1/half"),
    "ranking": ("by-direction", "one-list"),
}


def event_scoring_method(event: Event) -> list[dict[str, Any]]:
    """Each setting of the event's scoring method: its name, the value in force, whether it is
    the program's (recorded from its file) or the regulations', and the values to pick from."""
    from scoring.authority_settings import SPECS

    regulations = event.tournament.regulations()
    recorded = event.scoring_method or {}
    return [
        {
            "key": key,
            "label": SPECS[key].label,
            "value": recorded.get(key, regulations.get(key)),
            "recorded": key in recorded,
            "regulations": regulations.get(key),
            "choices": choices,
        }
        for key, choices in METHOD_CHOICES.items()
    ]


def event_contestants(event: Event) -> QuerySet[Contestant]:
    return (
        Contestant.objects.filter(event=event)
        .select_related("captain")
        .prefetch_related("members")
        .order_by("section", "number", "-direction")
    )


def session_boards(session: Session) -> QuerySet[Board]:
    return Board.objects.filter(session=session).annotate(result_count=Count("results")).order_by("number")


def traveller(board: Board) -> QuerySet[Result]:
    """Every result of a board, with the contestants, where they sat, the effective score, the
    board score and its rulings, in table order."""
    return (
        Result.objects.filter(board=board)
        .select_related("ns", "ew", "table__section", "round", "effective", "board_score")
        .prefetch_related("rulings")  # a row with a ruling opens it (latest first)
        .order_by("table__section__name", "table__number")
    )


def team_imps(results: Iterable[Result]) -> dict[int, tuple[Any, Any]]:
    """{result id: (N-S IMPs, E-W IMPs)} for the results of team matches: the board's IMPs in its
    match (both rooms compared, as the match page shows them), to the team that sat each way at
    that table; a result of no scored match is left out. Two queries however many results."""
    from decimal import Decimal

    from scoring.models import MatchScore

    results = [r for r in results if r.ns_id and r.ew_id]
    if not results:
        return {}
    scores = MatchScore.objects.filter(
        Q(match__open_room_id__in={r.table_id for r in results})
        | Q(match__closed_room_id__in={r.table_id for r in results}),
        match__round_id__in={r.round_id for r in results},
    ).select_related("match")
    numbers = dict(Board.objects.filter(pk__in={r.board_id for r in results}).values_list("pk", "number"))
    by_room: dict[tuple[int, int], MatchScore] = {}
    for found in scores:
        for room in (found.match.open_room_id, found.match.closed_room_id):
            by_room[(found.match.round_id, room)] = found
    imps: dict[int, tuple[Any, Any]] = {}
    for result in results:
        score = by_room.get((result.round_id, result.table_id))
        number = numbers.get(result.board_id)
        board = next((b for b in score.boards if b["board"] == number), None) if score else None
        if score is None or board is None:
            continue
        home, away = (
            Decimal(f.numerator) / Decimal(f.denominator) for f in map(Fraction, (board["home"], board["away"]))
        )
        ns_home = result.ns_id == score.match.home_id
        imps[result.pk] = (home, away) if ns_home else (away, home)
    return imps


def frequency_tables(results: Iterable[Result]) -> dict[str, list[tuple[Any, Fraction]]]:
    """Per direction, each N-S score with the weight of results that had it, highest first:
    the comparison the matchpoints are made from. Artificial scores take no part."""
    from bridge.engine.scores import Artificial, components
    from scoring.recalculation import entry_for

    tables: dict[str, dict[Any, Fraction]] = {"NS": {}, "EW": {}}
    for result in results:
        entry = entry_for(result)
        if entry is None:
            continue
        for side in ("NS", "EW"):
            score = entry.side(side)
            if isinstance(score, Artificial):
                continue
            for points, weight in components(score):
                tables[side][points] = tables[side].get(points, Fraction(0)) + Fraction(weight)
    return {
        side: [(points, weight) for points, weight in sorted(table.items(), reverse=True)]
        for side, table in tables.items()
    }


def scorecard(contestant: Contestant, session: Session | None = None) -> list[dict[str, Any]]:
    """The contestant's boards: its direction, the result, and its board score."""
    results = (
        Result.objects.filter(Q(ns=contestant) | Q(ew=contestant))
        .select_related("board__session", "ns", "ew", "table", "effective", "board_score")
        .order_by("board__session__number", "board__number")
    )
    if session is not None:
        results = results.filter(board__session=session)
    rows: list[dict[str, Any]] = []
    imps = team_imps(results) if contestant.kind == Contestant.Kind.TEAM else {}
    for result in results:
        side = "NS" if result.ns_id == contestant.pk else "EW"
        board_score = getattr(result, "board_score", None) if _has(result, "board_score") else None
        if result.pk in imps:  # a team's board: its IMPs in the match, both rooms compared
            rows.append(_team_row(result, side, imps[result.pk][0 if side == "NS" else 1]))
            continue
        rows.append(
            {
                "result": result,
                "side": side,
                "opponent": result.ew if side == "NS" else result.ns,
                "points": None if result.score_ns is None else (result.score_ns if side == "NS" else -result.score_ns),
                "score": getattr(board_score, "ns" if side == "NS" else "ew", None) if board_score else None,
                "percent": getattr(board_score, "ns_percent" if side == "NS" else "ew_percent", None)
                if board_score
                else None,
                "effective": result.effective if _has(result, "effective") else None,
            }
        )
    return rows


def _team_row(result: Result, side: str, imps: Any) -> dict[str, Any]:
    return {
        "result": result,
        "side": side,
        "opponent": result.ew if side == "NS" else result.ns,
        "points": None if result.score_ns is None else (result.score_ns if side == "NS" else -result.score_ns),
        "score": imps,
        "percent": None,
        "effective": result.effective if _has(result, "effective") else None,
    }


def _has(result: Result, relation: str) -> bool:
    try:
        return getattr(result, relation) is not None
    except Exception:  # noqa: BLE001 - a missing one-to-one raises its own DoesNotExist
        return False


def score_changes(contestant: Contestant) -> list[tuple[ScoreChange, str, str]]:
    """Every logged change to a result the contestant played, oldest first, with the side it
    sat, so each can be explained from its point of view."""
    changes = (
        ScoreChange.objects.filter(Q(result__ns=contestant) | Q(result__ew=contestant))
        .select_related("result__board", "changed_by")
        .order_by("changed_at", "pk")
    )
    unit = score_unit(contestant.event)
    return [(change, "NS" if change.result.ns_id == contestant.pk else "EW", unit) for change in changes]


def score_unit(event: Event) -> str:
    if event.kind in (Event.Kind.MP_PAIRS, Event.Kind.INDIVIDUAL):
        # Translators: short for matchpoints, a column heading and a unit ("4 -> 4.5 MP").
        return _("MP")
    return _("IMPs")


def standings(event: Event, session: Session | None = None) -> QuerySet[Standing]:
    return (
        Standing.objects.filter(event=event, session=session)
        .select_related("contestant")
        .prefetch_related("contestant__members")
        .order_by("field", "position", "contestant__section", "contestant__number", "-contestant__direction")
    )


def session_clocks(sessions: Iterable[Session | None]) -> dict[int, dict[str, Any]]:
    """{session id: {"official_score_at", "appeal_deadline", "correction_deadline",
    "recalculation_pending"}} for many sessions in a fixed number of queries (the latest
    posting of each, the pending recalculations, and each tournament's regulations once), where
    Session.official_score_at and its deadlines cost queries per session. The deadlines are
    Session.appeal_deadline()'s and correction_deadline()'s: ``scoring.deadlines.deadline``."""
    from django.db.models import Max

    from scoring.models import OfficialScorePosting

    known = [s for s in sessions if s is not None]
    ids = {s.pk for s in known}
    posted = dict(
        OfficialScorePosting.objects.filter(session_id__in=ids, checkable=True)
        .values("session_id")
        .annotate(at=Max("posted_at"))
        .values_list("session_id", "at")
    )
    pending = recalculation_pending(known)
    regulations: dict[int, dict[str, Any]] = {}
    clocks: dict[int, dict[str, Any]] = {}
    for session in known:
        at = posted.get(session.pk)
        clocks[session.pk] = {
            "official_score_at": at,
            "appeal_deadline": None,
            "correction_deadline": None,
            "recalculation_pending": session.pk in pending,
        }
        if at is None:
            continue
        tournament = session.event.tournament
        if tournament.pk not in regulations:
            regulations[tournament.pk] = tournament.regulations()
        rules = regulations[tournament.pk]
        clocks[session.pk]["appeal_deadline"] = deadline(at, rules, "appeal")
        clocks[session.pk]["correction_deadline"] = deadline(at, rules, "correction")
    return clocks


def recalculation_pending(sessions: Iterable[Session]) -> set[int]:
    """{session id: True} for the sessions with a recalculation no worker has finished."""
    from scoring.recalculation import pending_sessions

    return pending_sessions([s.pk for s in sessions])


def match_results(event: Event) -> QuerySet[Match]:
    return (
        Match.objects.filter(round__session__event=event)
        .select_related("home", "away", "round__session", "score")
        .order_by("round__session__number", "round__number", "open_room__number")
    )


def session_matches(session: Session) -> QuerySet[Match]:
    return (
        Match.objects.filter(round__session=session)
        .select_related("home", "away", "open_room", "closed_room", "round")
        .order_by("round__number", "open_room__number")
    )


def readable_authorities(user: AnyUser) -> QuerySet[RegulatingAuthority]:
    """The regulating authorities whose regulations ``user`` may read: every one for a
    superuser, else those the user audits (core.policy, "view_settings")."""
    return policy.visible(user, "view_settings", RegulatingAuthority.objects.all())


def live_version(tournaments: Iterable[int] | QuerySet[Tournament]) -> str:
    """What a live page of these tournaments shows has this version (core/live.py): the last
    audited change of any of them (every write of the record, a ruling or an appeal is audited
    with its tournament) and the state of their recalculations (the standings move when a
    worker finishes, after the change). Two queries, however many tournaments and rows."""
    ids = tournaments.values("pk") if isinstance(tournaments, QuerySet) else list(tournaments)
    audited = AuditEntry.objects.filter(tournament_id__in=ids).aggregate(last=Max("sequence"))["last"]
    work = RecalculationRequest.objects.filter(board__session__event__tournament__in=ids).aggregate(
        last=Max("pk"), done=Max("finished_at"), waiting=Count("pk", filter=Q(finished_at__isnull=True))
    )
    done = work["done"].isoformat() if work["done"] else "-"
    return f"{audited or 0}:{work['last'] or 0}:{done}:{work['waiting']}"


def record_version(user: AnyUser, records: QuerySet[Any], pk: Any, path: str) -> str | None:
    """``live_version`` of the tournament of record ``pk`` of ``records``, whose tournament is at
    lookup ``path`` ("session__event__tournament"), if ``user`` may read that tournament; None if
    not (core/live.py answers 404). Three queries."""
    readable = records.filter(**{f"{path}__in": visible_tournaments(user)})
    tournament = readable.filter(pk=pk).values_list(path, flat=True).first()
    return None if tournament is None else live_version([tournament])


def tournaments_version(user: AnyUser) -> str:
    """``live_version`` of every tournament ``user`` may read (the desk, "waiting for you")."""
    return live_version(visible_tournaments(user))


def event_version(user: AnyUser, pk: Any) -> str | None:
    """The version of an event's standings, page and API (``record_version``): its tournament's."""
    return record_version(user, Event.objects.all(), pk, "tournament")


def board_version(user: AnyUser, pk: Any) -> str | None:
    """The version of a board's traveller, page and API (``record_version``): its tournament's."""
    return record_version(user, Board.objects.all(), pk, "session__event__tournament")


def audience(user: AnyUser, records: QuerySet[Any], pk: Any, path: str) -> str:
    """What ``user`` is to the tournament of record ``pk`` of ``records`` (at lookup ``path``, as
    ``record_version``), in as much as a page of that tournament may differ between two readers:
    a shared render serves every reader of the same audience (core/renders.py). The superuser and
    staff flags, the roles the header names, the places at the tournament (official in which roles,
    auditor of its authority, entrant), and whether the reader audits anywhere (the header's link
    to the national body). Four queries."""
    if not user.is_authenticated:
        return "-"
    tournament = path if path != "pk" else ""
    row = (
        records.filter(pk=pk)
        .values_list(tournament or "pk", f"{tournament}__authority" if tournament else "authority")
        .first()
    )
    if row is None:
        return "-"
    tournament_id, authority_id = row
    officiating = sorted(
        set(TournamentOfficial.objects.filter(user=user, tournament_id=tournament_id).values_list("role", flat=True))
    )
    auditing = set(user.auditing.values_list("authority_id", flat=True))
    entrant = Contestant.objects.filter(members__user=user, event__tournament_id=tournament_id).exists()
    return "|".join(
        [
            f"superuser={user.is_superuser}",
            f"staff={user.is_staff}",
            "roles=" + ",".join(sorted(roles.roles_of(user))),
            "officiating=" + ",".join(officiating),
            f"auditor={authority_id in auditing}",
            f"audits={bool(auditing)}",
            f"entrant={entrant}",
            "regulations=" + renders.stamp(f"authority:{authority_id}"),
        ]
    )
