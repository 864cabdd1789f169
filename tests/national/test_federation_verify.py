"""The verifier of a received bundle (issue #32), on bundles made here with a key of their own:
no database. Each refusal is checked word for word, and names the first entry that fails."""

import copy
import json

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from audit import merkle, signing
from national.federation import verify
from national.federation.bundle import FORMAT, signed_part

TOURNAMENT = 7
KEY = Ed25519PrivateKey.generate()
PEM = (
    KEY.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
)
KEY_ID = signing.key_id(KEY.public_key())


def chain(size):
    """``size`` entries, chained; the odd ones of the tournament, the even ones of another."""
    entries, previous = [], "0" * 64
    for sequence in range(1, size + 1):
        entry = {
            "sequence": sequence,
            "at": f"2026-05-01T20:{sequence:02d}:00+00:00",
            "actor": 3,
            "actor_name": "dana",
            "action": "ruling.given" if sequence % 2 else "result.recorded",
            "object_type": "rulings.ruling",
            "object_id": str(sequence),
            "tournament": TOURNAMENT if sequence % 2 else 8,
            "summary": f"Step {sequence}",
            "before": None,
            "after": {"state": "given", "n": sequence},
            "channel": "web",
            "path": "/rulings/",
            "previous_hash": previous,
        }
        entry["hash"] = previous = verify.entry_hash(entry)
        entries.append(entry)
    return entries


def head_of(entries, key=KEY, timestamp=1_777_000_000_000):
    leaves = [merkle.leaf_hash(bytes.fromhex(e["hash"])) for e in entries]
    root = merkle.root(leaves)
    return {
        "tree_size": len(entries),
        "root_hash": root.hex(),
        "timestamp": timestamp,
        "key_id": signing.key_id(key.public_key()),
        "signature": key.sign(signing.tree_head_message(len(entries), timestamp, root)).hex(),
    }


def make_bundle(size=8, known=0, key=KEY):
    entries = chain(size)
    tree = merkle.leaves_range([merkle.leaf_hash(bytes.fromhex(e["hash"])) for e in entries])
    sent = []
    for entry in entries:
        if entry["tournament"] == TOURNAMENT:
            proof = merkle.inclusion_proof(entry["sequence"] - 1, size, tree)
            sent.append({**entry, "proof": [node.hex() for node in proof]})
    bundle = {
        "format": FORMAT,
        "tournament": TOURNAMENT,
        "head": head_of(entries, key),
        "consistency": {
            "from": known,
            "proof": [n.hex() for n in merkle.consistency_proof(known, size, tree)] if 0 < known < size else [],
        },
        "entries": sent,
        "records": [{"model": "rulings.ruling", "pk": 1, "fields": {"facts": "North paused."}}],
        "users": [],
        "laws": {},
    }
    return sign(bundle, key)


def sign(bundle, key=KEY):
    bundle["signature"] = key.sign(signed_part(bundle)).hex()
    return bundle


def origin(last_head=None):
    return verify.Registered("Spring Congress", PEM, KEY_ID, last_head)


def refusal(bundle, registered=None, received=lambda sequence: None):
    found = verify.verify(bundle, registered or origin(), received)
    return None if found is None else (found.message, found.sequence)


def test_a_sound_bundle_passes():
    assert refusal(make_bundle()) is None


def test_a_sound_bundle_passes_after_an_earlier_head():
    earlier = head_of(chain(5))
    assert refusal(make_bundle(8, known=5), origin(earlier)) is None


def test_a_bundle_of_another_form():
    bundle = make_bundle()
    del bundle["head"]["root_hash"]
    assert refusal(bundle) == ("The bundle is not of the form this desk reads (bridgecases-federation-1).", None)
    assert refusal([]) == ("The bundle is not of the form this desk reads (bridgecases-federation-1).", None)


def test_a_head_signed_with_another_key():
    other = Ed25519PrivateKey.generate()
    bundle = make_bundle(key=other)
    assert refusal(bundle) == (
        f"The tree head is signed with key {signing.key_id(other.public_key())}, not the key registered for "
        f"Spring Congress ({KEY_ID}).",
        None,
    )


def test_a_head_whose_signature_fails():
    bundle = make_bundle()
    bundle["head"]["timestamp"] += 1
    assert refusal(sign(bundle)) == (
        "The tree head's signature does not verify with the key registered for Spring Congress.",
        None,
    )


def test_a_head_older_than_the_last_received():
    assert refusal(make_bundle(6), origin(head_of(chain(8)))) == (
        "The tree head (6 entries) is older than the last head received from Spring Congress (8 entries).",
        None,
    )


def test_a_consistency_proof_from_another_head():
    assert refusal(make_bundle(8, known=4), origin(head_of(chain(5)))) == (
        "The consistency proof starts from a head of 4 entries; the last head received from Spring Congress has 5.",
        None,
    )


def test_a_trail_rewritten_since_the_last_head():
    rewritten = chain(5)
    rewritten[2]["summary"] = "Another step"
    rewritten[2]["hash"] = verify.entry_hash(rewritten[2])
    assert refusal(make_bundle(8, known=5), origin(head_of(rewritten))) == (
        "The tree head of 8 entries is not consistent with the last head received from Spring Congress (5 entries): "
        "the origin's trail was rewritten.",
        None,
    )


def test_an_entry_of_another_tournament():
    bundle = make_bundle()
    bundle["entries"][1]["tournament"] = 8
    assert refusal(sign(bundle)) == ("Entry #3 (ruling.given): it is not an entry of this tournament.", 3)


def test_an_entry_changed_on_the_way_is_named():
    bundle = make_bundle()
    bundle["entries"][2]["after"]["state"] = "withdrawn"
    assert refusal(bundle) == ("Entry #5 (ruling.given): its content does not match its hash.", 5)


def test_the_first_failing_entry_is_named():
    bundle = make_bundle()
    bundle["entries"][3]["summary"] = "x"
    bundle["entries"][1]["summary"] = "y"
    assert refusal(bundle) == ("Entry #3 (ruling.given): its content does not match its hash.", 3)


def test_an_entry_not_in_the_signed_head():
    bundle = make_bundle()
    bundle["entries"][0]["proof"][0] = "00" * 32
    assert refusal(sign(bundle)) == (
        "Entry #1 (ruling.given): it is not in the signed tree head of 8 entries.",
        1,
    )


def test_an_entry_rewritten_since_it_was_received():
    bundle = make_bundle()
    assert refusal(bundle, received={3: "ab" * 32}.get) == (
        "Entry #3 (ruling.given): it differs from the entry #3 received before.",
        3,
    )
    assert refusal(bundle, received={3: bundle["entries"][1]["hash"]}.get) is None


def test_a_record_changed_on_the_way_fails_the_signature():
    bundle = make_bundle()
    bundle["records"][0]["fields"]["facts"] = "Nothing happened."
    assert refusal(bundle) == (
        "The bundle's signature does not verify with the key registered for Spring Congress: it was changed on the way.",
        None,
    )


def test_the_hash_is_the_trails_own():
    """An entry's hash is computed as audit.models.AuditEntry computes it."""
    from audit.models import AuditEntry

    entry = chain(1)[0]
    import datetime

    row = AuditEntry(
        sequence=1,
        at=datetime.datetime.fromisoformat(entry["at"]),
        actor_id=3,
        actor_name="dana",
        action=entry["action"],
        object_type=entry["object_type"],
        object_id=entry["object_id"],
        tournament_id=TOURNAMENT,
        summary=entry["summary"],
        before=None,
        after=entry["after"],
        channel="web",
        path="/rulings/",
        previous_hash="0" * 64,
    )
    assert row.compute_hash() == entry["hash"]
    assert json.loads(row.content())["tournament"] == TOURNAMENT


@pytest.mark.parametrize("language", ["he", "el", "uk", "is", "nl"])
def test_refusals_are_in_the_readers_language(language):
    from django.utils import translation

    bundle = make_bundle()
    bundle["entries"][2]["summary"] = "x"
    with translation.override(language):
        message, sequence = refusal(copy.deepcopy(bundle))
    assert sequence == 5 and "#5" in message and "content does not match" not in message


def test_a_bundle_built_against_an_older_head_is_marked_stale_for_the_sender_to_build_again():
    assert verify.verify(make_bundle(6), origin(head_of(chain(8)))).code == "stale"
    assert verify.verify(make_bundle(8, known=4), origin(head_of(chain(5)))).code == "stale"
    rewritten = make_bundle()
    rewritten["entries"][0]["summary"] = "x"
    assert verify.verify(rewritten, origin()).code == ""
