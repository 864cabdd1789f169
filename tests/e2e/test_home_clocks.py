"""The player's home page shows the rulings at their tables with the appeal period's clock
running (issue #42, item 10: "the home pages of a player and a director do not show their own
rulings and clocks"). On a 390x844 phone the demo's player sees their ruling and its countdown on
the home page, taps "Ask to appeal" and lands on the ruling's row of their own page, where they
ask to appeal it."""

import re

import pytest

from appeals.models import AppealRequest
from tests.e2e.conftest import ask_to_appeal, log_in, speak, words
from tests.e2e.test_appeal_journey import fits
from tests.e2e.test_national import small_demo  # noqa: F401 - fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "he"])
def test_the_player_sees_their_ruling_and_its_clock_on_home_and_taps_through_to_appeal(
    phone,
    live_server,
    small_demo,  # noqa: F811
    language,
):
    before = AppealRequest.objects.filter(player__user__username="player").count()
    log_in(phone, live_server, "player", "player-demo")
    reader = speak(phone, language)
    card = phone.locator("section.my-tables")
    assert card.locator("h2").inner_text() == words(language)("Rulings at your tables")
    row = card.locator("table.ruling-clocks tbody tr").filter(has=phone.locator("a.ask-to-appeal")).first
    clock = row.locator("[role=timer]")
    if language == "en":
        assert re.fullmatch(r".+ left", clock.inner_text()), clock.inner_text()  # counted down in words
    assert clock.get_attribute("data-deadline")  # by static/js/countdown.js, live
    ruling = row.get_attribute("id").removeprefix("home-ruling-")
    fits(phone)
    row.locator("a.ask-to-appeal").tap()
    phone.wait_for_url(f"{live_server.url}/appeals/mine/#ruling-{ruling}")
    mine = phone.locator(f"#ruling-{ruling}")
    assert mine.locator("[role=timer]").count() == 1
    ask_to_appeal(phone, mine, "We were not asked what our agreement was.", language=language)
    assert AppealRequest.objects.filter(player__user__username="player").count() == before + 1
    fits(phone)
    if language != "en":
        reader.assert_clean()
