"""The door that takes the director in charge's decision on law to the body (appeals:case-law-to-body, 93B1)."""

import pytest

from appeals import services
from core import policy, roles
from scoring import services as scoring_services
from tests.appeals.conftest import SOON, lodge, refused, shown, take
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def decided_on_law(case):
    appeal = lodge(case, parts=[{"kind": "law", "question": "Does 16B1a apply after a stop card?"}])
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    services.decide_law_part(part=appeal.parts.get(), by=case.chief, outcome="uphold", reasons="It does", now=SOON)
    return appeal


def test_a_director_takes_it_to_a_body_yet_to_be_formed(case, client, decided_on_law):
    part = decided_on_law.parts.get()
    assert "Recorded." in shown(take(client, case.director, decided_on_law, "law-to-body", part=part.pk))
    part.refresh_from_db()
    decided_on_law.refresh_from_db()
    assert (part.to_body, decided_on_law.state, decided_on_law.outcome) == (True, "lodged", "")


def test_only_once(case, client, decided_on_law):
    part = decided_on_law.parts.get()
    take(client, case.director, decided_on_law, "law-to-body", part=part.pk)
    page = shown(take(client, case.director, decided_on_law, "law-to-body", part=part.pk))
    assert "part: This decision is already before the body." in page


def test_a_scorer_reading_the_case_may_not(case, client, decided_on_law):
    scorer = make_user("sam")
    scoring_services.appoint_official(
        tournament=case.record.tournament, user=scorer, role=roles.SCORER, by=policy.SYSTEM
    )
    response = take(client, scorer, decided_on_law, "law-to-body", part=decided_on_law.parts.get().pk)
    assert refused(response, "sam is not a director of Club Championship", "to the body for the appellants (Law 93B1).")
    assert not decided_on_law.parts.get().to_body
