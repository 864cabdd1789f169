"""The deposit door (appeals:case-deposit): a director records the deposit the regulations ask."""

from decimal import Decimal

import pytest

from tests.appeals.conftest import committee, lodge, refused, regulate, shown, take

pytestmark = pytest.mark.django_db

DEPOSITS = {"currency": "GBP", "amounts": {"mp_pairs": "20.00"}}


def test_a_director_records_the_deposit_of_the_events_kind(case, client):
    regulate(case, deposits=DEPOSITS)
    appeal = lodge(case)
    assert "Recorded." in shown(take(client, case.director, appeal, "deposit"))
    deposit = appeal.deposits.get()
    assert (deposit.amount, deposit.currency, deposit.state, deposit.received_by) == (
        Decimal("20.00"),
        "GBP",
        "held",
        case.director,
    )


def test_none_asked_is_refused_by_name(case, client):
    appeal = lodge(case)
    page = shown(take(client, case.director, appeal, "deposit"))
    assert "amount: No deposit is asked: Club Championship body's regulations set none for this" in page
    assert not appeal.deposits.exists()


def test_a_member_of_the_body_may_not(case, client):
    regulate(case, deposits=DEPOSITS)
    appeal = lodge(case)
    committee(case, appeal)
    assert refused(
        take(client, case.members[0], appeal, "deposit"), "a director of the tournament handles the deposit."
    )
    assert not appeal.deposits.exists()
