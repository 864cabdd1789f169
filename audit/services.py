"""Writing and checking the audit trail."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from django.db import connection, transaction
from django.utils import timezone

from audit import merkle, sealing, signing
from audit.context import current
from audit.merkle import Frontier
from audit.models import GENESIS, AuditCheckpoint, AuditEntry, AuditHead, SignedTreeHead
from core.texts import Coded, split

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from django.db.models import Field, Model


def _actor(explicit: User | AnonymousUser | None) -> User | None:
    if explicit is not None:
        return cast("User", explicit) if getattr(explicit, "is_authenticated", False) else None
    user = current().get("user")
    if hasattr(user, "resolve"):
        user = user.resolve()
    return user if getattr(user, "is_authenticated", False) else None


@transaction.atomic
def record(
    *,
    action: str,
    obj: Model | None = None,
    object_type: str | None = None,
    object_id: int | str | None = None,
    before: Any = None,
    after: Any = None,
    actor: User | None = None,
    summary: str | Coded = "",
    tournament: Model | int | None = None,
) -> AuditEntry:
    """Append one entry to the chain, in the caller's transaction: if the change rolls back, so
    does its entry. ``summary`` is a text of an app's registry (core/texts.py: stored in English,
    shown in the reader's language) or plain words."""
    return record_many(
        [
            {
                "action": action,
                "obj": obj,
                "object_type": object_type,
                "object_id": object_id,
                "before": before,
                "after": after,
                "actor": actor,
                "summary": summary,
                "tournament": tournament,
            }
        ]
    )[0]


@transaction.atomic
def record_many(entries: Iterable[dict[str, Any]]) -> list[AuditEntry]:
    """Append several entries to the chain, in order, in the caller's transaction: each a dict of
    :func:`record`'s arguments. One lock on the head and one insert for them all; the entries
    and their hashes are exactly those as many calls of :func:`record` would write (issue #33:
    a club's upload of 240 results)."""
    entries = list(entries)
    if not entries:
        return []
    head, _created = AuditHead.objects.select_for_update().get_or_create(pk=1)
    context = current()
    made, sequence, previous = [], head.last_sequence, head.last_hash
    for fields in entries:
        sequence += 1
        entry = _entry(sequence, previous, context, **fields)
        made.append(entry)
        previous = entry.hash
    size_before = head.last_sequence
    AuditEntry.objects.bulk_create(made)
    head.last_sequence, head.last_hash = sequence, previous
    head.save(update_fields=["last_sequence", "last_hash"])
    # Signed in the same transaction (issue #41): the entries are never in an unsigned window.
    sealing.seal(size_before, made)
    return made


def _entry(
    sequence: int,
    previous_hash: str,
    context: dict[str, Any],
    *,
    action: str,
    obj: Model | None = None,
    object_type: str | None = None,
    object_id: int | str | None = None,
    before: Any = None,
    after: Any = None,
    actor: User | None = None,
    summary: str | Coded = "",
    tournament: Model | int | None = None,
) -> AuditEntry:
    """Entry ``sequence`` of the chain, after the entry whose hash is ``previous_hash``, hashed."""
    summary, summary_code, summary_params = split(summary)
    user = _actor(actor)
    entry = AuditEntry(
        sequence=sequence,
        at=timezone.now(),
        actor=user,
        actor_name=(user.get_username() if user else ""),
        action=action,
        object_type=object_type or (obj._meta.label_lower if obj is not None else ""),
        object_id=str(object_id if object_id is not None else getattr(obj, "pk", "")),
        tournament_id=getattr(tournament, "pk", tournament),
        summary=summary[:300],
        summary_code=summary_code,
        summary_params=_normal(summary_params),
        before=before,
        after=after,
        channel=context.get("channel", "other"),
        path=context.get("path", ""),
        previous_hash=previous_hash,
    )
    # Round-trip the JSON now, so the hash covers exactly what the database will return.
    entry.before, entry.after = _normal(before), _normal(after)
    entry.hash = entry.compute_hash()
    return entry


def _normal(value: Any) -> Any:
    import json

    from django.core.serializers.json import DjangoJSONEncoder

    return None if value is None else json.loads(json.dumps(value, cls=DjangoJSONEncoder))


@dataclass(frozen=True)
class ChainCheck:
    """What a verification found: ``checked`` entries intact (from entry 1 up to the last one
    checked), the first broken entry (or None) and the reason; ``since`` is the signed head's size
    it started after (0: the whole trail). ``head`` is the last signed tree head the trail was
    verified against, ``signed`` the head a verification signed after it (or None). Unpacks as
    (checked, broken, reason)."""

    checked: int
    broken: AuditEntry | None
    reason: str
    since: int = 0
    head: SignedTreeHead | None = None
    signed: SignedTreeHead | None = None

    @property
    def intact(self) -> bool:
        return self.broken is None and not self.reason

    def _triple(self) -> tuple[int, AuditEntry | None, str]:
        return (self.checked, self.broken, self.reason)

    def __iter__(self) -> Iterator[int | AuditEntry | str | None]:
        return iter(self._triple())

    def __getitem__(self, index: int) -> int | AuditEntry | str | None:
        return self._triple()[index]


REWRITTEN = "its content does not match its hash: it was changed after it was written"


def _walk(start: int, previous: str, last: int, last_hash: str, batch: int) -> ChainCheck | list[str]:
    """Check entries ``start + 1`` to ``last``: the first points at ``previous``, the last has
    the head's ``last_hash``; their hashes, or the first break."""
    expected, checked, hashes = start + 1, start, []
    entries = AuditEntry.objects.filter(sequence__gt=start, sequence__lte=last).order_by("sequence")
    for entry in entries.iterator(chunk_size=batch):
        broken = _link(entry, expected, previous)
        if broken:
            return ChainCheck(checked, entry, broken, start)
        previous, expected, checked = entry.hash, expected + 1, entry.sequence
        hashes.append(entry.hash)
    return _end(checked, last, previous, last_hash, start) or hashes


def _link(entry: AuditEntry, expected: int, previous: str) -> str:
    if entry.sequence != expected:
        return f"entry {expected} is missing (the next is {entry.sequence})"
    if entry.previous_hash != previous:
        return "it does not point at the previous entry's hash"
    if entry.compute_hash() != entry.hash:
        return REWRITTEN
    return ""


def _end(checked: int, last: int, previous: str, last_hash: str, start: int) -> ChainCheck | None:
    if checked != last:
        return ChainCheck(checked, None, f"the trail ends at entry {checked} but {last} were written", start)
    if previous != last_hash:
        return ChainCheck(checked, None, f"the chain's head does not hold entry {last}'s hash", start)
    return None


def _head() -> tuple[int, str]:
    """The head as it stands now: entries written after this are left to the next check."""
    head = AuditHead.objects.filter(pk=1).first()
    return (head.last_sequence, head.last_hash) if head else (0, GENESIS)


def _when(head: dict[str, Any]) -> str:
    import datetime

    return f"{datetime.datetime.fromtimestamp(head['timestamp'] / 1000, tz=datetime.UTC):%Y-%m-%d %H:%M:%S} UTC"


def _named(head: dict[str, Any]) -> str:
    return f"the tree head of {head['tree_size']} entries signed at {_when(head)}"


HEAD_FIELDS = ("tree_size", "root_hash", "timestamp", "key_id", "signature", "previous_size", "frontier")


def _signed_heads(*, all_heads: bool) -> list[dict[str, Any]] | str:
    """The signed tree heads, database and heads file together, by size (their leaves left out),
    or why they cannot be trusted: a head signed by no trusted key, a head in the file missing
    from the database, two different heads of one size. ``all_heads=False``: only the last one of
    each (the desk's check)."""
    # The file first: a head is appended to it only once committed, so every head read from it
    # is in the database read after (read the other way, a head signed in between would seem
    # removed from the database).
    if all_heads:
        lines = [("the heads file", n, _without_leaves(head)) for n, head in signing.exported()]
        witness = signing.witness_file()
        if witness is not None:  # the copy elsewhere (issue #41): a heads file deleted too still shows
            lines += [("the witness file", n, _without_leaves(head)) for n, head in signing.exported(witness)]
    else:
        last = signing.last_exported()
        lines = [("the heads file", 0, last)] if last is not None else []
    rows = SignedTreeHead.objects.order_by("-tree_size").values(*HEAD_FIELDS)
    in_database = list(rows if all_heads else rows[:1])
    if not in_database and not lines:
        return []  # nothing signed yet
    try:
        keys = signing.public_keys()
    except signing.SigningKeyMissing as missing:
        return f"the signed tree heads cannot be checked: {missing}"
    heads: dict[int, dict[str, Any]] = {}
    for head in in_database:
        if not signing.signature_valid(head, keys):
            return f"{_named(head)} in the database is not signed by a trusted key: the application did not write it"
        heads[head["tree_size"]] = head
    latest = max(heads, default=0)
    for name, number, exported in lines:
        where = f"line {number} of {name}" if number else f"the last line of {name}"
        if exported is None or not signing.signature_valid(exported, keys):
            return f"{where} is not a tree head signed by a trusted key"
        known = heads.get(exported["tree_size"])
        if known is None:
            if exported["tree_size"] > latest or all_heads:
                return f"{_named(exported)} is in {name} but not in the database: signed heads were removed"
            continue
        if known["root_hash"] != exported["root_hash"]:
            return f"two different tree heads of {exported['tree_size']} entries are signed ({where} and the database)"
    return [heads[size] for size in sorted(heads)]


def _without_leaves(head: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if head is None else {key: value for key, value in head.items() if key != "leaves"}


def _leaves_of(head: dict[str, Any]) -> list[list[str]]:
    """The entry hashes a head added: from the database's row, or the heads file's line."""
    row = SignedTreeHead.objects.filter(tree_size=head["tree_size"]).values_list("leaves", flat=True).first()
    candidates = [row] if row is not None else []
    for _number, line in signing.exported():
        if line is not None and line.get("tree_size") == head["tree_size"]:
            candidates.append(line.get("leaves"))
    return [c for c in candidates if isinstance(c, list)]


def _rewritten(head: dict[str, Any], before: Frontier, hashes: list[str], start: int) -> ChainCheck:
    """The trail's tree differs from ``head``'s (signed): name the first entry whose hash is not
    the one signed. ``before`` is the (verified) tree up to the head before, ``hashes`` the trail's
    entry hashes since then."""
    for leaves in _leaves_of(head):
        extended = before.copy()
        try:
            for value in leaves:
                extended.append(merkle.leaf_hash(bytes.fromhex(value)))
        except (TypeError, ValueError):
            continue
        if extended.size != head["tree_size"] or extended.root().hex() != head["root_hash"]:
            continue  # not the leaves that were signed
        for offset, (signed, found) in enumerate(zip(leaves, hashes)):
            if signed != found:
                sequence = before.size + offset + 1
                entry = AuditEntry.objects.filter(sequence=sequence).first()
                return ChainCheck(
                    sequence - 1,
                    entry,
                    f"its hash is not the one signed in {_named(head)}: it was rewritten after it was signed",
                    start,
                )
    first = AuditEntry.objects.filter(sequence=before.size + 1).first()
    return ChainCheck(
        before.size,
        first,
        f"the entries from this one to entry {head['tree_size']} no longer make {_named(head)}: one of them was "
        "rewritten after it was signed",
        start,
    )


UNSIGNED = (
    "it is in no signed tree head: every write signs a head over its entries, so it was written behind the "
    "application's back"
)


def _unsigned(size: int, start: int = 0) -> ChainCheck:
    """Entries after the last signed head (of ``size`` entries): the first is named."""
    return ChainCheck(size, AuditEntry.objects.filter(sequence=size + 1).first(), UNSIGNED, start)


def _verify_all(batch: int, *, unsigned_ok: bool = False) -> ChainCheck:
    """Every entry from the first: each chained to the one before, the tree of the first n
    entries equal to every signed head of n entries, and every entry in a signed head (but with
    ``unsigned_ok``: a trail from before every write was signed)."""
    heads = _signed_heads(all_heads=True)
    if isinstance(heads, str):
        return ChainCheck(0, None, heads)
    last, last_hash = _head()  # after the heads: each of its entries' heads committed with it
    frontier, verified, hashes = Frontier(), Frontier(), []
    pending = list(heads)
    previous, expected, checked = GENESIS, 1, 0
    for entry in AuditEntry.objects.order_by("sequence").iterator(chunk_size=batch):
        broken = _link(entry, expected, previous)
        if broken:
            return ChainCheck(checked, entry, broken, 0)
        frontier.append(merkle.leaf_hash(bytes.fromhex(entry.hash)))
        hashes.append(entry.hash)
        if pending and pending[0]["tree_size"] == entry.sequence:
            head = pending.pop(0)
            if frontier.root().hex() != head["root_hash"]:
                return _rewritten(head, verified, hashes, 0)
            verified, hashes = frontier.copy(), []
        previous, expected, checked = entry.hash, expected + 1, entry.sequence
    if pending:
        return ChainCheck(
            checked,
            None,
            f"the trail ends at entry {checked} but {_named(pending[0])} holds more: entries were removed",
        )
    ended = _end(checked, last, previous, last_hash, 0)
    if ended is not None:
        return ended
    signed = heads[-1]["tree_size"] if heads else 0
    if checked > signed and not unsigned_ok:
        return _unsigned(signed)
    return ChainCheck(checked, None, "", 0, _head_row(heads[-1]) if heads else None)


def _head_row(head: dict[str, Any]) -> SignedTreeHead | None:
    return SignedTreeHead.objects.filter(tree_size=head["tree_size"]).defer("leaves", "consistency").first()


def _since_last_head(batch: int, *, unsigned_ok: bool = False) -> tuple[ChainCheck, dict[str, Any] | None, list[str]]:
    """The desk's check: the last signed head (database and heads file agreeing), its last entry
    still the one signed, and no entry after it (but with ``unsigned_ok``: those written before
    every write was signed, each chained to it). (The check, the head, the hashes of the entries
    since.)"""
    heads = _signed_heads(all_heads=False)
    if isinstance(heads, str):
        return ChainCheck(0, None, heads), None, []
    last, last_hash = _head()  # after the heads: each of its entries' heads committed with it
    if not heads:
        if last and not unsigned_ok:
            return _unsigned(0), None, []
        walked = _walk(0, GENESIS, last, last_hash, batch)
        return (walked, None, []) if isinstance(walked, ChainCheck) else (ChainCheck(last, None, ""), None, walked)
    head = heads[-1]
    size = head["tree_size"]
    signed = _last_leaf(head)
    entry = AuditEntry.objects.filter(sequence=size).first()
    if entry is None:
        return ChainCheck(0, None, f"entry {size}, the last one of {_named(head)}, is missing", 0), head, []
    if signed is None or entry.hash != signed or entry.compute_hash() != entry.hash:
        return (
            ChainCheck(
                0,
                entry,
                f"it is not the entry signed in {_named(head)}: it has changed since; run the full verification "
                "to see the rest",
                0,
            ),
            head,
            [],
        )
    if last < size:
        return ChainCheck(size, None, f"the trail's head is at entry {last} but {_named(head)} holds more", 0), head, []
    beyond = AuditEntry.objects.filter(sequence__gt=max(last, size)).order_by("sequence").first()
    if (last > size and not unsigned_ok) or beyond is not None:
        return _unsigned(size, size), head, []
    walked = _walk(size, signed, last, last_hash, batch)
    if isinstance(walked, ChainCheck):
        return walked, head, []
    return ChainCheck(last, None, "", size), head, walked


def _last_leaf(head: dict[str, Any]) -> str | None:
    """The hash of the head's last entry, as signed: its leaves checked against its root from
    the head before it (whose frontier its own signed root vouches for)."""
    row = SignedTreeHead.objects.filter(tree_size=head["tree_size"]).values("leaves", "previous_size").first()
    if row is None or not row["leaves"]:
        return None
    before = Frontier()
    if row["previous_size"]:
        previous = SignedTreeHead.objects.filter(tree_size=row["previous_size"]).values(*HEAD_FIELDS).first()
        if previous is None or not signing.signature_valid(previous):
            return None
        try:
            before = Frontier([bytes.fromhex(n) for n in previous["frontier"]], previous["tree_size"])
        except (TypeError, ValueError):
            return None
        if before.root().hex() != previous["root_hash"]:
            return None
    try:
        for value in row["leaves"]:
            before.append(merkle.leaf_hash(bytes.fromhex(value)))
    except (TypeError, ValueError):
        return None
    if before.size != head["tree_size"] or before.root().hex() != head["root_hash"]:
        return None
    return row["leaves"][-1]


def verify_chain(batch: int = 2000, *, since_checkpoint: bool = False, sign_unsigned: bool = False) -> ChainCheck:
    """Check the trail; a ``ChainCheck`` (unpacks as checked, broken entry or None, reason). It
    signs nothing (every write signs its own head, issue #41), but with ``sign_unsigned``.

    The whole trail from entry 1 by default (``manage.py verify_audit``, the national body's
    button): every entry chained to the one before, the Merkle tree of the first n entries equal
    to every signed tree head of n entries (database and heads file), and no entry after the last
    signed head, so a trail rewritten, reordered, cut or added to with recomputed hashes is found
    and its first wrong entry named. ``sign_unsigned`` (``verify_audit --sign-unsigned``, once,
    for a trail written before every write was signed) lets entries after the last head pass the
    check and then signs a head over them: the operator vouches for them, no signature does.

    ``since_checkpoint`` (the auditor's desk) starts from the last signed head: its last entry
    still the one signed, and no entry after it. It only reads; tampering before that head is for
    the full verification to find."""
    try:
        signing.private_key()
    except signing.SigningKeyMissing as missing:
        # No write can be signed, so none is made (issue #41): that is an alarm, never "intact".
        # The public keys still verify every head: a forgery made with the key removed is named.
        with _snapshot():
            found = _verify_all(batch, unsigned_ok=False)
        alarm = f"the trail cannot be kept: {missing}"
        if found.intact:
            return ChainCheck(found.checked, None, alarm, head=found.head)
        return ChainCheck(found.checked, found.broken, f"{found.reason}; and {alarm}", head=found.head)
    with _snapshot():
        if since_checkpoint and AuditCheckpoint.objects.filter(pk=1, full_verified_at__isnull=False).exists():
            check, head, _hashes = _since_last_head(batch)
            return ChainCheck(check.checked, check.broken, check.reason, check.since, _head_row(head) if head else None)
        # Never verified whole, or the last full verification found a break: the desk checks
        # everything until a full verification passes.
        check = _verify_all(batch, unsigned_ok=sign_unsigned)
    if since_checkpoint:
        return check
    if not check.intact:
        AuditCheckpoint.objects.filter(pk=1).update(full_verified_at=None)
        return check
    _mark_verified(check.checked)
    if not sign_unsigned or not check.checked:
        return check
    result = sign_tree_head(batch, unsigned_too=True)
    if isinstance(result, ChainCheck):
        return result
    new = result if check.head is None or result.tree_size > check.head.tree_size else None
    return ChainCheck(check.checked, None, "", 0, check.head, new)


@contextmanager
def _snapshot() -> Iterator[None]:
    """One snapshot of the database for a whole check (PostgreSQL's REPEATABLE READ), so the
    heads, the chain's head and the entries are read as of one moment while writers go on; the
    heads file is read first (a head is appended to it once committed). Inside a caller's
    transaction, that transaction's view."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def _mark_verified(checked: int) -> None:
    # update() and bulk_create send no save signal: this is bookkeeping of the check, not a
    # change to the record (nor is a signed head, below).
    now = timezone.now()
    fields = {"sequence": checked, "verified_at": now, "full_verified_at": now}
    if not AuditCheckpoint.objects.filter(pk=1).update(**fields):
        AuditCheckpoint.objects.bulk_create([AuditCheckpoint(pk=1, **fields)], ignore_conflicts=True)


def sign_tree_head(batch: int = 2000, *, unsigned_too: bool = False) -> SignedTreeHead | ChainCheck:
    """The last signed tree head, the trail since it checked (its last entry still the one
    signed, nothing after it): what a push to the national body proves its entries in. A check
    that fails is returned. With ``unsigned_too`` (only after a full verification, for a trail
    from before every write was signed), entries after the last head chained to it are appended
    to its frontier and signed, its consistency proof made and checked."""
    with transaction.atomic():
        # The chain's head row, as every writer holds it (made if need be, as the first writer
        # makes it): no entry is added meanwhile.
        AuditHead.objects.select_for_update().get_or_create(pk=1)
        check, head, hashes = _since_last_head(batch, unsigned_ok=unsigned_too)
        if not check.intact:
            return check
        last = check.checked
        if head is not None and head["tree_size"] == last:
            return SignedTreeHead.objects.get(tree_size=last)
        if not last:
            return check
        frontier = Frontier()
        if head is not None:
            frontier = Frontier([bytes.fromhex(n) for n in head["frontier"]], head["tree_size"])
            if frontier.root().hex() != head["root_hash"]:
                return ChainCheck(0, None, f"the frontier stored with {_named(head)} does not make its root")
        return sealing.sign_extension(frontier, hashes)


@dataclass(frozen=True)
class Inclusion:
    """An entry's RFC 9162 inclusion proof in a signed tree head, and whether it holds: the head
    signed by a trusted key, the entry's content matching its hash, and the path from its leaf
    leading to the head's root."""

    entry: AuditEntry
    head: SignedTreeHead
    proof: list[str]
    verified: bool


def inclusion_proofs(entries: Iterable[AuditEntry]) -> dict[int, Inclusion]:
    """Each entry's inclusion proof in the last signed head (by entry sequence); entries written
    after that head have none yet. Reads the chain hashes of the head's entries once."""
    wanted = list(entries)
    head = SignedTreeHead.objects.defer("leaves", "consistency", "frontier").order_by("-tree_size").first()
    if head is None or not wanted:
        return {}
    wanted = [entry for entry in wanted if entry.sequence <= head.tree_size]
    if not wanted:
        return {}
    hashes = AuditEntry.objects.filter(sequence__lte=head.tree_size).order_by("sequence").values_list("hash", flat=True)
    leaves = [merkle.leaf_hash(bytes.fromhex(value)) for value in hashes.iterator(chunk_size=5000)]
    trusted = signing.signature_valid(
        {
            "tree_size": head.tree_size,
            "timestamp": head.timestamp,
            "root_hash": head.root_hash,
            "key_id": head.key_id,
            "signature": head.signature,
        }
    )
    found = {}
    tree = merkle.leaves_range(leaves)
    for entry in wanted:
        index = entry.sequence - 1
        if len(leaves) != head.tree_size:
            proof: list[bytes] = []
        else:
            proof = merkle.inclusion_proof(index, head.tree_size, tree)
        verified = (
            trusted
            and entry.compute_hash() == entry.hash
            and merkle.verify_inclusion(
                index, head.tree_size, merkle.leaf_hash(bytes.fromhex(entry.hash)), proof, bytes.fromhex(head.root_hash)
            )
        )
        found[entry.sequence] = Inclusion(entry, head, [node.hex() for node in proof], verified)
    return found


def snapshot(obj: Model, fields: Iterable[str]) -> dict[str, Any]:
    """The named fields of ``obj`` as JSON-ready values (foreign keys as ids)."""
    data = {}
    for name in fields:
        field = cast("Field", obj._meta.get_field(name))  # a concrete field: the services name them
        data[name] = getattr(obj, field.attname)
    return _normal(data)
