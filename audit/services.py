"""Writing and checking the audit trail."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from audit.context import current
from audit.models import GENESIS, AuditCheckpoint, AuditEntry, AuditHead
from audit.texts import split

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from django.db.models import Model


def _actor(explicit: User | AnonymousUser | None) -> User | None:
    if explicit is not None:
        return explicit if getattr(explicit, "is_authenticated", False) else None
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
    summary: str = "",
    tournament: Model | int | None = None,
) -> AuditEntry:
    """Append one entry to the chain, in the caller's transaction: if the change rolls back, so
    does its entry. ``summary`` is a text of an app's registry (audit/texts.py: stored in English,
    shown in the reader's language) or plain words."""
    summary, summary_code, summary_params = split(summary)
    head, _created = AuditHead.objects.select_for_update().get_or_create(pk=1)
    user = _actor(actor)
    context = current()
    entry = AuditEntry(
        sequence=head.last_sequence + 1,
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
        previous_hash=head.last_hash,
    )
    # Round-trip the JSON now, so the hash covers exactly what the database will return.
    entry.before, entry.after = _normal(before), _normal(after)
    entry.hash = entry.compute_hash()
    entry.save()
    head.last_sequence, head.last_hash = entry.sequence, entry.hash
    head.save(update_fields=["last_sequence", "last_hash"])
    return entry


def _normal(value: Any) -> Any:
    import json

    from django.core.serializers.json import DjangoJSONEncoder

    return None if value is None else json.loads(json.dumps(value, cls=DjangoJSONEncoder))


@dataclass(frozen=True)
class ChainCheck:
    """What a verification found: ``checked`` entries intact (from entry 1 up to the last one
    checked), the first broken entry (or None) and the reason; ``since`` is the checkpoint's
    entry it started after (0: the whole trail). Unpacks as (checked, broken, reason)."""

    checked: int
    broken: AuditEntry | None
    reason: str
    since: int = 0

    @property
    def intact(self) -> bool:
        return self.broken is None and not self.reason

    def _triple(self) -> tuple[int, AuditEntry | None, str]:
        return (self.checked, self.broken, self.reason)

    def __iter__(self) -> Iterator[int | AuditEntry | str | None]:
        return iter(self._triple())

    def __getitem__(self, index: int) -> int | AuditEntry | str | None:
        return self._triple()[index]


def _seal(sequence: int, entry_hash: str) -> str:
    return salted_hmac("audit.checkpoint", f"{sequence}:{entry_hash}", algorithm="sha256").hexdigest()


def _walk(start: int, previous: str, last: int, last_hash: str, batch: int) -> ChainCheck:
    """Check entries ``start + 1`` to ``last``: the first points at ``previous``, the last has
    the head's ``last_hash``."""
    expected, checked = start + 1, start
    entries = AuditEntry.objects.filter(sequence__gt=start, sequence__lte=last).order_by("sequence")
    for entry in entries.iterator(chunk_size=batch):
        if entry.sequence != expected:
            return ChainCheck(checked, entry, f"entry {expected} is missing (the next is {entry.sequence})", start)
        if entry.previous_hash != previous:
            return ChainCheck(checked, entry, "it does not point at the previous entry's hash", start)
        if entry.compute_hash() != entry.hash:
            return ChainCheck(
                checked, entry, "its content does not match its hash: it was changed after it was written", start
            )
        previous, expected, checked = entry.hash, expected + 1, entry.sequence
    if checked != last:
        return ChainCheck(checked, None, f"the trail ends at entry {checked} but {last} were written", start)
    if previous != last_hash:
        return ChainCheck(checked, None, f"the chain's head does not hold entry {last}'s hash", start)
    return ChainCheck(checked, None, "", start)


def _head() -> tuple[int, str]:
    """The head as it stands now: entries written after this are left to the next check."""
    head = AuditHead.objects.filter(pk=1).first()
    return (head.last_sequence, head.last_hash) if head else (0, GENESIS)


def _checkpoint() -> tuple[int, str] | ChainCheck | None:
    """(sequence, hash) to start from, a broken check if the checkpoint contradicts the trail,
    or None to check the whole trail (no checkpoint, or one without a valid seal)."""
    checkpoint = AuditCheckpoint.objects.filter(pk=1).first()
    if checkpoint is None or checkpoint.sequence == 0:
        return None
    if not constant_time_compare(checkpoint.seal, _seal(checkpoint.sequence, checkpoint.hash)):
        return None  # not one this application wrote: trust nothing, check everything
    entry = AuditEntry.objects.filter(sequence=checkpoint.sequence).first()
    if entry is None:
        return ChainCheck(0, None, f"entry {checkpoint.sequence}, the last one verified, is missing", 0)
    if entry.hash != checkpoint.hash or entry.compute_hash() != entry.hash:
        return ChainCheck(
            0,
            entry,
            "it was verified before, and has changed since: run the full verification to see the rest",
            0,
        )
    return checkpoint.sequence, checkpoint.hash


def _store_checkpoint(check: ChainCheck, last_hash: str, full: bool) -> None:
    now = timezone.now()
    fields = {
        "sequence": check.checked,
        "hash": last_hash,
        "seal": _seal(check.checked, last_hash),
        "verified_at": now,
    }
    if full:
        fields["full_verified_at"] = now
    # Never moved back by a slower check that started earlier; bulk_create sends no save
    # signal: a checkpoint is bookkeeping of the check, not a change to the record.
    moved = AuditCheckpoint.objects.filter(pk=1)
    if not full:
        moved = moved.filter(sequence__lte=check.checked)
    if not moved.update(**fields) and not AuditCheckpoint.objects.filter(pk=1).exists():
        AuditCheckpoint.objects.bulk_create([AuditCheckpoint(pk=1, **fields)], ignore_conflicts=True)


def verify_chain(batch: int = 2000, *, since_checkpoint: bool = False) -> ChainCheck:
    """Check the hash chain; a ``ChainCheck`` (unpacks as checked, broken entry or None, reason).

    The whole trail from entry 1 by default (``manage.py verify_audit``, the national body's
    button). ``since_checkpoint`` (the auditor's desk) checks only the entries written after the
    last verified one, after checking that entry still has the hash it had then; tampering
    before it is for the full verification to find. A full verification that fails removes the
    checkpoint, so every later check starts from entry 1 again and shows the break."""
    last, last_hash = _head()
    start = _checkpoint() if since_checkpoint else None
    if isinstance(start, ChainCheck):
        return start
    sequence, previous = start or (0, GENESIS)
    check = _walk(sequence, previous, last, last_hash, batch)
    # A desk check that found nothing after the checkpoint has nothing to record: the desk's
    # loads stay reads, not a write (and a wait on the checkpoint's row) each (issue #19).
    if start is not None and check.checked == sequence:
        return check
    if check.intact and last:
        _store_checkpoint(check, last_hash, full=start is None)
    elif not check.intact and start is None:
        AuditCheckpoint.objects.filter(pk=1).delete()
    return check


def snapshot(obj: Model, fields: Iterable[str]) -> dict[str, Any]:
    """The named fields of ``obj`` as JSON-ready values (foreign keys as ids)."""
    data = {}
    for name in fields:
        field = obj._meta.get_field(name)
        data[name] = getattr(obj, field.attname)
    return _normal(data)
