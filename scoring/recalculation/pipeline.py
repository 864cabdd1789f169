"""The task's work: every pending board of an event scored and its standings brought up to date
in one transaction, then the requests it answered closed (see the package's docstring)."""

from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.utils import timezone

import scoring.recalculation.queue as queue
import scoring.recalculation.standings as standings
from core.retry import atomic_with_retry
from scoring.models import Board, BoardScore, Event, RecalculationRequest, Result
from scoring.recalculation.board import (
    COMPARED_VALUES,
    board_values,
    board_values_of,
    boards_seats,
    engine_scores,
    entry_of,
    entry_scores,
    plain_board_values,
    plain_of,
    plain_seats,
    regulations,
    session_plays,
)
from scoring.recalculation.diff import (
    changed_board_scores,
    plain_board_moved,
    plain_changes,
    to_compare,
    update_rows,
    write_board_scores,
    write_changed_board_scores,
    write_plain_board_scores,
)
from scoring.recalculation.standings import (
    apply_differences,
    imp_pairs_standings,
    matchpoint_standings,
    needs_whole_totals,
)
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
    with queue.event_pass(event_id) as held:  # clears the mark first (queue.begin_pass)
        if not held:
            return False  # another process works on the event: it sends what it leaves
        changed = _pass(event_id)
    first = _first_pending(event_id)
    if first is not None and queue.claim_pass(event_id) and not queue.enqueue(first):
        queue.release_pass(event_id)  # the sweep sends it
    return changed


def _pass(event_id):
    return _rescore_pending(event_id)


def _first_pending(event_id):
    """The first board of the event still to score (changed while the pass worked), or None."""
    return (
        Board.objects.filter(session__event_id=event_id, score_version__gt=F("scored_version"))
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )


def _lock_pending_boards(event_id):
    """Lock the event's boards with a change not yet scored or a request not yet closed, in id
    order, and read them: [(pk, score_version, scored_version, session_id)] (one query)."""
    unfinished = RecalculationRequest.objects.filter(board=OuterRef("pk"), finished_at__isnull=True)
    return list(
        Board.objects.select_for_update(of=("self",))
        .filter(session__event_id=event_id)
        .filter(Q(score_version__gt=F("scored_version")) | Exists(unfinished))
        .order_by("pk")
        .values_list("pk", "score_version", "scored_version", "session_id")
    )


def _close_requests(versions):
    """Close the requests the pass answered ({board id: version now scored}), in its transaction
    and in one statement: their rows locked in id order first (the subquery), as
    ``queue.update_requests`` locks them (no deadlock with a web process marking them sent)."""
    answered = Q()
    for board_id, version in versions.items():
        answered |= Q(board_id=board_id, version__lte=version)
    rows = RecalculationRequest.objects.filter(answered, finished_at__isnull=True)
    locked = rows.select_for_update().order_by("pk").values("pk")
    RecalculationRequest.objects.filter(pk__in=Subquery(locked)).update(finished_at=timezone.now())


@atomic_with_retry
def _rescore_pending(event_id):
    """Lock the event's pending boards (in id order), then the event; score each board whose
    version moved, writing only the board scores that changed, and update the standings once.
    Returns False when no board had a change to score (a duplicate or late task).

    The pass's queries do not grow with the boards it scores: every changed board's results
    are read in one query, the stored board scores of those with an adjusted score in another
    (a board of plain results has the database compare them: one query a board), and the
    board scores, change log and boards are written in one statement each.

    Pairs events take the incremental road when they can: each board's new scores minus its
    old ones are added to the totals in the standings, the contestants whose session holds an
    artificial score (whose value depends on the rest of the session, Law 12C2c) are totalled
    again from their own board scores, and everything is ranked again in memory. Team events,
    and a board with a result that has no board score yet (a new result, or one whose seats
    were corrected), recompute the standings from every board score; both roads give the same
    standings (a test compares them)."""
    locked = _lock_pending_boards(event_id)
    if not locked:
        return False  # a duplicate or late task: an earlier run finished everything
    event = Event.objects.select_for_update(of=("self",)).select_related("tournament__authority").get(pk=event_id)
    stale = [(pk, version, session_id) for pk, version, scored, session_id in locked if scored < version]
    _close_requests({pk: max(version, scored) for pk, version, scored, _session in locked})  # at the commit
    if not stale:
        return False
    regs = regulations(event)
    matchpoints = event.kind in (Event.Kind.MP_PAIRS, Event.Kind.INDIVIDUAL)
    plays = {session_id: session_plays(session_id) for session_id in {s for _pk, _v, s in stale}} if matchpoints else {}
    seats_of = boards_seats([pk for pk, _version, _session in stale])
    plain = {pk: plain_of(seats_of.get(pk, [])) for pk, _version, _session in stale} if matchpoints else {}
    stored = _stored_scores([pk for pk, _version, _session in stale if plain.get(pk, (None,))[0] is None])
    incremental = not event.is_teams and not needs_whole_totals(regs)
    differences = []  # (session_id, seats on the board, the results to compare) of each board
    known = {}  # board id: (session id, seats, values by points) of the boards written plain
    to_update, to_create = [], []  # of every board: [(pk, values, version)], [(result id, values, version)]
    for board_id, version, session_id in stale:
        expected = plays.get(session_id, 0)
        seats, new = plain.get(board_id, (None, []))
        if seats is not None and (new or not incremental):
            # New results on a board of plain results (a club's upload): the standings are
            # recomputed whole, so the database writes the board from its distinct scores, and
            # the standings take its values from here rather than read them back.
            scored, by_points = plain_board_values(seats, regs, expected)
            write_plain_board_scores(Board(pk=board_id), scored, by_points, version, new=new)
            known[board_id] = (session_id, seats, by_points)
            incremental = False
            continue
        if seats is not None:
            # Every result plain: scored by distinct score, and the database finds the stored
            # rows that differ, so no Entry or stored row is made a result.
            scored, by_points = plain_board_values(seats, regs, expected)
            updated, created, compared = plain_changes(plain_board_moved(Board(pk=board_id), by_points), by_points)
        else:
            rows = seats_of.get(board_id, [])
            entries = [
                entry_of(pk, points, not_played, adjusted) for pk, _n, _e, points, not_played, adjusted, _s in rows
            ]
            seats = [(pk, ns_id, ew_id, None) for pk, ns_id, ew_id, *_rest in rows]
            scored = board_values_of([pk for pk, *_rest in rows], entry_scores(event, entries, regs, expected))
            updated, created = changed_board_scores(scored, stored)
            compared = None if created else to_compare(seats, scored, stored, updated)
        if created:
            incremental = False  # new seats: the fields and the contestants may change
        to_update += [(pk, values, version) for pk, _result_id, values in updated]
        to_create += [(result_id, values, version) for result_id, values in created]
        if incremental:
            differences.append((session_id, seats, compared))
    write_changed_board_scores(to_update, to_create, [pk for pk, _version, _session in stale if pk not in known])
    update_rows(Board, ("scored_version",), [(pk, version) for pk, version, _session in stale])
    if incremental:
        incremental = apply_differences(event, regs, differences)
    if not incremental:
        # A team event scores again only the matches the changed boards touch (teams.py).
        rescore_event_locked(
            event, boards=[pk for pk, _version, _session in stale] if event.is_teams else None, known=known
        )
    return True


def _stored_scores(board_ids):
    """{result id: (pk, result_id, *COMPARED_VALUES)} of the stored board scores of the boards
    (one query), as changed_board_scores and to_compare compare them."""
    if not board_ids:
        return {}
    stored = BoardScore.objects.filter(result__board_id__in=board_ids).order_by()
    return {bs.result_id: bs for bs in stored.values_list("pk", "result_id", *COMPARED_VALUES, named=True)}


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
        scores = engine_scores(event, results, regs, plays)
        write_board_scores(board, board_values(results, scores), version)
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
