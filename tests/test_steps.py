"""The registry of steps (core/steps.py, issue #38): every step declared once, every name it gives
(its service, its input, its table's transitions, its door, its API action, its policy's action)
real; the docs' step table made from it; "the steps this user may take on this case now" answered
by the policy and the tables, and the same for the case page and the API."""

from pathlib import Path

import pytest
from django.urls import reverse
from django.utils.module_loading import import_string

from appeals import step_views
from appeals.api import STEP_INPUTS, AppealViewSet
from core import policy, steps
from core.steps import ANY

ROOT = Path(__file__).resolve().parent.parent
STEPS = sorted(steps.registry().items())
# Steps that take their move on one of their answers only (a late appeal found not valid): the
# page offers them where the other answer is taken too.
MOVES_ON_ONE_ANSWER = {"validity"}
IDS = [f"{on}:{name}" for (on, name), _step in STEPS]


def test_the_registry_has_every_step_of_a_case():
    names = {on: {name for (where, name) in steps.registry() if where == on} for on, _name in steps.registry()}
    assert len(names["case"]) == 30
    assert {"give", "correct", "lodge", "request_appeal", "extend_period"} <= names["ruling"]
    assert names["casebook"] == {"publish", "finalise"}
    assert names["tournament"] == {"publish", "send", "give_up"}
    assert names["player"] == {"match", "unmatch"}


@pytest.mark.parametrize("step", [step for _key, step in STEPS], ids=IDS)
def test_every_name_a_step_gives_is_real(step):
    assert callable(import_string(step.service)), step.service
    if step.input:
        import_string(step.input)
    for action in (*step.actions, *step.also):
        policy.rule(action)
    assert step.record in steps.kinds()
    table = steps.table_of(step)
    for sources, target in steps.transitions(step):  # KeyError: a move its table does not have
        assert target is not None and sources
    offered = steps.offered_states(step)
    if offered != ANY:
        states = import_string(steps.kinds()[step.record].table).states.values
        assert set(offered) - {steps.START} <= set(states), offered
        if step.moves and not step.moves_on and step.name not in MOVES_ON_ONE_ANSWER:  # never where its table refuses
            sources = {source for sources, _target in steps.transitions(step) for source in sources}
            assert set(offered) <= sources, (offered, sources)
    for record, wanted in step.also_in:
        assert set(wanted) <= set(import_string(steps.kinds()[record].table).states.values), (record, wanted)
    assert table is not None
    if step.door:
        reverse(step.door, args=[1])
    if step.api:
        reverse(step.api, args=[] if step.api.endswith("-list") else [1])


def test_the_case_doors_are_the_registry_s():
    case = steps.steps_on("case")
    assert [name for name, _view in step_views.STEPS] == [step.door.split(":case-")[1] for step in case]
    assert all(view.__name__ == step.name for (_name, view), step in zip(step_views.STEPS, case, strict=True))


def test_the_api_reads_each_step_s_input_from_the_registry():
    for step in steps.steps_on("case"):
        if step.api:
            action = step.api.removeprefix("appeal-").replace("-", "_")
            assert STEP_INPUTS[action] is import_string(step.input), step.name
            assert hasattr(AppealViewSet, action), action
    assert STEP_INPUTS["create"] is import_string(steps.step("ruling", "lodge").input)


def test_the_docs_step_table_is_the_registry_s():
    text = (ROOT / "docs" / "architecture.md").read_text()
    assert steps.markdown() in text, "docs/architecture.md: run steps.rewrite on it (see core/steps.py)"


def test_a_step_is_declared_once():
    step = steps.step("case", "vote")
    steps.declare(step)  # the same declaration again is no second step
    with pytest.raises(ValueError, match="declared twice"):
        steps.declare(steps.Step("vote", "case", "appeal", ("seat",), step.service, "vote again"))
    with pytest.raises(LookupError, match="No rule"):
        steps.declare(steps.Step("new", "case", "appeal", ("no_such_action",), step.service, "new"))
    with pytest.raises(LookupError, match="No step"):
        steps.step("case", "no_such_step")


# Steps whose service writes no audit entry, and why.
UNAUDITED = {
    ("tournament", "publish"): "a push is its own record (national.federation.models.Push), sent to the national body",
    ("tournament", "send"): "the worker's part of a push: the push records its state, attempts and error",
    ("tournament", "give_up"): "the worker's part of a push: the push records that it stopped, and where",
}


@pytest.mark.parametrize("step", [step for _key, step in STEPS], ids=IDS)
def test_every_step_declares_the_audit_code_its_service_writes(step):
    """The code is checked against what the service writes where the role matrix takes the step
    (tests/test_role_matrix.py); here, that every step names one of the trail's codes."""
    from appeals.models import AppealEvent

    if (step.on, step.name) in UNAUDITED:
        assert step.audit == ""
        return
    family, _dot, code = step.audit.partition(".")
    assert family and code, f"{step.on}:{step.name} declares no audit code"
    if family == "appeal":  # an appeal's step: its event's action (appeals.services.common.log_step)
        assert code in AppealEvent.Action.values, step.audit
    else:
        assert family in {"ruling", "casebook", "appeal_request", "filing", "player"}, step.audit


def test_the_role_matrix_takes_every_audited_step_and_checks_its_code():
    from tests.roles import matrix
    from tests.test_role_matrix import STEP_AUDITS

    assert STEP_AUDITS["case-concurrence"] == {"appeal.concurrence"}
    assert STEP_AUDITS["appeal-constitute"] == {"appeal.body_created"}
    assert STEP_AUDITS["ruling-give"] == {"ruling.given"}
    posted = {row.name for row in matrix.ROWS if row.method != "GET"}
    unwalked = [
        f"{on}:{name}"
        for (on, name), step in STEPS
        if step.audit and not {door.split(":")[-1] for door in (step.door, step.api) if door} & posted
    ]
    assert unwalked == []
