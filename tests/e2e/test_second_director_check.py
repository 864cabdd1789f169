"""A second director's check (issue #44), walked on a 390x844 phone: where the authority asks for
it, the director who gave an adjusted score reads that it awaits another director; the second
director confirms it on the ruling page and both names show; the score then reaches the scores.
Each page is no wider than the phone."""

import datetime

import pytest

from core import policy, roles
from rulings import services
from scoring import services as scoring_services
from scoring.models import EffectiveScore
from tests.e2e.test_appeal_journey import fits, on_phone, person

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_second_director_confirms_the_adjusted_score_on_a_phone(browser, live_server, field):
    scoring_services.set_authority_setting(
        authority=field.authority,
        key="second_director_check",
        value=True,
        effective_from=datetime.date(2000, 1, 1),
        by=policy.SYSTEM,
    )
    dana = person("dana", field.tournament, roles.DIRECTOR)
    eve = person("eve", field.tournament, roles.DIRECTOR)
    x = field.results[6]
    ruling = services.rule(
        result=x,
        director=dana,
        kind="ui",
        laws="16B1a",
        give=True,
        ruling_text="Score adjusted to 3S+1 by North",
        outcome="adjusted",
        score_kind="assigned",
        ns={"contract": "3S", "declarer": "N", "tricks": 10},
        offending_side="NS",
    )

    page = on_phone(browser, live_server, dana)
    page.goto(f"{live_server.url}/rulings/{ruling.pk}/")
    assert "Awaiting a second director's check" in page.inner_text("#score-check")
    assert page.locator("#confirm-score").count() == 0  # not to the director who entered it
    fits(page, "check-1-awaiting")
    assert not EffectiveScore.objects.filter(result=x).exists()

    page = on_phone(browser, live_server, eve)
    page.goto(f"{live_server.url}/rulings/{ruling.pk}/")
    with page.expect_navigation():
        page.click("#confirm-score")
    assert "The adjusted score is confirmed" in page.inner_text("main")
    assert "entered by Dana, confirmed by Eve at " in page.inner_text("#score-check")
    fits(page, "check-2-confirmed")
    assert EffectiveScore.objects.get(result=x).kind == "assigned"

    with page.expect_navigation():
        page.select_option("#language", "nl")
    assert "bevestigd door Eve" in page.inner_text("#score-check")
    fits(page, "check-3-confirmed-nl")
