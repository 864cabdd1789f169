"""Live pages in a real browser (issue #27): a deadline counted down on a phone by the server's
clock, in the reader's language, saying "closed" at zero; the hall's notice board updating while
another user decides a case; the standings updating after a score change; none of it reloads
the page. The notice board's screenshots in English and Hebrew go to docs/screenshots/."""

import datetime
import re
from pathlib import Path

import pytest
from django.utils import timezone

from appeals import services as appeal_services
from core import policy, roles
from scoring import recalculation
from scoring import services as scoring_services
from scoring.models import Standing
from tests.appeals.conftest import case, ready, vote_all  # noqa: F401 - fixtures
from tests.conftest import make_user, ruling_at
from tests.e2e.conftest import PHONE, log_in, screenshot
from tests.test_translations import compiled  # noqa: F401 - fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
LARGE_SCREEN = {"width": 1600, "height": 900}

# A mark left on the page's window: still there after an update means the page was not reloaded.
MARK = "window.__notReloaded = true"
NOT_RELOADED = "() => window.__notReloaded === true"


def director_of(tournament, name="dana"):
    user = make_user(name, first_name=name.title())
    scoring_services.appoint_official(tournament=tournament, user=user, role=roles.DIRECTOR, by=policy.SYSTEM)
    return user


def phone_page(browser, language="en", clock_ahead=None):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    if language != "en":
        context.add_cookies([{"name": "django_language", "value": language, "url": "http://localhost"}])
    page = context.new_page()
    page.set_default_timeout(20000)
    if clock_ahead is not None:  # the phone's own clock is wrong by this much
        page.clock.install(time=datetime.datetime.now(datetime.UTC) + clock_ahead)
    return context, page


# The text of the appeal period's clock on the ruling page, as it is now (the page may be swapped).
CLOCK = (
    "[...document.querySelectorAll('dt')].find(dt => dt.textContent.includes('92B'))"
    ".nextElementSibling.querySelector('[role=timer]').textContent"
)


def appeal_clock(page):
    return page.locator("dt:has-text('92B') + dd [role=timer]")


def test_a_deadline_counts_down_on_a_phone_by_the_servers_clock(browser, live_server, field):
    director = director_of(field.tournament)
    ruling = ruling_at(field.results[6], director)
    period = field.tournament.regulations()["appeal_period_minutes"]
    posted = timezone.now() - datetime.timedelta(minutes=period) + datetime.timedelta(minutes=10)
    scoring_services.post_official_scores(session=field.session, by=director, at=posted)
    # The phone's clock is two hours fast: by its own clock the window closed long ago.
    context, page = phone_page(browser, clock_ahead=datetime.timedelta(hours=2))
    log_in(page, live_server, "dana", "pw-dana")
    page.goto(f"{live_server.url}/rulings/{ruling.pk}/")
    page.evaluate(MARK)
    clock = appeal_clock(page)
    iso = clock.get_attribute("data-deadline")
    assert iso == field.session.appeal_deadline().isoformat(timespec="seconds")
    assert page.locator("dt:has-text('92B') + dd time[datetime]").count() == 1
    first = clock.inner_text()
    assert re.fullmatch(r"(9 minutes, \d+ seconds|10 minutes) left", first), first
    page.wait_for_function(f"(before) => {CLOCK} !== before", arg=first, timeout=5000)
    second = clock.inner_text()
    assert second != first and second.endswith(" left"), second
    assert page.evaluate(NOT_RELOADED)
    screenshot(page, "live-countdown-phone")
    context.close()


def test_at_zero_the_countdown_says_closed_in_the_readers_language(browser, live_server, field, compiled):  # noqa: F811
    director = director_of(field.tournament)
    ruling = ruling_at(field.results[6], director)
    period = field.tournament.regulations()["appeal_period_minutes"]
    posted = timezone.now() - datetime.timedelta(minutes=period) + datetime.timedelta(seconds=12)
    scoring_services.post_official_scores(session=field.session, by=director, at=posted)
    context, page = phone_page(browser, language="he")
    log_in(page, live_server, "dana", "pw-dana")
    page.goto(f"{live_server.url}/rulings/{ruling.pk}/")
    page.evaluate(MARK)
    assert page.locator("html").get_attribute("dir") == "rtl"
    clock = appeal_clock(page)
    running = clock.inner_text()
    assert "שניות" in running, running  # seconds, in Hebrew
    assert clock.evaluate("node => getComputedStyle(node).direction") == "rtl"
    page.wait_for_function(f"() => {CLOCK} === 'סגור'", timeout=30000)
    assert page.evaluate(NOT_RELOADED)
    context.close()


def test_the_notice_board_updates_while_another_user_decides_a_case(browser, live_server, case, compiled):  # noqa: F811
    field = case.record
    now = timezone.now()
    period = field.tournament.regulations()["appeal_period_minutes"]
    scoring_services.post_official_scores(
        session=field.session, by=case.director, at=now - datetime.timedelta(minutes=period // 3)
    )
    # Tonight's hearings must come before the next session: it starts tomorrow here.
    field.event.sessions.filter(number=2).update(starts_at=now + datetime.timedelta(days=1))
    appeal, body, hearing = ready(case, now=now)
    Hearing = appeal.hearings.model  # heard in an hour: among the hearings to come
    Hearing.objects.filter(appeal=appeal).update(
        place="Committee room, 1st floor", starts_at=now + datetime.timedelta(hours=1)
    )
    other, other_body, _ = ready(case, now=now, player=case.east)
    vote_all(other_body, "uphold", now=now)
    appeal_services.decide_appeal(appeal=other, by=case.members[0], outcome="uphold", reasons="R", now=now)

    pages = {}
    for language in ("en", "he"):
        context = browser.new_context(viewport=LARGE_SCREEN)
        if language != "en":
            context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        page = context.new_page()
        page.set_default_timeout(20000)
        log_in(page, live_server, "dana", "pw-dana")
        page.goto(f"{live_server.url}/appeals/board/{field.tournament.pk}/")
        page.evaluate(MARK)
        pages[language] = (context, page)
    english = pages["en"][1]
    assert "Committee room, 1st floor" in english.locator("#board-hearings + ul").inner_text()
    assert english.locator("#board-windows + ul [role=timer]").count() == 1
    decided = english.locator("#board-decided + ul")
    assert "Appeal 2" in decided.inner_text() and "Appeal 1" not in decided.inner_text()
    keep(pages["en"][1], "notice-board-en")
    hebrew = pages["he"][1]
    assert hebrew.locator("html").get_attribute("dir") == "rtl"
    keep(hebrew, "notice-board-he")

    # Another user (the committee's chair, through the service) decides appeal 1, sitting early.
    appeal_services.sit_early(hearing=hearing, by=case.members[0], reason="Both sides are here.")
    vote_all(body, "vary", now=timezone.now())
    appeal_services.decide_appeal(
        appeal=appeal,
        by=case.members[0],
        outcome="vary",
        reasons="R",
        score_kind="assigned",
        ns={"contract": "4S", "declarer": "N", "tricks": 9},
    )
    english.wait_for_function(
        "() => document.querySelector('#board-decided + ul').textContent.includes('Appeal 1')", timeout=20000
    )
    assert "Ruling varied" in decided.inner_text()
    assert "Committee room" not in english.locator("#board-hearings + ul").inner_text()
    assert english.evaluate(NOT_RELOADED)
    hebrew.wait_for_function(
        "() => document.querySelector('#board-decided + ul').textContent.includes('1')"
        " && document.querySelectorAll('#board-decided + ul li').length === 2",
        timeout=20000,
    )
    assert hebrew.evaluate(NOT_RELOADED)
    for context, _page in pages.values():
        context.close()


def test_the_standings_update_after_a_score_change(browser, live_server, field):
    director = director_of(field.tournament)
    context, page = phone_page(browser)
    log_in(page, live_server, "dana", "pw-dana")
    page.goto(f"{live_server.url}/events/{field.event.pk}/standings/")
    page.evaluate(MARK)
    pair = field.pairs[0]  # table 1's N-S pair: +450, the top
    row = page.locator("table.standings tr", has=page.locator(f"a[href='/contestants/{pair.pk}/']"))
    before = Standing.objects.get(event=field.event, session=None, contestant=pair).total
    assert f"{before:.2f}" in row.inner_text()

    scoring_services.set_effective_score(
        result=field.results[0], by=director, kind="assigned", score={"ns": [[-100, "1"]]}, reason="Misboarded"
    )
    recalculation.recalculate_board(field.boards[0].pk)  # the worker's step, run here
    after = Standing.objects.get(event=field.event, session=None, contestant=pair).total
    assert after != before
    page.wait_for_function(
        f"(text) => document.querySelector(\"a[href='/contestants/{pair.pk}/']\").closest('tr').textContent.includes(text)",
        arg=f"{after:.2f}",
        timeout=20000,
    )
    assert page.evaluate(NOT_RELOADED)
    context.close()


def keep(page, name):
    """A screenshot in test-artifacts/ and its copy in docs/screenshots/ (replaced each run)."""
    path = screenshot(page, name)
    DOCS.mkdir(exist_ok=True)
    (DOCS / path.name).write_bytes(path.read_bytes())
