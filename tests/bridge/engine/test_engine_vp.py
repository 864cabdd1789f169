"""Victory points: the shipped WBF 2013 table against its formula, and discrete scales."""

import json
import math
from decimal import Decimal
from fractions import Fraction as F

import pytest

from bridge.engine import gen_vp_tables
from bridge.engine.scores import EngineInputError
from bridge.engine.vp import (
    DATA_DIR, DiscreteScale, continuous_table, load_scale, register_scale, victory_points,
    wbf2013_exact,
)

CENT = Decimal("0.01")
SHIPPED = json.loads((DATA_DIR / "wbf2013_vp20.json").read_text(encoding="utf-8"))["tables"]


def formula(margin, boards):
    """The WBF 2013 formula in plain floating point, independent of the engine's Decimals."""
    tau = (math.sqrt(5) - 1) / 2
    blitz = 15 * math.sqrt(boards)
    return min(20.0, 10 + 10 * (1 - tau ** (3 * margin / blitz)) / (1 - tau ** 3))


def test_every_shipped_value_is_within_a_cent_of_the_formula():
    assert sorted(int(n) for n in SHIPPED) == list(range(1, 65))
    for boards, values in SHIPPED.items():
        boards = int(boards)
        assert values[0] == "10.00" and values[-1] == "20.00"
        for margin, value in enumerate(values):
            assert abs(float(value) - formula(margin, boards)) <= 0.01 + 1e-9, (boards, margin)
        # the table stops where the winner first reaches 20.00
        assert round(formula(len(values) - 2, boards), 2) < 20 or values[-2] == "20.00"


def test_shipped_file_is_what_the_generator_writes():
    assert gen_vp_tables.build()["tables"] == SHIPPED


def test_increments_never_grow_up_to_32_boards():
    for boards in range(1, 33):
        values = [Decimal(v) for v in SHIPPED[str(boards)]]
        steps = [b - a for a, b in zip(values, values[1:])]
        assert all(later <= earlier for earlier, later in zip(steps, steps[1:])), boards


def test_corrections_are_few_and_small():
    for boards in (8, 12, 16, 20, 24):
        values = [Decimal(v) for v in SHIPPED[str(boards)]]
        plain = [Decimal(str(round(formula(m, boards), 10))).quantize(CENT, "ROUND_HALF_UP")
                 for m in range(len(values))]
        plain[-1] = Decimal("20.00")
        moved = [m for m, (a, b) in enumerate(zip(values, plain)) if a != b]
        assert len(moved) <= len(values) // 5
        assert all(abs(values[m] - plain[m]) == CENT for m in moved)


@pytest.mark.parametrize("boards", [1, 2, 5, 7, 12, 16, 17, 24, 32, 48, 64, 100])
def test_one_third_and_two_thirds_of_the_blitz(boards):
    blitz = 15 * Decimal(boards).sqrt()
    third = F(blitz / 3)
    assert wbf2013_exact(third, boards).quantize(CENT) == Decimal("15.00")
    assert wbf2013_exact(2 * third, boards).quantize(CENT) == Decimal("18.09")
    assert victory_points(third, boards) == (Decimal("15.00"), Decimal("5.00"))
    assert victory_points(2 * third, boards) == (Decimal("18.09"), Decimal("1.91"))


def test_sixteen_boards():
    assert victory_points(0, 16) == (Decimal("10.00"), Decimal("10.00"))
    assert victory_points(20, 16) == (Decimal("15.00"), Decimal("5.00"))
    assert victory_points(40, 16) == (Decimal("18.09"), Decimal("1.91"))
    assert victory_points(60, 16) == (Decimal("20.00"), Decimal("0.00"))
    assert victory_points(95, 16) == (Decimal("20.00"), Decimal("0.00"))
    assert victory_points(-20, 16) == (Decimal("5.00"), Decimal("15.00"))


def test_fractional_margins_use_the_formula():
    home, away = victory_points(F(13, 2), 16)
    assert home == Decimal(str(round(formula(6.5, 16), 2)))
    assert home + away == 20
    assert victory_points(F(13, 2), 16)[0] > victory_points(6, 16)[0]


def test_beyond_the_shipped_boards_and_thirty_vp_form():
    assert victory_points(50, 100)[0] == continuous_table(100)[50]
    assert victory_points(20, 16, "wbf2013-30") == (Decimal("22.50"), Decimal("7.50"))
    assert victory_points(60, 16, "wbf2013-30") == (Decimal("30.00"), Decimal("0.00"))
    for margin, value in enumerate(continuous_table(16, top=30)):
        assert abs(float(value) - 1.5 * formula(margin, 16)) <= 0.01 + 1e-9


def test_bad_input():
    with pytest.raises(EngineInputError):
        victory_points(10, 0)
    with pytest.raises(EngineInputError):
        victory_points(10, 16, "no such scale")


# A made-up discrete scale in the documented format: test data, not any body's real scale.
FIXTURE = {
    "name": "test-discrete", "source": "made up for the tests", "max_vp": 20,
    "tables": {"8": [[0, 10, 10], [3, 11, 9], [7, 12, 8], [12, 13, 7], [40, 20, 0]]},
}


def test_discrete_scale_from_data(tmp_path):
    path = tmp_path / "scale.json"
    path.write_text(json.dumps(FIXTURE), encoding="utf-8")
    scale = load_scale(path)
    assert isinstance(scale, DiscreteScale)
    assert scale.convert(0, 8) == (10, 10)
    assert scale.convert(2, 8) == (10, 10)
    assert scale.convert(F(13, 2), 8) == (11, 9)
    assert scale.convert(-7, 8) == (8, 12)
    assert scale.convert(99, 8) == (20, 0)
    register_scale("test-discrete", scale)
    assert victory_points(12, 8, "test-discrete") == (13, 7)
    with pytest.raises(EngineInputError):
        victory_points(12, 9, "test-discrete")


def test_discrete_scale_must_start_at_zero_and_increase(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**FIXTURE, "tables": {"8": [[1, 10, 10]]}}), encoding="utf-8")
    with pytest.raises(ValueError):
        load_scale(path)
