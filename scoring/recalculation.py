"""The recalculation pipeline: board -> session and event totals -> rankings.

Every step reads the current state and writes the scores that state implies, so it is safe to
run twice, late or out of order:

- a change bumps ``Board.score_version`` and writes a ``RecalculationRequest`` in the same
  transaction (``mark_board_dirty``); the task is enqueued when that transaction commits;
- ``rescore_board`` locks the board, and does nothing if the version it finds was already
  scored; otherwise it scores the board as it now is and records that version;
- ``rescore_event`` recomputes the event's totals, the session rule for artificial scores,
  team matches and VPs, and the rankings, from the board scores, under a lock on the event;
- requests are marked finished only after both steps, so a worker killed in between leaves
  them for the sweep, which re-enqueues anything no worker finished.

Lock order, the same in every transaction that takes more than one of these locks: the board
(``lock_board``), then its results (``lock_result``, FOR NO KEY UPDATE, so the worker's board
scores can still reference them), then the event (``rescore_event``, in a transaction of its
own), then the audit head (``audit.services.record``, always last). A service that took a
result before its board would deadlock with ``rescore_board``, which holds the board while
its new board scores' foreign keys wait for the results. Each of these transactions is also
retried when the database aborts it for a conflict anyway (``scoring.retry``).
"""

import dataclasses
import logging
from collections import defaultdict, namedtuple
from datetime import timedelta
from decimal import Decimal
from fractions import Fraction

from django.conf import settings
from django.db import connections, router, transaction
from django.db.models import F, Q
from django.utils import timezone

from bridge.engine import imps as imp_engine
from bridge.engine import matchpoints as mp_engine
from bridge.engine.ranking import rank
from bridge.engine.rounding import exact_str
from bridge.engine.scores import EngineInputError, Entry, parse_result
from bridge.engine.vp import vp_for_margin
from scoring import dispatch, vp_scales
from scoring.models import (
    Board,
    BoardScore,
    Event,
    Match,
    MatchPenalty,
    MatchScore,
    RecalculationRequest,
    Result,
    ScoreChange,
    Standing,
)
from scoring.retry import atomic_with_retry

log = logging.getLogger(__name__)

FOUR = Decimal("0.0001")
THREE = Decimal("0.001")  # percentages
# A request no worker finished this long after it was made is sent again by the sweep.
SWEEP_AFTER = timedelta(seconds=settings.RECALCULATION_SWEEP_AFTER_SECONDS)
# The regulation's words for rounding a Butler datum that ends in 5, in the engine's words.
BUTLER_HALF = {"half-up": "up", "half-down": "down", "half-even": "even", "half-away": "away"}


def _q(value, places=FOUR):
    """A Fraction (or number) as a Decimal rounded for storage; the exact value is kept too."""
    if value is None:
        return None
    if isinstance(value, Fraction):
        return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(places)
    return Decimal(value).quantize(places)


# --- Marking work -----------------------------------------------------------------------


def lock_board(board_id):
    """Take ``board_id``'s row lock: first, before any of its results (see the lock order above)."""
    # No ordering: Board's default one joins the tournament, and FOR UPDATE would lock those rows too.
    list(Board.objects.select_for_update(of=("self",)).filter(pk=board_id).order_by().values_list("pk", flat=True))


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
    Board.objects.filter(pk=board.pk).update(score_version=F("score_version") + 1)
    version = Board.objects.values_list("score_version", flat=True).get(pk=board.pk)
    RecalculationRequest.objects.create(board=board, version=version)
    _enqueue_on_commit(board.pk)
    return version


def _enqueue_on_commit(board_id):
    # One task per board per transaction, however many of its results the transaction changed.
    # The set lives as long as its on_commit callback: after a rollback Django drops the
    # callback, and the next change starts a fresh set.
    connection = transaction.get_connection()
    state = connection.__dict__.get("_boards_to_rescore")
    if state is None or not any(callback is state[0] for _sids, callback, _robust in connection.run_on_commit):
        boards = set()

        def flush():
            # One task per event: it takes every pending board of the event at once, so the
            # standings of a transaction that changed many boards are computed once.
            if connection.__dict__.get("_boards_to_rescore", (None, None))[1] is boards:
                del connection.__dict__["_boards_to_rescore"]  # sent: the next change starts afresh
            by_event = defaultdict(list)
            for pending_id, event_id in Board.objects.filter(pk__in=boards).values_list("pk", "session__event_id"):
                by_event[event_id].append(pending_id)
            for event_id in sorted(by_event):
                first, *others = sorted(by_event[event_id])
                if enqueue(first) and others:
                    RecalculationRequest.objects.filter(board_id__in=others, finished_at__isnull=True).update(
                        enqueued_at=timezone.now()
                    )

        state = (flush, boards)
        connection.__dict__["_boards_to_rescore"] = state
        boards.add(board_id)
        transaction.on_commit(flush)  # runs at once outside a transaction
        return
    state[1].add(board_id)


def enqueue(board_id):
    """Send the task; if the broker cannot be reached the request stays in the database and the
    sweep sends it later."""
    try:
        dispatch.send("scoring.tasks.recalculate_board", board_id, retry=False)
    except Exception:  # noqa: BLE001 - any broker failure: the sweep is the safety net
        log.warning("Broker unreachable; board %s will be recalculated by the sweep.", board_id, exc_info=True)
        return False
    _update_requests(board_id, enqueued_at=timezone.now())
    return True


@atomic_with_retry
def _update_requests(board_id, up_to_version=None, **values):
    """Set ``values`` on the board's unfinished requests (up to a version). The web marks them
    enqueued while a worker marks them finished: both lock the rows in one order (by id) first,
    so the two updates queue instead of deadlocking."""
    rows = RecalculationRequest.objects.filter(board_id=board_id, finished_at__isnull=True)
    if up_to_version is not None:
        rows = rows.filter(version__lte=up_to_version)
    ids = list(rows.select_for_update().order_by("pk").values_list("pk", flat=True))
    RecalculationRequest.objects.filter(pk__in=ids).update(**values)


def sweep(older_than=SWEEP_AFTER):
    """Re-enqueue every board with a request that no worker finished in time."""
    cutoff = timezone.now() - older_than
    stale = (
        RecalculationRequest.objects.filter(finished_at__isnull=True, created_at__lte=cutoff)
        .values_list("board_id", flat=True)
        .distinct()
    )
    first_by_event = {}
    for board_id, event_id in Board.objects.filter(pk__in=set(stale)).values_list("pk", "session__event_id"):
        first_by_event[event_id] = min(board_id, first_by_event.get(event_id, board_id))
    sent = 0
    for board_id in sorted(first_by_event.values()):  # one task an event: it takes all its boards
        sent += enqueue(board_id)
    return sent


# --- The task's work ----------------------------------------------------------------------


def recalculate_board(board_id):
    """The whole pipeline for ``board_id``'s event: every board of the event with a change not
    yet scored is scored, and the standings follow once (``recalculate_event``). Returns True
    if any board's scores were rewritten."""
    event_id = Board.objects.filter(pk=board_id).values_list("session__event_id", flat=True).first()
    if event_id is None:
        return False
    return recalculate_event(event_id)


def recalculate_event(event_id):
    """Score every pending board of the event and bring its standings up to date, in one
    transaction (``_rescore_pending``); then close the requests it answered."""
    pending = _pending_boards(event_id)
    if not pending:
        return False  # a duplicate or late task: an earlier run finished everything
    changed = _rescore_pending(event_id, pending)
    versions = dict(Board.objects.filter(pk__in=pending).values_list("pk", "scored_version"))
    now = timezone.now()
    for board_id in sorted(pending):
        _update_requests(board_id, up_to_version=versions[board_id], finished_at=now)
    again = Board.objects.filter(pk__in=pending, score_version__gt=F("scored_version")).order_by("pk")
    first = again.values_list("pk", flat=True).first()
    if first is not None:
        enqueue(first)  # changed again while we worked
    return changed


def _pending_boards(event_id):
    stale = Board.objects.filter(session__event_id=event_id, score_version__gt=F("scored_version"))
    unfinished = RecalculationRequest.objects.filter(board__session__event_id=event_id, finished_at__isnull=True)
    return set(stale.values_list("pk", flat=True)) | set(unfinished.values_list("board_id", flat=True))


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
        .values_list("pk", "score_version", "scored_version")
    )
    event = Event.objects.select_for_update(of=("self",)).select_related("tournament__authority").get(pk=event_id)
    stale = [(pk, version) for pk, version, scored in locked if scored < version]
    if not stale:
        return False
    regs = _regulations(event)
    boards = {b.pk: b for b in Board.objects.filter(pk__in=[pk for pk, _v in stale])}
    incremental = not event.is_teams
    matchpoints = event.kind in (Event.Kind.MP_PAIRS, Event.Kind.INDIVIDUAL)
    differences = []  # (session_id, seats on the board, the results to compare) of each board
    for board_id, version in stale:
        board = boards[board_id]
        seats = _plain_seats(board) if matchpoints else None
        if seats is not None:
            # Every result plain: scored by distinct score, and the database finds the stored
            # rows that differ, so no model instance, Entry or stored row is made a result.
            scored, by_points = _plain_board_values(seats, regs)
            to_update, to_create, compared = plain_changes(plain_board_moved(board, by_points), by_points)
        else:
            stored = BoardScore.objects.filter(result__board=board).order_by()
            old = {bs.result_id: bs for bs in stored.values_list("pk", "result_id", *COMPARED_VALUES, named=True)}
            results = list(Result.objects.filter(board=board).select_related("effective"))
            seats = [(result.pk, result.ns_id, result.ew_id, None) for result in results]
            scored = _board_values(results, _board_scores(event, results, regs))
            to_update, to_create = changed_board_scores(scored, old)
            compared = None if to_create else _to_compare(seats, scored, old, to_update)
        if to_create:
            incremental = False  # new seats: the fields and the contestants may change
        _write_changed_board_scores(board, scored, to_update, to_create, version)
        Board.objects.filter(pk=board_id).update(scored_version=version)
        if incremental:
            differences.append((board.session_id, seats, compared))
    if incremental:
        incremental = _apply_differences(event, regs, differences)
    if not incremental:
        _rescore_event_locked(event)
    return True


def _board_scores(event, results, regs):
    if event.is_teams:
        return {}  # team boards are scored per match in rescore_event
    if event.kind in (Event.Kind.MP_PAIRS, Event.Kind.INDIVIDUAL):
        return _matchpoint_board(event, results, regs)
    return _imp_pairs_board(event, results, regs)


@atomic_with_retry
def rescore_board(board_id, force=False):
    board = (
        Board.objects.select_for_update(of=("self",))
        .select_related("session__event__tournament__authority")
        .get(pk=board_id)
    )
    version = board.score_version
    if board.scored_version >= version and not force:
        return False
    event = board.session.event
    results = list(Result.objects.filter(board=board).select_related("effective"))
    scores = _board_scores(event, results, _regulations(event))
    _write_board_scores(board, _board_values(results, scores), version)
    board.scored_version = version
    board.save(update_fields=["scored_version"])
    return True


def entry_for(result, where=None):
    """The engine's view of a result: its effective score if it has one, else its table score;
    None if it was not played and has no adjusted score."""
    effective = getattr(result, "effective", None) if _has_effective(result) else None
    if effective is None:
        if result.not_played or result.score_ns is None:
            return None
        return Entry.balanced(result.pk, result.score_ns)
    data = {"id": result.pk, "ns": effective.score.get("ns") if effective.score else result.score_ns}
    if effective.score and effective.score.get("ew") is not None:
        data["ew"] = effective.score["ew"]
    if data["ns"] is None:
        return None
    if effective.penalty:
        data["penalty"] = effective.penalty
    if effective.outside_agency:
        data["outside_agency"] = True
    return parse_result(data, where=where or f"result {result.pk}", max_components=10)


_EFFECTIVE = Result.effective  # the reverse one-to-one descriptor


def _has_effective(result):
    # Read with select_related("effective"), a result without one has None cached: look there
    # rather than raise and catch RelatedObjectDoesNotExist 500 times a board.
    if _EFFECTIVE.is_cached(result):
        return _EFFECTIVE.related.get_cached_value(result) is not None
    try:
        return result.effective is not None
    except _EFFECTIVE.RelatedObjectDoesNotExist:
        return False


def _regulations(event):
    return event.regulations()  # the tournament's, with the event's own VP scale


def _matchpoint_board(event, results, regs=None):
    regs = regs or _regulations(event)
    averages = (Fraction(regs["average_plus_percent"]), Fraction(50), Fraction(regs["average_minus_percent"]))
    entries = [e for e in (entry_for(r) for r in results) if e is not None]
    if not entries:
        return {}
    board = mp_engine.score_board(
        entries, expected=max(len(results), len(entries)), scale=regs["matchpoint_scale"], averages=averages
    )
    scores = {}
    top, zero, percents = board.top, Fraction(0), {}

    def percent(value):  # as BoardScore.percent: 50 when the top is 0 (one result)
        key = (value.numerator, value.denominator)  # cheaper to hash than the Fraction
        if key not in percents:
            percents[key] = value * 100 / top if top else Fraction(50)
        return percents[key]

    # Whole columns at once (the engine's quick way); a plain result is real and unpenalised, so
    # only the others need their SideBoard for the session rule's kind, raw value and penalty.
    # Plain results with the same matchpoints share one dict, which _board_values rounds once.
    shared = {}
    for entry, ns, ew in zip(board.entries, board.column("NS"), board.column("EW"), strict=True):
        if entry.plain is not None:
            key = (ns.numerator, ns.denominator, ew.numerator, ew.denominator)
            values = shared.get(key)
            if values is None:
                values = shared[key] = {
                    "ns": ns,
                    "ew": ew,
                    "ns_percent": percent(ns),
                    "ew_percent": percent(ew),
                    "top": top,
                    "ns_kind": "real",
                    "ew_kind": "real",
                    "ns_raw": ns,
                    "ew_raw": ew,
                    "ns_penalty": zero,
                    "ew_penalty": zero,
                }
            scores[entry.id] = values
            continue
        ns_side, ew_side = board.side_board(entry.id, "NS"), board.side_board(entry.id, "EW")
        scores[entry.id] = {
            "ns": ns,
            "ew": ew,
            "ns_percent": percent(ns),
            "ew_percent": percent(ew),
            "top": top,
            "ns_kind": ns_side.kind,
            "ew_kind": ew_side.kind,
            "ns_raw": ns_side.matchpoints,
            "ew_raw": ew_side.matchpoints,
            "ns_penalty": ns_side.penalty,
            "ew_penalty": ew_side.penalty,
        }
    return scores


def _imp_pairs_board(event, results, regs=None):
    regs = regs or _regulations(event)
    entries = [e for e in (entry_for(r) for r in results) if e is not None]
    if not entries:
        return {}
    if event.kind == Event.Kind.IMP_PAIRS_BUTLER:
        half = BUTLER_HALF[regs["butler_rounding"]]
        scored = imp_engine.butler(
            entries, drop=regs["butler_drop"], half=half, artificial_imps=regs["average_plus_imps"]
        ).scores
    else:
        scored = imp_engine.cross_imps(entries, artificial_imps=regs["average_plus_imps"])
    return {entry_id: {"ns": ns, "ew": ew, "top": None} for entry_id, (ns, ew) in scored.items()}


# What a board score holds besides its result. The first nine determine the other four (the
# rounded matchpoints and percentages are functions of the exact values and the top), so the
# rows a change moved are found by comparing those nine with the stored ones (COMPARED_VALUES;
# a full recompute writes every column again).
BOARD_SCORE_VALUES = (
    "ns_exact",
    "ew_exact",
    "top",
    "ns_kind",
    "ew_kind",
    "ns_raw",
    "ew_raw",
    "ns_penalty",
    "ew_penalty",
    "ns",
    "ew",
    "ns_percent",
    "ew_percent",
)
COMPARED_VALUES = BOARD_SCORE_VALUES[:9]
_COMPARED = len(COMPARED_VALUES)

# The position of each value in a board score's values (BOARD_SCORE_VALUES' order).
NS_EXACT, EW_EXACT, TOP, NS_KIND, EW_KIND, NS_RAW, EW_RAW, NS_PENALTY, EW_PENALTY, NS, EW = range(11)

# A result not scored (not played, no adjusted score): no values, kinds "real".
_UNSCORED = ("", "", None, "real", "real", "", "", "", "", None, None, None, None)


class _Rounding:
    """Each exact value rounded for its column and written out exactly, once: the same few
    values recur on a board."""

    def __init__(self):
        self.memo, self.percents = {}, {}

    def both(self, value, places=FOUR):
        # Keyed by integers: a Fraction's own hash costs a modular inverse.
        key = (value.numerator, value.denominator, places) if value is not None else (None, None, places)
        made = self.memo.get(key)
        if made is None:
            made = self.memo[key] = (_q(value, places), exact_str(value) if value is not None else "")
        return made

    def percent(self, value):
        """A percentage rounded for its column (it keeps no exact text)."""
        key = (value.numerator, value.denominator) if value is not None else None
        made = self.percents.get(key)
        if made is None:
            made = self.percents[key] = _q(value, THREE)
        return made

    def values(self, values):
        """A board score's values (BOARD_SCORE_VALUES' order) from the engine's for a result."""
        both = self.both
        (ns, ns_exact), (ew, ew_exact) = both(values["ns"]), both(values["ew"])
        return (
            ns_exact,
            ew_exact,
            both(values.get("top"))[0],
            values.get("ns_kind", "real"),
            values.get("ew_kind", "real"),
            both(values["ns_raw"])[1] if "ns_raw" in values else "",
            both(values["ew_raw"])[1] if "ew_raw" in values else "",
            both(values["ns_penalty"])[1] if values.get("ns_penalty") else "",
            both(values["ew_penalty"])[1] if values.get("ew_penalty") else "",
            ns,
            ew,
            self.percent(values.get("ns_percent")),
            self.percent(values.get("ew_percent")),
        )


def _board_values(results, scores):
    """(result id, board score values) for every result of the board, in the order of
    ``results``; results with the same scores share one values tuple."""
    rounding, made, scored = _Rounding(), {}, []
    for result in results:
        values = scores.get(result.pk)
        if values is None:
            scored.append((result.pk, _UNSCORED))
            continue
        # plain results with the same score share one values dict (_matchpoint_board)
        pair = made.get(id(values))
        if pair is None:
            pair = made[id(values)] = (values, rounding.values(values))
        scored.append((result.pk, pair[1]))
    return scored


def _plain_seats(board):
    """[(result id, N-S id, E-W id, N-S points or None if not played)] of every result of
    the board, or None when one has an adjusted score (the board then takes the road of
    model instances and entries)."""
    seats = list(
        Result.objects.filter(board=board)
        .order_by()
        .values_list("pk", "ns_id", "ew_id", "score_ns", "not_played", "effective__id")
    )
    if any(effective is not None for *_rest, effective in seats):
        return None
    return [(pk, ns_id, ew_id, None if not_played else points) for pk, ns_id, ew_id, points, not_played, _e in seats]


_FIFTY = _q(Fraction(50), THREE)


def _percent_of(value, top):
    """``value`` as a percentage of ``top`` rounded for its column (50 when the top is 0: one
    result): the same Decimal as _q(value * 100 / top), with no Fraction made."""
    if not top:
        return _FIFTY
    num, den = value.numerator * 100 * top.denominator, value.denominator * top.numerator
    return (Decimal(num) / Decimal(den)).quantize(THREE)


def _plain_board_values(seats, regs):
    """([(result id, board score values)] of every seat of a board of plain results, {points:
    values}): the engine scores each distinct score once (score_plain_board), and the values
    of the results with that score are one shared tuple."""
    played = [points for _pk, _ns, _ew, points in seats if points is not None]
    board = mp_engine.score_plain_board(played, expected=max(len(seats), 1), scale=regs["matchpoint_scale"])
    both, top = _Rounding().both, board.top
    top_q, by_points = both(top)[0], {}
    for points, ns, ew in zip(board.points, board.ns, board.ew, strict=True):
        (ns_q, ns_exact), (ew_q, ew_exact) = both(ns), both(ew)
        # as _board_values makes them from _matchpoint_board's values of a plain result
        by_points[points] = (
            ns_exact,
            ew_exact,
            top_q,
            "real",
            "real",
            ns_exact,
            ew_exact,
            "",
            "",
            ns_q,
            ew_q,
            _percent_of(ns, top),
            _percent_of(ew, top),
        )
    return [(pk, _UNSCORED if points is None else by_points[points]) for pk, _ns, _ew, points in seats], by_points


# A stored board score as plain_board_moved reads it: as values_list("pk", "result_id",
# *COMPARED_VALUES, named=True) gives it on the other road.
_Stored = namedtuple("_Stored", ["pk", "result_id", *COMPARED_VALUES])  # type: ignore[misc]


def plain_board_moved(board, by_points):
    """The results of a board of plain results whose stored board score differs from the new
    values ``by_points`` ({N-S points: values}; a result not played has none), or that have
    no stored board score: [(result id, N-S id, E-W id, N-S points or None, stored row as
    _Stored or None)]. The database compares every row (a join of the results' points to the
    few distinct values), so only the rows a change moved come back to Python."""
    conn = connections[router.db_for_write(BoardScore)]
    qn = conn.ops.quote_name
    results, scores = qn(Result._meta.db_table), qn(BoardScore._meta.db_table)
    postgres = conn.vendor == "postgresql"
    rows = [(points, values[NS_EXACT], values[EW_EXACT]) for points, values in by_points.items()] or [
        (None, None, None)  # no result played: a row that joins nothing
    ]
    if postgres:
        values_sql = ", ".join(["(%s::integer, %s::text, %s::text)"] * len(rows))
        source = f"(VALUES {values_sql}) AS v(points, ns_exact, ew_exact)"
        points_col, ns_col, ew_col, differs = "v.points", "v.ns_exact", "v.ew_exact", "IS DISTINCT FROM"
        top_param = "%s::numeric"
    else:  # SQLite names the columns of VALUES column1, column2, ...
        values_sql = ", ".join(["(%s, %s, %s)"] * len(rows))
        source = f"(VALUES {values_sql}) AS v"
        points_col, ns_col, ew_col, differs = "v.column1", "v.column2", "v.column3", "IS NOT"
        top_param = "%s"
    top = next(iter(by_points.values()))[TOP] if by_points else None
    stored = ", ".join(f"bs.{qn(BoardScore._meta.get_field(name).column)}" for name in COMPARED_VALUES)
    sql = f"""
        SELECT r.id, r.ns_id, r.ew_id, {points_col}, bs.id, {stored}
        FROM {results} AS r
        LEFT JOIN {scores} AS bs ON bs.result_id = r.id
        LEFT JOIN {source} ON {points_col} = r.score_ns AND NOT r.not_played
        WHERE r.board_id = %s AND (
            bs.id IS NULL
            OR bs.ns_exact {differs} COALESCE({ns_col}, '') OR bs.ew_exact {differs} COALESCE({ew_col}, '')
            OR bs.ns_raw {differs} COALESCE({ns_col}, '') OR bs.ew_raw {differs} COALESCE({ew_col}, '')
            OR bs.top {differs} (CASE WHEN {points_col} IS NULL THEN NULL ELSE {top_param} END)
            OR bs.ns_kind <> 'real' OR bs.ew_kind <> 'real' OR bs.ns_penalty <> '' OR bs.ew_penalty <> ''
        )
    """
    params = [value for row in rows for value in row] + [board.pk, top]  # in the order of the SQL
    with conn.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    return [
        (result_id, ns_id, ew_id, points, None if pk is None else _Stored(pk, result_id, *stored_values))
        for result_id, ns_id, ew_id, points, pk, *stored_values in found
    ]


def plain_changes(moved, by_points):
    """(rows to update, rows to insert, what _apply_differences compares) from the rows
    plain_board_moved found, as changed_board_scores and _to_compare give them."""
    to_update, to_create, compared = [], [], []
    for result_id, ns_id, ew_id, points, before in moved:
        values = by_points[points] if points is not None else _UNSCORED
        if before is None:
            to_create.append((result_id, values))
        else:
            to_update.append((before.pk, result_id, values))
            compared.append((ns_id, ew_id, before, values))
    return to_update, to_create, compared


def changed_board_scores(scored, old):
    """(rows to update, rows to insert): of the computed ``scored`` [(result id, values)], the
    ``(pk, result id, values)`` whose values differ from the stored ``old`` ({result id:
    (pk, result_id, *COMPARED_VALUES)}), and the ``(result id, values)`` with no stored row."""
    to_update, to_create = [], []
    get = old.get
    for result_id, values in scored:
        before = get(result_id)
        if before is None:
            to_create.append((result_id, values))
        elif before[2:] != values[:_COMPARED]:
            to_update.append((before[0], result_id, values))
    return to_update, to_create


def _new_board_score(result_id, values, version):
    return BoardScore(result_id=result_id, board_version=version, **dict(zip(BOARD_SCORE_VALUES, values)))


def _write_board_scores(board, scored, version):
    """Replace the board's scores. Delete-and-insert in the board's transaction: nothing refers
    to a BoardScore row, and Django's bulk_update is far slower for hundreds of rows."""
    BoardScore.objects.filter(result__board=board).delete()
    BoardScore.objects.bulk_create(
        [_new_board_score(result_id, values, version) for result_id, values in scored], batch_size=1000
    )
    _complete_change_log(board, scored, version)


def _write_changed_board_scores(board, scored, to_update, to_create, version):
    """Write only the board scores whose values moved (one set-based UPDATE a batch) and insert
    the missing ones; ``board_version`` is the version a row was last written for."""
    fields = (*BOARD_SCORE_VALUES, "board_version")
    update_rows(BoardScore, fields, [(pk, *values, version) for pk, _result_id, values in to_update])
    if to_create:
        BoardScore.objects.bulk_create(
            [_new_board_score(result_id, values, version) for result_id, values in to_create], batch_size=1000
        )
    _complete_change_log(board, scored, version)


def _to_compare(seats, scored, old, to_update):
    """What _apply_differences looks at on one board: (N-S id, E-W id, stored row, values) of
    each result whose values moved, and of each holding an artificial score before or after
    (its side is totalled again even when the board did not move it). (On a board of plain
    results nothing holds one now, and a result that held one has moved: _rescore_pending
    looks at the moved rows alone.)"""
    moved = {result_id for _pk, result_id, _values in to_update}
    return [
        (ns_id, ew_id, old[result_id], values)
        for (result_id, ns_id, ew_id, _points), (_id, values) in zip(seats, scored, strict=True)
        if result_id in moved
        or values[NS_KIND] in ARTIFICIAL
        or values[EW_KIND] in ARTIFICIAL
        or old[result_id].ns_kind in ARTIFICIAL
        or old[result_id].ew_kind in ARTIFICIAL
    ]


def update_rows(model, fields, rows, batch_size=1000):
    """Set ``fields`` of many rows, each given as ``(pk, value of each field)``, in one statement a
    batch: ``UPDATE ... FROM unnest(arrays)`` on PostgreSQL (one array a column: the driver's
    work grows with the placeholders), ``UPDATE ... FROM (VALUES ...)`` on SQLite. Django's
    ``bulk_update`` writes a CASE over every pk for each field instead, which grows with the
    square of the rows."""
    if not rows:
        return
    conn = connections[router.db_for_write(model)]
    table, qn = model._meta.db_table, conn.ops.quote_name
    model_fields = [model._meta.get_field(name) for name in fields]
    pk_column = qn(model._meta.pk.column)
    names = ", ".join(["id", *(f"c{i}" for i in range(len(model_fields)))])
    for start in range(0, len(rows), batch_size):
        batch = rows[start : start + batch_size]
        if conn.vendor == "postgresql":
            casts = [model._meta.pk.cast_db_type(conn), *(f.cast_db_type(conn) for f in model_fields)]
            arrays = ", ".join(f"%s::{cast}[]" for cast in casts)
            sets = ", ".join(f"{qn(f.column)} = v.c{i}" for i, f in enumerate(model_fields))
            sql = f"UPDATE {qn(table)} AS t SET {sets} FROM unnest({arrays}) AS v({names}) WHERE t.{pk_column} = v.id"
            params = [list(column) for column in zip(*batch)]
        else:  # SQLite names the columns of VALUES column1, column2, ...
            row = "(" + ", ".join(["%s"] * (len(model_fields) + 1)) + ")"
            sets = ", ".join(f"{qn(f.column)} = v.column{i + 2}" for i, f in enumerate(model_fields))
            sql = (
                f"UPDATE {qn(table)} SET {sets} FROM (VALUES {', '.join([row] * len(batch))}) AS v "
                f"WHERE {qn(table)}.{pk_column} = v.column1"
            )
            params = [value for values in batch for value in values]
        with conn.cursor() as cursor:
            cursor.execute(sql, params)


def _complete_change_log(board, scored, version):
    """Fill in what each logged change did to the board scores, once they are known."""
    pending = list(ScoreChange.objects.filter(result__board=board, ns_after__isnull=True, board_version__lte=version))
    if not pending:
        return
    scores = dict(scored)
    for change in pending:
        values = scores.get(change.result_id)
        if values is None or values[NS] is None:
            continue
        change.ns_after, change.ew_after = values[NS], values[EW]
        change.save(update_fields=["ns_after", "ew_after"])


# --- Event totals -------------------------------------------------------------------------


@atomic_with_retry
def rescore_event(event_id):
    """The event's totals, matches and standings from every board score: the full recompute
    (rescore_everything, and the check the incremental road is compared with)."""
    event = Event.objects.select_for_update(of=("self",)).select_related("tournament__authority").get(pk=event_id)
    _rescore_event_locked(event)


def _rescore_event_locked(event):
    if event.is_teams:
        rows = _team_standings(event)
    elif event.kind in (Event.Kind.MP_PAIRS, Event.Kind.INDIVIDUAL):
        rows = _matchpoint_standings(event)
    else:
        rows = _imp_pairs_standings(event)
    _write_standings(event, rows)


def _matchpoint_standings(event):
    """Per session, each side's total with the session rule; the event total sums sessions.

    Reads plain tuples, not model objects: a 1,000-pair event has 13,000 board scores."""
    regs = _regulations(event)
    plus, minus = Fraction(regs["average_plus_percent"]), Fraction(regs["average_minus_percent"])
    sides = _side_boards(BoardScore.objects.filter(result__board__session__event=event, ns__isnull=False))
    rows, refreshed = [], defaultdict(dict)
    for (session_id, contestant_id), items in sides.items():
        session = _session_rule(items, plus, minus, refreshed)
        rows.append((session_id, contestant_id, session.matchpoints, session.top, len(items)))
    _write_refreshed(refreshed)
    return _with_event_totals(rows)


def _side_boards(board_scores):
    """{(session, contestant): [(board score pk, "ns" or "ew", stored value, SideBoard)]}."""
    scores = board_scores.values_list(
        "pk",
        "ns",
        "ew",
        "top",
        "ns_kind",
        "ew_kind",
        "ns_raw",
        "ew_raw",
        "ns_penalty",
        "ew_penalty",
        "result__ns_id",
        "result__ew_id",
        "result__board__session_id",
    )
    fractions = {}  # the same few strings recur: parse each once

    def exact(text):
        value = fractions.get(text)
        if value is None:
            value = fractions[text] = Fraction(text or 0)
        return value

    sides = defaultdict(list)  # (session, contestant) -> [(pk, stored value, SideBoard)]
    for pk, ns, ew, top, ns_kind, ew_kind, ns_raw, ew_raw, ns_pen, ew_pen, ns_id, ew_id, session_id in scores:
        top = exact(str(top))
        sides[(session_id, ns_id)].append(
            (pk, "ns", ns, mp_engine.SideBoard(exact(ns_raw), top, ns_kind, exact(ns_pen)))
        )
        sides[(session_id, ew_id)].append(
            (pk, "ew", ew, mp_engine.SideBoard(exact(ew_raw), top, ew_kind, exact(ew_pen)))
        )
    return sides


def _session_rule(items, plus, minus, refreshed):
    """One side's session total (Law 12C2c); the artificial scores it moved go into ``refreshed``
    ({board score pk: {field: value}})."""
    session = mp_engine.session_score([item[3] for item in items], plus=plus, minus=minus)
    for (pk, field, stored, side_board), counted in zip(items, session.boards):
        if side_board.kind in ("AVE+", "AVE-"):
            value = _q(counted - side_board.penalty)
            if stored != value:
                refreshed[pk][field] = value
                refreshed[pk][f"{field}_percent"] = (
                    _q(counted * 100 / side_board.top, THREE) if side_board.top else None
                )
    return session


def _write_refreshed(refreshed):
    # The session rule moves artificial scores only: a few rows, written one by one.
    for pk, values in refreshed.items():
        BoardScore.objects.filter(pk=pk).update(**values)


def _with_event_totals(rows):
    totals = defaultdict(lambda: [Fraction(0), Fraction(0), 0])
    for _session_id, contestant_id, total, top, boards in rows:
        entry = totals[contestant_id]
        entry[0] += total
        entry[1] += top or 0
        entry[2] += boards
    return rows + [(None, cid, total, top or None, boards) for cid, (total, top, boards) in totals.items()]


def _imp_pairs_standings(event):
    scores = BoardScore.objects.filter(result__board__session__event=event, ns__isnull=False).select_related(
        "result__board"
    )
    sums = defaultdict(lambda: [Fraction(0), 0])
    for bs in scores:
        session_id = bs.result.board.session_id
        for contestant_id, value in ((bs.result.ns_id, bs.ns_exact), (bs.result.ew_id, bs.ew_exact)):
            sums[(session_id, contestant_id)][0] += Fraction(value)
            sums[(session_id, contestant_id)][1] += 1
    rows = [(sid, cid, total, None, boards) for (sid, cid), (total, boards) in sums.items()]
    return _with_event_totals(rows)


def _team_standings(event):
    regs = _regulations(event)
    scale = vp_scales.engine_scale(event.tournament.authority, regs["vp_scale"])  # a body's own: from the DB
    results = (
        Result.objects.filter(board__session__event=event)
        .select_related("effective", "board")
        .order_by("board__number")
    )
    by_room = defaultdict(dict)  # (table, round) -> {board: result}: tables are reused each round
    for result in results:
        by_room[(result.table_id, result.round_id)][result.board_id] = result
    matches = Match.objects.filter(round__session__event=event).select_related("round")
    existing = {ms.match_id: ms for ms in MatchScore.objects.filter(match__round__session__event=event)}
    penalties = _match_penalties(event)
    rows, to_save = [], []
    for match in matches:
        open_results = by_room[(match.open_room_id, match.round_id)]
        closed_results = by_room[(match.closed_room_id, match.round_id)]
        pairs, numbers = [], []
        for board_id, open_result in sorted(open_results.items(), key=lambda kv: kv[1].board.number):
            closed_result = closed_results.get(board_id)
            open_entry = entry_for(open_result) if open_result else None
            closed_entry = entry_for(closed_result) if closed_result else None
            if open_entry is None or closed_entry is None:
                continue
            pairs.append((open_entry, closed_entry))
            numbers.append(open_result.board.number)
        if not pairs:
            continue
        penalty = penalties.get(match.pk, NO_MATCH_PENALTY)
        options = {"artificial_imps": regs["average_plus_imps"], "knockout": event.kind == Event.Kind.KNOCKOUT_TEAMS}
        ms = existing.get(match.pk) or MatchScore(match=match)
        try:
            scored = _score_match(pairs, penalty, vp_scale=scale, **options)
            ms.unscaled_boards = None
        except EngineInputError as error:
            if error.field != "boards":
                raise
            # A discrete scale with no table for this many boards (a match part played, or a
            # scale chosen for other match lengths): the IMPs stand, the VPs wait for a scale
            # that has the table, and the pages say so. The recalculation must not fail on it,
            # or the event's standings would stay pending for good.
            scored = imp_engine.team_match(pairs, vp_scale="wbf2013-20", **options)
            ms.unscaled_boards = scored.scale_boards
        ms.home_imps, ms.away_imps = _q(scored.home_imps), _q(scored.away_imps)
        ms.home_imp_penalty, ms.away_imp_penalty, ms.home_vp_penalty, ms.away_vp_penalty = penalty
        ms.boards = [
            {"board": n, "home": exact_str(b.home), "away": exact_str(b.away)} for n, b in zip(numbers, scored.boards)
        ]
        to_save.append(ms)
        if ms.unscaled_boards is not None:
            ms.home_vp = ms.away_vp = None
            continue
        ms.home_vp, ms.away_vp = Decimal(scored.home_vp), Decimal(scored.away_vp)
        session_id = match.round.session_id
        rows.append((session_id, match.home_id, Fraction(str(scored.home_vp)), None, len(pairs)))
        rows.append((session_id, match.away_id, Fraction(str(scored.away_vp)), None, len(pairs)))
    for ms in to_save:
        ms.save()
    merged = defaultdict(lambda: [Fraction(0), 0])
    for session_id, cid, vp, _top, boards in rows:
        merged[(session_id, cid)][0] += vp
        merged[(session_id, cid)][1] += boards
    return _with_event_totals([(sid, cid, total, None, boards) for (sid, cid), (total, boards) in merged.items()])


# --- Match penalties (scoring.models.MatchPenalty) ---------------------------------------------

NO_MATCH_PENALTY = (Decimal(0), Decimal(0), Decimal(0), Decimal(0))


def _match_penalties(event):
    """{match id: (home IMPs, away IMPs, home VPs, away VPs)}: the penalties in force, added up."""
    totals = defaultdict(lambda: list(NO_MATCH_PENALTY))
    for match_id, home_id, team_id, unit, amount in MatchPenalty.objects.filter(
        match__round__session__event=event, withdrawn_at__isnull=True
    ).values_list("match_id", "match__home_id", "team_id", "unit", "amount"):
        index = (0 if unit == MatchPenalty.Unit.IMPS else 2) + (0 if team_id == home_id else 1)
        totals[match_id][index] += amount
    return {match_id: tuple(values) for match_id, values in totals.items()}


def _score_match(pairs, penalty, *, vp_scale, **options):
    """The match as the engine scores it, with its penalties: VPs come off after the conversion
    (the engine's ``vp_penalties``), IMPs off the penalised team's own margin before it, so the
    opponents' VPs stay as they were."""
    home_imps, away_imps, home_vps, away_vps = penalty
    scored = imp_engine.team_match(pairs, vp_scale=vp_scale, vp_penalties=(home_vps, away_vps), **options)
    if not (home_imps or away_imps):
        return scored
    return dataclasses.replace(
        scored,
        home_vp=vp_for_margin(scored.home_imps - Fraction(home_imps), scored.scale_boards, vp_scale) - home_vps,
        away_vp=vp_for_margin(scored.away_imps - Fraction(away_imps), scored.scale_boards, vp_scale) - away_vps,
    )


def _fields(event):
    """Each contestant's field per session and for the event: "NS" or "EW" when it sat only
    that way (a Mitchell), else "" (one field: Howell, teams)."""
    if event.is_teams:
        return {}
    seen = defaultdict(set)
    for session_id, ns_id, ew_id in (
        Result.objects.filter(board__session__event=event).values_list("board__session_id", "ns_id", "ew_id").distinct()
    ):
        for key in ((session_id, ns_id), (None, ns_id)):
            seen[key].add("NS")
        for key in ((session_id, ew_id), (None, ew_id)):
            seen[key].add("EW")
    fields = {key: next(iter(directions)) if len(directions) == 1 else "" for key, directions in seen.items()}
    # A field is only a field if the other direction is one too.
    for session_id in {key[0] for key in fields}:
        values = {v for (sid, _cid), v in fields.items() if sid == session_id}
        if values != {"NS", "EW"}:
            for key in [k for k in fields if k[0] == session_id]:
                fields[key] = ""
    return fields


def _write_standings(event, rows, fields=None, existing=None, unchanged=frozenset()):
    """Rank each window (session or event, and field) and write the standings that moved;
    ``fields`` and ``existing`` (the event's Standing rows by window) are read when not given.
    The windows in ``unchanged`` keep their stored total, top and percentage (the same numbers
    would be computed again): only their places are new."""
    fields = _fields(event) if fields is None else fields
    windows = defaultdict(list)
    for session_id, contestant_id, total, top, boards in rows:
        field = fields.get((session_id, contestant_id), "")
        windows[(session_id, field)].append((contestant_id, total, top, boards))
    rows = []  # (session, contestant, the STANDING_VALUES)
    for (session_id, field), items in windows.items():
        items.sort(key=lambda item: item[0])  # equal totals in contestant order, however they were read
        use_percent = all(top for _cid, _total, top, _boards in items)
        by_id = {item[0]: item for item in items}
        placings = rank({cid: total * 100 / top if use_percent else total for cid, total, top, _b in items})
        for position, placing in enumerate(placings, start=1):
            contestant_id, total, top, boards = by_id[placing.id]
            if (session_id, contestant_id) in unchanged:
                old = existing[(session_id, contestant_id)]
                values = (old.total, old.total_exact, old.top, old.percent, field, position, placing.label, boards)
            else:
                values = (
                    _q(total),
                    exact_str(total),
                    _q(top) if top else None,
                    _q(total * 100 / top, THREE) if top else None,
                    field,
                    position,
                    placing.label,
                    boards,
                )
            rows.append((session_id, contestant_id, values))
    _write_standing_differences(event, rows, existing)


# What a standing holds besides its window (session, contestant): compared to find the rows a
# recalculation moved.
STANDING_VALUES = ("total", "total_exact", "top", "percent", "field", "position", "place", "boards")


def _write_standing_differences(event, rows, existing=None):
    """Write only what changed, under the event lock: new windows are inserted, rows whose
    values moved are updated in one statement per batch, rows no longer there are deleted.
    One change on a big event moves a few totals and the places around them, not every row;
    the result is the same as replacing the standings whole (a test compares them)."""
    if existing is None:
        existing = _standings_by_window(event)
    existing = dict(existing)
    to_create, to_update = [], []
    for session_id, contestant_id, values in rows:
        old = existing.pop((session_id, contestant_id), None)
        if old is None:
            to_create.append(
                Standing(
                    event=event,
                    session_id=session_id,
                    contestant_id=contestant_id,
                    **dict(zip(STANDING_VALUES, values, strict=True)),
                )
            )
        elif tuple(getattr(old, name) for name in STANDING_VALUES) != values:
            to_update.append((old.pk, *values))
    if existing:
        Standing.objects.filter(pk__in=[s.pk for s in existing.values()]).delete()
    update_rows(Standing, STANDING_VALUES, to_update)
    if to_create:
        Standing.objects.bulk_create(to_create, batch_size=1000)


def _standings_by_window(event):
    """{(session, contestant): a named tuple of the Standing's pk, window and values}."""
    rows = Standing.objects.filter(event=event).order_by()
    return {
        (s.session_id, s.contestant_id): s
        for s in rows.values_list("pk", "session_id", "contestant_id", *STANDING_VALUES, named=True)
    }


ARTIFICIAL = ("AVE+", "AVE-")


def _apply_differences(event, regs, differences):
    """The incremental road for pairs events (see ``_rescore_pending``): add each board's new
    scores minus its old ones to the standings' exact totals, total again the sides whose
    session holds an artificial score, rank again and write what moved. Returns False, having
    written no standing, when the standings do not hold every contestant the boards name (the
    caller then recomputes them whole)."""
    matchpoints = event.kind in (Event.Kind.MP_PAIRS, Event.Kind.INDIVIDUAL)
    existing = _standings_by_window(event)
    change = defaultdict(lambda: [Fraction(0), Fraction(0), 0])  # window -> total, top, boards
    again = set()  # windows totalled again

    numbers = {None: Fraction(0), "": Fraction(0)}  # the same few texts recur: parse each once

    def number(text):
        value = numbers.get(text)
        if value is None:
            value = numbers[text] = Fraction(str(text))
        return value

    def top_of(row):
        return number(row.top)

    sides = ((NS, "ns_kind", "ns_exact", NS_KIND, NS_EXACT), (EW, "ew_kind", "ew_exact", EW_KIND, EW_EXACT))
    for session_id, _seats, compared in differences:
        for ns_id, ew_id, before, values in compared:
            for side, kind, exact, new_kind, new_exact in sides:
                key = (session_id, ns_id if side == NS else ew_id)
                if matchpoints and (getattr(before, kind) in ARTIFICIAL or values[new_kind] in ARTIFICIAL):
                    again.add(key)
                    continue
                was, now = getattr(before, exact), values[new_exact]
                if was == now and before.top == values[TOP]:  # (an exact "" is no score)
                    continue  # this side's score did not move
                entry = change[key]
                if was != "":
                    entry[0] -= number(was)
                    entry[1] -= top_of(before)
                    entry[2] -= 1
                if now != "":
                    entry[0] += number(now)
                    entry[1] += number(values[TOP])
                    entry[2] += 1
    if matchpoints:
        # A side with an artificial score elsewhere in the session: its value follows the
        # side's percentage on its real boards, which a changed board moves.
        sessions = {session_id for session_id, *_rest in differences}
        artificial = (
            BoardScore.objects.filter(result__board__session_id__in=sessions, ns__isnull=False)
            .filter(Q(ns_kind__in=ARTIFICIAL) | Q(ew_kind__in=ARTIFICIAL))
            .values_list("result__board__session_id", "result__ns_id", "result__ew_id", "ns_kind", "ew_kind")
        )
        touched = None  # the windows of every side on a changed board, when first needed
        for session_id, ns_id, ew_id, ns_kind, ew_kind in artificial:
            if touched is None:
                touched = {
                    (board_session, contestant)
                    for board_session, seats, _compared in differences
                    for _pk, board_ns, board_ew, _points in seats
                    for contestant in (board_ns, board_ew)
                }
            for contestant_id, kind in ((ns_id, ns_kind), (ew_id, ew_kind)):
                if kind in ARTIFICIAL and (session_id, contestant_id) in touched:
                    again.add((session_id, contestant_id))
    if again:
        plus, minus = Fraction(regs["average_plus_percent"]), Fraction(regs["average_minus_percent"])
        contestants = {contestant_id for _sid, contestant_id in again}
        sides = _side_boards(
            BoardScore.objects.filter(
                result__board__session_id__in={session_id for session_id, _cid in again}, ns__isnull=False
            ).filter(Q(result__ns_id__in=contestants) | Q(result__ew_id__in=contestants))
        )
        refreshed = defaultdict(dict)
        for key in again:
            before, items = existing.get(key), sides.get(key)
            if before is None or not items:
                return False
            session = _session_rule(items, plus, minus, refreshed)
            change[key] = [
                session.matchpoints - Fraction(before.total_exact),
                session.top - top_of(before),
                len(items) - before.boards,
            ]
        _write_refreshed(refreshed)
    for (_session_id, contestant_id), (total, top, boards) in list(change.items()):
        entry = change[(None, contestant_id)]
        entry[0] += total
        entry[1] += top
        entry[2] += boards
    if any(key not in existing for key in change):
        return False  # a contestant new to the standings
    rows, unchanged = [], set()
    for (session_id, contestant_id), standing in existing.items():
        total, top, boards = change.get((session_id, contestant_id), (0, 0, 0))
        if not (total or top or boards):
            unchanged.add((session_id, contestant_id))
        if standing.boards + boards <= 0:
            return False  # a contestant leaves the standings
        rows.append(
            (
                session_id,
                contestant_id,
                Fraction(standing.total_exact) + total,
                (top_of(standing) + top) or None,
                standing.boards + boards,
            )
        )
    fields = {key: standing.field for key, standing in existing.items()}
    _write_standings(event, rows, fields, existing, unchanged)
    return True


def rescore_everything(event):
    """Score every board of ``event`` now, in this process (demo data, imports, repairs)."""
    for board_id in Board.objects.filter(session__event=event).values_list("pk", flat=True):
        rescore_board(board_id, force=True)
    rescore_event(event.pk)
    RecalculationRequest.objects.filter(board__session__event=event, finished_at__isnull=True).update(
        finished_at=timezone.now()
    )


def pending_sessions(session_ids):
    """The sessions among ``session_ids`` with a recalculation not yet finished."""
    return set(
        RecalculationRequest.objects.filter(board__session_id__in=session_ids, finished_at__isnull=True)
        .values_list("board__session_id", flat=True)
        .distinct()
    )
