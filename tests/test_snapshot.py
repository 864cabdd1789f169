"""A fixture restored from its snapshot (tests/snapshot.py) is the fixture a build leaves: every
row of every table, in the database's own text of each value (SQLite's quote(), PostgreSQL's
row text), SQLite's id counters, the audit's heads file and the objects the tests are given."""

from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.forms.models import model_to_dict

from tests.appeals.conftest import build_case
from tests.conftest import build_field, make_user
from tests.snapshot import Snapshot, built_once, fingerprint


def every_row():
    """Each table's rows (sorted) as text the database writes: 1, 1.0 and '1' differ."""
    rows = {}
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
        if connection.vendor == "sqlite":
            tables.append("sqlite_sequence")  # the ids the next rows take
        for table in tables:
            name = connection.ops.quote_name(table)
            if connection.vendor == "sqlite":
                cursor.execute(f"PRAGMA table_info({name})")
                columns = [connection.ops.quote_name(row[1]) for row in cursor.fetchall()]
                cursor.execute(f"SELECT {', '.join(f'quote({c})' for c in columns)} FROM {name}")
            else:
                cursor.execute(f"SELECT CAST({name} AS TEXT) FROM {name}")
            rows[table] = sorted(cursor.fetchall())
    return rows


def heads():
    path = Path(settings.AUDIT_HEADS_FILE)
    return path.read_bytes() if path.exists() else b""


def parts(namespace):
    """The namespace's objects as values: each record's fields and its class."""
    out = {}
    for name, value in vars(namespace).items():
        for n, item in enumerate(value if isinstance(value, list) else [value]):
            out[name, n] = (type(item).__name__, model_to_dict(item)) if hasattr(item, "_meta") else item
    return out


def built_and_restored(build, base=None):
    """What a build leaves and returns, then what a restore of its snapshot leaves and returns,
    on the same state (a savepoint)."""
    before = transaction.savepoint()
    heads_before = heads()
    snapshot, value = Snapshot.take((lambda: (base, build())) if base else build)
    built = every_row(), heads(), value
    transaction.savepoint_rollback(before)
    Path(settings.AUDIT_HEADS_FILE).write_bytes(heads_before)
    assert every_row() != built[0]  # the build is gone
    restored = snapshot.restore(base)
    return built, (every_row(), heads(), restored)


@pytest.mark.django_db
def test_a_restored_field_is_the_field_a_build_leaves():
    (rows, signed, field), (rows_again, signed_again, field_again) = built_and_restored(build_field)
    assert rows_again == rows
    assert signed_again == signed
    assert parts(field_again) == parts(field)
    assert len(field_again.results) == 7


@pytest.mark.django_db
def test_a_restored_case_is_the_case_a_build_leaves_on_the_tests_own_field():
    field = build_field()
    (rows, signed, (_, case)), (rows_again, signed_again, case_again) = built_and_restored(
        lambda: build_case(field), base=field
    )
    assert rows_again == rows and signed_again == signed
    assert parts(case_again) == parts(case)
    assert case_again.record is field and case_again.record.results[6] is field.results[6]
    assert case_again.ruling.pk == case.ruling.pk


@pytest.mark.django_db
def test_a_database_in_another_state_has_a_build_of_its_own(monkeypatch):
    from tests import snapshot

    monkeypatch.setattr(snapshot, "_TAKEN", {})
    built = []

    def build():
        built.append(make_user(f"user{len(built)}"))
        return built[-1]

    before = fingerprint()
    first = built_once("users", build)
    assert fingerprint() != before  # not the state the snapshot was taken from
    second = built_once("users", build)  # built, not restored
    assert (first.username, second.username, len(built)) == ("user0", "user1", 2)


def flushed():
    """What a test with transactions does at its end (tests/conftest.py's flush and refill)."""
    from django.test import TransactionTestCase

    TransactionTestCase("__init__")._fixture_teardown()


def every_row_after_flush():
    """every_row(), but a table whose SQLite id counter is 0 the same as one without a counter
    yet: either way its next row takes id 1."""
    rows = every_row()
    if "sqlite_sequence" in rows:
        rows["sqlite_sequence"] = [row for row in rows["sqlite_sequence"] if row[1] != "0"]
    return rows


@pytest.mark.django_db(transaction=True)
def test_every_test_with_transactions_after_the_first_starts_on_the_same_database(monkeypatch):
    """A flush leaves the database as the flush before it did, id counters and the law catalogue
    included, so what a process builds once is restored in the tests with transactions too; and
    a snapshot restored there leaves the counters past its rows (PostgreSQL's sequences too)."""
    from rulings.models import LawEntry
    from tests import snapshot
    from tests.conftest import build_pairs_tournament

    monkeypatch.setattr(snapshot, "_TAKEN", {})
    make_user("someone")
    flushed()
    first = every_row_after_flush()
    assert LawEntry.objects.exists()
    build_field()
    flushed()
    assert every_row_after_flush() == first
    field = built_once("field", build_field)  # built
    flushed()
    again = built_once("field", build_field)  # restored
    assert len(snapshot._TAKEN) == 2  # the field's and the catalogue's, each taken once
    assert parts(again) == parts(field)
    build_pairs_tournament(code="later", name="Later Open")  # new ids, past the restored rows
