"""What every step on a ruling shares: its name in the audit trail, a checked save, the edition of
the Laws in force, the fields kept in its revision log and a refusal under the form's names."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from django.core.exceptions import ValidationError

from core import texts
from rulings.models import Ruling
from scoring.models import Tournament

if TYPE_CHECKING:
    from django.db.models import Model


_M = TypeVar("_M", bound="Model")  # a model instance, returned as given


def ruling_name(ruling: Ruling) -> dict[str, Any]:
    """The ruling's name as a nested text value ("Ruling 4", in the reader's language)."""
    return texts.text("rulings.ruling", number=ruling.number).as_param()


# What is kept of a ruling in its revision log.
REVISED_FIELDS = (
    "kind",
    "facts",
    "facts_found",
    "ruling_text",
    "reasoning",
    "outcome",
    "rectification",
    "offending_side",
    "score_kind",
    "score",
    "score_description",
)


def edition_in_force(tournament: Tournament) -> str:
    return tournament.regulations()["laws_edition"]


def full_save(instance: _M) -> _M:
    instance.full_clean()
    instance.save()
    return instance


def snapshot(ruling: Ruling) -> dict[str, Any]:
    data = {name: getattr(ruling, name) for name in REVISED_FIELDS}
    data["laws"] = sorted(c.law.number for c in ruling.citations.select_related("law") if c.law)
    return data


def jsonable(data: dict[str, Any]) -> dict[str, Any]:
    return {key: (str(value) if isinstance(value, Decimal) else value) for key, value in data.items()}


def penalty_errors(error: ValidationError) -> dict[str, Any]:
    """A penalty's refusal under the form's names for its fields (penalty_amount, ...)."""
    return {
        f"penalty_{name}"
        if name in ("amount", "unit", "player", "kind", "side", "approved_by", "approved_at")
        else name: messages
        for name, messages in error.message_dict.items()
    }


def tournament_at(result: Any = None, board: Any = None) -> Tournament | None:
    """The tournament of the table a ruling is opened at (its result, or its board): what the
    policy asks about before anything is written (None when neither is given: the service then
    refuses the missing board)."""
    where = result.board if result is not None else board
    return where.session.event.tournament if where is not None else None
