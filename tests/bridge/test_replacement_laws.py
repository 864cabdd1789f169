"""Law 27 (insufficient bid), Law 25 (changes of call) and Law 23 per edition, one test per
paragraph per edition, each from the paragraph's own words (issue #39): the row of the edition's
table (bridge.replacement_laws.INSUFFICIENT, CHANGE; bridge.call_laws.LAW_23) is what the page
offers, what the service records and what the ruling cites."""

import pytest

from bridge.auction_checks import obligation
from bridge.irregularities import (
    CHANGE,
    INSUFFICIENT,
    LAW_23,
    ChangeOfCall,
    InsufficientBid,
    OutOfRotation,
    call_out_of_rotation,
    change_of_call,
    change_of_call_options,
    damage_law,
    insufficient_bid,
    insufficient_bid_options,
)


def effect(rectification):
    r = rectification
    return r.law, r.stands, r.partner_must_pass, r.lead_restriction, r.adjustment


# --- Law 27, 1997 -------------------------------------------------------------------------------


def test_1997_27A_accepted_is_27A_the_1997_law_has_no_27A1():
    """1997 27A "Any insufficient bid may be accepted (treated as legal) at the option of
    offender's LHO": one paragraph (the catalogue's 27A, no 27A1). It was cited 27A1 before."""
    assert effect(insufficient_bid("1997", InsufficientBid("1D", "1H", accepted=True))) == ("27A", True, "", False, "")


def test_1997_27C_out_of_rotation_law_31_applies():
    """1997 27C "If a player makes an insufficient bid out of rotation, Law 31 applies" (the
    catalogue's 27C "Insufficient Bid Out of Rotation"; 27A2 does not exist in 1997 and its
    nearest paragraph, 27A, is the bid accepted). It was 27A2 before."""
    r = insufficient_bid("1997", InsufficientBid("1S", "1NT", out_of_rotation=True))
    assert effect(r) == ("27C", False, "", False, "")
    assert [
        (c.key, c.rectification.law)
        for c in insufficient_bid_options("1997", InsufficientBid("1S", "1NT", out_of_rotation=True))
    ] == [
        ("27A1", "27A"),
        ("31", "27C"),
    ]


def test_1997_27B1a_lowest_sufficient_bid_same_denomination_no_rectification_see_27B1b():
    """1997 27B1(a) the lowest sufficient bid in the same denomination, neither conventional: "the
    auction proceeds as though the irregularity had not occurred"; 27B1(b) the adjusted score."""
    assert effect(insufficient_bid("1997", InsufficientBid("1D", "1H", replacement="2D"))) == (
        "27B1a",
        False,
        "",
        False,
        "27B1b",
    )


def test_1997_27B2_any_other_sufficient_bid_or_pass_partner_passes_throughout_see_23():
    """1997 27B2 "corrected by any other sufficient bid or by a pass, the offender's partner must
    pass whenever it is his turn to call (see Law 23 ...; lead penalties, Law 26, may apply)";
    1997 has no "same or more precise meaning": a call judged comparable counts for nothing."""
    for facts in (
        InsufficientBid("1S", "1NT", replacement="Pass"),
        InsufficientBid("1S", "1NT", replacement="2C", comparable=True),
        InsufficientBid("1D", "1H", replacement="2D", artificial=True),
    ):
        assert effect(insufficient_bid("1997", facts)) == ("27B2", False, "throughout", True, "23")


def test_1997_27B2_a_second_insufficient_bid_the_1997_law_has_no_27B4():
    r = insufficient_bid("1997", InsufficientBid("1S", "1NT", replacement="1NT"))
    assert effect(r) == ("27B2", False, "throughout", True, "23")
    assert "second insufficient bid" in str(r.text)


def test_1997_27B3_a_double_is_treated_as_a_pass_partner_passes_throughout():
    r = insufficient_bid("1997", InsufficientBid("1S", "1NT", replacement="X", comparable=True))
    assert effect(r) == ("27B3", False, "throughout", True, "23")
    assert "treated as a pass" in str(r.text)


def test_1997_options_have_no_27B1b_the_1997_27B1b_is_the_adjusted_score():
    assert [c.key for c in insufficient_bid_options("1997", InsufficientBid("1D", "1H"))] == [
        "27A1",
        "27B1a:2D",
        "27B2",
        "27B3",
    ]


# --- Law 27, 2007 -------------------------------------------------------------------------------


def test_2007_27A1_accepted_and_27A2_out_of_rotation():
    assert effect(insufficient_bid("2007", InsufficientBid("1D", "1H", accepted=True))) == ("27A1", True, "", False, "")
    assert effect(insufficient_bid("2007", InsufficientBid("1D", "1H", out_of_rotation=True)))[0] == "27A2"


def test_2007_27B1a_lowest_sufficient_bid_incontrovertibly_not_artificial_no_rectification_unless_27D():
    assert effect(insufficient_bid("2007", InsufficientBid("1D", "1H", replacement="2D"))) == (
        "27B1a",
        False,
        "",
        False,
        "27D",
    )


def test_2007_27B1b_same_or_more_precise_meaning_no_rectification_unless_27D():
    """2007 27B1(b) "a legal call that in the Director's opinion has the same meaning as, or a more
    precise meaning than, the insufficient bid ... proceeds without further rectification, but see
    D": a bid, and a double (27B3 "except as provided in B1(b)", commit 2cccb85)."""
    for replacement in ("2C", "X"):
        r = insufficient_bid("2007", InsufficientBid("1S", "1NT", replacement=replacement, comparable=True))
        assert effect(r) == ("27B1b", False, "", False, "27D")
        assert "same or a more precise meaning" in str(r.text)


def test_2007_27B2_other_call_partner_passes_throughout_26_and_see_23():
    r = insufficient_bid("2007", InsufficientBid("1S", "1NT", replacement="Pass"))
    assert effect(r) == ("27B2", False, "throughout", True, "23")


def test_2007_27B3_double_cancelled_another_legal_call_partner_passes_throughout():
    r = insufficient_bid("2007", InsufficientBid("1S", "1NT", replacement="XX"))
    assert effect(r) == ("27B3", False, "throughout", True, "23")


def test_2007_27B4_another_insufficient_bid_ruled_as_in_27B3():
    r = insufficient_bid("2007", InsufficientBid("1S", "1NT", replacement="1H", comparable=True))
    assert effect(r) == ("27B4", False, "throughout", True, "23")


# --- Law 27, 2017 -------------------------------------------------------------------------------


def test_2017_27B1a_lowest_sufficient_bid_specifying_the_same_denomination_no_rectification_see_27D():
    """2017 27B1(a) "Laws 26B and 16C2 do not apply but see D following"."""
    assert effect(insufficient_bid("2017", InsufficientBid("1D", "1H", replacement="2D"))) == (
        "27B1a",
        False,
        "",
        False,
        "27D",
    )


def test_2017_27B1b_comparable_call_no_rectification():
    """2017 27B1(b) "corrected with a comparable call (see Law 23A) the auction proceeds without
    further rectification ... but see D following"; a double too (27B3 "Except as provided in B1(b)")."""
    for replacement in ("2C", "Pass", "X"):
        r = insufficient_bid("2017", InsufficientBid("1S", "1NT", replacement=replacement, comparable=True))
        assert effect(r) == ("27B1b", False, "", False, "27D")
        assert str(r.text) == "replaced by a comparable call: the auction goes on without further rectification"


def test_2017_27B2_other_call_partner_passes_throughout_26B_and_see_72C():
    r = insufficient_bid("2017", InsufficientBid("1S", "1NT", replacement="3S"))
    assert effect(r) == ("27B2", False, "throughout", True, "72C")


def test_2017_27B3_double_not_comparable_cancelled_partner_passes_throughout():
    r = insufficient_bid("2017", InsufficientBid("1S", "1NT", replacement="X"))
    assert effect(r) == ("27B3", False, "throughout", True, "72C")


def test_2017_27B4_another_insufficient_bid():
    r = insufficient_bid("2017", InsufficientBid("1S", "1NT", replacement="1D"))
    assert effect(r) == ("27B4", False, "throughout", True, "72C")


def test_27_the_options_are_the_rows_of_the_table():
    """One reading of the table: each option the page offers is the edition's row itself."""
    for edition, table in INSUFFICIENT.items():
        options = {c.key: c.rectification for c in insufficient_bid_options(edition, InsufficientBid("1D", "1H"))}
        assert options["27A1"] is table["accepted"]
        assert options["27B1a:2D"] is table["lowest"]
        assert options["27B2"] is table["other"]
        assert options["27B3"] is table["double"]
        assert ("27B1b" in options) == ("other_comparable" in table) == (edition != "1997")


@pytest.mark.parametrize(
    "edition, law, expected",
    [
        ("1997", "27B2", ("", "throughout")),
        ("1997", "27B3", ("", "throughout")),
        ("1997", "27B1a", ("", "")),
        ("2007", "27B4", ("", "throughout")),
        ("2017", "27B1b", ("", "")),
        ("2017", "27B3", ("", "throughout")),
    ],
)
def test_27_the_service_checks_read_the_same_rows(edition, law, expected):
    """Law 37's check (a call by a player who had to pass) reads the obligation from the row."""
    assert obligation(edition, law) == expected


# --- Law 25 -------------------------------------------------------------------------------------


def test_1997_25A_unintended_call_changed_without_pause_for_thought_stands():
    assert effect(change_of_call("1997", ChangeOfCall(unintended=True))) == ("25A", True, "", False, "")


def test_1997_25A_too_late_once_partner_has_called_the_1997_law_has_no_25A2_or_25A3():
    """1997 25A "Until his partner makes a call, a player may substitute ...": one paragraph; the
    1997 catalogue holds no 25A2 or 25A3 (they were cited before)."""
    assert change_of_call("1997", ChangeOfCall(unintended=True, partner_called=True)).law == "25A"
    assert change_of_call("1997", ChangeOfCall(unintended=True, auction_ended=True)).law == "25A"
    assert [c.key for c in change_of_call_options("1997", ChangeOfCall(unintended=True, partner_called=True))] == [
        "25A"
    ]


def test_1997_25A_after_a_pause_for_thought_is_25B():
    assert [c.key for c in change_of_call_options("1997", ChangeOfCall(unintended=True, pause_for_thought=True))] == [
        "25B1",
        "25B2b1",
        "25B2b2",
    ]


def test_1997_25B1_accepted_the_second_call_stands_without_penalty():
    assert effect(change_of_call("1997", ChangeOfCall(unintended=False, accepted=True))) == (
        "25B1",
        True,
        "",
        False,
        "",
    )


def test_1997_25B2b1_the_first_call_stands_partner_passes_at_his_next_turn_lead_penalty():
    """1997 25B2(b)(1) "allow his first call to stand, in which case (penalty) his partner must
    pass when next it is his turn to call (see Law 23 ...)"; (c) a lead penalty (Law 26). Before,
    one 25B2 row named both choices and barred no one."""
    r = change_of_call("1997", ChangeOfCall(unintended=False))
    assert effect(r) == ("25B2b1", False, "next", True, "23")
    assert r.score_cap == ""
    assert obligation("1997", "25B2b1") == ("", "next")


def test_1997_25B2b2_any_other_legal_call_at_most_average_minus_lead_penalty():
    """1997 25B2(b)(2) "make any other legal call ...; the offending side may receive no score
    greater than average minus"; (c) a lead penalty (Law 26). The offender chooses between them
    once the left-hand opponent has not accepted the substituted call."""
    options = change_of_call_options("1997", ChangeOfCall(unintended=False))
    assert [(c.key, c.chooser) for c in options] == [("25B1", "lho"), ("25B2b1", "offender"), ("25B2b2", "offender")]
    r = options[2].rectification
    assert (r.law, r.stands, r.partner_must_pass, r.lead_restriction, r.score_cap) == (
        "25B2b2",
        True,
        "",
        True,
        "average_minus",
    )


def test_2007_25A_only_without_pause_for_thought():
    assert change_of_call("2007", ChangeOfCall(unintended=True)).law == "25A"
    assert change_of_call("2007", ChangeOfCall(unintended=True, pause_for_thought=True)).law == "25B2"


def test_2007_25A2_partner_has_called_and_25A3_auction_ended():
    assert effect(change_of_call("2007", ChangeOfCall(unintended=True, partner_called=True))) == (
        "25A2",
        False,
        "",
        False,
        "",
    )
    assert change_of_call("2007", ChangeOfCall(unintended=True, auction_ended=True)).law == "25A3"


def test_2007_25B1_accepted_the_withdrawn_call_is_subject_to_25B3_law_16():
    """2007 25B1 "The first call is then withdrawn, the second call stands"; 25B3 (the catalogue's
    "Law 16 applies to the withdrawn call"). It named no Law 16 before."""
    assert effect(change_of_call("2007", ChangeOfCall(unintended=False, accepted=True))) == (
        "25B1",
        True,
        "",
        False,
        "16",
    )


def test_2007_25B2_cancelled_the_original_call_stands_law_16():
    assert effect(change_of_call("2007", ChangeOfCall(unintended=False))) == ("25B2", False, "", False, "16")


def test_2017_25A_unintended_call_whatever_the_pause_no_lead_restriction():
    """2017 25A1: no word of a pause for thought; "the lead restrictions in Law 26 do not apply"."""
    r = change_of_call("2017", ChangeOfCall(unintended=True, pause_for_thought=True))
    assert effect(r) == ("25A", True, "", False, "")


def test_2017_25B1_accepted_law_26_may_apply():
    """2017 25B1 "The first call is then withdrawn, the second call stands and the auction continues
    (Law 26 may apply)"; 25B3 "Law 16C applies to any call withdrawn". Law 26 was left out before."""
    assert effect(change_of_call("2017", ChangeOfCall(unintended=False, accepted=True))) == (
        "25B1",
        True,
        "",
        True,
        "16",
    )


def test_2017_25B2_cancelled_the_original_call_stands_law_26_may_apply():
    """2017 25B2 "a substitution not permitted by A is cancelled. The original call stands and the
    auction continues (Law 26 may apply)". Law 26 was left out before."""
    assert effect(change_of_call("2017", ChangeOfCall(unintended=False))) == ("25B2", False, "", True, "16")


def test_2017_25A2_too_late_after_partner_called():
    assert change_of_call("2017", ChangeOfCall(unintended=True, partner_called=True)).law == "25A2"


def test_25_the_options_are_the_rows_of_the_table():
    for edition in ("2007", "2017"):
        table = CHANGE[edition]
        options = change_of_call_options(edition, ChangeOfCall(unintended=False))
        assert [(c.key, c.chooser, c.rectification) for c in options] == [
            ("25B1", "lho", table["accepted"]),
            ("25B2", "lho", table["not_accepted"]),
        ]
    table = CHANGE["1997"]
    assert [c.rectification for c in change_of_call_options("1997", ChangeOfCall(unintended=False))] == [
        table["accepted"],
        table["not_accepted"],
        table["not_accepted_other_call"],
    ]


# --- Law 23 -------------------------------------------------------------------------------------


def test_1997_23_enforced_pass_and_2007_23_awareness_of_potential_damage():
    assert damage_law("1997") == LAW_23["1997"].damage == "23"
    assert damage_law("2007") == "23"
    assert LAW_23["1997"].comparable == LAW_23["2007"].comparable == ""


def test_2017_23_comparable_call_and_72C_awareness_of_potential_damage():
    assert damage_law("2017") == "72C"
    assert (LAW_23["2017"].comparable, LAW_23["2017"].no_rectification, LAW_23["2017"].comparable_damage) == (
        "23A",
        "23B",
        "23C",
    )


def test_2017_23C_is_the_adjustment_after_a_comparable_call_out_of_rotation():
    r = call_out_of_rotation("2017", OutOfRotation("1H", "rho", rho_call="1S", replacement="2H", comparable=True))
    assert (r.law, r.adjustment) == ("31A2a", LAW_23["2017"].comparable_damage)


def test_the_comparable_judgement_is_read_by_2017_23A_and_2007_27B1b_and_by_nothing_in_1997():
    from bridge.irregularities import comparable_law

    assert [comparable_law(e) for e in ("1997", "2007", "2017")] == ["", "27B1b", "23A"]
