"""The steps a reader may take on a case now (core.steps.available, issue #38): the policy's
answer and the state's, one for the case page and the API."""

import pytest
from django.urls import reverse

from core import steps
from tests.appeals.conftest import lodge, ready

pytestmark = pytest.mark.django_db


def test_the_steps_a_reader_may_take_follow_the_policy_and_the_state(case):
    appeal = lodge(case)
    director = set(steps.available(case.director, appeal, "case"))
    chief = set(steps.available(case.chief, appeal, "case"))
    assert {"concurrence", "statements", "lock_statements", "withdrawal", "deposit"} <= director
    assert not director & {"constitute", "schedule", "decide", "vote", "unlock_statements", "further"}
    assert {"constitute", "appoint", "law_part", "unlock_statements", "respond"} <= chief
    assert "schedule" not in chief  # the case is lodged: no body constituted yet
    assert steps.available(case.north.user, appeal, "case") == {}
    heard, _body, _hearing = ready(case, player=case.east)
    heard.refresh_from_db()
    member = set(steps.available(case.members[0], heard, "case"))
    assert {"vote", "decide", "recommend", "recuse", "declare", "attendance", "hearing_notes"} <= member
    assert "constitute" not in member and "concurrence" not in member
    assert "decide" not in steps.available(case.members[3], heard, "case")  # not on the body
    assert "schedule" not in steps.available(case.director, heard, "case")  # scheduled: the page offers it once


def test_the_ruling_s_steps_follow_its_state(case):
    director = steps.available(case.director, case.ruling, "ruling")
    assert "give" not in director  # given already
    assert {"correct", "lodge"} <= set(director)
    assert steps.available(case.members[0], case.ruling, "ruling") == {}


def test_the_api_lists_the_steps_the_case_page_offers(case, client):
    heard, _body, _hearing = ready(case, player=case.east)
    heard.refresh_from_db()
    for user in (case.director, case.chief, case.members[0]):
        client.force_login(user)
        answer = client.get(f"/api/v1/appeals/{heard.pk}/").json()
        offered = sorted(steps.available(user, heard, "case"))
        assert answer["steps"] == offered, user
        page = client.get(f"/appeals/{heard.pk}/").content.decode()
        for name in ("vote", "decide", "attendance", "unlock_statements", "appoint"):
            door = f'action="{reverse(steps.step("case", name).door, args=[heard.pk])}"'
            if name not in offered:
                assert door not in page, (user, name)
    assert {"vote", "decide", "recommend", "attendance"} <= set(answer["steps"])  # the member's
    assert "steps" not in client.get("/api/v1/appeals/").json()["results"][0]  # a list stays lean
