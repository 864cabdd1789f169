"""Exact numbers and the roundings that rules name.

Scores are computed as ``fractions.Fraction`` and rounded only for display or where a rule
says so:

- EBU: to 0.1, an exact half towards the average of the board (``round_toward``);
- ACBL: to 0.01, an exact half up (``round_half_up``);
- WBF victory points: to 0.01 (``round_half_up``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from decimal import Decimal
from fractions import Fraction
from math import floor, gcd

# What the rounding functions take: anything ``Fraction()`` reads exactly.
Number = Fraction | int | Decimal | str

__all__ = [
    "to_fraction",
    "weight_fraction",
    "round_half_up",
    "round_half_away",
    "round_half_even",
    "round_toward",
    "round_step",
    "exact_str",
    "exact_ratio_str",
    "exact_sum",
    "decimal_str",
    "ebu",
    "acbl",
]


def to_fraction(value: object) -> Fraction:
    """Return ``value`` (int, Fraction, Decimal, float or text such as "0.25", "1/3") exactly.

    A float is read through its shortest repr, so 0.3 is 3/10 and not the binary neighbour.
    Raise ValueError for anything else.
    """
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a number")
    if isinstance(value, (int, Fraction)):
        return Fraction(value)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{value} is not a finite number")
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(Decimal(repr(value)))
    if isinstance(value, str):
        return Fraction(value.strip())  # "0.25", "1/3", "7"; raises ValueError otherwise
    raise ValueError(f"{value!r} is not a number")


def weight_fraction(value: object) -> Fraction:
    """A weight of a weighted score (Law 12C1c) exactly, as a director writes it: a number or text
    that ``to_fraction`` reads ("0.6", "1/3") or a percentage of the whole ("60%", "33.5 %",
    "100/3%"). A weighted score keeps its weights as they were written, so they read back as
    typed; they are computed from this. Raise ValueError for anything else."""
    if isinstance(value, str) and value.strip().endswith("%"):
        return to_fraction(value.strip()[:-1]) / 100
    return to_fraction(value)


def _split(value: Number, step: Number) -> tuple[int, Fraction, Fraction]:
    """Return (lower multiple of step, remainder ratio in [0, 1)) for exact ``value``."""
    value, step = Fraction(value), Fraction(step)
    units = value / step
    low = floor(units)
    return low, units - low, step


def round_half_up(value: Number, step: Number = Fraction(1, 100)) -> Fraction:
    """Round to a multiple of ``step``; an exact half goes up (towards +infinity)."""
    low, rest, step = _split(value, step)
    return (low + (rest >= Fraction(1, 2))) * step


def round_half_away(value: Number, step: Number = 1) -> Fraction:
    """Round to a multiple of ``step``; an exact half goes away from zero."""
    value = Fraction(value)
    return -round_half_up(-value, step) if value < 0 else round_half_up(value, step)


def round_half_even(value: Number, step: Number = 1) -> Fraction:
    """Round to a multiple of ``step``; an exact half goes to the even multiple."""
    low, rest, step = _split(value, step)
    if rest == Fraction(1, 2):
        return (low + (low % 2)) * step
    return (low + (rest > Fraction(1, 2))) * step


def round_toward(value: Number, step: Number, target: Number) -> Fraction:
    """Round to a multiple of ``step``; an exact half goes towards ``target`` (the average).

    This is the EBU rule for matchpoints: 17.55 on a board whose average is 9 becomes 17.5,
    and 0.45 becomes 0.5.
    """
    low, rest, step = _split(value, step)
    if rest == Fraction(1, 2):
        return (low + (Fraction(value) < Fraction(target))) * step
    return (low + (rest > Fraction(1, 2))) * step


def _round_half_down(value: Number, step: Number) -> Fraction:
    return -round_half_up(-Fraction(value), step)


_HALF_RULES: dict[str, Callable[[Number, Number], Fraction]] = {
    "up": round_half_up,
    "away": round_half_away,
    "even": round_half_even,
    "down": _round_half_down,
}


def round_step(value: Number, step: Number, half: str = "away") -> Fraction:
    """Round to a multiple of ``step`` with the named rule for halves: up, down, away, even."""
    try:
        rule = _HALF_RULES[half]
    except KeyError:
        raise ValueError(f"rounding of a half is one of {', '.join(_HALF_RULES)}, not {half!r}") from None
    return rule(value, step)


def ebu(value: Number, top: Number) -> Fraction:
    """EBU matchpoint rounding: 0.1, halves towards the average ``top / 2``."""
    return round_toward(value, Fraction(1, 10), Fraction(top) / 2)


def acbl(value: Number) -> Fraction:
    """ACBL matchpoint rounding: 0.01, halves up."""
    return round_half_up(value, Fraction(1, 100))


def exact_sum(values: Iterable[Fraction]) -> Fraction:
    """The exact sum of Fractions, adding numerators over equal denominators first.

    Much quicker than ``sum()`` for totals over many boards, where denominators repeat.
    """
    by_denominator: dict[int, int] = {}
    for value in values:
        den = value.denominator
        by_denominator[den] = by_denominator.get(den, 0) + value.numerator
    return sum((Fraction(num, den) for den, num in by_denominator.items()), Fraction(0))


def decimal_str(value: Number, places: int) -> str:
    """Text of an already rounded ``value`` with exactly ``places`` decimals, e.g. "7.50"."""
    value = Fraction(value)
    scaled = value * 10**places
    if scaled.denominator != 1:
        raise ValueError(f"{value} has more than {places} decimals: round it first")
    return f"{Decimal(scaled.numerator).scaleb(-places):.{places}f}"


def exact_str(value: Number) -> str:
    """Exact text of a Fraction: a finite decimal ("7.5", "-0.25", "12") or "23/3"."""
    if type(value) is not Fraction:  # making a Fraction of a Fraction costs a gcd
        value = Fraction(value)
    return _lowest_terms_str(value.numerator, value.denominator)


def exact_ratio_str(numerator: int, denominator: int) -> str:
    """``exact_str`` of ``numerator / denominator`` (integers, not necessarily in lowest terms;
    denominator non-zero) without making a Fraction."""
    if denominator < 0:
        numerator, denominator = -numerator, -denominator
    common = gcd(numerator, denominator)
    return _lowest_terms_str(numerator // common, denominator // common)


def _lowest_terms_str(numerator: int, denominator: int) -> str:
    den = denominator
    twos = fives = 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    if den != 1:
        return f"{numerator}/{denominator}"
    places = max(twos, fives)
    if places == 0:
        return str(numerator)
    scaled = numerator * 10**places // denominator  # exact: the denominator divides 10**places
    return f"{Decimal(scaled).scaleb(-places):.{places}f}"
