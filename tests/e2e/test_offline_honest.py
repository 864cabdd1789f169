"""Offline honesty on a 390x844 phone (issue #42, item 7): the tournament page said "Saved on this
phone" when the browser refused the service worker and nothing opened offline. Now it says so only
once the worker is active and the pages are kept, names the refusal otherwise, and gives the
time it kept them in the tournament's zone, not the phone's."""

import pytest

from tests.e2e.conftest import PHONE, log_in
from tests.e2e.test_national import small_demo  # noqa: F401 - fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def phone_context(browser, **options):
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, timezone_id="America/Los_Angeles", **options
    )
    page = context.new_page()
    page.set_default_timeout(20000)
    return context, page


def tournament_page(page, live_server):
    from scoring.models import Tournament

    tournament = Tournament.objects.get(name="Spring Congress 2026")
    log_in(page, live_server, "director", "director-demo")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    return tournament


def test_a_refused_service_worker_is_not_called_saved(browser, live_server, small_demo):  # noqa: F811
    context, page = phone_context(browser, service_workers="block")
    tournament_page(page, live_server)
    page.wait_for_selector("#offline-keep[data-done]", state="attached", timeout=40000)
    text = page.inner_text("#offline-keep")
    assert page.get_attribute("#offline-keep", "data-done") == "refused"
    assert "Saved on this phone" not in text and "this browser refused to keep pages for offline use" in text
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"the tournament page is {widths[0]} px wide on a {widths[1]} px phone"
    context.close()


def test_the_pages_kept_are_said_saved_at_the_tournaments_time(browser, live_server, small_demo):  # noqa: F811
    context, page = phone_context(browser)
    tournament = tournament_page(page, live_server)
    page.wait_for_selector("#offline-keep[data-done]", state="attached", timeout=60000)
    assert page.get_attribute("#offline-keep", "data-done") == "saved"
    assert page.evaluate(
        "navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready.then(() => true)"
    )
    text = page.inner_text("#offline-keep")
    assert "Saved on this phone for offline use" in text
    assert f"({tournament.zone.key})" in text  # the phone is in Los Angeles; the time is the tournament's
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"the tournament page is {widths[0]} px wide on a {widths[1]} px phone"
    context.close()
