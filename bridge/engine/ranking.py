"""Ranking totals with shared places ("2=" style) and a pluggable tie-break."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
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

    def key(item: tuple[Any, Any]) -> tuple[Any, ...]:
        entry_id, total = item
        return (total, tie_break(entry_id)) if tie_break else (total,)

    ordered = sorted(totals.items(), key=key, reverse=descending)
    keys = [key(item) for item in ordered]
    count = Counter(keys)
    placings, place = [], 0
    for position, (entry_id, total) in enumerate(ordered):
        if position == 0 or keys[position] != keys[position - 1]:
            place = position + 1
        placings.append(Placing(entry_id, total, place, count[keys[position]] > 1))
    return placings
