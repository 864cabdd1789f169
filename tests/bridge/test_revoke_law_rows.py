"""Laws 61-64, 67 and dummy's 43B2b as one table per edition (bridge.revoke_laws.REVOKE_LAWS,
re-exported by bridge.revokes), a test per paragraph per edition, each citing the paragraph's
words (issue #39). A revoke by East at trick 5, established by playing to trick 6, unless said."""

from dataclasses import replace

import pytest

from bridge.revokes import (
    ESTABLISHED_BY,
    REVOKE_LAWS,
    DefectiveTrickFacts,
    RevokeError,
    as_if_established_laws,
    defective_trick_transfer,
    establishment_laws,
    exemptions,
    illegally_drawn_laws,
    revoke_situation,
    revoke_transfer,
)
from rulings.laws import load
from tests.bridge.test_revokes import BASE  # East's revoke at trick 5, established, nothing exempt

EDITIONS = ("1997", "2007", "2017")


def transfer(edition, **changes):
    t = revoke_transfer(edition, replace(BASE, **changes))
    return t.tricks, t.law


# --- Every row is a paragraph of its edition --------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_row_is_a_paragraph_the_editions_catalogue_holds(edition):
    """No letters invented: each row's law is a paragraph of that edition in
    rulings/laws/data/laws_<edition>.json, and each row carries words."""
    numbers = {entry.number for entry in load(edition)}
    for situation, row in REVOKE_LAWS[edition].items():
        assert row.law in numbers, (edition, situation, row.law)
        assert row.words, (edition, situation)


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_transfer_cites_the_row_it_was_read_from(edition):
    """One reading: the law, the tricks and the reason of a transfer are its row's."""
    for changes in (
        {},
        dict(offender_won_revoke_trick=True, offending_side_won_revoke_trick=True),
        dict(faced_card=True),
        dict(established=False, established_by=""),
    ):
        facts = replace(BASE, **changes)
        t = revoke_transfer(edition, facts)
        row = REVOKE_LAWS[edition][revoke_situation(edition, facts) if facts.established else "corrected"]
        assert (t.tricks, t.law, t.reason.template, t.equity) == (row.tricks, row.law, row.text, row.equity)


def test_the_editions_differ_where_their_texts_differ():
    """1997: 63B is attention illegally drawn, 63C the revoke not corrected, 64A2 up to two tricks,
    no 64B7; 2007 and 2017: 63B the revoke not corrected, 64B7; 62C3 is 2007's inspection of
    quitted tricks and 2017's revokes by both sides on one trick."""
    laws = {e: {r.law for r in REVOKE_LAWS[e].values()} for e in EDITIONS}
    assert "63C" in laws["1997"] and "64B7" not in laws["1997"] and "62C3" not in laws["1997"]
    assert REVOKE_LAWS["1997"]["not_corrected"].law == "63C"
    assert REVOKE_LAWS["1997"]["attention_illegally_drawn"].law == "63B"
    for edition in ("2007", "2017"):
        assert "63C" not in laws[edition] and "64B7" in laws[edition]
        assert REVOKE_LAWS[edition]["not_corrected"].law == "63B"
        assert "attention_illegally_drawn" not in REVOKE_LAWS[edition]
        assert "not_won_legal_card" not in REVOKE_LAWS[edition]
    assert "inspection of quitted tricks" in REVOKE_LAWS["2007"]["inspection"].words
    assert "both revokes must be corrected" in REVOKE_LAWS["2017"]["both_on_one_trick"].words
    assert exemptions("1997") == ("64B1", "64B2", "64B3", "64B4", "64B5", "64B6")
    assert exemptions("2007") == exemptions("2017") == ("64B1", "64B2", "64B3", "64B4", "64B5", "64B6", "64B7")


# --- 61, 62 -----------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_61A_61B_a_revoke_and_the_right_to_ask(edition):
    """61A: failure to follow suit (Law 44) is a revoke; 61B: declarer may ask a defender, dummy
    declarer (but see Law 43B2(b)); 2007 and 2017 letter the askers 61B1, 61B2a, 61B2b, 61B3."""
    rows = REVOKE_LAWS[edition]
    assert "Law 44" in rows["definition"].words and rows["definition"].law == "61A"
    assert "43B2(b)" in rows["inquiry"].words and rows["inquiry"].law == "61B"
    assert ("inquiry_dummy_defender" in rows) == (edition != "1997")


@pytest.mark.parametrize("edition", EDITIONS)
def test_62A_a_revoke_not_established_is_corrected_and_nothing_transferred(edition):
    """62A: "A player must correct his revoke if attention is drawn to the irregularity before it
    becomes established" (1997: "if he becomes aware of it")."""
    assert transfer(edition, established=False, established_by="") == (0, "62A")
    assert "before it becomes established" in REVOKE_LAWS[edition]["corrected"].words
    assert revoke_transfer(edition, replace(BASE, established=False, established_by="")).equity is False


@pytest.mark.parametrize("edition", EDITIONS)
def test_62B1_62B2_the_card_withdrawn(edition):
    """62B1: "becomes a major penalty card (Law 50) if it was played from a defender's unfaced
    hand"; 62B2: declarer's or dummy's card, or a defender's faced card, is replaced."""
    rows = REVOKE_LAWS[edition]
    assert "major penalty card" in rows["corrected_defender"].words and rows["corrected_defender"].law == "62B1"
    assert "defender's faced card" in rows["corrected_declarer"].words and rows["corrected_declarer"].law == "62B2"


@pytest.mark.parametrize("edition", EDITIONS)
def test_62C1_62C2_cards_played_after_the_revoke(edition):
    """62C1: each non-offender may withdraw a card played after the revoke; 62C2: then the hand of
    the offending side next in rotation, a penalty card if a defender's."""
    rows = REVOKE_LAWS[edition]
    assert (
        rows["withdrawn_non_offenders"].law == "62C1" and "non-offending side" in rows["withdrawn_non_offenders"].words
    )
    assert rows["withdrawn_partner"].law == "62C2" and "penalty card" in rows["withdrawn_partner"].words


@pytest.mark.parametrize("edition", EDITIONS)
def test_62D1_a_revoke_on_trick_12_is_corrected_and_64B6_transfers_nothing(edition):
    """62D1: "On the twelfth trick, a revoke, even if established, must be corrected"; 64B6: no
    trick adjustment for it."""
    assert "even if established, must be corrected" in REVOKE_LAWS[edition]["twelfth"].words
    assert transfer(edition, trick=12, offending_side_tricks_after=1) == (0, "64B6")


def test_2017_62D2_a_defenders_revoke_on_trick_12_before_partner_played_brings_law_16C():
    """2017 62D2: "If a defender revokes on the twelfth trick before his partner's turn to play to
    the trick, Law 16C applies"; 1997 and 2007 name the two suits partner may not choose between."""
    assert REVOKE_LAWS["2017"]["twelfth_partner"].words.endswith("Law 16C applies.")
    for edition in ("1997", "2007"):
        assert "two suits" in REVOKE_LAWS[edition]["twelfth_partner"].words


# --- 63 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_63A1_63A2_63A3_the_ways_a_revoke_is_established_are_the_rows(edition):
    """63A1 "leads or plays to the following trick", 63A2 "names or otherwise designates a card",
    63A3 "a claim or concession" (1997: "makes or acquiesces in"): the page's choices."""
    rows = REVOKE_LAWS[edition]
    assert establishment_laws(edition)[:3] == ("63A1", "63A2", "63A3")
    assert ESTABLISHED_BY == ("63A1", "63A2", "63A3", "63A4")
    assert "following trick" in rows["established_next_trick"].words
    assert "designates a card" in rows["established_named"].words
    assert "claim or concession" in rows["established_claim"].words
    assert ("acquiesces" in rows["established_claim"].words) == (edition == "1997")
    for law in establishment_laws(edition):
        assert transfer(edition, established_by=law) == (1, "64A2")


def test_2017_63A4_agreement_to_an_opponents_claim_established_under_69A_establishes_the_revoke():
    """2017 63A4: "when agreement is established (as per Law 69A) to an opponent's claim or
    concession"; 1997 and 2007 have no 63A4 (1997 63A3: "makes or acquiesces in")."""
    row = REVOKE_LAWS["2017"]["established_agreement"]
    assert row.law == "63A4" and "as per Law 69A" in row.words
    assert establishment_laws("2017") == ("63A1", "63A2", "63A3", "63A4")
    assert transfer("2017", established_by="63A4") == (1, "64A2")


@pytest.mark.parametrize("edition", ("1997", "2007"))
def test_1997_2007_have_no_63A4(edition):
    """1997 and 2007 63A end at 63A3: a revoke established under 63A4 is refused, the paragraphs named."""
    assert establishment_laws(edition) == ("63A1", "63A2", "63A3")
    with pytest.raises(RevokeError) as caught:
        revoke_transfer(edition, replace(BASE, established_by="63A4"))
    assert caught.value.field == "established_by"
    assert str(caught.value.message) == (
        f"the {edition} Laws have no paragraph 63A4: a revoke is established under 63A1, 63A2, 63A3"
    )


def test_1997_63B_attention_illegally_drawn_is_its_own_paragraph_cited_apart_from_43B2b():
    """1997 63B: "When there has been a violation of Law 61B, the revoker must substitute a legal
    card and the penalty provisions of Law 64 apply as if the revoke had been established"; dummy's
    question to declarer is 43B2b, cited alone (issue #39: one citation a law)."""
    row = REVOKE_LAWS["1997"]["attention_illegally_drawn"]
    assert row.law == "63B" and "violation of Law 61B" in row.words
    assert as_if_established_laws("1997") == ("43B2b",)
    assert illegally_drawn_laws("1997") == ("63B",)


def test_1997_63B_a_revoke_corrected_after_attention_illegally_drawn_is_rectified_as_if_established():
    """1997 63B: "the penalty provisions of Law 64 apply as if the revoke had been established":
    corrected, one trick under 64A2 here, the reason the 63B row's (not 43B2b's)."""
    t = revoke_transfer("1997", replace(BASE, established=False, established_by="", attention_illegally_drawn=True))
    assert (t.tricks, t.law, t.equity) == (1, "64A2", True)
    assert t.reason.template == REVOKE_LAWS["1997"]["attention_illegally_drawn"].text
    assert "violation of Law 61B" in str(t.reason) and "43B2b" not in str(t.reason)


@pytest.mark.parametrize("edition", ("2007", "2017"))
def test_2007_2017_have_no_63B_for_attention_illegally_drawn(edition):
    """2007 and 2017 63B is "Revoke May Not Be Corrected": the 1997 paragraph is refused, named."""
    facts = replace(BASE, established=False, established_by="", attention_illegally_drawn=True)
    with pytest.raises(RevokeError) as caught:
        revoke_transfer(edition, facts)
    assert caught.value.field == "attention_illegally_drawn"
    assert str(caught.value.message) == (
        f"the {edition} Laws have no paragraph for a revoke to which attention was drawn in violation of Law 61B "
        "(the 1997 Law 63B)"
    )
    assert illegally_drawn_laws(edition) == ()


def test_1997_63B_and_43B2b_are_one_or_the_other():
    """One citation a law: dummy's question (43B2b) and a violation of 61B (63B) are not one flag."""
    facts = replace(BASE, established=False, established_by="", attention_illegally_drawn=True, as_if_established=True)
    with pytest.raises(RevokeError) as caught:
        revoke_transfer("1997", facts)
    assert caught.value.field == "attention_illegally_drawn"


@pytest.mark.parametrize(("edition", "law"), [("1997", "63C"), ("2007", "63B"), ("2017", "63B")])
def test_63B_an_established_revoke_may_no_longer_be_corrected(edition, law):
    """1997 63C, 2007 and 2017 63B: "Once a revoke is established, it may no longer be corrected"
    (2017: "or as in Law 62C3")."""
    row = REVOKE_LAWS[edition]["not_corrected"]
    assert row.law == law and "no longer be corrected" in row.words
    assert ("62C3" in row.words) == (edition == "2017")


@pytest.mark.parametrize("edition", EDITIONS)
def test_43B2b_corrected_at_dummys_question_is_rectified_as_if_established(edition):
    """43B2b: dummy, having forfeited his rights, first to ask declarer: Law 64 as if established."""
    t = revoke_transfer(edition, replace(BASE, established=False, established_by="", as_if_established=True))
    assert (t.tricks, t.law) == (1, "64A2")
    assert t.reason.template == REVOKE_LAWS[edition]["as_if_established"].text
    assert t.reason.params["laws"] == "43B2b"


# --- 64A ------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_64A1_two_tricks_when_the_offender_won_the_revoke_trick_and_his_side_a_later_one(edition):
    """64A1: "the trick on which the revoke occurred, plus one of any subsequent tricks won by the
    offending side, are transferred"."""
    assert transfer(edition, offender_won_revoke_trick=True, offending_side_won_revoke_trick=True) == (2, "64A1")


@pytest.mark.parametrize("edition", EDITIONS)
def test_64A1_one_trick_when_the_offending_side_won_no_later_trick(edition):
    """64A1: the revoke trick alone when there is no subsequent trick of the offending side."""
    facts = dict(offender_won_revoke_trick=True, offending_side_won_revoke_trick=True, offending_side_tricks_after=0)
    assert transfer(edition, **facts) == (1, "64A1")


@pytest.mark.parametrize("edition", ("2007", "2017"))
def test_2007_2017_64A2_one_trick_when_the_offender_did_not_win_the_revoke_trick(edition):
    """2007, 2017 64A2: "if the offending side won that or any subsequent trick, at the end of play
    one trick is transferred", whatever card won it."""
    assert transfer(edition) == (1, "64A2")
    assert transfer(edition, offender_won_with_legal_card=True) == (1, "64A2")


def test_1997_64A2_one_more_trick_won_with_a_card_he_could_have_played_to_the_revoke_trick():
    """1997 64A2: "also, if an additional trick was subsequently won by the offending player with a
    card that he could legally have played to the revoke trick, one such trick is transferred"."""
    assert "could legally have played to the revoke trick" in REVOKE_LAWS["1997"]["not_won"].words
    assert transfer("1997") == (1, "64A2")
    assert transfer("1997", offender_won_with_legal_card=True) == (2, "64A2")


def test_1997_64A2_the_second_trick_only_when_the_offending_side_won_two():
    """1997 64A2: only tricks the offending side won from the revoke trick on go across."""
    assert transfer("1997", offender_won_with_legal_card=True, offending_side_tricks_after=1) == (1, "64A2")
    reason = revoke_transfer("1997", replace(BASE, offender_won_with_legal_card=True, offending_side_tricks_after=1))
    assert reason.reason.template == REVOKE_LAWS["1997"]["not_won_legal_card_capped"].text


# --- 64B, 64C -------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(
    ("law", "changes"),
    [
        ("64B1", dict(offending_side_tricks_after=0)),
        ("64B2", dict(subsequent_same_suit=True)),
        ("64B3", dict(faced_card=True)),
        ("64B4", dict(noticed_after_next_call=True)),
        ("64B5", dict(noticed_after_round=True)),
        ("64B6", dict(trick=12, offending_side_tricks_after=1)),
    ],
)
def test_64B1_to_64B6_no_trick_adjustment(edition, law, changes):
    """64B1 "the offending side did not win either the revoke trick or any subsequent trick", 64B2
    "a subsequent revoke in the same suit by the same player", 64B3 "failing to play any card
    faced on the table", 64B4 "after a member of the non-offending side made a call on the
    subsequent deal", 64B5 "after the round has ended", 64B6 "on the twelfth trick"."""
    assert transfer(edition, **changes) == (0, law)
    row = REVOKE_LAWS[edition][law]
    assert row.law == law and row.equity and row.tricks == 0


@pytest.mark.parametrize("edition", ("2007", "2017"))
def test_2007_2017_64B7_both_sides_revoked_on_the_same_board(edition):
    """2007, 2017 64B7: "both sides have revoked on the same board": no trick adjustment, 64C open."""
    assert transfer(edition, both_sides_revoked=True) == (0, "64B7")
    assert "both sides have revoked on the same board" in REVOKE_LAWS[edition]["64B7"].words


def test_1997_has_no_64B7_each_sides_revoke_is_rectified_on_its_own():
    """1997 64B lists six exemptions: a revoke by each side is transferred under 64A."""
    assert "64B7" not in REVOKE_LAWS["1997"]
    assert transfer("1997", both_sides_revoked=True) == (1, "64A2")


@pytest.mark.parametrize("edition", EDITIONS)
def test_64C_equity_stays_open_after_any_established_revoke(edition):
    """64C: "after any established revoke, including those not subject to rectification, the
    Director deems that the non-offending side is insufficiently compensated"."""
    assert "insufficiently compensated" in REVOKE_LAWS[edition]["equity"].words
    assert REVOKE_LAWS[edition]["equity"].law == "64C"
    assert revoke_transfer(edition, replace(BASE, faced_card=True)).equity


# --- 67 -------------------------------------------------------------------------------------


def defective(edition, **facts):
    values = dict(trick=4, offender="E", could_follow=True, offending_side_won_from_then=True) | facts
    t = defective_trick_transfer(edition, DefectiveTrickFacts(**values))
    return t.tricks, t.law


@pytest.mark.parametrize("edition", EDITIONS)
def test_67A1_67A2_before_both_sides_played_to_the_next_trick(edition):
    """67A1: the offender supplies a card; 67A2: the extra cards withdrawn; nothing transferred."""
    assert defective(edition, before_next_trick=True) == (0, "67A1")
    assert defective(edition, before_next_trick=True, too_many_cards=True) == (0, "67A2")


@pytest.mark.parametrize(("edition", "tricks"), [("1997", 0), ("2007", 1), ("2017", 1)])
def test_67B1a_the_offender_could_follow(edition, tricks):
    """67B1a: 1997 places a card of the suit led, no penalty; 2007, 2017 deemed a revoke, one trick."""
    assert defective(edition) == (tricks, "67B1a")
    assert REVOKE_LAWS[edition]["defective_could_follow"].tricks == tricks


@pytest.mark.parametrize("edition", EDITIONS)
def test_67B1b_the_offender_could_not_follow_one_trick_if_his_side_won_one(edition):
    """67B1b: deemed a revoke, one trick, if the offending side won that trick or a later one."""
    assert defective(edition, could_follow=False) == (1, "67B1b")
    assert defective(edition, could_follow=False, offending_side_won_from_then=False) == (0, "67B1b")


@pytest.mark.parametrize("edition", EDITIONS)
def test_67B2_too_many_cards_transfers_nothing_for_the_trick(edition):
    """67B2: the extra cards go back to the hand; a card owed to an earlier trick is a revoke."""
    assert defective(edition, too_many_cards=True) == (0, "67B2")
