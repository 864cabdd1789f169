"""The receiving endpoints (issue #32): the organiser's token, the rate and size limits, a bundle
arriving in parts and a push that resumes where it was cut, through the push's own code with the
national body's answers given by the test client."""

import hashlib

import pytest
import requests
from django.core.cache import cache
from django.test import Client

from core import policy
from national.federation import bundle as bundles
from national.federation import push, receive
from national.federation.models import Push, ReceivedRecord, ReceivedVersion
from scoring.models import Tournament
from tests.appeals.conftest import case  # noqa: F401 - fixtures
from tests.national.federation_helpers import register_self
from tests.national.test_casebooks import decided  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db
BASE = "/api/federation/"


@pytest.fixture
def national(decided):  # noqa: F811
    cache.clear()
    decided.origin = register_self(decided.record.authority)
    decided.token = receive.issue_token(decided.origin, by=policy.SYSTEM)
    decided.api = Client(HTTP_AUTHORIZATION=f"Bearer {decided.token}")
    return decided


def test_a_token_is_needed_and_must_be_valid(national):
    assert Client().get(BASE + "head/").json() == {
        "error": "Give the organiser's token: Authorization: Bearer <token>.",
        "reason": "token_missing",
        "params": {},
    }
    wrong = Client(HTTP_AUTHORIZATION="Bearer bct_nothing")
    assert wrong.get(BASE + "head/").status_code == 401
    assert national.api.get(BASE + "head/").json() == {"origin": "Spring Congress", "tree_size": 0}
    receive.revoke_token(national.origin.tokens.get(), by=policy.SYSTEM)
    answer = national.api.get(BASE + "head/")
    assert (answer.status_code, answer.json()["error"]) == (401, "This token was revoked.")


def test_only_the_tokens_digest_is_kept(national):
    row = national.origin.tokens.get()
    assert row.digest == hashlib.sha256(national.token.encode()).hexdigest()
    assert national.token not in {row.prefix, row.digest} and national.token.startswith(row.prefix)


def test_requests_are_limited_per_organiser(national, settings):
    settings.FEDERATION_REQUESTS_PER_MINUTE = 3
    answers = [national.api.get(BASE + "head/") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[-1]["Retry-After"] == "60"
    assert answers[-1].json()["error"] == "Too many requests from this organiser: wait a minute."


def test_parts_and_bundles_are_limited_in_size(national, settings):
    settings.FEDERATION_MAX_PART_BYTES = 100
    settings.FEDERATION_MAX_BUNDLE_BYTES = 1000
    digest = "ab" * 32
    big = national.api.put(f"{BASE}uploads/{digest}/parts/0/?of=2", b"x" * 200, content_type="application/octet-stream")
    assert (big.status_code, big.json()) == (
        413,
        {"error": "A part may hold at most 100 bytes.", "reason": "part_bytes", "params": {"bytes": 100}},
    )
    many = national.api.put(f"{BASE}uploads/{digest}/parts/0/?of=11", b"x", content_type="application/octet-stream")
    assert (many.status_code, many.json()["error"]) == (413, "A bundle may hold at most 1000 bytes.")


def test_a_bundle_arrives_in_parts_and_a_part_sent_twice_changes_nothing(national):
    data = bundles.canonical(bundles.build(national.record.tournament.pk))
    digest, half = hashlib.sha256(data).hexdigest(), len(data) // 2
    url = f"{BASE}uploads/{digest}/"
    first = national.api.put(url + "parts/0/?of=2", data[:half], content_type="application/octet-stream")
    assert first.json()["received"] == [0]
    again = national.api.put(
        url + "parts/0/?of=2", data[:half], content_type="application/octet-stream", HTTP_IDEMPOTENCY_KEY=f"{digest}:0"
    )
    assert again.json()["received"] == [0]
    missing = national.api.post(url + "commit/")
    assert (missing.status_code, missing.json()["error"]) == (409, "Parts still missing: 1.")
    national.api.put(url + "parts/1/?of=2", data[half:], content_type="application/octet-stream")
    stored = national.api.post(url + "commit/")
    assert stored.status_code == 200 and stored.json()["created"] > 0
    assert national.api.post(url + "commit/").json() == stored.json()
    assert national.api.get(url).json()["stored"] is True


class CutOnce:
    """requests' transport answered by the test client; the connection lost once, at part
    ``cut``."""

    def __init__(self, client, cut):
        self.client, self.cut, self.calls = client, cut, []

    def __call__(self, session, method, url, data=None, headers=None, timeout=None):
        path = url.split("testserver", 1)[1]
        self.calls.append((method, path))
        if self.cut is not None and f"/parts/{self.cut}/" in path:
            self.cut = None
            raise requests.ConnectionError("connection reset")
        extra = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in (headers or {}).items() if k != "Content-Type"}
        answer = getattr(self.client, method.lower())(
            path, data or b"", content_type="application/octet-stream", **extra
        )
        response = requests.Response()
        response.status_code, response._content = answer.status_code, answer.content
        return response


def test_a_push_cut_in_the_middle_resumes_where_it_stopped(national, monkeypatch, settings):
    settings.FEDERATION_PART_BYTES = 2048
    push.set_target("http://testserver/api/federation/", national.token, by=policy.SYSTEM)
    transport = CutOnce(national.api, cut=2)
    monkeypatch.setattr(
        requests.Session, "request", lambda session, *args, **kwargs: transport(session, *args, **kwargs)
    )
    sent = Push.objects.create(target=push.target(), tournament=national.record.tournament)
    with pytest.raises(push.Interrupted):
        push.run(sent.pk, by=policy.SYSTEM)
    sent.refresh_from_db()
    assert (sent.state, sent.parts_sent, sent.last_error) == (
        "sending",
        2,
        f"Sending part 3 of {sent.parts}: the connection to the national body was lost (ConnectionError); "
        "it is tried again.",
    )
    assert (sent.error_code, sent.error_params) == (
        "connection_lost",
        {"step": {"code": "part", "part": 3, "parts": sent.parts}, "error": "ConnectionError"},
    )
    assert sent.parts > 3
    transport.calls.clear()
    assert push.run(sent.pk, by=policy.SYSTEM) == "delivered"
    parts = [path for method, path in transport.calls if method == "PUT"]
    assert parts[0].endswith(f"/parts/2/?of={sent.parts}") and len(parts) == sent.parts - 2  # 0 and 1 not again
    tournaments = Tournament.objects.count()
    assert push.run(sent.pk, by=policy.SYSTEM) == "delivered"  # the task run again: nothing sent
    again = Push.objects.create(target=push.target(), tournament=national.record.tournament)
    versions = ReceivedVersion.objects.count()
    assert push.run(again.pk, by=policy.SYSTEM) == "delivered"
    again.refresh_from_db()
    assert again.answer["created"] == again.answer["changed"] == 0
    assert (Tournament.objects.count(), ReceivedVersion.objects.count()) == (tournaments, versions)
    assert ReceivedRecord.objects.filter(model="scoring.tournament").count() == 1


def test_a_bundle_built_before_another_push_was_stored_is_built_again(national, monkeypatch, settings):
    """Two pushes of one instance built against the same head: the second one stored is refused
    as stale, and its task builds it again against the head now held."""
    push.set_target("http://testserver/api/federation/", national.token, by=policy.SYSTEM)
    transport = CutOnce(national.api, cut=None)
    monkeypatch.setattr(
        requests.Session, "request", lambda session, *args, **kwargs: transport(session, *args, **kwargs)
    )
    first = Push.objects.create(target=push.target(), tournament=national.record.tournament)
    second = Push.objects.create(target=push.target(), tournament=national.record.tournament)
    push._prepare(first, push.Client(first))
    from rulings import services as rulings_services

    rulings_services.change_ruling(ruling=national.ruling, by=national.director, reason="facts", facts="Changed.")
    push._prepare(second, push.Client(second))  # built from the same last head (none), its head larger
    assert push.run(second.pk, by=policy.SYSTEM) == "delivered"
    with pytest.raises(push.Interrupted, match="rebuilt"):
        push.run(first.pk, by=policy.SYSTEM)
    first.refresh_from_db()
    assert first.last_error == (
        "The national body holds a newer tree head than this bundle's: the bundle is built again."
    )
    assert first.digest == "" and first.state == "sending"
    assert push.run(first.pk, by=policy.SYSTEM) == "delivered"
