"""A club's upload recorded at once (issue #33): ``services.record_results`` records a session's
results as ``record_result`` does one by one (the same rows, Law 77 scores, boards marked and
audit trail), refuses a clash inside the upload or with a result already recorded naming the
field, writing nothing, and costs the same number of queries for 24 results as for 240."""

import datetime

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from audit import services as audit
from audit.models import AuditEntry, AuditHead
from core import policy
from scoring import recalculation, services
from scoring.models import Board, RecalculationRequest, Result, Table
from tests.conftest import build_pairs_tournament

NOW = datetime.datetime(2026, 5, 1, 21, 30, tzinfo=datetime.UTC)


def _world(tables=4, boards=4, code="up", name="Club Championship"):
    """``tables`` tables of one round and ``boards`` boards; N-S pair t+1 against E-W pair
    tables+t+1 at table t. The tables as read back (their sections not at hand)."""
    record = build_pairs_tournament(code=code, name=name, tables=tables)
    for number in range(3, boards + 1):
        record.boards.append(services.create_board(session=record.session, number=number, by=policy.SYSTEM))
    record.tables = list(Table.objects.filter(section__session=record.session).order_by("number"))
    return record


def _row(record, board, table, **fields):
    return {
        "board": record.boards[board],
        "round": record.round,
        "table": record.tables[table],
        "ns": record.pairs[table],
        "ew": record.pairs[len(record.tables) + table],
        **fields,
    }


def _rows(record, boards, tables):
    """Every table's result of every board: contracts of all kinds (made, down, passed out, not played)."""
    kinds = [
        {"contract": "4S", "declarer": "N", "tricks": 10, "lead": "hq"},
        {"contract": "3NTX", "declarer": "E", "tricks": 7},
        {"contract": "PASS"},
        {"not_played": True},
        {"contract": "6HXX", "declarer": "S", "tricks": 13, "lead": "C10"},
    ]
    return [_row(record, board, table, **kinds[(board + table) % len(kinds)]) for board in boards for table in tables]


def _what_was_written(record, audit_from):
    """The results, the boards left to score and the audit entries, as a user compares them."""
    results = [
        (r.board.number, r.table.number, r.ns.number, r.ew.number, r.not_played, r.contract, r.declarer)
        + (r.tricks, r.lead, r.score_ns)
        for r in Result.objects.filter(board__session=record.session).select_related("board", "table", "ns", "ew")
    ]
    pending = RecalculationRequest.objects.filter(board__session=record.session, finished_at__isnull=True)
    dirty = sorted(
        number
        for number, version, scored in Board.objects.filter(session=record.session).values_list(
            "number", "score_version", "scored_version"
        )
        if version > scored
    )
    entries = AuditEntry.objects.filter(sequence__gt=audit_from).order_by("sequence")
    trail = [
        (e.action, e.object_type, e.tournament_id, e.summary, e.summary_code, e.summary_params, e.after, e.channel)
        for e in entries
    ]
    return results, dirty, sorted({r.board.number for r in pending.select_related("board")}), trail


def _objects(audit_from):
    return [int(pk) for pk in AuditEntry.objects.filter(sequence__gt=audit_from).values_list("object_id", flat=True)]


@pytest.mark.parametrize(
    "boards, tables",
    [((1, 2, 3), (0, 1, 2, 3)), ((1,), (0,))],
    ids=["the session's plays grow: every board marked", "the plays stay: only the board marked"],
)
def test_the_batch_writes_what_one_by_one_writes(db, boards, tables):
    record = _world()
    for table in (0, 1):  # board 1 played twice already, and scored
        services.record_result(**_row(record, 0, table, contract="4S", declarer="N", tricks=10), by=policy.SYSTEM)
    recalculation.recalculate_board(record.boards[0].pk)
    start = AuditHead.objects.get().last_sequence
    rows = _rows(record, boards, tables)

    with transaction.atomic():
        one_by_one = [services.record_result(**row, by=policy.SYSTEM) for row in rows]
        expected = _what_was_written(record, start)
        assert _objects(start) == [r.pk for r in one_by_one]
        transaction.set_rollback(True)
    with transaction.atomic():
        batch = services.record_results(rows=rows, by=policy.SYSTEM)
        got = _what_was_written(record, start)
        assert _objects(start) == [r.pk for r in batch]

    assert got == expected
    assert [r.score_ns for r in batch] == [r.score_ns for r in one_by_one]
    assert any(r.score_ns for r in batch)  # Law 77, as Result.clean() scores them
    assert all(r.pk for r in batch)
    assert got[1] == ([1, 2, 3, 4] if len(rows) > 1 else [2])
    call_command("verify_audit")  # the chain written at once verifies


def test_a_board_marked_once_each_by_a_batch(db):
    record = _world()
    before = dict(Board.objects.values_list("pk", "score_version"))
    services.record_results(rows=_rows(record, (0, 1), (0, 1, 2, 3)), by=policy.SYSTEM)
    after = dict(Board.objects.values_list("pk", "score_version"))
    assert {pk: after[pk] - before[pk] for pk in before} == {board.pk: 1 for board in record.boards}
    assert RecalculationRequest.objects.filter(board__session=record.session).count() == 4


def _refused(record, rows):
    results, head = Result.objects.count(), AuditHead.objects.filter(pk=1).values_list("last_sequence").first()
    requests = RecalculationRequest.objects.count()
    with pytest.raises(services.ResultsRefused) as refusal:
        services.record_results(rows=rows, by=policy.SYSTEM)
    # Nothing written.
    assert Result.objects.count() == results
    assert AuditHead.objects.filter(pk=1).values_list("last_sequence").first() == head
    assert RecalculationRequest.objects.count() == requests
    return refusal.value


def test_a_clash_inside_the_batch_is_refused_naming_the_field(db):
    record = _world()
    again = _row(record, 1, 2, contract="3NT", declarer="S", tricks=9)
    again["ns"], again["ew"] = record.pairs[0], record.pairs[5]  # board 2 at table 3 twice
    refusal = _refused(record, _rows(record, (1,), (0, 1, 2)) + [again])
    ((index, error),) = refusal.rows
    assert index == 3
    assert error.message_dict == {"table": ["Board 2 already has a result at table 3."]}
    assert refusal.messages == ["board 2, table 3: table: Board 2 already has a result at table 3."]


def test_a_clash_with_a_result_recorded_and_every_refusal_are_reported_together(db):
    record = _world()
    services.record_result(**_row(record, 0, 0, contract="4S", declarer="N", tricks=10), by=policy.SYSTEM)
    moved = _row(record, 0, 1, contract="2D", declarer="W", tricks=8)
    moved["ns"] = record.pairs[0]  # pair 1 has played board 1 already, at table 1
    rows = [
        _row(record, 0, 2, contract="5Z", declarer="N", tricks=11),
        moved,
        _row(record, 0, 3, contract="4H", declarer="N", tricks=14),
        _row(record, 1, 0, contract="4H", declarer="N", tricks=10),
    ]
    refusal = _refused(record, rows)
    assert [index for index, _error in refusal.rows] == [0, 1, 2]
    assert list(refusal.rows[0][1].message_dict) == ["contract"]
    assert refusal.rows[1][1].message_dict == {"ns": [f"{record.pairs[0]} has already played board 1 (N-S)."]}
    assert refusal.rows[2][1].message_dict == {"tricks": ["14 tricks: declarer takes 0 to 13 tricks."]}
    assert refusal.messages[1].startswith("board 1, table 2: ns: ")


def test_one_result_is_refused_as_before(record):
    services.record_result(**_row(record, 0, 0, contract="4S", declarer="N", tricks=10), by=policy.SYSTEM)
    with pytest.raises(services.ResultsRefused.__mro__[1]) as refusal:  # a ValidationError, by field
        services.record_result(**_row(record, 0, 0, contract="3S", declarer="N", tricks=10), by=policy.SYSTEM)
    assert not isinstance(refusal.value, services.ResultsRefused)
    assert refusal.value.message_dict == {"table": ["Board 1 already has a result at table 1."]}


def test_record_many_chains_exactly_the_entries_of_as_many_records(db, monkeypatch):
    monkeypatch.setattr(audit.timezone, "now", lambda: NOW)
    entries = [
        {"action": "result.recorded", "object_type": "scoring.result", "object_id": n, "after": {"n": n}}
        | {"summary": f"entry {n}", "tournament": 7}
        for n in range(5)
    ]
    audit.record(action="before", object_type="x", object_id=1)
    with transaction.atomic():
        one_by_one = [audit.record(**entry).hash for entry in entries]
        transaction.set_rollback(True)
    made = audit.record_many(entries)
    assert [entry.hash for entry in made] == one_by_one
    assert list(AuditEntry.objects.order_by("sequence").values_list("hash", flat=True))[1:] == one_by_one
    assert AuditHead.objects.get().last_hash == one_by_one[-1]
    call_command("verify_audit")


def _queries_to_record(tables):
    """The statements recording ``tables`` tables' results of 24 boards make: (the inserts of
    results and audit entries, every other)."""
    record = _world(tables=10, boards=24, code=f"q{tables}", name=f"Club {tables}")
    rows = _rows(record, range(24), range(tables))
    AuditHead.objects.get_or_create(pk=1)  # the trail begun, as it always is but in a new database
    with CaptureQueriesContext(connection) as queries:
        services.record_results(rows=rows, by=policy.SYSTEM)
    assert Result.objects.filter(board__session=record.session).count() == 24 * tables
    inserts = [
        q for q in queries if q["sql"].startswith(('INSERT INTO "scoring_result"', 'INSERT INTO "audit_auditentry"'))
    ]
    return len(inserts), len(queries) - len(inserts)


def test_recording_an_upload_costs_the_same_queries_for_24_results_as_for_240(db):
    (few_inserts, few), (many_inserts, many) = _queries_to_record(1), _queries_to_record(10)
    assert few == many  # locks, checks, marks, the plays check and the audit head: once each
    assert many <= 20
    assert few_inserts == 2  # the results in one statement, their audit entries in another
    # As many statements as the database takes rows in one (PostgreSQL: all; SQLite: 999 values).
    assert many_inserts == _batches(Result, 240) + _batches(AuditEntry, 240)


def _batches(model, rows):
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    return -(-rows // connection.ops.bulk_batch_size(fields, [None] * rows))


def test_the_results_of_two_sessions_are_not_taken_at_once(db):
    record = _world()
    second = services.create_session(event=record.event, number=2, by=policy.SYSTEM)
    elsewhere = _row(record, 0, 1, contract="PASS")
    elsewhere["board"] = services.create_board(session=second, number=1, by=policy.SYSTEM)
    with pytest.raises(ValueError, match="one session at a time"):
        services.record_results(rows=[_row(record, 0, 0, contract="PASS"), elsewhere], by=policy.SYSTEM)
    assert not Result.objects.exists()
