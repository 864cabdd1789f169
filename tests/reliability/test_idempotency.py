"""Issue #30: a client told "error" for a change that committed, and retrying it, recorded it
twice. Every API write now takes an Idempotency-Key: the same request again answers the first
answer and writes nothing; the key with another body is refused (422); a key still in flight
answers 409; keys expire after IDEMPOTENCY_KEY_HOURS and beat purges them."""

import hashlib
import json
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from audit.models import AuditEntry
from core import tasks
from core.idempotency import IdempotencyKey
from scoring import api as scoring_api
from scoring.models import Result
from tests.audit.test_audit import api_result

pytestmark = pytest.mark.django_db


def post(client, data, key, path="/api/v1/results/"):
    return client.post(path, json.dumps(data), content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)


@pytest.fixture
def scorer(people):
    client = APIClient(raise_request_exception=False)
    client.force_login(people.scorer)  # a session, as a browser or a script that logged in
    return client


def test_a_retried_post_records_once_and_answers_the_first_answer(record, scorer):
    first = post(scorer, api_result(record), "3f1c-result-1")
    again = post(scorer, api_result(record), "3f1c-result-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
    assert Result.objects.count() == 1
    assert AuditEntry.objects.filter(action="result.recorded").count() == 1


def test_the_same_key_with_another_body_is_refused_with_422(record, scorer):
    assert post(scorer, api_result(record), "k-1").status_code == 201
    other = post(scorer, api_result(record, tricks=9), "k-1")
    assert other.status_code == 422
    assert other.json() == {
        "Idempotency-Key": [
            "This Idempotency-Key was used for another request (another body, method or address): use a new key."
        ]
    }
    assert Result.objects.count() == 1


def test_a_key_still_in_flight_answers_409_with_retry_after(record, scorer, people):
    body = json.dumps(api_result(record)).encode()
    IdempotencyKey.objects.create(
        principal=f"user:{people.scorer.pk}",
        key="k-2",
        method="POST",
        path="/api/v1/results/",
        fingerprint=hashlib.sha256(body).hexdigest(),
        expires_at=timezone.now() + timedelta(hours=24),
    )
    running = post(scorer, api_result(record), "k-2")
    assert running.status_code == 409 and running["Retry-After"] == "1"
    assert running.json() == {
        "Idempotency-Key": ["The first request with this Idempotency-Key is still running: try again shortly."]
    }
    assert Result.objects.count() == 0


def test_a_write_that_failed_keeps_no_key_and_its_retry_runs(record, scorer, monkeypatch):
    real = scoring_api.ResultViewSet.create

    def broken(self, request, *args, **kwargs):
        real(self, request, *args, **kwargs)  # the result written, then the server fails
        raise RuntimeError("the answer is lost")

    monkeypatch.setattr(scoring_api.ResultViewSet, "create", broken)
    assert post(scorer, api_result(record), "k-3").status_code == 500
    assert Result.objects.count() == 0  # rolled back with the key: nothing half done
    monkeypatch.setattr(scoring_api.ResultViewSet, "create", real)
    assert post(scorer, api_result(record), "k-3").status_code == 201
    assert Result.objects.count() == 1


def test_keys_are_the_callers_own(record, scorer, people):
    assert post(scorer, api_result(record), "k-4").status_code == 201
    director = APIClient()
    director.force_login(people.director)
    second = post(
        director, api_result(record, table=record.tables[1].pk, ns=record.pairs[1].pk, ew=record.pairs[3].pk), "k-4"
    )
    assert second.status_code == 201 and "Idempotent-Replayed" not in second


def test_keys_expire_and_beat_purges_them(record, scorer):
    assert post(scorer, api_result(record), "k-5").status_code == 201
    IdempotencyKey.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert tasks.purge_idempotency_keys() == 1
    assert not IdempotencyKey.objects.exists()


def test_a_key_too_long_is_refused(record, scorer):
    refused = post(scorer, api_result(record), "x" * 256)
    assert refused.status_code == 400
    assert refused.json() == {"Idempotency-Key": ["Give an Idempotency-Key of 1 to 255 characters."]}


def test_the_schema_states_the_header_on_every_write():
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    writes = 0
    for operations in schema["paths"].values():
        for method, operation in operations.items():
            names = [p["name"] for p in operation.get("parameters", []) if p.get("in") == "header"]
            if method in ("post", "put", "patch", "delete"):
                writes += 1
                assert "Idempotency-Key" in names and "422" in operation["responses"], operation["operationId"]
            else:
                assert "Idempotency-Key" not in names
    assert writes > 10


def test_an_upload_over_2_5_mb_with_a_key_is_taken_and_replayed(record, people):
    """Issue #30: the key's fingerprint read the whole body through request.body, whose limit
    (DATA_UPLOAD_MAX_MEMORY_SIZE, 2.5 MB) answered a larger upload with a key 400. A multipart
    body is now hashed as it is read into a spooled file, and parsed from there."""
    from pathlib import Path

    from django.conf import settings
    from django.core.files.uploadedfile import SimpleUploadedFile
    from rest_framework.authtoken.models import Token

    from scoring import services
    from scoring.models import Event

    pairs = services.create_event(tournament=record.tournament, name="Tuesday Pairs", kind=Event.Kind.MP_PAIRS)
    pbn = (Path(__file__).resolve().parents[1] / "fixtures" / "interchange" / "per_table_games.pbn").read_bytes()
    padding = b"% a scoring program's long export\n" * (3 * 1024 * 1024 // 34)
    big = padding + pbn
    assert len(big) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=people.scorer).key}")

    def send(content, key):
        return client.post(
            f"/api/v1/events/{pairs.pk}/import/",
            {"file": SimpleUploadedFile("big.pbn", content), "dry_run": "true"},
            format="multipart",
            HTTP_IDEMPOTENCY_KEY=key,
        )

    first = send(big, "upload-1")
    assert first.status_code == 200, first.content[:300]
    again = send(big, "upload-1")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    other = send(big + b"% another\n", "upload-1")
    assert other.status_code == 422
