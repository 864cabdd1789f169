"""Issue #30: pages under the strict Content-Security-Policy work in a real browser, and a
violation fails the test that caused it (tests/e2e/conftest.py watches every page's console)."""

import pytest

from tests.conftest import make_user
from tests.e2e import conftest as e2e
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_api_docs_run_under_the_policy_and_a_violation_is_caught(browser, live_server):
    reader = make_user("reader")
    reader.set_password("pw-reader")
    reader.save()
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    log_in(page, live_server, "reader", "pw-reader")
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".swagger-ui .info")  # drawn by Swagger UI's scripts, none inline
    assert "Bridge rulings and appeals API" in page.inner_text(".swagger-ui .info")
    assert e2e.CSP_VIOLATIONS == []

    # What a violation looks like to the watch: an inline style a script adds is refused.
    page.evaluate(
        "() => { const s = document.createElement('style'); s.textContent = 'body {}'; document.head.append(s); }"
    )
    page.wait_for_timeout(200)
    assert any("Content Security Policy" in text for text in e2e.CSP_VIOLATIONS)
    e2e.CSP_VIOLATIONS.clear()
    context.close()
