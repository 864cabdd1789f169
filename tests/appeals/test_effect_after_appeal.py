"""The ruling page's "Effect on the score" shows the committee's score once it varied the ruling
(issue #42, item 5): it still showed only the director's."""

import pytest

from appeals import services
from tests.appeals.conftest import ready, shown, vote_all

pytestmark = pytest.mark.django_db


def test_the_ruling_page_shows_the_committee_s_score(case, client):
    appeal, body, _hearing = ready(case)
    vote_all(body, "vary")
    services.decide_appeal(
        appeal=appeal,
        by=case.members[0],
        outcome="vary",
        reasons="Bidding on was not suggested.",
        score_kind="assigned",
        ns={"contract": "4S", "declarer": "N", "tricks": 9},
    )
    appeal.refresh_from_db()
    client.force_login(case.director)
    page = shown(client.get(f"/rulings/{case.ruling.pk}/"))
    effect = page[page.index("Effect on the score") : page.index("Clocks")]
    assert f'<p class="by-appeal"><a href="/appeals/{appeal.pk}/">Appeal 1</a> · Ruling varied: ' in effect
    assert "4S" in effect.split('class="by-appeal"')[1]
