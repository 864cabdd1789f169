"""The auditor's desk verifies the audit trail from the last signed tree head (its last entry
still the one signed, no entry after it); the national body's button and ``verify_audit`` verify
the whole trail. Neither signs: every write signs its own head (issue #41). Tampering at the
head, before it, or behind a moved bookkeeping row is found."""

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from audit import services as audit
from audit.models import AuditCheckpoint, AuditEntry, SignedTreeHead

pytestmark = pytest.mark.django_db


def write(count):
    for number in range(count):
        audit.record(action="test.note", object_type="test.note", object_id=number, summary=f"note {number}")


def tamper(sequence, summary="nothing happened"):
    """Change an entry behind the application's back."""
    with connection.cursor() as cursor:
        cursor.execute("UPDATE audit_auditentry SET summary = %s WHERE sequence = %s", [summary, sequence])


def test_the_desk_checks_from_the_last_signed_head_and_signs_nothing():
    write(5)
    full = audit.verify_chain()
    assert (full.checked, full.intact, full.since, full.signed) == (5, True, 0, None)
    assert full.head.tree_size == 5 and full.head.leaves[-1] == AuditEntry.objects.get(sequence=5).hash
    assert AuditCheckpoint.objects.get().full_verified_at is not None
    write(3)
    check = audit.verify_chain(since_checkpoint=True)
    assert (check.checked, check.intact, check.since, check.head.tree_size) == (8, True, 8, 8)
    # One head a write; the checks signed none.
    assert list(SignedTreeHead.objects.values_list("tree_size", flat=True)) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert audit.sign_tree_head().tree_size == 8


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
    with CaptureQueriesContext(connection) as queries:
        assert audit.verify_chain(since_checkpoint=True).checked == 5
    assert not [q for q in queries if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]


def test_an_entry_changed_after_the_full_verification_is_found():
    write(4)
    audit.verify_chain()
    write(3)
    tamper(7)
    checked, broken, reason = audit.verify_chain(since_checkpoint=True)
    assert (checked, broken.sequence) == (0, 7)
    assert reason.startswith("it is not the entry signed in the tree head of 7 entries")
    # Nothing is signed over a break, for a push or by the full verification.
    assert isinstance(audit.sign_tree_head(), audit.ChainCheck)
    checked, broken, reason = audit.verify_chain()
    assert (checked, broken.sequence, reason) == (
        6,
        7,
        "its content does not match its hash: it was changed after it was written",
    )
    assert list(SignedTreeHead.objects.values_list("tree_size", flat=True)) == [1, 2, 3, 4, 5, 6, 7]


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
    assert AuditCheckpoint.objects.get().full_verified_at is None
    checked, broken, _reason = audit.verify_chain(since_checkpoint=True)
    assert (checked, broken.sequence) == (1, 2)
    with pytest.raises(CommandError, match="broken at entry 2"):
        call_command("verify_audit")


def test_the_heads_own_entry_changed_is_found():
    write(4)
    head = audit.verify_chain().head
    tamper(4)
    checked, broken, reason = audit.verify_chain(since_checkpoint=True)
    assert (checked, broken.sequence) == (0, 4)
    assert reason == (
        f"it is not the entry signed in the tree head of 4 entries signed at {head.signed_at:%Y-%m-%d %H:%M:%S} UTC: "
        "it has changed since; run the full verification to see the rest"
    )


def test_the_bookkeeping_row_moved_behind_the_applications_back_hides_nothing():
    write(3)
    audit.verify_chain()
    write(4)
    tamper(7)
    # The old checkpoint's fields moved past the changed entry: nothing reads them any more; the
    # desk starts from the last signed head, and entry 7 is found.
    last = AuditEntry.objects.get(sequence=7)
    AuditCheckpoint.objects.filter(pk=1).update(sequence=7, hash=last.hash)
    checked, broken, _reason = audit.verify_chain(since_checkpoint=True)
    assert (checked, broken.sequence) == (0, 7)


def test_a_trail_rewritten_with_fresh_hashes_is_caught_at_the_signed_head():
    """Whoever rewrites an entry and every hash after it (and the head) makes a chain that
    verifies from the first entry; the signed head still holds the hash entry 5 had."""
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
    assert "The audit trail is intact: 5 entries verified." in out
    assert "Verified against tree head of 5 entries" in out


def test_the_desk_says_what_it_checked_and_offers_the_full_verification(client):
    client.force_login(superuser())  # a superuser made: the trail's first entry (issue #30)
    write(2)
    page = client.get(reverse("national:national-home")).content.decode()
    assert "Intact: 3 entries verified" in page and "Verify the whole trail now" in page
    assert "Last signed tree head: 3 entries" in page  # the last write signed it
    response = client.post(reverse("national:audit-verify"), follow=True)
    page = response.content.decode()
    assert "The whole audit trail is intact: 3 entries verified from the first." in page
    assert SignedTreeHead.objects.count() == 3  # the button signs nothing
    write(2)
    page = client.get(reverse("national:national-home")).content.decode()
    assert "Intact: 5 entries verified" in page
    head = SignedTreeHead.objects.order_by("-tree_size").first()
    assert "Last signed tree head: 5 entries, signed at" in page and f"with key {head.key_id}." in page


def superuser():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_superuser("national", password="pw-national")
