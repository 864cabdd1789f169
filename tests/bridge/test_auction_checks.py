"""Irregularities the auction record shows by itself (issue #39, item 10: "three passes with one out
of rotation ... is not detected; a call by a player who had to pass (37) is not detected from the
record"), each from its paragraph's words, per edition.

- 2017 Law 17D3: "When a call has been followed by three passes the auction does not end if any of
  those passes was out of rotation, depriving a player of his right to call. When this occurs the
  auction reverts to the player who missed his turn, all subsequent passes are cancelled and the
  auction proceeds normally. Law 16C applies to the cancelled calls".
- 2007 Law 17E2: the same ("one of those passes"), Law 16D. 1997 Law 34 (Retention of the Right to
  Call): the same, the auction proceeding "as though there had been no irregularity".
- Law 37 (2007, 2017): a bid, double or redouble by a player required by law to pass; 37A when the
  offender's left-hand opponent calls before rectification (the calls stand), else 37B. 1997 Laws
  35B and 37.
"""

import pytest

from bridge.auction_checks import detect, obligation
from bridge.calls import AuctionCall

# Dealer North: North opens 1C; South passes at East's turn (out of rotation), West calls over it
# (so it is accepted, 29A) and passes, North passes: three passes after 1C, East never called.
DEPRIVED = ["1C", AuctionCall("Pass", seat="S"), "Pass", "Pass"]


@pytest.mark.parametrize(
    "edition, law, ui",
    [
        ("1997", "34", ""),
        ("2007", "17E2", " (Law 16D applies to the cancelled passes)"),
        ("2017", "17D3", " (Law 16C applies to the cancelled passes)"),
    ],
)
def test_three_passes_one_out_of_rotation_do_not_end_the_auction(edition, law, ui):
    (found,) = detect(edition, "N", DEPRIVED)
    assert (found.kind, found.law, found.index, found.seat, found.deprived, found.cancelled) == (
        "deprived_of_turn",
        law,
        1,
        "S",
        "E",
        (1, 2, 3),
    )
    assert str(found.text) == (
        "three passes, one out of rotation, followed 1C, and East lost his turn to call: the auction does not end; "
        "it reverts to East, the passes from South's on are cancelled and the auction proceeds normally" + ui
    )


def test_only_the_passes_after_the_missed_turn_are_cancelled():
    """1C by North, East passes, West passes at South's turn (North calls over it: accepted), North
    passes: South lost his turn; East's pass came before it and stands, West's and North's are
    cancelled ("all subsequent passes"). In rotation, nothing is found."""
    calls = ["1C", "Pass", AuctionCall("Pass", seat="W"), "Pass"]
    (found,) = detect("2017", "N", calls)
    assert (found.seat, found.deprived, found.cancelled) == ("W", "S", (2, 3))
    assert detect("2017", "N", ["1C", "Pass", "Pass", "Pass"]) == ()


# Dealer North: 1S; East's 1C is insufficient, replaced by a pass: 27B2 (partner passes throughout);
# South 2S, West (who had to pass) bids 3C, North passes over it, East passes, South 3S, all pass.
REQUIRED = [
    "1S",
    AuctionCall("1C", status="cancelled", law="27B2"),
    "Pass",
    "2S",
    "3C",
    "Pass",
    "Pass",
    "3S",
    "Pass",
    "Pass",
    "Pass",
]


@pytest.mark.parametrize("edition, law", [("1997", "35B"), ("2007", "37A"), ("2017", "37A")])
def test_a_bid_by_a_player_who_had_to_pass_is_found_law_37(edition, law):
    (found,) = detect(edition, "N", REQUIRED)
    assert (found.kind, found.law, found.index, found.seat, found.call) == ("required_pass", law, 4, "W", "3C")
    assert found.facts == {
        "kind": "inadmissible_call",
        "call_number": 5,
        "inadmissible": "required_pass",
        "lho_called": True,
    }
    assert str(found.text).startswith("West had to pass (Law 27B2, call 2) and called 3C: ")


@pytest.mark.parametrize("edition, law", [("1997", "37"), ("2007", "37B"), ("2017", "37B")])
def test_before_the_left_hand_opponent_calls_it_is_37b(edition, law):
    (found,) = detect(edition, "N", REQUIRED[:5])
    assert (found.law, found.facts["lho_called"]) == (law, False)


def test_2017_bars_partner_at_his_next_turn_only_after_31a2b():
    """2017 31A2(b): "offender's partner must pass when next it is his turn to call": a bid at his
    turn after that is no infraction; 2007 31A2(b) "whenever it is his turn": it is."""
    assert obligation("2017", "31A2b") == ("", "next")
    assert obligation("2007", "31A2b") == ("", "throughout")
    # West's 1H out of rotation, cancelled as 31A2b; North 1S, East passes (his next turn), South
    # passes, West 2H, North passes, East 3H: after his next turn (2017) East may bid again.
    calls = [AuctionCall("1H", seat="W", status="cancelled", law="31A2b"), "1S", "Pass", "Pass", "2H", "Pass", "3H"]
    calls += ["Pass", "Pass", "Pass"]
    assert [f.index for f in detect("2017", "N", calls)] == []
    assert [(f.index, f.seat, f.law) for f in detect("2007", "N", calls)] == [(6, "E", "37A")]
