"""A results file through the API (scoring/import_api.py): the preview, the import, the replace
and every refusal, as a scoring program with a token sees them."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from audit.models import AuditEntry
from core import policy
from rulings import services as ruling_services
from scoring import services
from scoring.models import Event, Result

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "interchange"
pytestmark = pytest.mark.django_db
SCORING_WARNING = "line 20: Scoring: a second Scoring tag in the same game (the first is at line 12) is ignored"


def data(name):
    return (FIXTURES / name).read_bytes()


@pytest.fixture
def pairs(record):
    return services.create_event(
        tournament=record.tournament, name="Tuesday Pairs", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )


def program(user):
    """A scoring program: a token of its user, no session."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def post(client, event, raw, name="tuesday.pbn", **fields):
    return client.post(
        f"/api/v1/events/{event.pk}/import/", {"file": SimpleUploadedFile(name, raw), **fields}, format="multipart"
    )


def test_preview_then_import_with_a_token(pairs, people):
    client = program(people.scorer)
    preview = post(client, pairs, data("per_table_games.pbn"), dry_run="true", session="3")
    assert preview.status_code == 200
    body = preview.json()
    assert body == {
        "dry_run": True,
        "format": "PBN",
        "sha256": body["sha256"],
        "session": 3,
        "session_id": None,
        "boards": 2,
        "board_numbers": [1, 2],
        "results": 6,
        "contestants_created": [1, 2, 3, 4, 5, 6],
        "contestants_created_labels": ["1", "2", "3", "4", "5", "6"],
        "artificial": [],
        "not_played": [],
        "warnings": [SCORING_WARNING],
        "replaced": None,
    }
    assert len(body["sha256"]) == 64
    assert not pairs.sessions.exists()  # a preview writes nothing

    done = post(client, pairs, data("per_table_games.pbn"), session="3")
    assert done.status_code == 201
    session = pairs.sessions.get()
    assert {**done.json(), "sha256": ""} == {
        **body,
        "sha256": "",
        "dry_run": False,
        "session_id": session.pk,
    }
    assert session.number == 3 and Result.objects.filter(board__session=session).count() == 6
    entry = AuditEntry.objects.get(action="session.imported")
    assert (entry.actor, entry.after["sha256"]) == (people.scorer, body["sha256"])

    again = post(client, pairs, data("per_table_games.pbn"))
    assert (again.status_code, again.json()) == (
        409,
        {
            "file": ["This file is already imported: Session 3 of Tuesday Pairs holds the same boards and results."],
            "warnings": [SCORING_WARNING],
        },
    )


def test_refusals_by_line_and_field(pairs, people):
    raw = data("per_table_games.pbn").replace(b'[Scoring "MP"]', b'[Scoring "Butler"]')
    response = post(program(people.director), pairs, raw, dry_run="true")
    assert response.status_code == 409
    assert response.json()["file"] == [
        "line 5: Scoring: the file is scored in Butler IMPs, but Tuesday Pairs is Matchpoint pairs: import it into an "
        "event scored that way, or have the program export it as such."
    ]
    assert not pairs.sessions.exists()


def test_an_oversized_file_is_refused_with_its_size(pairs, people, settings):
    # Refused while it is read (config/upload_limits.py), 413 naming the field and the limit.
    settings.INTERCHANGE_MAX_FILE_BYTES = 100
    raw = data("per_table_games.pbn")
    response = post(program(people.scorer), pairs, raw)
    assert (response.status_code, response.json()) == (
        413,
        {"file": ["Results file: the file is larger than 100\xa0bytes, the most this field takes. Nothing was kept."]},
    )


def test_replace_through_the_api_and_its_refusals(pairs, people):
    client = program(people.scorer)
    assert post(client, pairs, data("per_table_games.pbn")).status_code == 201
    corrected = data("per_table_games.pbn").replace(b'[Result "11"]', b'[Result "10"]', 1)

    missing = post(client, pairs, corrected, replace="true")
    assert (missing.status_code, missing.json()) == (
        409,
        {"session": ["Session: give the number of the session to replace."], "warnings": [SCORING_WARNING]},
    )
    preview = post(client, pairs, corrected, replace="true", session="1", dry_run="true")
    assert (preview.status_code, preview.json()["replaced"]) == (200, {"boards": 2, "results": 6})
    done = post(client, pairs, corrected, replace="true", session="1")
    assert (done.status_code, done.json()["replaced"], done.json()["results"]) == (201, {"boards": 2, "results": 6}, 6)
    table_two = Result.objects.get(board__session__event=pairs, board__number=1, table__number=2)
    assert table_two.tricks == 10
    assert AuditEntry.objects.filter(action="session.replaced", actor=people.scorer).count() == 1

    ruling = ruling_services.record_ruling(director=people.director, kind="law_applied", result=table_two)
    blocked = post(client, pairs, data("per_table_games.pbn"), replace="true", session="1")
    assert blocked.status_code == 409
    assert blocked.json()["session"] == [
        f"Ruling {ruling.number} (board 1, table 2) refers to Session 1 of Tuesday Pairs: a replace would take its "
        "board, table or result from under it. Correct those results one by one instead, or import the file as "
        "another session."
    ]
    assert Result.objects.get(pk=table_two.pk).tricks == 10


def test_the_form_of_the_request_is_checked(pairs, people):
    client = program(people.scorer)
    url = f"/api/v1/events/{pairs.pk}/import/"
    assert client.post(url, {}, format="multipart").json() == {"file": ["No file was submitted."]}
    response = post(client, pairs, b"% PBN 2.1\n", session="0")
    assert (response.status_code, response.json()) == (
        400,
        {"session": ["Ensure this value is greater than or equal to 1."]},
    )
    assert client.post(url, {"file": "x"}, format="json").status_code == 415


def test_only_the_tournaments_writers_import(pairs, people, other_record):
    raw = data("per_table_games.pbn")
    for user, status in ((people.player, 403), (people.appeals, 403), (people.auditor, 403)):
        assert post(program(user), pairs, raw, dry_run="true").status_code == status
    assert APIClient().post(f"/api/v1/events/{pairs.pk}/import/", {}, format="multipart").status_code == 403
    assert not pairs.sessions.exists()
