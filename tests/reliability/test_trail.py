"""Issue #30: "an edit in SQL followed by recomputing every later hash with the model's own
unkeyed SHA-256 passes verify_audit, and that full verification re-seals the SECRET_KEY
checkpoint over the forged chain, so the desk check then passes too."

Here the record is real (results recorded through the services), heads are signed and the
trail verified by ``manage.py verify_audit`` in processes of their own on the test database
(PostgreSQL when DATABASE_URL names one, as in CI's second round; SQLite otherwise), and the
forgery is what a database writer does: UPDATE statements, every later hash recomputed."""

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.urls import reverse

from audit.models import AuditEntry, SignedTreeHead
from tests.audit.forgery import rewrite
from tests.conftest import ROOT, _database_url

pytestmark = pytest.mark.django_db(transaction=True)


def verify_audit(*arguments):
    """``manage.py verify_audit`` in a process of its own, on the test database."""
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "AUDIT_SIGNING_KEY_FILE": settings.AUDIT_SIGNING_KEY_FILE,
        "AUDIT_PUBLIC_KEYS_DIR": settings.AUDIT_PUBLIC_KEYS_DIR,
        "AUDIT_HEADS_FILE": settings.AUDIT_HEADS_FILE,
    }
    return subprocess.run(
        [sys.executable, "manage.py", "verify_audit", *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_forged_chain_rewritten_in_sql_with_recomputed_hashes_is_detected_and_the_entry_named(field, client):
    entries = AuditEntry.objects.count()
    assert entries >= 7  # the seven results, among others
    signed = verify_audit()
    assert signed.returncode == 0, signed.stderr
    assert f"The audit trail is intact: {entries} entries verified." in signed.stdout
    # Each write signed its head as it committed (issue #41); the verification signs none.
    assert f"Verified against tree head of {entries} entries" in signed.stdout
    heads_signed = SignedTreeHead.objects.count()
    head = SignedTreeHead.objects.order_by("-tree_size").first()
    with open(settings.AUDIT_HEADS_FILE) as heads:
        lines = [json.loads(line)["root_hash"] for line in heads]
    assert len(lines) == heads_signed and lines[-1] == head.root_hash

    # The database writer: table X's result entry says something else, every hash after it
    # recomputed, the chain's head too. The chain alone holds.
    target = AuditEntry.objects.filter(action="result.recorded").order_by("sequence")[6]
    rewrite(target.sequence, summary="Board 1, table 7: 3NT by S, 9 tricks")
    with connection.cursor() as cursor:
        cursor.execute("SELECT summary FROM audit_auditentry WHERE sequence = %s", [target.sequence])
        assert cursor.fetchone()[0] == "Board 1, table 7: 3NT by S, 9 tricks"

    found = verify_audit()
    assert found.returncode != 0
    assert f"The audit trail is broken at entry {target.sequence} " in found.stderr
    assert "its hash is not the one signed in the tree head of" in found.stderr
    assert f"{target.sequence - 1} entries before it are intact." in found.stderr
    # Nothing was signed over the forgery, and the heads file has no new line.
    assert SignedTreeHead.objects.count() == heads_signed
    with open(settings.AUDIT_HEADS_FILE) as heads:
        assert len(heads.readlines()) == heads_signed
    # The desk's check shows it too.
    client.force_login(get_user_model().objects.create_superuser("national", password="pw-national"))
    page = client.get(reverse("national:national-home")).content.decode()
    assert f"The chain breaks at entry {target.sequence}:" in page
    desk = verify_audit("--since-checkpoint")
    assert desk.returncode != 0 and f"broken at entry {target.sequence} " in desk.stderr


@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"), reason="concurrent writers need PostgreSQL"
)
def test_heads_signed_while_entries_are_written_all_hold():
    """PostgreSQL only (SQLite writes one at a time anyway): four writers record entries while two
    signers sign heads; no writer waits on a signer, every head is consistent with the one before,
    and the whole trail verifies against all of them."""
    import threading

    from django.db import connections

    from audit import merkle
    from audit import services as audit

    errors = []

    def writer(number):
        try:
            for n in range(25):
                audit.record(action="test.note", object_type="test.note", object_id=f"{number}-{n}", summary="note")
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connections.close_all()

    def signer():
        try:
            for _n in range(10):
                result = audit.sign_tree_head()
                if isinstance(result, audit.ChainCheck) and not result.intact:
                    errors.append(AssertionError(result.reason))
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    threads += [threading.Thread(target=signer) for _n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    check = audit.verify_chain()
    assert check.intact and check.checked == 100, check.reason
    heads = list(SignedTreeHead.objects.order_by("tree_size"))
    assert heads[-1].tree_size == 100 and len(heads) >= 2
    # One after another, the first one included: each extends the head signed before it.
    assert [head.previous_size for head in heads] == [0] + [head.tree_size for head in heads[:-1]]
    by_size = {head.tree_size: head for head in heads}
    for head in heads[1:]:
        before = by_size[head.previous_size]
        assert merkle.verify_consistency(
            before.tree_size,
            head.tree_size,
            bytes.fromhex(before.root_hash),
            bytes.fromhex(head.root_hash),
            [bytes.fromhex(node) for node in head.consistency],
        )
