"""The committee's weighted score (Law 12C1c) reads back with its weights as typed (issue #42,
item 8): typed 30% and 70% they came back as 0.3 and 0.7 in the appeal's score and its API."""

import pytest

from tests.appeals.conftest import varied_on_the_web

pytestmark = pytest.mark.django_db


def test_the_committee_s_weights_read_back_as_typed(case, client):
    row = {"contract": "4S", "declarer": "N"}
    appeal, page = varied_on_the_web(
        case,
        client,
        "Some would pass, some would bid on",
        score_kind="weighted",
        **{f"w1_{key}": value for key, value in {**row, "tricks": "10", "weight": "30%"}.items()},
        **{f"w2_{key}": value for key, value in {**row, "tricks": "9", "weight": "70%"}.items()},
    )
    assert "Recorded." in page
    appeal.refresh_from_db()
    assert appeal.score == {"ns": [[420, "30%"], [-50, "70%"]]}
    assert appeal.score_description == "30% 4S N = / 70% 4S N -1"
    assert "30% 4S N = / 70% 4S N -1" in page
    api = client.get(f"/api/v1/appeals/{appeal.pk}/").json()
    assert api["score"] == {"ns": [[420, "30%"], [-50, "70%"]]}
