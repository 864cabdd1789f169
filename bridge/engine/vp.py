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
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation, localcontext
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path

from bridge.messages import _

from .rounding import Number, to_fraction
from .scores import EngineInputError

__all__ = [
    "wbf2013_exact",
    "continuous_table",
    "vp_for_margin",
    "victory_points",
    "DiscreteScale",
    "load_scale",
    "parse_scale",
    "scale_from_csv",
    "ScaleError",
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


class ScaleError(EngineInputError):
    """A discrete scale's data refused: ``boards`` is the table's key ("16", "6-8") and ``row``
    its row (1 is the first) where the fault is, or None; ``field`` names the value
    (``boards``, ``imps_from``, ``winner_vp``, ``loser_vp``, ``max_vp``, ``name``, ``tables``)."""

    def __init__(self, field: str, reason: object, boards: str | None = None, row: int | None = None) -> None:
        self.boards, self.row = boards, row
        if boards is not None and row is not None:
            where: object = _("the %(boards)s-board table, row %(row)s", boards=boards, row=row)
        elif boards is not None:
            where = _("the %(boards)s-board table", boards=boards)
        else:
            where = _("the scale")
        super().__init__(where, field, reason)


def _number(value: object, field: str, boards: str | None = None, row: int | None = None) -> Decimal:
    """A number >= 0 with at most two decimals (VPs are stored to 0.01)."""
    try:
        if isinstance(value, bool):
            raise InvalidOperation
        number = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        raise ScaleError(field, _("'%(value)s' is not a number", value=value), boards, row) from None
    if not number.is_finite() or number < 0:
        raise ScaleError(field, _("'%(value)s' is not a number of 0 or more", value=value), boards, row)
    if number != number.quantize(CENT):
        raise ScaleError(field, _("'%(value)s' has more than two decimals", value=value), boards, row)
    return number


def board_counts(key: object) -> range:
    """The numbers of boards a table's key covers: "16" -> 16, "6-8" -> 6, 7, 8."""
    text = str(key).strip()
    first, dash, last = text.partition("-")
    if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
        raise ScaleError("boards", _("'%(key)s' is not a number of boards (16) or a range (6-8)", key=key))
    low, high = int(first), int(last or first)
    if low < 1 or high < low:
        raise ScaleError("boards", _("'%(key)s' is not a number of boards (16) or a range (6-8)", key=key))
    return range(low, high + 1)


def parse_scale(data: object) -> DiscreteScale:
    """A :class:`DiscreteScale` from data in the documented format (a dict, as the JSON files
    hold it); :class:`ScaleError` names the table, the row and the field of the first fault.

    Each table: the first row is for margin 0 and gives both teams the same VPs; the margins
    increase; the winner's VPs never fall nor the loser's rise; the winner has at least the
    loser's VPs, and the two together at most ``max_vp``. A number of boards has one table."""
    if not isinstance(data, dict):
        raise ScaleError("tables", _('a scale looks like {"name": ..., "max_vp": 20, "tables": {...}}'))
    name = str(data.get("name") or "").strip()
    if not name:
        raise ScaleError("name", _("a scale needs a name"))
    if data.get("max_vp") in (None, ""):
        raise ScaleError("max_vp", _("a scale needs its most VPs (20, 25, 30)"))
    top = _number(data["max_vp"], "max_vp")
    if top <= 0:
        raise ScaleError("max_vp", _("'%(value)s' is not a number of 0 or more", value=data["max_vp"]))
    listed_tables = data.get("tables")
    if not isinstance(listed_tables, dict) or not listed_tables:
        raise ScaleError("tables", _("a scale needs at least one table"))
    tables: dict[int, list[tuple[Fraction, Decimal, Decimal]]] = {}
    keys: dict[int, str] = {}
    for key, listed in listed_tables.items():
        label = str(key).strip()
        counts = board_counts(key)
        if not isinstance(listed, list | tuple) or not listed:
            raise ScaleError("tables", _("the table has no rows"), label)
        rows: list[tuple[Fraction, Decimal, Decimal]] = []
        for index, row in enumerate(listed, 1):
            if not isinstance(row, list | tuple) or len(row) != 3:
                raise ScaleError("tables", _("a row is [imps_from, winner_vp, loser_vp]"), label, index)
            low = Fraction(_number(row[0], "imps_from", label, index))
            win, lose = _number(row[1], "winner_vp", label, index), _number(row[2], "loser_vp", label, index)
            if index == 1 and low != 0:
                raise ScaleError("imps_from", _("the table must start at 0, not %(low)s", low=row[0]), label, 1)
            if index == 1 and win != lose:
                raise ScaleError("loser_vp", _("a tie (margin 0) gives both teams the same VPs"), label, 1)
            if win < lose:
                raise ScaleError("winner_vp", _("the winner gets fewer VPs than the loser"), label, index)
            if win + lose > top:
                raise ScaleError(
                    "loser_vp",
                    _("%(win)s + %(lose)s VPs is more than the scale's %(top)s", win=win, lose=lose, top=top),
                    label,
                    index,
                )
            if rows:
                before_low, before_win, before_lose = rows[-1]
                if low <= before_low:
                    raise ScaleError(
                        "imps_from",
                        _("the margins must increase: %(low)s after %(before)s", low=row[0], before=before_low),
                        label,
                        index,
                    )
                if win < before_win:
                    raise ScaleError(
                        "winner_vp",
                        _("the winner's VPs must not fall: %(win)s after %(before)s", win=win, before=before_win),
                        label,
                        index,
                    )
                if lose > before_lose:
                    raise ScaleError(
                        "loser_vp",
                        _("the loser's VPs must not rise: %(lose)s after %(before)s", lose=lose, before=before_lose),
                        label,
                        index,
                    )
            rows.append((low, win, lose))
        for count in counts:
            if count in keys:
                raise ScaleError(
                    "boards", _("%(n)s boards already have a table (%(other)s)", n=count, other=keys[count]), label
                )
            keys[count] = label
            tables[count] = rows
    return DiscreteScale(name, top, tables, str(data.get("source") or ""))


CSV_FIELDS = ("boards", "imps_from", "winner_vp", "loser_vp")


def scale_from_csv(
    text: str, *, name: str, max_vp: object, source: str = ""
) -> tuple[DiscreteScale, dict[str, object]]:
    """A scale typed as text, one band a line: ``boards,imps_from,winner_vp,loser_vp`` (boards
    16 or 6-8; a first line naming the columns, blank lines and lines starting with # are
    skipped). Returns the scale and its data in the documented format; a fault is a
    :class:`ScaleError` whose ``where`` is the line ("line 7")."""
    tables: dict[str, list[list[str]]] = {}
    lines: dict[tuple[str, int], int] = {}  # (table, row) -> line
    first: dict[str, int] = {}  # table -> its first line
    for number, line in enumerate(text.splitlines(), 1):
        cells = [cell.strip() for cell in line.replace(";", ",").replace("\t", ",").split(",")]
        if not line.strip() or line.lstrip().startswith("#") or [c.lower() for c in cells] == list(CSV_FIELDS):
            continue
        if len(cells) != 4:
            raise EngineInputError(
                _("line %(n)s", n=number),
                "",
                _("%(count)s values: a line is boards,imps_from,winner_vp,loser_vp", count=len(cells)),
            )
        try:
            key = "-".join(str(n) for n in _ends(board_counts(cells[0])))
        except ScaleError as error:
            raise EngineInputError(_("line %(n)s", n=number), "boards", error.reason) from None
        bands = tables.setdefault(key, [])
        first.setdefault(key, number)
        bands.append(cells[1:])
        lines[(key, len(bands))] = number
    if not tables:
        raise EngineInputError("", "tables", _("no line gives a band: one a line, boards,imps_from,winner_vp,loser_vp"))
    data: dict[str, object] = {"name": name, "source": source, "max_vp": max_vp, "tables": tables}
    try:
        scale = parse_scale(data)
    except ScaleError as error:
        if error.boards is None:
            raise
        at = lines.get((error.boards, error.row or 0), first.get(error.boards))
        raise EngineInputError(_("line %(n)s", n=at), error.field, error.reason) from None
    return scale, data


def _ends(counts: range) -> tuple[int, ...]:
    return (counts[0],) if len(counts) == 1 else (counts[0], counts[-1])


def load_scale(path: str | Path) -> DiscreteScale:
    """Read a :class:`DiscreteScale` from a JSON file in the documented format."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    try:
        return parse_scale(data)
    except ScaleError as error:
        raise ValueError(f"{path}: {error}") from None


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
