"""The national body witnesses an organiser's tree heads (issue #41): every head signed since the
last one it holds arrives with its consistency proof; a fork (another head of a size it holds)
and a rollback (a smaller head signed after the last one, or a larger one that does not extend
it) are refused, kept as alarms, audited and shown on the desk and the auditor's page. This
instance is its own national body here (its own key registered)."""

import json

import pytest
import requests
from django.core.cache import cache
from django.test import Client

from audit import merkle, signing
from audit.models import AuditEntry, SignedTreeHead
from core import policy, roles
from national.federation import bundle as bundles
from national.federation import heads, push, receive
from national.federation.models import HeadAlarm, PublishTarget, ReceivedHead
from scoring import services as scoring_services
from tests.conftest import make_user
from tests.national.federation_helpers import deliver, register_self

pytestmark = pytest.mark.django_db
BASE = "/api/federation/"
TARGET = "http://127.0.0.1:1/api/federation/"


@pytest.fixture
def national(record):
    cache.clear()
    record.origin = register_self(record.authority)
    for _other in range(3):  # audited writes, each signing a head
        receive.issue_token(record.origin, by=policy.SYSTEM)
    record.token = receive.issue_token(record.origin, by=policy.SYSTEM)
    record.api = Client(HTTP_AUTHORIZATION=f"Bearer {record.token}")
    return record


class Relay:
    """The national body's answers given by the test client, the calls kept."""

    def __init__(self, client):
        self.client, self.calls = client, []

    def __call__(self, session, method, url, data=None, json=None, headers=None, timeout=None):
        path = "/api/federation/" + url.split("/api/federation/", 1)[1]
        self.calls.append((method, path, json))
        if json is not None:
            answer = self.client.post(path, json, content_type="application/json")
        else:
            answer = getattr(self.client, method.lower())(path)
        response = requests.Response()
        response.status_code, response._content = answer.status_code, answer.content
        return response


@pytest.fixture
def relay(national, monkeypatch):
    transport = Relay(national.api)
    monkeypatch.setattr(requests.Session, "request", lambda session, *a, **k: transport(session, *a, **k))
    push.set_target(TARGET, national.token, by=policy.SYSTEM)
    return transport


def rows(**lookup):
    return list(SignedTreeHead.objects.filter(**lookup).order_by("tree_size").values(*heads.FIELDS))


def signed(tree_size, root, timestamp, previous_size=0, consistency=()):
    key, signature = signing.sign(tree_size, timestamp, root)
    return {
        "tree_size": tree_size,
        "root_hash": root.hex(),
        "timestamp": timestamp,
        "key_id": key,
        "signature": signature,
        "previous_size": previous_size,
        "consistency": list(consistency),
    }


def post(national, sent):
    return national.api.post(BASE + "heads/", {"heads": sent}, content_type="application/json")


def test_every_head_signed_goes_to_the_national_body_with_its_consistency_proof(national, relay):
    made = SignedTreeHead.objects.count()
    assert made >= 5
    assert heads.send(by=policy.SYSTEM) == SignedTreeHead.objects.order_by("-tree_size").first().tree_size
    # Every head, each checked against the one before it; the first was trusted as the first.
    assert ReceivedHead.objects.filter(origin=national.origin).count() >= made
    target = PublishTarget.objects.get()
    assert target.heads_witnessed == ReceivedHead.objects.order_by("-tree_size").first().tree_size
    assert target.heads_witnessed_at is not None and target.heads_error == ""
    # Sent again: the head it holds, once more, and nothing stored.
    relay.calls.clear()
    count = ReceivedHead.objects.count()
    heads.send(by=policy.SYSTEM)
    assert ReceivedHead.objects.count() == count
    assert not any(method == "POST" for method, _path, _sent in relay.calls)
    # A write since signs a head: the next sending carries the held head first, then the new one.
    receive.issue_token(national.origin, by=policy.SYSTEM)
    relay.calls.clear()
    heads.send(by=policy.SYSTEM)
    (posted,) = [sent for method, _path, sent in relay.calls if method == "POST"]
    sizes = [head["tree_size"] for head in posted["heads"]]
    assert sizes[0] == target.heads_witnessed and len(sizes) >= 2
    assert posted["heads"][1]["previous_size"] == sizes[0]


def test_a_fork_a_head_of_a_size_held_with_another_root_is_refused_and_flagged(national, relay, client):
    heads.send(by=policy.SYSTEM)
    held = ReceivedHead.objects.filter(origin=national.origin).order_by("-tree_size").first()
    forged = signed(held.tree_size, b"\x07" * 32, held.timestamp + 1)
    answer = post(national, [forged])
    assert answer.status_code == 422
    assert answer.json()["reason"] == "head_fork"
    assert answer.json()["error"] == (
        f"The tree head of {held.tree_size} entries differs from the head of {held.tree_size} entries received "
        "before from Spring Congress: its trail forked."
    )
    alarm = HeadAlarm.objects.get()
    assert (alarm.kind, alarm.reason, alarm.tree_size) == ("fork", "same_size", held.tree_size)
    assert alarm.held["root_hash"] == held.root_hash and alarm.received["root_hash"] == "07" * 32
    assert ReceivedHead.objects.get(origin=national.origin, tree_size=held.tree_size).root_hash == held.root_hash
    assert AuditEntry.objects.filter(action="federation.head_fork").count() == 1
    post(national, [forged])  # sent again: the same alarm
    assert HeadAlarm.objects.count() == 1
    # The desk and the auditor's page say so.
    auditor = make_user("nora", role=roles.NATIONAL_AUDITOR)
    scoring_services.appoint_auditor(authority=national.authority, user=auditor, by=policy.SYSTEM)
    client.force_login(auditor)
    desk = client.get("/national/federation/").content.decode()
    assert f"Fork: a tree head of {held.tree_size} entries received" in desk
    page = client.get(f"/national/federation/{national.origin.pk}/heads/")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-alarm="fork"' in text and held.root_hash in text and "07" * 32 in text


def test_a_bundle_whose_head_forks_a_witnessed_head_is_refused(national, relay):
    heads.send(by=policy.SYSTEM)
    bundle = bundles.build(national.tournament.pk, ReceivedHead.objects.order_by("-tree_size").first().tree_size)
    held = ReceivedHead.objects.get(origin=national.origin, tree_size=bundle["head"]["tree_size"])
    forged = signed(held.tree_size, b"\x09" * 32, held.timestamp)
    bundle["head"] = {name: forged[name] for name in ("tree_size", "root_hash", "timestamp", "key_id", "signature")}
    bundle["signature"] = signing.private_key().sign(bundles.signed_part(bundle)).hex()
    status, answer = deliver(national.origin, bundle)
    assert (status, answer["reason"]) == (422, "head_fork")
    assert HeadAlarm.objects.get().kind == "fork"


def test_a_smaller_head_signed_after_the_last_is_a_rollback_and_a_late_one_is_skipped(national):
    last = rows()[-1]
    assert post(national, [last]).status_code == 200
    smaller = rows()[-2]
    late = post(national, [smaller])  # signed before the last one: late, not proven, not stored
    assert (late.status_code, late.json()["late"], late.json()["tree_size"]) == (200, 1, last["tree_size"])
    assert not ReceivedHead.objects.filter(tree_size=smaller["tree_size"]).exists()
    # The trail restored from an older copy and signed again: a smaller head, signed later.
    restored = signed(smaller["tree_size"], bytes.fromhex(smaller["root_hash"]), last["timestamp"] + 1000)
    answer = post(national, [restored])
    assert (answer.status_code, answer.json()["reason"]) == (422, "head_rollback")
    assert answer.json()["error"] == (
        f"The tree head of {smaller['tree_size']} entries was signed after the head of {last['tree_size']} entries "
        "received from Spring Congress: its trail was rolled back."
    )
    alarm = HeadAlarm.objects.get()
    assert (alarm.kind, alarm.reason, alarm.held["tree_size"]) == ("rollback", "smaller", last["tree_size"])
    assert AuditEntry.objects.filter(action="federation.head_rollback").count() == 1


def test_a_larger_head_that_does_not_extend_the_last_is_a_rollback(national):
    first, *_ = rows()
    assert post(national, [first]).status_code == 200
    hashes = list(AuditEntry.objects.order_by("sequence").values_list("hash", flat=True))
    # Entries after the first head rewritten: a tree of the same size whose prefix is another.
    leaves = [merkle.leaf_hash(bytes.fromhex(value)) for value in hashes]
    leaves[0] = merkle.leaf_hash(b"\x01" * 32)
    size = len(leaves)
    proof = merkle.consistency_proof(first["tree_size"], size, merkle.leaves_range(leaves))
    rewritten = signed(size, merkle.root(leaves), first["timestamp"] + 5, first["tree_size"], [n.hex() for n in proof])
    answer = post(national, [rewritten])
    assert (answer.status_code, answer.json()["reason"]) == (422, "consistency")
    assert HeadAlarm.objects.get().reason == "inconsistent"
    assert not ReceivedHead.objects.filter(tree_size=size).exists()
    # A head that skips the last one held (it extends a smaller one) is no extension either.
    skipping = signed(size + 1, b"\x02" * 32, first["timestamp"] + 6, first["tree_size"] - 1)
    assert post(national, [skipping]).json()["reason"] == "consistency"


def test_heads_after_a_gap_are_asked_again_and_bad_fields_are_named(national):
    first, second, third, *_ = rows()
    assert post(national, [first]).status_code == 200
    gap = post(national, [third])
    assert (gap.status_code, gap.json()["reason"]) == (409, "heads_gap")
    assert post(national, [second, third]).json()["stored"] == 2
    assert not HeadAlarm.objects.exists()
    for broken, field in (
        ({**third, "root_hash": "zz"}, "root_hash"),
        ({**third, "tree_size": "3"}, "tree_size"),
        ({**third, "previous_size": third["tree_size"]}, "previous_size"),
        ({**third, "consistency": ["x"]}, "consistency"),
    ):
        answer = post(national, [broken])
        assert answer.status_code == 400
        assert answer.json()["params"]["field"] == field
        assert f"its {field} is missing or not valid" in answer.json()["error"]
    not_json = national.api.post(BASE + "heads/", "nope", content_type="application/json")
    assert (not_json.status_code, not_json.json()["params"]["field"]) == (400, "heads")
    unsigned = {**third, "tree_size": third["tree_size"] + 1, "previous_size": third["tree_size"]}
    assert post(national, [unsigned]).json()["reason"] == "head_signature"
    assert json.loads(national.api.get(BASE + "head/").content)["tree_size"] == third["tree_size"]


def test_a_trail_cut_with_its_heads_and_written_on_shows_at_the_national_body(national, relay):
    """A database writer deletes the last entries and the heads that signed them (and the heads
    file), then the instance writes on: its next head has a size the national body holds, with
    another root."""
    from django.db import connection

    from audit import sealing

    known = heads.send(by=policy.SYSTEM)
    keep = known - 3
    kept = AuditEntry.objects.get(sequence=keep)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM audit_auditentry WHERE sequence > %s", [keep])
        cursor.execute("DELETE FROM audit_signedtreehead WHERE tree_size > %s", [keep])
        cursor.execute("UPDATE audit_audithead SET last_sequence = %s, last_hash = %s", [keep, kept.hash])
    sealing.forget()
    assert SignedTreeHead.objects.order_by("-tree_size").first().tree_size == keep
    receive.issue_token(national.origin, by=policy.SYSTEM)  # one entry: a head of keep + 1, signed now
    assert heads.send(by=policy.SYSTEM) == known  # the national body holds what it held
    # It held every head, that size's too: the new one is a fork of it.
    alarm = HeadAlarm.objects.get()
    assert (alarm.kind, alarm.reason, alarm.tree_size, alarm.held["tree_size"]) == (
        "fork",
        "same_size",
        keep + 1,
        keep + 1,
    )
    target = PublishTarget.objects.get()
    assert target.heads_error_code == "head_fork"
    assert target.heads_error == (
        f"The tree head of {keep + 1} entries differs from the head of {keep + 1} entries received before from "
        "Spring Congress: its trail forked."
    )
