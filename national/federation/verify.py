"""Verifying a bundle on receipt (the national body's end, issue #32).

In this order, the first failure refusing the bundle whole: its form; the tree head signed with
the key registered for the origin; the head consistent with the last head received from that
origin (RFC 9162 consistency proof); then each audit entry in turn: of the bundle's tournament,
its hash recomputed from its content, its inclusion proof leading to the signed head, and the
same as the entry of that number received before; then each attachment: its content present,
within the national body's size limit, and matching its SHA-256; then the bundle's own
signature, which covers every record it carries; last each record against its entries (a field
an entry of the record states holds the last value stated: a record changed without an entry,
or whose entries were left out, is refused, issue #41). The refusal names the first entry (or
attachment) that fails and why.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from audit import merkle, signing
from national.federation import messages, stream
from national.federation.bundle import FORMAT, signed_part

# What an entry's hash covers (audit.models.AuditEntry.content), in that form.
ENTRY_FIELDS = (
    "sequence",
    "at",
    "actor",
    "actor_name",
    "action",
    "object_type",
    "object_id",
    "tournament",
    "summary",
    "before",
    "after",
    "channel",
    "path",
)


@dataclass(frozen=True)
class Refusal:
    """Why a bundle is refused: a code of ``messages`` and its parameters (the organiser's end
    keeps these and shows them in its reader's language), the entry named if one is."""

    reason: str
    params: dict[str, Any] = field(default_factory=dict)
    sequence: int | None = None  # the entry named, if one is
    # "stale": the bundle was built against an older head than the last received (another push of
    # the same instance was stored in between): the sender builds it again.
    code: str = ""

    @property
    def message(self) -> str:
        return messages.render(self.reason, self.params)

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Registered:
    """What the desk knows of an origin: its name, its key, and the last head it verified."""

    name: str
    public_key: str  # PEM
    key_id: str
    last_head: dict[str, Any] | None = None
    # The root of the head of that size received before (by a bundle or witnessed, heads.py).
    held: Callable[[int], str | None] = lambda size: None


def entry_hash(entry: dict[str, Any]) -> str:
    content = json.dumps(
        {name: entry[name] for name in ENTRY_FIELDS},
        sort_keys=True,
        cls=DjangoJSONEncoder,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256((entry["previous_hash"] + content).encode()).hexdigest()


def _key(pem: str) -> Any:
    from cryptography.hazmat.primitives import serialization

    return serialization.load_pem_public_key(pem.encode())


def signature_holds(pem: str, signature: str, message: bytes) -> bool:
    from cryptography.exceptions import InvalidSignature

    try:
        _key(pem).verify(bytes.fromhex(signature), message)
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True


def _form(bundle: Any) -> Refusal | None:
    refusal = Refusal("form", {"format": FORMAT})
    if not isinstance(bundle, dict) or bundle.get("format") != FORMAT:
        return refusal
    try:
        head = bundle["head"]
        int(head["tree_size"]), int(head["timestamp"]), bytes.fromhex(head["root_hash"])
        str(head["key_id"]), str(head["signature"]), str(bundle["signature"])
        int(bundle["consistency"]["from"]), list(bundle["consistency"]["proof"])
        int(bundle["tournament"])
        for entry in bundle["entries"]:
            if not isinstance(entry, dict) or any(name not in entry for name in ENTRY_FIELDS):
                return refusal
            int(entry["sequence"]), str(entry["hash"]), str(entry["previous_hash"]), list(entry["proof"])
        for record in bundle["records"]:
            str(record["model"]), int(record["pk"]), dict(record["fields"])
        list(bundle["users"]), dict(bundle["laws"]), dict(bundle.get("regulations", {}))
        for sent in dict(bundle.get("attachments", {})).values():
            str(sent["content"]), str(sent["sha256"]), int(sent["size"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return refusal
    return None


def _head(bundle: dict[str, Any], origin: Registered) -> Refusal | None:
    head = bundle["head"]
    if head["key_id"] != origin.key_id:
        return Refusal("head_key", {"key": head["key_id"], "origin": origin.name, "registered": origin.key_id})
    message = signing.tree_head_message(
        int(head["tree_size"]), int(head["timestamp"]), bytes.fromhex(head["root_hash"])
    )
    if not signature_holds(origin.public_key, head["signature"], message):
        return Refusal("head_signature", {"origin": origin.name})
    return None


def _consistency(bundle: dict[str, Any], origin: Registered) -> Refusal | None:
    last = origin.last_head
    if last is None:
        return None
    head, size, last_size = bundle["head"], int(bundle["head"]["tree_size"]), int(last["tree_size"])
    values = {"size": size, "origin": origin.name, "last": last_size, "from": bundle["consistency"]["from"]}
    held = origin.held(size)
    if held is not None:  # a head witnessed already (issue #41): the same, or the trail forked
        return None if held == head["root_hash"] else Refusal("head_fork", {"size": size, "origin": origin.name})
    if size < last_size:
        return Refusal("head_older", values, code="stale")
    if size > last_size and int(bundle["consistency"]["from"]) != last_size:
        return Refusal("consistency_from", values, code="stale")
    try:
        proof = [bytes.fromhex(node) for node in bundle["consistency"]["proof"]]
        holds = merkle.verify_consistency(
            last_size, size, bytes.fromhex(last["root_hash"]), bytes.fromhex(head["root_hash"]), proof
        )
    except ValueError:
        holds = False
    if not holds:
        return Refusal("consistency", values)
    return None


def _entry(entry: dict[str, Any], bundle: dict[str, Any], received: Callable[[int], str | None]) -> Refusal | None:
    head = bundle["head"]
    sequence, size = int(entry["sequence"]), int(head["tree_size"])
    values = {"sequence": sequence, "action": entry["action"], "size": size}
    if entry["tournament"] != bundle["tournament"]:
        return Refusal("entry_tournament", values, sequence)
    if entry_hash(entry) != entry["hash"]:
        return Refusal("entry_hash", values, sequence)
    try:
        leaf = merkle.leaf_hash(bytes.fromhex(entry["hash"]))
        path = [bytes.fromhex(node) for node in entry["proof"]]
        included = merkle.verify_inclusion(sequence - 1, size, leaf, path, bytes.fromhex(head["root_hash"]))
    except ValueError:
        included = False
    if not included:
        return Refusal("entry_inclusion", values, sequence)
    before = received(sequence)
    if before is not None and before != entry["hash"]:
        return Refusal("entry_differs", values, sequence)
    return None


# Fields another record's step moves without an entry of their own (an appeal moves its
# ruling's state through the ruling's transitions): not checked against the record's entries.
MOVED_BY_OTHERS = frozenset({"state"})


def _records_as_audited(bundle: dict[str, Any]) -> Refusal | None:
    """Every record's fields as its entries say (issue #41): a field an entry of the record
    states in its ``after`` must hold the value of the last entry that states it. A record
    changed without an entry (by SQL at the origin), or one whose entries were left out of the
    bundle, is refused naming the record, the field and the entry it contradicts."""
    audited: dict[tuple[str, str], dict[str, tuple[int, Any]]] = {}
    for entry in sorted(bundle["entries"], key=lambda entry: int(entry["sequence"])):
        if isinstance(entry["after"], dict) and entry["object_type"]:
            said = audited.setdefault((str(entry["object_type"]), str(entry["object_id"])), {})
            for name, value in entry["after"].items():
                said[name] = (int(entry["sequence"]), value)
    for row in bundle["records"]:
        said = audited.get((row["model"], str(row["pk"])), {})
        for name, value in row["fields"].items():
            if name in said and said[name][1] != value and name not in MOVED_BY_OTHERS:
                sequence = said[name][0]
                values = {"model": row["model"], "pk": row["pk"], "field": name, "sequence": sequence}
                return Refusal("record_unaudited", values, sequence)
    return None


def omitted(bundle: dict[str, Any], received: list[int]) -> Refusal | None:
    """The entries of this tournament received before that the bundle leaves out: every entry
    under the organiser's head arrives again with each bundle, so an omission shows (issue #41)."""
    sent = {int(entry["sequence"]) for entry in bundle["entries"]}
    missing = sorted(set(received) - sent)
    if missing:
        return Refusal("entries_omitted", {"sequences": ", ".join(f"#{number}" for number in missing)}, missing[0])
    return None


def attachment_content(bundle: dict[str, Any], pk: int) -> bytes | stream.Spooled | None:
    """An attachment's content as sent: its bytes, or the file they were decoded to as the
    bundle was read (``stream.Spooled``); None if the bundle holds none, or not in base64."""
    sent = bundle.get("attachments", {}).get(str(pk))
    if sent is None:
        return None
    if isinstance(sent["content"], stream.Spooled):
        return sent["content"]
    try:
        return base64.b64decode(sent["content"], validate=True)
    except (binascii.Error, ValueError, TypeError):
        return None


def _attachment(row: dict[str, Any], bundle: dict[str, Any], limit: int | None) -> Refusal | None:
    sent = bundle.get("attachments", {}).get(str(row["pk"]))
    values = {"name": row["fields"].get("name", row["pk"]), "ruling": row["fields"].get("ruling")}
    content = attachment_content(bundle, row["pk"])
    if sent is None or content is None:
        return Refusal("attachment_content", values)
    if isinstance(content, stream.Spooled):
        size, sha256 = content.size, content.sha256
    else:
        size, sha256 = len(content), hashlib.sha256(content).hexdigest()
    if limit is not None and size > limit:
        return Refusal("attachment_size", {**values, "size_bytes": size, "limit_bytes": limit})
    if size != int(sent["size"]) or sha256 != sent["sha256"]:
        return Refusal("attachment_hash", values)
    return None


def verify(
    bundle: Any,
    origin: Registered,
    received: Callable[[int], str | None] = lambda sequence: None,
    attachment_limit: int | None = None,
) -> Refusal | None:
    """The first reason to refuse ``bundle`` from ``origin``, or None if it holds. ``received``
    gives the hash of the origin's entry of that number received before, if any;
    ``attachment_limit`` the most bytes an attachment may hold."""
    refusal = _form(bundle) or _head(bundle, origin) or _consistency(bundle, origin)
    if refusal is not None:
        return refusal
    for entry in bundle["entries"]:
        refusal = _entry(entry, bundle, received)
        if refusal is not None:
            return refusal
    for row in bundle["records"]:
        if row["model"] == "rulings.rulingattachment":
            refusal = _attachment(row, bundle, attachment_limit)
            if refusal is not None:
                return refusal
    if not signature_holds(origin.public_key, bundle["signature"], signed_part(bundle)):
        return Refusal("signature", {"origin": origin.name})
    # Signed by the organiser, and still refused if its records are not what its entries say.
    return _records_as_audited(bundle)
