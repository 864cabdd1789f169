"""Revoke trick transfers per edition of the Laws (bridge/revokes.py, bridge/play.py).

The table below is every case of Law 64A and 64B in the 1997, 2007 and 2017 codes, with the
tricks transferred and the sub-section named; the expected figures are worked out by hand from
the texts (the Dutch 1997 chapter VI, the 2007 code, the 2017 code), not from the code under
test. tests/fixtures/lin/revoke_board3.lin is a LIN written for these tests: board 3, 4H by
South; East discards C4 on the third trick (South's H3) while holding H-T942's remaining
hearts, the revoke is established when East follows to trick 4, North won the revoke trick,
East later wins trick 8 with the H9 (a card he could have played to the revoke trick), and
declarer claims 8 tricks at trick 9 (N-S had won 6).
"""

from dataclasses import replace
from pathlib import Path

import pytest

from bridge.deals import parse_deal
from bridge.lin import parse_lin
from bridge.play import read_play
from bridge.revokes import (
    DefectiveTrickFacts,
    RevokeError,
    RevokeFacts,
    defective_trick_transfer,
    equity_guide,
    facts_from_play,
    result_after,
    revoke_transfer,
)

LIN = (Path(__file__).resolve().parents[1] / "fixtures" / "lin" / "revoke_board3.lin").read_text().strip()

# A revoke by East at trick 5, established by playing to trick 6, nothing exempt.
BASE = RevokeFacts(
    trick=5,
    offender="E",
    established=True,
    established_by="63A1",
    offender_won_revoke_trick=False,
    offending_side_won_revoke_trick=False,
    offending_side_tricks_after=3,
)

# (case, changes to BASE, {edition: (tricks, law)})
CASES = [
    (
        "64A1 offender won the revoke trick and a later one",
        dict(offender_won_revoke_trick=True, offending_side_won_revoke_trick=True),
        {"1997": (2, "64A1"), "2007": (2, "64A1"), "2017": (2, "64A1")},
    ),
    (
        "64A1 offender won the revoke trick, his side no later trick",
        dict(offender_won_revoke_trick=True, offending_side_won_revoke_trick=True, offending_side_tricks_after=0),
        {"1997": (1, "64A1"), "2007": (1, "64A1"), "2017": (1, "64A1")},
    ),
    (
        "64A2 partner won the revoke trick",
        dict(offending_side_won_revoke_trick=True, offending_side_tricks_after=0),
        {"1997": (1, "64A2"), "2007": (1, "64A2"), "2017": (1, "64A2")},
    ),
    (
        "64A2 the other side won the revoke trick, offending side a later one",
        dict(offending_side_tricks_after=1),
        {"1997": (1, "64A2"), "2007": (1, "64A2"), "2017": (1, "64A2")},
    ),
    (
        "64A2 offender later won with a card he could have played: 1997 two tricks, 2007/2017 one",
        dict(offender_won_with_legal_card=True),
        {"1997": (2, "64A2"), "2007": (1, "64A2"), "2017": (1, "64A2")},
    ),
    (
        "64A2 1997 second trick capped: only one trick won from the revoke on",
        dict(offender_won_with_legal_card=True, offending_side_tricks_after=1),
        {"1997": (1, "64A2"), "2007": (1, "64A2"), "2017": (1, "64A2")},
    ),
    (
        "64A2 partner won the revoke trick and the offender later won with a legal card",
        dict(offending_side_won_revoke_trick=True, offender_won_with_legal_card=True, offending_side_tricks_after=1),
        {"1997": (2, "64A2"), "2007": (1, "64A2"), "2017": (1, "64A2")},
    ),
    (
        "64B1 offending side won nothing from the revoke on",
        dict(offending_side_tricks_after=0),
        {"1997": (0, "64B1"), "2007": (0, "64B1"), "2017": (0, "64B1")},
    ),
    (
        "64B2 second revoke in the same suit by the same player",
        dict(subsequent_same_suit=True),
        {"1997": (0, "64B2"), "2007": (0, "64B2"), "2017": (0, "64B2")},
    ),
    (
        "64B3 failure to play a faced card",
        dict(faced_card=True, offender_won_revoke_trick=True, offending_side_won_revoke_trick=True),
        {"1997": (0, "64B3"), "2007": (0, "64B3"), "2017": (0, "64B3")},
    ),
    (
        "64B4 noticed after the non-offending side called on the next board",
        dict(noticed_after_next_call=True),
        {"1997": (0, "64B4"), "2007": (0, "64B4"), "2017": (0, "64B4")},
    ),
    (
        "64B5 noticed after the round",
        dict(noticed_after_round=True),
        {"1997": (0, "64B5"), "2007": (0, "64B5"), "2017": (0, "64B5")},
    ),
    (
        "64B6 revoke on the twelfth trick",
        dict(
            trick=12,
            offender_won_revoke_trick=True,
            offending_side_won_revoke_trick=True,
            offending_side_tricks_after=1,
        ),
        {"1997": (0, "64B6"), "2007": (0, "64B6"), "2017": (0, "64B6")},
    ),
    (
        "64B7 both sides revoked: exempt since 2007, rectified on its own in 1997",
        dict(both_sides_revoked=True),
        {"1997": (1, "64A2"), "2007": (0, "64B7"), "2017": (0, "64B7")},
    ),
    (
        "64B7 both sides revoked, offender won the revoke trick",
        dict(both_sides_revoked=True, offender_won_revoke_trick=True, offending_side_won_revoke_trick=True),
        {"1997": (2, "64A1"), "2007": (0, "64B7"), "2017": (0, "64B7")},
    ),
    (
        "not established: corrected under 62A, nothing transferred",
        dict(established=False, established_by=""),
        {"1997": (0, "62A"), "2007": (0, "62A"), "2017": (0, "62A")},
    ),
    (
        "established by a claim (63A3) is rectified like any other",
        dict(established_by="63A3", offending_side_won_revoke_trick=True, offending_side_tricks_after=0),
        {"1997": (1, "64A2"), "2007": (1, "64A2"), "2017": (1, "64A2")},
    ),
]


@pytest.mark.parametrize("edition", ["1997", "2007", "2017"])
@pytest.mark.parametrize(("case", "changes", "expected"), CASES, ids=[c[0] for c in CASES])
def test_revoke_transfer_table(case, changes, expected, edition):
    transfer = revoke_transfer(edition, replace(BASE, **changes))
    assert (transfer.tricks, transfer.law) == expected[edition], case
    assert transfer.reason  # the director reads why


def test_the_editions_differ_only_where_the_laws_do():
    differ = {case for case, _changes, expected in CASES if expected["1997"] != expected["2007"]}
    assert differ == {
        "64A2 offender later won with a card he could have played: 1997 two tricks, 2007/2017 one",
        "64A2 partner won the revoke trick and the offender later won with a legal card",
        "64B7 both sides revoked: exempt since 2007, rectified on its own in 1997",
        "64B7 both sides revoked, offender won the revoke trick",
    }
    assert all(expected["2007"] == expected["2017"] for _case, _changes, expected in CASES)


def test_the_first_exemption_in_the_laws_order_is_named():
    facts = replace(BASE, offending_side_tricks_after=0, faced_card=True, noticed_after_round=True)
    assert revoke_transfer("2017", facts).law == "64B1"
    assert revoke_transfer("2017", replace(facts, offending_side_tricks_after=2)).law == "64B3"


def test_equity_stays_open_after_any_established_revoke():
    assert revoke_transfer("2007", replace(BASE, noticed_after_round=True)).equity
    assert revoke_transfer("2007", BASE).equity
    assert not revoke_transfer("2007", replace(BASE, established=False, established_by="")).equity


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        (dict(trick=0), "trick"),
        (dict(trick=13), "trick"),
        (dict(offender="X"), "offender"),
        (dict(established_by=""), "established_by"),
        (dict(established=False), "established_by"),
        (dict(offender_won_revoke_trick=True), "offending_side_won_revoke_trick"),
        (dict(offending_side_tricks_after=9), "offending_side_tricks_after"),
        (dict(offending_side_tricks_after=-1), "offending_side_tricks_after"),
        (dict(offender_won_with_legal_card=True, offending_side_tricks_after=0), "offender_won_with_legal_card"),
    ],
)
def test_impossible_facts_are_refused_naming_the_fact(changes, field):
    with pytest.raises(RevokeError) as caught:
        revoke_transfer("2017", replace(BASE, **changes))
    assert caught.value.field == field
    assert str(caught.value)


def test_an_unknown_edition_is_refused():
    with pytest.raises(RevokeError) as caught:
        revoke_transfer("2012", BASE)
    assert caught.value.field == "edition"
    assert "1997, 2007 or 2017" in str(caught.value)


# --- Law 67 --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("edition", "could_follow", "won", "expected"),
    [
        ("1997", True, True, (0, "67B1a")),
        ("1997", False, True, (1, "67B1b")),
        ("1997", False, False, (0, "67B1b")),
        ("2007", True, True, (1, "67B1a")),
        ("2007", False, True, (1, "67B1b")),
        ("2007", True, False, (0, "67B1a")),
        ("2017", True, True, (1, "67B1a")),
        ("2017", False, True, (1, "67B1b")),
    ],
)
def test_defective_trick_per_edition(edition, could_follow, won, expected):
    facts = DefectiveTrickFacts(trick=4, offender="W", could_follow=could_follow, offending_side_won_from_then=won)
    transfer = defective_trick_transfer(edition, facts)
    assert (transfer.tricks, transfer.law) == expected


def test_too_many_cards_in_a_trick_transfers_nothing_for_it():
    facts = DefectiveTrickFacts(
        trick=4, offender="W", could_follow=True, offending_side_won_from_then=True, too_many_cards=True
    )
    for edition in ("1997", "2007", "2017"):
        assert (defective_trick_transfer(edition, facts).tricks, defective_trick_transfer(edition, facts).law) == (
            0,
            "67B2",
        )


# --- The result after the transfer ---------------------------------------------------------


def test_result_after_moves_tricks_from_the_offending_side():
    assert result_after(declarer="S", declarer_tricks=8, offender="E", transferred=2) == 10
    assert result_after(declarer="S", declarer_tricks=10, offender="N", transferred=2) == 8
    assert result_after(declarer="S", declarer_tricks=10, offender="S", transferred=0) == 10
    with pytest.raises(RevokeError):
        result_after(declarer="S", declarer_tricks=14, offender="E", transferred=1)


# --- From the play record (the LIN written for these tests) ------------------------------


@pytest.fixture(scope="module")
def record():
    board = parse_lin(LIN)
    return read_play(board.deal, board.auction)


def test_the_play_record_shows_the_revoke(record):
    assert record.contract == "4H" and record.declarer == "S"
    (revoke,) = record.revokes()
    assert (revoke.trick, revoke.seat, revoke.card, revoke.suit_led, revoke.position) == (3, "E", "C4", "H", 3)
    assert record.tricks[2].winner == "N"
    assert record.declarer_tricks == 8


def test_facts_read_from_the_play(record):
    (revoke,) = record.revokes()
    facts = facts_from_play(record, revoke)
    assert facts == RevokeFacts(
        trick=3,
        offender="E",
        established=True,
        established_by="63A1",
        offender_won_revoke_trick=False,
        offending_side_won_revoke_trick=False,
        # West won trick 5, East trick 8, and the claim (8: N-S had 6) leaves E-W 3 of the last 5
        offending_side_tricks_after=5,
        offender_won_with_legal_card=True,
    )


@pytest.mark.parametrize(
    ("edition", "tricks", "law", "after"),
    [
        ("1997", 2, "64A2", 10),  # one trick, and one more for East's H9 winning trick 8
        ("2007", 1, "64A2", 9),
        ("2017", 1, "64A2", 9),
    ],
)
def test_the_lin_revoke_end_to_end(record, edition, tricks, law, after):
    (revoke,) = record.revokes()
    transfer = revoke_transfer(edition, facts_from_play(record, revoke))
    assert (transfer.tricks, transfer.law) == (tricks, law)
    assert (
        result_after(
            declarer=record.declarer,
            declarer_tricks=record.declarer_tricks,
            offender=revoke.seat,
            transferred=transfer.tricks,
        )
        == after
    )


def test_a_revoke_in_the_last_trick_of_the_record_is_not_established_by_it():
    board = parse_lin(LIN.split("pg||pc|HJ")[0] + "pg||")
    record = read_play(board.deal, board.auction)
    (revoke,) = record.revokes()
    with pytest.raises(RevokeError) as caught:
        facts_from_play(record, revoke)
    assert caught.value.field == "offending_side_tricks_after"


def test_a_revoke_by_dummy_is_a_faced_card():
    # West leads a spade, dummy (North) keeps a spade and throws a club; South plays to trick 2: 64B3.
    deal = parse_deal("N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875")
    from bridge.auction import Auction, Claim

    auction = Auction(
        "S",
        ["1H", "Pass", "2NT", "Pass", "4H", "Pass", "Pass", "Pass"],
        play=[["S5", "C3", "SQ", "S3"], ["S2", "S7"]],
        claim=Claim(10),
    )
    record = read_play(deal, auction)
    (revoke,) = record.revokes()
    assert revoke.seat == "N"
    facts = facts_from_play(record, revoke)
    assert facts.faced_card and facts.established_by == "63A1"
    assert revoke_transfer("2017", facts).law == "64B3"


def test_equity_guide_compares_with_double_dummy(record):
    from endplay import dds, types

    (revoke,) = record.revokes()
    transfer = revoke_transfer("2017", facts_from_play(record, revoke))
    guide = equity_guide(record, revoke, transfer)
    # An independent solve: endplay from the whole deal, playing the cards before the revoke.
    deal = types.Deal(record.deal.to_pbn(), first=types.Player.west, trump=types.Denom.hearts)
    for card in [c for t in record.tricks[:2] for c in t.cards] + list(record.tricks[2].cards[:3]):
        deal.play(card)
    east_best = max(tricks for _card, tricks in dds.solve_board(deal))
    before = sum(1 for t in record.tricks[:2] if t.winner in ("E", "W"))
    assert guide["non_offending"] == "NS"
    assert guide["double_dummy"] == (2 - before) + (11 - east_best)
    assert guide["at_table"] == 8
    assert guide["after_transfer"] == 9
    assert guide["short"] == max(0, guide["double_dummy"] - 9)


def test_a_second_revoke_in_the_same_suit_and_a_revoke_by_each_side_are_read_from_the_play():
    # Board 3 again: East revokes on trick 3 (C4) and again on trick 4 (C6, still holding
    # hearts); South, declarer, revokes on trick 5 (D8 on a club lead, holding C2); claim of 10.
    board = parse_lin(LIN)
    from bridge.auction import Auction, Claim

    cards = "C5 C3 CK CA HA H7 H8 H2 H3 D2 HK C4 HJ C6 H5 D3 C9 CT D8 C7".split()
    auction = Auction(
        "S",
        ["1H", "Pass", "2NT", "Pass", "4H", "Pass", "Pass", "Pass"],
        play=[cards[i : i + 4] for i in range(0, len(cards), 4)],
        claim=Claim(10),
    )
    record = read_play(board.deal, auction)
    first, second, south = record.revokes()
    assert [(r.trick, r.seat) for r in (first, second, south)] == [(3, "E"), (4, "E"), (5, "S")]
    facts = facts_from_play(record, second)
    assert facts.subsequent_same_suit and facts.both_sides_revoked
    assert revoke_transfer("1997", facts).law == "64B2"
    facts = facts_from_play(record, first)
    assert not facts.subsequent_same_suit and facts.both_sides_revoked
    assert (revoke_transfer("1997", facts).tricks, revoke_transfer("1997", facts).law) == (1, "64A2")
    assert (revoke_transfer("2007", facts).tricks, revoke_transfer("2007", facts).law) == (0, "64B7")
    facts = facts_from_play(record, south)
    assert facts.established_by == "63A3" and facts.both_sides_revoked  # the claim after the revoke trick
    # East won the revoke trick (CT): 64B1 does not apply, the offending side N-S won no trick
    # after it in play but the claim gives them 6 of the last 8.
    assert (facts.offending_side_won_revoke_trick, facts.offending_side_tricks_after) == (False, 6)
    assert (revoke_transfer("1997", facts).tricks, revoke_transfer("1997", facts).law) == (1, "64A2")
