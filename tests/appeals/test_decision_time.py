"""A case whose time to decide has passed is not a dead end (issue #42, item 1): after the
official score of an earlier session is posted again, a player's appeal is lodged when the next
session has already started; the case page marks it overdue and offers the regulations' steps,
the chief director gives it more time, and it is heard and decided on the web."""

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from appeals import services
from appeals.models import Appeal
from core import policy
from scoring import services as scoring_services
from tests.appeals.conftest import SESSION_2, committee, refused, shown, take

pytestmark = pytest.mark.django_db


def local(moment):
    """A moment as the case page's datetime-local field takes it, in the tournament's zone."""
    return moment.astimezone(ZoneInfo("Europe/London")).strftime("%Y-%m-%dT%H:%M")


@pytest.fixture
def reposted(case):
    """Session 1's official score posted again now: its appeal window opens again, long after
    session 2 started; North's appeal is lodged, agreed and a committee sits."""
    now = timezone.now()
    scoring_services.post_official_scores(
        session=case.record.session, at=now - datetime.timedelta(minutes=5), by=policy.SYSTEM
    )
    appeal = services.lodge_appeal(ruling=case.ruling, by=case.director, player=case.north, grounds="Not a LA")
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director)
    committee(case, appeal, now=now)
    assert appeal.decide_by == SESSION_2  # the next session's start, months ago
    return appeal


def test_the_hearing_refused_names_the_steps_that_remain(case, client, reposted):
    page = shown(take(client, case.director, reposted, "schedule", starts_at=local(timezone.now()), mode="written"))
    assert (
        "starts_at: Appeal 1 must be decided by 10:00 on 2 May 2026 BST (Europe/London); this hearing would start at"
        in page
    )
    assert "The chief director can extend the time to decide, with a reason" in page
    assert not reposted.hearings.exists()


def test_the_case_page_marks_it_overdue_and_offers_the_chief_director_more_time(case, client, reposted):
    client.force_login(case.chief)
    page = shown(client.get(f"/appeals/{reposted.pk}/"))
    assert "The time to decide has passed" in page
    assert "overdue" in page
    assert f'action="/appeals/{reposted.pk}/extend-decision/"' in page
    client.force_login(case.director)  # a director reads who takes the step
    assert "The chief director of the tournament takes this step." in shown(client.get(f"/appeals/{reposted.pk}/"))


def test_given_more_time_it_is_heard_and_decided_on_the_web(case, client, reposted):
    until = timezone.now() + datetime.timedelta(hours=3)
    page = shown(
        take(client, case.chief, reposted, "extend-decision", until=local(until), reason="Score posted again today")
    )
    assert "Recorded." in page
    reposted.refresh_from_db()
    assert reposted.decide_by == until.replace(second=0, microsecond=0)
    assert (
        "To be decided by" in page
        and "instead of 10:00 on 2 May 2026 BST (Europe/London): Score posted again today" in page
    )
    assert "The time to decide has passed" not in page

    page = shown(take(client, case.director, reposted, "schedule", starts_at=local(timezone.now()), mode="written"))
    assert "Recorded." in page
    for member in case.members[:3]:
        take(client, member, reposted, "vote", outcome="uphold")
    page = shown(
        take(client, case.members[0], reposted, "decide", **{"decide-decision": "uphold", "decide-reasons": "LA"})
    )
    assert "Recorded." in page
    assert Appeal.objects.get(pk=reposted.pk).state == "decided"


def test_more_time_is_refused_by_name_and_only_the_chief_director_gives_it(case, client, reposted):
    page = shown(take(client, case.chief, reposted, "extend-decision", until=local(timezone.now()), reason=""))
    assert "reason: Say why the case is given more time." in page
    page = shown(
        take(client, case.chief, reposted, "extend-decision", until="2026-05-01T09:00", reason="Late re-posting")
    )
    assert (
        "until: 09:00 on 1 May 2026 BST (Europe/London) has passed: the case is given until a time still to come."
        in page
    )
    page = shown(take(client, case.chief, reposted, "extend-decision", until="", reason="Late re-posting"))
    assert "until: Give the date and time by which the case is to be decided." in page
    response = take(
        client,
        case.director,
        reposted,
        "extend-decision",
        until=local(timezone.now() + datetime.timedelta(hours=1)),
        reason="Late",
    )
    assert refused(response, "extends the time to decide a case")
    reposted.refresh_from_db()
    assert reposted.decide_by == SESSION_2
