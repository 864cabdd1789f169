"""The forgeries of test_signed_when_written at the moments of a trail's life it leaves out
(issue #41, "Done when"): the earliest (one entry, one head), right after a write whose heads
file line was never written (the process died between the commit and the file), after a key
rotation, with the signing key gone, and with every head removed from the database and the
heads file. Each is found and the first wrong entry named, and nothing signs over it."""

import os

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from audit import sealing, signing
from audit import services as audit
from audit.models import AuditEntry, SignedTreeHead
from tests.audit.test_signed_when_written import ATTACKS, deleted, forge, invented, rewritten, swapped, trail

pytestmark = pytest.mark.django_db
__all__ = ["trail"]  # the fixture, shared


def note(number):
    return {"action": "test.note", "object_type": "test.note", "object_id": number, "summary": f"note {number}"}


def found_and_named(first_wrong):
    check = audit.verify_chain()
    if check.broken is None and AuditEntry.objects.count() == first_wrong - 1:
        # The last entries deleted: none is left to name; the reason says where the trail ends.
        assert check.reason.startswith(f"the trail ends at entry {first_wrong - 1} but the tree head of ")
        assert "entries were removed" in check.reason
        with pytest.raises(CommandError, match="broken at the end of the trail"):
            call_command("verify_audit")
        return check
    assert check.broken is not None and check.broken.sequence == first_wrong, check.reason
    with pytest.raises(CommandError, match=f"broken at entry {first_wrong} "):
        call_command("verify_audit")
    return check


def nothing_signs_over_it(first_wrong, write=lambda: audit.record(**note(99))):
    heads = list(SignedTreeHead.objects.values_list("tree_size", "root_hash"))
    assert isinstance(audit.sign_tree_head(), audit.ChainCheck)
    try:
        write()
    except (sealing.TrailNotSigned, signing.SigningKeyMissing):
        assert list(SignedTreeHead.objects.values_list("tree_size", "root_hash")) == heads
    again = audit.verify_chain()
    assert not again.intact
    assert again.broken is None or again.broken.sequence == first_wrong, again.reason


@pytest.mark.parametrize(
    "attack, first_wrong", [(rewritten(1), 1), (invented(1), 1), (invented(2), 2), (deleted(1), 1)]
)
def test_the_earliest_moment_one_entry_under_one_head(attack, first_wrong, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        audit.record(**note(1))
    forge(attack)
    found_and_named(first_wrong)
    nothing_signs_over_it(first_wrong)


@pytest.mark.parametrize("attack, first_wrong", [(rewritten(9), 9), (swapped(8), 8), (deleted(9), 9), (invented(9), 9)])
def test_right_after_a_write_whose_heads_file_line_never_came(attack, first_wrong, django_capture_on_commit_callbacks):
    """The ninth write commits its entry and its head, and the process dies before the heads
    file gets its line (the file is written on commit): the head in the database still signs it."""
    for number in range(1, 9):
        with django_capture_on_commit_callbacks(execute=True):
            audit.record(**note(number))
    with django_capture_on_commit_callbacks(execute=False):
        audit.record(**note(9))
    assert [line["tree_size"] for _n, line in signing.exported()][-1] == 8  # no line for the ninth
    forge(attack)
    found_and_named(first_wrong)
    nothing_signs_over_it(first_wrong)


@pytest.mark.parametrize("attack, first_wrong", [(rewritten(2), 2), (swapped(3), 3), (invented(4), 4)])
def test_after_a_key_rotation_under_the_old_key_and_the_new(
    attack, first_wrong, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.AUDIT_SIGNING_KEY_FILE = str(tmp_path / "key" / "key.pem")
    settings.AUDIT_PUBLIC_KEYS_DIR = str(tmp_path / "public")
    call_command("audit_signing_key", "--generate")
    for number in (1, 2, 3):
        with django_capture_on_commit_callbacks(execute=True):
            audit.record(**note(number))
    call_command("audit_signing_key", "--rotate")
    for number in (4, 5):
        with django_capture_on_commit_callbacks(execute=True):
            audit.record(**note(number))
    assert SignedTreeHead.objects.values("key_id").distinct().count() == 2
    forge(attack)
    found_and_named(first_wrong)
    nothing_signs_over_it(first_wrong)


@pytest.mark.parametrize("attack, first_wrong", ATTACKS[::3])
def test_with_the_signing_key_gone_the_forgery_is_still_named(trail, attack, first_wrong, settings, tmp_path):
    """Whoever forges may also remove the key: the public keys still verify every head, so the
    entry is named, not only the missing key; and with no key nothing is written at all."""
    forge(attack)
    settings.AUDIT_SIGNING_KEY_FILE = str(tmp_path / "gone" / "key.pem")
    check = found_and_named(first_wrong)
    assert "No audit signing key at" in check.reason
    nothing_signs_over_it(first_wrong)
    assert not os.path.exists(settings.AUDIT_SIGNING_KEY_FILE)


def test_the_key_gone_from_an_intact_trail_is_an_alarm_naming_no_entry(trail, settings, tmp_path):
    settings.AUDIT_SIGNING_KEY_FILE = str(tmp_path / "gone" / "key.pem")
    check = audit.verify_chain()
    assert check.broken is None and check.reason.startswith("the trail cannot be kept: No audit signing key at")


@pytest.mark.parametrize("attack, first_wrong", [(rewritten(5), 1), (deleted(1), 1), (invented(10), 1)])
def test_with_every_head_removed_from_the_database_and_the_heads_file(trail, attack, first_wrong, settings):
    """Every head deleted too, both copies: what is left is entries that no head signs, found
    from the first of them (a trail with no head and no entry is the witness's to find: see
    test_a_trail_cut_with_its_heads_and_the_heads_file_is_found_in_the_witness)."""
    forge(attack)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM audit_signedtreehead")
    sealing.forget()
    os.unlink(settings.AUDIT_HEADS_FILE)
    check = found_and_named(first_wrong)
    assert "in no signed tree head" in check.reason
    nothing_signs_over_it(first_wrong)
