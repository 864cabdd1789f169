"""The transition tables of the ruling, the deposit, the casebook, its print request and the push (core/transitions.py,
issue #38): every (state, step) pair of every table walked, only the table's transitions succeed,
each refusal names the record and its state; and no service sets one of these states but through
its table."""

import ast
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from appeals.lifecycle import DEPOSIT_STATES
from appeals.models import Deposit
from national.federation.models import PlayerMatch, Push
from national.lifecycle import CASEBOOK, PLAYER_MATCH, PRINT, PUSH
from national.models import Casebook, CasebookPrint
from rulings.lifecycle import RULING
from rulings.models import Ruling
from tests.appeals.conftest import case  # noqa: F401 - a fixture
from tests.national.test_casebooks import decided  # noqa: F401 - a fixture

ROOT = Path(__file__).resolve().parent.parent

R, D, C, P, J = Ruling.State, Deposit.State, Casebook.State, Push.State, CasebookPrint.State
M = PlayerMatch.State
APPEALED = {R.GIVEN, R.FINAL, R.UNDER_APPEAL, R.CHANGED_BY_APPEAL, R.SUPERSEDED}
# What each table must allow, written out apart from the tables: {(state, step): target}.
EXPECTED = {
    "ruling": {
        (R.DRAFT, "give"): R.GIVEN,
        (R.GIVEN, "finalise"): R.FINAL,
        (R.GIVEN, "supersede"): R.SUPERSEDED,
        (R.FINAL, "supersede"): R.SUPERSEDED,
        **{(s, "appeal"): R.UNDER_APPEAL for s in (R.GIVEN, R.FINAL, R.UNDER_APPEAL, R.SUPERSEDED)},
        **{(s, "settle_open"): R.UNDER_APPEAL for s in APPEALED},
        **{(s, "settle_changed"): R.CHANGED_BY_APPEAL for s in APPEALED},
        **{(s, "settle_decided"): R.FINAL for s in APPEALED},
        **{(s, "settle_withdrawn"): R.GIVEN for s in APPEALED},
    },
    "deposit": {(D.HELD, "return"): D.RETURNED, (D.HELD, "forfeit"): D.FORFEITED},
    "casebook": {(C.DRAFT, "publish"): C.PUBLISHED, (C.PUBLISHED, "finalise"): C.FINAL},
    "print": {
        (J.PENDING, "claim"): J.PRINTING,
        (J.PRINTING, "print"): J.READY,
        (J.PRINTING, "fail"): J.FAILED,
        (J.PENDING, "give_up"): J.FAILED,
        (J.PRINTING, "give_up"): J.FAILED,
    },
    "push": {
        **{(s, "send"): P.SENDING for s in (P.WAITING, P.SENDING, P.STOPPED)},
        (P.SENDING, "refuse"): P.REFUSED,
        (P.SENDING, "deliver"): P.DELIVERED,
        **{(s, "give_up"): P.STOPPED for s in (P.WAITING, P.SENDING, P.STOPPED)},
    },
    "player match": {(M.MATCHED, "unmatch"): M.UNMATCHED},
}
TABLES = {
    "ruling": (RULING, Ruling),
    "deposit": (DEPOSIT_STATES, Deposit),
    "casebook": (CASEBOOK, Casebook),
    "print": (PRINT, CasebookPrint),
    "push": (PUSH, Push),
    "player match": (PLAYER_MATCH, PlayerMatch),
}


class Record:
    """A record as a table sees it: its state, and its name in a refusal."""

    def __init__(self, state):
        self.state = state

    def __str__(self):
        return "The record"


@pytest.mark.parametrize("name", sorted(TABLES))
def test_every_state_and_step_of_the_table_moves_only_where_the_table_says(name):
    table, model = TABLES[name]
    assert table.transitions() == EXPECTED[name]
    walked = 0
    for state in model.State.values:
        for step in table.steps:
            record = Record(state)
            expected = EXPECTED[name].get((state, step))
            if expected is not None:
                assert table.move(record, step) == expected
                assert record.state == expected
            else:
                with pytest.raises(ValidationError) as refused, translation.override("en"):
                    table.move(record, step)
                label = str(model.State(state).label).lower()
                assert refused.value.message_dict == {"state": [f"The record is {label}: this cannot be done now."]}
                assert record.state == state, "a refused step leaves the state as it was"
            walked += 1
    assert walked == len(model.State.values) * len(table.steps)


def test_a_refusal_is_in_the_readers_language():
    with translation.override("nl"), pytest.raises(ValidationError) as refused:
        DEPOSIT_STATES.move(Record(Deposit.State.RETURNED), "forfeit")
    with translation.override("nl"):
        returned = str(Deposit.State.RETURNED.label).lower()
        assert returned != "returned"
        assert refused.value.message_dict == {"state": [f"The record is {returned}: dit kan nu niet."]}


def test_each_table_draws_its_diagram():
    assert CASEBOOK.mermaid() == (
        "stateDiagram-v2\n    draft --> published: publish\n    published --> final: finalise"
    )


def state_constants(node):
    """``Ruling.State.GIVEN`` and the like: (model, state) for a constant of one of the tables."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "State"
        and isinstance(node.value.value, ast.Name)
        and node.value.value.id in TABLED_MODELS
    ):
        return node.value.value.id
    return None


TABLED_MODELS = {"Ruling", "Deposit", "Casebook", "CasebookPrint", "Push", "PlayerMatch"}


def assignments_of_tabled_states(path):
    """(line, model) for each ``x.state = Model.State.X`` (a tuple assignment too) and each
    ``.update(state=Model.State.X)`` / ``.create(state=...)`` in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                pairs = (
                    zip(target.elts, node.value.elts)
                    if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                    else [(target, node.value)]
                )
                for left, right in pairs:
                    if isinstance(left, ast.Attribute) and left.attr == "state" and state_constants(right):
                        found.append((node.lineno, state_constants(right)))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "update":
            for keyword in node.keywords:
                if keyword.arg == "state" and state_constants(keyword.value):
                    found.append((node.lineno, state_constants(keyword.value)))
    return found


def test_no_service_sets_a_tabled_state_but_through_its_table():
    offences = [
        f"{path.relative_to(ROOT)}:{line}: {model}.state"
        for app in ("core", "audit", "scoring", "rulings", "appeals", "national")
        for path in sorted((ROOT / app).rglob("*.py"))
        if "migrations" not in path.parts
        for line, model in assignments_of_tabled_states(path)
    ]
    assert offences == []


def test_the_guard_sees_each_way_of_setting_a_state(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(
        "ruling.state = Ruling.State.FINAL\n"
        "deposit.state, deposit.note = Deposit.State.RETURNED, ''\n"
        "Push.objects.filter(pk=1).update(state=Push.State.SENDING)\n"
        "CasebookPrint.objects.filter(pk=1).update(state=CasebookPrint.State.READY, size=1)\n"
        "appeal.state = Appeal.State.DECIDED\n"
        "ruling.state = RULING.target(ruling.state, 'give')\n"
    )
    assert assignments_of_tabled_states(probe) == [(1, "Ruling"), (2, "Deposit"), (3, "Push"), (4, "CasebookPrint")]


@pytest.mark.django_db
def test_a_move_by_query_takes_only_the_rows_in_a_state_it_leaves_from(decided):
    """The print request's worker claims a request by query (``PRINT.update``): one of two runs
    wins, and a request already finished is not claimed again."""
    from django.utils import timezone

    from national.models import CasebookPrint
    from tests.national.test_casebooks import compile_book

    casebook = compile_book(decided)
    job = CasebookPrint.objects.create(
        casebook=casebook, casebook_state=casebook.state, requested_by=decided.auditor, requested_at=timezone.now()
    )
    rows = CasebookPrint.objects.filter(pk=job.pk)
    assert (PRINT.update(rows, "claim"), PRINT.update(rows, "claim")) == (1, 0)
    assert PRINT.update(rows, "print", size=3) == 1
    job.refresh_from_db()
    assert (job.state, job.size) == (J.READY, 3)
    assert (PRINT.update(rows, "give_up"), PRINT.update(rows, "claim")) == (0, 0)
