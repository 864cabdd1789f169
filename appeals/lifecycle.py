"""The life of an appeal as one table: its states, the steps that move it from one to another,
who takes each step and what must hold first (the guards). "Which steps may leave SCHEDULED?" is
answered here, not by reading every service.

Every service that moves ``Appeal.state`` (or ``FurtherAppeal.state``) goes through
``appeals.services.common.advance(appeal, step, ...)``, which asks ``APPEAL.target(state,
step)`` and is refused, with the reason in words, a transition this table does not have. The
guards are run by the service that takes the step, at the point where it checks them
(``check(appeal, step)``), so a refusal keeps its place among the step's other checks.

Who may take a step is decided by the service, through the policy (core/policy.py): ``who``
names the rule in words and ``action`` the policy's action (a key of ``core.policy.TABLE``;
tests/test_policy.py checks that each is one).

docs/appeals.md shows the diagram ``mermaid()`` draws from this table
(``manage.py appeal_states --write`` rewrites it; tests/appeals/test_lifecycle.py checks it).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from appeals import selectors
from appeals.models import Appeal, Deposit, FurtherAppeal, Stage
from core.transitions import Table, Transition

if TYPE_CHECKING:
    from appeals.models import Body

State = Appeal.State
START = None  # the state "before" a record exists: the step that creates it leaves from here


class Step(enum.StrEnum):
    """The steps that move an appeal (or its further appeal) from one state to another."""

    LODGE = "lodge"
    CONSTITUTE = "constitute"
    SCHEDULE = "schedule"
    DECIDE = "decide"
    DECIDE_ON_LAW = "decide_on_law"
    WITHDRAW = "withdraw"
    FIND_OUT_OF_TIME = "find_out_of_time"
    LAW_TO_BODY = "law_to_body"
    LAW_TO_NEW_BODY = "law_to_new_body"
    LODGE_FURTHER = "lodge_further"
    DECIDE_FURTHER = "decide_further"

    @property
    def label(self) -> str:
        return STEP_LABELS[self]


# In English: the diagram and the table in docs/appeals.md (a refusal names states, not steps).
STEP_LABELS = {
    Step.LODGE: "lodge the appeal",
    Step.CONSTITUTE: "constitute the body",
    Step.SCHEDULE: "schedule the hearing",
    Step.DECIDE: "decide the appeal",
    Step.DECIDE_ON_LAW: "decide the last part, on law",
    Step.WITHDRAW: "accept the withdrawal",
    Step.FIND_OUT_OF_TIME: "find a late appeal not valid",
    Step.LAW_TO_BODY: "take the decision on law to the body",
    Step.LAW_TO_NEW_BODY: "take the decision on law to a body yet to be formed",
    Step.LODGE_FURTHER: "lodge a further appeal",
    Step.DECIDE_FURTHER: "decide the further appeal",
}


# --- Guards: what must hold before a step is taken --------------------------------------------


def _refuse(field: str, message: str) -> NoReturn:
    raise ValidationError({field: message})


def require_constituted(body: Body | None) -> None:
    """The body exists and every seat is filled by a member with no conflict (and a chair)."""
    if body is None:
        _refuse("body", _("No body has been formed to hear this case."))
    missing = body.missing()
    if missing:
        _refuse(
            "body",
            _("The %(kind)s is not constituted: %(why)s.")
            % {"kind": body.get_kind_display().lower(), "why": "; ".join(missing)},
        )


def require_concurrence(appeal: Appeal) -> None:
    """Everyone whose agreement the appeal needs has given it (Law 92D)."""
    missing = selectors.concurrence_missing(appeal)
    if missing:
        _refuse(
            "concurrence",
            _("The appeal cannot go forward without concurrence (Law 92D): still needed from %(names)s.")
            % {"names": ", ".join(missing)},
        )


def require_deposit(appeal: Appeal) -> None:
    """A deposit the regulations ask for has been received."""
    due = selectors.deposit_due(appeal)
    if due and not appeal.deposits.filter(stage=Stage.EVENT).exists():
        _refuse(
            "deposit",
            _("The deposit of %(amount)s %(currency)s has not been received.") % {"amount": due[0], "currency": due[1]},
        )


def require_hearing(appeal: Appeal) -> None:
    """The case has been heard (a hearing is scheduled; it may be in writing)."""
    if not appeal.hearings.exists():
        _refuse("hearing", _("The case has not been heard: schedule the hearing (it may be in writing) first."))


def require_validity_decided(appeal: Appeal) -> None:
    """An appeal received after the period is heard on its merits only once the body has found
    it valid (issue #44: the desk never decides it)."""
    if selectors.late_filing_pending(appeal):
        _refuse(
            "validity",
            _(
                "This appeal was received after the appeal period (Law 92B): the body first decides "
                "whether it is valid, with its reason."
            ),
        )


def require_late_pending(appeal: Appeal) -> None:
    """The appeal was received late and the body has not yet said whether it is valid."""
    if not selectors.late_filing_pending(appeal):
        _refuse("validity", _("This appeal was not received late, or its validity is already decided."))


def require_withdrawal_asked(appeal: Appeal) -> None:
    """The appellants asked to withdraw."""
    if not appeal.withdrawal_requested_at:
        _refuse("state", _("The appellants have not asked to withdraw."))


# States in which the event's body takes a member: one appointed to fill a seat, or to replace a
# member who stepped down (recused) before the decision. The state does not move: a replacement
# declares his interests and the body sits again (``require_constituted``).
SEATS_OPEN = (State.LODGED, State.CONSTITUTED, State.SCHEDULED)


def vacant_seats(appeal: Appeal, body: Body | None = None) -> int:
    """How many seats of the case's event body wait for a member now (0: none, or not now)."""
    body = body if body is not None else appeal.body()
    if body is None or appeal.state not in SEATS_OPEN:
        return 0
    # from the members (prefetched by a list of cases: appeals/todo.py), not a count a case
    sitting = sum(1 for member in body.members.all() if member.recused_at is None)
    return max(body.size - sitting, 0)


def require_vacant_seat(appeal: Appeal, body: Body | None) -> None:
    """The case's event body exists and a seat is free (a member stepped down, or one was never
    appointed), while the case is still before it."""
    if body is None:
        _refuse("body", _("No body has been formed to hear this case: constitute it first."))
    if appeal.state not in SEATS_OPEN:
        _refuse("state", _("The case is no longer before the body: no member can be appointed now."))
    if not vacant_seats(appeal, body):
        _refuse("user", body_full(body))


def body_full(body: Body) -> str:
    """The refusal of an appointment to a body with every seat taken."""
    return ngettext(
        "The body already has its %(n)s member: they must recuse before another is appointed.",
        "The body already has its %(n)s members: one must recuse before another is appointed.",
        body.size,
    ) % {"n": body.size}


@dataclass(frozen=True)
class Guard:
    name: str
    check: Callable[[Appeal], None]


BODY_CONSTITUTED = Guard("body constituted", lambda appeal: require_constituted(appeal.body()))
CONCURRENCE = Guard("concurrence (92D)", require_concurrence)
DEPOSIT = Guard("deposit received", require_deposit)
HEARD = Guard("heard", require_hearing)
WITHDRAWAL_ASKED = Guard("withdrawal asked", require_withdrawal_asked)
VALIDITY = Guard("validity decided if late", require_validity_decided)
LATE_PENDING = Guard("late, validity undecided", require_late_pending)


# --- The table ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """One step: the states it leaves from, the state it goes to, who takes it (in words, and the
    policy's action, a key of core.policy.TABLE), the guards its service checks, when the service takes it of
    itself (a step no one asks for by name), and the service."""

    step: Step
    sources: tuple[Any, ...]
    target: Any
    who: str
    action: str
    service: str
    guards: tuple[Guard, ...] = ()
    when: str = ""


OPEN = tuple(Appeal.OPEN_STATES)


class Machine:
    """A table of rules for one model's ``state``."""

    def __init__(self, name: str, states: Any, rules: list[Rule]) -> None:
        self.name, self.states, self.rules = name, states, {rule.step: rule for rule in rules}

    def transitions(self) -> dict[tuple[Any, Step], Any]:
        """{(state, step): the state it goes to}, every transition of the table."""
        return {(source, rule.step): rule.target for rule in self.rules.values() for source in rule.sources}

    def target(self, state: Any, step: Step, number: int | None = None) -> Any:
        """The state ``step`` takes a record in ``state`` to; refused (``ValidationError`` on
        ``state``, naming appeal ``number``) when the table has no such transition."""
        rule = self.rules.get(step)
        if rule is not None and state in rule.sources:
            return rule.target
        sources = rule.sources if rule is not None else ()
        _refuse(
            "state",
            _("Appeal %(n)s is %(state)s: this step is taken only when it is %(sources)s.")
            % {
                "n": number if number is not None else "",
                "state": self._name(state),
                "sources": ", ".join(self._name(source) for source in sources) or "-",
            },
        )

    def check(self, record: Any, step: Step) -> None:
        """Run the step's guards, in the table's order; the first that fails refuses the step."""
        for guard in self.rules[step].guards:
            guard.check(record)

    def _name(self, state: Any) -> str:
        if state is START or state not in self.states.values:
            return "-"
        return str(self.states(state).label).lower()


APPEAL = Machine(
    "appeal",
    Appeal.State,
    [
        Rule(
            Step.LODGE,
            (START,),
            State.LODGED,
            who="a director or chief director of the tournament (Law 92C)",
            action="lodge",
            service="lodge_appeal, lodge_requested",
        ),
        Rule(
            Step.CONSTITUTE,
            (State.LODGED,),
            State.CONSTITUTED,
            who="the chief director (forms the body, appoints) or a member (declares)",
            action="body",
            service="appoint_member, declare_conflict",
            when="the event's body becomes constituted",
        ),
        Rule(
            Step.SCHEDULE,
            (State.CONSTITUTED, State.SCHEDULED),
            State.SCHEDULED,
            who="a director or chief director of the tournament",
            action="hearing",
            service="schedule_hearing",
            guards=(BODY_CONSTITUTED, CONCURRENCE, DEPOSIT),
        ),
        Rule(
            Step.DECIDE,
            (State.CONSTITUTED, State.SCHEDULED),
            State.DECIDED,
            who="a member sitting on the body (the chief director when he hears alone)",
            action="decision",
            service="decide_appeal",
            guards=(BODY_CONSTITUTED, VALIDITY, CONCURRENCE, HEARD),
        ),
        Rule(
            Step.DECIDE_ON_LAW,
            OPEN,
            State.DECIDED,
            who="the chief director (director in charge, Law 93B1)",
            action="law_part",
            service="decide_law_part",
            guards=(CONCURRENCE,),
            when="every part is about law and the last is decided",
        ),
        Rule(
            Step.WITHDRAW,
            OPEN,
            State.WITHDRAWN,
            who="a member sitting on the body (the chief director before one sits)",
            action="decision",
            service="accept_withdrawal",
            guards=(WITHDRAWAL_ASKED,),
        ),
        Rule(
            Step.FIND_OUT_OF_TIME,
            (State.CONSTITUTED, State.SCHEDULED),
            State.OUT_OF_TIME,
            who="a member sitting on the body (never the desk: issue #44)",
            action="decision",
            service="record_validity",
            guards=(BODY_CONSTITUTED, LATE_PENDING),
        ),
        Rule(
            Step.LAW_TO_BODY,
            (State.DECIDED,),
            State.CONSTITUTED,
            who="a director or chief director of the tournament (Law 93B1)",
            action="appeal_law_decision",
            service="appeal_law_decision",
            when="the event's body is constituted",
        ),
        Rule(
            Step.LAW_TO_NEW_BODY,
            (State.DECIDED,),
            State.LODGED,
            who="a director or chief director of the tournament (Law 93B1)",
            action="appeal_law_decision",
            service="appeal_law_decision",
            when="no constituted body sits yet",
        ),
    ],
)

FURTHER = Machine(
    "further appeal",
    FurtherAppeal.State,
    [
        Rule(
            Step.LODGE_FURTHER,
            (START,),
            FurtherAppeal.State.LODGED,
            who="a director for a player; the director or a sitting member as a referral (Law 93C)",
            action="further_appeal",
            service="lodge_further_appeal",
        ),
        Rule(
            Step.DECIDE_FURTHER,
            (FurtherAppeal.State.LODGED,),
            FurtherAppeal.State.DECIDED,
            who="a member sitting on the regulating authority's body",
            action="decision",
            service="decide_further_appeal",
        ),
    ],
)


def check(appeal: Appeal, step: Step) -> None:
    """The guards of an appeal's step (see ``Machine.check``)."""
    APPEAL.check(appeal, step)


# --- The diagram ----------------------------------------------------------------------------------


def mermaid() -> str:
    """The appeal's states and steps as a Mermaid state diagram, from the table (docs/appeals.md)."""
    lines = ["stateDiagram-v2"]
    for machine, prefix in ((APPEAL, ""), (FURTHER, "further_")):
        for rule in machine.rules.values():
            label = rule.step.value
            if rule.guards:
                label += " [" + ", ".join(guard.name for guard in rule.guards) + "]"
            if rule.when:
                label += f" when {rule.when}"
            for source in rule.sources:
                start = "[*]" if source is START else prefix + source
                lines.append(f"    {start} --> {prefix}{rule.target}: {label}")
    return "\n".join(lines) + "\n"


# --- The deposit's table (core/transitions.py) ---------------------------------------------------
# Held when received; returned once the case it was lodged for is over, or forfeited when the
# appeal is found without merit (Law 92A). Its service checks those conditions first.

DEPOSIT_STATES = Table(
    "deposit",
    Deposit.State,
    [
        Transition("return", (Deposit.State.HELD,), Deposit.State.RETURNED, "appeals.services.lodging.return_deposit"),
        Transition("forfeit", (Deposit.State.HELD,), Deposit.State.FORFEITED, "appeals.services.lodging.forfeit"),
    ],
)


BEGIN, END = "<!-- appeal states: begin (manage.py appeal_states --write) -->", "<!-- appeal states: end -->"


def document() -> str:
    """The states section of docs/appeals.md, between its markers: the diagram and the table."""
    lines = [BEGIN, "", "```mermaid", mermaid().rstrip("\n"), "```", ""]
    lines += ["| step | from | to | who | guards |", "|---|---|---|---|---|"]
    for machine in (APPEAL, FURTHER):
        for rule in machine.rules.values():
            sources = ", ".join("(new)" if s is START else str(s) for s in rule.sources)
            guards = ", ".join(g.name for g in rule.guards)
            if rule.when:
                guards = f"{guards}; when {rule.when}" if guards else f"when {rule.when}"
            step = f"`{rule.step.value}` ({rule.step.label}; `{rule.service}`)"
            lines.append(f"| {step} | {sources} | {rule.target} | {rule.who} | {guards} |")
    return "\n".join([*lines, "", END])


def rewrite(text: str) -> str:
    """``text`` (docs/appeals.md) with its states section made from the table again."""
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + document() + text[end:]
