"""The steps of a case, each declared once (issue #38): its name, the policy's action, the record
whose state it moves and the transitions it takes there, the states it is offered in, its input
(the one definition the page and the API read), its service, the audit code its service writes,
its page's door and its API action.

Each app declares its own steps in its ``steps`` module (``rulings/steps.py``,
``appeals/steps.py``, ``national/steps.py``) with ``declare``; core is below every app, so it
finds them by name (``registry()`` imports each installed app's ``steps`` module once) and holds
every reference as a dotted name: tests/test_steps.py imports each one.

From the registry:

- ``available(user, subject, on)``: the steps ``user`` may take on ``subject`` (a case, a ruling,
  a casebook, a tournament) now: the policy lets them (``core.policy.may``), the subject's record
  is in a state the step is offered in, and the actions it also asks hold (``also``: a seat on
  the body in person). The case page shows the forms of these steps, and the API lists them
  (``steps`` of an appeal); the service refuses the others, by the same policy and table;
- ``markdown()``: the step table of docs/architecture.md (tests/test_steps.py checks it).

The transitions themselves stay in their tables (core/transitions.py, appeals/lifecycle.py): a
step names the ones it takes (``moves``), and ``transitions(step)`` reads their from and to
states there.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.utils.module_loading import import_string, module_has_submodule

from core import policy

ANY = "any"  # ``states``: the step is offered whatever the record's state
START = None  # a state "before" the record exists (appeals.lifecycle.START): the step creates it


@dataclass(frozen=True)
class Kind:
    """A record whose state steps move: its transition table (dotted name), and how a subject's
    page reaches its state (``state(subject)``; START when the subject has none yet)."""

    name: str
    table: str
    state: Callable[[Any], Any]


@dataclass(frozen=True)
class Step:
    """One step, declared once.

    ``on``: the subject whose page offers it ("case", "ruling", "casebook", "tournament");
    ``record``: the kind of record whose state it reads (a ``Kind`` name); ``actions``: the
    policy's actions, any of which lets a person take it (the service asks the same);
    ``moves``: the steps of a table it takes (the record's, or ``moves_on``'s: a deposit's
    return, offered on the case); none for a step that records without moving a state;
    ``states``: the record's states the page offers it in (None: those its moves leave from,
    or any when it moves none; ``ANY``: any); ``also_in``: (kind, states) another record of
    the subject must be in as well (a further appeal once the appeal is decided); ``also``: actions the person must hold as well
    (``"seat"``: a member sitting in person, where the superuser is not offered a member's
    form); ``about``: what the policy is asked about (the subject's further body), the subject
    itself when None; ``service``, ``input``: dotted names; ``audit``: the code of the audit
    entry its service writes when it takes the step (``audit.models.AuditEntry.action``; the role
    matrix checks it of every step it takes, tests/test_role_matrix.py), "" for a step that
    writes none (tests/test_steps.py names them, with the reason); ``door``: the page's URL name;
    ``api``: the API's URL name."""

    name: str
    on: str
    record: str
    actions: tuple[str, ...]
    service: str
    what: str
    input: str = ""
    moves: tuple[str, ...] = ()
    states: tuple[Any, ...] | str | None = None
    moves_on: str = ""
    also_in: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    also: tuple[str, ...] = ()
    about: Callable[[Any], Any] | None = field(default=None, compare=False)
    audit: str = ""
    door: str = ""
    api: str = ""

    @property
    def action(self) -> str:
        return self.actions[0]


_KINDS: dict[str, Kind] = {}
_STEPS: dict[tuple[str, str], Step] = {}
_LOADED = False


def kind(name: str, table: str, state: Callable[[Any], Any]) -> Kind:
    """Declare a record whose state steps move (its app's ``steps`` module)."""
    _KINDS[name] = Kind(name, table, state)
    return _KINDS[name]


def declare(*steps: Step) -> None:
    """Declare steps (its app's ``steps`` module): one name per subject, once."""
    for step in steps:
        if (step.on, step.name) in _STEPS and _STEPS[(step.on, step.name)] != step:
            raise ValueError(f"The step {step.on}:{step.name} is declared twice.")
        for action in step.actions:
            policy.rule(action)  # LookupError for an action the policy has no rule for
        _STEPS[(step.on, step.name)] = step


def registry() -> dict[tuple[str, str], Step]:
    """Every step declared, {(on, name): step}: each installed app's ``steps`` module, imported once."""
    global _LOADED
    if not _LOADED:
        for config in apps.get_app_configs():
            if module_has_submodule(config.module, "steps"):
                importlib.import_module(f"{config.name}.steps")  # for its declarations
        _LOADED = True
    return _STEPS


def kinds() -> dict[str, Kind]:
    registry()
    return _KINDS


def steps_on(on: str) -> list[Step]:
    return [step for (where, _name), step in registry().items() if where == on]


def step(on: str, name: str) -> Step:
    try:
        return registry()[(on, name)]
    except KeyError:
        raise LookupError(f"No step {name!r} on {on!r}: declare it in its app's steps module.") from None


def table_of(step_: Step) -> Any:
    """The table of the transitions ``step_`` takes (its record's, or ``moves_on``'s)."""
    return import_string(kinds()[step_.moves_on or step_.record].table)


def _entries(table: Any) -> dict[str, Any]:
    """A table's transitions by step (core.transitions.Table's ``steps``, appeals.lifecycle.Machine's ``rules``)."""
    return getattr(table, "rules", None) or table.steps


def transitions(step_: Step) -> list[tuple[tuple[Any, ...], Any]]:
    """(from states, to state) of each transition ``step_`` takes, read from its record's table."""
    entries = _entries(table_of(step_))
    return [(tuple(entries[move].sources), entries[move].target) for move in step_.moves]


def offered_states(step_: Step) -> tuple[Any, ...] | str:
    """The states ``step_`` is offered in (``ANY``: any): its own, or those its transitions
    leave from when they are its record's."""
    if step_.states is not None:
        return step_.states
    if not step_.moves or step_.moves_on:
        return ANY
    return tuple(dict.fromkeys(source for sources, _target in transitions(step_) for source in sources))


def available(user: Any, subject: Any, on: str) -> dict[str, Step]:
    """The steps ``user`` may take on ``subject`` now, by name: the policy lets them, the
    record is in a state the step is offered in, and the actions it also asks hold. The
    policy is asked once per action."""
    answers: dict[tuple[str, Any], bool] = {}
    abouts: dict[Any, Any] = {}

    def may(action: str, about: Any) -> bool:
        if about is not None and about not in abouts:
            abouts[about] = about(subject)
        key = (action, about)
        if key not in answers:
            answers[key] = policy.may(user, action, subject if about is None else abouts[about])
        return answers[key]

    states: dict[str, Any] = {}

    def state_of(record: str) -> Any:
        if record not in states:
            states[record] = kinds()[record].state(subject)
        return states[record]

    found = {}
    for step_ in steps_on(on):
        offered = offered_states(step_)
        conditions = ((step_.record, offered), *step_.also_in) if offered != ANY else step_.also_in
        if not all(state_of(record) in wanted for record, wanted in conditions):
            continue
        if not any(may(action, step_.about) for action in step_.actions):
            continue
        if not all(may(action, step_.about) for action in step_.also):
            continue
        found[step_.name] = step_
    return found


def _names(states: Iterable[Any] | str) -> str:
    if states == ANY:
        return "any"
    return ", ".join("(new)" if state is START else str(state) for state in states) or "-"


BEGIN, END = "<!-- steps: begin (core.steps.markdown) -->", "<!-- steps: end -->"


def markdown() -> str:
    """The step table of docs/architecture.md, between its markers, from the registry."""
    lines = [BEGIN, "", "| on | step | who (policy) | record: from → to | input | service | audit | door · API |"]
    lines.append("|---|---|---|---|---|---|---|---|")
    for (on, name), step_ in sorted(registry().items()):
        moves = "; ".join(f"{_names(sources)} → {target}" for sources, target in transitions(step_))
        offered = offered_states(step_)
        where = f"{step_.moves_on or step_.record}: {moves}" if moves else f"{step_.record}: in {_names(offered)}"
        if moves and step_.states is not None:
            where += f" (offered when the {step_.record} is in {_names(offered)})"
        for record, wanted in step_.also_in:
            where += f", the {record} in {_names(wanted)}"
        who = " or ".join(f"`{action}`" for action in step_.actions)
        inputs = f"`{step_.input.rsplit('.', 1)[-1]}`" if step_.input else "-"
        doors = " · ".join(f"`{door}`" for door in (step_.door, step_.api) if door) or "-"
        audit = f"`{step_.audit}`" if step_.audit else "-"
        lines.append(
            f"| {on} | `{name}` ({step_.what}) | {who} | {where} | {inputs} | `{step_.service}` | {audit} | {doors} |"
        )
    return "\n".join([*lines, "", END])


def rewrite(text: str) -> str:
    """``text`` (docs/architecture.md) with its step table made from the registry again."""
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + markdown() + text[end:]
