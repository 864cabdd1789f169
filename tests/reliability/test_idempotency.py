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
from core import policy, tasks
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


def test_a_key_whose_request_died_holds_no_lock_and_its_retry_runs_once(record, scorer, people):
    """A key's row left unanswered by a request whose process was killed holds no lock: the
    retry runs it (once), whatever its age; a running request's lock is another matter (below)."""
    body = json.dumps(api_result(record)).encode()
    IdempotencyKey.objects.create(
        principal=f"user:{people.scorer.pk}",
        key="k-2",
        method="POST",
        path="/api/v1/results/",
        fingerprint=hashlib.sha256(body).hexdigest(),
        expires_at=timezone.now() + timedelta(hours=24),
    )
    first = post(scorer, api_result(record), "k-2")
    again = post(scorer, api_result(record), "k-2")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert Result.objects.count() == 1


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

    pairs = services.create_event(
        tournament=record.tournament, name="Tuesday Pairs", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )
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


def _token_client(authorization):
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=authorization)
    return client


def test_a_key_belongs_to_the_user_however_they_authenticate(record, scorer, people):
    """Issue #41: the key belonged to the Authorization header's bytes: ``Token X``, ``token X``
    and ``Token  X`` saved three times, and token then session twice. One user, one key."""
    import base64

    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=people.scorer).key
    basic = base64.b64encode(b"scorer:pw-scorer").decode()
    clients = [f"Token {token}", f"token {token}", f"Token  {token}", f"Basic {basic}"]
    answers = [post(_token_client(header), api_result(record), "one-change") for header in clients]
    answers.append(post(scorer, api_result(record), "one-change"))  # the session, last
    assert [answer.status_code for answer in answers] == [201] * 5
    assert [answer.get("Idempotent-Replayed") for answer in answers] == [None] + ["true"] * 4
    assert all(answer.json() == answers[0].json() for answer in answers)
    assert Result.objects.count() == 1
    assert list(IdempotencyKey.objects.values_list("principal", flat=True)) == [f"user:{people.scorer.pk}"]


def test_wrong_credentials_with_a_key_are_the_views_refusal_and_claim_no_key(record):
    refused = post(_token_client("Token not-a-token"), api_result(record), "k-wrong")
    assert refused.status_code == 403  # DRF: its first authentication (the session) says no WWW-Authenticate
    assert not IdempotencyKey.objects.exists() and Result.objects.count() == 0


def test_a_refusal_before_anything_ran_is_not_replayed(record, people):
    """Issue #41: a 403 (the scorer not yet appointed) was stored and replayed to the retry for
    24 hours, though nothing had run. Only an answer of a request that ran is kept."""
    from core import roles
    from scoring import services
    from tests.conftest import make_user

    newcomer = make_user("newcomer")
    client = APIClient(raise_request_exception=False)
    client.force_login(newcomer)
    refused = post(client, api_result(record), "k-first-refused")
    assert refused.status_code == 403
    assert not IdempotencyKey.objects.exists()
    services.appoint_official(tournament=record.tournament, user=newcomer, role=roles.SCORER, by=policy.SYSTEM)
    retried = post(client, api_result(record), "k-first-refused")
    assert retried.status_code == 201 and "Idempotent-Replayed" not in retried
    assert Result.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_retry_while_the_first_runs_answers_409_however_long_it_has_run(record, people, monkeypatch):
    """Issue #41: a key protected its request for 120 s only: a request held 130 s and retried
    with its key saved twice (the retry took over the first's claim). The key's row is locked for
    the whole life of its request: the retry answers 409 and never takes over (PostgreSQL: the
    row's lock; SQLite serialises every write, so a retry there waits instead)."""
    import threading
    from unittest import mock

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("row locks (SELECT ... FOR UPDATE NOWAIT) are PostgreSQL's")
    real = scoring_api.ResultViewSet.create
    inside, release = threading.Event(), threading.Event()

    def slow(self, request, *args, **kwargs):
        response = real(self, request, *args, **kwargs)
        inside.set()
        assert release.wait(timeout=60)
        return response

    monkeypatch.setattr(scoring_api.ResultViewSet, "create", slow)
    answers = {}

    def first():
        client = APIClient()
        client.force_login(people.scorer)
        try:
            answers["first"] = post(client, api_result(record), "k-long")
        finally:
            connection.close()

    thread = threading.Thread(target=first)
    thread.start()
    assert inside.wait(timeout=60)
    retry_client = APIClient()
    retry_client.force_login(people.scorer)
    later = timezone.now() + timedelta(minutes=10)
    with mock.patch("core.idempotency.timezone.now", return_value=later):  # the first has run 10 minutes
        running = post(retry_client, api_result(record), "k-long")
    release.set()
    thread.join(timeout=60)
    assert running.status_code == 409 and running["Retry-After"] == "1"
    assert running.json() == {
        "Idempotency-Key": ["The first request with this Idempotency-Key is still running: try again shortly."]
    }
    assert answers["first"].status_code == 201
    after = post(retry_client, api_result(record), "k-long")
    assert after.status_code == 201 and after["Idempotent-Replayed"] == "true"
    assert Result.objects.count() == 1
