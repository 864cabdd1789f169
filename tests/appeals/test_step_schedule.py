"""The door that schedules the hearing (appeals:case-schedule): a time in the tournament's zone."""

import datetime

import pytest

from appeals import services
from tests.appeals.conftest import SOON, UTC, committee, lodge, refused, shown, take

pytestmark = pytest.mark.django_db


@pytest.fixture
def constituted(case):
    appeal = lodge(case)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    committee(case, appeal)
    return appeal


def test_a_director_schedules_it_at_a_local_time(case, client, constituted):
    page = shown(
        take(client, case.director, constituted, "schedule", starts_at="2026-05-01T23:00", mode="video", place="Zoom")
    )
    assert "Recorded." in page
    hearing = constituted.hearings.get()
    # 23:00 in London (BST) is 22:00 UTC
    assert (hearing.starts_at, hearing.mode, hearing.place) == (
        datetime.datetime(2026, 5, 1, 22, 0, tzinfo=UTC),
        "video",
        "Zoom",
    )
    constituted.refresh_from_db()
    assert constituted.state == "scheduled"


def test_no_time_is_refused_by_name(case, client, constituted):
    page = shown(take(client, case.director, constituted, "schedule", starts_at="", mode="in_person"))
    assert "starts_at: Give the date and time of the hearing." in page
    assert not constituted.hearings.exists()


def test_not_before_concurrence(case, client):
    appeal = lodge(case)
    committee(case, appeal)
    page = shown(take(client, case.director, appeal, "schedule", starts_at="2026-05-01T23:00", mode="in_person"))
    assert (
        f"concurrence: The appeal cannot go forward without concurrence (Law 92D): still needed from {case.south}."
        in page
    )


def test_a_member_of_the_body_may_not(case, client, constituted):
    response = take(client, case.members[0], constituted, "schedule", starts_at="2026-05-01T23:00", mode="in_person")
    assert refused(response, "a director schedules the hearing.")
