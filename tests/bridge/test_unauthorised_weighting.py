"""Law 16 with the regulating authority's election on weighting, and the action demonstrably
suggested kept out of the adjusted score (issue #39). The case of tests/bridge/test_unauthorised.py:
North's slow pass; South bid 3S; pass and double the logical alternatives."""

from bridge.unauthorised import Alternative, Source, adjustment_laws, assess, proposed_weights

HESITATION = Source("hesitation", "N", seconds=15)
PASS = Alternative("Pass", chose=5, suggested=True, contract="3H", declarer="W", tricks=9)
DOUBLE = Alternative("X", chose=2, suggested=True, contract="3HX", declarer="W", tricks=8)
# The action chosen, entered among the alternatives with its result (and polled votes).
CHOSEN = Alternative("3S", chose=1, considered=3, suggested=True, contract="3S", declarer="S", tricks=9)


def test_the_action_demonstrably_suggested_is_no_component():
    """16B1(a): the player "may not choose" the action demonstrably suggested; 12B1: the adjusted
    score redresses what would have happened without the infraction. So 3S, the action chosen,
    is no component of the weighted score, even when entered (and polled) among the alternatives."""
    weights = proposed_weights([PASS, DOUBLE, CHOSEN], chosen="3S")
    assert [(w["action"], w["weight"]) for w in weights] == [("Pass", "5/7"), ("X", "2/7")]
    finding = assess("2017", HESITATION, "3S", [PASS, DOUBLE, CHOSEN], gained=True)
    assert [(w["action"], w["weight"]) for w in finding.weights] == [("Pass", "5/7"), ("X", "2/7")]


def test_where_the_authority_forbids_weighting_12c1e_is_cited():
    """2017 12C1(c) "unless the Regulating Authority forbids"; 12C1(e) where it does: "the most
    favourable result that was likely" and "the most unfavourable result that was at all
    probable". 1997 12C2 says the same (12C3 is its weighting)."""
    finding = assess("2017", HESITATION, "3S", [PASS, DOUBLE], gained=True, weighting_allowed=False)
    assert finding.laws == ("16B1a", "16B1b", "16B3", "12C1e")
    assert finding.to_dict()["weighting_allowed"] is False
    assert adjustment_laws("2007", weighted=True, weighting_allowed=False) == ("16B3", "12C1e")
    assert adjustment_laws("1997", weighted=True, weighting_allowed=False) == ("12C2",)
    assert adjustment_laws("2017", weighted=True) == ("16B3", "12C1c")
