"""Matchpoints (Law 78A) on per-direction frequency tables, with exact arithmetic.

Each direction (N-S, E-W) has its own frequency table; an entry in it may carry a fractional
weight (the parts of a weighted score). A result scores 2 for each unit of weight it beats and
1 for each unit it ties, never counting itself: the 2/1 scale, top 2(n-1). The 1/half scale
is the same halved.

Artificial scores take no part in the comparison; the real results are scaled with Neuberg's
formula ``(M + 1) * E / A - 1`` to the number of results expected, as are the groups of a
fouled board (Law 87). See docs/scoring.md for every choice made here.

Main entry points: :func:`score_board` for one board, :func:`session_score` for a side's
session with the Law 12C2c rule for average plus / average minus.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate, repeat
from math import lcm
from operator import add, attrgetter, sub
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from .rounding import Number
from .scores import Artificial, EngineInputError, Entry, Redress, Weighted

__all__ = [
    "SCALES",
    "BoardScore",
    "PlainBoard",
    "SideBoard",
    "SessionScore",
    "neuberg",
    "score_board",
    "score_plain_board",
    "session_score",
]

# Divisor from the 2/1 scale: "1/half" gives 1 for a win and 1/2 for a tie.
SCALES = {"2/1": 1, "1/half": 2}
SMALL_GROUPS = (None, "acbl")
# How a board played fewer times than expected is brought to the full board: Neuberg's formula,
# or each missing result counted as an average one (a tie with every result: 1 on the 2/1 scale).
MISSING = ("neuberg", "average")


def neuberg(matchpoints: Number, results: int, expected: int) -> Fraction:
    """Neuberg's formula on the 2/1 scale: ``(M + 1) * E / A - 1``."""
    return (Fraction(matchpoints) + 1) * expected / results - 1


# Fractions are immutable: the values of one board are the values of the next board of the same
# size (0 ... 2(n-1) on the 2/1 scale), so they are made once per process, per denominator.
_SHARED: dict[int, dict[int, Fraction]] = {}
_SHARED_LIMIT = 200_000


def _shared_fractions(den: int) -> dict[int, Fraction]:
    table = _SHARED.get(den)
    if table is None or len(table) > _SHARED_LIMIT:
        if len(_SHARED) > 64:
            _SHARED.clear()
        table = _SHARED[den] = {}
    return table


class _Column:
    """One direction's matchpoints: integer numerators over a common denominator, with the
    few results that need their own value (artificial, redress, small groups) kept apart.

    Fractions are made only when values are read (and once per distinct value), which keeps
    a 1,000-result board cheap.
    """

    __slots__ = ("num", "den", "overrides", "_made", "points", "by_points")

    def __init__(
        self, num: list[int] | npt.NDArray[np.int64], den: int, overrides: dict[int, Fraction] | None = None
    ) -> None:
        self.num, self.den, self.overrides = num, den, overrides or {}
        self._made: dict[int, Fraction] | None = None
        self.points: list[int] = []
        self.by_points: dict[int, Fraction] | None = None

    @classmethod
    def plain(cls, points: list[int], table: dict[int, Fraction]) -> _Column:
        """A board of plain results: each result's value is that of its N-S score (``table``,
        one Fraction per distinct score)."""
        column = cls([], 1)
        column.points, column.by_points = points, table
        return column

    def __getitem__(self, i: int) -> Fraction:
        if self.by_points is not None:
            return self.by_points[self.points[i]]
        value = self.overrides.get(i)
        return value if value is not None else self._fraction(self.num[i])

    def _fraction(self, numerator: int) -> Fraction:
        if self._made is None:
            self._made = {}
            if isinstance(self.num, np.ndarray):
                self.num = self.num.tolist()  # Python ints from here on
            numerator = int(numerator)
        value = self._made.get(numerator)
        if value is None:
            value = self._made[numerator] = Fraction(numerator, self.den)
        return value

    def values(self) -> list[Fraction]:
        """Every value, in entry order."""
        if self.by_points is not None:  # a plain board: one Fraction per distinct score
            return list(map(self.by_points.__getitem__, self.points))
        self._fraction(0)  # converts numpy numerators to Python ints
        overrides, made, den = self.overrides, cast("dict[int, Fraction]", self._made), self.den
        nums = cast("list[int]", self.num)
        shared = _shared_fractions(den)
        for numerator in set(nums).difference(made):  # one Fraction per distinct value
            value = shared.get(numerator)
            if value is None:
                value = shared[numerator] = Fraction(numerator) if den == 1 else Fraction(numerator, den)
            made[numerator] = value
        if not overrides:
            return [made[n] for n in nums]
        return [overrides[i] if i in overrides else made[n] for i, n in enumerate(nums)]


@dataclass(frozen=True)
class SideBoard:
    """One side's result on one board, as the session rule needs it.

    ``matchpoints`` is before any procedural ``penalty``; ``kind`` is "real", "fixed" (a stated
    percentage) or the artificial code AVE+, AVE, AVE-.
    """

    matchpoints: Fraction
    top: Fraction
    kind: str = "real"
    penalty: Fraction = Fraction(0)


class BoardScore:
    """Matchpoints of every result on one board, for each direction (exact Fractions).

    Read with ``ns(id)``, ``ew(id)``, ``ns_percent(id)``, ``ew_percent(id)`` or
    ``matchpoints(id, side)`` / ``percent(id, side)``; ``column(side)`` gives a whole
    direction in entry order (the quick way for a big board), ``as_dict()`` everything.
    ``top`` is the board's top. Values include procedural penalties; ``side_board(id, side)``
    gives what the session rule needs.
    """

    def __init__(
        self,
        entries: list[Entry],
        index: dict[object, int],
        columns: dict[str, _Column],
        top: Fraction,
        expected: int,
        scale: str,
    ) -> None:
        self.entries = entries
        self.index = index
        self._columns = columns
        self.top = top
        self.expected = expected
        self.scale = scale
        self._penalised: list[int] | None = None  # indexes of the results with a procedural penalty, when first needed

    def __len__(self) -> int:
        return len(self.entries)

    def _penalty(self, entry: Entry, side: str) -> Fraction:
        penalty = entry.penalty(side)
        if penalty is None:
            return Fraction(0)
        return penalty.amount * self.top / 100 if penalty.percent else penalty.amount

    def matchpoints(self, entry_id: object, side: str = "NS") -> Fraction:
        """``side``'s matchpoints for the result ``entry_id``, after any penalty."""
        i = self.index[entry_id]
        value, entry = self._columns[side][i], self.entries[i]
        return value if entry.penalty(side) is None else value - self._penalty(entry, side)

    def column(self, side: str = "NS") -> list[Fraction]:
        """Every result's matchpoints for ``side``, in entry order, after any penalty.

        The quick way to read a whole board (values are shared between equal results).
        """
        values = self._columns[side].values()
        if self._penalised is None:
            self._penalised = [
                i
                for i, entry in enumerate(self.entries)
                if entry.penalty_ns is not None or entry.penalty_ew is not None
            ]
        for i in self._penalised:
            entry = self.entries[i]
            if entry.penalty(side) is not None:
                values[i] -= self._penalty(entry, side)
        return values

    def ns(self, entry_id: object) -> Fraction:
        return self.matchpoints(entry_id, "NS")

    def ew(self, entry_id: object) -> Fraction:
        return self.matchpoints(entry_id, "EW")

    def percent(self, entry_id: object, side: str = "NS") -> Fraction:
        """Matchpoints as a percentage of the top (50 when the top is 0: one result)."""
        if not self.top:
            return Fraction(50)
        return self.matchpoints(entry_id, side) * 100 / self.top

    def ns_percent(self, entry_id: object) -> Fraction:
        return self.percent(entry_id, "NS")

    def ew_percent(self, entry_id: object) -> Fraction:
        return self.percent(entry_id, "EW")

    def side_board(self, entry_id: object, side: str) -> SideBoard:
        """A :class:`SideBoard` for :func:`session_score`."""
        i = self.index[entry_id]
        entry = self.entries[i]
        score = entry.raw(side)
        if isinstance(score, Artificial):
            kind = score.code or "fixed"
        else:
            kind = "real"
        return SideBoard(self._columns[side][i], self.top, kind, Fraction(self._penalty(entry, side)))

    def as_dict(self) -> dict[object, dict[str, Fraction]]:
        """{id: {"ns", "ew", "ns_percent", "ew_percent"}} of exact Fractions."""
        return {
            entry.id: {
                "ns": self.ns(entry.id),
                "ew": self.ew(entry.id),
                "ns_percent": self.ns_percent(entry.id),
                "ew_percent": self.ew_percent(entry.id),
            }
            for entry in self.entries
        }


def score_board(
    entries: Iterable[Entry],
    *,
    expected: int | None = None,
    scale: str = "2/1",
    averages: Sequence[Number] = (60, 50, 40),
    small_groups: str | None = None,
    fast: bool = True,
    missing: str = "neuberg",
) -> BoardScore:
    """Matchpoint one board.

    ``entries`` are :class:`~bridge.engine.scores.Entry` objects (unique ids). ``expected``
    is the number of results the movement expected on the board (default: the number of
    entries); fewer real results are scaled up with Neuberg. ``scale`` is "2/1" (top
    2(n-1)) or "1/half" (top n-1). ``averages`` are the percentages for AVE+, AVE, AVE-.
    ``small_groups="acbl"`` gives groups of at most three results, when fewer than expected,
    fixed percentages instead of Neuberg. ``fast=False`` forces the exact general path (the
    fast path, used when every entry is a plain balanced number, gives identical values).
    ``missing="average"`` counts each result missing from the ``expected`` as an average one
    (each real result gains a tie with it) instead of scaling with Neuberg.

    Return a :class:`BoardScore`; raise EngineInputError for impossible input.
    """
    entries = list(entries)
    if small_groups not in SMALL_GROUPS:
        raise EngineInputError("board", "small_groups", f"{small_groups!r} is not None or 'acbl'")
    if missing not in MISSING:
        raise EngineInputError("board", "missing", f"{missing!r} is not one of {', '.join(MISSING)}")
    n = len(entries)
    expected = _checked_board(scale, n, expected)
    index = dict(zip(map(_ID, entries), range(n)))
    if len(index) != n:
        raise EngineInputError("board", "id", "two results have the same id")
    divisor = SCALES[scale]
    top = _top(expected, divisor)
    small = small_groups is not None and n < expected and n <= 3
    columns = None
    if fast and n and not small:
        # The plain road: taken by the engine itself whenever every entry is a plain balanced
        # score (no caller needs to know of score_plain_board); the same values as the exact
        # general road (tests/bridge/test_plain_road.py).
        points: list[int | None] = list(map(_PLAIN, entries))
        if None not in points:
            columns = _plain_columns(cast("list[int]", points), expected, divisor, missing)
    if columns is None:
        columns = {
            side: _side_column(entries, side, expected, divisor, averages, small_groups, missing)
            for side in ("NS", "EW")
        }
        _check_artificial_total(entries, averages)
        return BoardScore(entries, index, columns, top, expected, scale)
    board = BoardScore(entries, index, columns, top, expected, scale)
    board._penalised = []  # plain entries carry no penalty
    return board


_PLAIN, _ID = attrgetter("plain"), attrgetter("id")
_TOPS: dict[tuple[int, int], Fraction] = {}


def _top(expected: int, divisor: int) -> Fraction:
    top = _TOPS.get((expected, divisor))
    if top is None:
        if len(_TOPS) > 10_000:
            _TOPS.clear()
        top = _TOPS[(expected, divisor)] = Fraction(2 * (expected - 1), divisor)
    return top


def _plain_columns(points: list[int], expected: int, divisor: int, missing: str = "neuberg") -> dict[str, _Column]:
    """Both directions of a board of plain balanced scores (``Entry.plain``: whole numbers),
    counted by distinct score: a result scores 2 for each result below it and 1 for each other
    result equal to it (what the frequency tables of the general road give), Neuberg when
    fewer than ``expected``. One Fraction per distinct score, and C-level loops throughout:
    with ``below[k]`` results under the k-th distinct score, N-S has ``below[k] + below[k + 1]
    - 1`` on the 2/1 scale and E-W ``2n - 1 - (below[k] + below[k + 1])``."""
    n = len(points)
    counts = Counter(points)
    distinct = sorted(counts)
    below = list(accumulate(map(counts.__getitem__, distinct), initial=0))
    sums = list(map(add, below, below[1:]))  # 2 x below + count: N-S's raw value plus 1
    if n == expected and divisor == 1:
        whole = _whole_fractions(2 * n)
        ns = map(whole.__getitem__, map(sub, sums, repeat(1)))
        ew = map(whole.__getitem__, map(sub, repeat(2 * n - 1), sums))
    elif missing == "average":  # each missing result a tie with every real one: + (E - n)
        gain = expected - n
        ns = map(Fraction, [s - 1 + gain for s in sums], repeat(divisor))
        ew = map(Fraction, [2 * n - 1 - s + gain for s in sums], repeat(divisor))
    else:  # Neuberg, in integers over the common denominator n, and the 1/half scale
        den, shared = divisor * n, _shared_fractions(divisor * n)

        def fraction(numerator: int) -> Fraction:
            value = shared.get(numerator)
            if value is None:
                value = shared[numerator] = Fraction(numerator, den)
            return value

        ns = map(fraction, [s * expected - n for s in sums])  # ((s - 1) + 1) x E - n
        ew = map(fraction, [(2 * n - s) * expected - n for s in sums])
    return {"NS": _Column.plain(points, dict(zip(distinct, ns))), "EW": _Column.plain(points, dict(zip(distinct, ew)))}


_WHOLE: list[Fraction] = []


def _whole_fractions(size: int) -> list[Fraction]:
    """Fraction(i) for i in range(size) at least, made once per process."""
    if len(_WHOLE) < size:
        _WHOLE.extend(Fraction(i) for i in range(len(_WHOLE), max(size, 2 * len(_WHOLE))))
    return _WHOLE


def _checked_board(scale: str, n: int, expected: int | None) -> int:
    """The number of results expected on a board of ``n`` (default ``n``, at least 1), once
    ``scale`` and ``expected`` are known to be good; EngineInputError otherwise."""
    if not isinstance(scale, str) or scale not in SCALES:
        raise EngineInputError("board", "scale", f"{scale!r} is not one of {', '.join(SCALES)}")
    if expected is None:
        expected = max(n, 1)
    if isinstance(expected, bool) or not isinstance(expected, int) or expected < 1:
        raise EngineInputError("board", "expected", f"{expected!r} is not a number of results (1 or more)")
    if n > expected:
        raise EngineInputError("board", "expected", f"{expected} results expected but the board has {n}")
    return expected


@dataclass(frozen=True)
class PlainBoard:
    """Matchpoints of a board of plain balanced results, by distinct score.

    ``points`` are the distinct N-S scores in ascending order, ``ns`` and ``ew`` the
    matchpoints of a result with each (exact Fractions, Neuberg applied), ``which`` the index
    into those of every result in the order given, and ``top`` the board's top.
    """

    points: list[int]
    ns: list[Fraction]
    ew: list[Fraction]
    which: list[int]
    top: Fraction


def score_plain_board(
    points: Sequence[int], *, expected: int | None = None, scale: str = "2/1", missing: str = "neuberg"
) -> PlainBoard:
    """Matchpoint a board whose every result is a plain balanced score, given just the N-S
    points: what :func:`score_board` gives for such a board, without an Entry per result
    (the recalculation scores every board this way unless a result has an adjusted score).

    The results are counted by distinct score: a result scores 2 for each result below it
    and 1 for each other result equal to it; fewer results than ``expected`` are scaled up
    with Neuberg (``missing="average"``: each missing result counted as an average one).
    """
    n = len(points)
    expected = _checked_board(scale, n, expected)
    if missing not in MISSING:
        raise EngineInputError("board", "missing", f"{missing!r} is not one of {', '.join(MISSING)}")
    try:
        values = np.fromiter(points, dtype=np.int64, count=n)
    except (TypeError, ValueError, OverflowError) as error:
        raise EngineInputError("board", "points", f"every result must be whole points ({error})") from None
    divisor = SCALES[scale]
    top = Fraction(2 * (expected - 1), divisor)
    distinct, which, counts = np.unique(values, return_inverse=True, return_counts=True)
    below = np.cumsum(counts) - counts
    ns = 2 * below + counts - 1  # 2 a result below, 1 an other equal one
    ew = 2 * (n - 1) - ns
    den = divisor
    if n < expected and missing == "average":  # a tie with each missing result
        ns, ew = ns + (expected - n), ew + (expected - n)
    elif n < expected:  # Neuberg, in integers over the common denominator n
        ns, ew, den = (ns + 1) * expected - n, (ew + 1) * expected - n, den * n
    return PlainBoard(
        points=distinct.tolist(),
        ns=[Fraction(int(v), den) for v in ns.tolist()],
        ew=[Fraction(int(v), den) for v in ew.tolist()],
        which=which.ravel().tolist(),
        top=top,
    )


class _FrequencyTable:
    """One direction's (or one fouled-board group's) results as value -> weight.

    Weights are multiplied by ``scale``, the least common multiple of their denominators, so
    that all counting is in integers; a score against the table is then over ``scale ** 2``.
    A table (one result) is a list of (points seen from the direction, integer weight).
    """

    def __init__(self, scores: Sequence[Any], sign: int, extra: Iterable[Any] = ()) -> None:
        self.sign = sign
        self.scale = lcm(*{score.denominator for score in (*scores, *extra) if isinstance(score, Weighted)})
        scale = self.scale
        self.tables = [((sign * score, scale),) if type(score) is int else self.table(score) for score in scores]
        weight_at: dict[int, int] = {}
        for table in self.tables:
            for value, weight in table:
                weight_at[value] = weight_at.get(value, 0) + weight
        self.keys = sorted(weight_at)
        self.below = [0]  # weight strictly below keys[k] is below[k]
        for key in self.keys:
            self.below.append(self.below[-1] + weight_at[key])
        self.weight_at = weight_at
        # 2 x (weight below) + (weight tied) for every value in the table
        self.points = {key: self.below[k] + self.below[k + 1] for k, key in enumerate(self.keys)}

    def table(self, score: int | Weighted) -> tuple[tuple[int, int], ...]:
        if not isinstance(score, Weighted):  # points (Entry made every whole number an int)
            return ((self.sign * score, self.scale),)
        sign, factor = self.sign, self.scale // score.denominator
        return tuple((sign * points, factor * weight) for points, weight in score.numerators)

    def _points(self, value: int) -> int:
        found = self.points.get(value)
        if found is not None:
            return found
        k = bisect_left(self.keys, value)  # a value no result has (a redress's P or Q)
        return 2 * self.below[k]

    def against(self, table: tuple[tuple[int, int], ...], own: tuple[tuple[int, int], ...]) -> int:
        """2/1-scale matchpoints (times scale**2) of ``table`` against all but ``own``."""
        if len(table) == 1 and table is own:  # a plain result: only the tie with itself
            value, weight = table[0]
            return weight * (self.points[value] - weight)
        total = 0
        for value, weight in table:
            total += weight * self._points(value)
            for other, other_weight in own:  # the table's own entry is not an opponent
                if value > other:
                    total -= 2 * weight * other_weight
                elif value == other:
                    total -= weight * other_weight
        return total


def _side_column(
    entries: list[Entry],
    side: str,
    expected: int,
    divisor: int,
    averages: Sequence[Number],
    small_groups: str | None,
    missing: str = "neuberg",
) -> _Column:
    """The exact general path for one direction."""
    sign = 1 if side == "NS" else -1
    top2 = 2 * (expected - 1)
    overrides: dict[int, Fraction] = {}
    groups: dict[object, list[int]] = {}
    redress: dict[int, Redress] = {}
    for i, entry in enumerate(entries):
        score = entry.ns if sign == 1 else entry.ew
        if type(score) is int or isinstance(score, Weighted):
            groups.setdefault(entry.group, []).append(i)
        elif isinstance(score, Redress):
            groups.setdefault(entry.group, []).append(i)
            if score.non_offending == side:
                redress[i] = score
        elif isinstance(score, Artificial):
            overrides[i] = score.resolve(averages) * top2 / 100
        else:
            raise EngineInputError(entry.name, side.lower(), f"{score!r} is not a score")
    num: list[int] = [0] * len(entries)
    parts: list[tuple[list[int], int]] = []
    for members in groups.values():
        extra = [s for i in members if i in redress for s in (redress[i].normal_play, redress[i].without_infraction)]
        table = _FrequencyTable([entries[i].side(side) for i in members], sign, extra)
        square, count = table.scale**2, len(members)
        acbl = small_groups == "acbl" and count <= 3 and count < expected

        def finish(raw: int, count: int = count, square: int = square, acbl: bool = acbl) -> Fraction:
            """Raw 2/1 matchpoints (times square) among ``count`` -> the full board."""
            if acbl:  # 70/60/50, 65/55, 60 percent of the top: 60 - 5(A-1) + 5 x raw
                return (60 - 5 * (count - 1) + 5 * Fraction(raw, square)) * top2 / 100
            if missing == "average":
                return Fraction(raw, square) + (expected - count)
            return neuberg(Fraction(raw, square), count, expected)

        raws = [table.against(own, own) for own in table.tables]
        if count < expected and missing == "average":  # a tie (1 x square) with each missing result
            values = [raw + square * (expected - count) for raw in raws]
            parts.append((members, square))
        elif count < expected:  # Neuberg, in integers over the denominator square x count
            values = [(raw + square) * expected - square * count for raw in raws]
            parts.append((members, square * count))
        else:
            values = raws
            parts.append((members, square))
        for i, value in zip(members, values):
            num[i] = value
        for k, i in enumerate(members):
            if i in redress:
                r, own = redress[i], table.tables[k]
                without, normal = cast("int | Weighted", r.without_infraction), cast("int | Weighted", r.normal_play)
                gain = table.against(table.table(without), own) - table.against(table.table(normal), own)
                overrides[i] = min(Fraction(top2), finish(raws[k] + max(0, gain)))
            elif acbl:
                overrides[i] = finish(raws[k])
    common = lcm(*(den for _, den in parts)) if parts else 1
    for members, den in parts:
        if den != common:
            for i in members:
                num[i] *= common // den
    if divisor != 1:
        overrides = {i: value / divisor for i, value in overrides.items()}
    return _Column(num, common * divisor, overrides)


def _check_artificial_total(entries: list[Entry], averages: Sequence[Number]) -> None:
    """Law 12C2: artificial scores at one table add up to at most 100% (outside agency apart)."""
    for entry in entries:
        if isinstance(entry.ns, Artificial) and isinstance(entry.ew, Artificial):
            total = entry.ns.resolve(averages) + entry.ew.resolve(averages)
            if total > 100 and not entry.outside_agency:
                raise EngineInputError(
                    entry.name,
                    "ew",
                    f"{entry.ns} and {entry.ew} add up to {total}%: more than 100% only when an "
                    "outside agency caused the problem (set outside_agency)",
                )


@dataclass(frozen=True)
class SessionScore:
    """A side's session: ``matchpoints`` (after the session rule and penalties), ``top``,
    ``percent``, ``real_percent`` (over its real boards; None without any) and ``boards``,
    each board's matchpoints as counted (before penalties)."""

    matchpoints: Fraction
    top: Fraction
    percent: Fraction
    real_percent: Fraction | None
    boards: tuple[Fraction, ...]


def session_score(
    boards: Iterable[SideBoard], *, plus: Number = 60, minus: Number = 40, rule: bool = True
) -> SessionScore:
    """Total one side's session, applying Law 12C2c to its artificial boards.

    ``boards`` are :class:`SideBoard` (from ``BoardScore.side_board``) for every board the
    side played in the window (a session, a Swiss match, a stage: the caller chooses). The
    side's percentage over its real boards (sum of matchpoints over sum of tops, penalties
    left out) replaces average plus when higher than ``plus`` and average minus when lower
    than ``minus``; AVE and stated percentages stay as scored. ``rule=False``: every artificial
    score stays as awarded (the programs that do not apply 12C2c).
    """
    boards = list(boards)
    real = [b for b in boards if b.kind == "real"]
    real_top = sum(b.top for b in real)
    real_percent = sum(b.matchpoints for b in real) * 100 / real_top if real_top else None
    counted = []
    for b in boards:
        if not rule:
            counted.append(b.matchpoints)
        elif b.kind == "AVE+":
            percent = Fraction(plus) if real_percent is None else max(Fraction(plus), real_percent)
            counted.append(percent * b.top / 100)
        elif b.kind == "AVE-":
            percent = Fraction(minus) if real_percent is None else min(Fraction(minus), real_percent)
            counted.append(percent * b.top / 100)
        else:
            counted.append(b.matchpoints)
    top = sum((b.top for b in boards), Fraction(0))
    total = sum(counted, Fraction(0)) - sum((b.penalty for b in boards), Fraction(0))
    percent = total * 100 / top if top else Fraction(50)
    return SessionScore(total, top, percent, real_percent, tuple(counted))
