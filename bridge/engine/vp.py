"""Victory points: the WBF 2013 continuous scale, and discrete scales kept as data.

WBF 2013 continuous scale for a match of N boards: with tau = (sqrt 5 - 1) / 2 and the blitz
margin X = 15 sqrt N, a margin of I IMPs gives the winner
``min(20, 10 + 10 (1 - tau^(3I/X)) / (1 - tau^3))`` to two decimals; the loser gets the rest.
For whole margins the values come from a table (shipped for 1-64 boards in
``data/wbf2013_vp20.json``, made by ``gen_vp_tables.py``, and computed the same way for
other sizes) in which a value may be moved by 0.01 so that no increment is larger than the one
before it (see :func:`continuous_table`). A fractional margin (weighted scores, knockout averages) uses the formula directly.

The 30-VP form ("wbf2013-30") is the same curve times 1.5, rounded and corrected the same way.
Discrete scales (whole VPs by bands of IMPs) are data too: see :class:`DiscreteScale`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from .rounding import to_fraction
from .scores import EngineInputError

__all__ = ["wbf2013_exact", "continuous_table", "vp_for_margin", "victory_points",
           "DiscreteScale", "load_scale", "register_scale", "scale_names", "to_decimal"]

DATA_DIR = Path(__file__).resolve().parent / "data"
SHIPPED_BOARDS = range(1, 65)
CENT = Decimal("0.01")
_PRECISION = 40


def to_decimal(value):
    """An exact number as a Decimal (terminating values are exact)."""
    value = to_fraction(value)
    with localcontext() as ctx:
        ctx.prec = _PRECISION
        return Decimal(value.numerator) / Decimal(value.denominator)


def wbf2013_exact(margin, boards, top=20):
    """The WBF 2013 curve, unrounded (Decimal, 40 digits), for the winner of ``margin`` >= 0.

    ``top`` 20 is the official scale; 30 scales it by 1.5.
    """
    with localcontext() as ctx:
        ctx.prec = _PRECISION
        tau = (Decimal(5).sqrt() - 1) / 2
        blitz = 15 * Decimal(boards).sqrt()
        exponent = 3 * to_decimal(margin) / blitz
        value = 10 + 10 * (1 - tau ** exponent) / (1 - tau ** 3) if exponent else Decimal(10)
        return min(Decimal(20), value) * Decimal(top) / 20


def continuous_table(boards, top=20):
    """Winner's VPs for margins 0, 1, 2, ... until the winner reaches ``top`` (Decimals, 0.01).

    Plain rounding of the curve (halves up) can make an increment larger than the one before
    it (0.12 then 0.13). The correction: among all sequences with every value within 0.01 of
    the curve and the ends fixed (half the top at 0, the top at the end), take the one with the
    fewest such increases, then the fewest values moved off plain rounding, then the smallest
    total distance from the curve. Up to about 36 boards no increase is left; for longer
    matches the curve is too flat for whole cents to be both that close and concave, and a
    few increases by 0.01 remain (see docs/scoring.md).
    """
    exact, margin = [], 0
    while True:
        exact.append(wbf2013_exact(margin, boards, top))
        if exact[-1].quantize(CENT, ROUND_HALF_UP) >= top:
            break
        margin += 1
    plain = [v.quantize(CENT, ROUND_HALF_UP) for v in exact]
    ends = {0: plain[0], len(exact) - 1: Decimal(top).quantize(CENT)}
    # Dynamic programming over (value, last increment): cost = (increases, moved, distance).
    states = {(ends[0], None): ((0, 0, Decimal(0)), None)}
    history = []
    for i in range(1, len(exact)):
        if i in ends:
            candidates = [ends[i]]
        else:
            candidates = [c for c in (plain[i] - CENT, plain[i], plain[i] + CENT)
                          if abs(c - exact[i]) <= CENT]
        new = {}
        for (value, step), (cost, _) in states.items():
            for c in candidates:
                if c < value:
                    continue
                increase = step is not None and c - value > step
                total = (cost[0] + increase, cost[1] + (c != plain[i]),
                         cost[2] + abs(c - exact[i]))
                key = (c, c - value)
                if key not in new or total < new[key][0]:
                    new[key] = (total, (value, step))
        history.append(new)
        states = new
    key = min(states, key=lambda k: states[k][0])
    values = []
    for layer in reversed(history):
        values.append(key[0])
        key = layer[key][1]
    values.append(ends[0])
    return values[::-1]


@lru_cache(maxsize=None)
def _shipped():
    with open(DATA_DIR / "wbf2013_vp20.json", encoding="utf-8") as handle:
        data = json.load(handle)
    return {int(n): tuple(Decimal(v) for v in values) for n, values in data["tables"].items()}


@lru_cache(maxsize=256)
def _table(boards, top):
    if top == 20 and boards in SHIPPED_BOARDS:
        return _shipped()[boards]
    return tuple(continuous_table(boards, top))


@dataclass(frozen=True)
class DiscreteScale:
    """A scale of whole (or half) VPs by bands of IMPs, one table per number of boards.

    ``tables`` maps a number of boards to rows (lowest margin, winner VPs, loser VPs) in
    increasing order of margin; the first row is for margin 0. ``max_vp`` is the VPs of a
    win by the blitz. Data format (JSON)::

        {"name": "...", "source": "where the numbers come from", "max_vp": 20,
         "tables": {"16": [[0, 10, 10], [3, 11, 9], ...]}}
    """

    name: str
    max_vp: Decimal
    tables: dict
    source: str = ""

    def convert(self, margin, boards):
        rows = self.tables.get(boards)
        if rows is None:
            raise EngineInputError("match", "boards", f"the {self.name} scale has no table for {boards} boards")
        size = abs(Fraction(margin))
        winner = loser = None
        for low, win, lose in rows:
            if size >= low:
                winner, loser = win, lose
        return (winner, loser) if margin >= 0 else (loser, winner)


def load_scale(path):
    """Read a :class:`DiscreteScale` from a JSON file in the documented format."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    tables = {}
    for boards, rows in data["tables"].items():
        rows = [(Fraction(str(low)), Decimal(str(win)), Decimal(str(lose))) for low, win, lose in rows]
        if not rows or rows[0][0] != 0 or any(a[0] >= b[0] for a, b in zip(rows, rows[1:])):
            raise ValueError(f"{path}: the {boards}-board table must start at 0 and increase")
        tables[int(boards)] = rows
    return DiscreteScale(data["name"], Decimal(str(data["max_vp"])), tables, data.get("source", ""))


_SCALES = {}


def register_scale(name, scale):
    """Make a :class:`DiscreteScale` available by ``name`` to :func:`victory_points`."""
    _SCALES[name] = scale


def scale_names():
    return ("wbf2013-20", "wbf2013-30", *_SCALES)


def _winner(size, boards, top):
    size = Fraction(size)
    if size.denominator == 1:
        table = _table(boards, top)
        return table[min(int(size), len(table) - 1)]
    return wbf2013_exact(size, boards, top).quantize(CENT, ROUND_HALF_UP)


def victory_points(imp_margin, boards, scale="wbf2013-20"):
    """(home VPs, away VPs) for a match won by ``imp_margin`` IMPs (negative: lost).

    ``scale`` is "wbf2013-20", "wbf2013-30", a registered discrete scale's name or a
    :class:`DiscreteScale`. Continuous-scale values are Decimals with two decimals.
    """
    if isinstance(boards, bool) or not isinstance(boards, int) or boards < 1:
        raise EngineInputError("match", "boards", f"{boards!r} is not a number of boards (1 or more)")
    margin = to_fraction(imp_margin)
    if isinstance(scale, str) and scale in ("wbf2013-20", "wbf2013-30"):
        top = 20 if scale.endswith("20") else 30
        winner = _winner(abs(margin), boards, top)
        loser = Decimal(top) - winner
        return (winner, loser) if margin >= 0 else (loser, winner)
    if isinstance(scale, str):
        if scale not in _SCALES:
            raise EngineInputError("match", "vp_scale", f"{scale!r} is not one of {', '.join(scale_names())}")
        scale = _SCALES[scale]
    return scale.convert(margin, boards)


def vp_for_margin(imp_margin, boards, scale="wbf2013-20"):
    """One team's VPs from its own margin (used when a match's results do not balance)."""
    return victory_points(imp_margin, boards, scale)[0]
