"""Team forms: board-a-match, knockout with carry-over and Law 86B, total points (78C), and
the Law 12C2(c) session rule at IMPs."""

from fractions import Fraction as F

import pytest

from bridge.engine.scores import Artificial, EngineInputError, Entry, Penalty, Redress, Weighted
from bridge.engine.teams import (
    board_a_match,
    board_a_match_board,
    imp_session,
    knockout_match,
    total_points,
    total_points_board,
)


def pair(result):
    return (result.home, result.away)


# --- board-a-match


def test_board_a_match_won_tied_lost():
    assert pair(board_a_match_board(420, 400)) == (1, 0)  # home +420 against -400: net +20
    assert pair(board_a_match_board(420, 420)) == (F(1, 2), F(1, 2))
    assert pair(board_a_match_board(-50, 100)) == (0, 1)
    # a difference of 10 points wins the whole board (at IMPs it would be 0)
    assert pair(board_a_match_board(430, 420)) == (1, 0)


def test_board_a_match_weighted_score_component_by_component():
    # 60% of +420, 40% of -50 against +170: the +420 part wins, the -50 part loses
    assert pair(board_a_match_board(Weighted(((420, F("0.6")), (-50, F("0.4")))), 170)) == (F("0.6"), F("0.4"))
    # a component equal to the other room's score ties: half of its weight
    assert pair(board_a_match_board(Weighted(((170, F(1, 2)), (420, F(1, 2)))), 170)) == (F(3, 4), F(1, 4))


def test_board_a_match_split_score_need_not_balance():
    # home's N-S assigned +420, away's ... E-W (the offenders) +450 in the open room; closed room +420
    open_room = Entry("o", 420, 450)
    assert pair(board_a_match_board(open_room, 420)) == (F(1, 2), 0)  # home ties; away loses 450 v 420


def test_board_a_match_artificial_scores():
    board = board_a_match_board(Entry("o", Artificial("AVE+"), Artificial("AVE-")), 420)
    assert pair(board) == (F(3, 5), F(2, 5))
    assert pair(board_a_match_board(Entry("o", Artificial("AVE"), Artificial("AVE")), 420, averages=(70, 50, 30))) == (
        F(1, 2),
        F(1, 2),
    )


def test_board_a_match_redress_and_penalty():
    # home's N-S, after an infraction, went -800 by a serious error; normal play -200; without
    # the infraction +140; the other room +140: the table lost (0); damage = result(140 v 140)
    # - result(-200 v 140) = 1/2 - 0
    redress = Entry("o", Redress(-800, -200, 140, "NS"))
    board = board_a_match_board(redress, 140)
    assert board.home == F(1, 2)
    assert board.away == F(1, 2)  # offenders: the result without the infraction, a tie
    penalised = board_a_match_board(Entry("o", 420, penalty_ns=Penalty(F(1, 4))), 170)
    assert pair(penalised) == (F(3, 4), 0)
    assert pair(board_a_match_board(Entry("o", 420, penalty_ns=Penalty(F(10), percent=True)), 170)) == (F(9, 10), 0)


def test_board_a_match_session_total():
    match = board_a_match([(420, 420), (100, -50), (-100, 50)])
    assert (match.home, match.away) == (F(3, 2), F(3, 2))


# --- knockout


def test_knockout_carry_over_and_winner():
    match = knockout_match([(420, 170), (-100, 50)], carry_over=("2.5", 0))
    assert [pair(b) for b in match.boards] == [(6, -6), (-4, 4)]
    assert (match.home, match.away, match.margin, match.winner) == (F("8.5"), F(4), F("4.5"), "home")
    tied = knockout_match([(420, 170)], carry_over=(0, 6))
    assert tied.winner is None and tied.margin == 0


def test_knockout_averages_a_non_balancing_board_law_86b():
    # domain check: A assigned +420, B's E-W assigned -450 (B's N-S +170 at the other table):
    # A alone +6, B alone -7: each gets the average, A +6.5, B -6.5
    open_room = Entry("o", 420, 450)
    averaged = knockout_match([(open_room, 170)])
    assert pair(averaged.boards[0]) == (F("6.5"), F("-6.5"))
    own = knockout_match([(open_room, 170)], average_non_balancing=False)
    assert pair(own.boards[0]) == (6, -7)


def test_knockout_refuses_a_negative_carry_over():
    with pytest.raises(EngineInputError, match="carry_over"):
        knockout_match([(420, 170)], carry_over=(-1, 0))


# --- total points


def test_total_points():
    assert pair(total_points_board(420, 170)) == (250, -250)
    # weighted: at total points the mean of the points is the same as weighting the results
    assert pair(total_points_board(Weighted(((420, F("0.6")), (-50, F("0.4")))), 170)) == (62, -62)
    match = total_points([(420, 170), (-100, 50), (Entry("o", 420, 450), 420)])
    assert [pair(b) for b in match.boards] == [(250, -250), (-150, 150), (0, -30)]
    assert (match.home, match.away) == (100, -130)


def test_total_points_redress_and_refused_artificial():
    # the domain's redress example in points: table -940, normal play -340, without infraction 0
    redress = Entry("o", Redress(-800, -200, 140, "NS"))
    board = total_points_board(redress, 140)
    assert board.home == -940 + 340  # table -940 plus the damage, 0 - (-340)
    assert board.away == 0
    with pytest.raises(EngineInputError, match="no value at total points"):
        total_points_board(Entry("o", Artificial("AVE+"), Artificial("AVE-")), 420)


# --- the session rule at IMPs


def test_average_plus_gets_the_sides_average_when_higher():
    session = imp_session([(8, "real"), (4, "real"), (0, "AVE+")])
    assert session.real_average == 6
    assert session.boards == (8, 4, 6) and session.total == 18


def test_average_plus_stays_three_when_the_average_is_lower():
    session = imp_session([(2, "real"), (-1, "real"), (0, "AVE+"), (0, "AVE")])
    assert session.boards == (2, -1, 3, 0)


def test_average_minus_gets_the_sides_average_when_lower():
    assert imp_session([(-8, "real"), (-5, "real"), (0, "AVE-")]).boards == (-8, -5, F(-13, 2))
    assert imp_session([(1, "real"), (0, "AVE-")]).boards == (1, -3)
    assert imp_session([(0, "AVE+"), (0, "AVE-")], plus=2, minus=2).boards == (2, -2)
    with pytest.raises(EngineInputError):
        imp_session([(0, "AVE++")])


# --- the command line refuses bad input with the field and the reason


@pytest.mark.parametrize(
    "doc, message",
    [
        (
            '{"kind": "knockout", "carry_over": {"home": -2}, "boards": [{"open": 420, "closed": 170}]}',
            "match, carry_over: a carry-over is IMPs a team starts with: 0 or more",
        ),
        (
            '{"kind": "knockout", "carry_over": [1, 2], "boards": [{"open": 420, "closed": 170}]}',
            'input, carry_over: write {"home": imps, "away": imps}',
        ),
        (
            '{"kind": "total_points", "boards": [{"open": {"ns": "AVE+", "ew": "AVE-"}, "closed": 170}]}',
            "board 1 (open room), ns: AVE+ has no value at total points: assign a score",
        ),
        ('{"kind": "imp_session", "boards": [{"kind": "real"}]}', "board 1, imps: missing: a number is required"),
        ('{"kind": "board_a_match", "boards": []}', "input, boards: give the boards as a non-empty list"),
    ],
)
def test_cli_refuses(doc, message):
    from bridge.engine.__main__ import run

    with pytest.raises(EngineInputError) as error:
        run(doc)
    assert str(error.value) == message
