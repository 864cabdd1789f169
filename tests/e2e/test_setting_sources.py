"""A regulation's source where its value is used, on a phone (issue #43): a director opens the
team event's page, sees the VP scale with one folded line saying where it comes from, and taps it
to read the source, the words quoted and how sure they are; the page stays phone-wide."""

import pytest

from core import policy, roles
from scoring import services
from tests.conftest import make_user
from tests.e2e.conftest import log_in
from tests.scoring.test_setting_sources import ebu_teams

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_vp_scales_source_opens_with_a_tap_on_a_phone(phone, live_server):
    tournament, event = ebu_teams()
    director = make_user("dora", first_name="Dora")
    services.appoint_official(tournament=tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    log_in(phone, live_server, "dora", "pw-dora")
    phone.goto(f"{live_server.url}/events/{event.pk}/")
    source = phone.locator('#vp-scale details.setting-source[data-key="vp_scale"]')
    quote = source.locator("blockquote")
    assert not quote.is_visible()  # folded: one line on a phone
    source.locator("summary").tap()
    assert quote.is_visible()
    text = source.inner_text()
    assert "wbf2013-discrete-20" in text and "Source · secondary source" in text
    assert "The EBU uses the WBF discrete (whole-number) VP scale for teams-of-four" in quote.inner_text()
    assert "As a secondary source quotes or reports it: the text itself was not read." in quote.inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
