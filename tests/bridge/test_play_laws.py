"""Laws 48A and 57A per edition, from the paragraphs' own words (issue #39)."""

import pytest

from bridge.play_irregularities import exposed_card, premature_play


def options(edition):
    return [(c.key, c.rectification.law, str(c.rectification.text)) for c in premature_play(edition, partner_suits="S")]


def test_2007_57a3_forbids_a_suit():
    """2007 57A: declarer may "3. forbid offender's partner to play a card of a different suit
    specified by declarer" (no option to require one)."""
    keys = options("2007")
    assert [k for k, _, _ in keys] == ["57A1", "57A2", "57A3:S"]
    assert keys[2][2] == (
        "the card is a major penalty card; the offender's partner may not play a card of the suit declarer names (S)"
    )


def test_2017_57a_has_four_options():
    """2017 57A: "3. require offender's partner to play a card of another suit specified by
    declarer, or 4. forbid offender's partner to play a card of another suit specified by declarer"."""
    keys = options("2017")
    assert [(k, law) for k, law, _ in keys] == [
        ("57A1", "57A1"),
        ("57A2", "57A2"),
        ("57A3:S", "57A3"),
        ("57A4:S", "57A4"),
    ]
    assert "plays a card of the suit declarer names (S)" in keys[2][2]
    assert "may not play a card of the suit declarer names (S)" in keys[3][2]


def test_1997_57a3_forbids_a_suit():
    """1997 57A3: forbid a card of a different suit declarer specifies (the card "becomes a penalty card")."""
    keys = options("1997")
    assert [k for k, _, _ in keys] == ["57A1", "57A2", "57A3:S"]
    assert keys[2][2].startswith("the card is a penalty card; the offender's partner may not play")


@pytest.mark.parametrize("edition", ["1997", "2007", "2017"])
@pytest.mark.parametrize("seat", ["N", "S"])
def test_48a_no_card_of_declarers_or_dummys_hand_becomes_a_penalty_card(edition, seat):
    """48A: "no card of declarer's or dummy's hand ever becomes a penalty card" (North declares)."""
    r = exposed_card(edition, seat=seat, declarer="N", card="SA", deliberate=False)
    assert (r.law, r.penalty_card, r.restored) == ("48A", "", True)


def test_a_defenders_exposed_card_is_a_penalty_card():
    """50B: a defender's exposed honour is a major penalty card; a lone low card a minor one."""
    assert exposed_card("2017", seat="E", declarer="N", card="SA", deliberate=False).penalty_card == "major"
    assert exposed_card("2017", seat="W", declarer="N", card="S2", deliberate=False).penalty_card == "minor"
