"""The door that accepts a withdrawal (appeals:case-accept-withdrawal): it ends the case."""

import pytest

from appeals import services
from tests.appeals.conftest import SOON, lodge, refused, shown, take

pytestmark = pytest.mark.django_db


@pytest.fixture
def asked(case):
    appeal = lodge(case)
    services.request_withdrawal(appeal=appeal, player=case.north, by=case.director, reason="We think again", now=SOON)
    return appeal


def test_the_chief_director_accepts_before_a_body_sits(case, client, asked):
    assert "Recorded." in shown(take(client, case.chief, asked, "accept-withdrawal"))
    asked.refresh_from_db()
    case.ruling.refresh_from_db()
    assert (asked.state, case.ruling.state) == ("withdrawn", "given")


def test_nothing_to_accept_without_a_request(case, client):
    appeal = lodge(case)
    page = shown(take(client, case.chief, appeal, "accept-withdrawal"))
    assert "state: The appellants have not asked to withdraw." in page
    appeal.refresh_from_db()
    assert appeal.state == "lodged"


def test_a_director_may_not(case, client, asked):
    response = take(client, case.director, asked, "accept-withdrawal")
    assert refused(response, "lets the appellants withdraw before a body sits")
    asked.refresh_from_db()
    assert asked.state == "lodged"
