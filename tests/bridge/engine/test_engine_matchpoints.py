"""Matchpoints: every worked number of the domain notes, and hand-worked cases."""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.engine.matchpoints import SideBoard, neuberg, score_board, score_plain_board, session_score
from bridge.engine.rounding import ebu
from bridge.engine.scores import (
    Artificial,
    EngineInputError,
    Entry,
    Penalty,
    Redress,
    Weighted,
    parse_results,
)


def board(points, **options):
    entries = [Entry(i, p) for i, p in enumerate(points)]
    return score_board(entries, **options)


def ns(result, ids=None):
    ids = ids if ids is not None else [e.id for e in result.entries]
    return [result.ns(i) for i in ids]


def ew(result, ids=None):
    ids = ids if ids is not None else [e.id for e in result.entries]
    return [result.ew(i) for i in ids]


# --- Law 78A checks ---------------------------------------------------------------------


@pytest.mark.parametrize("fast", [True, False])
def test_four_results(fast):
    result = board([400, 430, 150, -50], fast=fast)
    assert ns(result) == [4, 6, 2, 0]
    assert ew(result) == [2, 0, 4, 6]
    assert result.top == 6


@pytest.mark.parametrize("fast", [True, False])
def test_eight_results_with_ties(fast):
    result = board([-50, 150, 120, 120, 110, -100, -50, 120], fast=fast)
    assert ns(result) == [3, 14, 10, 10, 6, 0, 3, 10]


@pytest.mark.parametrize("fast", [True, False])
def test_one_and_half_scale(fast):
    result = board([650, 620, 620, 620, 620, 170, 170, 140, 110], scale="1/half", fast=fast)
    assert result.top == 8
    assert ns(result) == [8, F(11, 2), F(11, 2), F(11, 2), F(11, 2), F(5, 2), F(5, 2), 1, 0]
    assert [result.ns_percent(i) for i in (0, 1, 5, 7, 8)] == [100, F("68.75"), F("31.25"), F("12.5"), 0]


# --- weighted and split scores ----------------------------------------------------------

REAL = [450, 420, 420, 170, 140, -50]
X_WEIGHTED = Weighted(((420, F("0.5")), (450, F("0.3")), (-50, F("0.2"))))


def test_weighted_score_example():
    entries = [Entry(i, p) for i, p in enumerate(REAL)] + [Entry("X", X_WEIGHTED)]
    result = score_board(entries, expected=7)
    assert result.top == 12
    assert ns(result) == [F("11.7"), F("7.9"), F("7.9"), F("4.4"), F("2.4"), F("0.2"), F("7.5")]
    # exact values, the same at 0.1 rounding
    assert [ebu(v, 12) for v in ns(result)] == ns(result)
    assert sum(ns(result)) == 42 == sum(ew(result)) == 7 * 6


def test_weighted_score_is_the_weighted_mean_of_boards():
    entries = [Entry(i, p) for i, p in enumerate(REAL)] + [Entry("X", X_WEIGHTED)]
    weighted = score_board(entries, expected=7)
    for entry_id in [*range(6), "X"]:
        mean = sum(w * board_with(p).ns(entry_id) for p, w in X_WEIGHTED.components)
        assert weighted.ns(entry_id) == mean


def board_with(x_points):
    return score_board([Entry(i, p) for i, p in enumerate(REAL)] + [Entry("X", x_points)])


def test_split_score_example():
    entries = [Entry(i, p) for i, p in enumerate(REAL)] + [Entry("X", 420, 450)]
    result = score_board(entries, expected=7)
    assert ns(result) == [12, 8, 8, 4, 2, 0, 8]
    assert ew(result) == [1, 5, 5, 8, 10, 12, 1]
    assert result.ns("X") + result.ew("X") == 9


# --- Neuberg and fouled boards ----------------------------------------------------------


@pytest.mark.parametrize("fast", [True, False])
def test_neuberg_five_of_seven(fast):
    result = board([450, 420, 170, 140, -50], expected=7, fast=fast)
    assert ns(result) == [F("11.6"), F("8.8"), F("6.0"), F("3.2"), F("0.4")]
    assert result.top == 12


@pytest.mark.parametrize("fast", [True, False])
def test_neuberg_ebu_ten_of_eleven(fast):
    result = board([100 - 10 * k for k in range(10)], expected=11, fast=fast)
    assert ns(result) == [F(x) for x in ("19.9", "17.7", "15.5", "13.3", "11.1", "8.9", "6.7", "4.5", "2.3", "0.1")]


def test_neuberg_formula():
    assert neuberg(8, 5, 7) == F("11.6")
    assert neuberg(3, 4, 4) == 3


def test_fouled_board_ebu_group_of_seven():
    group_a = [Entry(f"a{k}", 700 - 100 * k, group="A") for k in range(7)]
    group_b = [Entry(f"b{k}", 420 - 10 * k, group="B") for k in range(3)]
    result = score_board(group_a + group_b, expected=10)
    a = ns(result, [e.id for e in group_a])
    assert [ebu(v, 18) for v in a] == [F(x) for x in ("17.6", "14.7", "11.9", "9.0", "6.1", "3.3", "0.4")]
    assert a[0] == F(123, 7)  # (12 + 1) x 10/7 - 1
    # the other version: raw 4, 2, 0 among 3 become (M + 1) x 10/3 - 1
    assert ns(result, [e.id for e in group_b]) == [F(47, 3), 9, F(7, 3)]


def test_acbl_small_groups():
    result = board([420, 170, -50], expected=5, small_groups="acbl")
    top = result.top
    assert top == 8
    assert [result.ns_percent(i) for i in range(3)] == [70, 60, 50]
    assert [result.ew_percent(i) for i in range(3)] == [50, 60, 70]
    assert [board([420, 170], expected=5, small_groups="acbl").ns_percent(i) for i in range(2)] == [65, 55]
    assert board([420], expected=5, small_groups="acbl").ns_percent(0) == 60
    # a full board is not a small group
    assert ns(board([420, 170, -50], small_groups="acbl")) == [4, 2, 0]
    # ties share: 65, 65, 50
    tied = board([420, 420, -50], expected=5, small_groups="acbl")
    assert [tied.ns_percent(i) for i in range(3)] == [65, 65, 50]


# --- artificial scores, redress, penalties ----------------------------------------------


def test_artificial_scores_leave_the_comparison():
    entries = [Entry(i, p) for i, p in enumerate([400, 420, 170, -50])]
    entries.append(Entry("A", Artificial(code="AVE+"), Artificial(code="AVE-")))
    result = score_board(entries)
    assert result.top == 8
    # 4 real results scaled to 5 expected: (M + 1) x 5/4 - 1 for raw 4, 6, 2, 0
    assert ns(result) == [F("5.25"), F("7.75"), F("2.75"), F("0.25"), F("4.8")]
    assert result.ew("A") == F("3.2")
    assert result.ns_percent("A") == 60 and result.ew_percent("A") == 40
    custom = score_board(entries, averages=(65, 50, 35))
    assert custom.ns_percent("A") == 65 and custom.ew_percent("A") == 35


def test_artificial_for_one_side_only():
    entries = [Entry(i, p) for i, p in enumerate([400, 420, 170])]
    entries.append(Entry("S", 420, Artificial(code="AVE-")))
    result = score_board(entries)
    assert ns(result) == [2, 5, 0, 5]  # N-S: 4 real results
    # E-W: 3 real results scaled to 4: raw 2, 0, 4 -> (M + 1) x 4/3 - 1
    assert ew(result) == [3, F(1, 3), F(17, 3), F("2.4")]


def test_artificial_over_100_percent_needs_an_outside_agency():
    entries = [Entry(1, 420), Entry(2, Artificial(code="AVE+"), Artificial(code="AVE+"), label="result 2 (table 4)")]
    with pytest.raises(EngineInputError) as error:
        score_board(entries)
    assert str(error.value).startswith("result 2 (table 4), ew: AVE+ and AVE+ add up to 120%")
    entries[1] = Entry(2, Artificial(code="AVE+"), Artificial(code="AVE+"), outside_agency=True)
    assert score_board(entries).ew(2) == F(6, 5)  # 60% of a top of 2


def test_redress_at_matchpoints():
    # N-S at table R were damaged (T -200, normal play -100, without the infraction +420)
    entries = [Entry(i, p) for i, p in enumerate([420, 400, 170, -50])]
    entries.append(Entry("R", Redress(-200, -100, 420, "NS")))
    result = score_board(entries)
    # N-S table: R stands as -200 and scores 0; P = -100 would score 0; Q = +420 would score 7
    assert result.ns("R") == 7
    # E-W (offenders) stand as +420: they tie one E-W -420
    assert result.ew("R") == 1
    assert ns(result, range(4)) == [8, 6, 4, 2]
    assert ew(result, range(4)) == [1, 4, 6, 8]


def test_redress_is_capped_at_the_top():
    entries = [Entry(i, p) for i, p in enumerate([420, 400])]
    entries.append(Entry("R", Redress(600, -100, 420, "NS")))  # T already beats everyone
    assert score_board(entries).ns("R") == 4


def test_procedural_penalty_is_a_fixed_deduction():
    entries = [Entry(i, p) for i, p in enumerate([420, 400, 170])]
    entries.append(Entry("P", -50, penalty_ew=Penalty(F(25), percent=True)))
    result = score_board(entries)
    plain = board([420, 400, 170, -50])
    assert result.ew("P") == plain.ew(3) - F(6, 4)  # 25% of a top of 6
    assert result.ns("P") == plain.ns(3)
    assert ns(result, range(3)) == ns(plain, range(3))
    assert result.side_board("P", "EW").penalty == F(3, 2)
    half = score_board(entries[:3] + [Entry("P", -50, penalty_ns=Penalty(F(1)))], scale="1/half")
    assert half.ns("P") == -1


# --- errors --------------------------------------------------------------------------------


def test_board_errors():
    with pytest.raises(EngineInputError) as error:
        board([1, 2, 3], expected=2)
    assert str(error.value) == "board, expected: 2 results expected but the board has 3"
    with pytest.raises(EngineInputError):
        board([1, 2], scale="3/1")
    with pytest.raises(EngineInputError):
        score_board([Entry(1, 10), Entry(1, 20)])


def test_one_result_and_empty_board():
    result = board([420])
    assert result.top == 0 and result.ns(0) == 0 and result.ns_percent(0) == 50
    assert len(score_board([])) == 0


# --- the session rule (Law 12C2c) -----------------------------------------------------------


def test_session_average_plus_gets_the_higher_session_percentage():
    boards = [
        SideBoard(F(10), F(12)),
        SideBoard(F(9), F(12)),
        SideBoard(F(11), F(12)),
        SideBoard(F("7.2"), F(12), "AVE+"),
    ]
    result = session_score(boards)
    assert result.real_percent == F(250, 3)  # 30 of 36
    assert result.boards[3] == 10  # 83 1/3 % of 12
    assert result.matchpoints == 40 and result.percent == F(250, 3)


def test_session_average_plus_at_least_60_and_average_minus_at_most_40():
    low = [SideBoard(F(3), F(12)), SideBoard(F(4), F(12)), SideBoard(F("4.8"), F(12), "AVE-")]
    result = session_score(low)
    assert result.real_percent == F(175, 6)  # 7 of 24
    assert result.boards[2] == F("3.5")  # its own 29.17% instead of 40%
    middling = [
        SideBoard(F(6), F(12)),
        SideBoard(F("4.8"), F(12), "AVE-"),
        SideBoard(F("7.2"), F(12), "AVE+"),
        SideBoard(F(6), F(12), "AVE"),
    ]
    result = session_score(middling)
    assert result.boards[1:] == (F("4.8"), F("7.2"), 6)  # 50%: the 40 and 60 stand
    assert session_score(middling, plus=65, minus=35).boards[1:3] == (F("4.2"), F("7.8"))


def test_session_from_board_scores():
    first = score_board(
        parse_results(
            [
                {"id": "t1", "ns": 420},
                {"id": "t2", "ns": 400},
                {"id": "t3", "ns": "AVE+", "ew": "AVE-"},
            ]
        ),
        expected=3,
    )
    side = first.side_board("t3", "NS")
    assert side.kind == "AVE+" and side.matchpoints == F("2.4") and side.top == 4
    result = session_score([side, SideBoard(F(4), F(4)), SideBoard(F(3), F(4))])
    assert result.real_percent == F("87.5") and result.boards[0] == F("3.5")
    assert session_score([side]).boards[0] == F("2.4")  # no real boards: 60%


def test_column_reads_a_whole_direction():
    entries = [Entry(i, p) for i, p in enumerate([420, 400, 170, 400])]
    entries.append(Entry("P", -50, penalty_ns=Penalty(F(1))))
    entries.append(Entry("A", Artificial(code="AVE"), Artificial(code="AVE")))
    for fast in (True, False):
        result = score_board(entries, expected=7, fast=fast)
        for side in ("NS", "EW"):
            assert result.column(side) == [result.matchpoints(e.id, side) for e in entries]
    plain = score_board(entries[:4])
    assert plain.column("NS") == [6, F(3), 0, 3] and plain.column("EW") == [0, 3, 6, 3]


def test_exact_sum():
    from bridge.engine.rounding import exact_sum

    values = [F(1, 3), F(2, 3), F(1, 2), F(7), F(-1, 6)]
    assert exact_sum(values) == sum(values) == F(25, 3)
    assert exact_sum([]) == 0


def test_other_integer_types_and_huge_points():
    import numpy as np

    entries = [Entry(i, np.int64(p)) for i, p in enumerate([420, 400, 170])]
    assert entries[0].plain == 420 and type(entries[0].ns) is int
    assert ns(score_board(entries)) == [4, 2, 0]
    huge = [Entry(0, 10**30), Entry(1, -(10**30)), Entry(2, 0)]
    assert ns(score_board(huge)) == [4, 0, 2]


@settings(max_examples=200, deadline=None)
@given(
    points=st.lists(st.sampled_from([-1430, -620, -100, -50, 0, 50, 110, 140, 420, 450, 990, 1440]), max_size=40),
    missing=st.integers(min_value=0, max_value=5),
    scale=st.sampled_from(["2/1", "1/half"]),
)
def test_plain_board_scores_as_the_board_of_entries(points, missing, scale):
    """score_plain_board (the recalculation's road for a board of plain results) gives every
    result the matchpoints score_board gives it, Neuberg and both scales included."""
    expected = max(len(points) + missing, 1)
    plain = score_plain_board(points, expected=expected, scale=scale)
    board = score_board([Entry(i, p) for i, p in enumerate(points)], expected=expected, scale=scale)
    assert plain.top == board.top
    assert [plain.ns[k] for k in plain.which] == board.column("NS")
    assert [plain.ew[k] for k in plain.which] == board.column("EW")
    assert plain.points == sorted(set(points))


def test_plain_board_by_hand_and_its_refusals():
    # 420, 420, 450, -50: 450 beats three (6), each 420 beats one and ties one (3), -50 none (0)
    plain = score_plain_board([420, 420, 450, -50])
    assert plain.points == [-50, 420, 450] and plain.which == [1, 1, 2, 0]
    assert plain.ns == [0, 3, 6] and plain.ew == [6, 3, 0] and plain.top == 6
    # one result of four expected missing: Neuberg (M + 1) * 4 / 3 - 1 over the 2/1 top of 6
    assert score_plain_board([420, 450, -50], expected=4).ns == [F(1, 3), F(3), F(17, 3)]
    with pytest.raises(EngineInputError, match="board, expected: 2 results expected but the board has 3"):
        score_plain_board([1, 2, 3], expected=2)
    with pytest.raises(EngineInputError, match="board, scale: '3/1' is not one of 2/1, 1/half"):
        score_plain_board([1], scale="3/1")
