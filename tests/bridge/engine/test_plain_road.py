"""The scorer's call takes the plain road by itself (issue #33): ``score_board`` and ``butler`` on
plain entries give exactly what the general road gives, however the entries were made, on
small boards and on boards of hundreds of results, with and without Neuberg."""

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.engine import imps as imp_engine
from bridge.engine.imps import butler, butler_datum, imps
from bridge.engine.matchpoints import score_board, score_plain_board
from bridge.engine.scores import Entry, Penalty

# Scores close together, so ties are common; and a wide spread, so most are distinct.
near = st.integers(-30, 30).map(lambda k: 10 * k)
wide = st.one_of(st.integers(-760, 760).map(lambda k: 10 * k), st.integers(-7600, 7600))
made_by = st.sampled_from(["init", "balanced"])


def entries_of(points, how):
    make = Entry if how == "init" else Entry.balanced
    return [make(f"r{i}", p) for i, p in enumerate(points)]


def reference_butler(entries, drop, half):
    """The datum from Fractions (butler_datum's general road) and each side's IMPs one by one."""
    datum = butler_datum([F(e.ns) for e in entries], drop=drop, step=10, half=half)
    return datum, {e.id: (F(imps(e.ns - datum)), F(-imps(e.ns - datum))) for e in entries}


def every_value(board):
    """What a caller can read of a board, result by result and as columns."""
    per_result = [
        (
            board.ns(e.id),
            board.ew(e.id),
            board.ns_percent(e.id),
            board.ew_percent(e.id),
            board.side_board(e.id, "NS"),
            board.side_board(e.id, "EW"),
        )
        for e in board.entries
    ]
    return per_result, board.column("NS"), board.column("EW"), board.top, board.expected


@settings(max_examples=60, deadline=None)
@given(
    st.one_of(st.lists(near, min_size=1, max_size=60), st.lists(wide, min_size=1, max_size=60)),
    st.integers(0, 6),
    st.sampled_from(["2/1", "1/half"]),
    made_by,
)
def test_score_board_on_plain_entries_equals_the_general_road(points, missing, scale, how):
    entries = entries_of(points, how)
    expected = len(points) + missing
    plain = score_board(entries, expected=expected, scale=scale)
    general = score_board(entries, expected=expected, scale=scale, fast=False)
    assert every_value(plain) == every_value(general)
    assert plain.as_dict() == general.as_dict()


@settings(max_examples=10, deadline=None)
@given(st.lists(near, min_size=200, max_size=600), st.integers(0, 20))
def test_big_plain_boards_equal_the_general_road(points, missing):
    entries = entries_of(points, "balanced")
    expected = len(points) + missing
    plain = score_board(entries, expected=expected)
    general = score_board(entries, expected=expected, fast=False)
    assert plain.column("NS") == general.column("NS") and plain.column("EW") == general.column("EW")


@settings(max_examples=50, deadline=None)
@given(st.lists(near, min_size=1, max_size=60), st.integers(0, 6), st.sampled_from(["2/1", "1/half"]))
def test_score_board_equals_score_plain_board(points, missing, scale):
    expected = len(points) + missing
    board = score_board(entries_of(points, "balanced"), expected=expected, scale=scale)
    by_points = score_plain_board(points, expected=expected, scale=scale)
    assert board.column("NS") == [by_points.ns[k] for k in by_points.which]
    assert board.column("EW") == [by_points.ew[k] for k in by_points.which]
    assert board.top == by_points.top


def test_one_entry_not_plain_sends_the_board_down_the_general_road():
    points = [420, 420, 450, -50, 400, 420]
    entries = entries_of(points, "init")
    entries[2] = Entry("r2", 450, penalty_ns=Penalty(F(1)))
    board = score_board(entries)
    general = score_board(entries, fast=False)
    assert every_value(board) == every_value(general)
    assert board.ns("r2") == general.ns("r2") == 9  # 10 matchpoints less the penalty


@settings(max_examples=60, deadline=None)
@given(
    st.one_of(st.lists(near, min_size=1, max_size=80), st.lists(wide, min_size=1, max_size=80)),
    st.sampled_from([0, 1, 2, "none", "one-each-end", "field-size", "10%"]),
    st.sampled_from(["away", "up", "down", "even"]),
    made_by,
)
def test_butler_on_plain_entries_equals_the_reference(points, drop, half, how):
    entries = entries_of(points, how)
    scored = butler(entries, drop=drop, half=half)
    datum, scores = reference_butler(entries, drop, half)
    assert (scored.datum, scored.scores) == (datum, scores)


@settings(max_examples=10, deadline=None)
@given(st.lists(near, min_size=imp_engine._SMALL_BOARD + 1, max_size=imp_engine._SMALL_BOARD + 200))
def test_butler_on_a_big_plain_board_equals_the_reference(points):
    entries = entries_of(points, "balanced")
    assert butler(entries, drop="field-size", half="up").scores == reference_butler(entries, "field-size", "up")[1]


def test_butler_far_from_the_datum_is_clipped_at_24_imps():
    entries = entries_of([-7600, 0, 0, 0, 7600], "balanced")
    assert butler(entries, drop="none").scores == reference_butler(entries, "none", "away")[1]
    assert butler(entries, drop="none").scores["r4"] == (F(24), F(-24))
