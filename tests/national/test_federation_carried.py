"""A push carried on a file (issue #41, national/federation/carried.py): the organiser's chief
director downloads it from the outbox, the national body's auditor uploads it on the desk's page,
and the API's receiving services run on it: stored, or refused with the reason named on the field,
nothing half-written."""

import hashlib
import io
import json
import zipfile

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from audit.models import AuditEntry
from config import upload_limits
from core import policy
from national.federation import bundle as bundles
from national.federation import carried, push, receive
from national.federation.carried_views import CarriedForm
from national.federation.models import ReceivedHead, ReceivedTournament, Upload
from scoring import services
from tests.appeals.conftest import case  # noqa: F401 - fixtures
from tests.conftest import build_pairs_tournament, make_user
from tests.national.federation_helpers import register_self
from tests.national.test_casebooks import decided  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db


@pytest.fixture
def carry(decided, client):  # noqa: F811
    """The chief director's carried push of the decided case's tournament, downloaded from the
    outbox, and this instance registered as the organiser's at the national body."""
    decided.origin = register_self(decided.record.authority)
    client.force_login(decided.chief)
    outbox = client.get(reverse("national:federation-outbox")).content.decode()
    assert f"Download {decided.record.tournament.name} to carry" in outbox
    answer = client.post(reverse("national:federation-carry", args=[decided.record.tournament.pk]))
    assert answer.status_code == 200 and answer["Content-Type"] == "application/zip"
    assert answer["Content-Disposition"].startswith('attachment; filename="push-')
    decided.file = b"".join(answer.streaming_content)
    return decided


def upload(client, user, origin, content, name="push.zip"):
    client.force_login(user)
    return client.post(
        reverse("national:federation-receive"),
        {"origin": origin.pk, "carried": SimpleUploadedFile(name, content, content_type="application/zip")},
    )


def members(content):
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def zipped(files):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


def errors(response):
    return {name: list(found) for name, found in response.context["form"].errors.items()}


def nothing_received(origin):
    return (
        ReceivedTournament.objects.filter(origin=origin).count(),
        Upload.objects.filter(origin=origin).count(),
    ) == (0, 0)


def test_the_file_holds_the_bundle_a_push_would_send_and_the_heads_since_the_last_received(carry):
    found = members(carry.file)
    assert sorted(found) == ["bundle.json", "heads.json", "manifest.json"]
    bundle = json.loads(found["bundle.json"])
    heads = json.loads(found["heads.json"])["heads"]
    manifest = json.loads(found["manifest.json"])
    assert bundle["format"] == bundles.FORMAT and bundle["tournament"] == carry.record.tournament.pk
    assert manifest["format"] == carried.FORMAT and manifest["heads_from"] == 0
    assert heads[0]["tree_size"] >= 1 and heads[-1]["tree_size"] == bundle["head"]["tree_size"]
    assert [head["root_hash"] for head in heads][-1] == bundle["head"]["root_hash"]


def test_a_carried_push_is_stored_and_lands_on_the_received_desk(carry, client):
    bundle = json.loads(members(carry.file)["bundle.json"])
    heads = json.loads(members(carry.file)["heads.json"])["heads"]
    answer = upload(client, carry.auditor, carry.origin, carry.file)
    assert answer.status_code == 302 and answer["Location"] == reverse("national:federation")
    desk = client.get(answer["Location"]).content.decode()
    received = ReceivedTournament.objects.get(origin=carry.origin)
    size = bundle["head"]["tree_size"]
    assert (
        f"Received from Spring Congress: {len(bundle['records'])} records new, 0 changed, 0 unchanged; tree head of "
        f"{size} entries verified."
    ) in desk
    assert received.head.tree_size == size and received.tournament.name in desk
    assert ReceivedHead.objects.filter(origin=carry.origin).count() == len(heads)
    # The same file again changes nothing (the API's answer replayed).
    again = upload(client, carry.auditor, carry.origin, carry.file)
    assert again.status_code == 302 and ReceivedTournament.objects.filter(origin=carry.origin).count() == 1


def test_a_bundle_tampered_with_on_the_stick_is_refused_naming_the_file(carry, client):
    found = members(carry.file)
    bundle = json.loads(found["bundle.json"])
    ruling = next(row for row in bundle["records"] if row["model"] == "rulings.ruling")
    ruling["fields"]["facts"] = "Nothing happened."
    data = bundles.canonical(bundle)
    manifest = {**json.loads(found["manifest.json"]), "digest": hashlib.sha256(data).hexdigest()}
    tampered = zipped({**found, "bundle.json": data, "manifest.json": bundles.canonical(manifest)})
    answer = upload(client, carry.auditor, carry.origin, tampered)
    assert answer.status_code == 200
    assert errors(answer) == {
        "carried": [
            "The bundle's signature does not verify with the key registered for Spring Congress: it was changed "
            "on the way."
        ]
    }
    assert nothing_received(carry.origin)
    # Its bytes changed but not its digest: the parts do not add up to it.
    cut = zipped({**found, "bundle.json": data})
    assert errors(upload(client, carry.auditor, carry.origin, cut)) == {
        "carried": ["The bundle's parts do not add up to its digest."]
    }
    assert nothing_received(carry.origin)


def test_a_file_that_is_no_carried_push_or_cut_short_is_refused_and_nothing_is_written(carry, client):
    entries, heads = AuditEntry.objects.count(), ReceivedHead.objects.count()
    short = "The file is not a carried push, or it was cut short: download it again from the outbox."
    for content in (b"hello", carry.file[: len(carry.file) // 2]):
        assert errors(upload(client, carry.auditor, carry.origin, content)) == {"carried": [short]}
    found = members(carry.file)
    assert errors(upload(client, carry.auditor, carry.origin, zipped({"bundle.json": found["bundle.json"]}))) == {
        "carried": ["The file holds no manifest.json: it is not a carried push."]
    }
    other = zipped({**found, "manifest.json": b'{"format": "something else"}'})
    assert errors(upload(client, carry.auditor, carry.origin, other)) == {
        "carried": [f"The file is not a carried push of this version ({carried.FORMAT})."]
    }
    assert (AuditEntry.objects.count(), ReceivedHead.objects.count()) == (entries, heads)
    assert nothing_received(carry.origin)


def _other_key():
    key = Ed25519PrivateKey.generate().public_key()
    return key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def test_a_file_from_another_organisers_instance_is_refused_naming_the_organiser(carry, client):
    other = receive.register_origin(
        name="Autumn Pairs", slug="autumn", authority=carry.record.authority, public_key=_other_key(), by=policy.SYSTEM
    )
    answer = upload(client, carry.auditor, other, carry.file)
    key = json.loads(members(carry.file)["manifest.json"])["key_id"]
    assert errors(answer) == {
        "origin": [f"The tree head is signed with key {key}, not the key registered for Autumn Pairs ({other.key_id})."]
    }
    assert nothing_received(other) and not ReceivedHead.objects.filter(origin=other).exists()


def test_only_an_auditor_of_the_organisers_body_receives_it(carry, client):
    # Who is not the national body's reader meets the desk's refusal.
    client.force_login(carry.director)
    assert client.get(reverse("national:federation-receive")).status_code == 403
    # An auditor of another body is not offered this organiser, and the service refuses them.
    elsewhere = build_pairs_tournament(code="far", name="Far Open")
    stranger = make_user("stranger")
    services.appoint_auditor(authority=elsewhere.authority, user=stranger, by=policy.SYSTEM)
    answer = upload(client, stranger, carry.origin, carry.file)
    assert errors(answer) == {"origin": ["Select a valid choice. That choice is not one of the available choices."]}
    with pytest.raises(PermissionDenied) as refused:
        carried.receive(carry.origin, carried.read(carry.file), by=stranger)
    assert str(refused.value) == (
        "Only the national body's auditors of the organiser's regulating authority receive its tournaments."
    )
    assert nothing_received(carry.origin) and not ReceivedHead.objects.filter(origin=carry.origin).exists()
    # A director who is not its chief director may not carry the tournament away.
    client.force_login(carry.director)
    assert client.post(reverse("national:federation-carry", args=[carry.record.tournament.pk])).status_code == 403
    with pytest.raises(PermissionDenied) as refused:
        carried.build(carry.record.tournament, by=carry.director)
    assert str(refused.value) == "Only a tournament's chief director may publish it."


def test_the_carried_file_field_has_its_upload_limit():
    assert set(CarriedForm.base_fields) == {"origin", "carried"}
    assert "carried" in upload_limits.limits() and "carried" in upload_limits.LABELS


def test_a_carried_head_that_forks_the_trail_received_is_refused_and_kept_as_an_alarm(carry, client):
    from audit import signing

    assert upload(client, carry.auditor, carry.origin, carry.file).status_code == 302
    found = members(carry.file)
    head = json.loads(found["heads.json"])["heads"][-1]
    root = "ab" * 32
    message = signing.tree_head_message(head["tree_size"], head["timestamp"] + 1, bytes.fromhex(root))
    forged = {**head, "root_hash": root, "timestamp": head["timestamp"] + 1}
    forged["signature"] = signing.private_key().sign(message).hex()
    answer = upload(
        client, carry.auditor, carry.origin, zipped({**found, "heads.json": bundles.canonical({"heads": [forged]})})
    )
    size = head["tree_size"]
    assert errors(answer) == {
        "carried": [
            f"The tree head of {size} entries differs from the head of {size} entries received before from "
            "Spring Congress: its trail forked."
        ]
    }
    assert "It is kept as an alarm on the desk, beside the organiser's instance." in answer.content.decode()
    desk = client.get(reverse("national:federation")).content.decode()
    assert 'data-alarm="fork"' in desk


def test_downloading_a_carried_push_is_an_audit_entry_shown_on_the_outbox(carry, client):
    found = members(carry.file)
    bundle = json.loads(found["bundle.json"])
    digest = hashlib.sha256(found["bundle.json"]).hexdigest()
    size = bundle["head"]["tree_size"]
    entry = AuditEntry.objects.get(action="federation.carried")
    assert (entry.actor, entry.tournament_id, entry.object_type, entry.object_id) == (
        carry.chief,
        carry.record.tournament.pk,
        "scoring.tournament",
        str(carry.record.tournament.pk),
    )
    assert entry.after["digest"] == digest == json.loads(found["manifest.json"])["digest"]
    assert (entry.after["tree_size"], entry.after["file_bytes"]) == (size, len(carry.file))
    assert entry.after["file"].startswith("push-") and entry.sequence > size  # after the head it carries
    client.force_login(carry.chief)
    outbox = client.get(reverse("national:federation-outbox")).content.decode()
    who = carry.chief.get_full_name() or carry.chief.username
    assert (
        f"{carry.record.tournament.name}: tree head of {size} entries, bundle SHA-256 {digest}, downloaded by {who} at "
    ) in outbox
    # The entry is the tournament's: the next push carries it to the national body too.
    assert any(row["tournament"] == carry.record.tournament for row in push.waiting())
