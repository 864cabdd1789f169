"""The door where the body decides (appeals:case-decide): uphold, vary or overturn, with a score."""

import pytest

from tests.appeals.conftest import ready, refused, shown, take, varied_on_the_web, vote_all

pytestmark = pytest.mark.django_db


def test_a_member_varies_the_ruling_to_an_assigned_score(case, client):
    appeal, page = varied_on_the_web(
        case, client, "Pass is no logical alternative", score_kind="assigned", contract="4S", declarer="N", tricks="10"
    )
    assert "Recorded." in page
    appeal.refresh_from_db()
    assert (appeal.state, appeal.outcome, appeal.reasons) == ("decided", "vary", "Pass is no logical alternative")
    assert (
        appeal.score == {"kind": "assigned", "contract": "4S", "declarer": "N", "tricks": 10}
        or "4S" in appeal.score_description
    )


def test_the_majority_decides(case, client):
    appeal, body, _hearing = ready(case)
    vote_all(body, "uphold")
    page = shown(take(client, case.members[0], appeal, "decide", **{"decide-decision": "vary", "decide-reasons": "x"}))
    assert "outcome: The members voted 3 uphold: the decision is the majority's (uphold)." in page
    appeal.refresh_from_db()
    assert appeal.state == "scheduled"


def test_a_director_may_not(case, client):
    appeal, body, _hearing = ready(case)
    vote_all(body, "uphold")
    response = take(client, case.director, appeal, "decide", **{"decide-decision": "uphold", "decide-reasons": "x"})
    assert refused(
        response, "Only a member sitting on the appeals committee records its decision; dana does not sit on it."
    )
