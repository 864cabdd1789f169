"""The door that unlocks agreed statements (appeals:case-unlock-statements): the director in charge, with a reason."""

import pytest

from appeals import services
from tests.appeals.conftest import SOON, lodge, refused, shown, take

pytestmark = pytest.mark.django_db


@pytest.fixture
def locked(case):
    appeal = lodge(case)
    services.lock_statements(appeal=appeal, by=case.director, agreed_by=[case.north, case.east], now=SOON)
    return appeal


def test_the_chief_director_unlocks_them_for_a_reason(case, client, locked):
    assert "Recorded." in shown(take(client, case.chief, locked, "unlock-statements", reason="East misremembered"))
    locked.refresh_from_db()
    assert locked.statements_locked_at is None
    assert not locked.statements_agreed_by.exists()


def test_no_reason_is_refused_by_name(case, client, locked):
    page = shown(take(client, case.chief, locked, "unlock-statements", reason=""))
    assert "reason: Say why the statements are unlocked." in page
    locked.refresh_from_db()
    assert locked.statements_locked_at is not None


def test_a_director_may_not(case, client, locked):
    response = take(client, case.director, locked, "unlock-statements", reason="East misremembered")
    assert refused(response, "Only the director in charge of Club Championship unlocks agreed statements")
