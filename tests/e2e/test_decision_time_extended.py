"""The chief director's extension of the time to decide, on a 390x844 phone (issue #42, item 1):
a case of session 1 whose "decide by" (session 2's start) has passed is offered the regulations'
step, not a closed case; the chief director gives it until tomorrow with a reason, and the
hearing can then be fixed."""

import datetime

import pytest
from django.utils import timezone

from appeals.models import Appeal
from tests.appeals.conftest import SOON, case, committee, lodge  # noqa: F401 (case is a fixture)
from tests.e2e.test_appeal_journey import fits, on_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_chief_director_gives_an_overdue_case_more_time_on_the_phone(browser, live_server, case):  # noqa: F811
    appeal = lodge(case)
    from appeals import services

    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    committee(case, appeal)
    appeal.refresh_from_db()
    assert appeal.decision_overdue()  # to be decided before session 2, on 2 May 2026

    page = on_phone(browser, live_server, case.chief)
    page.goto(f"{live_server.url}/appeals/{appeal.pk}/")
    steps = page.locator(".overdue-steps")
    assert "The time to decide has passed" in steps.inner_text()
    zone = case.record.tournament.zone
    until = timezone.localtime(timezone.now(), zone).replace(second=0, microsecond=0) + datetime.timedelta(days=1)
    form = page.locator("form[action$='/extend-decision/']")
    form.locator("[name=until]").fill(until.strftime("%Y-%m-%dT%H:%M"))
    form.locator("[name=reason]").fill("The hearing room was taken; the committee sits tomorrow.")
    fits(page)
    with page.expect_navigation():
        form.locator("button").click()
    page.wait_for_selector("text=Recorded.")
    appeal.refresh_from_db()
    assert appeal.decide_by == until and not appeal.decision_overdue()
    assert page.locator(".overdue-steps").count() == 0
    assert "The hearing room was taken; the committee sits tomorrow." in page.inner_text("main")
    fits(page)

    page = on_phone(browser, live_server, case.director)  # the hearing can be fixed now
    page.goto(f"{live_server.url}/appeals/{appeal.pk}/")
    form = page.locator("form[action$='/schedule/']")
    form.locator("[name=starts_at]").fill((until - datetime.timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M"))
    with page.expect_navigation():
        form.locator("button").click()
    page.wait_for_selector("text=Recorded.")
    appeal.refresh_from_db()
    assert appeal.state == Appeal.State.SCHEDULED
