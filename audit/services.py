"""Writing and checking the audit trail."""

from django.db import transaction
from django.utils import timezone

from audit.context import current
from audit.models import GENESIS, AuditEntry, AuditHead
from audit.texts import split


def _actor(explicit):
    if explicit is not None:
        return explicit if getattr(explicit, "is_authenticated", False) else None
    user = current().get("user")
    if hasattr(user, "resolve"):
        user = user.resolve()
    return user if getattr(user, "is_authenticated", False) else None


@transaction.atomic
def record(
    *,
    action,
    obj=None,
    object_type=None,
    object_id=None,
    before=None,
    after=None,
    actor=None,
    summary="",
    tournament=None,
):
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


def _normal(value):
    import json

    from django.core.serializers.json import DjangoJSONEncoder

    return None if value is None else json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def verify_chain(batch=2000):
    """(checked, first broken entry or None, reason)."""
    previous, expected_sequence, checked = GENESIS, 1, 0
    for entry in AuditEntry.objects.order_by("sequence").iterator(chunk_size=batch):
        if entry.sequence != expected_sequence:
            return checked, entry, f"entry {expected_sequence} is missing (the next is {entry.sequence})"
        if entry.previous_hash != previous:
            return checked, entry, "it does not point at the previous entry's hash"
        if entry.compute_hash() != entry.hash:
            return checked, entry, "its content does not match its hash: it was changed after it was written"
        previous, expected_sequence, checked = entry.hash, expected_sequence + 1, checked + 1
    head = AuditHead.objects.filter(pk=1).first()
    if head and head.last_sequence != checked:
        return checked, None, f"the trail ends at entry {checked} but {head.last_sequence} were written"
    return checked, None, ""


def snapshot(obj, fields):
    """The named fields of ``obj`` as JSON-ready values (foreign keys as ids)."""
    data = {}
    for name in fields:
        field = obj._meta.get_field(name)
        data[name] = getattr(obj, field.attname)
    return _normal(data)
