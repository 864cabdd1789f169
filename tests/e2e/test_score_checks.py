"""A scorer on a phone opens the session's score checks from its page, reads a flag with its
board and double-dummy par, and accepts it with one tap (issue #44), in English and in Hebrew."""

import pytest

from core import policy, roles
from scoring import services
from tests.conftest import make_user
from tests.e2e.conftest import PHONE, log_in, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "he"])
def test_a_scorer_accepts_a_flag_with_one_tap_on_a_phone(phone, live_server, field, language):
    scorer = make_user("checker")
    scorer.set_password("pw-checker")
    scorer.save()
    services.appoint_official(tournament=field.tournament, user=scorer, role=roles.SCORER, by=policy.SYSTEM)
    services.correct_result(result=field.results[5], contract="4S", declarer="N", tricks=5, by=policy.SYSTEM)

    log_in(phone, live_server, "checker", "pw-checker")
    if language != "en":
        with phone.expect_navigation():
            phone.select_option("#language", language)
    phone.goto(f"{live_server.url}/sessions/{field.session.pk}/")
    with phone.expect_navigation():
        phone.click("a.checks-link")
    widths = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1] == PHONE["width"], widths
    flag = phone.locator("li.check-far_from_field")
    assert flag.count() == 1
    assert "-250" in flag.inner_text() and flag.locator(".par").count() == 1
    screenshot(phone, f"score-checks-phone-{language}")
    with phone.expect_navigation():
        flag.locator("form.accept button").tap()
    assert phone.locator("li.check-far_from_field.accepted").count() == 1
    assert phone.locator("form.accept").count() == 0
