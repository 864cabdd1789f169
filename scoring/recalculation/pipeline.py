"""The task's work: every pending board of an event scored and its standings brought up to date
in one transaction, then the requests it answered closed (see the package's docstring)."""

from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from core.retry import atomic_with_retry
from scoring.models import Board, BoardScore, Event, RecalculationRequest, Result
from scoring.recalculation import queue, standings
from scoring.recalculation.board import (
    COMPARED_VALUES,
    board_values,
    engine_scores,
    plain_board_seats,
    plain_board_values,
    plain_seats,
    regulations,
    session_plays,
)
from scoring.recalculation.diff import (
    changed_board_scores,
    plain_board_moved,
    plain_changes,
    to_compare,
    write_board_scores,
    write_changed_board_scores,
    write_plain_board_scores,
)
from scoring.recalculation.standings import apply_differences, imp_pairs_standings, matchpoint_standings
from scoring.recalculation.teams import team_standings


def recalculate_board(board_id):
    """The whole pipeline for ``board_id``'s event: every board of the event with a change not
    yet scored is scored, and the standings follow once (``recalculate_event``). Returns True
    if any board's scores were rewritten."""
    event_id = Board.objects.filter(pk=board_id).values_list("session__event_id", flat=True).first()
    if event_id is None:
        return False
    return recalculate_event(event_id)


def recalculate_event(event_id):
    """One pass over the event (issue #33): every change made before it began, however many,
    taken at once. The task's mark is cleared first (``queue.begin_pass``: a change from then on
    sends a task of its own, and one before it is read here); then, holding the event's pass
    (``queue.event_pass``: no other worker process works on this event meanwhile), every
    pending board is scored and the standings brought up to date in one transaction
    (``_rescore_pending``), and the requests it answered are closed. A task that finds the pass
    held leaves: the pass that holds it looks, once it has let go, for anything left pending
    (what changed while it worked) and sends the event's task again, to the back of the queue,
    so a busy event never keeps a worker from the others."""
    queue.begin_pass(event_id)
    with queue.event_pass(event_id) as held:
        if not held:
            return False  # another process works on the event: it sends what it leaves
        changed = _pass(event_id)
    first = _first_pending(event_id)
    if first is not None and queue.claim_pass(event_id) and not queue.enqueue(first):
        queue.release_pass(event_id)  # the sweep sends it
    return changed


def _pass(event_id):
    pending = _pending_boards(event_id)
    if not pending:
        return False  # a duplicate or late task: an earlier run finished everything
    return _rescore_pending(event_id, pending)


def _first_pending(event_id):
    """The first board of the event still to score (changed while the pass worked), or None."""
    return (
        Board.objects.filter(session__event_id=event_id, score_version__gt=F("scored_version"))
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )


def _pending_boards(event_id):
    """The event's boards with a change not yet scored or a request not yet closed (one query)."""
    unfinished = RecalculationRequest.objects.filter(board=OuterRef("pk"), finished_at__isnull=True)
    pending = Board.objects.filter(session__event_id=event_id).filter(
        Q(score_version__gt=F("scored_version")) | Exists(unfinished)
    )
    return set(pending.order_by().values_list("pk", flat=True))


def _close_requests(versions):
    """Close the requests the pass answered ({board id: version now scored}), in its transaction:
    their rows locked in id order, as ``queue.update_requests`` locks them (no deadlock with a
    web process marking them sent)."""
    answered = Q()
    for board_id, version in versions.items():
        answered |= Q(board_id=board_id, version__lte=version)
    rows = RecalculationRequest.objects.filter(answered, finished_at__isnull=True)
    ids = list(rows.select_for_update().order_by("pk").values_list("pk", flat=True))
    if ids:
        RecalculationRequest.objects.filter(pk__in=ids).update(finished_at=timezone.now())


@atomic_with_retry
def _rescore_pending(event_id, board_ids):
    """Lock the boards (in id order), then the event; score each board whose version moved,
    writing only the board scores that changed, and update the standings once.

    Pairs events take the incremental road when they can: each board's new scores minus its
    old ones are added to the totals in the standings, the contestants whose session holds an
    artificial score (whose value depends on the rest of the session, Law 12C2c) are totalled
    again from their own board scores, and everything is ranked again in memory. Team events,
    and a board with a result that has no board score yet (a new result, or one whose seats
    were corrected), recompute the standings from every board score; both roads give the same
    standings (a test compares them)."""
    locked = list(
        Board.objects.select_for_update(of=("self",))
        .filter(pk__in=board_ids)
        .order_by("pk")
        .values_list("pk", "score_version", "scored_version", "session_id")
    )
    event = Event.objects.select_for_update(of=("self",)).select_related("tournament__authority").get(pk=event_id)
    stale = [(pk, version) for pk, version, scored, _session in locked if scored < version]
    _close_requests({pk: max(version, scored) for pk, version, scored, _session in locked})  # at the commit
    if not stale:
        return False
    regs = regulations(event)
    boards = {pk: Board(pk=pk, session_id=session_id) for pk, _version, _scored, session_id in locked}
    incremental = not event.is_teams
    matchpoints = event.kind in (Event.Kind.MP_PAIRS, Event.Kind.INDIVIDUAL)
    differences = []  # (session_id, seats on the board, the results to compare) of each board
    plays = {}  # session id: session_plays()
    known = {}  # board id: (session id, seats, values by points) of the boards written plain
    for board_id, version in stale:
        board = boards[board_id]
        if matchpoints and board.session_id not in plays:
            plays[board.session_id] = session_plays(board.session_id)
        expected = plays.get(board.session_id, 0)
        seats, new = plain_board_seats(board) if matchpoints else (None, [])
        if seats is not None and (new or not incremental):
            # New results on a board of plain results (a club's upload): the standings are
            # recomputed whole, so the database writes the board from its distinct scores, and
            # the standings take its values from here rather than read them back.
            scored, by_points = plain_board_values(seats, regs, expected)
            write_plain_board_scores(board, scored, by_points, version, new=new)
            known[board_id] = (board.session_id, seats, by_points)
            incremental = False
            Board.objects.filter(pk=board_id).update(scored_version=version)
            continue
        if seats is not None:
            # Every result plain: scored by distinct score, and the database finds the stored
            # rows that differ, so no model instance, Entry or stored row is made a result.
            scored, by_points = plain_board_values(seats, regs, expected)
            to_update, to_create, compared = plain_changes(plain_board_moved(board, by_points), by_points)
        else:
            stored = BoardScore.objects.filter(result__board=board).order_by()
            old = {bs.result_id: bs for bs in stored.values_list("pk", "result_id", *COMPARED_VALUES, named=True)}
            results = list(Result.objects.filter(board=board).select_related("effective"))
            seats = [(result.pk, result.ns_id, result.ew_id, None) for result in results]
            scored = board_values(results, engine_scores(event, results, regs, expected))
            to_update, to_create = changed_board_scores(scored, old)
            compared = None if to_create else to_compare(seats, scored, old, to_update)
        if to_create:
            incremental = False  # new seats: the fields and the contestants may change
        write_changed_board_scores(board, scored, to_update, to_create, version)
        Board.objects.filter(pk=board_id).update(scored_version=version)
        if incremental:
            differences.append((board.session_id, seats, compared))
    if incremental:
        incremental = apply_differences(event, regs, differences)
    if not incremental:
        # A team event scores again only the matches the changed boards touch (teams.py).
        rescore_event_locked(event, boards=[pk for pk, _version in stale] if event.is_teams else None, known=known)
    return True


@atomic_with_retry
def rescore_board(board_id, force=False, plays=None):
    """Score one board as it now is and write its board scores whole; ``plays``: its session's
    session_plays() when the caller has it (rescore_everything counts it once a session)."""
    board = (
        Board.objects.select_for_update(of=("self",))
        .select_related("session__event__tournament__authority")
        .get(pk=board_id)
    )
    version = board.score_version
    if board.scored_version >= version and not force:
        return False
    event = board.session.event
    regs = regulations(event)
    plays = session_plays(board.session_id) if plays is None else plays
    seats = plain_seats(board) if event.kind in (Event.Kind.MP_PAIRS, Event.Kind.INDIVIDUAL) else None
    if seats is not None:  # every result plain: written by the database from the distinct scores
        scored, by_points = plain_board_values(seats, regs, plays)
        write_plain_board_scores(board, scored, by_points, version, replace=True)
    else:
        results = list(Result.objects.filter(board=board).select_related("effective"))
        write_board_scores(board, board_values(results, engine_scores(event, results, regs, plays)), version)
    board.scored_version = version
    board.save(update_fields=["scored_version"])
    return True


@atomic_with_retry
def rescore_event(event_id):
    """The event's totals, matches and standings from every board score: the full recompute
    (rescore_everything, and the check the incremental road is compared with)."""
    event = Event.objects.select_for_update(of=("self",)).select_related("tournament__authority").get(pk=event_id)
    rescore_event_locked(event)


def rescore_event_locked(event, boards=None, known=None):
    """The event's standings written; ``boards``: for a team event, the boards a pass changed
    (only the matches they touch are scored again), or None for every match; ``known``: the
    boards of plain results the pass wrote, with their values (matchpoint_standings)."""
    if event.is_teams:
        rows = team_standings(event, boards)
    elif event.kind in (Event.Kind.MP_PAIRS, Event.Kind.INDIVIDUAL):
        rows = matchpoint_standings(event, known)
    else:
        rows = imp_pairs_standings(event)
    standings.write_standings(event, rows)  # looked up on the module: one place to watch it


def rescore_everything(event):
    """Score every board of ``event`` now, in this process (demo data, imports, repairs)."""
    plays = {}  # session id: session_plays(), counted once a session
    for board_id, session_id in Board.objects.filter(session__event=event).values_list("pk", "session_id"):
        if session_id not in plays:
            plays[session_id] = session_plays(session_id)
        rescore_board(board_id, force=True, plays=plays[session_id])
    rescore_event(event.pk)
    RecalculationRequest.objects.filter(board__session__event=event, finished_at__isnull=True).update(
        finished_at=timezone.now()
    )
