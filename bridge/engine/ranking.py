"""Ranking totals with shared places ("2=" style) and a pluggable tie-break."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from numbers import Rational
from typing import Any

__all__ = ["Placing", "rank"]


@dataclass(frozen=True)
class Placing:
    """``id`` finished in ``place`` (1 = first); ``shared`` when others have the same place."""

    id: object
    total: object
    place: int
    shared: bool

    @property
    def label(self) -> str:
        """The place as printed: "1", "2=", ..."""
        return f"{self.place}{'=' if self.shared else ''}"


def rank(
    totals: Mapping[Any, Any], *, tie_break: Callable[[Any], Any] | None = None, descending: bool = True
) -> list[Placing]:
    """Rank ``totals`` ({id: total}); equal totals share the best place ("2=", then 4).

    ``tie_break(id)`` returns a sort key (higher is better when ``descending``) used only
    among equal totals, e.g. head-to-head or a count-back that the conditions of contest name;
    results still equal on it share the place. Without one, equal totals share (the default).
    Return a list of :class:`Placing`, best first; ids equal on everything keep input order.
    """

    # Numbers are sorted by their float first (correctly rounded, so never out of order) and
    # by the exact value only where the floats are equal: a field of 20,000 Fractions ranks
    # without comparing Fractions but for the ties.
    numbers = all(isinstance(total, (Rational, Decimal)) for total in totals.values())

    def key(item: tuple[Any, Any]) -> tuple[Any, ...]:
        entry_id, total = item
        first = (float(total), total) if numbers else (total,)
        return (*first, tie_break(entry_id)) if tie_break else first

    keys = {entry_id: key((entry_id, total)) for entry_id, total in totals.items()}
    ordered = sorted(totals.items(), key=lambda item: keys[item[0]], reverse=descending)
    placings, place, n = [], 0, len(ordered)
    for position, (entry_id, total) in enumerate(ordered):
        this = keys[entry_id]
        if position == 0 or this != keys[ordered[position - 1][0]]:
            place = position + 1
        shared = place != position + 1 or (position + 1 < n and keys[ordered[position + 1][0]] == this)
        placings.append(Placing(entry_id, total, place, shared))
    return placings
