"""The appeal journey of issue 21 on a 390-pixel phone, with no API call and no admin page: a
ruling, the player's request to appeal on their own page, the director lodging it with the
partner's concurrence, the director in charge deciding the law part, the committee reading the
case file, hearing, voting with one dissent and varying the score to a weighted one, the
standings following through the real worker; and the law-only appeal that the director in
charge decides alone (Law 93B1). On every page the document is no wider than the phone."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from appeals import services as appeals_services
from appeals.models import Appeal
from core import policy, roles
from rulings import services as rulings_services
from scoring import services
from scoring import services as scoring_services
from scoring.models import BoardScore
from tests.conftest import make_user, settled, wait_for
from tests.e2e.conftest import PHONE, log_in, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def person(name, tournament=None, role=None):
    user = make_user(name, first_name=name.title())
    user.set_password(f"pw-{name}")
    user.save()
    if tournament is not None:
        services.appoint_official(tournament=tournament, user=user, role=role, by=policy.SYSTEM)
    return user


def on_phone(browser, live_server, user, lands_on="/"):
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    log_in(page, live_server, user.username, f"pw-{user.username}", lands_on=lands_on)
    return page


def fits(page, name=None):
    """The page does not scroll sideways on the phone; kept as a screenshot when named."""
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = (
        []
        if width <= PHONE["width"]
        else page.evaluate(
            "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 390)"
            ".slice(0, 5).map(e => e.tagName + '.' + e.className + '[' + (e.getAttribute('name') || '') + ']')"
        )
    )
    assert width <= PHONE["width"], f"{page.url} is {width}px wide on a {PHONE['width']}px phone: {wide}"
    if name:
        screenshot(page, name)


def submit(page, action, button=None):
    """Submit the form of one step of the case (its hidden ``action``)."""
    form = page.locator(f"form:has(input[name=action][value={action}])").first
    with page.expect_navigation():
        (form.locator(f"button:has-text('{button}')") if button else form.locator("button[type=submit]")).click()


@pytest.fixture
def table_x(field):
    """Table X's ruling (3S= assigned), its official score posted five minutes ago: the window is open."""
    chief = person("chief", field.tournament, roles.CHIEF_DIRECTOR)
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
    assert BoardScore.objects.get(result=x).ns == Decimal("3")
    north = x.ns.members.order_by("pk")[0]
    north.user = person("north")
    north.save(update_fields=["user"])
    return field, chief, ruling, north, board, x


def test_the_whole_appeal_on_a_phone(browser, live_server, worker, table_x):
    field, chief, ruling, north, board, x = table_x
    members = [person(name, field.tournament, roles.APPEALS_MEMBER) for name in ("ann", "ben", "cy")]

    # The player: their own page, the live countdown, the request to appeal.
    player = on_phone(browser, live_server, north.user)
    player.goto(f"{live_server.url}/appeals/mine/")
    player.wait_for_selector("[role=timer]")
    assert player.inner_text("[role=timer]").endswith(" left")  # counted down in words
    player.click("text=Ask to appeal")
    player.fill("[name=grounds]", "The pause did not suggest bidding game; and 16B1a does not apply after a stop card.")
    player.select_option("[name=about]", "both")
    fits(player, "journey-1-player-request")
    with player.expect_navigation():
        player.click("text=Send to the director")
    player.wait_for_selector("text=Your request is with the director")

    # The director in charge lodges it from his list, with the partner's concurrence.
    desk = on_phone(browser, live_server, chief)
    desk.goto(f"{live_server.url}/appeals/")
    fits(desk, "journey-2-appeals-home")
    with desk.expect_navigation():
        desk.click(f"a[href='/appeals/lodge/{ruling.pk}/']")
    fits(desk, "journey-3-lodge-from-request")
    submit(desk, "from_request")
    desk.wait_for_selector("h1:has-text('Appeal 1')")
    appeal = Appeal.objects.get()
    partner = x.ns.members.order_by("pk")[1]
    desk.select_option("form:has(input[value=concurrence]) [name=player]", str(partner.pk))
    desk.select_option("[name=how]", "in_person")
    submit(desk, "concurrence")
    desk.wait_for_selector("text=Recorded.")

    # The director in charge decides the law part (93B1).
    law = "form:has(input[value=law_part])"
    desk.check(f"{law} input[name=law-decision][value=uphold]")
    desk.fill(f"{law} [name=law-laws]", "16B1a")
    desk.fill(f"{law} [name=law-reasons]", "A stop card does not end the obligation to avoid using the pause.")
    submit(desk, "law_part")
    desk.wait_for_selector("text=Recorded.")

    # The body: constituted, each member declares, the hearing is scheduled.
    desk.select_option("[name=kind]", "committee")
    for member in members:  # checkboxes, one per candidate
        desk.check(f"input[name=members][value='{member.pk}']")
    desk.select_option("[name=chair]", str(members[0].pk))
    submit(desk, "constitute")
    desk.wait_for_selector("text=Member appointed")
    pages = {}
    for member in members:
        page = on_phone(browser, live_server, member)
        page.goto(f"{live_server.url}/appeals/{appeal.pk}/")
        submit(page, "declare")
        page.wait_for_selector("text=Recorded.")
        pages[member] = page
    desk.reload()
    desk.fill(
        "[name=starts_at]",
        (timezone.localtime(timezone.now(), field.tournament.zone) + datetime.timedelta(minutes=20)).strftime(
            "%Y-%m-%dT%H:%M"
        ),
    )
    desk.fill("[name=place]", "Committee room")
    submit(desk, "schedule")
    desk.wait_for_selector("text=Hearing scheduled")

    # The hearing is fixed for 20 minutes on: both sides are here, so the chair has the committee
    # sit now, and says why (no vote before the hearing otherwise).
    chair = pages[members[0]]
    chair.reload()
    assert "the members vote and decide after it starts" in chair.inner_text("#hearing-waits")
    assert chair.locator("form:has(input[value=vote])").count() == 0
    chair.fill("form:has(input[value=sit_early]) [name=reason]", "Both sides and the director are here.")
    submit(chair, "sit_early")
    chair.wait_for_selector("text=Recorded.")
    assert "Both sides and the director are here." in chair.inner_text("main")
    # The committee reads the case file, votes (one dissent) and varies the score to a weighted one.
    case_file = chair.inner_text("main")
    for part in (
        "Hand diagram" if "Hand diagram" in case_file else "The deal",
        "Laws",
        "16B1a",
        "Timeline",
        "Effect on the score",
    ):
        assert part in case_file, part
    fits(chair, "journey-4-case-file")
    for member, vote, dissent in (
        (members[0], "vary", ""),
        (members[1], "vary", ""),
        (members[2], "uphold", "Passing was not a logical alternative."),
    ):
        page = pages[member]
        page.reload()
        page.select_option("form:has(input[value=vote]) [name=outcome]", vote)
        page.fill("[name=dissent]", dissent)
        submit(page, "vote")
        page.wait_for_selector("text=Recorded.")
    chair.reload()
    decide = "form:has(input[value=decide])"
    chair.check(f"{decide} input[name=decide-decision][value=vary]")
    chair.fill(f"{decide} [name=decide-reasons]", "Some would bid on: 4S made 60%, 3S made 40%.")
    chair.select_option(f"{decide} [name=decide-score_kind]", "weighted")
    for row, (contract, tricks, weight) in enumerate((("4S", "10", "0.6"), ("3S", "10", "0.4")), start=1):
        chair.fill(f"{decide} [name=decide-w{row}_contract]", contract)
        chair.select_option(f"{decide} [name=decide-w{row}_declarer]", "N")
        chair.fill(f"{decide} [name=decide-w{row}_tricks]", tricks)
        chair.fill(f"{decide} [name=decide-w{row}_weight]", weight)
    assert chair.inner_text(f"{decide} .weight-sum") == "1"
    fits(chair, "journey-5-decision-form")
    submit(chair, "decide")
    chair.wait_for_selector("text=Recorded.")
    text = chair.inner_text("main")
    assert "Ruling varied" in text and "Passing was not a logical alternative." in text
    fits(chair, "journey-6-decided")

    # The standings follow through the real worker.
    wait_for(lambda: settled(board))
    assert BoardScore.objects.get(result=x).ns != Decimal("3")
    ruling.refresh_from_db()
    assert ruling.state == "changed_by_appeal"
    desk.goto(f"{live_server.url}/events/{field.event.pk}/standings/")
    fits(desk, "journey-7-standings")
    player.goto(f"{live_server.url}/appeals/mine/")
    assert "Decided" in player.inner_text("main")
    fits(player, "journey-8-player-decided")


def test_a_law_only_appeal_decided_by_the_director_in_charge_alone(browser, live_server, worker, table_x):
    field, chief, ruling, north, board, x = table_x
    desk = on_phone(browser, live_server, chief)
    desk.goto(f"{live_server.url}/appeals/lodge/{ruling.pk}/")
    desk.select_option("[name=player]", str(north.pk))
    desk.fill("[name=grounds]", "Law 16B1a does not reach a pause after a stop card.")
    desk.select_option("[name=about]", "law")
    fits(desk, "journey-law-1-lodge")
    with desk.expect_navigation():
        desk.click("form.ruling-form button:has-text('Lodge the appeal')")
    desk.wait_for_selector("h1:has-text('Appeal 1')")
    partner = x.ns.members.order_by("pk")[1]
    desk.select_option("form:has(input[value=concurrence]) [name=player]", str(partner.pk))
    submit(desk, "concurrence")
    law = "form:has(input[value=law_part])"
    desk.check(f"{law} input[name=law-decision][value=overturn]")
    desk.fill(f"{law} [name=law-laws]", "16B1a")
    desk.fill(f"{law} [name=law-reasons]", "The stop card regulation makes the pause authorised.")
    fits(desk, "journey-law-2-law-part")
    submit(desk, "law_part")
    desk.wait_for_selector("text=Recorded.")
    appeal = Appeal.objects.get()
    assert (appeal.state, appeal.outcome) == ("decided", "overturn")
    assert "decided by the director in charge on law" in desk.inner_text("main")
    fits(desk, "journey-law-3-decided")
    wait_for(lambda: settled(board))
    assert BoardScore.objects.get(result=x).ns != Decimal("3")  # the table result (4S made) again


def test_the_body_is_refused_on_law_recommends_and_an_advisory_further_appeal_changes_nothing(
    browser, live_server, worker, table_x
):
    """After the director in charge's decision on law goes to the body: the committee tries to
    overrule it, is refused (93B3) and recommends; the chief director accepts with a new score and
    the standings follow; a further appeal, advisory only, is lodged and decided without changing
    any score."""
    field, chief, ruling, north, board, x = table_x
    scoring_services.set_authority_setting(
        authority=field.authority,
        key="further_appeal",
        value="advisory",
        effective_from=datetime.date(2000, 1, 1),
        by=policy.SYSTEM,
    )
    members = [person(name, field.tournament, roles.APPEALS_MEMBER) for name in ("ann", "ben", "cy")]
    now = timezone.now()
    appeal = appeals_services.lodge_appeal(
        ruling=ruling,
        by=chief,
        player=north,
        grounds="16B1a cannot apply.",
        parts=[{"kind": "law", "question": "Does 16B1a apply?"}],
        now=now,
    )
    appeals_services.record_concurrence(
        appeal=appeal, player=x.ns.members.order_by("pk")[1], how="in_person", by=chief, now=now
    )
    appeals_services.decide_law_part(part=appeal.parts.get(), by=chief, outcome="uphold", reasons="It does.")
    appeals_services.appeal_law_decision(part=appeal.parts.get(), by=chief)
    body = appeals_services.constitute_body(
        appeal=appeal, by=chief, kind="committee", members=members, chair=members[0]
    )
    for member in body.members.all():
        appeals_services.declare_conflict(member=member, by=member.user)
    appeals_services.schedule_hearing(appeal=appeal, by=chief, starts_at=timezone.now(), place="Room 1")
    for member in body.sitting():
        appeals_services.record_vote(member=member, outcome="vary", by=member.user)

    chair = on_phone(browser, live_server, members[0])
    chair.goto(f"{live_server.url}/appeals/{appeal.pk}/")
    decide = "form:has(input[value=decide])"
    chair.check(f"{decide} input[name=decide-decision][value=vary]")
    chair.fill(f"{decide} [name=decide-reasons]", "We read 16B1a differently.")
    submit(chair, "decide")
    chair.wait_for_selector("text=cannot overrule the director in charge on law or regulation")
    fits(chair, "journey-9-refused-recommend")
    chair.fill("form:has(input[value=recommend]) [name=text]", "Assign 4S made: 16B1a needs an unmistakable pause.")
    submit(chair, "recommend")
    chair.wait_for_selector("text=Recorded.")

    desk = on_phone(browser, live_server, chief)
    desk.goto(f"{live_server.url}/appeals/{appeal.pk}/")
    respond = "form:has(input[value=respond])"
    desk.select_option(f"{respond} [name=accepted]", "yes")
    desk.fill(f"{respond} [name=response]", "Accepted: 4S made.")
    desk.select_option(f"{respond} [name=respond-score_kind]", "assigned")
    desk.fill(f"{respond} [name=respond-contract]", "4S")
    desk.select_option(f"{respond} [name=respond-declarer]", "N")
    desk.fill(f"{respond} [name=respond-tricks]", "10")
    fits(desk, "journey-10-accept-recommendation")
    submit(desk, "respond")
    desk.wait_for_selector("text=Recorded.")
    wait_for(lambda: settled(board))
    changed = BoardScore.objects.get(result=x).ns
    assert changed != Decimal("3")

    # The committee upholds; a player's further appeal (advisory) is decided and changes nothing.
    chair.reload()
    chair.check(f"{decide} input[name=decide-decision][value=uphold]")
    chair.fill(f"{decide} [name=decide-reasons]", "The director's decision on law stands.")
    for member in body.sitting():
        appeals_services.record_vote(member=member, outcome="uphold", by=member.user)
    submit(chair, "decide")
    chair.wait_for_selector("text=Recorded.")
    desk.reload()
    further = "form:has(input[name=action][value=further])"
    desk.select_option(f"{further} [name=player]", str(north.pk))
    desk.fill(f"{further} [name=grounds]", "The national body should say what 16B1a means here.")
    submit(desk, "further")
    desk.wait_for_selector("text=Recorded.")
    national = person("nadia")
    scoring_services.appoint_auditor(authority=field.authority, user=national, by=policy.SYSTEM)
    national_body = appeals_services.constitute_body(
        appeal=appeal, by=national, stage="further", size=1, members=[national]
    )
    seat = national_body.members.get()
    appeals_services.declare_conflict(member=seat, by=seat.user)
    page = on_phone(browser, live_server, national, lands_on="/national/")
    page.goto(f"{live_server.url}/appeals/{appeal.pk}/")
    form = "form:has(input[value=decide_further])"
    page.check(f"{form} input[name=further-decision][value=overturn]")
    page.fill(f"{form} [name=further-reasons]", "Advice: the pause was not unmistakable.")
    fits(page, "journey-11-further-advisory")
    submit(page, "decide_further")
    page.wait_for_selector("text=Recorded.")
    assert "advisory only" in page.inner_text("main")
    wait_for(lambda: settled(board))
    assert BoardScore.objects.get(result=x).ns == changed


def test_the_case_file_and_the_decision_form_in_hebrew_on_a_phone(browser, live_server, worker, table_x):
    """A member reads the case file and the decision form in Hebrew, right to left, on a phone."""
    field, chief, ruling, north, board, x = table_x
    members = [person(name, field.tournament, roles.APPEALS_MEMBER) for name in ("ann", "ben", "cy")]
    appeal = appeals_services.lodge_appeal(
        ruling=ruling, by=chief, player=north, grounds="Pass was not a logical alternative."
    )
    appeals_services.record_concurrence(appeal=appeal, player=x.ns.members.order_by("pk")[1], how="in_person", by=chief)
    body = appeals_services.constitute_body(
        appeal=appeal, by=chief, kind="committee", members=members, chair=members[0]
    )
    for member in body.members.all():
        appeals_services.declare_conflict(member=member, by=member.user)
    appeals_services.schedule_hearing(appeal=appeal, by=chief, starts_at=timezone.now(), place="Room 1")
    page = on_phone(browser, live_server, members[0])
    page.goto(f"{live_server.url}/appeals/{appeal.pk}/")
    with page.expect_navigation():  # the switcher submits itself on change
        page.select_option("#language", "he")
    assert (page.get_attribute("html", "lang"), page.get_attribute("html", "dir")) == ("he", "rtl")
    text = page.inner_text("main")
    assert "החלוקה והמכרז" in text and "ציר זמן" in text  # the case file and its timeline, in Hebrew
    page.check("form:has(input[value=decide]) input[name=decide-decision][value=vary]")
    page.select_option("form:has(input[value=decide]) [name=decide-score_kind]", "weighted")
    fits(page, "journey-he-case-file-and-decision")
