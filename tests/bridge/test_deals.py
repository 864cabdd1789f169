"""Deals, auctions, double dummy and demo results (bridge/deals.py): plain Python, no database."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.deals import (
    RANKS,
    SEATS,
    SUITS,
    Deal,
    DealError,
    double_dummy,
    generate_deal,
    next_seat,
    par,
    parse_deal,
    plausible_result,
    validate_auction,
)
from bridge.engine.contract import parse_contract

EXAMPLE = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"


def message(text, **options):
    with pytest.raises(DealError) as caught:
        parse_deal(text, **options)
    return str(caught.value)


# --- parse_deal --------------------------------------------------------------------------


def test_parse_deal_reads_hands_by_seat_and_suit():
    deal = parse_deal(EXAMPLE)
    assert deal.hands["N"] == {"S": "AK96", "H": "KJ8", "D": "T74", "C": "Q93"}
    assert deal.hands["W"] == {"S": "54", "H": "7", "D": "K96532", "C": "J875"}
    assert deal.to_pbn() == EXAMPLE
    assert [deal.hcp(seat) for seat in SEATS] == [13, 7, 16, 4]


def test_parse_deal_normalises_first_seat_case_ten_and_rank_order():
    text = "e:qj82.t942.j.kt64 73t.aq653.aq8.a2 54.7.k96532.j875 ak96.kj8.1074.q93"
    deal = parse_deal(text)
    assert deal.to_pbn() == EXAMPLE
    assert deal.to_pbn("E") == "E:QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875 AK96.KJ8.T74.Q93"


def test_void_suits_are_empty():
    deal = parse_deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
    assert deal.hands["N"] == {"S": RANKS, "H": "", "D": "", "C": ""}
    assert deal.hcp("E") == 10


@pytest.mark.parametrize(
    "text, expected, field",
    [
        (
            "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J87",
            "West holds 12 cards: a hand has 13; the deal is missing C5",
            "W",
        ),
        (
            "N:AK96.KJ8.T74.Q935 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J87",
            "North holds 14 cards and West 12: a hand has 13",
            "deal",
        ),
        (
            "N:AK976.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 S7.7.K96532.J875",
            "'S' is not a rank in West's spades: ranks are AKQJT98765432",
            "W",
        ),
        (
            "N:AK976.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 754.7.K96532.J875",
            "the 7 of spades (S7) appears 3 times: in North's, South's and West's hands",
            "deal",
        ),
        (
            "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 K4.7.K96532.J875",
            "the king of spades (SK) appears twice: in North's and West's hands",
            "deal",
        ),
        (
            "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 44.7.K96532.J875",
            "the 4 of spades (S4) appears twice in West's hand",
            "deal",
        ),
        (
            "N:AZ96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875",
            "'Z' is not a rank in North's spades: ranks are AKQJT98765432",
            "N",
        ),
        (
            "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT.64 T73.AQ653.AQ8.A2 54.7.K96532.J875",
            "5 suits in East's hand: a hand is spades.hearts.diamonds.clubs",
            "E",
        ),
        (
            "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2",
            "3 hands in the deal: a deal has 4, separated by spaces",
            "deal",
        ),
        (
            "X:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875",
            "'X' is not a seat: a deal starts with N, E, S or W and a colon",
            "deal",
        ),
        (
            "AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875",
            f"a deal starts with the first seat and a colon, e.g. {EXAMPLE}",
            "deal",
        ),
        (
            "N:AK96.KJ8.T74.Q93 - T73.AQ653.AQ8.A2 54.7.K96532.J875",
            "East's hand is unknown ('-'): all four hands are needed here",
            "E",
        ),
    ],
)
def test_parse_deal_says_exactly_what_is_wrong(text, expected, field):
    with pytest.raises(DealError) as caught:
        parse_deal(text)
    assert str(caught.value) == expected
    assert caught.value.field == field
    assert isinstance(caught.value, ValueError)


def test_partial_deal_only_when_allowed():
    text = "N:AK96.KJ8.T74.Q93 - T73.AQ653.AQ8.A2 54.7.K96532.J875"
    deal = parse_deal(text, allow_partial=True)
    assert deal.hands["E"] is None and not deal.complete
    assert deal.to_pbn() == text
    assert message("N:AK96.KJ8.T74.Q9 - T73.AQ653.AQ8.A2 54.7.K96532.J875", allow_partial=True) == (
        "North holds 12 cards: a hand has 13"
    )
    with pytest.raises(DealError, match="East's hand is not known"):
        deal.hcp("E")
    with pytest.raises(DealError, match="needs all four hands"):
        double_dummy(deal)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**64))
def test_any_generated_deal_reads_back(seed):
    deal = generate_deal(seed)
    assert parse_deal(deal.to_pbn()) == deal
    assert sorted(c for seat in SEATS for c in deal.cards(seat)) == sorted(s + r for s in SUITS for r in RANKS)


@settings(max_examples=60, deadline=None)
@given(st.permutations([s + r for s in SUITS for r in RANKS]), st.sampled_from(SEATS), st.booleans())
def test_any_dealt_pack_reads_back_from_any_first_seat(cards, first, lower):
    hands = {seat: cards[13 * i : 13 * i + 13] for i, seat in enumerate(SEATS)}
    order = [next_seat(first, i) for i in range(4)]
    text = f"{first}:" + " ".join(
        ".".join("".join(c[1] for c in hands[seat] if c[0] == suit) for suit in SUITS) for seat in order
    )
    deal = parse_deal(text.lower() if lower else text)
    assert sorted(deal.cards("S")) == sorted(hands["S"])
    assert parse_deal(deal.to_pbn()) == deal
    assert sum(deal.hcp(seat) for seat in SEATS) == 40


# --- generate_deal -----------------------------------------------------------------------


def test_generate_deal_is_fixed_by_its_seed():
    # Literal deals: the same on every machine and Python version (only Random.random is used).
    assert generate_deal(1).to_pbn() == "N:QJ75.Q85.K86.K65 94.AK9732.94.Q73 A63.J.AQ73.AJ842 KT82.T64.JT52.T9"
    assert generate_deal("abc").to_pbn() == ("N:T876.KQ75432.6.5 K9.A986.J984.987 QJ42.J.AT73.Q643 A53.T.KQ52.AKJT2")
    assert generate_deal(1) == generate_deal(1)
    assert generate_deal(1) != generate_deal(2)


# --- double dummy and par ----------------------------------------------------------------


def test_double_dummy_on_the_known_deal():
    # Checked against endplay's printed table for this deal:
    # ♣,♦,♥,♠,NT; N:7,7,11,10,11; E:6,5,2,3,2; S:7,8,10,10,10; W:6,5,2,3,2
    assert double_dummy(parse_deal(EXAMPLE)) == {
        "N": {"C": 7, "D": 7, "H": 11, "S": 10, "NT": 11},
        "E": {"C": 6, "D": 5, "H": 2, "S": 3, "NT": 2},
        "S": {"C": 7, "D": 8, "H": 10, "S": 10, "NT": 10},
        "W": {"C": 6, "D": 5, "H": 2, "S": 3, "NT": 2},
    }


def test_double_dummy_follows_the_cards_when_the_deal_is_rotated():
    rotated = parse_deal("E:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875")
    table = double_dummy(rotated)
    assert table["E"] == {"C": 7, "D": 7, "H": 11, "S": 10, "NT": 11}
    assert table["N"] == {"C": 6, "D": 5, "H": 2, "S": 3, "NT": 2}


def test_par_of_the_known_deal():
    assert par(parse_deal(EXAMPLE), "N", "None") == {
        "score": 460,
        "contracts": [{"contract": "3NT", "declarer": "N", "tricks": 11}],
    }
    rotated = parse_deal("E:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875")
    assert par(rotated, "E", "Both") == {
        "score": -660,
        "contracts": [{"contract": "3NT", "declarer": "E", "tricks": 11}],
    }


def test_par_with_a_sacrifice_is_doubled_and_from_north_souths_view():
    # E-W can make 4H or 4S; N-S save in 5S or 5H doubled, one down vulnerable.
    assert par(generate_deal(5), "N", "All") == {
        "score": -200,
        "contracts": [
            {"contract": "5SX", "declarer": "N", "tricks": 10},
            {"contract": "5SX", "declarer": "S", "tricks": 10},
            {"contract": "5HX", "declarer": "N", "tricks": 10},
            {"contract": "5HX", "declarer": "S", "tricks": 10},
        ],
    }


def test_par_refuses_a_bad_dealer_or_vulnerability():
    with pytest.raises(DealError, match="'Q' is not a seat"):
        par(parse_deal(EXAMPLE), "Q", "None")
    with pytest.raises(DealError, match="'Red' is not a vulnerability"):
        par(parse_deal(EXAMPLE), "N", "Red")


# --- plausible_result --------------------------------------------------------------------


def test_plausible_result_is_always_a_legal_table_result():
    # 25 deals (the solver takes up to a second each) at 8 tables: 200 results.
    rng = random.Random(7)
    declared_by_stronger = 0
    for seed in range(25):
        deal = generate_deal(seed)
        dealer, vul = SEATS[seed % 4], ("None", "NS", "EW", "All")[seed % 4]
        for _ in range(8):
            contract, declarer, tricks, lead = plausible_result(deal, dealer, vul, rng)
            assert not parse_contract(contract).passed_out and str(parse_contract(contract)) == contract
            assert declarer in SEATS
            assert 0 <= tricks <= 13
            assert lead in deal.cards(next_seat(declarer))
            partner = next_seat(declarer, 2)
            declared_by_stronger += deal.hcp(declarer) + deal.hcp(partner) >= 20
    assert declared_by_stronger > 140  # mostly the side with the points


def test_plausible_result_is_fixed_by_the_rng_state_and_varies_across_tables():
    deal = parse_deal(EXAMPLE)
    first = [plausible_result(deal, "N", "None", random.Random(f"table-{t}")) for t in range(12)]
    again = [plausible_result(deal, "N", "None", random.Random(f"table-{t}")) for t in range(12)]
    assert first == again
    assert all(declarer in {"N", "S"} for _, declarer, _, _ in first)  # N-S hold 27 points
    assert len({(c, d, t) for c, d, t, _ in first}) > 2  # a traveller, not one result twelve times


def test_plausible_result_accepts_pbn_vulnerability_spellings():
    result = plausible_result(parse_deal(EXAMPLE), "N", "Both", random.Random(1))
    assert result[1] in SEATS


# --- validate_auction --------------------------------------------------------------------


@pytest.mark.parametrize(
    "dealer, calls, expected",
    [
        ("N", ["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"], ("3NT", "N")),
        ("E", ["Pass", "1S", "2H", "4S", "X", "Pass", "Pass", "XX", "Pass", "Pass", "Pass"], ("4SXX", "S")),
        ("W", ["1H", "Pass", "2C", "Pass", "2H", "Pass", "4H", "AP"], ("4H", "W")),
        ("S", ["Pass", "Pass", "Pass", "Pass"], ("PASS", None)),
        ("S", ["AP"], ("PASS", None)),
        ("N", ["1C", "X", "Pass", "Pass", "Pass"], ("1CX", "N")),
        ("N", ["p", "1n", "pass", "2c", "x", "P", "p", "p"], ("2CX", "W")),
        # North names spades first for N-S, so North declares even though South bid them last.
        ("N", ["1S", "Pass", "2D", "Pass", "4S", "Pass", "Pass", "Pass"], ("4S", "N")),
    ],
)
def test_legal_auctions(dealer, calls, expected):
    assert validate_auction(dealer, calls) == expected


@pytest.mark.parametrize(
    "calls, expected, index",
    [
        (["1NT", "2C", "Pass", "1H"], "West's 1H (call 4) is insufficient: the last bid was 2C", 3),
        (["1H", "1H"], "East's 1H (call 2) is insufficient: the last bid was 1H", 1),
        (
            ["1NT", "Pass", "X"],
            "South's X (call 3) doubles their own side's 1NT: a double is only of an opponent's bid",
            2,
        ),
        (["X"], "North's X (call 1): there is no bid to double", 0),
        (["1C", "X", "Pass", "X"], "West's X (call 4): 1C is already doubled", 3),
        (["1C", "Pass", "XX"], "South's XX (call 3): there is no double to redouble", 2),
        (
            ["1C", "X", "Pass", "XX"],
            "West's XX (call 4) redoubles their own side's double: a redouble is only of an opponent's double",
            3,
        ),
        (["1C", "X", "XX", "XX"], "West's XX (call 4): 1C is already redoubled", 3),
        (["1C", "Pass", "Pass", "Pass", "1D"], "North's 1D (call 5) comes after the end of the auction", 4),
        (["Pass", "Pass", "Pass", "Pass", "Pass"], "North's Pass (call 5) comes after the end of the auction", 4),
        (["1C", "AP", "Pass"], "East's AP (call 2) must be the last call: AP means all pass", 1),
        (["1C", "5Z"], "'5Z' is not a call: write Pass, X, XX, AP or a bid from 1C to 7NT", 1),
        (["8NT"], "'8NT' is not a call: write Pass, X, XX, AP or a bid from 1C to 7NT", 0),
        (["1C", "Pass", "Pass"], "the auction has not ended: it needs three passes after the last call", None),
        (["Pass", "Pass"], "the auction has not ended: it needs four passes", None),
    ],
)
def test_illegal_auctions(calls, expected, index):
    with pytest.raises(DealError) as caught:
        validate_auction("N", calls)
    assert str(caught.value) == expected
    assert caught.value.field == "auction"
    assert caught.value.index == index


def test_unfinished_auction_allowed_when_asked():
    assert validate_auction("N", ["1C", "Pass"], complete=False) == (None, None)


def test_deal_is_a_plain_dataclass():
    deal = Deal({seat: {suit: "" for suit in SUITS} for seat in SEATS})
    assert deal.complete and deal.hcp("N") == 0
