"""The door where a member votes (appeals:case-vote), with any dissent."""

import pytest

from tests.appeals.conftest import committee, lodge, ready, shown, take

pytestmark = pytest.mark.django_db


def test_a_member_votes_with_a_dissent(case, client):
    appeal, body, _hearing = ready(case)
    page = shown(
        take(client, case.members[1], appeal, "vote", outcome="vary", dissent="Pass was a logical alternative")
    )
    assert "Recorded." in page
    member = body.members.get(user=case.members[1])
    assert (member.vote, member.dissent) == ("vary", "Pass was a logical alternative")


def test_not_before_the_hearing(case, client):
    appeal = lodge(case)
    body = committee(case, appeal)
    page = shown(take(client, case.members[1], appeal, "vote", outcome="vary"))
    assert "state: The case has not been heard: schedule the hearing (it may be in writing) first." in page
    assert body.members.get(user=case.members[1]).vote == ""


def test_someone_with_no_seat_has_no_vote(case, client):
    appeal, _body, _hearing = ready(case)
    assert take(client, case.director, appeal, "vote", outcome="vary").status_code == 404
