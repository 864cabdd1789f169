"""Claims (bridge/claims.py): the position at a claim from the play record, the cards left, and
the double-dummy tricks from there, checked against an independent solve with endplay.

tests/fixtures/lin/revoke_board3.lin (see tests/bridge/test_revokes.py): 4H by South, eight
tricks played (N-S won 6), declarer claims 8 with East on lead at trick 9.
"""

from pathlib import Path

import pytest

from bridge.auction import Auction, Claim
from bridge.claims import check_awarded, claim_aid, claim_position, position_at, remaining_cards, remaining_deal
from bridge.deals import parse_deal
from bridge.lin import parse_lin
from bridge.play import read_play
from bridge.revokes import RevokeError

LIN = (Path(__file__).resolve().parents[1] / "fixtures" / "lin" / "revoke_board3.lin").read_text().strip()
DEAL = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"


@pytest.fixture(scope="module")
def record():
    board = parse_lin(LIN)
    return read_play(board.deal, board.auction)


def independent_solve(record, cards_played):
    """Declarer's total tricks double dummy: endplay from the whole deal with the cards played."""
    from endplay import dds, types

    deal = types.Deal(record.deal.to_pbn(), first=types.Player.west, trump=types.Denom.hearts)
    for card in cards_played:
        deal.play(card)
    best = max(tricks for _card, tricks in dds.solve_board(deal))
    on_play = "NS" if int(deal.curplayer) in (0, 2) else "EW"
    completed = len(cards_played) // 4
    won_ns = sum(1 for t in record.tricks[:completed] if t.winner in ("N", "S"))
    left = 13 - completed
    return won_ns + (best if on_play == "NS" else left - best)


def test_the_claim_at_trick_nine(record):
    position = claim_position(record)
    assert position.trick == 9 and position.leader == "E" and position.current == ()
    assert position.won == {"NS": 6, "EW": 2}
    assert remaining_cards(position) == {
        "N": {"S": "AK9", "H": "", "D": "T7", "C": ""},
        "E": {"S": "QJ82", "H": "T", "D": "", "C": ""},
        "S": {"S": "T73", "H": "", "D": "A8", "C": ""},
        "W": {"S": "54", "H": "", "D": "96", "C": "7"},
    }
    assert remaining_deal(position).to_pbn() == "N:AK9..T7. QJ82.T.. T73..A8. 54..96.7"


def test_claim_double_dummy_equals_an_independent_solve(record):
    position = claim_position(record)
    aid = claim_aid(record, position, claimer="S")
    cards = [c for t in record.tricks for c in t.cards]
    assert aid.declarer_double_dummy == independent_solve(record, cards)
    assert aid.claimer_side == "NS" and aid.claimer_double_dummy == aid.declarer_double_dummy
    # Seen from a defender who claims, the same count the other way round.
    assert claim_aid(record, position, claimer="E").claimer_double_dummy == 13 - aid.declarer_double_dummy


def test_a_claim_in_the_middle_of_a_trick(record):
    board = parse_lin(LIN.replace("pg||mc|8|", "pg||pc|S2|mc|8|"))
    mid = read_play(board.deal, board.auction)
    position = claim_position(mid)
    assert position.trick == 9 and position.current == ("S2",) and position.to_play == "S"
    aid = claim_aid(mid, position, claimer="S")
    cards = [c for t in mid.tricks for c in t.cards]
    assert aid.declarer_double_dummy == independent_solve(mid, cards)


@pytest.mark.parametrize("trick", [1, 4, 7])
def test_an_entered_trick_gives_the_position_at_its_start(record, trick):
    position = position_at(record, trick)
    cards = [c for t in record.tricks[: trick - 1] for c in t.cards]
    assert sum(len(hand) for hand in position.hands.values()) == 52 - len(cards)
    aid = claim_aid(record, position, claimer="S")
    assert aid.declarer_double_dummy == independent_solve(record, cards)


def test_an_entered_trick_beyond_the_record_is_refused(record):
    with pytest.raises(RevokeError) as caught:
        position_at(record, 11)
    assert caught.value.field == "trick"
    with pytest.raises(RevokeError):
        position_at(record, 0)


def test_a_record_without_a_claim_has_no_claim_position():
    auction = Auction("S", ["1H", "Pass", "2NT", "Pass", "4H", "Pass", "Pass", "Pass"], play=[["C5", "C3", "CK", "CA"]])
    record = read_play(parse_deal(DEAL), auction)
    with pytest.raises(RevokeError) as caught:
        claim_position(record)
    assert caught.value.field == "claim"
    assert (
        claim_position(
            read_play(
                parse_deal(DEAL),
                Auction("S", ["1H", "Pass", "2NT", "Pass", "4H", "Pass", "Pass", "Pass"], claim=Claim(10)),
            )
        ).trick
        == 1
    )


def test_awarded_tricks_must_fit_the_position(record):
    position = claim_position(record)
    check_awarded(record.declarer_side, position, 6)
    check_awarded(record.declarer_side, position, 11)
    for wrong in (5, 12):
        with pytest.raises(RevokeError) as caught:
            check_awarded(record.declarer_side, position, wrong)
        assert caught.value.field == "awarded_tricks"
        assert "award 6 to 11" in str(caught.value)


def test_an_entered_position_gives_the_same_count_as_the_play(record):
    from bridge.claims import aid_at, entered_position

    position = entered_position("N:AK9..T7. QJ82.T.. T73..A8. 54..96.7", leader="E", declarer_side="NS", declarer_won=6)
    assert position.trick == 9 and position.won == {"NS": 6, "EW": 2}
    assert remaining_cards(position) == remaining_cards(claim_position(record))
    aid = aid_at(position, strain="H", declarer_side="NS", claimer="S")
    assert aid.declarer_double_dummy == claim_aid(record, claim_position(record), claimer="S").declarer_double_dummy


@pytest.mark.parametrize(
    ("hands", "leader", "won", "field"),
    [
        ("AK9..T7. QJ82.T.. T73..A8. 54..96.7", "E", 6, "remaining"),
        ("N:AK9..T7. QJ82.T.. T73..A8.", "E", 6, "remaining"),
        ("N:AK9..T7. QJ82.T.. T73..A8. 54..96", "E", 6, "remaining"),  # West one card short
        ("N:AK9..T7. QJ82.T.. T73..A8. 54..9A.7", "E", 6, "remaining"),  # the DA in two hands
        ("N:AK9..T7. QJ82.T.. T73..A8. 54..96.7", "X", 6, "leader"),
        ("N:AK9..T7. QJ82.T.. T73..A8. 54..96.7", "E", 9, "declarer_won"),
    ],
)
def test_an_entered_position_is_checked(hands, leader, won, field):
    from bridge.claims import entered_position

    with pytest.raises(RevokeError) as caught:
        entered_position(hands, leader=leader, declarer_side="NS", declarer_won=won)
    assert caught.value.field == field
