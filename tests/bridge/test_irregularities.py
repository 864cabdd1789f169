"""The auction as called and the play as played (issue #28): irregular calls kept, the Laws'
options per edition (25-32, 36-39, 26), leads and plays out of turn, premature plays and
penalty cards (49-57). Each case is a law's own example or edge, with the exact outcome."""

import pytest

from bridge.auction import Auction, AuctionCall, check_play
from bridge.deals import DealError, parse_deal
from bridge.irregularities import (
    ChangeOfCall,
    InsufficientBid,
    OutOfRotation,
    call_out_of_rotation,
    change_of_call,
    inadmissible_call,
    insufficient_bid,
    insufficient_bid_options,
    lead_restriction,
    lowest_sufficient,
    out_of_rotation_options,
    read_auction,
)
from bridge.play import read_play
from bridge.play_irregularities import (
    PlayIrregularity,
    lead_out_of_turn,
    penalty_card,
    penalty_card_lead_options,
    penalty_card_obligation,
    penalty_cards_through_play,
    premature_play,
    trick_leaders,
)

EDITIONS = ("1997", "2007", "2017")

# --- The auction as called ---------------------------------------------------------------------


def test_the_issues_auction_is_a_condoned_insufficient_bid():
    """`1H 1D P P P`: East's 1D was accepted when South called over it (27A1); East declares 1D."""
    auction = Auction("N", ["1H", "1D", "P", "P", "P"])
    assert auction.validate() == ("1D", "E")
    (call,) = auction.as_called().irregular
    assert (call.index, call.seat, call.call, call.kind, call.status, call.law) == (
        1,
        "E",
        "1D",
        "insufficient",
        "condoned",
        "27A1",
    )


def test_an_accepted_insufficient_bid_with_attention_drawn_is_accepted_not_condoned():
    calls = [AuctionCall("1H"), AuctionCall("1D", attention_by="S"), *map(AuctionCall, ["2D", "P", "P", "P"])]
    as_called = read_auction("N", calls)
    assert (as_called.contract, as_called.declarer) == ("2D", "S")
    assert as_called.irregular[0].status == "accepted"


def test_an_insufficient_bid_replaced_by_the_lowest_sufficient_bid_is_kept_cancelled():
    calls = [
        AuctionCall("1H"),
        AuctionCall("1D", status="cancelled", attention_by="S", option="27B1a:2D"),
        *map(AuctionCall, ["2D", "P", "P", "P"]),
    ]
    as_called = read_auction("N", calls)
    assert (as_called.contract, as_called.declarer) == ("2D", "E")
    assert as_called.seats == ("N", "E", "E", "S", "W", "N")
    assert as_called.legal == (0, 2, 3, 4, 5)
    assert [(c.kind, c.status, c.law, c.option) for c in as_called.irregular] == [
        ("insufficient", "cancelled", "27B", "27B1a:2D")
    ]


def test_a_call_out_of_rotation_accepted_moves_the_rotation():
    """Dealer North; East opens 1S at North's turn, South calls over it (29A): North lost his turn."""
    calls = [AuctionCall("1S", seat="E"), *map(AuctionCall, ["2H", "P", "P", "P"])]
    as_called = read_auction("N", calls)
    assert as_called.seats == ("E", "S", "W", "N", "E")
    assert (as_called.contract, as_called.declarer) == ("2H", "S")
    assert [(c.kind, c.status, c.law, c.turn) for c in as_called.irregular] == [
        ("out_of_rotation", "condoned", "29A", "N")
    ]


def test_a_call_out_of_rotation_cancelled_goes_back_to_the_right_player():
    calls = [AuctionCall("1S", seat="E", status="cancelled", option="29B"), *map(AuctionCall, ["P", "P", "P", "P"])]
    as_called = read_auction("N", calls)
    assert as_called.seats == ("E", "N", "E", "S", "W")
    assert as_called.contract == "PASS"


def test_a_change_of_call_keeps_both_calls():
    calls = [
        AuctionCall("1C"),
        AuctionCall("P", status="withdrawn", law="25A"),
        *map(AuctionCall, ["1H", "P", "P", "P"]),
    ]
    as_called = read_auction("N", calls)
    assert as_called.seats == ("N", "E", "E", "S", "W", "N")
    assert (as_called.contract, as_called.declarer) == ("1H", "E")
    assert [(c.kind, c.status, c.law) for c in as_called.irregular] == [("change", "withdrawn", "25A")]


def test_an_insufficient_bid_awaiting_the_director_ends_the_record():
    calls = [AuctionCall("1NT"), AuctionCall("1S", attention_by="S")]
    as_called = read_auction("N", calls, complete=False)
    assert as_called.pending is not None
    assert (as_called.pending.seat, as_called.pending.status) == ("E", "pending")
    assert as_called.contract is None


@pytest.mark.parametrize(
    "calls, message, index",
    [
        (["1H", "P", "P", "P", "2C"], "North's 2C (call 5) comes after the end of the auction", 4),
        (["P", "X"], "East's X (call 2): there is no bid to double", 1),
        (["1S", "Pass", "2C", "1H"], "West's 1H (call 4) is insufficient: the last bid was 2C", 3),
    ],
)
def test_what_cannot_have_happened_is_refused_and_named(calls, message, index):
    with pytest.raises(DealError) as raised:
        Auction("N", calls).validate(complete=False)
    assert str(raised.value).startswith(message)
    if index is not None:
        assert raised.value.index == index


def test_a_double_of_ones_own_side_cannot_stand():
    with pytest.raises(DealError, match=r"South's X \(call 3\) doubles their own side's 1H"):
        Auction("N", ["1H", "P", "X", "P", "P", "P"]).validate()
    calls = [AuctionCall("1H"), AuctionCall("P"), AuctionCall("X", status="cancelled", law="36B"), AuctionCall("P")]
    calls += [AuctionCall("P")]
    as_called = read_auction("N", calls)
    assert (as_called.contract, as_called.declarer) == ("1H", "N")
    assert as_called.irregular[0].kind == "inadmissible"


def test_a_call_out_of_rotation_nobody_called_over_is_refused():
    calls = [AuctionCall("1H"), AuctionCall("1S", seat="W"), AuctionCall("2S", seat="E")]
    with pytest.raises(DealError, match=r"West's 1S \(call 2\) was out of rotation \(it was East's turn\)"):
        read_auction("N", calls, complete=False)


def test_a_call_after_the_close_marked_cancelled_is_kept():
    calls = [*map(AuctionCall, ["1H", "P", "P", "P"]), AuctionCall("2C", status="cancelled", law="39")]
    as_called = read_auction("N", calls)
    assert as_called.contract == "1H"
    assert [(c.kind, c.law) for c in as_called.irregular] == [("after_close", "39")]


def test_a_withdrawn_final_pass_reopens_the_auction():
    """21B1a: the player changes his pass after misinformation; the auction goes on."""
    calls = [*map(AuctionCall, ["1H", "P", "P"]), AuctionCall("P", status="withdrawn", law="21B1a")]
    calls += [AuctionCall("2C", seat="W"), *map(AuctionCall, ["P", "P", "P"])]
    as_called = read_auction("N", calls)
    assert (as_called.contract, as_called.declarer) == ("2C", "W")


def test_the_record_round_trips_with_its_irregularities():
    auction = Auction(
        "N",
        [AuctionCall("1H"), AuctionCall("1D", attention_by="S", status="accepted"), *map(AuctionCall, "PPP")],
        play_irregularities=[PlayIrregularity("lead_out_of_turn", 1, "W", "SA", attention_by="N", option="54D")],
    )
    data = auction.to_dict()
    assert data["calls"][1] == {
        "call": "1D",
        "alert": False,
        "explanation": "",
        "tempo_seconds": None,
        "note": "",
        "seat": "",
        "status": "accepted",
        "attention_by": "S",
        "law": "",
        "option": "",
    }
    assert "seat" not in data["calls"][0]
    assert Auction.from_dict(data) == auction


# --- Law 27 --------------------------------------------------------------------------------------


def test_lowest_sufficient():
    assert lowest_sufficient("1D", "1H") == "2D"
    assert lowest_sufficient("1NT", "1NT") == "2NT"
    assert lowest_sufficient("2C", "2NT") == "3C"
    assert lowest_sufficient("1S", "1H") == "1S"  # not insufficient at all; the arithmetic holds


@pytest.mark.parametrize("edition", ["2007", "2017"])
def test_27a1_accepted(edition):
    r = insufficient_bid(edition, InsufficientBid("1D", "1H", accepted=True))
    assert (r.law, r.stands, r.partner_must_pass) == ("27A1", True, "")


@pytest.mark.parametrize(
    "edition, facts, law, partner, lead, adjustment",
    [
        # 1H (1D): 2D, neither artificial: no rectification in every edition.
        ("1997", InsufficientBid("1D", "1H", replacement="2D"), "27B1a", "", False, "27B1b"),
        ("2007", InsufficientBid("1D", "1H", replacement="2D"), "27B1a", "", False, "27D"),
        ("2017", InsufficientBid("1D", "1H", replacement="2D"), "27B1a", "", False, "27D"),
        # 1NT (1S): 2S, but 2S would be a transfer: artificial.
        ("1997", InsufficientBid("1S", "1NT", replacement="2S", artificial=True), "27B2", "throughout", True, "23"),
        ("2017", InsufficientBid("1S", "1NT", replacement="2S", artificial=True), "27B2", "throughout", True, "72C"),
        # 1NT (1S): 2C (Stayman) judged comparable (2017 23A) / same-or-more-precise meaning (2007 27B1b).
        ("1997", InsufficientBid("1S", "1NT", replacement="2C", comparable=True), "27B2", "throughout", True, "23"),
        ("2007", InsufficientBid("1S", "1NT", replacement="2C", comparable=True), "27B1b", "", False, "27D"),
        ("2017", InsufficientBid("1S", "1NT", replacement="2C", comparable=True), "27B1b", "", False, "27D"),
        # replaced by a pass
        ("2007", InsufficientBid("1S", "1NT", replacement="P"), "27B2", "throughout", True, "23"),
        # a double: 27B3 (2017 a comparable double is 27B1b)
        ("1997", InsufficientBid("1S", "1NT", replacement="X"), "27B3", "throughout", True, "23"),
        ("2007", InsufficientBid("1S", "1NT", replacement="X"), "27B3", "throughout", True, "23"),
        ("2017", InsufficientBid("1S", "1NT", replacement="X"), "27B3", "throughout", True, "72C"),
        ("2017", InsufficientBid("1S", "1NT", replacement="X", comparable=True), "27B1b", "", False, "27D"),
        # another insufficient bid: 27B4 (2007, 2017)
        ("2017", InsufficientBid("1S", "1NT", replacement="1NT"), "27B4", "throughout", True, "72C"),
        # out of rotation: Law 31
        ("2017", InsufficientBid("1S", "1NT", out_of_rotation=True), "27A2", "", False, ""),
    ],
)
def test_27_per_edition(edition, facts, law, partner, lead, adjustment):
    r = insufficient_bid(edition, facts)
    assert (r.law, r.partner_must_pass, r.lead_restriction, r.adjustment) == (law, partner, lead, adjustment)


def test_27_options_offered():
    assert [c.key for c in insufficient_bid_options("2017", InsufficientBid("1D", "1H"))] == [
        "27A1",
        "27B1a:2D",
        "27B1b",
        "27B2",
        "27B3",
    ]
    assert [c.key for c in insufficient_bid_options("1997", InsufficientBid("1D", "1H"))] == [
        "27A1",
        "27B1a:2D",
        "27B2",
        "27B3",
    ]
    assert [c.chooser for c in insufficient_bid_options("2007", InsufficientBid("1D", "1H"))][:2] == ["lho", "offender"]


def test_27_refuses_a_sufficient_bid():
    with pytest.raises(DealError, match="2D is sufficient over 1H: it is not an insufficient bid"):
        insufficient_bid("2017", InsufficientBid("2D", "1H"))
    with pytest.raises(DealError, match="'1990' is not an edition of the Laws"):
        insufficient_bid("1990", InsufficientBid("1D", "1H"))


# --- Laws 29-32 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "edition, facts, law, offender, partner, no_double, repeat, lead",
    [
        ("2007", OutOfRotation("P", "rho"), "30A", "next", "", False, False, False),
        ("2007", OutOfRotation("P", "rho", any_bid_before=True), "30B1", "next", "", False, False, False),
        ("1997", OutOfRotation("P", "partner", any_bid_before=True), "30B2", "throughout", "", True, False, False),
        # 2017 30B1(b)(ii): the offender calls freely; his partner passes when next it is his turn
        ("2017", OutOfRotation("P", "partner", any_bid_before=True), "30B1b", "", "next", False, False, True),
        ("2007", OutOfRotation("1H", "rho", rho_call="P"), "31A1", "", "", False, True, False),
        ("1997", OutOfRotation("1H", "rho", rho_call="1S", replacement="2H"), "31A2a", "", "next", False, False, False),
        ("2007", OutOfRotation("1H", "rho", rho_call="1S", replacement="2H"), "31A2a", "", "next", False, False, False),
        (
            "2007",
            OutOfRotation("1H", "rho", rho_call="1S", replacement="1NT"),
            "31A2b",
            "",
            "throughout",
            False,
            False,
            True,
        ),
        (
            "2017",
            OutOfRotation("1H", "rho", rho_call="1S", replacement="2H", comparable=True),
            "31A2a",
            "",
            "",
            False,
            False,
            False,
        ),
        (
            "2017",
            OutOfRotation("1H", "rho", rho_call="1S", replacement="2H"),
            "31A2b",
            "",
            "next",
            False,
            False,
            True,
        ),
        ("2007", OutOfRotation("1H", "partner"), "31B", "", "throughout", False, False, True),
        ("2017", OutOfRotation("1H", "lho", replacement="1H", comparable=True), "31B", "", "", False, False, False),
        ("2007", OutOfRotation("X", "partner"), "32A", "", "throughout", False, False, True),
        ("2007", OutOfRotation("X", "rho", rho_call="P"), "32B1", "", "", False, True, False),
        (
            "2007",
            OutOfRotation("X", "rho", rho_call="2H", replacement="P"),
            "32B2",
            "",
            "throughout",
            False,
            False,
            True,
        ),
        ("2007", OutOfRotation("1S", "lho", offender_had_called=True), "25", "", "", False, False, False),
        ("2017", OutOfRotation("P", "lho", any_bid_before=True), "25", "", "", False, False, False),
        # an artificial pass is treated as a bid (30C): at partner's turn, 31B
        (
            "2007",
            OutOfRotation("P", "partner", any_bid_before=True, artificial=True),
            "31B",
            "",
            "throughout",
            False,
            False,
            True,
        ),
    ],
)
def test_29_to_32_per_edition(edition, facts, law, offender, partner, no_double, repeat, lead):
    r = call_out_of_rotation(edition, facts)
    assert (r.law, r.offender_must_pass, r.partner_must_pass, r.partner_may_not_double) == (
        law,
        offender,
        partner,
        no_double,
    )
    assert (r.offender_must_repeat, r.lead_restriction) == (repeat, lead)


def test_29a_and_the_options():
    choices = out_of_rotation_options("2017", OutOfRotation("1H", "partner"))
    assert [(c.key, c.rectification.law, c.rectification.stands) for c in choices] == [
        ("29A", "29A", True),
        ("29B", "31B", False),
    ]


# --- Law 25 and 36-39 ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "edition, facts, law, stands, cap",
    [
        ("2007", ChangeOfCall(unintended=True), "25A", True, ""),
        ("2007", ChangeOfCall(unintended=True, pause_for_thought=True), "25B2", False, ""),
        ("2017", ChangeOfCall(unintended=True, pause_for_thought=True), "25A", True, ""),
        ("2017", ChangeOfCall(unintended=True, partner_called=True), "25A2", False, ""),
        ("2017", ChangeOfCall(unintended=False, accepted=True), "25B1", True, ""),
        ("2017", ChangeOfCall(unintended=False), "25B2", False, ""),
        ("1997", ChangeOfCall(unintended=False), "25B2b1", False, ""),
    ],
)
def test_25(edition, facts, law, stands, cap):
    r = change_of_call(edition, facts)
    assert (r.law, r.stands, r.score_cap) == (law, stands, cap)


def test_36_to_39():
    assert inadmissible_call("2017", "double", lho_called=True).law == "36A"
    r = inadmissible_call("2017", "double", lho_called=False)
    assert (r.law, r.partner_must_pass, r.adjustment) == ("36B", "throughout", "72C")
    assert inadmissible_call("2007", "required_pass", lho_called=True).stands is True
    assert inadmissible_call("2007", "required_pass", lho_called=False).offender_must_pass == "throughout"
    assert inadmissible_call("1997", "after_auction", lho_called=False).law == "39"


# --- Law 26 --------------------------------------------------------------------------------------


def test_26_per_edition():
    # A withdrawn natural 2H; the offender never bid hearts: declarer may require or prohibit hearts.
    r = lead_restriction("2007", withdrawn_suits=["H"], offender_specified=["S"])
    assert (r.law, r.require, r.prohibit) == ("26A2", ("H",), ("H",))
    # He bid hearts in the legal auction: none (16C).
    assert lead_restriction("2007", withdrawn_suits=["H"], offender_specified=["H"]).law == "26A1"
    # 1997 reads "later specified": hearts bid before the withdrawn call do not count.
    r = lead_restriction("1997", withdrawn_suits=["H"], offender_specified=["H"], offender_specified_later=[])
    assert r.law == "26A2"
    assert (
        lead_restriction("2007", withdrawn_suits=["H"], offender_specified=["H"], offender_specified_later=[]).law
        == "26A1"
    )
    # An artificial call (Stayman, a double): declarer may prohibit any one suit.
    r = lead_restriction("2007", withdrawn_suits=[])
    assert (r.law, r.require, r.prohibit) == ("26B", (), ("S", "H", "D", "C"))
    assert lead_restriction("2017", withdrawn_suits=[], comparable=True).law == "26A"
    assert lead_restriction("2007", withdrawn_suits=[], comparable=True).law == "26B"
    assert lead_restriction("2007", withdrawn_suits=["H"], offender_declarer_side=True).law == ""


# --- The play: leads out of turn, premature plays, penalty cards --------------------------------

# North declares 4S; East is to lead. DEAL as in docs/revokes.md.
DEAL = parse_deal("N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875")
BIDS = ["1S", "P", "4S", "P", "P", "P"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_54_opening_lead_out_of_turn(edition):
    choices = lead_out_of_turn(edition, offender="W", declarer="N", opening=True)
    assert [c.key for c in choices] == ["54A", "54B", "54D"]
    assert choices[0].rectification.declarer_becomes_dummy
    assert choices[2].rectification.penalty_card == "major"
    # 54C: declarer could have seen dummy's cards: he must accept (2017: and he declares, no 54A).
    assert [c.key for c in lead_out_of_turn(edition, offender="W", declarer="N", opening=True, dummy_seen=True)] == (
        ["54B"] if edition == "2017" else ["54A", "54B"]
    )


def test_53_55_56():
    assert [c.key for c in lead_out_of_turn("2017", offender="E", declarer="N", opening=False)] == ["53A", "56"]
    assert [c.key for c in lead_out_of_turn("1997", offender="S", declarer="N", opening=False)] == [
        "55A",
        "55B1",
        "55B2",
    ]
    with pytest.raises(DealError, match="declarer's side does not make the opening lead"):
        lead_out_of_turn("2017", offender="S", declarer="N", opening=True)


def test_57_per_edition():
    keys = [c.key for c in premature_play("2017", partner_suits="SH")]
    assert keys == ["57A1", "57A2", "57A3:S", "57A3:H", "57A4:S", "57A4:H"]
    assert "may not play a card of the suit declarer names" in str(
        premature_play("2007", partner_suits="S")[2].rectification.text
    )
    assert "may not play a card of the suit declarer names" in str(
        premature_play("1997", partner_suits="S")[2].rectification.text
    )
    assert [c.key for c in premature_play("2017", declarer_played_both_hands=True)] == ["57C"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_50b_major_or_minor(edition):
    assert penalty_card(edition, card="S4", deliberate=False).penalty_card == "minor"
    assert penalty_card(edition, card="SQ", deliberate=False).penalty_card == "major"  # an honour
    assert penalty_card(edition, card="ST", deliberate=False).penalty_card == "major"  # the ten is an honour
    assert penalty_card(edition, card="S4", deliberate=True).penalty_card == "major"  # led out of turn
    assert penalty_card(edition, card="S4", deliberate=False, other_penalty_cards=1).penalty_card == "major"
    assert penalty_card(edition, card="S4", deliberate=False).law == "50C"


def test_50d2_and_51b_options():
    assert [c.key for c in penalty_card_lead_options("2017", ["SA"])] == ["require:S", "prohibit:S", "none"]
    assert [c.rectification.law for c in penalty_card_lead_options("2017", ["SA"])] == ["50D2a", "50D2a", "50D2b"]
    keys = [c.key for c in penalty_card_lead_options("2007", ["SA", "H4"])]
    assert keys == ["require:S", "require:H", "prohibit:S", "prohibit:H", "prohibit:S,H", "none"]
    assert penalty_card_lead_options("1997", ["SA", "S4"])[0].rectification.law == "51B1a"


def test_50c_50d1_what_the_offender_may_play():
    hand = ["SQ", "S4", "S2", "HA", "H3"]
    # Major SQ, a spade led: he must play the SQ.
    assert penalty_card_obligation(hand, ["SQ"], True, "S") == ("SQ",)
    # Major SQ, a heart led: he follows suit first (50D1b), the SQ waits.
    assert penalty_card_obligation(hand, ["SQ"], True, "H") == ("HA", "H3")
    # Minor S4, a spade led: not the S2 before it; an honour instead is allowed.
    assert penalty_card_obligation(hand, ["S4"], False, "S") == ("SQ", "S4")


def _play_auction(tricks, irregularities):
    return Auction("N", BIDS, play=tricks, play_irregularities=irregularities)


def test_an_accepted_opening_lead_out_of_turn_starts_the_trick_from_the_offender():
    """West leads the D5 out of turn; declarer accepts (54B): West leads, North plays second."""
    irregularity = PlayIrregularity("lead_out_of_turn", 1, "W", "D5", attention_by="N", option="54B")
    auction = _play_auction([["D5", "D4", "DJ", "DQ"]], [irregularity])
    assert check_play(DEAL, auction) == ("4S", "N")
    record = read_play(DEAL, auction)
    assert record.tricks[0].leader == "W"
    assert record.tricks[0].winner == "S"
    # Without the record of the lead out of turn, North holds no D5.
    with pytest.raises(DealError, match="East is to play and does not hold D5"):
        check_play(DEAL, _play_auction([["D5", "D4", "DJ", "DQ"]], []))


def test_54a_declarer_spreads_his_hand_and_his_partner_declares():
    irregularity = PlayIrregularity("lead_out_of_turn", 1, "W", "D5", attention_by="N", option="54A")
    auction = _play_auction([["D5", "D4", "DJ", "DQ"]], [irregularity])
    assert check_play(DEAL, auction) == ("4S", "S")
    record = read_play(DEAL, auction)
    assert (record.declarer, record.tricks[0].leader) == ("S", "W")


def test_a_lead_out_of_turn_with_a_penalty_card_and_declarers_options_at_the_right_turn():
    """4S by North. West faces the D5 out of turn;
    declarer refuses it (54D): the D5 is a major penalty card. East, the right leader, is the
    offender's partner: at trick 1 declarer chooses (50D2) and prohibits diamonds; the D5 is
    picked up."""
    irregularities = [
        PlayIrregularity("lead_out_of_turn", 1, "W", "D5", attention_by="N", option="54D"),
        PlayIrregularity("penalty_card_lead", 1, "E", option="prohibit:D"),
    ]
    tricks = [["C4", "C2", "C5", "C3"]]
    auction = _play_auction(tricks, irregularities)
    record = read_play(DEAL, auction)
    assert [t.leader for t in record.tricks] == ["E"]
    cards, options = penalty_cards_through_play("2017", "N", tricks, ["E"], irregularities)
    assert [(c.seat, c.card, c.major, c.law, c.played_at, c.picked_up_at) for c in cards] == [
        ("W", "D5", True, "54D", None, 1)
    ]
    assert [(o.trick, o.leader, o.penalty_cards, o.chosen) for o in options] == [(1, "E", ("D5",), "prohibit:D")]
    assert [c.key for c in options[0].choices] == ["require:D", "prohibit:D", "none"]


def test_a_penalty_card_left_on_the_table_is_offered_again_and_played():
    """Declarer chose 'none' at trick 1: the D5 stays on the table; West, out of hearts, plays it
    at the first legal opportunity, trick 2."""
    irregularities = [
        PlayIrregularity("lead_out_of_turn", 1, "W", "D5", attention_by="N", option="54D"),
        PlayIrregularity("penalty_card_lead", 1, "E", option="none"),
    ]
    tricks = [["H2", "H3", "H7", "HK"], ["H8", "H4", "H5", "D5"]]
    leaders = trick_leaders("N", tricks, irregularities, "S")
    assert leaders == ["E", "N"]
    cards, options = penalty_cards_through_play("2017", "N", tricks, leaders, irregularities)
    assert [(c.card, c.played_at, c.picked_up_at) for c in cards] == [("D5", 2, None)]
    assert [(o.trick, o.chosen) for o in options] == [(1, "none")]


def test_a_minor_penalty_card_becomes_major_with_a_second():
    irregularities = [
        PlayIrregularity("exposed", 1, "W", "C5"),
        PlayIrregularity("exposed", 2, "W", "C7"),
    ]
    tricks = [["H2", "H3", "H7", "HK"], ["SA", "S2", "S3", "S4"], ["S6", "S8", "ST", "S5"]]
    leaders = trick_leaders("N", tricks, irregularities, "S")
    cards, options = penalty_cards_through_play("2017", "N", tricks, leaders, irregularities)
    assert [(c.card, c.major) for c in cards] == [("C5", True), ("C7", True)]
    # Trick 3 was led by North (he won trick 2): no defender led while West had them.
    assert options == []


def test_the_diagram_shows_the_calls_as_called():
    """East's 1S out of rotation at North's turn, cancelled; North passes, East bids 1S again."""
    from bridge.diagrams import auction_notes, auction_rows, hand_diagram_svg

    calls = [AuctionCall("1S", seat="E", status="cancelled", attention_by="S", law="31B")]
    calls += [AuctionCall(c) for c in ["P", "1S", "P", "P", "P"]]
    auction = Auction("N", calls)
    rows = auction_rows(auction, suit_symbols=False)
    assert [[cell["call"] for cell in row] for row in rows] == [
        ["", "", "1S", ""],
        ["", "Pass", "1S", "Pass"],
        ["Pass", "Pass", "", ""],
    ]
    assert rows[0][2]["cancelled"] and not rows[1][2]["cancelled"]
    (note,) = auction_notes(auction, suit_symbols=False)
    assert str(note["text"]) == "East 1S \u2014 out of rotation, cancelled (31B)"
    svg = hand_diagram_svg(DEAL, dealer="N", vulnerability="None", board_number=1, auction=auction)
    assert 'text-decoration="line-through"' in svg


def test_pbn_and_lin_hold_the_calls_that_stand():
    from bridge.auction import BoardRecord
    from bridge.lin import lin_from_record
    from bridge.pbn_record import to_pbn

    calls = [AuctionCall("1S"), AuctionCall("1D", status="cancelled", attention_by="S", law="27B2")]
    calls += [AuctionCall(c) for c in ["P", "4S", "P", "P", "P"]]
    record = BoardRecord(1, "None", DEAL, Auction("N", calls))
    assert "\n1S Pass 4S Pass\nPass Pass" in to_pbn(record)
    assert "mb|1S|mb|p|mb|4S|mb|p|mb|p|mb|p|" in lin_from_record(record)


def test_the_pbn_play_section_puts_an_accepted_lead_out_of_turn_in_its_seat():
    from bridge.auction import BoardRecord
    from bridge.pbn_record import to_pbn

    irregularity = PlayIrregularity("lead_out_of_turn", 1, "W", "D5", attention_by="N", option="54B")
    record = BoardRecord(1, "None", DEAL, _play_auction([["D5", "D4", "DJ", "DQ"]], [irregularity]))
    play = to_pbn(record).split('[Play "E"]')[1]
    # columns from East (the right leader): East DJ, South DQ, West D5, North D4
    assert play.split("\n")[1].split() == ["DJ", "DQ", "D5", "D4"]
