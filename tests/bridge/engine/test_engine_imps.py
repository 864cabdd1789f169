"""IMPs: the Law 78B table, team boards, cross-IMPs and Butler."""

from fractions import Fraction as F

import pytest

from bridge.engine.imps import butler, butler_datum, cross_imps, imps, team_board, team_match
from bridge.engine.scores import (
    Artificial,
    EngineInputError,
    Entry,
    Penalty,
    Redress,
    Weighted,
)

# (lowest, highest, IMPs) for every row of the table
TABLE = [
    (0, 10, 0),
    (20, 40, 1),
    (50, 80, 2),
    (90, 120, 3),
    (130, 160, 4),
    (170, 210, 5),
    (220, 260, 6),
    (270, 310, 7),
    (320, 360, 8),
    (370, 420, 9),
    (430, 490, 10),
    (500, 590, 11),
    (600, 740, 12),
    (750, 890, 13),
    (900, 1090, 14),
    (1100, 1290, 15),
    (1300, 1490, 16),
    (1500, 1740, 17),
    (1750, 1990, 18),
    (2000, 2240, 19),
    (2250, 2490, 20),
    (2500, 2990, 21),
    (3000, 3490, 22),
    (3500, 3990, 23),
    (4000, 7600, 24),
]


@pytest.mark.parametrize("low, high, value", TABLE)
def test_imp_table(low, high, value):
    for points in range(low, high + 10, 10):
        assert imps(points) == value
        assert imps(-points) == -value


def test_team_weighted_score_is_converted_per_component():
    # 60% of +420 and 40% of -50 against +170: 0.6 x 6 + 0.4 x (-6)
    result = team_board(Weighted(((420, F("0.6")), (-50, F("0.4")))), 170)
    assert (result.home, result.away) == (F("1.2"), F("-1.2"))
    assert imps(int(F("0.6") * 420 + F("0.4") * -50) - 170) == 2  # weighting points first: wrong


def test_both_rooms_weighted():
    result = team_board(Weighted(((420, F(1, 2)), (-50, F(1, 2)))), Weighted(((420, F(1, 2)), (170, F(1, 2)))))
    # mean of IMP(420-420)=0, IMP(420-170)=6, IMP(-50-420)=-10, IMP(-50-170)=-6
    assert result.home == F(-10, 4)


def test_knockout_averages_a_non_balancing_score():
    open_room = Entry("open", 420, 450)  # A's N-S assigned +420, B's E-W -450
    plain = team_board(open_room, 170)
    assert (plain.home, plain.away) == (6, -7)
    knockout = team_board(open_room, 170, knockout=True)
    assert (knockout.home, knockout.away) == (F("6.5"), F("-6.5"))


def test_redress_at_imps():
    # A's N-S: 4Hx-3 vul (-800) after a serious error; normal play 4Hx-1 (-200); without the
    # infraction 3H= (+140); B's N-S +140 in the other room.
    open_room = Entry("open", Redress(-800, -200, 140, "NS"))
    result = team_board(open_room, 140)
    assert result.home == -6  # -14 + (0 - (-8))
    assert result.away == 0  # the offenders score as if there was no infraction


def test_redress_for_east_west():
    closed_room = Entry("closed", Redress(800, 200, -140, "EW"))  # A's E-W damaged
    result = team_board(-140, closed_room)
    assert (result.home, result.away) == (-6, 0)


def test_artificial_imps():
    avg = Entry("open", Artificial(code="AVE+"), Artificial(code="AVE-"))
    assert team_board(avg, 420) == team_board(avg, -1000)
    assert (team_board(avg, 420).home, team_board(avg, 420).away) == (3, -3)
    assert team_board(avg, 420, artificial_imps=2).home == 2
    both = Entry("o", Artificial(code="AVE+"), Artificial(code="AVE+"), outside_agency=True)
    assert (team_board(both, 420).home, team_board(both, 420).away) == (3, 3)
    assert (team_board(both, 420, knockout=True).home) == 0
    with pytest.raises(EngineInputError):
        team_board(Entry("o", Artificial(percent=F(60)), Artificial(percent=F(40))), 0)


def test_penalty_and_whole_imps():
    result = team_board(Entry("open", 420, penalty_ns=Penalty(F(3))), 170)
    assert (result.home, result.away) == (3, -6)
    rounded = team_board(Weighted(((420, F("0.6")), (-50, F("0.4")))), 170, whole_imps=True)
    assert rounded.home == 1


def test_team_match_and_vps():
    boards = [(420, 170), (-100, 200), (Entry("o", 420, 450), 170)]
    match = team_match(boards, scale_boards=16)
    assert [b.home for b in match.boards] == [6, -7, 6]
    assert [b.away for b in match.boards] == [-6, 7, -7]
    assert (match.home_imps, match.away_imps) == (5, -6)
    # each team converts its own margin on the 16-board scale: +5 -> 11.48, -6 -> 8.24
    assert (str(match.home_vp), str(match.away_vp)) == ("11.48", "8.24")
    penalised = team_match(boards, scale_boards=16, vp_penalties=(1, 0))
    assert str(penalised.home_vp) == "10.48"
    assert team_match([(420, 170)]).scale_boards == 1


CROSS = [620, 170, 140, 140, -100]


def test_cross_imps_mean():
    result = cross_imps([Entry(i, p) for i, p in enumerate(CROSS)])
    assert [result[i][0] for i in range(5)] == [F("10.5"), F("-0.25"), F("-1.25"), F("-1.25"), F("-7.75")]
    assert [result[i][1] for i in range(5)] == [F("-10.5"), F("0.25"), F("1.25"), F("1.25"), F("7.75")]


def test_cross_imps_sum_and_artificial():
    entries = [Entry(i, p) for i, p in enumerate(CROSS)]
    assert [cross_imps(entries, mode="sum")[i][0] for i in range(5)] == [42, -1, -5, -5, -31]
    entries.append(Entry("A", Artificial(code="AVE+"), Artificial(code="AVE-")))
    result = cross_imps(entries)
    assert result["A"] == (3, -3)
    assert result[0][0] == F("10.5")  # the artificial score takes no part


def test_cross_imps_split_and_weighted():
    entries = [Entry(0, 620), Entry(1, 170), Entry("X", Weighted(((620, F(1, 2)), (170, F(1, 2)))), 170)]
    result = cross_imps(entries)
    # X's N-S: 1/2 (IMP 0 + IMP 450) + 1/2 (IMP -450 + IMP 0), over 2 results
    assert result["X"][0] == 0
    # X's E-W (+170 for N-S): against 620 (+10 for E-W) and 170 (0)
    assert result["X"][1] == 5


BUTLER = [-650, -170, -1440, 100, -170, -200]


def test_butler_with_one_dropped_at_each_end():
    result = butler([Entry(i, p) for i, p in enumerate(BUTLER)])
    assert result.datum == -300
    assert [result.scores[i][0] for i in range(6)] == [-8, 4, -15, 9, 4, 3]
    assert [result.scores[i][1] for i in range(6)] == [8, -4, 15, -9, -4, -3]


def test_butler_without_drops():
    assert butler([Entry(i, p) for i, p in enumerate([650, 170, 200])]).datum == 340
    assert butler_datum([650, 170, 200], drop=1) == 340  # 3 results: nothing dropped
    assert butler_datum(BUTLER, drop=0) == -420  # -2530 / 6 = -421.67


def test_butler_rounding_of_a_five():
    values = [300, 390]  # mean 345
    assert butler_datum(values) == 350
    assert butler_datum([-300, -390]) == -350
    assert butler_datum(values, half="down") == 340
    assert butler_datum([-300, -390], half="up") == -340
    assert butler_datum(values, half="even") == 340


def test_butler_weighted_and_artificial():
    entries = [Entry(i, p) for i, p in enumerate([650, 170, 200])]
    entries.append(Entry("X", Weighted(((620, F(1, 2)), (140, F(1, 2))))))
    entries.append(Entry("A", Artificial(code="AVE-"), Artificial(code="AVE+")))
    result = butler(entries)
    assert result.datum == 290  # X counts as 380; drop 650 and 170: mean of 200 and 380
    # 1/2 IMP(620 - 290) + 1/2 IMP(140 - 290) = 1/2 x 8 + 1/2 x (-4)
    assert result.scores["X"] == (2, -2)
    assert result.scores["A"] == (-3, 3)
