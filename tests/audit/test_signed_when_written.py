"""Every write signs a tree head over the entries it adds, in its own transaction (issue #41):
no entry is ever in an unsigned window. Whoever can write to the database rewrites, reorders,
deletes or invents entries anywhere in the trail, every hash recomputed, with the heads file
kept or lost: the verification names the first wrong entry, and nothing signs over it."""

import os

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from audit import sealing, signing
from audit import services as audit
from audit.models import GENESIS, AuditEntry, SignedTreeHead

pytestmark = pytest.mark.django_db

CONTENT = ("at", "actor_id", "actor_name", "action", "object_type", "object_id", "tournament_id", "summary")
CONTENT += ("before", "after", "channel", "path", "summary_code", "summary_params")


@pytest.fixture
def trail(django_capture_on_commit_callbacks):
    """Nine entries: three writes of one, one write of four, two of one (heads of 1, 2, 3, 7, 8, 9)."""

    def note(number):
        return {"action": "test.note", "object_type": "test.note", "object_id": number, "summary": f"note {number}"}

    for number in (1, 2, 3):
        with django_capture_on_commit_callbacks(execute=True):
            audit.record(**note(number))
    with django_capture_on_commit_callbacks(execute=True):
        audit.record_many([note(number) for number in (4, 5, 6, 7)])
    for number in (8, 9):
        with django_capture_on_commit_callbacks(execute=True):
            audit.record(**note(number))
    return django_capture_on_commit_callbacks


def forge(change):
    """The trail rewritten in SQL as ``change`` makes it (a list of the entries' contents, in
    order), renumbered from 1 and every hash recomputed with the model's own SHA-256, the chain's
    head too: all a database writer without the key can do."""
    rows = [{name: getattr(entry, name) for name in CONTENT} for entry in AuditEntry.objects.order_by("sequence")]
    rows = change(rows)
    forged, previous = [], GENESIS
    for sequence, row in enumerate(rows, start=1):
        entry = AuditEntry(sequence=sequence, previous_hash=previous, **row)
        entry.hash = previous = entry.compute_hash()
        forged.append(entry)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM audit_auditentry")
    AuditEntry.objects.bulk_create(forged)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE audit_audithead SET last_sequence = %s, last_hash = %s", [len(forged), previous])
    sealing.forget()


def rewritten(at):
    def change(rows):
        rows[at - 1]["summary"] = "nothing happened"
        return rows

    return change


def swapped(at):
    def change(rows):
        rows[at - 1], rows[at] = rows[at], rows[at - 1]
        return rows

    return change


def deleted(at):
    def change(rows):
        del rows[at - 1]
        return rows

    return change


def invented(at):
    def change(rows):
        rows.insert(at - 1, {**rows[0], "summary": "an entry no one wrote", "object_id": "999"})
        return rows

    return change


# (what is done, the entry first found wrong): the first entry, inside a head of several, a
# head's last entry, the first entry after a head, the last entry of the trail, and after it.
ATTACKS = [
    (rewritten(1), 1),
    (rewritten(5), 5),
    (rewritten(7), 7),
    (rewritten(8), 8),
    (rewritten(9), 9),
    (swapped(1), 1),
    (swapped(4), 4),
    (swapped(7), 7),
    (swapped(8), 8),
    (deleted(1), 1),
    (deleted(5), 5),
    (deleted(8), 8),
    (invented(1), 1),
    (invented(5), 5),
    (invented(8), 8),
    (invented(10), 10),
]


@pytest.mark.parametrize("heads_file", ["kept", "lost"])
@pytest.mark.parametrize("attack, first_wrong", ATTACKS)
def test_every_forgery_anywhere_in_the_trail_is_found_and_named_and_nothing_signs_over_it(
    trail, attack, first_wrong, heads_file, settings
):
    assert audit.verify_chain().intact
    assert list(SignedTreeHead.objects.values_list("tree_size", flat=True)) == [1, 2, 3, 7, 8, 9]
    forge(attack)
    if heads_file == "lost":
        os.unlink(settings.AUDIT_HEADS_FILE)
    check = audit.verify_chain()
    assert not check.intact
    assert check.broken is not None and check.broken.sequence == first_wrong, check.reason
    with pytest.raises(CommandError, match=f"broken at entry {first_wrong} "):
        call_command("verify_audit")
    # The desk finds it too, from the first entry (the last full verification failed).
    assert audit.verify_chain(since_checkpoint=True).broken.sequence == first_wrong
    # Nothing is signed over the forgery: the checks sign nothing, and a write either refuses
    # (an entry no head covers) or signs only the last head extended by its own entry.
    heads = list(SignedTreeHead.objects.values_list("tree_size", "root_hash"))
    assert isinstance(audit.sign_tree_head(), audit.ChainCheck)
    try:
        with trail(execute=True):
            audit.record(action="test.note", object_type="test.note", object_id=10, summary="after the forgery")
    except sealing.TrailNotSigned:
        assert list(SignedTreeHead.objects.values_list("tree_size", "root_hash")) == heads
    again = audit.verify_chain()
    assert again.broken is not None and again.broken.sequence == first_wrong


def test_an_entry_added_after_the_last_head_stops_every_write_and_is_named(trail):
    forge(invented(10))
    check = audit.verify_chain()
    assert (check.checked, check.broken.sequence) == (9, 10)
    assert check.reason == (
        "it is in no signed tree head: every write signs a head over its entries, so it was written behind the "
        "application's back"
    )
    with pytest.raises(sealing.TrailNotSigned, match=r"Entries 10 to 10 of the audit trail are in no signed tree head"):
        audit.record(action="test.note", object_type="test.note", object_id=11)
    assert SignedTreeHead.objects.order_by("-tree_size").first().tree_size == 9
    assert AuditEntry.objects.count() == 10


def test_each_write_signs_one_head_over_its_entries_in_its_transaction(trail, settings):
    lines = [line for _number, line in signing.exported()]
    assert [(line["previous_size"], line["tree_size"], len(line["leaves"])) for line in lines] == [
        (0, 1, 1),
        (1, 2, 1),
        (2, 3, 1),
        (3, 7, 4),
        (7, 8, 1),
        (8, 9, 1),
    ]
    assert lines[-1]["leaves"] == [AuditEntry.objects.get(sequence=9).hash]
    # A write that rolls back takes its head with it.
    with pytest.raises(RuntimeError):
        from django.db import transaction

        with transaction.atomic():
            audit.record(action="test.note", object_type="test.note", object_id=10)
            raise RuntimeError
    assert SignedTreeHead.objects.order_by("-tree_size").first().tree_size == 9
    with trail(execute=True):
        audit.record(action="test.note", object_type="test.note", object_id=10)
    assert SignedTreeHead.objects.order_by("-tree_size").first().tree_size == 10
    assert audit.verify_chain().intact


def test_a_trail_from_before_every_write_was_signed_is_signed_only_on_the_operators_word(trail, capsys):
    forge(invented(10))  # as an older version left it: an entry after the last head
    with pytest.raises(CommandError, match="entry 10 .*in no signed tree head"):
        call_command("verify_audit")
    call_command("verify_audit", "--sign-unsigned")
    assert "Signed a new tree head of 10 entries" in capsys.readouterr().out
    assert audit.verify_chain().intact
    audit.record(action="test.note", object_type="test.note", object_id=11)
    assert audit.verify_chain().intact


def test_a_trail_cut_with_its_heads_and_the_heads_file_is_found_in_the_witness(
    settings, tmp_path, django_capture_on_commit_callbacks
):
    """Issue #41: the heads file beside the database is deleted too, the last entries and the
    heads that signed them removed from the database: the witness elsewhere still holds them."""
    settings.AUDIT_WITNESS_FILE = str(tmp_path / "elsewhere" / "witness.jsonl")
    for number in range(5):
        with django_capture_on_commit_callbacks(execute=True):
            audit.record(action="test.note", object_type="test.note", object_id=number)
    last = AuditEntry.objects.get(sequence=3)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM audit_auditentry WHERE sequence > 3")
        cursor.execute("DELETE FROM audit_signedtreehead WHERE tree_size > 3")
        cursor.execute("UPDATE audit_audithead SET last_sequence = 3, last_hash = %s", [last.hash])
    os.unlink(settings.AUDIT_HEADS_FILE)
    check = audit.verify_chain()
    assert check.reason.startswith("the tree head of 4 entries signed at")
    assert check.reason.endswith("is in the witness file but not in the database: signed heads were removed")
    settings.AUDIT_WITNESS_FILE = ""  # without a witness the cut trail would pass: hence audit.E002
    assert audit.verify_chain().intact


def test_production_needs_a_witness_apart_from_the_key_the_heads_and_the_database(settings, tmp_path):
    from audit.checks import heads_witnessed_elsewhere

    settings.AUDIT_WITNESS_FILE = ""
    settings.AUDIT_HEADS_FILE = str(tmp_path / "heads.jsonl")
    settings.AUDIT_SIGNING_KEY_FILE = str(tmp_path / "key.pem")
    ids = [error.id for error in heads_witnessed_elsewhere(None)]
    assert ids[0] == "audit.E002" and "audit.E003" in ids  # the key and the heads file share a folder
    settings.AUDIT_WITNESS_FILE = str(tmp_path / "witness" / "heads.jsonl")
    settings.AUDIT_SIGNING_KEY_FILE = str(tmp_path / "key" / "key.pem")
    found = heads_witnessed_elsewhere(None)
    assert [error.id for error in found] in ([], ["audit.E003"])  # the test database may sit beside the heads
    assert all("the database" in error.msg for error in found)


def test_a_heads_file_or_key_in_the_databases_folder_fails_the_deployment_check(settings, tmp_path):
    """audit.E003 names the database too: a heads file (or key) in the SQLite database's folder
    is taken with the database by one copy or theft."""
    from pathlib import Path

    from django.db import connection

    from audit.checks import heads_witnessed_elsewhere

    if connection.vendor != "sqlite":
        pytest.skip("only an SQLite database is a file in a folder")
    database = Path(str(settings.DATABASES["default"]["NAME"])).resolve().parent
    settings.AUDIT_WITNESS_FILE = str(tmp_path / "witness" / "heads.jsonl")
    settings.AUDIT_SIGNING_KEY_FILE = str(tmp_path / "key" / "key.pem")
    settings.AUDIT_HEADS_FILE = str(database / "heads-beside-the-database.jsonl")
    found = [(error.id, error.msg) for error in heads_witnessed_elsewhere(None)]
    assert found == [
        (
            "audit.E003",
            f"The heads file and the database share the folder {database}: one copy or theft takes both.",
        )
    ]
    settings.AUDIT_HEADS_FILE = str(tmp_path / "heads" / "heads.jsonl")
    settings.AUDIT_SIGNING_KEY_FILE = str(database / "key.pem")
    assert [error.msg for error in heads_witnessed_elsewhere(None)] == [
        f"The signing key and the database share the folder {database}: one copy or theft takes both."
    ]
