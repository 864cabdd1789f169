"""Reading results and scores from their JSON form, and the messages for bad input."""

import dataclasses
from decimal import Decimal
from fractions import Fraction as F

import numpy as np
import pytest

from bridge.engine.scores import (
    Artificial,
    EngineInputError,
    Entry,
    Penalty,
    Redress,
    Weighted,
    parse_result,
    parse_results,
    parse_score,
)


def test_plain_number_is_a_balanced_result():
    entry = parse_result({"id": "A", "ns": 420}, 1)
    assert entry.ns == entry.ew == 420
    assert entry.plain == 420


def test_split_score():
    entry = parse_result({"id": "X", "ns": 420, "ew": 450}, 1)
    assert (entry.side("NS"), entry.side("EW")) == (420, 450)
    assert entry.plain is None


@pytest.mark.parametrize(
    "weights",
    [
        [0.5, 0.3, 0.2],
        ["0.5", "0.3", "0.2"],
        [Decimal("0.5"), Decimal("0.3"), Decimal("0.2")],
        ["1/2", "3/10", "1/5"],
        ["50%", "30 %", "20%"],  # as a director types them, kept so in a ruling (issue #42)
    ],
)
def test_weighted_score_weight_forms(weights):
    score = parse_score([[420, weights[0]], [450, weights[1]], [-50, weights[2]]])
    assert score == Weighted(((420, F(1, 2)), (450, F(3, 10)), (-50, F(1, 5))))


def test_thirds_as_fractions():
    score = parse_score([[420, "2/3"], [-50, "1/3"]], weight_decimals=2)
    assert score.components == ((420, F(2, 3)), (-50, F(1, 3)))
    assert score.mean == F(790, 3)


def test_percentage_weights_are_checked_as_their_fractions():
    assert parse_score([[420, "100/3%"], [-50, "2/3"]], weight_decimals=2).components[0][1] == F(1, 3)
    with pytest.raises(EngineInputError) as error:
        parse_score([[420, "33.3%"], [-50, "66.7%"]], "result 1", "ns", weight_decimals=2)
    assert "weight '33.3%' has more than 2 decimals" in str(error.value)  # 0.333
    with pytest.raises(EngineInputError) as error:
        parse_score([[420, "30%"], [-50, "60%"]], "result 1", "ns")
    assert "weights add up to 0.9, not 1" in str(error.value)


def test_weights_must_add_up_to_one():
    with pytest.raises(EngineInputError) as error:
        parse_result({"id": 3, "table": 7, "ns": [[420, 0.5], [450, 0.4]]}, 3)
    assert str(error.value) == "result 3 (table 7), ns: weights add up to 0.9, not 1"
    assert (error.value.where, error.value.field) == ("result 3 (table 7)", "ns")


def test_weight_decimals_refuses_0_333():
    with pytest.raises(EngineInputError) as error:
        parse_score([[420, 0.333], [-50, 0.667]], "result 1", "ns", weight_decimals=2)
    assert "0.333 has more than 2 decimals" in str(error.value)
    # without the limit 0.333 + 0.667 is exactly 1
    assert parse_score([[420, 0.333], [-50, 0.667]]).components[0][1] == F(333, 1000)


def test_at_most_max_components():
    six = [[p, "1/6"] for p in (100, 110, 120, 130, 140, 150)]
    with pytest.raises(EngineInputError) as error:
        parse_score(six, "result 2", "ew")
    assert str(error.value) == "result 2, ew: 6 components: a weighted score has at most 5"
    assert len(parse_score(six, max_components=6).components) == 6


@pytest.mark.parametrize(
    "value, error",
    [
        ([[420, 0]], "weight 0 must be more than 0"),
        ([[420, "x"]], "is not a number or fraction"),
        ([[420]], "is not a [points, weight] pair"),
        ([[420.5, 1]], "420.5 is not a whole number of points"),
        ([], "at least one component"),
        ("4S", "is not a score"),
        (True, "True is not a number of points"),
        ("120%", "is not between 0 and 100"),
        ({"percent": -1}, "is not between 0 and 100"),
        ({"table": 1}, "missing"),
    ],
)
def test_bad_scores(value, error):
    with pytest.raises(EngineInputError) as raised:
        parse_score(value, "result 4", "ns")
    assert error in str(raised.value)
    assert str(raised.value).startswith("result 4, ns: ")


def test_artificial_forms():
    assert parse_score("ave+") == Artificial(code="AVE+")
    assert parse_score("AVE-") == Artificial(code="AVE-")
    assert parse_score("60%") == Artificial(percent=F(60))
    assert parse_score({"percent": "62.5"}) == Artificial(percent=F(125, 2))
    assert Artificial(code="AVE+").resolve((65, 50, 35)) == 65


def test_artificial_needs_both_sides():
    with pytest.raises(EngineInputError) as error:
        parse_result({"id": 5, "ns": "AVE+"}, 5)
    assert error.value.field == "ew"
    entry = parse_result({"id": 5, "ns": "AVE+", "ew": "AVE-"}, 5)
    assert entry.ew == Artificial(code="AVE-")


def test_redress_object():
    entry = parse_result(
        {"id": "R", "ns": {"table": -800, "normal_play": -200, "without_infraction": 140, "non_offending": "NS"}}, 1
    )
    assert entry.ns == entry.ew == Redress(-800, -200, 140, "NS")
    assert (entry.side("NS"), entry.side("EW")) == (-800, 140)
    with pytest.raises(EngineInputError) as error:
        parse_result(
            {"id": "R", "ns": {"table": -800, "normal_play": -200, "without_infraction": 140, "non_offending": "both"}},
            1,
        )
    assert error.value.field == "ns.non_offending"


def test_penalties_and_groups():
    entry = parse_result({"id": 1, "ns": 420, "group": "B", "penalty": {"ew": "25%", "ns": 1}}, 1)
    assert entry.penalty_ew == Penalty(F(25), percent=True)
    assert entry.penalty_ns == Penalty(F(1))
    assert entry.group == "B" and entry.plain is None
    with pytest.raises(EngineInputError) as error:
        parse_result({"id": 1, "ns": 420, "penalty": {"ns": -3}}, 1)
    assert error.value.field == "penalty.ns"


def test_result_errors_name_the_result_and_field():
    with pytest.raises(EngineInputError) as error:
        parse_result({"id": "Q", "nss": 420}, 2)
    assert str(error.value).startswith("result 2 (id Q), nss: unknown field")
    with pytest.raises(EngineInputError) as error:
        parse_result({"id": "Q"}, 2)
    assert str(error.value) == "result 2 (id Q), ns: missing: N-S's score is required"
    with pytest.raises(EngineInputError) as error:
        parse_results([{"id": 1, "ns": 1}, {"id": 1, "ns": 2}])
    assert str(error.value).startswith("result 2 (id 1), id:")


def test_entry_value_objects_check_themselves():
    with pytest.raises(ValueError):
        Weighted(((420, F(1, 2)),))
    with pytest.raises(EngineInputError):
        Entry("A", Artificial(code="AVE+"))
    with pytest.raises(ValueError):
        Redress(1, 2, 3, "N")
    assert Entry("A", 420).plain == 420
    assert Entry("A", Weighted(((420, 1),))).plain is None


def test_balanced_entry_is_the_same_entry_as_the_constructor_makes():
    """Entry.balanced sets a plain result's fields without __post_init__ (it runs for every
    result of a board on each change): every field, the fast path's ``plain`` included, must
    equal what Entry(id, points) gives, so a field added to Entry cannot be missed."""
    for points in (420, -50, 0):
        fast, slow = Entry.balanced(7, points), Entry(7, points)
        assert [getattr(fast, f.name) for f in dataclasses.fields(Entry)] == [
            getattr(slow, f.name) for f in dataclasses.fields(Entry)
        ]
        assert fast == slow and hash(fast) == hash(slow) and fast.plain == points
    # numpy's integers still go through the checks and become ints
    converted = Entry.balanced(1, np.int64(110))
    assert type(converted.ns) is int and converted.plain == 110
