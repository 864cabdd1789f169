"""Issue #30: an official locked out after wrong passwords is unlocked by the chief director on
a phone: the home page's link, the locked-out logins, the Unlock button; the official then logs
in at once."""

import pytest
from django.conf import settings

from audit.models import AuditEntry
from core import policy, roles
from scoring import services
from tests.conftest import build_pairs_tournament, make_user
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_chief_director_unlocks_a_locked_out_director_on_a_phone(phone, browser, live_server):
    record = build_pairs_tournament()
    chief = make_user("cleo")
    chief.set_password("chief-pass")
    chief.save()
    services.appoint_official(tournament=record.tournament, user=chief, role=roles.CHIEF_DIRECTOR, by=policy.SYSTEM)
    dana = make_user("dana")
    dana.set_password("dana-pass")
    dana.save()

    # Dana mistypes until she is locked out (on her own phone).
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    hers = context.new_page()
    for _attempt in range(settings.AXES_FAILURE_LIMIT):
        hers.goto(f"{live_server.url}/login/")
        hers.fill("#id_username", "dana")
        hers.fill("#id_password", "wrong")
        hers.click("button[type=submit]")
    assert "try again in 1 minute" in hers.inner_text("body")

    page = phone
    log_in(page, live_server, "cleo", "chief-pass")
    with page.expect_navigation():
        page.click("#locked-logins-link")
    row = page.locator("#locked-logins tr", has_text="username dana")
    assert str(settings.AXES_FAILURE_LIMIT) in row.inner_text()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the locked-out logins page is {width}px wide on a 390px phone"
    screenshot(page, "unlock-login-phone")
    with page.expect_navigation():
        row.get_by_role("button", name="Unlock").click()
    assert "dana is unlocked: it may log in at once." in page.inner_text(".messages")
    assert page.locator("#locked-logins tr", has_text="username dana").count() == 0
    assert AuditEntry.objects.filter(action="login.unlocked", actor=chief, object_id="username:dana").exists()

    log_in(hers, live_server, "dana", "dana-pass")
    context.close()
