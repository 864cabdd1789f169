"""The door where the regulating authority's body decides a further appeal (appeals:case-decide-further)."""

import pytest

from appeals import services
from core import policy
from scoring import services as scoring_services
from tests.appeals.conftest import SOON, ready, refused, regulate, shown, take, vote_all
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def lodged(case):
    regulate(case, further_appeal="advisory")
    appeal, body, _hearing = ready(case)
    vote_all(body, "uphold")
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="Pass is a LA", now=SOON)
    services.lodge_further_appeal(appeal=appeal, by=case.director, origin="director", grounds="A question of principle")
    national = make_user("national", first_name="Nora")
    scoring_services.appoint_auditor(authority=case.record.authority, user=national, by=policy.SYSTEM)
    further_body = services.constitute_body(appeal=appeal, by=national, stage="further", size=1, members=[national])
    seat = further_body.members.get()
    services.declare_conflict(member=seat, by=seat.user)
    return appeal, national


def test_the_authoritys_member_decides(case, client, lodged):
    appeal, national = lodged
    page = shown(
        take(
            client,
            national,
            appeal,
            "decide-further",
            **{"further-decision": "overturn", "further-reasons": "Advice: no LA"},
        )
    )
    assert "Recorded." in page
    further = type(appeal.further).objects.get(pk=appeal.further.pk)
    assert (further.state, further.outcome, further.reasons) == ("decided", "overturn", "Advice: no LA")


def test_no_reasons_is_refused_by_name(case, client, lodged):
    appeal, national = lodged
    page = shown(take(client, national, appeal, "decide-further", **{"further-decision": "overturn"}))
    assert "reasons: This field is required." in page


def test_the_director_may_not(case, client, lodged):
    appeal, _national = lodged
    response = take(
        client, case.director, appeal, "decide-further", **{"further-decision": "uphold", "further-reasons": "x"}
    )
    assert refused(response, "records its decision")
