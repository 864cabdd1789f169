"""The chief director on a phone posts the official score with only the players' own results
visible: the page says the clocks have not started and why; posted again with the full
travellers, they start (issue #44), in English and in Hebrew."""

import pytest

from core import policy, roles
from scoring import services
from tests.conftest import make_user
from tests.e2e.conftest import PHONE, log_in, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "he"])
def test_the_clock_starts_when_the_travellers_are_visible(phone, live_server, field, language):
    chief = make_user("headtd")
    chief.set_password("pw-headtd")
    chief.save()
    services.appoint_official(tournament=field.tournament, user=chief, role=roles.CHIEF_DIRECTOR, by=policy.SYSTEM)
    log_in(phone, live_server, "headtd", "pw-headtd")
    if language != "en":
        with phone.expect_navigation():
            phone.select_option("#language", language)
    phone.goto(f"{live_server.url}/sessions/{field.session.pk}/")
    phone.select_option("form.post-score select[name=shows]", "own_results")
    with phone.expect_navigation():
        phone.click("form.post-score button[type=submit]")
    assert phone.locator("ol.postings li.not-checkable").count() == 1
    assert phone.locator("ol.postings li.checkable").count() == 0
    widths = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1] == PHONE["width"], widths
    screenshot(phone, f"checkable-not-yet-{language}")
    field.session.refresh_from_db()
    assert field.session.official_score_at is None
    phone.select_option("form.post-score select[name=shows]", "full_travellers")
    with phone.expect_navigation():
        phone.click("form.post-score button[type=submit]")
    assert phone.locator("ol.postings li.checkable").count() == 1
    assert field.session.official_score_at is not None
    screenshot(phone, f"checkable-started-{language}")
