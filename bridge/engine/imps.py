"""IMPs (Law 78B): the scale, team boards, cross-IMPs and Butler.

Scores are :class:`~bridge.engine.scores.Entry` objects (or bare scores, meaning a
balanced result). A weighted score is converted to IMPs component by component and then
weighted, never the points first. A redress (Law 12C1b) gives the non-offenders their table
result plus the damage in IMPs, the offenders the result without the infraction. Artificial
scores are worth ``artificial_imps`` (3 unless regulated otherwise, Law 86A).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from itertools import repeat
from math import ceil
from operator import add, attrgetter
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from .rounding import round_half_away, round_step
from .scores import Artificial, EngineInputError, Entry, Redress, TeamAdjustment, Weighted, components
from .vp import to_decimal, vp_for_margin

__all__ = [
    "imps",
    "BoardIMPs",
    "team_board",
    "MatchScore",
    "team_match",
    "cross_imps",
    "ButlerScore",
    "butler",
    "butler_datum",
    "butler_trim_count",
    "BUTLER_TRIMS",
    "artificial_value",
]

# Lowest point difference for 1, 2, ... 24 IMPs (Law 78B).
_IMP_STEPS = (
    20,
    50,
    90,
    130,
    170,
    220,
    270,
    320,
    370,
    430,
    500,
    600,
    750,
    900,
    1100,
    1300,
    1500,
    1750,
    2000,
    2250,
    2500,
    3000,
    3500,
    4000,
)
_STEPS_ARRAY = np.array(_IMP_STEPS, dtype=np.int64)


def imps(points: int) -> int:
    """IMPs for a point difference; the sign follows the difference (0-10 -> 0, 4000+ -> 24).

    Differences of real scores are multiples of 10; anything in a gap of the table (a
    datum of 345, say) takes the band below: 15 -> 0, 45 -> 1.
    """
    size = abs(points)
    value = bisect_right(_IMP_STEPS, size)
    return value if points >= 0 else -value


def artificial_value(score: Artificial, artificial_imps: Any = 3, where: object = "", field: str = "") -> Fraction:
    """IMPs for an artificial score: AVE+ +a, AVE 0, AVE- -a. A percentage is refused."""
    if score.code is None:
        raise EngineInputError(where, field, f"{score} is a percentage: at IMPs use AVE+, AVE or AVE-")
    return Fraction({"AVE+": artificial_imps, "AVE": 0, "AVE-": -artificial_imps}[score.code])


def as_entry(value: object, name: str) -> Entry:
    return value if isinstance(value, Entry) else Entry(name, value, label=name)


def evaluate(seats: list[tuple[object, str]], rate: Callable[..., Fraction]) -> Fraction:
    """``rate`` applied to real scores, resolving any redress among ``seats``.

    ``seats`` is a list of (score, side it stands for); ``rate`` takes one components tuple
    per seat. A redress gives its non-offending side T + max(0, value(Q) - value(P)) and its
    offending side Q.
    """
    for k, (score, side) in enumerate(seats):
        if isinstance(score, Redress):

            def using(replacement: object, k: int = k, side: str = side) -> Fraction:
                return evaluate(seats[:k] + [(replacement, side)] + seats[k + 1 :], rate)

            if side != score.non_offending:
                return using(score.without_infraction)
            damage = using(score.without_infraction) - using(score.normal_play)
            return using(score.table) + max(Fraction(0), damage)
    return rate(*(components(score) for score, _ in seats))


def _weighted_imps(own: tuple[tuple[Any, Fraction], ...], other: tuple[tuple[Any, Fraction], ...]) -> Fraction:
    """IMPs of own - other, weighting each pair of components (Law 12C1c at IMPs)."""
    total = Fraction(0)
    for points, weight in own:
        for other_points, other_weight in other:
            total += weight * other_weight * imps(points - other_points)
    return total


def penalty_imps(entry: Entry, side: str, where: str) -> Fraction:
    penalty = entry.penalty(side)
    if penalty is None:
        return Fraction(0)
    if penalty.percent:
        raise EngineInputError(where, f"penalty.{side.lower()}", "at IMPs a penalty is in IMPs, not a percentage")
    return penalty.amount


def _adjustment_imps(score: TeamAdjustment, side: str, where: str) -> Fraction:
    """Law 86D: the IMPs an adjusted score in IMPs gives the team in ``side``'s seat (N-S's point
    of view, as every score: E-W's team gains the opposite)."""
    if score.unit != "imps":
        raise EngineInputError(where, side.lower(), f"{score} is not a score at IMPs: give the adjustment in IMPs")
    return score.amount if side == "NS" else -score.amount


@dataclass(frozen=True)
class BoardIMPs:
    """A team board: IMPs for the home and away team (they need not balance)."""

    home: Fraction
    away: Fraction


def team_board(
    open_room: object,
    closed_room: object,
    *,
    artificial_imps: object = 3,
    knockout: bool = False,
    whole_imps: bool = False,
) -> BoardIMPs:
    """IMPs for one board of a team match.

    The home team sits N-S in ``open_room`` and E-W in ``closed_room``; each room is an
    :class:`Entry` or a bare score (balanced). Each team is scored from its own two seats: its
    N-S score against the other room's score for its E-W pair. When either of a team's seats
    has an artificial score or an adjusted score in IMPs (Law 86D: ``{"imps": n}``, N-S's
    point of view), the team gets the mean of those seats' IMPs. With
    ``knockout`` (Law 86B) non-balancing results are averaged: home = (home - away) / 2.
    ``whole_imps`` rounds each team's result to whole IMPs (halves away from zero) first.
    Procedural penalties (in IMPs) are then deducted from the penalised team only.
    """
    open_room = as_entry(open_room, "open room")
    closed_room = as_entry(closed_room, "closed room")

    def team(ns_room: Entry, ew_room: Entry) -> Fraction:
        seats = [(ns_room, "NS"), (ew_room, "EW")]
        given = [
            artificial_value(cast("Artificial", room.raw(side)), artificial_imps, room.name, side.lower())
            if isinstance(room.raw(side), Artificial)
            else _adjustment_imps(cast("TeamAdjustment", room.raw(side)), side, room.name)
            for room, side in seats
            if isinstance(room.raw(side), Artificial | TeamAdjustment)
        ]
        if given:
            return sum(given, Fraction(0)) / len(given)
        value = evaluate([(room.raw(side), side) for room, side in seats], _weighted_imps)
        return round_half_away(value) if whole_imps else value

    home, away = team(open_room, closed_room), team(closed_room, open_room)
    if knockout and home != -away:
        home = (home - away) / 2
        away = -home
    home -= penalty_imps(open_room, "NS", open_room.name) + penalty_imps(closed_room, "EW", closed_room.name)
    away -= penalty_imps(closed_room, "NS", closed_room.name) + penalty_imps(open_room, "EW", open_room.name)
    return BoardIMPs(home, away)


@dataclass(frozen=True)
class MatchScore:
    """A team match: each board's IMPs, each team's net IMPs (its margin) and VPs."""

    boards: tuple[BoardIMPs, ...]
    home_imps: Fraction
    away_imps: Fraction
    home_vp: object
    away_vp: object
    scale: str
    scale_boards: int


def team_match(
    boards: Iterable[tuple[object, object]],
    *,
    vp_scale: Any = "wbf2013-20",
    scale_boards: int | None = None,
    vp_penalties: tuple[object, object] = (0, 0),
    **board_options: Any,
) -> MatchScore:
    """Score a team match: ``boards`` is a list of (open_room, closed_room) pairs.

    Each team's margin is the sum of its own board results, converted to VPs on its own (so a
    match with non-balancing boards may give VPs that do not add up to the maximum).
    ``scale_boards`` is the number of boards the VP scale is for (default: the boards given);
    ``vp_penalties`` (home, away) are deducted after the conversion. Other options go to
    :func:`team_board`.
    """
    scored = tuple(team_board(open_room, closed_room, **board_options) for open_room, closed_room in boards)
    home = sum((b.home for b in scored), Fraction(0))
    away = sum((b.away for b in scored), Fraction(0))
    count = scale_boards or len(scored)
    if count < 1:
        raise EngineInputError("match", "boards", "a match needs at least one board")
    home_vp = vp_for_margin(home, count, vp_scale) - to_decimal(vp_penalties[0])
    away_vp = vp_for_margin(away, count, vp_scale) - to_decimal(vp_penalties[1])
    return MatchScore(scored, home, away, home_vp, away_vp, getattr(vp_scale, "name", str(vp_scale)), count)


def _real_or_artificial(entries: Iterable[Entry], side: str) -> tuple[list[Entry], dict[object, Artificial]]:
    real: list[Entry] = []
    artificial: dict[object, Artificial] = {}
    for entry in entries:
        score = entry.raw(side)
        if isinstance(score, Artificial):
            artificial[entry.id] = score
        else:
            real.append(entry)
    return real, artificial


def _plain_totals(own_points: Iterable[int], others: list[int]) -> dict[int, int]:
    """{points: sum of IMP(points - o) over o in ``others``} for each distinct own score.

    Integer counting over the IMP table's steps, O((n + m) log n) with m distinct own scores:
    IMP(d) = the number of steps <= |d|, signed, so the sum over the others is, for every
    step, the number of others at least that far below minus those at least that far above
    (``searchsorted`` on the sorted others; an equal score is 0 IMPs and drops out).
    """
    if not others:
        return {p: 0 for p in own_points}
    values = np.sort(np.asarray(others, dtype=np.int64))
    own = np.unique(np.asarray(list(own_points), dtype=np.int64))
    below = np.searchsorted(values, own[:, None] - _STEPS_ARRAY[None, :], side="right").sum(axis=1)
    above = (len(values) - np.searchsorted(values, own[:, None] + _STEPS_ARRAY[None, :], side="left")).sum(axis=1)
    return dict(zip(own.tolist(), (below - above).tolist()))


_PLAIN, _ID = attrgetter("plain"), attrgetter("id")


def _all_plain(entries: list[Entry]) -> list[int] | None:
    """The points of every entry when each is a plain balanced score, else None."""
    points: list[int | None] = list(map(_PLAIN, entries))
    return None if None in points else cast("list[int]", points)


def _plain_array(entries: list[Entry]) -> npt.NDArray[np.int64] | None:
    """The points of every entry as an array when each is a plain balanced score, else None
    (one pass: numpy refuses the None of an entry that is not plain)."""
    try:
        return np.fromiter(map(_PLAIN, entries), dtype=np.int64, count=len(entries))
    except (TypeError, OverflowError):
        return None


# Every IMP value as a Fraction, made once: -24 ... 24.
_IMP_FRACTIONS = {value: Fraction(value) for value in range(-24, 25)}
# (N-S, E-W) for each N-S IMP value
_IMP_PAIRS = {value: (_IMP_FRACTIONS[value], _IMP_FRACTIONS[-value]) for value in range(-24, 25)}
# The (N-S, E-W) IMP pair for every point difference from -4000 to 4000, at index difference + 4000
# (4000 and more is 24): a Butler board is one clip and one lookup.
_PAIR_BY_DIFFERENCE = np.empty(8001, dtype=object)
_PAIR_BY_DIFFERENCE[:] = [_IMP_PAIRS[imps(difference)] for difference in range(-4000, 4001)]


def _plain_cross_imps(entries: list[Entry], points: list[int], mode: str) -> dict[object, tuple[Fraction, ...]]:
    """Cross-IMPs of a board of plain balanced scores: one count per distinct score."""
    values = np.asarray(points, dtype=np.int64)
    distinct, inverse = np.unique(values, return_inverse=True)
    ordered = np.sort(values)
    below = np.searchsorted(ordered, distinct[:, None] - _STEPS_ARRAY[None, :], side="right").sum(axis=1)
    above = (len(ordered) - np.searchsorted(ordered, distinct[:, None] + _STEPS_ARRAY[None, :], side="left")).sum(
        axis=1
    )
    divisor = len(points) - 1 if mode == "mean" and len(points) > 1 else 1
    pairs = [(Fraction(total, divisor), Fraction(-total, divisor)) for total in (below - above).tolist()]
    return dict(zip(map(_ID, entries), map(pairs.__getitem__, inverse.tolist())))


def cross_imps(
    entries: Iterable[Entry], *, mode: str = "mean", artificial_imps: Any = 3
) -> dict[object, tuple[Fraction, ...]]:
    """Cross-IMPs: each result against every other real result on the board.

    Return {id: (ns, ew)} of Fractions: the mean (``mode="mean"``) or the sum (``"sum"``) of
    IMP(own - other) over the other real results, each direction against its own direction.
    Artificial scores get +-``artificial_imps`` (in both modes) and take no part.

    Plain scores are counted against the sorted plain scores of the other results in
    O(n log n) (:func:`_plain_totals`); weighted scores and redress cost a pass over the board
    each (component by component, as at teams).
    """
    if mode not in ("mean", "sum"):
        raise EngineInputError("board", "mode", f"{mode!r} is not 'mean' or 'sum'")
    entries = list(entries)
    plain = _all_plain(entries)
    if plain is not None:
        return _plain_cross_imps(entries, plain, mode)
    result: dict[object, list[Fraction]] = {entry.id: [Fraction(0), Fraction(0)] for entry in entries}
    made: dict[tuple[int, int], Fraction] = {}

    def fraction(numerator: int, denominator: int) -> Fraction:
        key = (numerator, denominator)
        value = made.get(key)
        if value is None:
            value = made[key] = Fraction(numerator, denominator)
        return value

    for k, side in enumerate(("NS", "EW")):
        sign = 1 if side == "NS" else -1

        def rate(
            own: tuple[tuple[Any, Fraction], ...], other: tuple[tuple[Any, Fraction], ...], sign: int = sign
        ) -> Fraction:
            # the sign is applied inside so that a redress's damage is seen from this side
            return sign * _weighted_imps(own, other)

        real, artificial = _real_or_artificial(entries, side)
        for entry_id, score in artificial.items():
            result[entry_id][k] = artificial_value(score, artificial_imps, f"result {entry_id}", side.lower())
        # what each result stands for in this direction's comparison: an int or a Weighted
        stands = [entry.side(side) for entry in real]
        plain_others = [v for v in stands if type(v) is int]
        other_weighted = [(entry, v) for entry, v in zip(real, stands) if type(v) is not int]
        plain_own = cast("set[int]", {entry.raw(side) for entry in real if type(entry.raw(side)) is int})
        totals = _plain_totals(plain_own, plain_others)
        divisor = len(real) - 1 if mode == "mean" and len(real) > 1 else 1
        for entry in real:
            own = entry.raw(side)
            if type(own) is int:
                plain_total = sign * totals[own]  # its own plain score is 0 IMPs against itself
                if other_weighted:
                    own_components = ((own, Fraction(1)),)
                    extra = sum(
                        (
                            _weighted_imps(own_components, components(v))
                            for other, v in other_weighted
                            if other is not entry
                        ),
                        Fraction(0),
                    )
                    result[entry.id][k] = (plain_total + sign * extra) / divisor
                else:
                    result[entry.id][k] = fraction(plain_total, divisor)
                continue
            total = Fraction(0)
            for other in real:
                if other is not entry:
                    total += evaluate([(own, side), (other.side(side), "other")], rate)
            result[entry.id][k] = total / divisor
    return {entry_id: tuple(pair) for entry_id, pair in result.items()}


# The Butler datum's trimming: how many results are dropped at each end of a board of n real
# results (a regulating-authority setting; see docs/scoring.md, "Butler datum").
BUTLER_TRIMS = {
    "none": "no result dropped",
    "one-each-end": "one result dropped at each end (with more than 3 results)",
    "one-each-end-from-3": "one result dropped at each end from 3 results on (Ruter's IMP;Butler-2)",
    "field-size": "ceil((n - 10) / 15) + 1 at each end with more than 3 results: 1 up to 10 "
    "results, 2 up to 25, 3 up to 40 ... (the bridge-scorer package's rule)",
    "N%": 'N percent of the results at each end, rounded down (e.g. "10%")',
    "k": "a whole number k: k results at each end (with more than 3 results)",
}


def butler_trim_count(drop: object, count: int) -> int:
    """Results dropped at each end of ``count`` real results under the convention ``drop``.

    ``drop`` is a whole number k, "none", "one-each-end", "field-size" or a percentage such as
    "10%" (see :data:`BUTLER_TRIMS`). Nothing is dropped with 3 or fewer results, nor when
    dropping would leave nothing, except under "one-each-end-from-3" (three results: the middle
    one is the datum).
    """
    if isinstance(drop, bool):
        raise EngineInputError("board", "drop", f"{drop!r} is not a Butler trimming")
    if isinstance(drop, str) and drop.strip().lstrip("-").isdigit():
        drop = int(drop)
    if isinstance(drop, int):
        if drop < 0:
            raise EngineInputError("board", "drop", f"{drop} is below 0")
        each = drop
    elif drop == "none":
        each = 0
    elif drop == "one-each-end":
        each = 1
    elif drop == "one-each-end-from-3":
        return 1 if count >= 3 else 0  # Ruter drops the top and bottom even of three results
    elif drop == "field-size":
        each = ceil((count - 10) / 15) + 1 if count > 3 else 0
    elif isinstance(drop, str) and drop.endswith("%") and drop[:-1].replace(".", "", 1).isdigit():
        each = int(Fraction(drop[:-1]) * count / 100)
    else:
        raise EngineInputError(
            "board",
            "drop",
            f"{drop!r} is not one of: a whole number, "
            f"{', '.join(k for k in BUTLER_TRIMS if k not in ('k', 'N%'))} or a percentage like 10%",
        )
    if count <= 3 or 2 * each >= count:
        return 0
    return each


def butler_datum(points: Iterable[Any], *, drop: object = 1, step: Any = 10, half: str = "away") -> Fraction:
    """The Butler datum: the mean of ``points`` after dropping results at each end as the
    convention ``drop`` says (:func:`butler_trim_count`), rounded to ``step`` with the named
    rule for an exact half (see :func:`~bridge.engine.rounding.round_step`)."""
    points = list(points)
    if not points:
        raise EngineInputError("board", "results", "no real results to make a datum from")
    if half not in ("up", "down", "away", "even"):
        raise ValueError(f"rounding of a half is one of up, down, away, even, not {half!r}")
    each = butler_trim_count(drop, len(points))
    if type(step) is int and all(type(p) is int for p in points):
        values = sorted(points)  # plain scores: integers throughout
        if each:
            values = values[each:-each]
        return Fraction(_round_int_mean(sum(values), len(values), step, half) * step)
    values = sorted(Fraction(p) for p in points)
    if each:
        values = values[each:-each]
    return round_step(Fraction(sum(values)) / len(values), step, half)


def _round_int_mean(total: int, count: int, step: int, half: str) -> int:
    """round_step(total / count, step, half) / step for integers, without Fractions."""
    unit = count * step
    low, rest = divmod(total, unit)  # floor, so rest >= 0
    if 2 * rest != unit:
        return low + (2 * rest > unit)
    if half == "up":
        return low + 1
    if half == "down":
        return low
    if half == "away":
        return low + 1 if total > 0 else low
    if half == "even":
        return low + (low % 2)
    raise ValueError(f"rounding of a half is one of up, down, away, even, not {half!r}")


# Up to this many results a plain Butler board is cheaper in Python's own sort and lookups than
# in numpy's (whose fixed cost per call dominates a small board).
_SMALL_BOARD = 300
_PAIRS_BY_DIFFERENCE = tuple(_PAIR_BY_DIFFERENCE.tolist())


def _plain_butler(entries: list[Entry], drop: object, step: int, half: str) -> ButlerScore | None:
    """Butler on a small board of plain balanced scores (at most ``_SMALL_BOARD``), in C-level
    loops over Python ints: the datum from the sorted points, each result's IMP pair by one
    lookup; None when an entry is not plain or a difference from the datum is past the IMP
    table's 4,000 (the array road below clips those)."""
    points: list[int | None] = list(map(_PLAIN, entries))
    if None in points:
        return None
    if half not in ("up", "down", "away", "even"):
        raise ValueError(f"rounding of a half is one of up, down, away, even, not {half!r}")
    ordered = sorted(cast("list[int]", points))
    count = len(ordered)
    each = butler_trim_count(drop, count)
    kept = ordered[each : count - each] if each else ordered
    whole = _round_int_mean(sum(kept), len(kept), step, half) * step
    if ordered[0] - whole < -4000 or ordered[-1] - whole > 4000:
        return None
    pairs = map(_PAIRS_BY_DIFFERENCE.__getitem__, map(add, cast("list[int]", points), repeat(4000 - whole)))
    return ButlerScore(Fraction(whole), dict(zip(map(_ID, entries), pairs)))


@dataclass(frozen=True)
class ButlerScore:
    """Butler IMPs: the ``datum`` and {id: (ns, ew)} of Fractions in ``scores``."""

    datum: Fraction
    scores: dict[object, tuple[Fraction, ...]]


def butler(
    entries: Iterable[Entry], *, drop: object = 1, step: Any = 10, half: str = "away", artificial_imps: Any = 3
) -> ButlerScore:
    """Score a board against a datum (see :func:`butler_datum`; ``drop`` is the trimming
    convention, :data:`BUTLER_TRIMS`).

    The datum is made from each real result's N-S score (a weighted score counts as its
    weighted mean, a redress as the table result; artificial scores are left out). N-S score
    IMP(score - datum), E-W IMP(datum - score), weighted and redress as at teams.
    """
    entries = list(entries)
    if entries and type(step) is int and len(entries) <= _SMALL_BOARD:
        plain = _plain_butler(entries, drop, step, half)
        if plain is not None:
            return plain
    values = _plain_array(entries) if entries and type(step) is int else None
    if values is not None:
        # integers throughout: the datum from the sorted array, IMPs by one table lookup
        if half not in ("up", "down", "away", "even"):
            raise ValueError(f"rounding of a half is one of up, down, away, even, not {half!r}")
        count = len(entries)
        each = butler_trim_count(drop, count)
        kept = np.sort(values)[each : count - each] if each else values
        whole = _round_int_mean(int(kept.sum()), len(kept), step, half) * step
        pairs = _PAIR_BY_DIFFERENCE[np.clip(values - whole, -4000, 4000) + 4000].tolist()
        return ButlerScore(Fraction(whole), dict(zip(map(_ID, entries), pairs)))
    real, _ = _real_or_artificial(entries, "NS")
    datum_points: list[Any] = []
    for entry in real:
        score = entry.raw("NS")
        score = score.table if isinstance(score, Redress) else score
        datum_points.append(score if isinstance(score, int) else cast("Weighted", score).mean)
    datum = butler_datum(datum_points, drop=drop, step=step, half=half)
    datum_score = ((datum, Fraction(1)),)
    whole_datum = int(datum) if datum.denominator == 1 else None
    made: dict[int, Fraction] = {}
    scores: dict[object, tuple[Fraction, ...]] = {}
    for entry in entries:
        pair: list[Fraction] = []
        for side, sign in (("NS", 1), ("EW", -1)):
            score = entry.raw(side)
            if type(score) is int and whole_datum is not None:
                value = sign * imps(score - whole_datum)  # plain: one IMP lookup
                fraction = made.get(value)
                if fraction is None:
                    fraction = made[value] = Fraction(value)
                pair.append(fraction)
            elif isinstance(score, Artificial):
                pair.append(artificial_value(score, artificial_imps, entry.name, side.lower()))
            else:
                pair.append(evaluate([(score, side)], lambda own, sign=sign: sign * _weighted_imps(own, datum_score)))
        scores[entry.id] = tuple(pair)
    return ButlerScore(datum, scores)
