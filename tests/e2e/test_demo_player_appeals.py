"""The demo gives its ``player`` a ruling to appeal (issue #42, item 10): the player's only ruling
already carried their request, so a newcomer signed in as ``player`` had nothing to ask about.
On a 390x844 phone the player finds a ruling of their own with its clock running and asks to
appeal it."""

import pytest

from appeals.models import AppealRequest
from tests.e2e.conftest import ask_to_appeal, log_in, speak, words
from tests.e2e.test_appeal_journey import fits
from tests.e2e.test_national import small_demo  # noqa: F401 - fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "he"])
def test_the_demo_player_asks_to_appeal_a_ruling_of_their_own_on_the_phone(phone, live_server, small_demo, language):  # noqa: F811
    before = AppealRequest.objects.filter(player__user__username="player").count()
    log_in(phone, live_server, "player", "player-demo")
    reader = speak(phone, language)
    phone.goto(f"{live_server.url}/appeals/mine/")
    rows = phone.locator("table.mine tbody tr")
    # A ruling of the player's posted session, its window open with the clock running, to ask about.
    row = rows.filter(has=phone.locator("[role=timer]")).filter(
        has=phone.locator("details", has_text=words(language)("Ask to appeal"))
    )
    assert row.count() == 1
    fits(phone, f"demo-player-ruling-to-appeal-{language}")
    ask_to_appeal(phone, row, "We were not asked what our agreement was.", touch=False, language=language)
    assert AppealRequest.objects.filter(player__user__username="player").count() == before + 1
    fits(phone)
    if language != "en":
        reader.assert_clean()
