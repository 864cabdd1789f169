"""Reads: the director's appeal windows per session, open cases by state, a member's queue and
a case's timeline in order."""

import datetime

import pytest

from appeals import selectors, services
from tests.appeals.conftest import DEADLINE, SOON, at, lodge, ready, vote_all

pytestmark = pytest.mark.django_db


def test_appeal_windows_per_session_with_deadlines_in_local_time(case):
    sessions = {w.session.number: w for w in selectors.appeal_windows(tournament=case.record.tournament, now=SOON)}
    first, second = sessions[1], sessions[2]
    assert (first.status, first.deadline, first.deadline_text) == (
        "open",
        DEADLINE,
        "21:30 on 1 May 2026 BST (Europe/London)",
    )
    assert first.rulings == [case.ruling]
    assert (second.status, second.deadline) == ("not started", None)
    assert "not posted" in second.deadline_text
    later = selectors.appeal_windows(tournament=case.record.tournament, now=at(31))
    assert later[0].status == "closed"


def test_open_cases_by_state(case):
    first = lodge(case)
    second, _body, _hearing = ready(case, player=case.east)
    grouped = selectors.open_cases_by_state(tournament=case.record.tournament)
    assert grouped == {"lodged": [first], "constituted": [], "scheduled": [second]}
    assert list(selectors.open_cases()) == [first, second]


def test_a_decided_case_leaves_the_members_queue_but_stays_in_their_cases(case):
    appeal, body, _hearing = ready(case)
    assert list(selectors.member_queue(case.members[0])) == [appeal]
    vote_all(body, "uphold")
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="LA", now=SOON)
    assert list(selectors.member_queue(case.members[0])) == []
    assert list(selectors.cases_for_member(case.members[0])) == [appeal]
    assert list(selectors.cases_for_member(case.director)) == []


def test_the_timeline_lists_every_step_in_order_with_who_and_the_states(case):
    appeal, body, _hearing = ready(case)
    vote_all(body, "uphold", now=SOON + datetime.timedelta(hours=1))
    services.decide_appeal(
        appeal=appeal, by=case.members[0], outcome="uphold", reasons="LA", now=SOON + datetime.timedelta(hours=2)
    )
    steps = list(selectors.timeline(appeal))
    assert [s.action for s in steps] == [
        "lodged",
        "concurrence",
        "body_created",
        "member_appointed",
        "member_appointed",
        "member_appointed",
        "interests_declared",
        "interests_declared",
        "interests_declared",
        "constituted",
        "hearing_scheduled",
        "vote",
        "vote",
        "vote",
        "decided",
    ]
    assert [(s.from_state, s.to_state) for s in steps if s.from_state != s.to_state] == [
        ("lodged", "constituted"),
        ("constituted", "scheduled"),
        ("scheduled", "decided"),
    ]
    assert steps[0].by == case.director
    assert steps[-1].by == case.members[0]
    assert [s.at for s in steps] == sorted(s.at for s in steps)
