"""The door that locks the statements (appeals:case-lock-statements) once both sides agree them."""

import pytest

from tests.appeals.conftest import committee, lodge, refused, shown, take

pytestmark = pytest.mark.django_db


def test_a_director_locks_them_with_a_player_of_each_side(case, client):
    appeal = lodge(case)
    page = shown(take(client, case.director, appeal, "lock-statements", agreed_by=[case.north.pk, case.east.pk]))
    assert "Recorded." in page
    appeal.refresh_from_db()
    assert appeal.statements_locked_at is not None
    assert set(appeal.statements_agreed_by.all()) == {case.north, case.east}


def test_one_side_alone_is_refused_by_name(case, client):
    appeal = lodge(case)
    page = shown(take(client, case.director, appeal, "lock-statements", agreed_by=[case.north.pk]))
    assert "agreed_by: Both sides agree the statements: a player or the captain of N-S and of E-W." in page
    appeal.refresh_from_db()
    assert appeal.statements_locked_at is None


def test_a_member_of_the_body_may_not(case, client):
    appeal = lodge(case)
    committee(case, appeal)
    response = take(client, case.members[0], appeal, "lock-statements", agreed_by=[case.north.pk, case.east.pk])
    assert refused(response, "a director records and locks the statements.")
