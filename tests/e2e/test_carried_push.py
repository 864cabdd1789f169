"""A push carried on a USB stick, in a real browser on a phone (issue #41): the chief director of
a hall with no network downloads the tournament's push from the outbox, the national body's
auditor uploads the file on the desk's receive page and finds the tournament on the desk."""

import pytest

from core import policy, roles
from rulings import services as rulings_services
from scoring import services
from tests.conftest import CLAIM_STANDS, build_pairs_tournament, make_user, table_result
from tests.e2e.conftest import PHONE, log_in, screenshot
from tests.national.federation_helpers import register_self

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def phone_page(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20000)
    return context, page


def fits(page):
    """Nothing on the page is wider than the phone (a wide table scrolls in its own box)."""
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], widths


def test_a_push_carried_from_the_outbox_is_received_on_the_desk(browser, live_server, tmp_path):
    record = build_pairs_tournament(name="Hall Without Network")
    chief = make_user("chief", first_name="Chaim")
    services.appoint_official(tournament=record.tournament, user=chief, role=roles.CHIEF_DIRECTOR, by=policy.SYSTEM)
    result = table_result(record, 0, contract="4S", declarer="N", tricks=10)
    rulings_services.rule(result=result, director=chief, **CLAIM_STANDS)
    nora = make_user("nora", first_name="Nora")
    services.appoint_auditor(authority=record.authority, user=nora, by=policy.SYSTEM)
    origin = register_self(record.authority)

    context, page = phone_page(browser)
    log_in(page, live_server, "chief", "pw-chief")
    page.goto(f"{live_server.url}/national/federation/outbox/")
    assert "No network at the hall?" in page.inner_text("#carry")
    fits(page)
    with page.expect_download() as download:
        page.click("#carry button:has-text('Download Hall Without Network to carry')")
    carried = tmp_path / download.value.suggested_filename
    download.value.save_as(carried)
    assert carried.name.startswith("push-hall-without-network-") and carried.suffix == ".zip"
    context.close()

    context, page = phone_page(browser)
    log_in(page, live_server, "nora", "pw-nora", lands_on="/national/")
    page.goto(f"{live_server.url}/national/federation/")
    page.click("text=Receive a carried push")
    page.wait_for_url(f"{live_server.url}/national/federation/receive/")
    fits(page)
    page.select_option("#id_origin", str(origin.pk))
    page.set_input_files("#id_carried", str(carried))
    screenshot(page, "carried-push-receive")
    page.click("#receive-carried button[type=submit]")
    page.wait_for_url(f"{live_server.url}/national/federation/")
    said = page.inner_text(".messages")
    assert said.startswith("Received from Spring Congress: ") and "records new, 0 changed, 0 unchanged" in said
    assert "Hall Without Network" in page.inner_text("#received-tournaments")
    fits(page)
    screenshot(page, "carried-push-desk")

    # The same file with its bundle cut short is refused, the reason beside the file.
    page.click("text=Receive a carried push")
    cut = tmp_path / "cut.zip"
    cut.write_bytes(carried.read_bytes()[:200])
    page.select_option("#id_origin", str(origin.pk))
    page.set_input_files("#id_carried", str(cut))
    page.click("#receive-carried button[type=submit]")
    assert "The file is not a carried push, or it was cut short: download it again from the outbox." in page.inner_text(
        "#receive-carried"
    )
    context.close()
