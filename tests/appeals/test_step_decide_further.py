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


def test_the_declaration_form_of_the_further_body_is_offered_to_its_member_in_the_seat_until_declared(case, client):
    """Whether the reader sits on the further body is the policy's answer on the page ({% may
    "seat" further_body %}); what they declared is their seat's."""
    from django.urls import reverse

    regulate(case, further_appeal="advisory")
    appeal, body, _hearing = ready(case)
    vote_all(body, "uphold")
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="Pass is a LA", now=SOON)
    services.lodge_further_appeal(appeal=appeal, by=case.director, origin="director", grounds="A question of principle")
    national, other, third = make_user("national"), make_user("other"), make_user("third")
    for user in (national, other, third):
        scoring_services.appoint_auditor(authority=case.record.authority, user=user, by=policy.SYSTEM)
    further_body = services.constitute_body(
        appeal=appeal, by=national, stage="further", size=3, members=[national, other, third]
    )
    form = f'action="{reverse("appeals:case-declare", args=[appeal.pk])}"'

    def offered(user):
        client.force_login(user)
        return form in client.get(reverse("appeals:appeal", args=[appeal.pk])).content.decode()

    assert (offered(national), offered(other), offered(case.director)) == (True, True, False)
    services.declare_conflict(member=further_body.members.get(user=national), by=national)
    services.recuse(member=further_body.members.get(user=other), by=other, reason="I know the players")
    assert (offered(national), offered(other)) == (False, False)
