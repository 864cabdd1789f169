"""Issue #28, Laws 67A and 43B2b, per edition: a defective trick put right before both sides
played to the next trick (67A1, 67A2: nothing transferred), and a revoke corrected at dummy's
question but rectified as if established (43B2b; 1997 also 63B); Law 70C's outstanding trump."""

import pytest

from bridge.claims import entered_position, outstanding_trumps
from bridge.revokes import (
    DefectiveTrickFacts,
    RevokeFacts,
    as_if_established_laws,
    defective_trick_transfer,
    revoke_transfer,
)

EDITIONS = ("1997", "2007", "2017")


@pytest.mark.parametrize("edition", EDITIONS)
def test_67A1_a_card_supplied_before_the_next_trick_transfers_nothing(edition):
    facts = DefectiveTrickFacts(
        trick=5, offender="W", could_follow=False, offending_side_won_from_then=True, before_next_trick=True
    )
    transfer = defective_trick_transfer(edition, facts)
    assert (transfer.tricks, transfer.law, transfer.equity) == (0, "67A1", False)
    assert str(transfer.reason).startswith("attention drawn before both sides played to the next trick")


@pytest.mark.parametrize("edition", EDITIONS)
def test_67A2_too_many_cards_before_the_next_trick(edition):
    facts = DefectiveTrickFacts(
        trick=5,
        offender="W",
        could_follow=True,
        offending_side_won_from_then=True,
        too_many_cards=True,
        before_next_trick=True,
    )
    assert defective_trick_transfer(edition, facts).law == "67A2"


@pytest.mark.parametrize(("edition", "law"), [("1997", "67B1b"), ("2007", "67B1b"), ("2017", "67B1b")])
def test_after_both_sides_played_to_the_next_trick_it_is_67B(edition, law):
    facts = DefectiveTrickFacts(trick=5, offender="W", could_follow=False, offending_side_won_from_then=True)
    assert (defective_trick_transfer(edition, facts).tricks, defective_trick_transfer(edition, facts).law) == (1, law)


CORRECTED = RevokeFacts(
    trick=3,
    offender="S",
    established=False,
    offender_won_revoke_trick=False,
    offending_side_won_revoke_trick=True,
    offending_side_tricks_after=5,
)


# 43B2(b) (1997: "the penalty provisions of Law 64 apply as though the revoke had been established")
# is the one law of this case in every edition; 1997 63B is not cited with it (issue #39).
@pytest.mark.parametrize(("edition", "laws"), [("1997", "43B2b"), ("2007", "43B2b"), ("2017", "43B2b")])
def test_a_revoke_corrected_at_dummys_question_is_rectified_as_if_established(edition, laws):
    assert revoke_transfer(edition, CORRECTED).law == "62A"  # corrected: nothing
    from dataclasses import replace

    transfer = revoke_transfer(edition, replace(CORRECTED, as_if_established=True))
    assert (transfer.tricks, transfer.law) == (1, "64A2")
    assert str(transfer.reason).startswith(
        f"corrected, but dummy was the first to ask declarer about it: Law 64 applies as if the revoke had been "
        f"established ({laws}); "
    )
    assert ", ".join(as_if_established_laws(edition)) == laws


ENDING = "N:A.K.. Q.2.. 3.4.. 5.6.."  # two cards each: spades and hearts


def test_70C_the_opponents_outstanding_trumps():
    position = entered_position(ENDING, leader="N", declarer_side="NS", declarer_won=11)
    assert outstanding_trumps(position, strain="H", claimer="N") == ("H2", "H6")
    assert outstanding_trumps(position, strain="S", claimer="E") == ("SA", "S3")
    assert outstanding_trumps(position, strain="N", claimer="N") == ()
