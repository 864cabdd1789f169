"""The regulating authority's scoring choices are ones the engine knows (issue #15)."""

from bridge.engine.vp import scale_names, victory_points
from scoring.authority_settings import VP_SCALES


def test_every_vp_scale_choice_is_an_engine_scale():
    assert set(VP_SCALES) <= set(scale_names())
    for scale in VP_SCALES:
        home, away = victory_points(7, 8, scale)  # every shipped scale has 8 boards
        assert home > away
