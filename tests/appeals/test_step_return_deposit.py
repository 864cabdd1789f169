"""The door that returns a deposit (appeals:case-return-deposit), once the case is over."""

import pytest

from appeals import services
from tests.appeals.conftest import SOON, ready, refused, regulate, shown, take, vote_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def held(case):
    appeal, body, _hearing = ready(case)
    regulate(case, deposits={"currency": "GBP", "amounts": {"mp_pairs": "20.00"}})
    return appeal, body, services.record_deposit(appeal=appeal, by=case.director, now=SOON)


def test_a_director_returns_it_once_the_case_is_decided(case, client, held):
    appeal, body, deposit = held
    vote_all(body, "vary")
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="vary", reasons="Pass is no LA", now=SOON)
    assert "Recorded." in shown(take(client, case.director, appeal, "return-deposit", deposit=deposit.pk))
    deposit.refresh_from_db()
    assert (deposit.state, deposit.settled_by) == ("returned", case.director)


def test_it_is_held_while_the_case_is_open(case, client, held):
    appeal, _body, deposit = held
    page = shown(take(client, case.director, appeal, "return-deposit", deposit=deposit.pk))
    assert "state: The deposit is held until the appeal is decided or withdrawn." in page
    deposit.refresh_from_db()
    assert deposit.state == "held"


def test_a_member_of_the_body_may_not(case, client, held):
    appeal, body, deposit = held
    vote_all(body, "vary")
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="vary", reasons="Pass is no LA", now=SOON)
    response = take(client, case.members[0], appeal, "return-deposit", deposit=deposit.pk)
    assert refused(response, "a director of the tournament handles the deposit.")
