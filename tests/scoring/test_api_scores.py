"""The scores over the API: adjusted scores in, travellers, scorecards, standings and the
score-change log out."""

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from core import policy
from scoring import recalculation
from scoring.models import ScoreChange
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(field):
    from core import roles
    from scoring import services

    user = make_user("td")
    services.appoint_official(tournament=field.tournament, user=user, role=roles.DIRECTOR, by=policy.SYSTEM)
    return user


def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


WEIGHTED = {
    "kind": "weighted",
    "score": {"ns": [[420, "0.5"], [450, "0.3"], [-50, "0.2"]]},
    "reason": "Law 16B",
    "description": "weighted 50% 4S= / 30% 4S+1 / 20% 4S-1",
}


def test_director_sets_a_weighted_score_and_the_pipeline_explains_it(field, director):
    x = field.results[6]
    response = api(director).post(f"/api/v1/results/{x.pk}/effective-score/", WEIGHTED, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["explanation"] == (
        "Board 1: 4S N = +420 replaced by weighted 50% 4S= / 30% 4S+1 / 20% 4S-1, recalculation pending"
    )
    session = api(director).get(f"/api/v1/sessions/{field.session.pk}/").json()
    assert session["recalculation_pending"] is True
    recalculation.recalculate_board(field.boards[0].pk)

    traveller = api(director).get(f"/api/v1/boards/{field.boards[0].pk}/traveller/").json()
    assert traveller["recalculation_pending"] is False
    row = next(r for r in traveller["results"] if r["id"] == x.pk)
    assert row["effective"]["kind"] == "weighted"
    assert Decimal(row["board_score"]["ns"]) == Decimal("7.5")
    # N-S frequency: +450 (1 + 0.3), +420 (2 + 0.5), +170, +140, -50 (1 + 0.2).
    assert traveller["frequency"]["NS"] == [
        {"score": 450, "count": "13/10"},
        {"score": 420, "count": "5/2"},
        {"score": 170, "count": "1"},
        {"score": 140, "count": "1"},
        {"score": -50, "count": "6/5"},
    ]

    card = api(director).get(f"/api/v1/contestants/{field.pairs[6].pk}/scorecard/").json()
    assert card[0]["adjusted"] == "weighted 50% 4S= / 30% 4S+1 / 20% 4S-1"
    assert Decimal(card[0]["score"]) == Decimal("7.5")

    # The E-W pair at table X sees the change from its side: 4 -> 4.5.
    changes = api(director).get(f"/api/v1/contestants/{field.pairs[13].pk}/score-changes/").json()
    assert changes[0]["explanation"].endswith(", 4 -> 4.5 MP")

    standings = api(director).get(f"/api/v1/events/{field.event.pk}/standings/").json()
    assert standings["recalculation_pending"] is False
    top_ns = next(s for s in standings["standings"] if s["field"] == "NS" and s["position"] == 1)
    assert (top_ns["contestant_number"], top_ns["place"]) == (1, "1")


def test_a_refused_adjusted_score_names_the_field_and_writes_nothing(field, director):
    bad = dict(WEIGHTED, score={"ns": [[420, "0.5"], [450, "0.4"]]})
    response = api(director).post(f"/api/v1/results/{field.results[6].pk}/effective-score/", bad, format="json")
    assert response.status_code == 409
    assert response.json() == {"score": ["board 1, table 7, ns: weights add up to 0.9, not 1"]}
    assert not ScoreChange.objects.exists()


def test_players_and_auditors_cannot_set_scores(field, director):
    player = make_user("p1", role="player")
    field.players[0].user = player
    field.players[0].save()
    response = api(player).post(f"/api/v1/results/{field.results[6].pk}/effective-score/", WEIGHTED, format="json")
    assert response.status_code == 403
    assert not ScoreChange.objects.exists()
