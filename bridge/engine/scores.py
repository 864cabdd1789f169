"""What a table's result is worth to each direction, and how it is read from JSON.

A result on a board (an :class:`Entry`) gives N-S and E-W each a score. All points are from
N-S's point of view. A score is one of:

- ``int``: the points of a real result;
- :class:`Weighted`: a weighted score (Law 12C1c), points with weights adding up to 1;
- :class:`Artificial`: average plus / average / average minus, or a stated percentage (12C2);
- :class:`Redress`: the non-offenders keep their table result plus the damage the
  infraction caused, the offenders get the result without the infraction (12C1b);
- :class:`TeamAdjustment`: in a team match, the board's result itself in IMPs or total points
  (Law 86D), where the regulating authority allows it.

When N-S and E-W get the same score the result balances; different scores make a split
(non-balancing) score.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from decimal import Decimal
from fractions import Fraction
from math import lcm
from numbers import Integral
from typing import Any

from bridge.messages import Message, MessageError, _

from .rounding import Number, exact_str, to_fraction, weight_fraction

__all__ = [
    "EngineInputError",
    "Weighted",
    "Artificial",
    "Redress",
    "TeamAdjustment",
    "Penalty",
    "Entry",
    "ARTIFICIAL_CODES",
    "SIDES",
    "parse_points",
    "parse_score",
    "parse_penalty",
    "parse_result",
    "parse_results",
    "components",
]

SIDES = ("NS", "EW")
ARTIFICIAL_CODES = ("AVE+", "AVE", "AVE-")
MAX_COMPONENTS = 5
TEAM_UNITS = ("imps", "total_points")
MAX_BOARD_IMPS = 24  # Law 78B: the scale ends at 24 IMPs a board
_RESULT_FIELDS = {"id", "table", "ns", "ew", "group", "penalty", "outside_agency", "note"}


class EngineInputError(MessageError):
    """Input the engine cannot score. The message names the result, the field and the reason.

    ``where`` is the result ("result 3 (table 7)"), ``field`` the field ("ns") and ``reason``
    why it was refused ("weights add up to 0.9, not 1"). ``where`` and ``reason`` may be
    Messages (bridge.messages): ``str()`` is English, ``core.i18n.translate(error)`` the
    reader's language.
    """

    def __init__(self, where: object, field: str, reason: object) -> None:
        self.where, self.field, self.reason = where, field, reason
        text: object
        if where and field:
            text = Message("%(where)s, %(field)s: %(reason)s", where=where, field=field, reason=reason)
        elif where or field:
            text = Message("%(where)s: %(reason)s", where=where or field, reason=reason)
        else:
            text = reason
        super().__init__(text)  # type: ignore[arg-type]  # a Message or a str: MessageError takes both


@dataclass(frozen=True)
class Weighted:
    """A weighted score: ``components`` is a tuple of (points, weight) with weights adding to 1."""

    components: tuple[tuple[int, Fraction], ...]
    # The weights over their common denominator, for counting in integers.
    denominator: int = dataclass_field(default=1, init=False, repr=False, compare=False)
    numerators: tuple[tuple[int, int], ...] = dataclass_field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        parts = tuple((int(points), weight_fraction(weight)) for points, weight in self.components)
        if not parts:
            raise ValueError("a weighted score needs at least one component")
        if any(weight <= 0 for _, weight in parts):
            raise ValueError("every weight must be more than 0")
        total = sum(weight for _, weight in parts)
        if total != 1:
            raise ValueError(f"weights add up to {exact_str(total)}, not 1")
        object.__setattr__(self, "components", parts)
        den = lcm(*(weight.denominator for _, weight in parts))
        object.__setattr__(self, "denominator", den)
        object.__setattr__(
            self,
            "numerators",
            tuple((points, weight.numerator * (den // weight.denominator)) for points, weight in parts),
        )

    @property
    def mean(self) -> Fraction:
        """The weighted mean of the points (used only where a rule needs one number)."""
        return sum((points * weight for points, weight in self.components), Fraction(0))


@dataclass(frozen=True)
class Artificial:
    """An artificial adjusted score: ``code`` AVE+, AVE or AVE-, or a stated ``percent``."""

    code: str | None = None
    percent: Fraction | None = None

    def __post_init__(self) -> None:
        if (self.code is None) == (self.percent is None):
            raise ValueError("give either an artificial code or a percentage")
        if self.code is not None and self.code not in ARTIFICIAL_CODES:
            raise ValueError(f"{self.code!r} is not one of {', '.join(ARTIFICIAL_CODES)}")
        if self.percent is not None:
            object.__setattr__(self, "percent", Fraction(self.percent))
            if not 0 <= self.percent <= 100:
                raise ValueError(f"{exact_str(self.percent)}% is not between 0 and 100")

    def resolve(self, averages: Sequence[Number] = (60, 50, 40)) -> Fraction:
        """The percentage this score stands for, given (plus, average, minus) percentages."""
        if self.code is None:
            assert self.percent is not None  # __post_init__: a code or a percentage
            return self.percent
        return Fraction(averages[ARTIFICIAL_CODES.index(self.code)])

    def __str__(self) -> str:
        return self.code or f"{exact_str(self.percent or 0)}%"


@dataclass(frozen=True)
class Redress:
    """Law 12C1b: table result T, result with normal play P, result without the infraction Q.

    Each of T, P, Q is points (int) or a :class:`Weighted`; ``non_offending`` is NS or EW.
    """

    table: object
    normal_play: object
    without_infraction: object
    non_offending: str

    def __post_init__(self) -> None:
        if self.non_offending not in SIDES:
            raise ValueError(f"non_offending is NS or EW, not {self.non_offending!r}")

    def for_side(self, side: str) -> object:
        """The score standing for ``side`` in its direction's frequency table: T or Q."""
        return self.table if side == self.non_offending else self.without_infraction


@dataclass(frozen=True)
class TeamAdjustment:
    """Law 86D: an adjusted score in a team match given as the board's result in ``unit``
    ("imps" or "total_points") rather than as a table score: ``amount`` is what the team sitting
    in this direction's seat gains on the board, from N-S's point of view like every score (so
    E-W's team gains -amount). JSON ``{"imps": 5}`` or ``{"total_points": 300}``."""

    unit: str
    amount: Fraction

    def __post_init__(self) -> None:
        if self.unit not in TEAM_UNITS:
            raise ValueError(f"{self.unit!r} is not one of {', '.join(TEAM_UNITS)}")
        object.__setattr__(self, "amount", Fraction(self.amount))

    def __str__(self) -> str:
        return f"{exact_str(self.amount)} {'IMPs' if self.unit == 'imps' else 'total points'}"


@dataclass(frozen=True)
class Penalty:
    """A procedural penalty: ``amount`` in scoring units, or a percentage of a top."""

    amount: Fraction
    percent: bool = False

    def __str__(self) -> str:
        return f"{exact_str(self.amount)}{'%' if self.percent else ''}"


@dataclass(frozen=True)
class Entry:
    """One table's result on a board: the score for N-S and for E-W.

    ``group`` is the version of a fouled board that was played (Law 87); ``penalty_ns`` and
    ``penalty_ew`` are procedural penalties; ``outside_agency`` allows artificial scores that
    add up to more than 100%; ``label`` names the result in error messages.
    """

    id: object
    ns: object
    ew: object = None
    group: object = None
    penalty_ns: Penalty | None = None
    penalty_ew: Penalty | None = None
    outside_agency: bool = False
    label: str = ""
    # Points when the result is a plain balanced one with nothing else to it, else None: the
    # matchpoint fast path reads only this.
    plain: int | None = dataclass_field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for side in ("ns", "ew"):  # integers of other types (numpy) become plain ints
            value = getattr(self, side)
            if type(value) is not int and isinstance(value, Integral) and not isinstance(value, bool):
                object.__setattr__(self, side, int(value))
        if self.ew is None:
            if isinstance(self.ns, Artificial):
                raise EngineInputError(self.name, "ew", _("give E-W's score too when N-S's is artificial"))
            object.__setattr__(self, "ew", self.ns)
        if isinstance(self.ns, Redress) != isinstance(self.ew, Redress) or (
            isinstance(self.ns, Redress) and self.ns != self.ew
        ):
            raise EngineInputError(self.name, "ew", _("a redress describes both sides: give it once"))
        plain = (
            type(self.ns) is int
            and self.ew == self.ns
            and self.group is None
            and self.penalty_ns is None
            and self.penalty_ew is None
        )
        object.__setattr__(self, "plain", self.ns if plain else None)

    @classmethod
    def balanced(cls, id: object, points: int) -> Entry:
        """A normal result: the same ``points`` for both directions."""
        if type(points) is not int:
            return cls(id, points)
        # The recalculation makes one of these per result of a board on every change: an int
        # needs none of __post_init__'s checks, so the fields are set at once.
        entry = object.__new__(cls)
        entry.__dict__.update(_PLAIN_FIELDS, id=id, ns=points, ew=points, plain=points)
        return entry

    @property
    def name(self) -> str:
        return self.label or _("result %(id)s", id=self.id)

    def side(self, side: str) -> object:
        """The score entered in ``side``'s frequency table (for a redress: T or Q)."""
        score = self.ns if side == "NS" else self.ew
        return score.for_side(side) if isinstance(score, Redress) else score

    def raw(self, side: str) -> object:
        """The score as given for ``side`` (a Redress stays a Redress)."""
        return self.ns if side == "NS" else self.ew

    def penalty(self, side: str) -> Penalty | None:
        return self.penalty_ns if side == "NS" else self.penalty_ew


# The fields of a plain Entry other than its id and points (Entry.balanced).
_PLAIN_FIELDS = {"group": None, "penalty_ns": None, "penalty_ew": None, "outside_agency": False, "label": ""}


def components(score: object) -> tuple[tuple[object, Fraction], ...]:
    """(points, weight) pairs of a real score: an int is one component of weight 1."""
    if isinstance(score, Weighted):
        return score.components
    if isinstance(score, TeamAdjustment):  # only a team board reads it (Law 86D)
        raise EngineInputError(
            "", "score", _("an adjusted score in IMPs or total points (Law 86D) is for a team match")
        )
    return ((score, Fraction(1)),)


# --- reading JSON -------------------------------------------------------------------------

_INT_RE = re.compile(r"^[+-]?\d+$")
_PERCENT_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")


def parse_points(value: object, where: object, field: str) -> int:
    """Whole points from a JSON number or numeric text; EngineInputError otherwise."""
    if isinstance(value, bool):
        raise EngineInputError(where, field, _("%(value)s is not a number of points", value=repr(value)))
    if isinstance(value, int):
        return value
    if isinstance(value, (float, Decimal)) and value == int(value):
        return int(value)
    if isinstance(value, str) and _INT_RE.match(value.strip()):
        return int(value.strip())
    raise EngineInputError(where, field, _("%(value)s is not a whole number of points", value=_show(value)))


def _weight(value: object, where: object, field: str, weight_decimals: int | None) -> Fraction:
    try:
        weight = weight_fraction(value)
    except (ValueError, ZeroDivisionError):
        raise EngineInputError(
            where, field, _("weight %(weight)s is not a number or fraction", weight=_show(value))
        ) from None
    written_as_fraction = isinstance(value, str) and "/" in value
    if weight_decimals is not None and not written_as_fraction:
        if (weight * 10**weight_decimals).denominator != 1:
            raise EngineInputError(
                where,
                field,
                _(
                    'weight %(weight)s has more than %(n)s decimals (write an exact fraction such as "1/3" instead)',
                    weight=_show(value),
                    n=weight_decimals,
                ),
            )
    if weight <= 0:
        raise EngineInputError(where, field, _("weight %(weight)s must be more than 0", weight=_show(value)))
    return weight


def _weighted(
    value: list[object] | tuple[object, ...],
    where: object,
    field: str,
    max_components: int,
    weight_decimals: int | None,
) -> Weighted:
    if len(value) > max_components:
        raise EngineInputError(
            where,
            field,
            _("%(n)s components: a weighted score has at most %(most)s", n=len(value), most=max_components),
        )
    parts = []
    for pair in value:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise EngineInputError(where, field, _("%(value)s is not a [points, weight] pair", value=_show(pair)))
        parts.append((parse_points(pair[0], where, field), _weight(pair[1], where, field, weight_decimals)))
    if not parts:
        raise EngineInputError(where, field, _("a weighted score needs at least one component"))
    total = sum(weight for _, weight in parts)
    if total != 1:
        raise EngineInputError(where, field, _("weights add up to %(total)s, not 1", total=exact_str(total)))
    return Weighted(tuple(parts))


def _real(value: object, where: object, field: str, max_components: int, weight_decimals: int | None) -> int | Weighted:
    if isinstance(value, (list, tuple)):
        return _weighted(value, where, field, max_components, weight_decimals)
    return parse_points(value, where, field)


def _percent(value: object, where: object, field: str) -> Artificial:
    try:
        percent = to_fraction(value)
    except (ValueError, ZeroDivisionError):
        raise EngineInputError(where, field, _("%(value)s is not a percentage", value=_show(value))) from None
    if not 0 <= percent <= 100:
        raise EngineInputError(where, field, _("%(value)s%% is not between 0 and 100", value=_show(value)))
    return Artificial(percent=percent)


def parse_score(
    value: object,
    where: object = "",
    field: str = "score",
    *,
    max_components: int = MAX_COMPONENTS,
    weight_decimals: int | None = None,
) -> int | Weighted | Artificial | Redress | TeamAdjustment:
    """Read one direction's score from its JSON form.

    - a number (points, N-S's point of view), e.g. ``420``;
    - a weighted score ``[[420, 0.5], [450, "0.3"], [-50, "1/5"]]``, a weight also as a
      percentage of the whole (``[[420, "70%"], [-50, "30%"]]``);
    - ``"AVE+"``, ``"AVE"``, ``"AVE-"``, ``"60%"`` or ``{"percent": 60}``;
    - a redress ``{"table": T, "normal_play": P, "without_infraction": Q,
      "non_offending": "NS"}``;
    - in a team match, the board's result itself: ``{"imps": 5}`` or ``{"total_points": 300}``
      (Law 86D).

    ``max_components`` limits a weighted score's parts; ``weight_decimals`` (e.g. 2) refuses
    weights written with more decimals (exact fractions such as "1/3" are always allowed).
    """
    if isinstance(value, str):
        text = value.strip().upper()
        if text in ARTIFICIAL_CODES:
            return Artificial(code=text)
        match = _PERCENT_RE.match(text)
        if match:
            return _percent(match[1], where, field)
        if not _INT_RE.match(text):
            raise EngineInputError(
                where,
                field,
                _(
                    "%(value)s is not a score: give points, [[points, weight], ...], "
                    'AVE+, AVE, AVE-, a percentage such as "60%%", or a redress object',
                    value=_show(value),
                ),
            )
    if isinstance(value, dict):
        if set(value) == {"percent"}:
            return _percent(value["percent"], where, field)
        if len(value) == 1 and set(value) <= set(TEAM_UNITS):
            return _team_adjustment(value, where, field)
        keys = {"table", "normal_play", "without_infraction", "non_offending"}
        if set(value) != keys:
            missing, extra = keys - set(value), set(value) - keys
            detail = (
                _("missing %(keys)s", keys=", ".join(sorted(missing)))
                if missing
                else _("unknown %(keys)s", keys=", ".join(sorted(extra)))
            )
            raise EngineInputError(where, field, _("not a percentage or a redress object (%(detail)s)", detail=detail))
        side = str(value["non_offending"]).upper().replace("-", "")
        if side not in SIDES:
            raise EngineInputError(
                where, f"{field}.non_offending", _("%(value)s is not NS or EW", value=_show(value["non_offending"]))
            )
        parts = [
            _real(value[key], where, f"{field}.{key}", max_components, weight_decimals)
            for key in ("table", "normal_play", "without_infraction")
        ]
        return Redress(parts[0], parts[1], parts[2], non_offending=side)
    return _real(value, where, field, max_components, weight_decimals)


def _team_adjustment(value: dict[str, object], where: object, field: str) -> TeamAdjustment:
    ((unit, amount),) = value.items()
    try:
        number = to_fraction(amount)
    except (ValueError, ZeroDivisionError, TypeError):
        number = None
    if number is None:
        raise EngineInputError(where, f"{field}.{unit}", _("%(value)s is not a number", value=_show(amount)))
    if unit == "imps" and abs(number) > MAX_BOARD_IMPS:
        raise EngineInputError(
            where, f"{field}.imps", _("%(value)s IMPs: a board is worth at most 24 IMPs (Law 78B)", value=_show(amount))
        )
    if unit == "total_points" and number.denominator != 1:
        raise EngineInputError(
            where, f"{field}.total_points", _("%(value)s is not a whole number of points", value=_show(amount))
        )
    return TeamAdjustment(unit, number)


def parse_penalty(value: object, where: object, field: str) -> Penalty:
    """A penalty: a number of scoring units, or a percentage of a top such as "25%"."""
    percent = _PERCENT_RE.match(value) if isinstance(value, str) else None
    if percent:
        return Penalty(to_fraction(percent[1]), percent=True)
    try:
        amount = to_fraction(value)
    except (ValueError, ZeroDivisionError):
        raise EngineInputError(
            where, field, _('%(value)s is not a penalty (a number or "25%%")', value=_show(value))
        ) from None
    if amount < 0:
        raise EngineInputError(where, field, _("a penalty is a deduction: give it as a positive number"))
    return Penalty(amount)


def describe(obj: object, index: int | None) -> str:
    """How messages name a result: its position, and its table or id when given."""
    if isinstance(obj, dict) and obj.get("table") is not None:
        return (
            _("result %(n)s (table %(table)s)", n=index, table=obj["table"])
            if index is not None
            else _("result (table %(table)s)", table=obj["table"])
        )
    if isinstance(obj, dict) and obj.get("id") is not None:
        return (
            _("result %(n)s (id %(id)s)", n=index, id=obj["id"])
            if index is not None
            else _("result (id %(id)s)", id=obj["id"])
        )
    return _("result %(id)s", id=index) if index is not None else _("result")


def parse_result(
    obj: object,
    index: int | None = None,
    *,
    where: str | None = None,
    max_components: int = MAX_COMPONENTS,
    weight_decimals: int | None = None,
) -> Entry:
    """Read one result ``{"id", "ns", "ew", "group", "penalty", ...}`` into an :class:`Entry`.

    ``index`` (counted from 1) and ``where`` name the result in messages. A plain number for
    "ns" alone is a normal balanced result; "ns" and "ew" that differ make a split score.
    """
    where = where or describe(obj, index)
    if not isinstance(obj, dict):
        raise EngineInputError(where, "", _("%(value)s is not a result object", value=_show(obj)))
    unknown = set(obj) - _RESULT_FIELDS
    if unknown:
        raise EngineInputError(
            where,
            sorted(unknown)[0],
            _("unknown field (a result has %(fields)s)", fields=", ".join(sorted(_RESULT_FIELDS))),
        )
    if "ns" not in obj:
        raise EngineInputError(where, "ns", _("missing: N-S's score is required"))
    ns = parse_score(obj["ns"], where, "ns", max_components=max_components, weight_decimals=weight_decimals)
    ew = (
        parse_score(obj["ew"], where, "ew", max_components=max_components, weight_decimals=weight_decimals)
        if obj.get("ew") is not None
        else None
    )
    if isinstance(ns, Artificial) and ew is None:
        raise EngineInputError(
            where, "ew", _("missing: N-S have %(score)s, so give E-W's artificial score too (e.g. AVE-)", score=str(ns))
        )
    if isinstance(ew, Redress) and not isinstance(ns, Redress):
        raise EngineInputError(where, "ew", _('give a redress as "ns": it describes both sides'))
    if isinstance(ns, Redress) and ew is not None and ew != ns:
        raise EngineInputError(where, "ew", _('a redress describes both sides: give it once, as "ns"'))
    penalties = obj.get("penalty") or {}
    if not isinstance(penalties, dict) or set(penalties) - {"ns", "ew"}:
        raise EngineInputError(where, "penalty", _('write {"ns": amount} and/or {"ew": amount}'))
    penalty = {
        side: parse_penalty(penalties[side], where, f"penalty.{side}")
        for side in ("ns", "ew")
        if penalties.get(side) is not None
    }
    entry_id = obj.get("id", index)
    return Entry(
        entry_id,
        ns,
        ew,
        group=obj.get("group"),
        penalty_ns=penalty.get("ns"),
        penalty_ew=penalty.get("ew"),
        outside_agency=bool(obj.get("outside_agency", False)),
        label=where,
    )


def parse_results(items: object, **options: Any) -> list[Entry]:
    """Read a list of results (see :func:`parse_result`); ids must be unique."""
    if not isinstance(items, list):
        raise EngineInputError("results", "", _("give the results as a list"))
    entries: list[Entry] = []
    seen: set[object] = set()
    for index, obj in enumerate(items, start=1):
        entry = parse_result(obj, index, **options)
        if entry.id in seen:
            raise EngineInputError(entry.name, "id", _("%(id)s is used by another result", id=repr(entry.id)))
        seen.add(entry.id)
        entries.append(entry)
    return entries


def _show(value: object) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."
