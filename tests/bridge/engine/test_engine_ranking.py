"""Ranking with shared places and tie-breaks."""

from fractions import Fraction as F

from bridge.engine.ranking import rank


def test_equal_totals_share_the_best_place():
    placings = rank({"A": F(60), "B": F(55), "C": F(55), "D": F(50)})
    assert [(p.id, p.label) for p in placings] == [("A", "1"), ("B", "2="), ("C", "2="), ("D", "4")]
    assert [p.place for p in placings] == [1, 2, 2, 4]


def test_everyone_equal_and_ascending():
    assert [p.label for p in rank({"A": 1, "B": 1, "C": 1})] == ["1=", "1=", "1="]
    placings = rank({"A": 3, "B": 1, "C": 2}, descending=False)
    assert [p.id for p in placings] == ["B", "C", "A"]


def test_tie_break_orders_only_equal_totals():
    head_to_head = {"B": 1, "C": 2, "A": 0, "D": 0}
    placings = rank({"A": 60, "B": 55, "C": 55, "D": 50}, tie_break=head_to_head.get)
    assert [(p.id, p.label) for p in placings] == [("A", "1"), ("C", "2"), ("B", "3"), ("D", "4")]


def test_still_equal_after_the_tie_break_share():
    placings = rank({"A": 55, "B": 55, "C": 55}, tie_break={"A": 1, "B": 1, "C": 0}.get)
    assert [(p.id, p.label) for p in placings] == [("A", "1="), ("B", "1="), ("C", "3")]
