"""The API of the competition record: who may read and write what."""

import pytest
from rest_framework.test import APIClient

from scoring.models import Result

pytestmark = pytest.mark.django_db


def client_for(user):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def new_result(record, **extra):
    data = {
        "board": record.boards[0].pk,
        "round": record.round.pk,
        "table": record.tables[0].pk,
        "ns": record.pairs[0].pk,
        "ew": record.pairs[2].pk,
        "contract": "4S",
        "declarer": "N",
        "tricks": 10,
        "lead": "D2",
    }
    data.update(extra)
    return data


def test_anonymous_sees_nothing(record):
    response = APIClient().get("/api/v1/tournaments/")
    assert response.status_code == 403


@pytest.mark.parametrize("role", ["director", "chief", "scorer", "appeals", "auditor", "player"])
def test_every_role_of_the_tournament_reads_it(record, people, role):
    response = client_for(getattr(people, role)).get("/api/v1/tournaments/")
    assert response.status_code == 200
    assert [t["name"] for t in response.json()["results"]] == ["Club Championship"]


def test_a_player_of_another_tournament_sees_neither_list_nor_record_by_id(record, people):
    client = client_for(people.outsider)
    assert client.get("/api/v1/tournaments/").json()["results"] == []
    assert client.get(f"/api/v1/tournaments/{record.tournament.pk}/").status_code == 404
    assert client.get(f"/api/v1/boards/{record.boards[0].pk}/").status_code == 404


def test_auditor_reads_own_body_only(record, other_record, people):
    client = client_for(people.auditor)
    names = [t["name"] for t in client.get("/api/v1/tournaments/").json()["results"]]
    assert names == ["Club Championship"]
    assert client.get(f"/api/v1/tournaments/{other_record.tournament.pk}/").status_code == 404
    assert client.get(f"/api/v1/results/?board={other_record.boards[0].pk}").json()["results"] == []


@pytest.mark.parametrize("role", ["director", "chief", "scorer"])
def test_directors_and_scorers_record_results(record, people, role):
    response = client_for(getattr(people, role)).post("/api/v1/results/", new_result(record), format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["score_ns"] == 420
    assert Result.objects.get().score_ns == 420


@pytest.mark.parametrize("role", ["player", "appeals", "auditor", "outsider"])
def test_others_cannot_write(record, people, role):
    response = client_for(getattr(people, role)).post("/api/v1/results/", new_result(record), format="json")
    assert response.status_code == 403
    assert not Result.objects.exists()


def test_a_director_of_another_tournament_cannot_write_here(record, other_record, people):
    response = client_for(people.director).post("/api/v1/results/", new_result(other_record), format="json")
    # The other tournament's board is not even visible to them: the reference does not resolve.
    assert response.status_code in (400, 403)
    assert not Result.objects.exists()


def test_a_player_cannot_change_a_result(record, people):
    created = client_for(people.director).post("/api/v1/results/", new_result(record), format="json").json()
    response = client_for(people.player).patch(f"/api/v1/results/{created['id']}/", {"tricks": 8}, format="json")
    assert response.status_code == 403
    assert Result.objects.get().tricks == 10


def test_bad_input_names_the_field(record, people):
    client = client_for(people.director)
    response = client.post("/api/v1/results/", new_result(record, tricks=14), format="json")
    assert response.status_code == 400
    assert response.json() == {"tricks": ["14 tricks: declarer takes 0 to 13 tricks."]}
    # Well formed (a string), refused by the service as the record stands: 409, named the same way.
    response = client.post("/api/v1/results/", new_result(record, contract="8NT"), format="json")
    assert response.status_code == 409
    assert response.json() == {"contract": ["'8NT' has level 8: a level is 1 to 7."]}
    assert not Result.objects.exists()


def test_correction_through_the_api_rescores(record, people):
    client = client_for(people.scorer)
    created = client.post("/api/v1/results/", new_result(record), format="json").json()
    response = client.patch(f"/api/v1/results/{created['id']}/", {"tricks": 11}, format="json")
    assert response.status_code == 200
    assert response.json()["score_ns"] == 450


def test_board_with_a_bad_deal_is_refused(record, people):
    deal = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J87Z"
    response = client_for(people.director).post(
        "/api/v1/boards/", {"session": record.session.pk, "number": 5, "deal": deal}, format="json"
    )
    assert response.status_code == 409
    assert list(response.json()) == ["deal"]


def test_membership_numbers_are_for_officials_not_players(record, people):
    url = f"/api/v1/contestants/?event={record.event.pk}"
    as_director = client_for(people.director).get(url).json()["results"][0]["members"][0]
    as_player = client_for(people.player).get(url).json()["results"][0]["members"][0]
    assert as_director["membership_number"] == "nbo-1"
    assert "membership_number" not in as_player


def test_official_score_posting_sets_the_appeal_deadline(record, people):
    response = client_for(people.director).post(
        "/api/v1/official-scores/", {"session": record.session.pk, "posted_at": "2026-05-01T21:00:00Z"}, format="json"
    )
    assert response.status_code == 201
    session = client_for(people.player).get(f"/api/v1/sessions/{record.session.pk}/").json()
    assert session["appeal_deadline"] == "2026-05-01T21:30:00Z"


def test_schema_and_docs_are_served(record, people):
    client = client_for(people.player)
    assert client.get("/api/schema/").status_code == 200
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content
