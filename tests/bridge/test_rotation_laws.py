"""Laws 26 and 29-32 per edition, each case from the paragraph's own words (issue #39). The 2017
code restricts the offender's partner at his next turn only when the offender's call at his turn
is not comparable, where the 1997 and 2007 codes bar him for the rest of the auction; its Law 26B
lets declarer prohibit (never require) any one suit the offender did not specify."""

import pytest

from bridge.irregularities import OutOfRotation, call_out_of_rotation, lead_restriction


def effect(edition, facts):
    r = call_out_of_rotation(edition, facts)
    return r.law, r.offender_must_pass, r.partner_must_pass, r.lead_restriction, r.adjustment


@pytest.mark.parametrize(
    "edition, facts, expected",
    [
        # 2017 31A2(b): RHO bid; "When the call is not a comparable call, offender's partner must
        # pass when next it is his turn to call. Laws 16C, 26B and 72C may apply."
        ("2017", OutOfRotation("1H", "rho", rho_call="1S", replacement="1NT"), ("31A2b", "", "next", True, "72C")),
        # 2007 31A2(b): "offender's partner must pass whenever it is his turn to call", Law 23.
        ("2007", OutOfRotation("1H", "rho", rho_call="1S", replacement="1NT"), ("31A2b", "", "throughout", True, "23")),
        # 2017 31A2(a): "When the call is a comparable call ... no further rectification ... see 23C".
        (
            "2017",
            OutOfRotation("1H", "rho", rho_call="1S", replacement="2H", comparable=True),
            ("31A2a", "", "", False, "23C"),
        ),
        # 2017 31B: at partner's turn; "the Director rules as in A2(a) or A2(b)": not comparable,
        # partner passes at his next turn only.
        ("2017", OutOfRotation("1S", "partner", replacement="2S"), ("31B", "", "next", True, "72C")),
        ("2017", OutOfRotation("1S", "lho", replacement="2S"), ("31B", "", "next", True, "72C")),
        # 2007 31B: "offender's partner must pass whenever it is his turn to call".
        ("2007", OutOfRotation("1S", "partner", replacement="2S"), ("31B", "", "throughout", True, "23")),
        ("1997", OutOfRotation("1S", "partner", replacement="2S"), ("31B", "", "throughout", True, "23")),
        # 2017 32A (the RHO's turn in 2017): 32A2(b) not comparable, partner passes at his next turn.
        ("2017", OutOfRotation("X", "rho", rho_call="2H", replacement="Pass"), ("32A2b", "", "next", True, "72C")),
        ("2017", OutOfRotation("X", "rho", rho_call="Pass"), ("32A1", "", "", False, "")),
        # 2007 32B2 (the RHO's turn in 2007): partner "must pass whenever it is his turn".
        ("2007", OutOfRotation("X", "rho", rho_call="2H", replacement="Pass"), ("32B2", "", "throughout", True, "23")),
        # 2017 32B (partner's turn): ruled as 32A2(a) or (b).
        ("2017", OutOfRotation("X", "partner", replacement="Pass"), ("32B", "", "next", True, "72C")),
        (
            "2017",
            OutOfRotation("X", "partner", replacement="X", comparable=True),
            ("32B", "", "", False, "23C"),
        ),
        # 2007 32A (partner's turn): partner "must pass whenever it is his turn".
        ("2007", OutOfRotation("X", "partner", replacement="Pass"), ("32A", "", "throughout", True, "23")),
        # 2017 30A: a pass at RHO's turn, "offender must pass when next it is his turn to call",
        # before or after a bid (1997 and 2007 number these 30A and 30B1).
        ("2017", OutOfRotation("P", "rho"), ("30A", "next", "", False, "")),
        ("2017", OutOfRotation("P", "rho", any_bid_before=True), ("30A", "next", "", False, "")),
        ("2007", OutOfRotation("P", "rho", any_bid_before=True), ("30B1", "next", "", False, "")),
        # 2017 30B1(b): a pass at partner's turn (or LHO's, not having called): the offender "may
        # make any legal call at his correct turn"; (i) comparable: none; (ii) not comparable,
        # "offender's partner must pass when next it is his turn to call".
        (
            "2017",
            OutOfRotation("P", "partner", any_bid_before=True, replacement="2S"),
            ("30B1b", "", "next", True, "72C"),
        ),
        (
            "2017",
            OutOfRotation("P", "partner", any_bid_before=True, replacement="Pass", comparable=True),
            ("30B1b", "", "", False, "23C"),
        ),
        ("2017", OutOfRotation("P", "lho", replacement="1C"), ("30B1b", "", "next", True, "72C")),
        # 2007 30A (before any bid, whoever's turn): "the offender must pass when next it is his turn".
        ("2007", OutOfRotation("P", "partner"), ("30A", "next", "", False, "23")),
        # 2007 30B2(a): after a bid, at partner's turn, "the offender must pass whenever it is his turn".
        ("2007", OutOfRotation("P", "partner", any_bid_before=True), ("30B2", "throughout", "", False, "23")),
        # 1997 31A2(a): the offender repeats the denomination, partner passes at his next turn.
        ("1997", OutOfRotation("1H", "rho", rho_call="1S", replacement="2H"), ("31A2a", "", "next", False, "23")),
    ],
)
def test_laws_30_to_32_per_edition(edition, facts, expected):
    assert effect(edition, facts) == expected


def test_2017_has_no_repeat_of_denomination_paragraph():
    """2017 31A2 knows only comparable (a) or not (b): repeating the denomination is not by itself
    the 1997/2007 31A2(a)."""
    assert effect("2017", OutOfRotation("1H", "rho", rho_call="1S", replacement="2H")) == (
        "31A2b",
        "",
        "next",
        True,
        "72C",
    )


def test_2007_30b2b_partner_may_not_double_at_that_turn():
    """2007 30B2(b): partner "may make any sufficient bid, or may pass, but may not double or
    redouble at that turn"; 2017 30B1(a): partner "may make any legal call at his proper turn"."""
    assert call_out_of_rotation("2007", OutOfRotation("P", "partner", any_bid_before=True)).partner_may_not_double
    assert not call_out_of_rotation("2017", OutOfRotation("P", "partner", any_bid_before=True)).partner_may_not_double


@pytest.mark.parametrize(
    "withdrawn, specified, prohibit",
    [
        # A natural 2H withdrawn, the offender bid spades in the legal auction: any one of H, D, C.
        (["H"], ["S"], ("H", "D", "C")),
        # An artificial call withdrawn (Stayman): the same rule.
        ([], ["S"], ("H", "D", "C")),
        # A pass withdrawn, the offender bid nothing: any suit.
        ([], [], ("S", "H", "D", "C")),
        # The withdrawn 2H, the offender bid hearts later: still clubs, diamonds and spades.
        (["H"], ["H"], ("S", "D", "C")),
    ],
)
def test_2017_26b_declarer_prohibits_any_one_unspecified_suit(withdrawn, specified, prohibit):
    """2017 26B: "declarer may ... prohibit offender's partner from leading any (one) suit which
    has not been specified in the legal auction by the offender"; no requirement to lead."""
    r = lead_restriction("2017", withdrawn_suits=withdrawn, offender_specified=specified)
    assert (r.law, r.require, r.prohibit) == ("26B", (), prohibit)


def test_2017_26a_no_restriction_after_a_comparable_call():
    """2017 26A: "replaced by a comparable call ... there are no lead restrictions"."""
    r = lead_restriction("2017", withdrawn_suits=["H"], offender_specified=[], comparable=True)
    assert (r.law, r.require, r.prohibit) == ("26A", (), ())


def test_2007_26a2_declarer_may_require_or_prohibit_the_withdrawn_suit():
    """2007 26A2: declarer may "(a) require the offender's partner to lead such a suit ... or (b)
    prohibit ... (one) such suit"; 26A1 none when the offender specified it in the legal auction."""
    r = lead_restriction("2007", withdrawn_suits=["H"], offender_specified=["S"])
    assert (r.law, r.require, r.prohibit) == ("26A2", ("H",), ("H",))
    assert lead_restriction("2007", withdrawn_suits=["H"], offender_specified=["H"]).law == "26A1"


def test_2007_27b1b_a_double_with_the_same_or_a_more_precise_meaning():
    """2007 27B1(b): the insufficient bid "corrected by a legal call that in the opinion of the
    Director has the same meaning as, or a more precise meaning than, the insufficient bid": the
    auction proceeds without further rectification, whatever the call (a double included); 27B3
    (partner barred) is the double that does not."""
    from bridge.irregularities import InsufficientBid, insufficient_bid

    r = insufficient_bid("2007", InsufficientBid("1S", "1NT", replacement="X", comparable=True))
    assert (r.law, r.partner_must_pass, r.lead_restriction, r.adjustment) == ("27B1b", "", False, "27D")
    r = insufficient_bid("2007", InsufficientBid("1S", "1NT", replacement="X"))
    assert (r.law, r.partner_must_pass) == ("27B3", "throughout")
    # 1997 has no such paragraph: 27B3, treated as a pass, partner passes throughout.
    r = insufficient_bid("1997", InsufficientBid("1S", "1NT", replacement="X", comparable=True))
    assert (r.law, r.partner_must_pass) == ("27B3", "throughout")
