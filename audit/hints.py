"""Type hints the apps share. Django ships no stubs here, so mypy sees its classes as Any."""

from typing import Any, TypeAlias

# A value of a model's TextChoices (a str at run time). Without Django's stubs mypy takes a
# member such as ``Appeal.State.DECIDED`` for its (value, label) tuple, so the hint is Any.
Choice: TypeAlias = Any
