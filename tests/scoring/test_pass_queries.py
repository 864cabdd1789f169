"""One pass's cost does not grow with the event (issue #33): on a club session, the pass that
scores a change reads and writes the database in a fixed number of statements, however many
boards and pairs the session has and however many of its boards changed before the pass; and
that coalesced pass gives exactly the standings and board scores of a from-scratch recompute."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import recalculation, services
from scoring.models import Event, RecalculationRequest, ScoreChange
from tests.scoring.test_incremental import build_event, from_scratch, snapshot

pytestmark = pytest.mark.django_db

# The statements of one pass on a club session (1 session, a Mitchell) with an adjusted score on
# each changed board: the transaction's own BEGIN, COMMIT and savepoints not counted. PostgreSQL
# takes the event's pass with an advisory lock (and clears its mark in that statement) and lets
# it go after; SQLite clears the mark on its own (its write lock serialises the passes).
PASS_STATEMENTS = {"postgresql": 16, "sqlite": 15}

WEIGHTED = {"ns": [[420, "0.6"], [-50, "0.4"]]}


def club(code, tables, boards):
    record = build_event(Event.Kind.MP_PAIRS, code=code, tables=tables, sessions=1, boards_per_session=boards)
    # The changes that built it were made in the test's transaction, which never commits.
    connection.__dict__.pop("_boards_to_rescore", None)
    connection.__dict__.pop("_board_marks", None)
    return record


def on_board(record, board, table=0):
    return [result for result in record.results if result.board_id == board.pk][table]


def pass_statements(event):
    with CaptureQueriesContext(connection) as queries:
        assert recalculation.recalculate_event(event.pk)
    skipped = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT", "BEGIN", "COMMIT")
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(skipped)]


@pytest.mark.parametrize(("tables", "boards"), [(4, 3), (8, 6)])
def test_a_pass_on_a_club_session_takes_the_same_statements_whatever_its_size(tables, boards):
    record = club(f"pq-{tables}", tables, boards)
    result = on_board(record, record.boards[1])
    services.set_effective_score(result=result, kind="weighted", score=WEIGHTED, reason="Law 12C1c")
    assert len(pass_statements(record.event)) == PASS_STATEMENTS[connection.vendor]
    # Changes on several boards before the pass: still one statement each.
    for n, board in enumerate(record.boards):
        services.set_effective_score(
            result=on_board(record, board, table=n % tables), kind="assigned", score={"ns": 620}, reason="ruling"
        )
    assert len(pass_statements(record.event)) == PASS_STATEMENTS[connection.vendor]


def test_a_pass_after_changes_on_several_boards_equals_a_from_scratch_recompute():
    record = club("pq-coalesced", 6, 4)
    first, second, third = record.boards[:3]
    # Before the pass: two changes to one result, an artificial score, a split score and a
    # penalty on three boards, and one result given back its table result.
    services.set_effective_score(result=on_board(record, first, 0), kind="weighted", score=WEIGHTED, reason="a")
    services.set_effective_score(result=on_board(record, first, 0), kind="assigned", score={"ns": -100}, reason="b")
    services.set_effective_score(
        result=on_board(record, first, 3), kind="artificial", score={"ns": "AVE+", "ew": "AVE-"}, reason="c"
    )
    services.set_effective_score(
        result=on_board(record, second, 2), kind="split", score={"ns": 420, "ew": 450}, reason="d"
    )
    services.set_effective_score(
        result=on_board(record, third, 5), kind="assigned", score={"ns": 140}, penalty={"ns": "25%"}, reason="e"
    )
    services.set_effective_score(result=on_board(record, first, 0), kind="table", reason="back to the table result")
    assert recalculation.recalculate_event(record.event.pk)
    assert not RecalculationRequest.objects.filter(finished_at__isnull=True).exists()
    # Every logged change has its "after" values, as the board scores now stand.
    assert not ScoreChange.objects.filter(ns_after__isnull=True).exists()
    coalesced = snapshot(record.event)
    assert from_scratch(record.event) == coalesced
