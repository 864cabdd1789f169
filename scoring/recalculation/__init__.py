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
retried when the database aborts it for a conflict anyway (``core.retry``).

The package by concern: ``queue`` (locks, requests, tasks, the sweep), ``board`` (one board
scored by the engine, its values rounded), ``diff`` (the board scores a change moved, and their
writes), ``standings`` (totals, the session rule, rankings, the incremental road), ``teams``
(matches, VPs, match penalties) and ``pipeline`` (the task's work, from the boards to the
standings). Every public name is importable from here.
"""

from scoring.recalculation.board import (
    ARTIFICIAL,
    BOARD_SCORE_VALUES,
    BUTLER_HALF,
    COMPARED_VALUES,
    FOUR,
    THREE,
    entry_for,
    plain_board_values,
    plain_seats,
    regulations,
)
from scoring.recalculation.diff import changed_board_scores, plain_board_moved, plain_changes, update_rows
from scoring.recalculation.pipeline import (
    recalculate_board,
    recalculate_event,
    rescore_board,
    rescore_event,
    rescore_everything,
)
from scoring.recalculation.queue import (
    SWEEP_AFTER,
    enqueue,
    lock_board,
    lock_boards,
    lock_result,
    mark_board_dirty,
    mark_boards_dirty,
    mark_session_if_plays_grew,
    mark_session_if_plays_grew_by,
    pending_sessions,
    sweep,
)
from scoring.recalculation.standings import STANDING_VALUES
from scoring.recalculation.teams import NO_MATCH_PENALTY

__all__ = [
    "ARTIFICIAL",
    "BOARD_SCORE_VALUES",
    "BUTLER_HALF",
    "COMPARED_VALUES",
    "FOUR",
    "NO_MATCH_PENALTY",
    "STANDING_VALUES",
    "SWEEP_AFTER",
    "THREE",
    "changed_board_scores",
    "enqueue",
    "entry_for",
    "lock_board",
    "lock_boards",
    "lock_result",
    "mark_board_dirty",
    "mark_boards_dirty",
    "mark_session_if_plays_grew",
    "mark_session_if_plays_grew_by",
    "pending_sessions",
    "plain_board_moved",
    "plain_board_values",
    "plain_changes",
    "plain_seats",
    "recalculate_board",
    "recalculate_event",
    "regulations",
    "rescore_board",
    "rescore_event",
    "rescore_everything",
    "sweep",
    "update_rows",
]
