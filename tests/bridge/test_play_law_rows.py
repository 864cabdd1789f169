"""Laws 48A and 49-56 as one table per edition (bridge.play_laws.PLAY_LAWS), a test per paragraph
per edition, each citing the paragraph's words (issue #39). North declares, South is dummy."""

import pytest

from bridge.play_irregularities import (
    PLAY_LAWS,
    PlayIrregularity,
    declarer_after,
    exposed_card,
    information_law,
    lead_out_of_turn,
    penalty_card,
    penalty_card_lead_options,
    penalty_card_not_played,
    penalty_card_obligation,
    penalty_cards_through_play,
)
from rulings.laws import load

EDITIONS = ("1997", "2007", "2017")


def keys(choices):
    return [c.key for c in choices]


def opening(edition, **facts):
    return lead_out_of_turn(edition, offender="W", declarer="N", opening=True, **facts)


# --- Every row is a paragraph of its edition --------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_row_is_a_paragraph_the_editions_catalogue_holds(edition):
    """No letters invented: each row's law is a paragraph of that edition in
    rulings/laws/data/laws_<edition>.json, and each row carries words."""
    numbers = {entry.number for entry in load(edition)}
    for situation, row in PLAY_LAWS[edition].items():
        assert row.law in numbers, (edition, situation, row.law)
        assert row.words, (edition, situation)


def test_the_editions_differ_where_their_texts_differ():
    """1997 has no 50E and no 54E; 2007 and 2017 have both."""
    assert {r.law for r in PLAY_LAWS["1997"].values()} & {"50E", "50E1", "50E2", "50E3", "54E"} == set()
    for edition in ("2007", "2017"):
        assert {"50E", "50E1", "50E2", "50E3", "54E"} <= {r.law for r in PLAY_LAWS[edition].values()}


# --- 48A, 49, 50B-50D ----------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_48a_no_card_of_declarers_or_dummys_hand_ever_becomes_a_penalty_card(edition):
    """48A: "no card of declarer's or dummy's hand ever becomes a penalty card" (1997: "not
    subject to penalty"; 2007, 2017: "not subject to restriction")."""
    row = PLAY_LAWS[edition]["declarers_card"]
    assert "no card of declarer's or dummy's hand ever becomes a penalty card" in row.words
    assert ("penalty for exposing" in row.words) == (edition == "1997")
    r = exposed_card(edition, seat="S", declarer="N", card="HK", deliberate=True)
    assert (r.law, r.penalty_card, r.restored) == ("48A", "", True)


@pytest.mark.parametrize("edition", EDITIONS)
def test_49_a_defenders_exposed_card_is_a_penalty_card(edition):
    """49: a defender's card his partner could see becomes a penalty card (Law 50)."""
    assert PLAY_LAWS[edition]["exposed"].law == "49"
    assert exposed_card(edition, seat="E", declarer="N", card="S3", deliberate=False).penalty_card == "minor"


@pytest.mark.parametrize("edition", EDITIONS)
def test_50b_a_single_low_card_exposed_inadvertently_is_minor_an_honour_major(edition):
    """50B: "A single card below the rank of an honour and exposed inadvertently ... becomes a
    minor penalty card. Any card of honour rank, or any card exposed through deliberate play ...
    becomes a major penalty card"."""
    assert "becomes a minor penalty card" in PLAY_LAWS[edition]["major_or_minor"].words
    assert penalty_card(edition, card="D9", deliberate=False).penalty_card == "minor"
    assert penalty_card(edition, card="DT", deliberate=False).penalty_card == "major"
    assert penalty_card(edition, card="D9", deliberate=True).penalty_card == "major"


@pytest.mark.parametrize("edition", EDITIONS)
def test_50b_two_penalty_cards_are_both_major(edition):
    """50B: "when one defender has two or more penalty cards, all such cards become major"."""
    assert penalty_card(edition, card="D9", deliberate=False, other_penalty_cards=1).law == "50D"


@pytest.mark.parametrize("edition, adjustment", [("1997", "16"), ("2007", "50E3"), ("2017", "50E3")])
def test_50c_minor_penalty_card_no_lower_card_of_its_suit_first(edition, adjustment):
    """50C: "he may not play any other card of the same suit below the rank of an honour until he
    has first played the penalty card"; the information: 1997 Law 16, 2007 and 2017 50E3."""
    row = PLAY_LAWS[edition]["minor"]
    assert "below the rank of an honour until he has first played the penalty card" in row.words
    r = penalty_card(edition, card="C4", deliberate=False)
    assert (r.law, r.penalty_card, r.adjustment) == ("50C", "minor", adjustment)
    assert penalty_card_obligation(["C4", "C2", "CK"], ["C4"], False, "C") == ("C4", "CK")


@pytest.mark.parametrize("edition, law", [("1997", "50D1"), ("2007", "50D1a"), ("2017", "50D1a")])
def test_50d1_a_major_penalty_card_is_played_at_the_first_legal_opportunity(edition, law):
    """1997 50D1, 2007 and 2017 50D1(a): "A major penalty card must be played at the first legal
    opportunity"; following suit comes first (1997 50D1, 2007 and 2017 50D1(b))."""
    row = PLAY_LAWS[edition]["first_opportunity"]
    assert (row.law, "first legal opportunity" in row.words) == (law, True)
    r = penalty_card(edition, card="CQ", deliberate=False)
    assert (r.law, r.penalty_card) == ("50D", "major")
    assert penalty_card_obligation(["CQ", "C2", "H5"], ["CQ"], True, "C") == ("CQ",)
    assert penalty_card_obligation(["CQ", "C2", "H5"], ["CQ"], True, "H") == ("H5",)


@pytest.mark.parametrize("edition", EDITIONS)
def test_50d2a_declarer_requires_or_prohibits_the_suit_of_the_penalty_card(edition):
    """50D2(a): "to require the defender to lead the suit of the penalty card, or to prohibit him
    from leading that suit for as long as he retains the lead"."""
    assert "for as long as he retains the lead" in PLAY_LAWS[edition]["lead_prohibit"].words
    choices = penalty_card_lead_options(edition, ["SK"])
    assert [(c.key, c.rectification.law) for c in choices] == [
        ("require:S", "50D2a"),
        ("prohibit:S", "50D2a"),
        ("none", "50D2b"),
    ]
    assert str(choices[0].rectification.text) == (
        "declarer requires the lead of S: the penalty cards of that suit are picked up"
    )


@pytest.mark.parametrize("edition", EDITIONS)
def test_50d2b_neither_any_lead_and_the_penalty_card_stays(edition):
    """50D2(b): "not to require or prohibit a lead, in which case the defender may lead any card;
    the penalty card remains a penalty card"."""
    assert "the penalty card remains a penalty card" in PLAY_LAWS[edition]["lead_none"].words
    none = penalty_card_lead_options(edition, ["SK"])[-1]
    assert (
        str(none.rectification.text)
        == "declarer neither requires nor prohibits a lead: any lead, the penalty cards stay"
    )


# --- 50E (2007, 2017); 1997 50D1 ------------------------------------------------------------


def test_1997_50d1_information_from_the_penalty_card_is_unauthorised_for_partner():
    """1997 has no 50E: 50D1 "other information arising from facing of the penalty card is
    unauthorised for partner"; an adjustment goes under Law 16."""
    row = information_law("1997")
    assert (row.law, row.adjustment) == ("50D1", "16")
    assert "unauthorised for partner" in row.words


@pytest.mark.parametrize("edition", ["2007", "2017"])
def test_50e1_the_requirements_for_playing_a_penalty_card_are_authorised(edition):
    """50E1: "Knowledge of the requirements for playing a penalty card is authorised information
    for all players"."""
    assert "authorised information for all players" in PLAY_LAWS[edition]["information_authorised"].words


@pytest.mark.parametrize("edition", ["2007", "2017"])
def test_50e2_other_information_is_unauthorised_for_the_offenders_partner(edition):
    """50E2: other information from a penalty card "is unauthorised for the partner of the player
    who has the penalty card (but authorised for declarer)"."""
    words = PLAY_LAWS[edition]["information_unauthorised"].words
    assert "unauthorised for the partner" in words and "authorised for declarer" in words


@pytest.mark.parametrize("edition", ["2007", "2017"])
def test_50e3_damage_from_the_information_gives_an_adjusted_score(edition):
    """50E3: the director awards an adjusted score when the information damaged the
    non-offending side; every penalty card's rectification names it."""
    assert (information_law(edition).law, information_law(edition).adjustment) == ("50E", "50E3")
    assert "adjusted score" in PLAY_LAWS[edition]["information_damage"].words
    assert penalty_card(edition, card="SA", deliberate=False).adjustment == "50E3"
    assert opening(edition)[2].rectification.adjustment == "50E3"


# --- 51 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_51b1_penalty_cards_in_one_suit(edition):
    """51B1(a) require the suit: its penalty cards "are no longer penalty cards"; 51B1(b)
    prohibit it: "the defender picks up every penalty card in that suit"."""
    choices = penalty_card_lead_options(edition, ["SK", "S4"])
    assert [(c.key, c.rectification.law) for c in choices] == [
        ("require:S", "51B1a"),
        ("prohibit:S", "51B1b"),
        ("none", "50D2b"),
    ]
    assert "no longer penalty cards" in PLAY_LAWS[edition]["lead_require_one_suit"].words


@pytest.mark.parametrize("edition", EDITIONS)
def test_51b2_penalty_cards_in_more_than_one_suit(edition):
    """51B2(a) require one of the suits; 51B2(b) "prohibit the defender's partner from leading one
    or more of such suits"."""
    choices = penalty_card_lead_options(edition, ["SK", "H4"])
    assert [(c.key, c.rectification.law) for c in choices] == [
        ("require:S", "51B2a"),
        ("require:H", "51B2a"),
        ("prohibit:S", "51B2b"),
        ("prohibit:H", "51B2b"),
        ("prohibit:S,H", "51B2b"),
        ("none", "50D2b"),
    ]
    assert "one or more of such suits" in PLAY_LAWS[edition]["lead_prohibit_suits"].words


@pytest.mark.parametrize("edition", EDITIONS)
def test_51a_declarer_designates_which_penalty_card_is_played(edition):
    """51A: "declarer designates which is to be played": both major cards are playable."""
    assert "declarer designates" in PLAY_LAWS[edition]["several_to_play"].words
    assert penalty_card_obligation(["SK", "S4", "S2"], ["SK", "S4"], True, "S") == ("SK", "S4")


# --- 52 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition, what", [("1997", "played"), ("2007", "led or played"), ("2017", "led or played")])
def test_52a_a_defender_who_failed_to_play_a_penalty_card_withdraws_nothing(edition, what):
    """52A: a defender who fails to play a penalty card as required may not, on his own
    initiative, withdraw any other card he has played (1997 speaks of a card "played", 2007 and
    2017 "led or played": the catalogue's 52A titles)."""
    row = PLAY_LAWS[edition]["failure"]
    assert row.law == "52A" and "any other card he has played" in row.words
    assert f"illegally {what}." in PLAY_LAWS[edition]["failure_refused"].words


@pytest.mark.parametrize("edition", EDITIONS)
def test_52b1a_declarer_may_accept_the_other_card_52b2_or_have_the_penalty_card_substituted(edition):
    """52B1(a): "declarer may accept such [lead or] play"; 52B2: not accepted, "the defender must
    substitute the penalty card", and the card illegally led or played "becomes a major penalty
    card"."""
    choices = penalty_card_not_played(edition)
    assert [(c.key, c.chooser, c.rectification.accepted, c.rectification.penalty_card) for c in choices] == [
        ("52B1a", "declarer", True, ""),
        ("52B2", "declarer", False, "major"),
    ]
    assert str(choices[1].rectification.text) == (
        "declarer does not accept it: the defender plays the penalty card instead, and the card he led or played "
        "becomes a major penalty card"
    )


@pytest.mark.parametrize("edition", EDITIONS)
def test_52b1b_declarer_must_accept_once_he_has_played_after_it(edition):
    """52B1(b): "Declarer must accept such [lead or] play if he has thereafter played from his own
    hand or dummy"; 52B1(c): "any unplayed penalty card remains a penalty card"."""
    assert keys(penalty_card_not_played(edition, declarer_played=True)) == ["52B1b"]
    assert "remains a penalty card" in PLAY_LAWS[edition]["failure_card_remains"].words


# --- 53, 54, 55, 56 ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITIONS)
def test_53a_a_later_lead_out_of_turn_may_be_accepted(edition):
    """53A: "any lead faced out of turn may be treated as a correct lead"; not accepted, 56: a
    major penalty card."""
    choices = lead_out_of_turn(edition, offender="E", declarer="N", opening=False, trick=5)
    assert [(c.key, c.chooser, c.rectification.accepted) for c in choices] == [
        ("53A", "declarer", True),
        ("56", "declarer", False),
    ]
    assert choices[1].rectification.penalty_card == "major"


def test_2017_53a_a_lead_out_of_turn_at_the_thirteenth_trick_is_not_accepted():
    """2017 53A: "Prior to the thirteenth trick, any lead faced out of turn may be treated as a
    correct lead": at trick 13 it is retracted (56), and declarer's lead too (55A "as provided in
    Law 53")."""
    assert PLAY_LAWS["2017"]["later_accepted"].words.startswith("Prior to the thirteenth trick")
    assert keys(lead_out_of_turn("2017", offender="E", declarer="N", opening=False, trick=13)) == ["56"]
    assert keys(lead_out_of_turn("2017", offender="S", declarer="N", opening=False, trick=13)) == ["55B1", "55B2"]
    assert keys(lead_out_of_turn("2017", offender="E", declarer="N", opening=False, trick=12)) == ["53A", "56"]


@pytest.mark.parametrize("edition", ["1997", "2007"])
def test_1997_2007_53a_a_lead_out_of_turn_at_the_thirteenth_trick_may_be_accepted(edition):
    """1997 and 2007 53A have no "prior to the thirteenth trick"."""
    assert "thirteenth" not in PLAY_LAWS[edition]["later_accepted"].words
    assert keys(lead_out_of_turn(edition, offender="E", declarer="N", opening=False, trick=13)) == ["53A", "56"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_54a_declarer_spreads_his_hand(edition):
    """54A: "declarer may spread his hand; he becomes dummy ... Dummy becomes declarer"."""
    spread = opening(edition)[0]
    assert (spread.key, spread.rectification.declarer_becomes_dummy) == ("54A", True)
    assert "Dummy becomes declarer" in PLAY_LAWS[edition]["opening_spread"].words
    lead = PlayIrregularity("lead_out_of_turn", 1, "W", "D5", attention_by="N", option="54A")
    assert declarer_after("N", [lead]) == "S"


@pytest.mark.parametrize("edition", EDITIONS)
def test_54b_declarer_accepts_and_plays_second_from_his_hand(edition):
    """54B: declarer "may accept the irregular lead as provided in Law 53 ... The second card to
    the trick is played from declarer's hand"."""
    accepted = opening(edition)[1]
    assert (accepted.key, accepted.rectification.accepted, accepted.rectification.declarer_becomes_dummy) == (
        "54B",
        True,
        False,
    )
    assert "played from declarer's hand" in PLAY_LAWS[edition]["opening_accepted"].words


@pytest.mark.parametrize("edition", ["1997", "2007"])
def test_1997_2007_54c_declarer_must_accept_the_lead(edition):
    """1997 and 2007 54C: "If declarer could have seen any of dummy's cards ... he must accept the
    lead": accepting under 54A or 54B, never retracting it (54D)."""
    assert PLAY_LAWS[edition]["opening_must_accept"].words.endswith("he must accept the lead.")
    assert keys(opening(edition, dummy_seen=True)) == ["54A", "54B"]


def test_2017_54c_declarer_must_accept_and_the_presumed_declarer_declares():
    """2017 54C: "he must accept the lead and the presumed declarer then becomes declarer": he may
    not spread his hand (54A); 54B is the only option (it had offered 54A as well)."""
    assert PLAY_LAWS["2017"]["opening_must_accept"].words.endswith("the presumed declarer then becomes declarer.")
    assert keys(opening("2017", dummy_seen=True)) == ["54B"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_54d_declarer_refuses_the_opening_lead_a_major_penalty_card(edition):
    """54D: "Declarer may require [a/the] defender to retract his faced opening lead out of turn"
    (1997 "Law 56 applies"; 2007, 2017 "becomes a major penalty card and Law 50D applies")."""
    retracted = opening(edition)[2]
    assert (retracted.key, retracted.rectification.penalty_card) == ("54D", "major")
    assert retracted.rectification.adjustment == ("72B1" if edition == "1997" else "50E3")
    assert ("Law 56 applies" in PLAY_LAWS[edition]["opening_retracted"].words) == (edition == "1997")
    lead = PlayIrregularity("lead_out_of_turn", 1, "W", "D5", attention_by="N", option="54D")
    cards, _options = penalty_cards_through_play(edition, "N", [["C4", "C2", "C5", "C3"]], ["E"], [lead])
    assert [(c.card, c.major, c.law) for c in cards] == [("D5", True, "54D")]


@pytest.mark.parametrize("edition", ["2007", "2017"])
def test_54e_an_opening_lead_by_the_declaring_side_is_law_24(edition):
    """2007 and 2017 54E: "If a player of the declaring side attempts to make an opening lead Law 24
    applies": no option is offered."""
    assert "Law 24 applies" in PLAY_LAWS[edition]["opening_by_declarers_side"].words
    with pytest.raises(Exception, match="declarer's side does not make the opening lead"):
        lead_out_of_turn(edition, offender="S", declarer="N", opening=True)


def test_1997_has_no_54e_and_refuses_the_declaring_sides_opening_lead_as_before():
    assert "opening_by_declarers_side" not in PLAY_LAWS["1997"]
    with pytest.raises(Exception, match="declarer's side does not make the opening lead"):
        lead_out_of_turn("1997", offender="N", declarer="N", opening=True)


@pytest.mark.parametrize("edition", EDITIONS)
def test_55a_a_defender_accepts_declarers_lead_out_of_turn(edition):
    """55A: "either defender may accept the lead as provided in Law 53, or require its
    retraction"; 2007 and 2017 add "the option expressed by the player next in turn shall
    prevail"."""
    choices = lead_out_of_turn(edition, offender="S", declarer="N", opening=False, trick=4)
    assert [(c.key, c.chooser) for c in choices] == [("55A", "defender"), ("55B1", "defender"), ("55B2", "defender")]
    assert ("next in turn shall prevail" in PLAY_LAWS[edition]["declarer_accepted"].words) == (edition != "1997")


@pytest.mark.parametrize("edition", EDITIONS)
def test_55b1_at_a_defenders_turn_declarer_restores_the_card(edition):
    """55B1: "declarer restores the card led in error to the proper hand"; 55C may adjust."""
    r = lead_out_of_turn(edition, offender="N", declarer="N", opening=False)[1].rectification
    assert (r.law, r.restored, r.penalty_card, r.adjustment) == ("55B1", True, "", "55C")
    assert "restores the card led in error" in PLAY_LAWS[edition]["declarer_at_defenders_turn"].words


@pytest.mark.parametrize("edition", EDITIONS)
def test_55b2_from_the_wrong_hand_declarer_withdraws_the_card(edition):
    """55B2: declarer led from the wrong hand: "he withdraws the card led in error"; 55C may adjust."""
    r = lead_out_of_turn(edition, offender="S", declarer="N", opening=False)[2].rectification
    assert (r.law, r.restored, r.adjustment) == ("55B2", True, "55C")
    assert "withdraws the card led in error" in PLAY_LAWS[edition]["declarer_wrong_hand"].words


@pytest.mark.parametrize("edition", EDITIONS)
def test_55b1_55b2_only_the_paragraph_of_whose_turn_it_was(edition):
    """55B1 "when it was a defender's turn to lead", 55B2 "when it was his turn to lead from his
    hand or dummy's": with the proper leader known, only that paragraph's retraction is offered."""
    at_east = lead_out_of_turn(edition, offender="N", declarer="N", opening=False, trick=4, proper_leader="E")
    assert keys(at_east) == ["55A", "55B1"]
    at_north = lead_out_of_turn(edition, offender="S", declarer="N", opening=False, trick=4, proper_leader="N")
    assert keys(at_north) == ["55A", "55B2"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_55c_declarer_might_obtain_information(edition):
    """55C: "the Director may award an adjusted score" when declarer's line could have been based
    on information obtained through the infraction."""
    assert PLAY_LAWS[edition]["declarer_informed"].law == "55C"
    assert "may award an adjusted score" in PLAY_LAWS[edition]["declarer_informed"].words


@pytest.mark.parametrize("edition", EDITIONS)
def test_56_a_defenders_lead_out_of_turn_retracted_is_a_major_penalty_card(edition):
    """56: declarer requires a defender to retract his lead out of turn: a major penalty card
    (Law 50D), followed through the play."""
    retracted = lead_out_of_turn(edition, offender="W", declarer="N", opening=False, trick=3)[1]
    assert (retracted.key, retracted.rectification.penalty_card) == ("56", "major")
    assert retracted.rectification.adjustment == ("72B1" if edition == "1997" else "50E3")


def test_52b2_the_card_played_instead_becomes_a_major_penalty_card_through_the_play():
    """52B2: "Every card illegally led or played by the defender in the course of committing the
    irregularity becomes a major penalty card": West's CJ (exposed at trick 2) is substituted at
    trick 3 for the D2 he had discarded, and the D2 is on the table."""
    irregularities = [
        PlayIrregularity("exposed", 2, "W", "CJ"),
        PlayIrregularity("not_played", 3, "W", "D2", option="52B2"),
    ]
    tricks = [["C4", "CA", "C5", "C3"], ["H3", "H7", "HK", "H2"], ["H8", "C6", "H5", "CJ"]]
    cards, _options = penalty_cards_through_play("2017", "N", tricks, ["E", "S", "N"], irregularities)
    assert [(c.card, c.major, c.law, c.played_at) for c in cards] == [("CJ", True, "49", 3), ("D2", True, "52B2", None)]
