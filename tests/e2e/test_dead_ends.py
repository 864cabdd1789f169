"""Paths that used to end in a dead end (issue #27), walked on a 390x844 phone: replacing a
member of the appeals body who stepped down; posting the official score again, then asking to
appeal within the clock it restarts."""

import datetime

import pytest
from celery import current_app
from django.utils import timezone

import appeals.tasks  # noqa: F401 (registers the notification mail, sent at once below)
from appeals import services
from appeals.models import Appeal
from core import policy
from tests.appeals.conftest import SOON, case, committee, lodge  # noqa: F401 (case is a fixture)
from tests.conftest import make_user
from tests.e2e.test_appeal_journey import fits, on_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def mail_at_once(monkeypatch):
    """The notices' e-mail is sent in the test's process (no worker needed for these paths)."""
    monkeypatch.setitem(current_app.conf, "task_always_eager", True)


def test_a_member_who_steps_down_is_replaced_on_the_phone(browser, live_server, case):  # noqa: F811
    appeal = lodge(case)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    body = committee(case, appeal)
    ben, dan = case.members[1], case.members[3]

    page = on_phone(browser, live_server, ben)  # Ben steps down on the web
    page.goto(f"{live_server.url}/appeals/{appeal.pk}/")
    page.fill("form[action$='/recuse/'] [name=reason]", "I partnered North last week")
    with page.expect_navigation():
        page.click("form[action$='/recuse/'] button")

    page = on_phone(browser, live_server, case.chief)
    page.goto(f"{live_server.url}/appeals/{appeal.pk}/")
    assert page.locator("text=Constitute the body").count() == 0
    form = page.locator("form[action$='/appoint/']")
    assert "Seats free: 1" in form.inner_text()
    assert "Chris Chief is the chief director" in form.inner_text()  # his own seat is flagged
    fits(page, "dead-ends-1-replace-member")
    form.locator(f"input[name=member][value='{dan.pk}']").check()
    with page.expect_navigation():
        form.locator("button").click()
    page.wait_for_selector("text=Recorded.")
    assert page.locator("form[action$='/appoint/']").count() == 0
    assert "Dan" in page.locator("section.card", has_text="Concurrence (Law 92D)").first.inner_text()

    page = on_phone(browser, live_server, dan)  # the new member declares; the body sits again
    page.goto(f"{live_server.url}/appeals/{appeal.pk}/")
    with page.expect_navigation():
        page.click("text=Declare interests")
    page.wait_for_selector("text=Recorded.")
    assert body.is_constituted
    assert Appeal.objects.get(pk=appeal.pk).state == "constituted"


def test_the_chief_director_posts_the_official_score_again_and_a_player_appeals_within_the_clock(
    browser,
    live_server,
    case,  # noqa: F811
):
    north = make_user("nora", first_name="Nora")
    case.north.user = north
    case.north.save()
    # The score posted in May: the clock closed long ago, so the player cannot ask to appeal.
    page = on_phone(browser, live_server, north)
    page.goto(f"{live_server.url}/appeals/mine/")
    assert page.locator("text=Ask to appeal").count() == 0

    page = on_phone(browser, live_server, case.chief)
    page.goto(f"{live_server.url}/sessions/{case.record.session.pk}/")
    assert "starts the correction and appeal periods again" in page.inner_text("section.clocks")
    page.fill("form.post-score [name=note]", "Board 1 corrected at table 3")
    with page.expect_navigation():
        page.click("text=Post the official score again")
    page.wait_for_selector("text=Official score posted again at")
    assert "Board 1 corrected at table 3" in page.inner_text("section.clocks")
    fits(page, "dead-ends-2-post-score-again")

    page = on_phone(browser, live_server, north)  # the clock runs again: the player asks
    page.goto(f"{live_server.url}/appeals/mine/")
    assert page.locator("table.mine [role=timer]").count() == 1  # a live countdown
    page.click("text=Ask to appeal")
    page.fill("[name=grounds]", "The hesitation was not clear.")
    with page.expect_navigation():
        page.click("text=Send to the director")
    page.wait_for_selector("text=Your request is with the director")
    fits(page, "dead-ends-3-asked-within-the-clock")


def test_a_redress_given_on_the_phone_and_its_correction_form_filled_in(browser, live_server, case):  # noqa: F811
    from django.urls import reverse

    from rulings.models import Ruling
    from scoring import services as scoring_services

    scoring_services.post_official_scores(
        session=case.record.session, by=policy.SYSTEM
    )  # the periods run again from now
    result = case.record.results[5]  # table 6 (table X has its ruling already)
    page = on_phone(browser, live_server, case.director)
    page.goto(live_server.url + reverse("rulings:ruling-new", args=[result.pk]))
    page.select_option("[name=kind]", "ui")
    page.fill("[name=laws]", "16B1a, 12C1b")
    page.fill("[name=ruling_text]", "Redress, less the damage East's revoke caused.")
    page.check("input[name=outcome][value=adjusted]")
    page.select_option("[name=score_kind]", "redress")
    redress = page.locator("[data-score=redress]")
    assert redress.is_visible() and "The result after normal play" in redress.inner_text()
    assert page.input_value("[name=rd_table_contract]") == result.contract  # the table's, already
    page.fill("[name=rd_normal_contract]", "4S")
    page.select_option("[name=rd_normal_declarer]", "N")
    page.fill("[name=rd_normal_tricks]", "10")
    page.fill("[name=rd_without_contract]", "3S")
    page.select_option("[name=rd_without_declarer]", "N")
    page.fill("[name=rd_without_tricks]", "10")
    page.select_option("[name=rd_non_offending]", "EW")
    page.select_option("[name=offending_side]", "NS")
    fits(page, "dead-ends-4-redress")
    with page.expect_navigation():
        page.click("button[name=give]")
    errors = page.locator(".errorlist, .field-error").all_inner_texts()
    assert page.locator("h1:has-text('Ruling 2')").count() == 1, errors
    ruling = Ruling.objects.get(score_kind="redress")

    page.goto(live_server.url + reverse("rulings:ruling-correct", args=[ruling.pk]))
    assert page.input_value("[name=rd_without_contract]") == "3S"
    assert page.input_value("[name=rd_normal_tricks]") == "10"
    assert page.input_value("[name=rd_non_offending]") == "EW"
    assert page.locator("[data-score=redress]").is_visible()
    fits(page, "dead-ends-5-correction-filled-in")


def test_a_further_appeal_walked_to_the_national_body_s_decision_on_the_phone(browser, live_server, case):  # noqa: F811
    """Law 93C on the web: the director lodges the player's further appeal, the authority's
    national officer forms its body and sits on it, declares, and decides."""
    from appeals.models import FurtherAppeal
    from scoring import services as scoring_services
    from tests.appeals.conftest import ready, regulate, vote_all

    regulate(case, further_appeal="binding")
    scoring_services.post_official_scores(
        session=case.record.session, by=policy.SYSTEM
    )  # the appeal period runs from now
    case.record.event.sessions.filter(number=2).update(starts_at=timezone.now() + datetime.timedelta(days=1))
    officer = make_user("nina", first_name="Nina", last_name="National")
    scoring_services.appoint_auditor(authority=case.record.authority, user=officer, by=policy.SYSTEM)
    appeal, body, _hearing = ready(case, now=timezone.now())
    vote_all(body, "uphold", now=timezone.now())
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="The pause was clear")

    page = on_phone(browser, live_server, case.director)
    page.goto(f"{live_server.url}/appeals/{appeal.pk}/")
    form = page.locator("form[action$='/further/']")
    form.locator("[name=player]").select_option(str(case.north.pk))
    form.locator("[name=grounds]").fill("The committee found a pause nobody established.")
    with page.expect_navigation():
        form.locator("button").click()
    page.wait_for_selector("text=Recorded.")
    fits(page, "dead-ends-6-further-lodged")

    page = on_phone(browser, live_server, officer, lands_on="/national/")
    page.goto(f"{live_server.url}/appeals/{appeal.pk}/")
    form = page.locator("form[action$='/further-body/']")
    form.locator(f"input[name=members][value='{officer.pk}']").check()
    with page.expect_navigation():
        form.locator("button").click()
    page.wait_for_selector("text=Recorded.")
    with page.expect_navigation():
        page.click("text=Declare interests")
    page.wait_for_selector("text=Recorded.")
    form = page.locator("form[action$='/decide-further/']")
    form.locator("input[value=uphold]").check()
    form.locator("textarea").first.fill("The committee's finding stands.")
    fits(page, "dead-ends-7-further-decision")
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    page.wait_for_selector("text=Recorded.")
    assert FurtherAppeal.objects.get(appeal=appeal).state == "decided"


def test_waiting_for_you_is_a_to_do_list_on_the_phone(browser, live_server, case):  # noqa: F811
    appeal = lodge(case)
    services.constitute_body(appeal=appeal, by=case.chief, kind="committee", members=case.members[:3])
    page = on_phone(browser, live_server, case.members[0])
    todo = page.locator("section.notices").inner_text()
    assert f"Appeal {appeal.number}: declare your interests" in todo
    assert "will be listed here" not in page.inner_text("main")
    fits(page, "dead-ends-8-waiting-for-you")
    with page.expect_navigation():
        page.click(f"text=Appeal {appeal.number}: declare your interests")
    with page.expect_navigation():
        page.click("text=Declare interests")
    page.goto(f"{live_server.url}/")
    assert "declare your interests" not in page.inner_text("body")  # done, and gone
