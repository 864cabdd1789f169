"""Precedents in a real browser, on the demo with its casebook of past seasons: the director
opens the demo's Law 16 ruling and finds the earlier Law 16 case first, and follows its link to
the published case, even when the index was written again in between (as a worker does when a
casebook is made final)."""

import pytest
from django.urls import reverse

from national import precedents
from rulings.models import Ruling
from tests.demo import load_small_demo
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo_with_past_seasons():
    load_small_demo(past_seasons=True)


def test_a_law_16_ruling_shows_the_earlier_law_16_case_first(browser, live_server, demo_with_past_seasons):
    ruling = (
        Ruling.objects.filter(
            board__session__event__tournament__name="Spring Congress 2026", citations__law__number="16B1a"
        )
        .exclude(state="draft")
        .order_by("number")
        .first()
    )
    context = browser.new_context(viewport={"width": 1100, "height": 1400})
    page = context.new_page()
    page.set_default_timeout(20000)
    log_in(page, live_server, "director", "director-demo")
    page.goto(live_server.url + reverse("rulings:ruling", args=[ruling.pk]))
    first = page.locator("#precedents li.precedent").first
    assert "Appeals of past seasons, 2023-2024" in first.inner_text()
    # The 2023 slow pass of 4S first: the same hesitation at the same call, what a committee
    # compares first (issue #43), saying so; the 2024 slow double of the same law after it.
    assert "(2023" in first.inner_text() and "16B1a" in first.inner_text()
    assert "The same hesitation at the same call (4S – P)" in first.inner_text()
    screenshot(page, "precedents-on-a-ruling")
    # In a whole run the session's real worker (started by the appeal journeys) takes the index
    # tasks that publishing and finalising the demo's casebooks sent, and indexes them again
    # while this page is open. That once gave the link a case id that no longer existed (a 404
    # page, no <main>). Index everything again here, so that it is tested every time.
    precedents.rebuild()
    first.locator("a").click()
    page.wait_for_url(f"{live_server.url}/national/precedents/*/")
    assert "none considered passing" in page.inner_text("main")  # the 2023 case's reasons
    for last_name in ("Brandt", "Calloway", "Dunmore", "Esterhazy"):
        assert last_name not in page.inner_text("main")
