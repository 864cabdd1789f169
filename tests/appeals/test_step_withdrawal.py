"""The door that records the appellants' request to withdraw (appeals:case-withdrawal)."""

import pytest

from tests.appeals.conftest import committee, lodge, refused, shown, take

pytestmark = pytest.mark.django_db


def test_a_director_records_the_appellants_request(case, client):
    appeal = lodge(case)
    page = shown(take(client, case.director, appeal, "withdrawal", player=case.north.pk, reason="We think again"))
    assert "Recorded." in page
    appeal.refresh_from_db()
    assert (appeal.withdrawal_requested_by, appeal.withdrawal_reason, appeal.state) == (
        case.north,
        "We think again",
        "lodged",
    )


def test_only_the_appellants_ask(case, client):
    appeal = lodge(case)
    page = shown(take(client, case.director, appeal, "withdrawal", player=case.east.pk, reason="Not ours"))
    assert f"player: Only the appellants ({case.ns}) can ask to withdraw their appeal." in page
    appeal.refresh_from_db()
    assert appeal.withdrawal_requested_at is None


def test_a_member_of_the_body_may_not(case, client):
    appeal = lodge(case)
    committee(case, appeal)
    response = take(client, case.members[0], appeal, "withdrawal", player=case.north.pk, reason="We think again")
    assert refused(response, "a director records the appellants' request to withdraw.")
