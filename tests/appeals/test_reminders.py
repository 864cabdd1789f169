"""An hour before an open appeal must be decided (the start of the event's next session), the
members sitting on its body and the chief director are told, once; nobody is told earlier, and
a decided appeal reminds nobody."""

import datetime

from appeals import services, tasks
from appeals.models import Appeal, Notification
from core import policy
from tests.appeals.conftest import SOON, ready


def _due_in(appeal, minutes):
    Appeal.objects.filter(pk=appeal.pk).update(decide_by=SOON + datetime.timedelta(minutes=minutes))
    appeal.refresh_from_db()
    return appeal


def reminded(appeal):
    return {
        n.user.username: n.text for n in Notification.objects.filter(appeal=appeal, text__contains="must be decided")
    }


def test_the_body_and_the_chief_are_told_an_hour_before_and_only_once(case):
    appeal, body, _hearing = ready(case)
    appeal = _due_in(appeal, 45)
    assert services.remind_decisions_due(now=SOON, by=policy.SYSTEM) == 1
    told = reminded(appeal)
    assert set(told) == {member.user.username for member in body.sitting()} | {case.chief.username}
    local = appeal.decide_by.astimezone(appeal.ruling.tournament.zone)
    assert told[case.chief.username] == (
        f"Appeal {appeal.number} must be decided by {local:%H:%M} on {local.day} {local:%B %Y} {local.tzname()} "
        f"({appeal.ruling.tournament.zone.key}): less than an hour is left."
    )
    assert services.remind_decisions_due(now=SOON + datetime.timedelta(minutes=5), by=policy.SYSTEM) == 0
    assert len(reminded(appeal)) == len(told)


def test_nobody_is_told_more_than_an_hour_before(case):
    appeal, _body, _hearing = ready(case)
    _due_in(appeal, 61)
    assert services.remind_decisions_due(now=SOON, by=policy.SYSTEM) == 0
    assert reminded(appeal) == {}


def test_a_decided_appeal_reminds_nobody(case):
    appeal, _body, _hearing = ready(case)
    appeal = _due_in(appeal, 30)
    Appeal.objects.filter(pk=appeal.pk).update(state=Appeal.State.DECIDED)
    assert services.remind_decisions_due(now=SOON, by=policy.SYSTEM) == 0


def test_beat_runs_the_reminder_through_the_task(case, settings):
    appeal, _body, _hearing = ready(case)
    Appeal.objects.filter(pk=appeal.pk).update(
        decide_by=datetime.datetime.now(datetime.UTC) + datetime.timedelta(minutes=20)
    )
    assert settings.CELERY_BEAT_SCHEDULE["remind-decisions-due"]["task"] == "appeals.tasks.remind_decisions_due"
    assert tasks.remind_decisions_due() == 1


def test_what_waits_is_listed_on_the_home_page_too(case, client):
    appeal, body, _hearing = ready(case)
    _due_in(appeal, 30)
    services.remind_decisions_due(now=SOON, by=policy.SYSTEM)
    member = body.sitting()[0].user
    client.force_login(member)
    page = client.get("/").content.decode()
    assert "Waiting for you" in page
    assert f"Appeal {appeal.number} must be decided by" in page
    assert f'href="/appeals/{appeal.pk}/"' in page
    client.force_login(case.north.user) if case.north.user else client.logout()
    assert "must be decided by" not in client.get("/", follow=True).content.decode()
