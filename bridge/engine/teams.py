"""Team forms beyond IMPs and VPs: board-a-match, knockout matches, total points (Law 78C),
and the Law 12C2(c) session rule in its IMP form.

A team board has two rooms: the home team sits N-S in the open room and E-W in the closed
room. Each room is an :class:`~bridge.engine.scores.Entry` (or a bare score, balanced). Each
team is scored from its own two seats (its N-S score in one room against its E-W pair's score
in the other), so split scores need not balance. Weighted scores are scored component by
component and then weighted (Law 12C1c), never by weighting the points first, except at total
points where the unit is the point and the two are the same. A redress (Law 12C1b) gives the
non-offenders their table result plus the damage, the offenders the result without the
infraction, as at IMPs. See docs/scoring.md, "Team forms".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .imps import as_entry, evaluate, penalty_imps, team_board
from .rounding import to_fraction
from .scores import Artificial, EngineInputError, Entry, TeamAdjustment

__all__ = [
    "BoardResult",
    "TeamMatch",
    "board_a_match_board",
    "board_a_match",
    "KnockoutMatch",
    "knockout_match",
    "total_points_board",
    "total_points",
    "ImpSession",
    "imp_session",
]

HALF = Fraction(1, 2)


@dataclass(frozen=True)
class BoardResult:
    """One team board in any unit: the home and away team's result (they need not balance)."""

    home: Fraction
    away: Fraction


Rooms = tuple[Entry, Entry]
Components = Sequence[tuple[int, Fraction]]


def _seats(open_room: object, closed_room: object) -> tuple[Entry, Entry, tuple[Rooms, Rooms]]:
    open_room = as_entry(open_room, "open room")
    closed_room = as_entry(closed_room, "closed room")
    # each team: (room where it sits N-S, room where it sits E-W)
    return open_room, closed_room, ((open_room, closed_room), (closed_room, open_room))


def _penalty_units(entry: Entry, side: str, top: int) -> Fraction:
    """A procedural penalty on ``side`` of ``entry`` in board units (a percentage of ``top``)."""
    penalty = entry.penalty(side)
    if penalty is None:
        return Fraction(0)
    return Fraction(penalty.amount) * top / 100 if penalty.percent else Fraction(penalty.amount)


# --- Board-a-match --------------------------------------------------------------------------


def _bam_rate(own: Components, other: Components) -> Fraction:
    """Weighted board-a-match result of ``own`` against ``other``: 1 won, 1/2 tied, 0 lost."""
    total = Fraction(0)
    for points, weight in own:
        for other_points, other_weight in other:
            difference = points - other_points
            total += weight * other_weight * (1 if difference > 0 else HALF if difference == 0 else 0)
    return total


def _artificial_share(score: Artificial, averages: Sequence[object]) -> Fraction:
    if score.percent is not None:
        return score.percent / 100
    plus, average, minus = (to_fraction(value) for value in averages)
    return {"AVE+": plus, "AVE": average, "AVE-": minus}[str(score.code)] / 100


def board_a_match_board(
    open_room: object, closed_room: object, *, averages: Sequence[object] = (60, 50, 40)
) -> BoardResult:
    """One board of a board-a-match: each team scores 1 for a won board, 1/2 tied, 0 lost.

    The home team wins the board when its N-S score in the open room is higher than the
    closed room's N-S score (its E-W pair's score there). Weighted scores: the weighted share
    of the component pairs won (plus half of those tied). A redress: the non-offenders' table
    result plus the damage, capped at 1. Artificial scores are their percentage of the board
    (``averages`` for AVE+, AVE, AVE-: 60/50/40 of the one point a board is worth); a team
    with an artificial seat gets the mean of its artificial seats. Procedural penalties
    (in board points, or a percentage of the board) are then deducted from that team only.
    """
    open_room, closed_room, teams = _seats(open_room, closed_room)
    values: list[Fraction] = []
    for ns_room, ew_room in teams:
        seats = [(ns_room, "NS"), (ew_room, "EW")]
        artificial = [
            _artificial_share(score, averages)
            for score in (room.raw(side) for room, side in seats)
            if isinstance(score, Artificial)
        ]
        if artificial:
            value = sum(artificial, Fraction(0)) / len(artificial)
        else:
            value = min(Fraction(1), evaluate([(room.raw(side), side) for room, side in seats], _bam_rate))
        value -= _penalty_units(ns_room, "NS", 1) + _penalty_units(ew_room, "EW", 1)
        values.append(value)
    return BoardResult(values[0], values[1])


@dataclass(frozen=True)
class TeamMatch:
    """A match in any unit: each board's result and each team's total."""

    boards: tuple[BoardResult, ...]
    home: Fraction
    away: Fraction


def board_a_match(boards: Iterable[tuple[object, object]], *, averages: Sequence[object] = (60, 50, 40)) -> TeamMatch:
    """Score a board-a-match session: ``boards`` is a list of (open_room, closed_room)."""
    scored = tuple(board_a_match_board(open_room, closed_room, averages=averages) for open_room, closed_room in boards)
    return TeamMatch(scored, sum((b.home for b in scored), Fraction(0)), sum((b.away for b in scored), Fraction(0)))


# --- Knockout ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class KnockoutMatch:
    """A knockout match: each board's IMPs, the carry-over and each team's total IMPs.

    ``winner`` is "home", "away" or None for a tie (the conditions of contest then decide:
    extra boards, or the team that won the earlier meeting).
    """

    boards: tuple[object, ...]
    carry_over: tuple[Fraction, Fraction]
    home: Fraction
    away: Fraction
    margin: Fraction
    winner: str | None


def knockout_match(
    boards: Iterable[tuple[object, object]],
    *,
    carry_over: Sequence[object] = (0, 0),
    average_non_balancing: bool = True,
    artificial_imps: object = 3,
    whole_imps: bool = False,
) -> KnockoutMatch:
    """Score a knockout match at IMPs with a carry-over.

    ``carry_over`` (home, away) are IMPs each team starts with (a fraction of an earlier
    result, as the conditions of contest say). With ``average_non_balancing`` (Law 86B, the
    default) a board whose two teams' results do not balance gives each team the average,
    home = (home - away) / 2; a regulating authority may specify otherwise (False: each team
    keeps its own result). Each team's total is its carry-over plus the IMPs it won on the
    boards (its positive results, as on a scorecard); the winner has the larger total.
    """
    carry_home, carry_away = (to_fraction(v) for v in carry_over)
    if carry_home < 0 or carry_away < 0:
        raise EngineInputError("match", "carry_over", "a carry-over is IMPs a team starts with: 0 or more")
    scored = tuple(
        team_board(
            open_room,
            closed_room,
            knockout=average_non_balancing,
            artificial_imps=artificial_imps,
            whole_imps=whole_imps,
        )
        for open_room, closed_room in boards
    )
    # each team's column on the scorecard: its carry-over and the IMPs it won on each board
    home = carry_home + sum((b.home for b in scored if b.home > 0), Fraction(0))
    away = carry_away + sum((b.away for b in scored if b.away > 0), Fraction(0))
    margin = home - away
    winner = "home" if margin > 0 else "away" if margin < 0 else None
    return KnockoutMatch(scored, (carry_home, carry_away), home, away, margin, winner)


# --- Total points (Law 78C) ------------------------------------------------------------------


def _points_rate(own: Components, other: Components) -> Fraction:
    """Total points: own minus other, weighted (linear, so the same as weighting first)."""
    return sum((points * weight for points, weight in own), Fraction(0)) - sum(
        (points * weight for points, weight in other), Fraction(0)
    )


def total_points_board(open_room: object, closed_room: object) -> BoardResult:
    """One board at total points (Law 78C): each team's net points from its own two seats.

    A redress gives the non-offenders the table result plus the damage in points. An
    artificial score has no meaning in points and is refused: assign a score instead.
    Procedural penalties are in points.
    """
    open_room, closed_room, teams = _seats(open_room, closed_room)
    values: list[Fraction] = []
    for ns_room, ew_room in teams:
        given: list[Fraction] = []
        for room, side in ((ns_room, "NS"), (ew_room, "EW")):
            score = room.raw(side)
            if isinstance(score, Artificial):
                raise EngineInputError(room.name, side.lower(), f"{score} has no value at total points: assign a score")
            if isinstance(score, TeamAdjustment):  # Law 86D: the board's result in total points
                if score.unit != "total_points":
                    raise EngineInputError(room.name, side.lower(), f"{score} is not a score at total points")
                given.append(score.amount if side == "NS" else -score.amount)
        if given:
            value = sum(given, Fraction(0)) / len(given)
        else:
            value = evaluate([(ns_room.raw("NS"), "NS"), (ew_room.raw("EW"), "EW")], _points_rate)
        value -= penalty_imps(ns_room, "NS", ns_room.name) + penalty_imps(ew_room, "EW", ew_room.name)
        values.append(value)
    return BoardResult(values[0], values[1])


def total_points(boards: Iterable[tuple[object, object]]) -> TeamMatch:
    """Score a match at total points: ``boards`` is a list of (open_room, closed_room)."""
    scored = tuple(total_points_board(open_room, closed_room) for open_room, closed_room in boards)
    return TeamMatch(scored, sum((b.home for b in scored), Fraction(0)), sum((b.away for b in scored), Fraction(0)))


# --- The session rule at IMPs (Law 12C2c) -----------------------------------------------------


@dataclass(frozen=True)
class ImpSession:
    """One side's IMPs over a session: ``boards`` as counted, ``total``, and ``real_average``,
    its mean IMPs per real board (None without any)."""

    boards: tuple[Fraction, ...]
    total: Fraction
    real_average: Fraction | None


def imp_session(boards: Iterable[tuple[object, str]], *, plus: object = 3, minus: object = 3) -> ImpSession:
    """Apply Law 12C2(c) in its IMP form to one side's session.

    ``boards`` are (imps, kind) with kind "real", "AVE+", "AVE" or "AVE-". Average plus is
    +``plus`` IMPs, but a side whose real boards in the session averaged more gets that
    average instead; average minus is -``minus``, or the side's own average when that is
    lower. AVE is 0. The average does not depend on the artificial boards.
    """
    rows = []
    for imps, kind in boards:
        if kind not in ("real", "AVE+", "AVE", "AVE-"):
            raise EngineInputError("session", "kind", f"{kind!r} is not real, AVE+, AVE or AVE-")
        rows.append((to_fraction(imps), kind))
    real = [imps for imps, kind in rows if kind == "real"]
    average = sum(real, Fraction(0)) / len(real) if real else None
    counted: list[Fraction] = []
    for imps, kind in rows:
        if kind == "AVE+":
            counted.append(to_fraction(plus) if average is None else max(to_fraction(plus), average))
        elif kind == "AVE-":
            counted.append(-to_fraction(minus) if average is None else min(-to_fraction(minus), average))
        elif kind == "AVE":
            counted.append(Fraction(0))
        else:
            counted.append(imps)
    return ImpSession(tuple(counted), sum(counted, Fraction(0)), average)
