"""Law 16 (issue #28) on the Laws' own terms, per edition: the source established (agreed, or
found, Law 85), the action chosen demonstrably suggested over a logical alternative (16A in
1997; 16B1a in 2007 and 2017, 16B1b defining the logical alternative), the adjustment when the
offenders gained (16B3, 12C1c) or, in 1997, the other side was damaged (16A; 12C2, 12C3), and
the weighted score proposed from the poll.

The standard case: South opened 1S, West overcalled 2H, North hesitated for 15 seconds and
passed; South, with a minimum, reopened with 3S over East's 3H (not passing), making 9 tricks;
3H by West would have made 9. Of eight polled players of South's class, five passed and three
bid 3S: pass is a logical alternative, and the slow pass demonstrably suggests bidding on."""

import pytest

from bridge.call_laws import IrregularityError
from bridge.unauthorised import Alternative, Source, adjustment_laws, assess, infraction_law, proposed_weights

HESITATION = Source("hesitation", "N", seconds=15)
PASS = Alternative("Pass", chose=5, considered=7, suggested=True, contract="3H", declarer="W", tricks=9)
BID = Alternative("3S", chose=3, suggested=False, contract="3S", declarer="S", tricks=9)


@pytest.mark.parametrize(
    ("edition", "laws"),
    [
        ("1997", ("16A", "12C2")),
        ("2007", ("16B1a", "16B1b", "16B3", "12C1")),
        ("2017", ("16B1a", "16B1b", "16B3", "12C1")),
    ],
)
def test_the_slow_pass_case_is_adjusted_under_each_editions_law(edition, laws):
    finding = assess(edition, HESITATION, "3S", [PASS, BID], gained=True)
    assert finding.infraction and finding.adjust
    assert finding.laws == laws
    assert finding.logical == ("Pass",)
    assert str(finding.text) == (
        "3S was demonstrably suggested over Pass by the unauthorised information: the score is adjusted"
    )
    # Only one logical alternative the information did not suggest: an assigned score, 3H by West = .
    assert finding.weights == ({"action": "Pass", "contract": "3H", "declarer": "W", "tricks": 9, "weight": "1"},)


def test_two_logical_alternatives_give_weights_from_the_poll_12C1c():
    double = Alternative("X", chose=2, suggested=True, contract="3HX", declarer="W", tricks=8)
    finding = assess("2017", HESITATION, "3S", [PASS, double, BID], gained=True)
    assert finding.laws == ("16B1a", "16B1b", "16B3", "12C1c")
    assert [(w["contract"], w["weight"]) for w in finding.weights] == [("3H", "5/7"), ("3HX", "2/7")]
    assert assess("1997", HESITATION, "3S", [PASS, double, BID], gained=True).laws == ("16A", "12C3")


def test_no_logical_alternative_no_infraction():
    """Nobody polled passed and nobody would consider it: bidding on was the only action."""
    lonely = Alternative("Pass", chose=0, considered=0, suggested=True)
    finding = assess("2017", HESITATION, "3S", [lonely, BID], gained=True)
    assert not finding.infraction and not finding.adjust
    assert str(finding.text) == "no logical alternative to 3S: the partner was free to choose it"


def test_the_director_decides_against_the_proposal():
    """One polled player passed, but the director judges pass no logical alternative (16B1b: not a
    significant proportion would seriously consider it)."""
    few = Alternative("Pass", chose=1, suggested=True, logical=False)
    assert few.proposed_logical() and not few.is_logical()
    assert not assess("2007", HESITATION, "3S", [few, BID], gained=True).infraction


def test_not_demonstrably_suggested_no_infraction():
    """The hesitation suggested nothing over pass (e.g. it showed doubt about doubling)."""
    neutral = Alternative("Pass", chose=5, suggested=False)
    finding = assess("2017", HESITATION, "3S", [neutral, BID], gained=True)
    assert not finding.infraction
    assert str(finding.text) == "3S was not demonstrably suggested over a logical alternative (Pass): no infraction"


def test_an_infraction_without_gain_leaves_the_result():
    finding = assess("2017", HESITATION, "3S", [PASS, BID], gained=False)
    assert finding.infraction and not finding.adjust
    assert finding.laws == ("16B1a",)


def test_disputed_facts_not_found_are_law_85():
    disputed = Source("hesitation", "N", seconds=None, agreed=False, found=False)
    finding = assess("2017", disputed, "3S", [PASS, BID], gained=True)
    assert (finding.infraction, finding.laws) == (False, ("85",))
    found = Source("hesitation", "N", seconds=None, agreed=False, found=True)
    assert assess("2017", found, "3S", [PASS, BID], gained=True).adjust


def test_the_infraction_law_per_edition():
    assert [infraction_law(e) for e in ("1997", "2007", "2017")] == ["16A", "16B1a", "16B1a"]
    assert adjustment_laws("2007", weighted=True) == ("16B3", "12C1c")


def test_facts_that_cannot_be_right_are_refused():
    with pytest.raises(IrregularityError) as error:
        assess("2017", Source("telepathy", "N"), "3S", [PASS], gained=True)
    assert error.value.field == "source"
    with pytest.raises(IrregularityError):
        assess("2017", Source("hesitation", "X"), "3S", [PASS], gained=True)
    with pytest.raises(IrregularityError):
        assess("1990", HESITATION, "3S", [PASS], gained=True)


def test_weights_without_a_poll_are_equal():
    a = Alternative("Pass", suggested=True, logical=True, contract="3H", declarer="W", tricks=9)
    b = Alternative("X", suggested=True, logical=True, contract="3HX", declarer="W", tricks=8)
    assert [w["weight"] for w in proposed_weights([a, b])] == ["1/2", "1/2"]
