"""The ruling form, a ruling page with its hand diagram and an appeal's timeline in Hebrew
(right to left) and in Greek, as a person sees them; the screenshots are kept for a look by eye."""

import datetime
from pathlib import Path

import pytest
from django.utils import timezone

from appeals import services as appeals_services
from core import policy, roles
from rulings import services as rulings_services
from scoring import services
from tests.conftest import make_user
from tests.e2e.conftest import PHONE, log_in, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
LIN_LINK = (Path(__file__).resolve().parents[1] / "fixtures" / "lin" / "handviewer.txt").read_text().strip()


@pytest.mark.parametrize("language,direction,word", [("he", "rtl", "ערעורים"), ("el", "ltr", "Εφέσεις")])
def test_pages_in_hebrew_and_greek(browser, live_server, field, language, direction, word):
    chief = make_user("chief", first_name="Chaim")
    chief.set_password("pw-chief")
    chief.save()
    services.appoint_official(tournament=field.tournament, user=chief, role=roles.CHIEF_DIRECTOR, by=policy.SYSTEM)
    ruling = rulings_services.rule(
        result=field.results[6],
        director=chief,
        kind="ui",
        laws="16B1a, 12C1c",
        give=True,
        ruling_text="Score adjusted.",
        outcome="adjusted",
        score_kind="weighted",
        offending_side="NS",
        ns=[
            {"contract": "4S", "declarer": "N", "tricks": 10, "weight": "0.6"},
            {"contract": "4S", "declarer": "N", "tricks": 9, "weight": "0.4"},
        ],
        deal_source=LIN_LINK,
        deal_override="The hand record of board 7, shown for its alerts",
    )
    services.post_official_scores(
        session=field.session, at=timezone.now() - datetime.timedelta(minutes=3), by=policy.SYSTEM
    )
    north = field.pairs[6].members.order_by("pk").first()
    appeal = appeals_services.lodge_appeal(ruling=ruling, by=chief, player=north, grounds="4S was automatic.")

    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    log_in(page, live_server, "chief", "pw-chief")
    with page.expect_navigation():  # the switcher submits itself on change
        page.select_option("#language", language)
    assert page.get_attribute("html", "dir") == direction
    assert page.get_attribute("html", "lang") == language

    page.goto(f"{live_server.url}/rulings/new/{field.results[1].pk}/")
    screenshot(page, f"ruling-form-{language}")
    page.goto(f"{live_server.url}/rulings/{ruling.pk}/")
    # The diagram keeps West on the left and the cards left to right, whatever the page's direction.
    west = page.locator(".hand-w").bounding_box()
    east = page.locator(".hand-e").bounding_box()
    assert west["x"] < east["x"]
    assert page.locator(".auction").get_attribute("dir") == "ltr"
    screenshot(page, f"ruling-page-{language}")
    page.goto(f"{live_server.url}/appeals/{appeal.pk}/")
    assert word in page.inner_text("body")
    screenshot(page, f"appeal-timeline-{language}")
    context.close()
