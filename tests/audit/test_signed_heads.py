"""The audit trail as a Merkle tree with signed tree heads (RFC 9162; issue #30), one signed by
every write (issue #41): a database writer who rewrites an entry and recomputes every hash after
it is found, and the entry named; nothing is signed over a trail not proved consistent with the
last signed head; heads go to a file outside the database, one line each; any entry has an
inclusion proof."""

import hashlib
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from audit import merkle, signing
from audit import services as audit
from audit.models import AuditEntry, SignedTreeHead
from tests.audit.forgery import rewrite

pytestmark = pytest.mark.django_db


def write(count):
    """``count`` entries in one write: one signed head over them."""
    audit.record_many(
        {"action": "test.note", "object_type": "test.note", "object_id": number, "summary": f"note {number}"}
        for number in range(count)
    )
    return SignedTreeHead.objects.order_by("-tree_size").first()


def sign(django_capture_on_commit_callbacks, count):
    """One write of ``count`` entries, committed (its head appended to the heads file)."""
    with django_capture_on_commit_callbacks(execute=True):
        return write(count)


def exported_lines():
    from django.conf import settings

    with open(settings.AUDIT_HEADS_FILE) as handle:
        return [json.loads(line) for line in handle]


# RFC 9162's hashing: the empty tree, a leaf (0x00) and a node (0x01).
def test_the_tree_hashes_as_rfc_9162_says():
    assert merkle.root([]).hex() == hashlib.sha256(b"").hexdigest()
    assert merkle.leaf_hash(b"").hex() == "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"
    a, b, c = (merkle.leaf_hash(bytes([n])) for n in range(3))
    assert merkle.root([a, b, c]) == hashlib.sha256(b"\x01" + hashlib.sha256(b"\x01" + a + b).digest() + c).digest()


def test_every_inclusion_and_consistency_proof_verifies_and_a_wrong_one_does_not():
    for size in range(1, 34):
        leaves = [merkle.leaf_hash(str(n).encode()) for n in range(size)]
        root = merkle.root(leaves)
        for index in range(size):
            path = merkle.inclusion_proof(index, size, merkle.leaves_range(leaves))
            assert merkle.verify_inclusion(index, size, leaves[index], path, root)
            assert not merkle.verify_inclusion(index, size, merkle.leaf_hash(b"forged"), path, root)
        for first in range(1, size + 1):
            proof = merkle.consistency_proof(first, size, merkle.leaves_range(leaves))
            old = merkle.frontier_from(leaves[:first])
            # The proof made from the old head's frontier and the new leaves alone is the same.
            assert merkle.consistency_proof(first, size, old.extended(leaves[first:])) == proof
            assert merkle.verify_consistency(first, size, merkle.root(leaves[:first]), root, proof)
            if first < size:
                assert not merkle.verify_consistency(first, size, merkle.leaf_hash(b"forged"), root, proof)


def test_a_trail_rewritten_in_sql_with_recomputed_hashes_is_found_and_the_entry_named(
    capsys, django_capture_on_commit_callbacks
):
    """The issue's attack: before the signed heads, this passed verify_audit and re-sealed the
    checkpoint over the forged chain."""
    head = sign(django_capture_on_commit_callbacks, 6)
    sign(django_capture_on_commit_callbacks, 4)
    rewrite(3)
    # The chain itself is intact: each entry's hash matches its content and the one before.
    previous = "0" * 64
    for entry in AuditEntry.objects.order_by("sequence"):
        assert entry.previous_hash == previous and entry.compute_hash() == entry.hash
        previous = entry.hash
    checked, broken, reason = audit.verify_chain()
    assert (checked, broken.sequence) == (2, 3)
    assert reason == (
        f"its hash is not the one signed in the tree head of 6 entries signed at "
        f"{head.signed_at:%Y-%m-%d %H:%M:%S} UTC: it was rewritten after it was signed"
    )
    with pytest.raises(CommandError, match=r"broken at entry 3 .*it was rewritten after it was signed\. 2 entries"):
        call_command("verify_audit")
    # Nothing signed over the forged trail, by the verification or for a push.
    assert isinstance(audit.sign_tree_head(), audit.ChainCheck)
    assert list(SignedTreeHead.objects.values_list("tree_size", flat=True)) == [6, 10]
    # And the desk shows the break until a full verification passes.
    assert audit.verify_chain(since_checkpoint=True).broken.sequence == 3


def test_a_rewrite_after_the_last_head_but_one_is_named_from_the_head_that_signed_it(
    django_capture_on_commit_callbacks,
):
    sign(django_capture_on_commit_callbacks, 3)
    sign(django_capture_on_commit_callbacks, 5)
    rewrite(6)
    checked, broken, reason = audit.verify_chain()
    assert (checked, broken.sequence) == (5, 6) and "the tree head of 8 entries" in reason
    # The desk sees it too (from the first entry, the trail never having been found whole).
    assert audit.verify_chain(since_checkpoint=True).broken.sequence == 6


def test_with_the_heads_leaves_rewritten_too_the_file_still_names_the_entry(
    django_capture_on_commit_callbacks, settings
):
    sign(django_capture_on_commit_callbacks, 5)
    rewrite(2)
    forged = list(AuditEntry.objects.order_by("sequence").values_list("hash", flat=True))
    with connection.cursor() as cursor:
        cursor.execute("UPDATE audit_signedtreehead SET leaves = %s", [json.dumps(forged)])
    checked, broken, reason = audit.verify_chain()
    assert (checked, broken.sequence) == (1, 2) and reason.startswith("its hash is not the one signed")
    # Without the file either, the range the signed head no longer holds is named.
    settings.AUDIT_HEADS_FILE = settings.AUDIT_HEADS_FILE + ".lost"
    checked, broken, reason = audit.verify_chain()
    assert (checked, broken.sequence) == (0, 1)
    assert reason.startswith("the entries from this one to entry 5 no longer make the tree head of 5 entries")


def test_entries_removed_from_the_end_are_found(django_capture_on_commit_callbacks):
    sign(django_capture_on_commit_callbacks, 5)
    last = AuditEntry.objects.get(sequence=3)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM audit_auditentry WHERE sequence > 3")
        cursor.execute("UPDATE audit_audithead SET last_sequence = 3, last_hash = %s", [last.hash])
    checked, broken, reason = audit.verify_chain()
    assert broken is None and checked == 3
    assert (
        reason.startswith("the trail ends at entry 3 but the tree head of 5 entries")
        and "entries were removed" in reason
    )


def test_a_head_removed_from_the_database_is_found_in_the_heads_file(django_capture_on_commit_callbacks):
    sign(django_capture_on_commit_callbacks, 3)
    sign(django_capture_on_commit_callbacks, 2)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM audit_signedtreehead WHERE tree_size = 5")
    for check in (audit.verify_chain(), audit.verify_chain(since_checkpoint=True)):
        assert not check.intact
        assert "the tree head of 5 entries" in check.reason
        assert check.reason.endswith("is in the heads file but not in the database: signed heads were removed")


def test_a_head_the_application_did_not_sign_is_refused(django_capture_on_commit_callbacks):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    sign(django_capture_on_commit_callbacks, 4)
    rewrite(2)
    # The forger signs a head for the rewritten trail with a key of their own.
    leaves = [merkle.leaf_hash(bytes.fromhex(h)) for h in AuditEntry.objects.values_list("hash", flat=True)]
    frontier = merkle.frontier_from(leaves)
    own = Ed25519PrivateKey.generate()
    head = {"tree_size": 4, "timestamp": 1, "root_hash": frontier.root().hex()}
    head["key_id"] = signing.key_id(own.public_key())
    head["signature"] = own.sign(signing.tree_head_message(4, 1, frontier.root())).hex()
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE audit_signedtreehead SET root_hash = %s, key_id = %s, signature = %s, timestamp = 1",
            [head["root_hash"], head["key_id"], head["signature"]],
        )
    check = audit.verify_chain()
    assert check.reason == (
        "the tree head of 4 entries signed at 1970-01-01 00:00:00 UTC in the database is not signed by a trusted "
        "key: the application did not write it"
    )


def test_heads_go_to_the_file_one_line_each_and_verify_with_the_public_key_alone(django_capture_on_commit_callbacks):
    """What the national body's instance will receive: each line checks against the public key,
    and each head's consistency proof against the head before it, without the database."""
    sign(django_capture_on_commit_callbacks, 3)
    sign(django_capture_on_commit_callbacks, 4)
    sign(django_capture_on_commit_callbacks, 1)
    with django_capture_on_commit_callbacks(execute=True):
        audit.sign_tree_head()  # nothing new: no new head
    lines = exported_lines()
    assert [line["tree_size"] for line in lines] == [3, 7, 8]
    assert [line["previous_size"] for line in lines] == [0, 3, 7]
    assert [len(line["leaves"]) for line in lines] == [3, 4, 1]
    keys = {
        signing.key_id(key): key
        for key in (
            __import__("cryptography.hazmat.primitives.serialization", fromlist=["x"]).load_pem_public_key(
                p.read_bytes()
            )
            for p in signing.public_keys_dir().glob("*.pub")
        )
    }
    for before, line in zip([None, *lines], lines):
        assert signing.signature_valid(line, keys)
        if before is not None:
            assert merkle.verify_consistency(
                before["tree_size"],
                line["tree_size"],
                bytes.fromhex(before["root_hash"]),
                bytes.fromhex(line["root_hash"]),
                [bytes.fromhex(node) for node in line["consistency"]],
            )
    assert lines[-1]["root_hash"] == SignedTreeHead.objects.get(tree_size=8).root_hash


def test_after_a_key_rotation_old_heads_still_verify(django_capture_on_commit_callbacks, settings, tmp_path, capsys):
    settings.AUDIT_SIGNING_KEY_FILE = str(tmp_path / "key.pem")
    settings.AUDIT_PUBLIC_KEYS_DIR = str(tmp_path / "public")
    call_command("audit_signing_key", "--generate")
    first = signing.key_id(signing.private_key().public_key())
    with pytest.raises(CommandError, match="already at"):
        call_command("audit_signing_key", "--generate")
    old = sign(django_capture_on_commit_callbacks, 3)
    call_command("audit_signing_key", "--rotate")
    out = capsys.readouterr().out
    second = signing.key_id(signing.private_key().public_key())
    assert second != first and f"Key {first} retired" in out
    new = sign(django_capture_on_commit_callbacks, 2)
    assert (old.key_id, new.key_id) == (first, second)
    check = audit.verify_chain()
    assert check.intact and check.checked == 5
    # The retired public key is what keeps the old head verifiable.
    (tmp_path / "public" / f"{first}.pub").unlink()
    assert "not signed by a trusted key" in audit.verify_chain().reason


def test_any_entry_has_an_inclusion_proof_in_the_last_head(django_capture_on_commit_callbacks):
    sign(django_capture_on_commit_callbacks, 11)
    head = sign(django_capture_on_commit_callbacks, 1)
    entries = list(AuditEntry.objects.order_by("sequence"))
    proofs = audit.inclusion_proofs(entries)
    assert sorted(proofs) == list(range(1, 13))  # the last entry too: its write signed its head
    for entry in entries:
        proof = proofs[entry.sequence]
        assert proof.verified and proof.head == head and len(proof.proof) in (2, 3, 4)
    # An entry rewritten (and rehashed) behind the application's back has no proof that holds.
    rewrite(4)
    proofs = audit.inclusion_proofs(AuditEntry.objects.filter(sequence__in=[2, 4]))
    assert (proofs[2].verified, proofs[4].verified) == (False, False)


def test_beat_verifies_the_trail_and_signs_nothing(django_capture_on_commit_callbacks, settings):
    from audit import tasks

    assert settings.CELERY_BEAT_SCHEDULE["verify-audit-trail"]["task"] == "audit.tasks.verify_trail"
    assert "sign-audit-tree-head" not in settings.CELERY_BEAT_SCHEDULE  # every write signs its own
    sign(django_capture_on_commit_callbacks, 2)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.verify_trail() == 2
    assert [line["tree_size"] for line in exported_lines()] == [2]


def test_the_proof_of_any_entry_is_given_as_json_and_checks_without_the_database(
    django_capture_on_commit_callbacks, capsys
):
    sign(django_capture_on_commit_callbacks, 6)
    call_command("audit_proof", "4")
    given = json.loads(capsys.readouterr().out)
    (line,) = exported_lines()
    assert (given["tree_size"], given["root_hash"], given["signature"]) == (6, line["root_hash"], line["signature"])
    assert signing.signature_valid(line)
    assert merkle.verify_inclusion(
        3,
        6,
        merkle.leaf_hash(bytes.fromhex(given["entry_hash"])),
        [bytes.fromhex(node) for node in given["inclusion_proof"]],
        bytes.fromhex(line["root_hash"]),
    )
    rewrite(2)
    with pytest.raises(CommandError, match="Entry 4's inclusion proof does not verify"):
        call_command("audit_proof", "4")


def test_a_signing_key_others_can_read_fails_the_deployment_check(settings, tmp_path):
    from audit.checks import signing_key_kept_private

    settings.AUDIT_SIGNING_KEY_FILE = str(tmp_path / "key.pem")
    settings.AUDIT_PUBLIC_KEYS_DIR = str(tmp_path / "public")
    assert [error.id for error in signing_key_kept_private(None)] == ["audit.E001"]  # no key yet (issue #41)
    signing.generate()
    assert (tmp_path / "key.pem").stat().st_mode & 0o777 == 0o600
    assert signing_key_kept_private(None) == []
    (tmp_path / "key.pem").chmod(0o644)
    (warning,) = signing_key_kept_private(None)
    assert warning.id == "audit.W001" and "mode 644" in warning.msg
