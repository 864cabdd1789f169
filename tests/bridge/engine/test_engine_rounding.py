"""Exact values and the roundings rules name."""

from decimal import Decimal
from fractions import Fraction as F

import pytest

from bridge.engine.rounding import (
    acbl,
    decimal_str,
    ebu,
    exact_ratio_str,
    exact_str,
    round_half_away,
    round_half_even,
    round_half_up,
    round_step,
    round_toward,
    to_fraction,
)


def test_to_fraction_is_exact():
    assert to_fraction(0.3) == F(3, 10)
    assert to_fraction("0.25") == F(1, 4)
    assert to_fraction("1/3") == F(1, 3)
    assert to_fraction(Decimal("0.1")) == F(1, 10)
    for bad in (True, None, "x", [1]):
        with pytest.raises(ValueError):
            to_fraction(bad)


def test_ebu_halves_go_towards_the_average():
    # top 18, average 9: above it a half goes down, below it up
    assert ebu(F("17.55"), 18) == F("17.5")
    assert ebu(F("0.45"), 18) == F("0.5")
    assert ebu(F("17.56"), 18) == F("17.6")
    assert ebu(F(130, 7) - 1, 18) == F("17.6")
    assert round_toward(F("2.5"), 1, 10) == 3
    assert round_toward(F("-2.5"), 1, 0) == -2


def test_acbl_and_wbf_halves_go_up():
    assert acbl(F("62.125")) == F("62.13")
    assert acbl(F(200, 3)) == F("66.67")
    assert round_half_up(F("-0.125")) == F("-0.12")


def test_half_rules():
    assert round_half_away(F("-2.5")) == -3 and round_half_away(F("2.5")) == 3
    assert round_half_even(F("2.5")) == 2 and round_half_even(F("3.5")) == 4
    assert round_step(F(-2975, 10), 10, "away") == -300
    assert round_step(345, 10, "up") == 350 and round_step(-345, 10, "up") == -340
    assert round_step(345, 10, "down") == 340
    assert round_step(345, 10, "even") == 340 and round_step(355, 10, "even") == 360
    with pytest.raises(ValueError):
        round_step(1, 10, "sideways")


def test_exact_and_decimal_text():
    assert exact_str(F(15, 2)) == "7.5"
    assert exact_str(F(23, 3)) == "23/3"
    assert exact_str(F(-1, 4)) == "-0.25"
    assert exact_str(12) == "12"
    assert exact_str(F(-21, 2)) == "-10.5"
    assert decimal_str(F("7.5"), 2) == "7.50"
    assert decimal_str(F("-0.1"), 1) == "-0.1"
    with pytest.raises(ValueError):
        decimal_str(F(1, 3), 2)


def test_the_exact_text_of_a_ratio_of_integers_is_that_of_its_fraction():
    """exact_ratio_str takes a numerator and denominator in any terms, of either sign."""
    for numerator in (0, 1, -1, 7, -15, 23, 120, -2401, 10**25 + 3):
        for denominator in (1, 2, 3, 4, 5, 8, 12, 40, 625, 10000, 30000, 21):
            for factor in (1, 3, 10000, -7):
                assert exact_ratio_str(numerator * factor, denominator * factor) == exact_str(F(numerator, denominator))
