"""An appeal walked through the browser from lodging to decision; a real worker takes the
decision's score to the standings; the case's timeline is kept as a screenshot."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from appeals.models import Appeal
from core import policy, roles
from rulings import services as rulings_services
from scoring import services
from scoring.models import BoardScore
from tests.conftest import make_user, settled, wait_for
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def person(name, password, tournament, role):
    user = make_user(name, first_name=name.title())
    user.set_password(password)
    user.save()
    services.appoint_official(tournament=tournament, user=user, role=role, by=policy.SYSTEM)
    return user


def test_an_appeal_from_lodging_to_decision(browser, live_server, worker, field):
    chief = person("chief", "pw-chief", field.tournament, roles.CHIEF_DIRECTOR)
    members = [person(name, f"pw-{name}", field.tournament, roles.APPEALS_MEMBER) for name in ("ann", "ben", "cy")]
    board, x = field.boards[0], field.results[6]
    ruling = rulings_services.rule(
        result=x,
        director=chief,
        kind="ui",
        laws="16B1a, 12C1c",
        give=True,
        ruling_text="Score adjusted to 3S making.",
        outcome="adjusted",
        score_kind="assigned",
        offending_side="NS",
        ns={"contract": "3S", "declarer": "N", "tricks": 9},
    )
    services.post_official_scores(
        session=field.session, at=timezone.now() - datetime.timedelta(minutes=5), by=policy.SYSTEM
    )
    wait_for(lambda: settled(board))
    assert BoardScore.objects.get(result=x).ns == Decimal("3")  # +140: beats -50, ties table 5

    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.set_default_timeout(15000)
    log_in(page, live_server, "chief", "pw-chief")
    page.goto(f"{live_server.url}/rulings/{ruling.pk}/")
    with page.expect_navigation():
        page.click("text=Lodge an appeal")
    page.select_option("[name=player]", label="P13 Player13")
    page.fill("[name=grounds]", "The pause did not suggest bidding game; 4S was the only call with our hands.")
    with page.expect_navigation():
        page.click("form.ruling-form button:has-text('Lodge the appeal')")
    page.wait_for_selector("h1:has-text('Appeal 1')")
    page.select_option("form:has(input[value=concurrence]) [name=player]", label="P14 Player14")
    page.select_option("[name=how]", "in_person")
    with page.expect_navigation():
        page.click("text=Record concurrence")
    page.select_option("[name=kind]", "committee")
    for member in members:  # checkboxes, one per candidate
        page.check(f"input[name=members][value='{member.pk}']")
    page.select_option("[name=chair]", str(members[0].pk))
    with page.expect_navigation():
        page.click("text=Constitute the body")
    page.wait_for_selector("text=Member appointed")

    member_pages = {}
    for member in members:  # each member declares their interests before the body sits
        member_page = browser.new_page(viewport={"width": 1100, "height": 900})
        member_page.set_default_timeout(15000)
        log_in(member_page, live_server, member.username, f"pw-{member.username}")
        member_page.goto(f"{live_server.url}/appeals/{Appeal.objects.get().pk}/")
        with member_page.expect_navigation():
            member_page.click("text=Declare interests")
        member_page.wait_for_selector("text=Recorded.")
        member_pages[member] = member_page

    page.reload()
    page.fill(
        "[name=starts_at]",
        # It starts now (this minute): the members vote at once.
        timezone.localtime(timezone.now(), field.tournament.zone).strftime("%Y-%m-%dT%H:%M"),
    )
    page.select_option("[name=mode]", "in_person")
    page.fill("[name=place]", "Committee room")
    with page.expect_navigation():
        page.click("text=Schedule the hearing")
    page.wait_for_selector("text=Hearing scheduled")
    page.close()

    for member, member_page in member_pages.items():
        member_page.reload()
        member_page.select_option("form:has(input[value=vote]) [name=outcome]", "vary")
        with member_page.expect_navigation():
            member_page.click("text=Record my vote")
        member_page.wait_for_selector("text=Recorded.")
    page = member_pages[members[0]]  # the chair records the decision
    decide = "form:has(input[value=decide])"
    page.check(f"{decide} input[name=decide-decision][value=vary]")
    page.fill(
        f"{decide} [name=decide-reasons]", "Bidding on was not suggested over passing; the committee assigns 4S made."
    )
    page.select_option(f"{decide} [name=decide-score_kind]", "assigned")
    page.fill(f"{decide} [name=decide-contract]", "4S")
    page.select_option(f"{decide} [name=decide-declarer]", "N")
    page.fill(f"{decide} [name=decide-tricks]", "10")
    with page.expect_navigation():
        page.click(f"{decide} button:has-text('Record the decision')")
    page.wait_for_selector("text=Recorded.")
    text = page.inner_text("main")
    assert "Ruling varied" in text and "4S N = (+420)" in text
    for step in (
        "Appeal lodged",
        "Concurrence recorded",
        "Body formed",
        "Hearing scheduled",
        "Vote recorded",
        "Decided",
    ):
        assert step in text, step
    page.set_viewport_size({"width": 1100, "height": 900})
    screenshot(page, "appeal-timeline")

    wait_for(lambda: settled(board))
    assert BoardScore.objects.get(result=x).ns == Decimal("8")  # back to +420
    ruling.refresh_from_db()
    assert ruling.state == "changed_by_appeal"
