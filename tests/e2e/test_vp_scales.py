"""A body's own victory-point scale, walked on a phone as its users walk it (issue #15): the
superuser, who records the national body's regulations, pastes the scale's bands on the body's
settings page and is refused a bad line by its number and field; the tournament's chief director
chooses the scale on the team event's page; the recalculation (eager here, in the server, as
in test_national) gives the match and the standings the table's VPs; a plain director of the
tournament sees the scale but no form, and a post of his is refused.

The match (tests/scoring/test_vp_scales.py's build): Lions (home) against Tigers (away), nine
boards, the Lions win board 1 by 470 (10 IMPs), the other eight flat: 10 IMPs over 9 boards.
On the body's setting (WBF 2013 20-VP, continuous) that is 13.59 to 6.41. The scale pasted here
is a TEST TABLE, made up for this test and no body's scale: its 9-11-board band from 9 IMPs
gives 19 to 6, so the Lions read 19.00 and the Tigers 6.00 once it is chosen.
"""

import pytest
from celery import current_app

from core import policy, roles
from scoring import services
from scoring.models import VictoryPointScale
from tests.conftest import make_user
from tests.e2e.conftest import PHONE, log_in, screenshot
from tests.scoring.test_vp_scales import build

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# A TEST TABLE: made-up bands for this test, not any body's scale.
TEST_TABLE = """boards,imps_from,winner_vp,loser_vp
# TEST TABLE made up for this browser test: no body's scale
9-11,0,12.5,12.5
9-11,3,15,10
9-11,9,19,6
9-11,15,22,3
9-11,21,25,0"""
TEST_SOURCE = "TEST TABLE made up for tests/e2e/test_vp_scales.py, not any body's regulations"
# Line 6 gives the winner fewer VPs than line 5 (19): refused, by line and field.
BAD_TABLE = TEST_TABLE.replace("9-11,15,22,3", "9-11,15,18,3")


def phone_of(browser):
    """A page of its own (own cookies) on a phone-sized screen, as the ``phone`` fixture's."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


def user(username, **extra):
    return make_user(username, first_name=username.title(), **extra)  # password: "pw-<username>"


def test_a_bodys_own_scale_from_its_settings_to_the_standings_on_a_phone(browser, phone, live_server, monkeypatch):
    # Recalculations run in the server as soon as a change is committed, as test_national's do.
    monkeypatch.setitem(current_app.conf, "task_always_eager", True)
    record = build()
    user("root", is_superuser=True, is_staff=True)
    chief = user("chief")
    services.appoint_official(tournament=record.tournament, user=chief, role=roles.CHIEF_DIRECTOR, by=policy.SYSTEM)
    director = user("dana")
    services.appoint_official(tournament=record.tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    settings_url = f"{live_server.url}/authorities/{record.authority.pk}/settings/"
    event_url = f"{live_server.url}/events/{record.event.pk}/"

    # 1. The superuser adds the body's scale by pasting its bands.
    page = phone
    log_in(page, live_server, "root", "pw-root")
    page.goto(settings_url)
    scales = page.locator("#vp-scales")
    assert "None: the shipped scales only (WBF 2013, ACBL)." in scales.inner_text()
    page.get_by_label("Name").fill("test25")
    page.get_by_label("Most VPs").fill("25")
    page.get_by_label("Source").fill(TEST_SOURCE)
    page.get_by_label("Bands").fill(TEST_TABLE)
    with page.expect_navigation():
        page.get_by_role("button", name="Add the scale").click()
    assert page.inner_text("ul.messages") == (
        "The scale vp-body:test25 is recorded: the body's setting and its events may choose it."
    )
    row = page.locator("#vp-scale-test25")
    assert [row.locator("th, td").nth(i).inner_text() for i in range(3)] == ["vp-body:test25", "25", "9-11"]
    assert TEST_SOURCE in row.inner_text()
    screenshot(page, "vp-scale-added-phone")

    # A bad line: refused naming the line and the field; nothing added, what was typed kept.
    page.get_by_label("Name").fill("test25b")
    page.get_by_label("Most VPs").fill("25")
    page.get_by_label("Source").fill(TEST_SOURCE)
    page.get_by_label("Bands").fill(BAD_TABLE)
    with page.expect_navigation():
        page.get_by_role("button", name="Add the scale").click()
    assert (
        page.inner_text("#vp-scales [role=alert]") == "line 6, winner_vp: the winner's VPs must not fall: 18 after 19"
    )
    assert page.locator("#vp-scales tbody tr").count() == 1
    assert page.get_by_label("Name").input_value() == "test25b"
    assert page.get_by_label("Bands").input_value().splitlines() == BAD_TABLE.splitlines()
    assert list(VictoryPointScale.objects.values_list("name", flat=True)) == ["test25"]
    screenshot(page, "vp-scale-refused-phone")

    # 2. The chief director finds the event from his home page and sees the scale in force.
    page = phone_of(browser)
    log_in(page, live_server, "chief", "pw-chief")
    with page.expect_navigation():
        page.get_by_role("link", name="Cup").first.click()
    with page.expect_navigation():
        page.get_by_role("link", name="Teams", exact=True).click()
    assert page.url == event_url
    assert page.title() == "Teams"  # the event's name alone (its scale card once sat in the title)
    card = page.locator("#vp-scale")
    assert card.locator("p").first.inner_text() == "wbf2013-20 · the regulating authority's"
    assert "Technical Report of the WBF Scoring Panel" in card.inner_text()
    page.goto(f"{live_server.url}/matches/{record.match.pk}/")
    assert vps_on_match_page(page) == ["13.59", "6.41"]
    page.goto(event_url)

    choice = page.get_by_label("Victory-point scale")
    assert choice.locator("option").all_inner_texts() == [
        "The regulating authority's (wbf2013-20)",
        "wbf2013-20",
        "wbf2013-30",
        "wbf2013-discrete-20",
        "acbl-20",
        "acbl-30",
        "vp-body:test25",
    ]
    choice.select_option("vp-body:test25")
    with page.expect_navigation():
        page.get_by_role("button", name="Record the scale").click()
    assert page.inner_text("ul.messages") == (
        "The victory-point scale is recorded; the standings are being recalculated."
    )
    card = page.locator("#vp-scale")
    assert card.locator("p").first.inner_text() == "vp-body:test25 · chosen for this event"
    assert card.locator("p.muted").inner_text() == f"Source: {TEST_SOURCE}"
    assert page.get_by_label("Victory-point scale").input_value() == "vp-body:test25"
    screenshot(page, "vp-scale-chosen-phone")

    # 3. Recalculated with the test table: 10 IMPs over 9 boards is its 9-IMP band, 19 to 6.
    with page.expect_navigation():
        page.get_by_role("link", name="Standings").first.click()
    assert page.locator(".notice.pending").count() == 0
    assert page.inner_text("#vp-scale-in-force") == f"Victory-point scale: vp-body:test25 · {TEST_SOURCE}"
    standings = [
        [cell.inner_text() for cell in row.locator("td").all()]
        for row in page.locator("table.standings tbody tr").all()
    ]
    assert standings == [["1", "1", "Lions", "9", "19.00"], ["2", "2", "Tigers", "9", "6.00"]]
    match_row = page.locator("section.card", has_text="Matches").locator("tbody tr")
    assert match_row.locator("td").nth(3).inner_text() == "10 – -10"
    assert match_row.locator("td").nth(4).inner_text() == "19.00 – 6.00"
    screenshot(page, "vp-scale-standings-phone")
    with page.expect_navigation():
        match_row.get_by_role("link", name="1").click()
    assert page.inner_text("#vp-scale-in-force") == f"Victory-point scale: vp-body:test25 · {TEST_SOURCE}"
    assert page.locator("table.match-score tfoot tr", has_text="IMPs").locator("td").all_inner_texts() == [
        "10",
        "-10",
    ]
    assert vps_on_match_page(page) == ["19.00", "6.00"]

    # 4. A plain director of the tournament reads the scale but has no form; a post is refused.
    page = phone_of(browser)
    log_in(page, live_server, "dana", "pw-dana")
    page.goto(event_url)
    assert page.locator("#vp-scale p").first.inner_text() == "vp-body:test25 · chosen for this event"
    assert page.locator("#vp-scale form, select[name=vp_scale]").count() == 0
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    refused = page.request.post(event_url, form={"csrfmiddlewaretoken": token, "vp_scale": ""})
    assert refused.status == 403
    record.event.refresh_from_db()
    assert record.event.vp_scale == "vp-body:test25"


def vps_on_match_page(page):
    return page.locator("table.match-score tfoot tr", has_text="VPs").last.locator("td").all_inner_texts()
