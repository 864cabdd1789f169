"""The statements door (appeals:case-statements): a director records the respondents' statement."""

import pytest

from appeals import services
from tests.appeals.conftest import SOON, committee, lodge, refused, shown, take

pytestmark = pytest.mark.django_db


def test_a_director_records_the_respondents_statement(case, client):
    appeal = lodge(case)
    assert "Recorded." in shown(
        take(client, case.director, appeal, "statements", respondents_statement=" They hesitated ")
    )
    appeal.refresh_from_db()
    assert appeal.respondents_statement == "They hesitated"
    assert appeal.grounds.startswith("The hesitation was not clear")  # not posted: unchanged


def test_locked_statements_do_not_change(case, client):
    appeal = lodge(case)
    services.lock_statements(appeal=appeal, by=case.director, agreed_by=[case.north, case.east], now=SOON)
    page = shown(take(client, case.director, appeal, "statements", respondents_statement="Changed"))
    assert "respondents_statement: Both sides agreed the statements, and they were locked at" in page
    appeal.refresh_from_db()
    assert appeal.respondents_statement == ""


def test_a_member_of_the_body_may_not(case, client):
    appeal = lodge(case)
    committee(case, appeal)
    response = take(client, case.members[0], appeal, "statements", respondents_statement="They hesitated")
    assert refused(response, "a director records and locks the statements.")
