"""The door that forms the body (appeals:case-constitute): the chief director, with its members."""

import pytest

from tests.appeals.conftest import lodge, refused, shown, take

pytestmark = pytest.mark.django_db


def test_the_chief_director_forms_a_committee(case, client):
    appeal = lodge(case)
    members = case.members[:3]
    page = shown(
        take(
            client,
            case.chief,
            appeal,
            "constitute",
            kind="committee",
            members=[m.pk for m in members],
            chair=members[0].pk,
        )
    )
    assert "Recorded." in page
    body = appeal.body()
    assert (body.kind, body.size, body.constituted_by) == ("committee", 3, case.chief)
    assert {m.user for m in body.members.all()} == set(members)
    assert body.members.get(is_chair=True).user == members[0]
    appeal.refresh_from_db()
    assert appeal.state == "lodged"  # constituted once the members declare


def test_a_referee_with_no_chair(case, client):
    appeal = lodge(case)
    take(client, case.chief, appeal, "constitute", kind="referee", members=[case.members[0].pk], chair="")
    body = appeal.body()
    assert (body.kind, body.size, [m.is_chair for m in body.members.all()]) == ("referee", 1, [False])


def test_a_director_may_not(case, client):
    appeal = lodge(case)
    response = take(client, case.director, appeal, "constitute", kind="referee", members=[case.members[0].pk], chair="")
    assert refused(response, "Only the director in charge of Club Championship forms the body that hears an appeal")
    assert appeal.body() is None
