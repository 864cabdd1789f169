"""Victory points: the WBF 2013 continuous scale, and discrete scales kept as data.

WBF 2013 continuous scale for a match of N boards: with tau = (sqrt 5 - 1) / 2 and the blitz
margin X = 15 sqrt N, a margin of I IMPs gives the winner
``min(20, 10 + 10 (1 - tau^(3I/X)) / (1 - tau^3))`` to two decimals; the loser gets the rest.
For whole margins the values come from a table (shipped for 1-64 boards in
``data/wbf2013_vp20.json``, made by ``gen_vp_tables.py``, and computed the same way for
other sizes) in which a value is raised by 0.01 wherever the next increment would be larger
than the one before it (the WBF's procedure, see :func:`continuous_table`). A fractional
margin (weighted scores, knockout averages) is interpolated linearly between the table's
values at the whole margins either side and rounded to 0.01 (halves up), so VPs never fall
as the margin grows (docs/scoring.md, "Fractional margins").

The 30-VP form ("wbf2013-30") is the same curve times 1.5, rounded and corrected the same way.
Discrete scales (whole VPs by bands of IMPs) are data too: see :class:`DiscreteScale`; the
ACBL 20- and 30-VP Swiss scales ship as ``acbl-20`` and ``acbl-30`` (``data/acbl_vp*.json``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path

from .rounding import Number, to_fraction
from .scores import EngineInputError

__all__ = [
    "wbf2013_exact",
    "continuous_table",
    "vp_for_margin",
    "victory_points",
    "DiscreteScale",
    "load_scale",
    "register_scale",
    "scale_names",
    "to_decimal",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
SHIPPED_BOARDS = range(1, 65)
CENT = Decimal("0.01")
_PRECISION = 40


def to_decimal(value: object) -> Decimal:
    """An exact number as a Decimal (terminating values are exact)."""
    value = to_fraction(value)
    with localcontext() as ctx:
        ctx.prec = _PRECISION
        return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(CENT)


def wbf2013_exact(margin: Number, boards: int, top: int = 20) -> Decimal:
    """The WBF 2013 curve, unrounded (Decimal, 40 digits), for the winner of ``margin`` >= 0.

    ``top`` 20 is the official scale; 30 scales it by 1.5.
    """
    with localcontext() as ctx:
        ctx.prec = _PRECISION
        tau = (Decimal(5).sqrt() - 1) / 2
        blitz = 15 * Decimal(boards).sqrt()
        exponent = 3 * to_decimal(margin) / blitz
        value = 10 + 10 * (1 - tau**exponent) / (1 - tau**3) if exponent else Decimal(10)
        return min(Decimal(20), value) * Decimal(top) / 20


def continuous_table(boards: int, top: int = 20) -> list[Decimal]:
    """Winner's VPs for margins 0, 1, 2, ... until the winner reaches ``top`` (Decimals, 0.01).

    The WBF's procedure (Technical Report of the WBF Scoring Panel, 2013): round the curve to
    0.01 (halves up), then wherever a step would be larger than the one before it, raise the
    value between them by 0.01, and repeat until every step is no larger than the one before
    (a concave, non-decreasing table). The ends stay: half the top at 0, the top at the end.
    Every raise is forced (any concave table on whole cents that is nowhere below the plain
    rounding must be at least that high there), so the result does not depend on the order
    of the raises: it is the lowest such table. For 10 boards it reads 17.68 / 17.84 / 18.00
    at margins 29 / 30 / 31 as the WBF's table does.
    """
    cents = []
    margin = 0
    while True:
        value = wbf2013_exact(margin, boards, top).quantize(CENT, ROUND_HALF_UP)
        cents.append(int(value * 100))
        if value >= top:
            break
        margin += 1
    cents[-1] = top * 100
    changed = True
    while changed:
        changed = False
        for i in range(1, len(cents) - 1):
            if cents[i + 1] - cents[i] > cents[i] - cents[i - 1]:
                cents[i] += 1
                changed = True
    return [Decimal(c).scaleb(-2) for c in cents]


@cache
def _shipped() -> dict[int, tuple[Decimal, ...]]:
    with open(DATA_DIR / "wbf2013_vp20.json", encoding="utf-8") as handle:
        data = json.load(handle)
    return {int(n): tuple(Decimal(v) for v in values) for n, values in data["tables"].items()}


@lru_cache(maxsize=256)
def _table(boards: int, top: int) -> tuple[Decimal, ...]:
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
         "tables": {"16": [[0, 10, 10], [3, 11, 9], ...], "6-8": [...]}}

    A key "6-8" gives one table for 6, 7 and 8 boards. A fractional margin reads the band of
    the whole margin below it (2.5 IMPs reads the row that covers 2).
    """

    name: str
    max_vp: Decimal
    tables: dict[int, list[tuple[Fraction, Decimal, Decimal]]]
    source: str = ""

    def convert(self, margin: Fraction | int, boards: int) -> tuple[Decimal, Decimal]:
        rows = self.tables.get(boards)
        if rows is None:
            raise EngineInputError("match", "boards", f"the {self.name} scale has no table for {boards} boards")
        size = abs(Fraction(margin))
        _zero, winner, loser = rows[0]
        for low, win, lose in rows:
            if size >= low:
                winner, loser = win, lose
        return (winner, loser) if margin >= 0 else (loser, winner)


def load_scale(path: str | Path) -> DiscreteScale:
    """Read a :class:`DiscreteScale` from a JSON file in the documented format."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    tables: dict[int, list[tuple[Fraction, Decimal, Decimal]]] = {}
    for boards, listed in data["tables"].items():
        rows = [(Fraction(str(low)), Decimal(str(win)), Decimal(str(lose))) for low, win, lose in listed]
        if not rows or rows[0][0] != 0 or any(a[0] >= b[0] for a, b in zip(rows, rows[1:])):
            raise ValueError(f"{path}: the {boards}-board table must start at 0 and increase")
        if any(a[1] > b[1] for a, b in zip(rows, rows[1:])):
            raise ValueError(f"{path}: in the {boards}-board table the winner's VPs must not fall")
        first, _, last = str(boards).partition("-")
        for count in range(int(first), int(last or first) + 1):
            tables[count] = rows
    return DiscreteScale(data["name"], Decimal(str(data["max_vp"])), tables, data.get("source", ""))


_SCALES: dict[str, DiscreteScale] = {}


def register_scale(name: str, scale: DiscreteScale) -> None:
    """Make a :class:`DiscreteScale` available by ``name`` to :func:`victory_points`."""
    _SCALES[name] = scale


def scale_names() -> tuple[str, ...]:
    return ("wbf2013-20", "wbf2013-30", *_SCALES)


# Discrete scales shipped as data (each file names its source): see docs/scoring.md.
SHIPPED_DISCRETE = {"acbl-20": "acbl_vp20.json", "acbl-30": "acbl_vp30.json"}
for _name, _file in SHIPPED_DISCRETE.items():
    register_scale(_name, load_scale(DATA_DIR / _file))


@lru_cache(maxsize=256)
def _cents(boards: int, top: int) -> tuple[int, ...]:
    return tuple(int(v * 100) for v in _table(boards, top))


def _winner(size: Fraction, boards: int, top: int) -> Decimal:
    """The winner's VPs for a margin ``size`` >= 0: the table, interpolated between whole margins.

    Between whole margins m and m + 1 the value is ``t[m] + (t[m+1] - t[m]) * (size - m)``
    rounded to 0.01 with a half up (integer arithmetic in cents).
    """
    cents = _cents(boards, top)
    num, den = size.numerator, size.denominator
    low = num // den  # floor, size >= 0
    if low >= len(cents) - 1:
        return _table(boards, top)[-1]
    if den == 1:
        return _table(boards, top)[low]
    below, above = cents[low], cents[low + 1]
    # below + (above - below) * rest / den, rounded half up: floor((2 * value * den + den) / (2 * den))
    scaled = below * den + (above - below) * (num - low * den)
    value = (2 * scaled + den) // (2 * den)
    return Decimal(value).scaleb(-2)


def victory_points(
    imp_margin: object, boards: int, scale: str | DiscreteScale = "wbf2013-20"
) -> tuple[Decimal, Decimal]:
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


def vp_for_margin(imp_margin: object, boards: int, scale: str | DiscreteScale = "wbf2013-20") -> Decimal:
    """One team's VPs from its own margin (used when a match's results do not balance)."""
    return victory_points(imp_margin, boards, scale)[0]
