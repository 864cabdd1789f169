"""The door where a member stands down (appeals:case-recuse)."""

import pytest
from django.urls import reverse

from tests.appeals.conftest import committee, lodge, shown, take

pytestmark = pytest.mark.django_db


def test_a_member_recuses_for_a_reason(case, client):
    appeal = lodge(case)
    body = committee(case, appeal)
    client.force_login(case.members[1])
    response = client.post(reverse("appeals:case-recuse", args=[appeal.pk]), {"reason": "I know them"})
    # back to the case, which a member who stood down no longer reads
    assert (response.status_code, response["Location"]) == (302, reverse("appeals:appeal", args=[appeal.pk]))
    member = body.members.get(user=case.members[1])
    assert (member.recused_at is not None, member.recusal_reason) == (True, "I know them")
    assert body.missing()


def test_no_reason_is_refused_by_name(case, client):
    appeal = lodge(case)
    body = committee(case, appeal)
    assert "reason: Say why the member recuses." in shown(take(client, case.members[1], appeal, "recuse", reason=""))
    assert body.members.get(user=case.members[1]).recused_at is None


def test_someone_with_no_seat_cannot_recuse(case, client):
    appeal = lodge(case)
    committee(case, appeal)
    assert take(client, case.director, appeal, "recuse", reason="I know them").status_code == 404
