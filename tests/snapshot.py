"""Records a fixture builds through the services, built once per test process and copied back
row by row into each later test that asks for them.

The ``field`` fixture (seven tables, scored) and the appeals' ``case`` (a ruling on it, posted)
are asked for by about 700 tests, each of which built them again through the services: most of a
test's time. Built once, their rows (every table's new, changed and deleted rows against the
state before), the heads the audit signed meanwhile and the Python objects the builder returned
are kept; a later test gets the rows inserted with their own ids in one transaction, the heads
appended to its own heads file and a deep copy of the objects, so it starts from exactly the
records a build would have left (tests/test_snapshot.py compares the two, column by column).

A snapshot is restored only onto the state it was taken from: every table's row count and
highest id are compared first, and a database in another state (a fixture that made records
before, the emptied database of a test with transactions) has a snapshot of its own, built
through the services the first time. On SQLite the ids then come out as a build's would (its
AUTOINCREMENT counter follows the highest id inserted); on PostgreSQL a sequence never goes
back, so a build's ids differed from test to test already.
"""

import copy
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.db import connection, transaction


def _models():
    """Each table of the project's models (the many-to-many tables too), once, by name."""
    existing = set(connection.introspection.table_names())
    found = {}
    for model in apps.get_models(include_auto_created=True):
        meta = model._meta
        if meta.proxy or not meta.managed or meta.db_table not in existing:
            continue
        found.setdefault(meta.db_table, model)
    return found


def _columns(model):
    return [field.column for field in model._meta.concrete_fields]


def _quoted(name):
    return connection.ops.quote_name(name)


def _json_columns(model):
    """PostgreSQL's driver reads a JSON column as Python values, in which a JSON null and SQL's
    NULL are one None: such columns are read and written as their text."""
    if connection.vendor != "postgresql":
        return set()
    return {field.column for field in model._meta.concrete_fields if field.get_internal_type() == "JSONField"}


def _rows(model):
    """The table's rows as the database driver gives them, by primary key."""
    columns, json = _columns(model), _json_columns(model)
    key = columns.index(model._meta.pk.column)
    read = ", ".join(f"{_quoted(c)}::text" if c in json else _quoted(c) for c in columns)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {read} FROM {_quoted(model._meta.db_table)}")
        return {row[key]: row for row in cursor.fetchall()}


def _highest(model):
    pk = _quoted(model._meta.pk.column)
    if model._meta.pk.get_internal_type() in ("AutoField", "BigAutoField", "SmallAutoField", "IntegerField"):
        return f"CAST(MAX({pk}) AS TEXT)"
    return f"MAX(CAST({pk} AS TEXT))"


def fingerprint():
    """Every table's row count and highest id, in one statement."""
    parts = [
        f"SELECT '{table}', COUNT(*), {_highest(model)} FROM {_quoted(table)}"
        for table, model in sorted(_models().items())
    ]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts))
        return {table: (count, str(highest)) for table, count, highest in cursor.fetchall()}


def _heads_size():
    path = Path(settings.AUDIT_HEADS_FILE)
    return path.stat().st_size if path.exists() else 0


def _parts(namespace):
    """The objects a fixture's namespace holds (its attributes and their lists' items)."""
    for value in vars(namespace).values():
        yield value
        if isinstance(value, list):
            yield from value


def _sequence_past_rows(cursor, table, pk):
    """PostgreSQL: the table's id sequence moved past the ids just inserted, if it was not
    already (a flush restarts it: tests/conftest.py), so the test's own records take new ids.
    SQLite's AUTOINCREMENT counter follows the highest id inserted by itself."""
    if connection.vendor != "postgresql":
        return
    cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [table, pk.strip('"')])
    (sequence,) = cursor.fetchone()
    if sequence:
        cursor.execute(
            f"SELECT setval(%s, GREATEST((SELECT MAX({pk}) FROM {_quoted(table)}), (SELECT last_value FROM {sequence})))",
            [sequence],
        )


class Snapshot:
    def __init__(self, changes, heads, value):
        self.changes, self.heads, self.value = changes, heads, value

    @classmethod
    def take(cls, build):
        """Run ``build``; the snapshot of what it changed and returned (a pair: the base it
        was built on and the value, for a snapshot with a base), and what it returned."""
        models = _models()
        before = {table: _rows(model) for table, model in models.items()}
        heads_from = _heads_size()
        value = build()
        changes = {}
        for table, model in models.items():
            after = _rows(model)
            old = before[table]
            gone = [key for key in old if key not in after or after[key] != old[key]]
            new = [row for key, row in after.items() if old.get(key) != row]
            if gone or new:
                changes[table] = (model, gone, new)
        heads = Path(settings.AUDIT_HEADS_FILE).read_bytes()[heads_from:] if _heads_size() > heads_from else b""
        return cls(changes, heads, copy.deepcopy(value)), value

    def restore(self, base=None):
        """The records and heads of the build, and a copy of what it returned, in which the
        objects of the base it was built on are ``base``'s own (a case's record is the test's
        field, as when built)."""
        with transaction.atomic():
            with connection.cursor() as cursor:
                for table, (model, gone, new) in self.changes.items():
                    pk = _quoted(model._meta.pk.column)
                    for key in gone:
                        cursor.execute(f"DELETE FROM {_quoted(table)} WHERE {pk} = %s", [key])
                    if new:
                        columns, json = _columns(model), _json_columns(model)
                        marks = ", ".join("%s::jsonb" if c in json else "%s" for c in columns)
                        cursor.executemany(
                            f"INSERT INTO {_quoted(table)} ({', '.join(map(_quoted, columns))}) VALUES ({marks})",
                            new,
                        )
                        _sequence_past_rows(cursor, table, pk)
        if self.heads:
            path = Path(settings.AUDIT_HEADS_FILE)
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("ab") as handle:
                handle.write(self.heads)
        if base is None:
            return copy.deepcopy(self.value)
        taken_base, value = self.value
        memo = {id(taken_base): base}
        memo.update((id(taken), own) for taken, own in zip(_parts(taken_base), _parts(base), strict=True))
        return copy.deepcopy(value, memo)


_TAKEN = {}


def built_once(name, build, base=None):
    """What ``build()`` returns: built the first time in this process on a database in this
    state (each table's row count and highest id) and restored afterwards wherever the database
    is in that state again. ``base``: the fixture's namespace ``build`` builds on (the ``field``
    of a ``case``)."""
    # A test with transactions runs its commit hooks (the heads file is written on commit) and
    # one inside a test's transaction does not, so the two never share a snapshot, even when a
    # flush has left the database in the same state.
    key = (name, connection.in_atomic_block, tuple(sorted(fingerprint().items())))
    taken = _TAKEN.get(key)
    if taken is not None:
        return taken.restore(base)
    if base is None:
        _TAKEN[key], value = Snapshot.take(build)
        return value
    _TAKEN[key], (_base, value) = Snapshot.take(lambda: (base, build()))
    return value
