"""What a database writer can do to the trail: edit an entry in SQL and recompute, with the
model's own unkeyed SHA-256, every hash from it to the end, and the chain's head (issue #30)."""

from django.db import connection

from audit.models import AuditEntry


def rewrite(sequence, summary="nothing happened"):
    """Entry ``sequence``'s summary replaced, and every hash after it recomputed, in SQL only."""
    previous = AuditEntry.objects.get(sequence=sequence - 1).hash if sequence > 1 else "0" * 64
    with connection.cursor() as cursor:
        for entry in AuditEntry.objects.filter(sequence__gte=sequence).order_by("sequence"):
            entry.previous_hash = previous
            if entry.sequence == sequence:
                entry.summary = summary
            entry.hash = previous = entry.compute_hash()
            cursor.execute(
                "UPDATE audit_auditentry SET summary = %s, previous_hash = %s, hash = %s WHERE id = %s",
                [entry.summary, entry.previous_hash, entry.hash, entry.pk],
            )
        cursor.execute("UPDATE audit_audithead SET last_hash = %s", [previous])
