"""Recalculation that keeps up (issue #33): an event has at most one task waiting however many
changes arrive, a pass takes every change made before it began, one worker process at a time
works on an event, and what changed while a pass worked is sent again. The coalesced pass
gives exactly the board scores and standings of a from-scratch recompute."""

import random
from contextlib import contextmanager

import pytest
from django.db import transaction

from core import policy
from scoring import recalculation, services
from scoring.models import Event, EventPass, RecalculationRequest
from tests.conftest import table_result
from tests.scoring.test_incremental import build_event, from_scratch, random_change, snapshot

pytestmark = pytest.mark.django_db

PLAY = {"contract": "4S", "declarer": "N", "tricks": 10}


@pytest.fixture
def sent(monkeypatch):
    """The tasks the changes send (board ids), none run."""
    tasks = []
    monkeypatch.setattr(recalculation.queue, "enqueue", lambda board_id: tasks.append(board_id) or True)
    return tasks


def built(record):
    """The changes that built ``record`` were made in the test's own transaction, which never
    commits: their on-commit callback would gather every later change too. Forget it."""
    transaction.get_connection().__dict__.pop("_boards_to_rescore", None)
    transaction.get_connection().__dict__.pop("_board_marks", None)
    return record


def changes(record, rng, count, capture, label="change"):
    """``count`` changes, each in its own transaction that commits (its on-commit callbacks run)."""
    made = []
    for step in range(count):
        with capture(execute=True), transaction.atomic():
            made.append(random_change(rng, record, f"{label} {step}"))
    return made


@pytest.mark.parametrize(
    "kind", [Event.Kind.MP_PAIRS, Event.Kind.IMP_PAIRS_CROSS, Event.Kind.IMP_PAIRS_BUTLER], ids=lambda k: k.value
)
def test_one_pass_after_many_changes_equals_a_from_scratch_recompute(kind, sent, django_capture_on_commit_callbacks):
    record = built(build_event(kind, code=f"co-{kind.value}"[:20]))
    rng = random.Random(33)
    for burst in range(6):
        # Up to 12 changes arrive while the event's task waits: one task is sent for them all.
        sent.clear()
        changes(record, rng, rng.randint(2, 12), django_capture_on_commit_callbacks, f"burst {burst}")
        assert len(sent) == 1
        assert recalculation.recalculate_event(record.event.pk)
        assert not RecalculationRequest.objects.filter(finished_at__isnull=True).exists()
    coalesced = snapshot(record.event)
    assert from_scratch(record.event) == coalesced


def test_a_change_after_the_pass_began_sends_a_task_of_its_own(record, sent, django_capture_on_commit_callbacks):
    built(record)
    with django_capture_on_commit_callbacks(execute=True):
        table_result(record, table=0, **PLAY)
    assert len(sent) == 1
    with django_capture_on_commit_callbacks(execute=True):
        table_result(record, table=1, **PLAY)
    assert len(sent) == 1  # the first task waits and will take it
    recalculation.queue.begin_pass(record.event.pk)  # the task starts
    with django_capture_on_commit_callbacks(execute=True):
        table_result(record, table=0, board=record.boards[1], **PLAY)
    assert len(sent) == 2  # the running pass may have read before this change: a task of its own


def test_a_task_not_sent_is_sent_by_the_next_change(record, monkeypatch, django_capture_on_commit_callbacks):
    built(record)
    tries = []
    monkeypatch.setattr(recalculation.queue, "enqueue", lambda board_id: tries.append(board_id) and False)
    with django_capture_on_commit_callbacks(execute=True):
        table_result(record, table=0, **PLAY)
    with django_capture_on_commit_callbacks(execute=True):
        table_result(record, table=1, **PLAY)
    assert len(tries) == 2  # the broker refused the first: the mark was let go
    assert not EventPass.objects.get(event=record.event).queued


def test_a_mark_left_by_a_lost_task_is_claimed_again(record, sent):
    assert recalculation.queue.claim_pass(record.event.pk)
    assert not recalculation.queue.claim_pass(record.event.pk)
    EventPass.objects.filter(event=record.event).update(
        queued_at=EventPass.objects.get(event=record.event).queued_at - recalculation.queue.PASS_WAIT_LIMIT * 2
    )
    assert recalculation.queue.claim_pass(record.event.pk)


def test_a_task_that_finds_the_pass_held_leaves_and_the_holder_sends_what_changed_meanwhile(
    sent, monkeypatch, django_capture_on_commit_callbacks
):
    record = built(build_event(Event.Kind.MP_PAIRS, code="co-held"))
    rng = random.Random(7)
    changes(record, rng, 3, django_capture_on_commit_callbacks)
    sent.clear()
    held = []

    @contextmanager
    def busy(event_id):
        yield False  # another worker process holds the event's pass

    monkeypatch.setattr(recalculation.queue, "event_pass", busy)
    assert recalculation.recalculate_event(record.event.pk) is False
    assert RecalculationRequest.objects.filter(finished_at__isnull=True).count() == 3  # left to the holder
    monkeypatch.undo()
    monkeypatch.setattr(recalculation.queue, "enqueue", lambda board_id: sent.append(board_id) or True)

    # The holder: a change commits while its pass works (after it read what was pending).
    original = recalculation.pipeline._pass

    def pass_with_a_change_meanwhile(event_id):
        done = original(event_id)
        with transaction.atomic():
            held.append(random_change(rng, record, "meanwhile"))  # its task found the pass held and left
        return done

    monkeypatch.setattr(recalculation.pipeline, "_pass", pass_with_a_change_meanwhile)
    assert recalculation.recalculate_event(record.event.pk)
    assert sent == [held[0].board_id]  # sent again, to the back of the queue
    monkeypatch.undo()
    monkeypatch.setattr(recalculation.queue, "enqueue", lambda board_id: True)
    recalculation.recalculate_event(record.event.pk)
    assert not RecalculationRequest.objects.filter(finished_at__isnull=True).exists()
    coalesced = snapshot(record.event)
    assert from_scratch(record.event) == coalesced


def test_two_events_each_have_their_own_task(sent, django_capture_on_commit_callbacks):
    first = build_event(Event.Kind.MP_PAIRS, code="co-one")
    second = built(build_event(Event.Kind.MP_PAIRS, code="co-two", seed=2))
    rng = random.Random(9)
    changes(first, rng, 4, django_capture_on_commit_callbacks)
    changes(second, rng, 4, django_capture_on_commit_callbacks)
    boards = {board.pk for board in first.boards}, {board.pk for board in second.boards}
    assert len(sent) == 2 and sent[0] in boards[0] and sent[1] in boards[1]


def test_an_upload_marks_each_board_of_the_session_once_and_scores_as_from_scratch(
    sent, django_capture_on_commit_callbacks
):
    """A club's upload to a field: many results in one transaction, each growing its board past
    the others (the session's plays, Neuberg's expected count); every board is marked once,
    one task is sent, and the pass equals a from-scratch recompute."""
    record = built(build_event(Event.Kind.MP_PAIRS, code="co-upload", tables=3, sessions=1, boards_per_session=4))
    recalculation.queue.begin_pass(record.event.pk)
    session = record.boards[0].session
    tables = services.add_tables(section=session.sections.get(), count=5, by=policy.SYSTEM)[-2:]
    pairs = [
        services.enter_contestant(event=record.event, number=n, members=[], by=policy.SYSTEM) for n in (31, 32, 33, 34)
    ]
    rounds = list(session.rounds.order_by("number"))
    before = RecalculationRequest.objects.count()
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        for t, table in enumerate(tables):  # board 1 grows past the others twice
            for k, board in enumerate(record.boards):
                services.record_result(board=board, round=rounds[k], table=table, ns=pairs[2 * t],
                                       ew=pairs[2 * t + 1], contract="4S", declarer="N", tricks=10 - t, by=policy.SYSTEM)  # fmt: skip
    marked = RecalculationRequest.objects.order_by("pk").values_list("board_id", flat=True)[before:]
    # Each board marked by its own two results, the others once by board 1's growth (not twice).
    assert sorted(marked) == sorted([record.boards[0].pk] * 2 + [board.pk for board in record.boards[1:]] * 3)
    assert len(sent) == 1
    recalculation.recalculate_event(record.event.pk)
    coalesced = snapshot(record.event)
    assert from_scratch(record.event) == coalesced


def test_a_mark_undone_with_its_savepoint_is_not_counted(record):
    built(record)
    with transaction.atomic():
        recalculation.mark_board_dirty(record.boards[0])
        try:
            with transaction.atomic():
                recalculation.mark_board_dirty(record.boards[1])
                raise RuntimeError("this part of the change fails")
        except RuntimeError:
            pass
        assert recalculation.queue.marked_in_this_transaction() == {record.boards[0].pk}
