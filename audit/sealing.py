"""A signed tree head for every write, in the writer's transaction (issue #41): the entries a
write adds are never in an unsigned window, as a Certificate Transparency log's entries are
covered by the checkpoint it signs before it answers.

The writer holds the chain's head row (``AuditHead``, locked by ``record_many``), so heads are
made one after another: each extends the last signed head's frontier by the entries this write
made (their hashes computed here, never read back from the database), its RFC 9162 consistency
proof from that head included. Nothing is signed over an entry this process did not write: an
entry after the last signed head that no head covers (written behind the application's back)
stops every write until an operator looks (``verify_audit`` names it)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from audit import merkle, signing
from audit.merkle import Frontier
from audit.models import SignedTreeHead

if TYPE_CHECKING:
    from audit.models import AuditEntry

HEAD_FIELDS = ("tree_size", "root_hash", "timestamp", "key_id", "signature", "previous_size", "frontier")


class TrailNotSigned(Exception):
    """The trail holds entries no signed head covers: a write would sign over them unchecked."""


@dataclass
class _Known:
    """The last head this process signed or verified: its frontier is trusted while the
    database's last head is still exactly it (same size, root and signature)."""

    tree_size: int
    root_hash: str
    signature: str
    frontier: Frontier


_known = threading.local()


def _last_signed() -> Frontier:
    """The frontier of the last signed head (empty before the first), checked against its
    signature and root unless it is the head this process last signed."""
    row = SignedTreeHead.objects.order_by("-tree_size").values(*HEAD_FIELDS).first()
    if row is None:
        return Frontier()
    known: _Known | None = getattr(_known, "head", None)
    if (
        known is not None
        and known.tree_size == row["tree_size"]
        and known.root_hash == row["root_hash"]
        and known.signature == row["signature"]
    ):
        return known.frontier.copy()
    if not signing.signature_valid(row):
        raise TrailNotSigned(
            f"The last tree head ({row['tree_size']} entries) is not signed by a trusted key: run `manage.py "
            "verify_audit` (docs/operations.md, Audit)."
        )
    try:
        frontier = Frontier([bytes.fromhex(node) for node in row["frontier"]], row["tree_size"])
    except (TypeError, ValueError):
        frontier = None
    if frontier is None or frontier.root().hex() != row["root_hash"]:
        raise TrailNotSigned(
            f"The frontier stored with the tree head of {row['tree_size']} entries does not make its root: run "
            "`manage.py verify_audit` (docs/operations.md, Audit)."
        )
    return frontier


def seal(size_before: int, entries: list[AuditEntry]) -> SignedTreeHead:
    """Sign a head over the trail's first ``size_before`` entries (the last signed head's) and
    ``entries``, just made by this write; stored in the writer's transaction, appended to the
    heads file once it commits. The caller holds the chain's head row."""
    frontier = _last_signed()
    if frontier.size > size_before:
        raise TrailNotSigned(
            f"The audit trail's head is at entry {size_before} but the last signed tree head holds {frontier.size} "
            "entries: nothing is written until `manage.py verify_audit` has been run (docs/operations.md, Audit)."
        )
    if frontier.size != size_before:
        raise TrailNotSigned(
            f"Entries {frontier.size + 1} to {size_before} of the audit trail are in no signed tree head: nothing is "
            "written until `manage.py verify_audit` has checked them (docs/operations.md, Audit)."
        )
    return sign_extension(frontier, [entry.hash for entry in entries])


def sign_extension(frontier: Frontier, hashes: list[str]) -> SignedTreeHead:
    """Sign the tree of ``frontier`` (a signed head's, verified) extended by the entries whose
    chain hashes are ``hashes``, with its consistency proof from that head."""
    size, old_root = frontier.size, frontier.root()
    leaves = [merkle.leaf_hash(bytes.fromhex(value)) for value in hashes]
    tree_size = size + len(leaves)
    proof = merkle.consistency_proof(size, tree_size, frontier.extended(leaves)) if size else []
    for leaf in leaves:
        frontier.append(leaf)
    new_root = frontier.root()
    if size and not merkle.verify_consistency(size, tree_size, old_root, new_root, proof):
        raise TrailNotSigned("the new tree is not consistent with the last signed head")
    timestamp = int(timezone.now().timestamp() * 1000)
    key, signature = signing.sign(tree_size, timestamp, new_root)
    head = SignedTreeHead(
        tree_size=tree_size,
        root_hash=new_root.hex(),
        timestamp=timestamp,
        key_id=key,
        signature=signature,
        previous_size=size,
        consistency=[node.hex() for node in proof],
        frontier=[node.hex() for node in frontier.nodes],
        leaves=list(hashes),
    )
    # bulk_create sends no save signal: a head is the trail's own bookkeeping, not a change.
    SignedTreeHead.objects.bulk_create([head])
    _known.head = _Known(tree_size, head.root_hash, signature, frontier.copy())
    exported: dict[str, Any] = head.as_dict()
    transaction.on_commit(lambda: signing.export(exported))
    return head


def forget() -> None:
    """Trust no remembered head (tests that rewrite heads behind the application's back)."""
    _known.head = None
