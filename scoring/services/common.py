"""What the competition record's services share: a checked save and a checked update."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from django.core.exceptions import ValidationError

if TYPE_CHECKING:
    from django.db.models import Model


_M = TypeVar("_M", bound="Model")  # a model instance, returned as given


def full_save(instance: _M) -> _M:
    instance.full_clean()
    instance.save()
    return instance


def full_update(instance: _M, fields: dict[str, Any]) -> _M:
    for name, value in fields.items():
        setattr(instance, name, value)
    return full_save(instance)


def in_words(error: Exception) -> str:
    """A refusal as one line: ``contract: ...; tricks: ...`` for a ValidationError by field, its
    messages otherwise."""
    if isinstance(error, ValidationError) and hasattr(error, "error_dict"):
        return "; ".join(f"{name}: {' '.join(messages)}" for name, messages in error.message_dict.items())
    return " ".join(getattr(error, "messages", [str(error)]))
