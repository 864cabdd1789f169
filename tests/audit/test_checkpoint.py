"""The auditor's desk verifies the audit trail from a checkpoint (the last entry verified, its
hash, sealed with the server's key); the national body's button and ``verify_audit`` verify the
whole trail. Tampering after the checkpoint, at it, or behind a moved checkpoint is found."""

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from audit import services as audit
from audit.models import AuditCheckpoint, AuditEntry

pytestmark = pytest.mark.django_db


def write(count):
    for number in range(count):
        audit.record(action="test.note", object_type="test.note", object_id=number, summary=f"note {number}")


def tamper(sequence, summary="nothing happened"):
    """Change an entry behind the application's back."""
    with connection.cursor() as cursor:
        cursor.execute("UPDATE audit_auditentry SET summary = %s WHERE sequence = %s", [summary, sequence])


def test_the_desk_checks_only_the_entries_written_since_the_checkpoint():
    write(5)
    full = audit.verify_chain()
    assert (full.checked, full.intact, full.since) == (5, True, 0)
    checkpoint = AuditCheckpoint.objects.get()
    assert (checkpoint.sequence, checkpoint.hash) == (5, AuditEntry.objects.get(sequence=5).hash)
    assert checkpoint.full_verified_at is not None
    write(3)
    check = audit.verify_chain(since_checkpoint=True)
    assert (check.checked, check.intact, check.since) == (8, True, 5)
    assert AuditCheckpoint.objects.get().sequence == 8
    # Nothing new: nothing to walk, the checkpoint's own entry still checked.
    assert audit.verify_chain(since_checkpoint=True).since == 8


def test_the_desk_writes_nothing_when_nothing_was_written_since_the_checkpoint():
    """Every auditor's every load of the desk checks the trail: with nothing new it only reads,
    so the desk's loads do not queue on the checkpoint's row (issue #19)."""
    write(4)
    audit.verify_chain()
    with CaptureQueriesContext(connection) as queries:
        check = audit.verify_chain(since_checkpoint=True)
    assert (check.checked, check.intact, check.since) == (4, True, 4)
    # Reads only: PostgreSQL's server-side cursors (QuerySet.iterator()) read with DECLARE ... FOR SELECT.
    writes = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]
    assert writes == []
    assert not [q["sql"] for q in queries if "FOR UPDATE" in q["sql"].upper()]  # and takes no row lock
    assert queries.captured_queries  # the checkpoint and the trail were read
    write(1)
    assert audit.verify_chain(since_checkpoint=True).checked == 5
    assert AuditCheckpoint.objects.get().sequence == 5


def test_an_entry_changed_after_the_checkpoint_is_found():
    write(4)
    audit.verify_chain()
    write(3)
    tamper(6)
    checked, broken, reason = audit.verify_chain(since_checkpoint=True)
    assert (checked, broken.sequence) == (5, 6)
    assert reason == "its content does not match its hash: it was changed after it was written"
    assert AuditCheckpoint.objects.get().sequence == 4  # never moved past a break


def test_an_entry_changed_before_the_checkpoint_is_found_by_the_full_verification(client):
    write(6)
    audit.verify_chain()
    tamper(2)
    # The desk's check starts after entry 6 and does not read entry 2 again ...
    assert audit.verify_chain(since_checkpoint=True).intact
    # ... the full verification does, and then the desk starts from the first entry again.
    client.force_login(superuser())
    response = client.post(reverse("national:audit-verify"), follow=True)
    page = response.content.decode()
    assert (
        "The chain breaks at entry 2: its content does not match its hash: it was changed after it was "
        "written. 1 entries before it are intact." in page
    )
    assert not AuditCheckpoint.objects.exists()
    checked, broken, _reason = audit.verify_chain(since_checkpoint=True)
    assert (checked, broken.sequence) == (1, 2)
    with pytest.raises(CommandError, match="broken at entry 2"):
        call_command("verify_audit")


def test_the_checkpoints_own_entry_changed_is_found():
    write(4)
    audit.verify_chain()
    tamper(4)
    checked, broken, reason = audit.verify_chain(since_checkpoint=True)
    assert (checked, broken.sequence) == (0, 4)
    assert reason == "it was verified before, and has changed since: run the full verification to see the rest"


def test_a_checkpoint_moved_behind_the_applications_back_hides_nothing():
    write(3)
    audit.verify_chain()
    write(4)
    tamper(5)
    # Moved past the changed entry to entry 7 with its real hash: the seal does not match, so
    # the whole trail is checked, and entry 5 is found.
    last = AuditEntry.objects.get(sequence=7)
    AuditCheckpoint.objects.filter(pk=1).update(sequence=7, hash=last.hash)
    checked, broken, _reason = audit.verify_chain(since_checkpoint=True)
    assert (checked, broken.sequence) == (4, 5)


def test_a_trail_rewritten_with_fresh_hashes_is_caught_at_the_checkpoint():
    """Whoever rewrites an entry and every hash after it (and the head) makes a chain that
    verifies from the first entry; the sealed checkpoint still holds the hash entry 5 had."""
    write(5)
    audit.verify_chain()
    previous = AuditEntry.objects.get(sequence=1).hash
    with connection.cursor() as cursor:
        for entry in AuditEntry.objects.filter(sequence__gte=2).order_by("sequence"):
            entry.previous_hash = previous
            if entry.sequence == 2:
                entry.summary = "nothing happened"
            entry.hash = previous = entry.compute_hash()
            cursor.execute(
                "UPDATE audit_auditentry SET summary = %s, previous_hash = %s, hash = %s WHERE id = %s",
                [entry.summary, entry.previous_hash, entry.hash, entry.pk],
            )
        cursor.execute("UPDATE audit_audithead SET last_hash = %s", [previous])
    checked, broken, _reason = audit.verify_chain(since_checkpoint=True)
    assert (checked, broken.sequence) == (0, 5)


def test_the_command_verifies_from_the_checkpoint_on_request(capsys):
    write(3)
    call_command("verify_audit")
    assert "The audit trail is intact: 3 entries verified." in capsys.readouterr().out
    write(2)
    call_command("verify_audit", "--since-checkpoint")
    out = capsys.readouterr().out
    assert "The audit trail is intact: 5 entries verified (entries 4 to 5; those before were verified earlier)." in out


def test_the_desk_says_what_it_checked_and_offers_the_full_verification(client):
    write(3)
    client.force_login(superuser())
    page = client.get(reverse("national:national-home")).content.decode()
    assert "Intact: 3 entries verified" in page and "Verify the whole trail now" in page
    write(2)
    page = client.get(reverse("national:national-home")).content.decode()
    assert "Intact: 5 entries verified" in page
    assert "Entries up to 3 were verified before; those after it were checked now." in page
    response = client.post(reverse("national:audit-verify"), follow=True)
    assert "The whole audit trail is intact: 5 entries verified from the first." in response.content.decode()


def superuser():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_superuser("national", password="pw-national")
