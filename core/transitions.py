"""A record's states as one table: the steps that move it, the states each leaves from and the
state it goes to (issue #38). "Which steps may leave GIVEN?" is answered by the table, not by
reading every service.

A service that moves a record's state asks its table (``TABLE.move(record, step)``, or
``TABLE.target(state, step, record)`` for an update by query) and is refused, with the reason in
words (``ValidationError`` on ``state``), a transition the table does not have. The services
check their own preconditions first, each with its own message ("This deposit was already
returned."); the table is the one place that says which moves exist, and the last check.

The tables: the ruling's (rulings/lifecycle.py ``RULING``), the deposit's (appeals/lifecycle.py ``DEPOSIT_STATES``, beside
the appeal's own ``Machine``), the casebook's, its print request's and the push to the national
body's (national/lifecycle.py). docs/architecture.md draws each (``mermaid``);
tests/test_transition_tables.py walks every (state, step) pair of every table.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


@dataclass(frozen=True)
class Transition:
    """One step: the states it leaves from, the state it goes to, and the service that takes it."""

    step: str
    sources: tuple[Any, ...]  # a model's TextChoices members (str to Django, tuples to mypy without its stubs)
    target: Any
    service: str


class Table:
    """The transitions of one model's state field (its ``TextChoices``: ``states``)."""

    def __init__(self, name: str, states: Any, transitions: Iterable[Transition], field: str = "state") -> None:
        self.name, self.states, self.field = name, states, field
        self.steps = {transition.step: transition for transition in transitions}
        for transition in self.steps.values():
            unknown = {*transition.sources, transition.target} - set(states.values)
            if unknown:
                raise ValueError(f"{name}: {transition.step} names states it does not have: {sorted(unknown)}")

    def transitions(self) -> dict[tuple[Any, str], Any]:
        """{(state, step): the state it goes to}, every transition of the table."""
        return {(source, t.step): t.target for t in self.steps.values() for source in t.sources}

    def allows(self, state: Any, step: str) -> bool:
        transition = self.steps.get(step)
        return transition is not None and state in transition.sources

    def target(self, state: Any, step: str, record: Any = None) -> Any:
        """The state ``step`` takes a record in ``state`` to; refused (``ValidationError`` on
        ``state``, naming ``record``) when the table has no such transition."""
        if not self.allows(state, step):
            label = self.states(state).label if state in self.states.values else state
            raise ValidationError(
                {
                    "state": _("%(what)s is %(state)s: this cannot be done now.")
                    % {"what": record if record is not None else self.name, "state": str(label).lower()}
                }
            )
        return self.steps[step].target

    def move(self, record: Any, step: str) -> Any:
        """Set ``record``'s state to where ``step`` takes it (not saved); refused as ``target``."""
        moved = self.target(getattr(record, self.field), step, record)
        setattr(record, self.field, moved)
        return moved

    def update(self, queryset: Any, step: str, **fields: Any) -> int:
        """Take ``step`` by query on the rows of ``queryset`` still in a state it leaves from (a
        compare and set: two workers, one wins), setting ``fields`` too; how many rows moved (0:
        another run moved them first, or the table has no such move from their state)."""
        transition = self.steps[step]
        moved: int = queryset.filter(**{f"{self.field}__in": transition.sources}).update(
            **{self.field: transition.target}, **fields
        )
        return moved

    def mermaid(self) -> str:
        """The table as a Mermaid state diagram (docs/architecture.md)."""
        lines = ["stateDiagram-v2"]
        for (source, step), target in self.transitions().items():
            lines.append(f"    {source} --> {target}: {step}")
        return "\n".join(lines)
