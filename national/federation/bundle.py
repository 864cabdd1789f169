"""A tournament's record as the national desk needs it, as one signed bundle (the organiser's
end, issue #32).

The bundle holds the tournament, its events, sessions, sections, rounds, tables, contestants and
their players, boards, results and effective scores, matches, every ruling (with its citations,
penalties and revisions) and every appeal with each of its steps (parts, concurrences, deposits,
bodies and members, hearings, recommendations, warnings, further appeals, the timeline); the
users they name (username and name only); the laws cited (edition and citation); the
regulation clauses cited (their authority, regulation, clause and text); the tournament's audit
entries, each with its RFC 9162 inclusion proof in the tree head signed for the bundle; the
consistency proof from the last head the national body holds; and the signature of the whole
with the audit trail's Ed25519 key. The rulings' attachments (hand diagrams, photos, PDFs) go
with them: each attachment's record, and its content (base64) with its size and SHA-256, which
the national body checks on receipt. Derived data (board scores, standings) is not sent.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

from django.apps import apps
from django.core import serializers

from audit import merkle, signing
from audit.models import AuditEntry, SignedTreeHead
from audit.services import ChainCheck, sign_tree_head

FORMAT = "bridgecases-federation-1"
BUNDLE_TAG = b"bridgecases federation bundle v1\x00"

_BOARD = "board__session__event__tournament"
_RULING = "ruling__" + _BOARD
_APPEAL = "appeal__" + _RULING

# Each model sent, in the order a receiver creates them, with its path to the tournament.
MODELS: dict[str, str] = {
    "scoring.tournament": "pk",
    "scoring.event": "tournament",
    "scoring.session": "event__tournament",
    "scoring.section": "session__event__tournament",
    "scoring.round": "session__event__tournament",
    "scoring.table": "section__session__event__tournament",
    "scoring.player": "",  # the players the other records name
    "scoring.contestant": "event__tournament",
    "scoring.board": "session__event__tournament",
    "scoring.result": _BOARD,
    "scoring.effectivescore": "result__" + _BOARD,
    "scoring.match": "round__session__event__tournament",
    "scoring.matchpenalty": "match__round__session__event__tournament",
    "rulings.ruling": _BOARD,
    "rulings.rulingcitation": _RULING,
    "rulings.penalty": _RULING,
    "rulings.rulingrevision": _RULING,
    "rulings.rulingattachment": _RULING,
    "appeals.deadlineextension": _RULING,
    "appeals.appeal": _RULING,
    "appeals.appealpart": _APPEAL,
    "appeals.concurrence": _APPEAL,
    "appeals.deposit": _APPEAL,
    "appeals.body": _APPEAL,
    "appeals.bodymember": "body__" + _APPEAL,
    "appeals.hearing": _APPEAL,
    "appeals.attendance": "hearing__" + _APPEAL,
    "appeals.recommendation": _APPEAL,
    "appeals.meritwarning": _APPEAL,
    "appeals.furtherappeal": _APPEAL,
    "appeals.appealevent": _APPEAL,
}


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical(value: Any) -> bytes:
    return _ENCODER.encode(value).encode()


def canonical_to(value: Any, write: Any) -> None:
    """``canonical(value)`` given to ``write`` in pieces, never held whole (a carried push's file
    is written this way, national/federation/carried.py)."""
    _canonical_into(value, write)


def signed_part(bundle: dict[str, Any]) -> bytes:
    """What the bundle's signature covers: the tag and the SHA-256 of the bundle without it."""
    body = {key: value for key, value in bundle.items() if key != "signature"}
    digest = hashlib.sha256()
    _canonical_into(body, digest.update, 3)
    return BUNDLE_TAG + digest.digest()


def _canonical_into(value: Any, update: Any, depth: int = 2) -> None:
    """``canonical(value)`` given to ``update`` in pieces (issue #41): the same bytes, never
    held whole. The bundle's dict and the dicts in it are written here, down to ``depth`` (an
    attachment's fields), each value below them serialised on its own, and their lists (records,
    entries) 200 items at a time. A value that writes itself (``canonical_into``: an attachment's
    content kept in a file as it was received, national/federation/stream.py) writes itself."""
    if callable(getattr(value, "canonical_into", None)):
        value.canonical_into(update)
    elif depth and isinstance(value, dict) and all(isinstance(key, str) for key in value):
        update(b"{")
        for number, (key, item) in enumerate(sorted(value.items())):
            update(b"," + canonical(key) + b":" if number else canonical(key) + b":")
            _canonical_into(item, update, depth - 1)
        update(b"}")
    elif depth and isinstance(value, list):
        update(b"[")
        for start in range(0, len(value), 200):  # 200 items serialised at a time
            update(b"," + canonical(value[start : start + 200])[1:-1] if start else canonical(value[:200])[1:-1])
        update(b"]")
    else:
        update(canonical(value))


def _serialised(label: str, **lookup: Any) -> list[dict[str, Any]]:
    queryset = apps.get_model(label).objects.filter(**lookup).order_by("pk")
    return json.loads(serializers.serialize("json", queryset))


def _records(tournament_id: int) -> list[dict[str, Any]]:
    """Every record sent, in ``MODELS``' order (the players the others name before them)."""
    by_model = {label: _serialised(label, **{path: tournament_id}) for label, path in MODELS.items() if path}
    named = _referenced([row for rows in by_model.values() for row in rows], "scoring.player")
    # A ruling's seating names players by id in JSON: they are sent too (issue #41).
    for row in by_model["rulings.ruling"]:
        seating = row["fields"].get("seating")
        if isinstance(seating, dict):
            named.update(pk for pk in seating.values() if isinstance(pk, int))
    by_model["scoring.player"] = _serialised("scoring.player", pk__in=named)
    return [row for label in MODELS for row in by_model[label]]


def _referenced(rows: list[dict[str, Any]], target: str) -> set[int]:
    """The pks of ``target`` the rows name (foreign keys and many-to-many)."""
    found: set[int] = set()
    for row in rows:
        model = apps.get_model(row["model"])
        for field in model._meta.get_fields():
            if not getattr(field, "concrete", False) or not field.is_relation:
                continue
            if field.related_model._meta.label_lower != target:
                continue
            value = row["fields"].get(field.name)
            if isinstance(value, list):
                found.update(value)
            elif value is not None:
                found.add(value)
    return found


def _users(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from django.contrib.auth import get_user_model

    model = get_user_model()
    pks = _referenced(rows, model._meta.label_lower)
    return [
        {"pk": user.pk, "username": user.get_username(), "first_name": user.first_name, "last_name": user.last_name}
        for user in model.objects.filter(pk__in=pks).order_by("pk")
    ]


def _laws(rows: list[dict[str, Any]]) -> dict[str, list[str]]:
    pks = _referenced(rows, "rulings.lawentry")
    model = apps.get_model("rulings.lawentry")
    return {
        str(pk): [edition, number]
        for pk, edition, number in model.objects.filter(pk__in=pks).values_list("pk", "edition", "number")
    }


def _regulations(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The regulation clauses the rows cite, by their natural key: the regulating authority (its
    pk, as the tournament's record names it, and its code) and the regulation and clause, with
    the clause's text."""
    pks = _referenced(rows, "rulings.regulationclause")
    model = apps.get_model("rulings.regulationclause")
    return {
        str(clause.pk): {
            "authority": clause.authority_id,
            "authority_code": clause.authority.code,
            "document": clause.document,
            "clause": clause.clause,
            "text": clause.text,
        }
        for clause in model.objects.filter(pk__in=pks).select_related("authority").order_by("pk")
    }


def _attachments(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each attachment's content, its size and SHA-256 (the receiver checks both)."""
    model = apps.get_model("rulings.rulingattachment")
    pks = [row["pk"] for row in rows if row["model"] == "rulings.rulingattachment"]
    sent: dict[str, dict[str, Any]] = {}
    for attachment in model.objects.filter(pk__in=pks).order_by("pk"):
        try:
            with attachment.file.open("rb") as handle:
                content = handle.read()
        except OSError:
            raise BundleRefused(
                "attachment_missing", name=attachment.name, ruling=attachment.ruling_id, file=attachment.file.name
            ) from None
        sent[str(attachment.pk)] = {
            "name": attachment.name,
            "size": len(content),
            "sha256": hashlib.sha256(content).hexdigest(),
            "content": base64.b64encode(content).decode("ascii"),
        }
    return sent


def entry_dict(entry: AuditEntry) -> dict[str, Any]:
    """An entry as sent: what its hash covers, and the hash before it."""
    content = json.loads(entry.content())
    content["previous_hash"] = entry.previous_hash
    content["hash"] = entry.hash
    return content


class BundleRefused(Exception):
    """No bundle can be built: ``code`` and ``params`` say why (national/federation/messages.py)."""

    def __init__(self, code: str, **params: Any):
        from national.federation import messages

        self.code, self.params = code, params
        super().__init__(messages.render(code, params))


def build(tournament_id: int, known_size: int = 0) -> dict[str, Any]:
    """The signed bundle of a tournament, its entries proven in a head signed now, with the
    consistency proof from ``known_size`` (the size of the last head the national body holds
    from this instance; 0 if none)."""
    head = sign_tree_head()
    if isinstance(head, ChainCheck):
        raise BundleRefused("trail_broken", sequence=head.broken.sequence if head.broken else head.checked + 1)
    hashes = list(
        AuditEntry.objects.filter(sequence__lte=head.tree_size).order_by("sequence").values_list("hash", flat=True)
    )
    tree = merkle.leaves_range([merkle.leaf_hash(bytes.fromhex(value)) for value in hashes])
    entries = []
    for entry in AuditEntry.objects.filter(tournament_id=tournament_id, sequence__lte=head.tree_size).order_by(
        "sequence"
    ):
        sent = entry_dict(entry)
        sent["proof"] = [node.hex() for node in merkle.inclusion_proof(entry.sequence - 1, head.tree_size, tree)]
        entries.append(sent)
    if known_size and known_size > head.tree_size:
        raise BundleRefused("head_ahead", known=known_size, size=head.tree_size)
    consistency = (
        [node.hex() for node in merkle.consistency_proof(known_size, head.tree_size, tree)]
        if 0 < known_size < head.tree_size
        else []
    )
    rows = _records(tournament_id)
    bundle: dict[str, Any] = {
        "format": FORMAT,
        "tournament": tournament_id,
        "head": _head(head),
        "consistency": {"from": known_size, "proof": consistency},
        "entries": entries,
        "records": rows,
        "users": _users(rows),
        "laws": _laws(rows),
        "regulations": _regulations(rows),
        "attachments": _attachments(rows),
    }
    bundle["signature"] = signing.private_key().sign(signed_part(bundle)).hex()
    return bundle


def _head(head: SignedTreeHead) -> dict[str, Any]:
    return {
        "tree_size": head.tree_size,
        "root_hash": head.root_hash,
        "timestamp": head.timestamp,
        "key_id": head.key_id,
        "signature": head.signature,
    }


def public_key_pem() -> str:
    """The PEM of this instance's audit public key: what the national body registers."""
    from cryptography.hazmat.primitives import serialization

    key = signing.private_key().public_key()
    return key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
