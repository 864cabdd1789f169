"""Marking work: the locks every change takes in order, the requests a change writes, the
tasks sent when its transaction commits (at most one waiting an event: ``claim_pass``), the
event's pass held by one worker process at a time (``event_pass``), and the sweep that sends
again what no worker finished."""

import logging
from collections import defaultdict
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, connections, router, transaction
from django.db.models import Count, F, Q, Subquery
from django.utils import timezone

from core import dispatch
from core.retry import atomic_with_retry
from scoring.models import Board, EventPass, RecalculationRequest, Result, Session

log = logging.getLogger(__name__)

# A request no worker finished this long after it was made is sent again by the sweep.
SWEEP_AFTER = timedelta(seconds=settings.RECALCULATION_SWEEP_AFTER_SECONDS)


def lock_board(board_id):
    """Take ``board_id``'s row lock: first, before any of its results (see the lock order in ``scoring.recalculation``)."""
    lock_boards([board_id])


def lock_boards(board_ids):
    """Take the row locks of ``board_ids`` in one statement, in id order (as the pipeline takes
    them), before any of their results."""
    # Ordered by id only: Board's default ordering joins the tournament, and FOR UPDATE would lock those rows too.
    boards = Board.objects.select_for_update(of=("self",)).filter(pk__in=set(board_ids)).order_by("pk")
    list(boards.values_list("pk", flat=True))


def lock_result(result_id, related=()):
    """Lock one result for a change of its score or its fields, after its board's lock. FOR NO KEY
    UPDATE (on PostgreSQL): it does not block the foreign-key checks of board scores and
    change-log rows that refer to the result."""
    query = Result.objects.select_for_update(of=("self",), no_key=True)
    if related:
        query = query.select_related(*related)
    return query.get(pk=result_id)


def mark_board_dirty(board):
    """Call inside the transaction that changed one of ``board``'s results."""
    return mark_boards_dirty([board.pk], events=_known_event(board))[board.pk]


def _known_event(board):
    """{board id: event id} when ``board`` was read with its session (a change's service reads
    its result with board__session__event), so the task sent at the commit needs no query to
    find its event; else {}."""
    session = Board.session.field.get_cached_value(board, default=None)
    return {board.pk: session.event_id} if isinstance(session, Session) else {}


def mark_boards_dirty(board_ids, events=None):
    """Call inside the transaction that changed results of the boards ``board_ids`` (locked
    already): each is marked once, in two statements whatever their number (three where the
    database cannot return the rows an UPDATE changed). ``events``: {board id: event id}, as far
    as the caller knows them. Returns {board id: its new score version}."""
    board_ids = sorted(set(board_ids))
    versions = _bump_versions(board_ids)
    RecalculationRequest.objects.bulk_create(
        RecalculationRequest(board_id=board_id, version=versions[board_id]) for board_id in board_ids
    )
    for board_id in board_ids:
        _enqueue_on_commit(board_id, (events or {}).get(board_id))
        _note_mark(board_id)
    return versions


def _bump_versions(board_ids):
    """Add one to each board's score version; {board id: the new version}."""
    conn = connections[router.db_for_write(Board)]
    if not conn.features.can_return_columns_from_insert:  # an SQLite before 3.35: no RETURNING
        Board.objects.filter(pk__in=board_ids).update(score_version=F("score_version") + 1)
        return dict(Board.objects.filter(pk__in=board_ids).order_by().values_list("pk", "score_version"))
    boards = conn.ops.quote_name(Board._meta.db_table)
    marks = ", ".join(["%s"] * len(board_ids))
    with conn.cursor() as cursor:
        cursor.execute(
            f"UPDATE {boards} SET score_version = score_version + 1 WHERE id IN ({marks}) RETURNING id, score_version",
            board_ids,
        )
        return dict(cursor.fetchall())


def mark_session_if_plays_grew(board):
    """Call after adding a result to ``board`` (after mark_board_dirty): when the board now has
    more results than any other board of its session, every board of the session is expected
    to be played that many times (session_plays) and is scored again with the new top. Boards
    this transaction marked already are not marked again (issue #33: a club's upload to a
    simultaneous field records 240 results in one transaction, each growing its board; the
    task after the commit scores every board as it then is), and when every other board of the
    session is marked already nothing is counted."""
    mark_session_if_plays_grew_by(board.session_id, {board.pk: 1})


def mark_session_if_plays_grew_by(session_id, added):
    """:func:`mark_session_if_plays_grew` for results just added to several boards of one session
    at once (``added``: {board id: how many}, those boards marked already): when the session's
    most-played board now has more results than before, every board of the session not marked
    by this transaction is marked, in id order. The same boards as one call a result would mark."""
    versions = list(
        Board.objects.filter(session_id=session_id).order_by().values_list("pk", "score_version", "scored_version")
    )
    # Marked by this transaction and not scored since (no pass ran inside it meanwhile).
    marked = marked_in_this_transaction() & {pk for pk, version, scored in versions if version > scored}
    rest = {pk for pk, _version, _scored in versions} - marked - set(added)
    if not rest:
        return
    after = dict(
        Result.objects.filter(board__session_id=session_id)
        .order_by()
        .values("board_id")
        .annotate(results=Count("pk"))
        .values_list("board_id", "results")
    )
    before = {board_id: count - added.get(board_id, 0) for board_id, count in after.items()}
    if max(after.values(), default=0) <= max(before.values(), default=0):
        return
    # In id order, as the pipeline takes them; the boards of the added results are locked and marked.
    lock_boards(rest)
    mark_boards_dirty(rest)


def marked_in_this_transaction():
    """The boards this transaction has marked dirty so far and still stand marked: each mark
    leaves a no-op on-commit callback, which Django drops with a savepoint rolled back (and
    with the transaction, committed or not), so a mark undone is not counted."""
    connection = transaction.get_connection()
    marks = connection.__dict__.get("_board_marks")
    if not marks:
        return set()
    standing = {id(callback) for _sids, callback, _robust in connection.run_on_commit}
    return {board_id for board_id, marker in marks.items() if id(marker) in standing}


def _note_mark(board_id):
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        return
    marks = connection.__dict__.setdefault("_board_marks", {})
    if len(marks) > 10_000:
        marks.clear()

    def marker():
        connection.__dict__.get("_board_marks", {}).pop(board_id, None)

    marks[board_id] = marker
    transaction.on_commit(marker)


def _enqueue_on_commit(board_id, event_id=None):
    # One task per board per transaction, however many of its results the transaction changed.
    # The set lives as long as its on_commit callback: after a rollback Django drops the
    # callback, and the next change starts a fresh set. ``event_id``: the board's event when the
    # caller knows it (else it is read at the commit).
    connection = transaction.get_connection()
    state = connection.__dict__.get("_boards_to_rescore")
    if state is None or not any(callback is state[0] for _sids, callback, _robust in connection.run_on_commit):
        boards: dict[int, int | None] = {}  # board id: event id or None

        def flush():
            # One task per event: it takes every pending board of the event at once, so the
            # standings of a transaction that changed many boards are computed once.
            if connection.__dict__.get("_boards_to_rescore", (None, None))[1] is boards:
                del connection.__dict__["_boards_to_rescore"]  # sent: the next change starts afresh
            by_event = defaultdict(list)
            unknown = [pk for pk, event in boards.items() if event is None]
            found = Board.objects.filter(pk__in=unknown).values_list("pk", "session__event_id") if unknown else []
            for pending_id, event_id in [*((pk, e) for pk, e in boards.items() if e is not None), *found]:
                by_event[event_id].append(pending_id)
            for event_id in sorted(by_event):
                first, *others = sorted(by_event[event_id])
                if not claim_pass(event_id):
                    continue  # the event's task is waiting: it will take these boards too
                if not enqueue(first):
                    release_pass(event_id)  # not sent: the next change (or the sweep) sends it
                elif others:
                    RecalculationRequest.objects.filter(board_id__in=others, finished_at__isnull=True).update(
                        enqueued_at=timezone.now()
                    )

        state = (flush, boards)
        connection.__dict__["_boards_to_rescore"] = state
        boards[board_id] = event_id
        transaction.on_commit(flush)  # runs at once outside a transaction
        return
    if state[1].get(board_id) is None:
        state[1][board_id] = event_id


# A task waiting this long is taken to be lost (its message dropped): the next change sends another.
PASS_WAIT_LIMIT = SWEEP_AFTER


def claim_pass(event_id):
    """Mark the event's next pass as asked for; True if this call did (the caller sends the
    task), False if a task for it is already waiting, which will take this change too: its pass
    begins by clearing the mark (``begin_pass``), then reads everything pending. A mark older
    than PASS_WAIT_LIMIT is taken for a lost task and claimed again."""
    now = timezone.now()
    stale = Q(queued=False) | Q(queued_at__lt=now - PASS_WAIT_LIMIT)
    if EventPass.objects.filter(stale, event_id=event_id).update(queued=True, queued_at=now):
        return True
    if EventPass.objects.filter(event_id=event_id).exists():
        return False
    try:
        with transaction.atomic():
            EventPass.objects.create(event_id=event_id, queued=True, queued_at=now)
    except IntegrityError:
        return False  # made this instant by another change, which sends the task
    return True


def release_pass(event_id):
    """The task was not sent: the next change to the event must send one."""
    EventPass.objects.filter(event_id=event_id).update(queued=False)


def begin_pass(event_id):
    """Called by the task before it reads what is pending: a change committed from now on sends
    a task of its own; every change committed before is read by this pass."""
    EventPass.objects.filter(event_id=event_id, queued=True).update(queued=False)


# pg_try_advisory_lock's key space for a pass: this number's high bits, the event's id below.
_PASS_LOCK = 0x33 << 48


@contextmanager
def event_pass(event_id):
    """Begin the event's pass (``begin_pass``) and hold it for the duration (PostgreSQL: a
    session advisory lock, let go on exit or when the connection dies): yields False if another
    worker process holds it, and that pass, finishing, sends the task for what it did not take
    (``recalculate_event``). Two processes never work on one event at once, one waiting on the
    other's board locks while other events wait. On SQLite the database's own write lock
    serialises every pass anyway. On PostgreSQL the mark is cleared and the lock tried in one
    statement (the mark first, before anything pending is read, as begin_pass says)."""
    conn = connections[router.db_for_write(Board)]
    if conn.vendor != "postgresql":
        begin_pass(event_id)
        yield True
        return
    passes = conn.ops.quote_name(EventPass._meta.db_table)
    with conn.cursor() as cursor:
        cursor.execute(
            f"WITH begun AS (UPDATE {passes} SET queued = false WHERE event_id = %s AND queued RETURNING 1) "
            "SELECT pg_try_advisory_lock(%s), (SELECT count(*) FROM begun)",
            [event_id, _PASS_LOCK + event_id],
        )
        held = cursor.fetchone()[0]
    try:
        yield held
    finally:
        if held:
            with conn.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [_PASS_LOCK + event_id])


def enqueue(board_id):
    """Send the task; if the broker cannot be reached the request stays in the database and the
    sweep sends it later."""
    try:
        dispatch.send("scoring.tasks.recalculate_board", board_id, retry=False)
    except Exception:  # noqa: BLE001 - any broker failure: the sweep is the safety net
        log.warning("Broker unreachable; board %s will be recalculated by the sweep.", board_id, exc_info=True)
        return False
    update_requests(board_id, enqueued_at=timezone.now())
    return True


@atomic_with_retry
def update_requests(board_id, up_to_version=None, **values):
    """Set ``values`` on the board's unfinished requests (up to a version). The web marks them
    enqueued while a worker marks them finished: both lock the rows in one order (by id) first,
    so the two updates queue instead of deadlocking."""
    rows = RecalculationRequest.objects.filter(board_id=board_id, finished_at__isnull=True)
    if up_to_version is not None:
        rows = rows.filter(version__lte=up_to_version)
    locked = rows.select_for_update().order_by("pk").values("pk")  # in id order, in the statement
    RecalculationRequest.objects.filter(pk__in=Subquery(locked)).update(**values)


def sweep(older_than=SWEEP_AFTER):
    """Re-enqueue every board with a request that no worker finished in time."""
    cutoff = timezone.now() - older_than
    stale = (
        RecalculationRequest.objects.filter(finished_at__isnull=True, created_at__lte=cutoff)
        .values_list("board_id", flat=True)
        .distinct()
    )
    first_by_event: dict[int, int] = {}
    for board_id, event_id in Board.objects.filter(pk__in=set(stale)).values_list("pk", "session__event_id"):
        first_by_event[event_id] = min(board_id, first_by_event.get(event_id, board_id))
    sent = 0
    for board_id in sorted(first_by_event.values()):  # one task an event: it takes all its boards
        sent += enqueue(board_id)
    return sent


def pending_sessions(session_ids):
    """The sessions among ``session_ids`` with a recalculation not yet finished."""
    return set(
        RecalculationRequest.objects.filter(board__session_id__in=session_ids, finished_at__isnull=True)
        .values_list("board__session_id", flat=True)
        .distinct()
    )
