"""The door where a member declares their interests (appeals:case-declare)."""

import pytest

from appeals import services
from tests.appeals.conftest import SOON, lodge, shown, take

pytestmark = pytest.mark.django_db


@pytest.fixture
def formed(case):
    appeal = lodge(case)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    body = services.constitute_body(appeal=appeal, by=case.chief, kind="referee", members=[case.members[0]], now=SOON)
    return appeal, body


def test_the_member_declares_none_and_the_body_is_constituted(case, client, formed):
    appeal, body = formed
    assert "Recorded." in shown(take(client, case.members[0], appeal, "declare", conflict=""))
    member = body.members.get()
    assert (member.declared_at is not None, member.conflict) == (True, "")
    appeal.refresh_from_db()
    assert appeal.state == "constituted"


def test_a_declared_conflict_leaves_the_body_unconstituted(case, client, formed):
    appeal, body = formed
    take(client, case.members[0], appeal, "declare", conflict="I partner North on Tuesdays")
    assert body.members.get().conflict == "I partner North on Tuesdays"
    appeal.refresh_from_db()
    assert appeal.state == "lodged"


def test_someone_with_no_seat_has_nothing_to_declare_from(case, client, formed):
    appeal, body = formed
    client.force_login(case.director)
    assert take(client, case.director, appeal, "declare", conflict="").status_code == 404
    assert body.members.get().declared_at is None
