"""A player on a phone opens a published session's change log from the session's page and reads
each change with its time and reason (issue #44), nothing off to the side, in English and in
Hebrew (right to left)."""

import datetime

import pytest
from django.utils import timezone

from core import policy, roles
from scoring import recalculation, services
from tests.conftest import make_user
from tests.e2e.conftest import PHONE, log_in, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "he"])
def test_a_player_reads_the_change_log_on_a_phone(phone, live_server, field, language):
    player = make_user("pairone", role=roles.PLAYER)
    player.set_password("pw-pairone")
    player.save()
    field.players[0].user = player
    field.players[0].save()
    services.post_official_scores(
        session=field.session, at=timezone.now() - datetime.timedelta(minutes=4), by=policy.SYSTEM
    )
    services.set_effective_score(
        result=field.results[6],
        kind="assigned",
        score={"ns": -50},
        reason="The hesitation suggested 4S",
        cause_type="ruling",
        cause_id=1,
        cause_label="ruling 1",
    )
    recalculation.recalculate_board(field.boards[0].pk)

    log_in(phone, live_server, "pairone", "pw-pairone")
    if language != "en":
        with phone.expect_navigation():
            phone.select_option("#language", language)
    phone.goto(f"{live_server.url}/sessions/{field.session.pk}/")
    with phone.expect_navigation():
        phone.click("a.change-log-link")
    assert phone.url.endswith(f"/sessions/{field.session.pk}/changes/")
    widths = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1] == PHONE["width"], widths
    change = phone.locator("li.change-score")
    assert change.count() == 1
    assert "The hesitation suggested 4S" in change.inner_text()
    assert "→" in change.locator(".scores").inner_text()
    if language == "he":
        assert phone.get_attribute("html", "dir") == "rtl"
        assert "פסיקת מנהל התחרות" in change.inner_text()
    else:
        assert "Ruling by the director" in change.inner_text()
    screenshot(phone, f"change-log-phone-{language}")
