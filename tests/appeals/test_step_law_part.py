"""The door where the director in charge decides a part about law (appeals:case-law-part, Law 93B1)."""

import pytest

from appeals import services
from tests.appeals.conftest import SOON, lodge, refused, shown, take

pytestmark = pytest.mark.django_db


@pytest.fixture
def law_only(case):
    appeal = lodge(case, parts=[{"kind": "law", "question": "Does 16B1a apply after a stop card?"}])
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    return appeal


def decision(**more):
    return {"law-decision": "uphold", "law-laws": "16B1a", "law-reasons": "It does", **more}


def test_the_chief_director_decides_and_a_law_only_appeal_is_decided(case, client, law_only):
    part = law_only.parts.get()
    assert "Recorded." in shown(take(client, case.chief, law_only, "law-part", part=part.pk, **decision()))
    part.refresh_from_db()
    law_only.refresh_from_db()
    assert (part.outcome, part.reasons, part.decided_by) == ("uphold", "Law 16B1a: It does", case.chief)
    assert (law_only.state, law_only.outcome) == ("decided", "uphold")


def test_no_decision_chosen_is_refused_by_name(case, client, law_only):
    part = law_only.parts.get()
    page = shown(take(client, case.chief, law_only, "law-part", part=part.pk, **{"law-reasons": "It does"}))
    assert "decision: This field is required." in page
    part.refresh_from_db()
    assert part.outcome == ""


def test_a_director_may_not(case, client, law_only):
    response = take(client, case.director, law_only, "law-part", part=law_only.parts.get().pk, **decision())
    assert refused(response, "Only the director in charge of Club Championship decides a part about law or regulation")
