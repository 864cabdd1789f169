"""The regulating authority's scoring choices are ones the engine knows (issue #15)."""

from bridge.engine.vp import scale_names, victory_points
from scoring.authority_settings import VP_SCALES


def test_every_vp_scale_choice_is_an_engine_scale():
    assert set(VP_SCALES) <= set(scale_names())
    for scale in VP_SCALES:
        home, away = victory_points(7, 8, scale)  # every shipped scale has 8 boards
        assert home > away


def test_butler_trimming_setting_accepts_the_named_conventions():
    import pytest
    from django.core.exceptions import ValidationError

    from scoring.authority_settings import SPECS

    check = SPECS["butler_drop"].check
    for good in (0, 1, 10, "none", "one-each-end", "field-size", "10%", "12.5%"):
        check(good)
    for bad in (11, -1, True, "most", "60%", 1.5, None):
        with pytest.raises(ValidationError):
            check(bad)
