"""The appeal's life as one transition table (issue #26): every pair (state, step) walked through
``advance``, exactly the table's transitions succeed; the services go through it; and the diagram
in docs/appeals.md is the one the table draws."""

from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import transaction

from appeals import lifecycle, services
from appeals.lifecycle import APPEAL, FURTHER, START, Step
from appeals.models import Appeal, AppealEvent
from appeals.services.common import advance
from tests.appeals.conftest import SOON, lodge, ready, vote_all

pytestmark = pytest.mark.django_db

# Written out here, not read from the table: a change of the appeal's life is a change of this test.
EXPECTED = {
    (START, "lodge"): "lodged",
    ("lodged", "constitute"): "constituted",
    ("constituted", "schedule"): "scheduled",
    ("scheduled", "schedule"): "scheduled",
    ("constituted", "decide"): "decided",
    ("scheduled", "decide"): "decided",
    ("lodged", "decide_on_law"): "decided",
    ("constituted", "decide_on_law"): "decided",
    ("scheduled", "decide_on_law"): "decided",
    ("lodged", "withdraw"): "withdrawn",
    ("constituted", "withdraw"): "withdrawn",
    ("scheduled", "withdraw"): "withdrawn",
    # Issue #44: an appeal received late, found not valid by its body, ends unheard.
    ("constituted", "find_out_of_time"): "out_of_time",
    ("scheduled", "find_out_of_time"): "out_of_time",
    ("decided", "law_to_body"): "constituted",
    ("decided", "law_to_new_body"): "lodged",
}
APPEAL_STEPS = [step for step in Step if step in APPEAL.rules]


def test_the_table_has_exactly_the_appeals_transitions():
    assert APPEAL.transitions() == EXPECTED
    assert FURTHER.transitions() == {(START, "lodge_further"): "lodged", ("lodged", "decide_further"): "decided"}


def test_every_state_and_step_through_advance_exactly_the_tables_transitions_succeed(case):
    appeal = lodge(case)
    walked = 0
    for state in Appeal.State.values:
        for step in APPEAL_STEPS:
            Appeal.objects.filter(pk=appeal.pk).update(state=state)
            appeal.refresh_from_db()
            events = AppealEvent.objects.filter(appeal=appeal).count()
            with transaction.atomic():
                try:
                    event = advance(appeal, step, action="statement", by=case.director, at=SOON)
                except ValidationError as error:
                    assert (state, step) not in EXPECTED, f"{state} --{step}--> refused: {error}"
                    assert list(error.message_dict) == ["state"]
                    assert Appeal.objects.get(pk=appeal.pk).state == state
                    assert AppealEvent.objects.filter(appeal=appeal).count() == events
                else:
                    assert (state, step) in EXPECTED, f"{state} --{step}--> {appeal.state} is not in the table"
                    assert Appeal.objects.get(pk=appeal.pk).state == EXPECTED[state, step]
                    assert (event.from_state, event.to_state) == (state, EXPECTED[state, step])
                transaction.set_rollback(True)
            walked += 1
    assert walked == len(Appeal.State.values) * len(APPEAL_STEPS) == 6 * 9


def test_a_refused_transition_names_the_state_and_where_the_step_leaves_from(case):
    appeal = lodge(case)
    Appeal.objects.filter(pk=appeal.pk).update(state="decided")
    appeal.refresh_from_db()
    with pytest.raises(ValidationError) as refused:
        advance(appeal, Step.SCHEDULE, action="hearing_scheduled", by=case.director, at=SOON)
    assert refused.value.message_dict == {
        "state": [
            f"Appeal {appeal.number} is decided: this step is taken only when it is body constituted, hearing scheduled."
        ]
    }


def test_a_service_is_refused_a_transition_the_table_does_not_have(case):
    """A decision from 'lodged' passes every guard of the service (the body sits, the case was
    heard, the members voted) but is not in the table: refused, nothing decided. Before the
    table, the state was whatever the service wrote."""
    appeal, body, _hearing = ready(case)
    vote_all(body, "uphold")
    Appeal.objects.filter(pk=appeal.pk).update(state="lodged")
    with pytest.raises(ValidationError) as refused:
        services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="It stands", now=SOON)
    assert refused.value.message_dict == {
        "state": [
            f"Appeal {appeal.number} is lodged with the director: this step is taken only when it is body "
            "constituted, hearing scheduled."
        ]
    }
    appeal.refresh_from_db()
    assert (appeal.state, appeal.outcome) == ("lodged", "")


def test_the_steps_move_the_states_the_table_says(case):
    appeal, body, _hearing = ready(case)
    events = AppealEvent.objects.filter(appeal=appeal).order_by("pk")
    assert [(e.action, e.from_state, e.to_state) for e in events if e.from_state != e.to_state] == [
        ("constituted", "lodged", "constituted"),
        ("hearing_scheduled", "constituted", "scheduled"),
    ]
    vote_all(body, "uphold")
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="It stands", now=SOON)
    assert AppealEvent.objects.filter(appeal=appeal).last().to_state == "decided"


def test_the_diagram_in_the_docs_is_the_tables():
    docs = (Path(settings.BASE_DIR) / "docs" / "appeals.md").read_text(encoding="utf-8")
    assert lifecycle.document() in docs, "docs/appeals.md is behind the table: run manage.py appeal_states --write"
    assert (
        "scheduled --> decided: decide [body constituted, validity decided if late, concurrence (92D), heard]"
        in lifecycle.mermaid()
    )


def test_the_command_prints_the_section(capsys):
    call_command("appeal_states")
    assert capsys.readouterr().out.strip() == lifecycle.document().strip()
