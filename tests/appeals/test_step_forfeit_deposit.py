"""The door that keeps a deposit (appeals:case-forfeit-deposit): only for an appeal without merit (92A)."""

import pytest

from appeals import services
from tests.appeals.conftest import SOON, ready, refused, regulate, shown, take, vote_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def upheld(case):
    appeal, body, _hearing = ready(case)
    regulate(case, deposits={"currency": "GBP", "amounts": {"mp_pairs": "20.00"}}, without_merit_sanction="none")
    deposit = services.record_deposit(appeal=appeal, by=case.director, now=SOON)
    vote_all(body, "uphold")
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="Pass is a LA", now=SOON)
    return appeal, deposit


def test_a_director_keeps_it_when_the_appeal_was_without_merit(case, client, upheld):
    appeal, deposit = upheld
    services.find_without_merit(appeal=appeal, by=case.members[0], reasons="No case was made", now=SOON)
    assert "Recorded." in shown(
        take(client, case.director, appeal, "forfeit-deposit", deposit=deposit.pk, reason="No case")
    )
    deposit.refresh_from_db()
    assert (deposit.state, deposit.note) == ("forfeited", "No case")


def test_an_appeal_with_merit_keeps_no_deposit(case, client, upheld):
    appeal, deposit = upheld
    page = shown(take(client, case.director, appeal, "forfeit-deposit", deposit=deposit.pk, reason="No case"))
    assert "state: A deposit is kept only when the appeal is found without merit (Law 92A)." in page
    deposit.refresh_from_db()
    assert deposit.state == "held"


def test_a_member_of_the_body_may_not(case, client, upheld):
    appeal, deposit = upheld
    response = take(client, case.members[0], appeal, "forfeit-deposit", deposit=deposit.pk, reason="No case")
    assert refused(response, "a director of the tournament handles the deposit.")
