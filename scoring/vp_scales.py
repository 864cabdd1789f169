"""Which victory-point scales a regulating authority's events may use, and what a scale's name
stands for (docs/scoring.md, "Victory points").

A name is one of the engine's shipped scales (``authority_settings.VP_SCALES``: the WBF 2013
continuous scales and the ACBL discrete ones) or an authority's own discrete scale
(``VictoryPointScale``), named "<authority code>:<name>" so that it can never be taken for a
shipped scale nor for another body's. The authority's ``vp_scale`` setting and an event's own
choice (``Event.vp_scale``) take the same names; the recalculation asks :func:`engine_scale`
for what to give the engine.
"""

from django.utils.translation import gettext as _

from bridge.engine import vp as engine_vp
from scoring.authority_settings import VP_SCALES, vp_scale_choices
from scoring.models import Event, RegulatingAuthority, VictoryPointScale

# The WBF's discrete 20-VP scale (2013), the EBU's for ordinary teams events since 1 September
# 2013 (White Book 3.1.1): for each number of boards, the largest IMP margin that still earns the
# winner 10, 11, ... 19 VPs (a larger one wins 20-0; the loser has 20 less the winner's VPs).
# Exact integers, from the WBF Scoring Panel's construction of the discrete scale as the EBU's own
# table generator (ebu.co.uk/dynamic/js/vps.js) applies it: the continuous 2013 curve inverted at
# 10.5, 11.5, ... VPs, each margin rounded down, then narrowed until no band is wider than the one
# before it. The WBF's own PDF of the table was not reached; 16 boards reads 0-1, 2-4, 5-8, 9-12,
# 13-17, 18-22, 23-28, 29-35, 36-43, 44-53, then 54+ for 20-0.
WBF_DISCRETE_20_NAME = "wbf2013-discrete-20"
WBF_DISCRETE_20_SOURCE = (
    "WBF discrete 20-VP scale (Technical Report of the WBF Scoring Panel, 2013), as the EBU's White Book "
    "(3.1.1) and its table generator give it; the WBF's own table was not reached"
)
WBF_DISCRETE_20_BANDS = {
    1: (0, 1, 2, 3, 4, 5, 6, 8, 10, 13),
    2: (0, 1, 2, 4, 6, 8, 10, 12, 15, 19),
    3: (0, 1, 3, 5, 7, 9, 12, 15, 18, 23),
    4: (0, 2, 4, 6, 8, 11, 14, 17, 21, 26),
    5: (0, 2, 4, 6, 9, 12, 15, 19, 24, 30),
    6: (0, 2, 4, 7, 10, 13, 17, 21, 26, 32),
    7: (0, 2, 5, 8, 11, 14, 18, 23, 28, 35),
    8: (0, 3, 6, 9, 12, 16, 20, 25, 30, 38),
    9: (0, 3, 6, 9, 12, 16, 21, 26, 32, 40),
    10: (0, 3, 6, 9, 13, 17, 22, 27, 34, 42),
    11: (1, 4, 7, 10, 14, 18, 23, 29, 36, 44),
    12: (1, 4, 7, 11, 15, 19, 24, 30, 37, 46),
    13: (1, 4, 7, 11, 15, 20, 25, 31, 39, 48),
    14: (1, 4, 8, 12, 16, 21, 26, 33, 40, 50),
    15: (1, 4, 8, 12, 16, 21, 27, 34, 42, 52),
    16: (1, 4, 8, 12, 17, 22, 28, 35, 43, 53),
    17: (1, 5, 9, 13, 18, 23, 29, 36, 44, 55),
    18: (1, 5, 9, 13, 18, 24, 30, 37, 46, 57),
    19: (1, 5, 9, 14, 19, 24, 31, 38, 47, 58),
    20: (1, 5, 9, 14, 19, 25, 31, 39, 48, 60),
    21: (1, 5, 9, 14, 19, 25, 32, 40, 49, 61),
    22: (1, 5, 10, 15, 20, 26, 33, 41, 51, 63),
    23: (1, 5, 10, 15, 20, 27, 34, 42, 52, 64),
    24: (1, 5, 10, 15, 21, 27, 34, 43, 53, 65),
    25: (1, 6, 11, 16, 21, 28, 35, 44, 54, 67),
    26: (1, 6, 11, 16, 22, 28, 36, 45, 55, 68),
    27: (1, 6, 11, 16, 22, 29, 37, 45, 56, 69),
    28: (1, 6, 11, 17, 23, 29, 37, 46, 57, 71),
    29: (1, 6, 11, 17, 23, 30, 38, 47, 58, 72),
    30: (1, 6, 11, 17, 23, 31, 39, 48, 59, 73),
    31: (2, 7, 12, 17, 24, 31, 39, 49, 60, 74),
    32: (2, 7, 12, 18, 24, 32, 40, 50, 61, 76),
    33: (2, 7, 12, 18, 25, 32, 40, 50, 62, 77),
    34: (2, 7, 12, 18, 25, 33, 41, 51, 63, 78),
    35: (2, 7, 13, 19, 25, 33, 42, 52, 64, 79),
    36: (2, 7, 13, 19, 26, 33, 42, 53, 65, 80),
    37: (2, 7, 13, 19, 26, 34, 43, 53, 66, 81),
    38: (2, 7, 13, 19, 26, 34, 43, 54, 67, 82),
    39: (2, 7, 13, 20, 27, 35, 44, 55, 67, 83),
    40: (2, 7, 13, 20, 27, 35, 45, 55, 68, 85),
    41: (2, 8, 14, 20, 28, 36, 45, 56, 69, 86),
    42: (2, 8, 14, 20, 28, 36, 46, 57, 70, 87),
    43: (2, 8, 14, 21, 28, 37, 46, 57, 71, 88),
    44: (2, 8, 14, 21, 29, 37, 47, 58, 72, 89),
    45: (2, 8, 14, 21, 29, 37, 47, 59, 73, 90),
    46: (2, 8, 14, 21, 29, 38, 48, 59, 73, 91),
    47: (2, 8, 15, 22, 30, 38, 48, 60, 74, 92),
    48: (2, 8, 15, 22, 30, 39, 49, 61, 75, 93),
    49: (2, 8, 15, 22, 30, 39, 49, 61, 76, 94),
    50: (2, 8, 15, 22, 30, 40, 50, 62, 76, 95),
    51: (2, 8, 15, 23, 31, 40, 50, 63, 77, 95),
    52: (2, 8, 15, 23, 31, 40, 51, 63, 78, 96),
    53: (2, 9, 16, 23, 31, 41, 51, 64, 79, 97),
    54: (2, 9, 16, 23, 32, 41, 52, 64, 80, 98),
    55: (2, 9, 16, 23, 32, 41, 52, 65, 80, 99),
    56: (2, 9, 16, 24, 32, 42, 53, 66, 81, 100),
    57: (2, 9, 16, 24, 33, 42, 53, 66, 82, 101),
    58: (2, 9, 16, 24, 33, 43, 54, 67, 82, 102),
    59: (2, 9, 16, 24, 33, 43, 54, 67, 83, 103),
    60: (2, 9, 17, 25, 33, 43, 55, 68, 84, 104),
    61: (2, 9, 17, 25, 34, 44, 55, 69, 85, 104),
    62: (2, 9, 17, 25, 34, 44, 56, 69, 85, 105),
    63: (3, 10, 17, 25, 34, 44, 56, 70, 86, 106),
    64: (3, 10, 17, 25, 35, 45, 57, 70, 87, 107),
}


def wbf_discrete_20() -> engine_vp.DiscreteScale:
    """The WBF discrete 20-VP scale as the engine reads a discrete scale, from the bands above."""
    tables = {}
    for boards, tops in WBF_DISCRETE_20_BANDS.items():
        rows, low = [], 0
        for step, top in enumerate(tops):
            rows.append([low, 10 + step, 10 - step])
            low = top + 1
        rows.append([low, 20, 0])
        tables[str(boards)] = rows
    return engine_vp.parse_scale(
        {"name": WBF_DISCRETE_20_NAME, "source": WBF_DISCRETE_20_SOURCE, "max_vp": 20, "tables": tables}
    )


def register_shipped() -> None:
    """Give the engine the scales shipped here by name (the app's ready())."""
    engine_vp.register_scale(WBF_DISCRETE_20_NAME, wbf_discrete_20())


def own_scales(authority: RegulatingAuthority):
    return VictoryPointScale.objects.filter(authority=authority).select_related("authority", "created_by")


def choices(authority: RegulatingAuthority | None) -> tuple[str, ...]:
    """The names ``authority``'s setting and events may choose: the shipped scales, then its own."""
    return vp_scale_choices(authority)


def _own(authority: RegulatingAuthority, name: str) -> VictoryPointScale | None:
    code, colon, own_name = name.partition(":")
    if not colon or code != authority.code:
        return None
    return VictoryPointScale.objects.filter(authority=authority, name=own_name).first()


def engine_scale(authority: RegulatingAuthority, name: str):
    """What the engine is given for ``name``: a shipped scale's name, or the authority's own
    scale as a ``DiscreteScale`` read from its stored tables (checked when it was added)."""
    if name in VP_SCALES:
        return name
    own = _own(authority, name)
    if own is None:
        return name  # the engine refuses it, naming the field vp_scale
    return engine_vp.parse_scale({"name": own.choice, "max_vp": own.max_vp, "tables": own.tables})


def source(authority: RegulatingAuthority, name: str) -> str:
    """Where the numbers of the scale ``name`` come from."""
    if name in ("wbf2013-20", "wbf2013-30"):
        text = _("WBF 2013 continuous scale (Technical Report of the WBF Scoring Panel, 2013)")
        return text if name == "wbf2013-20" else _("%(scale)s, times 1.5 for 30 VPs") % {"scale": text}
    if name == WBF_DISCRETE_20_NAME:
        return WBF_DISCRETE_20_SOURCE
    if name in engine_vp.SHIPPED_DISCRETE:
        return engine_vp.load_scale(engine_vp.DATA_DIR / engine_vp.SHIPPED_DISCRETE[name]).source
    own = _own(authority, name)
    return own.source if own else ""


def in_force(event: Event) -> dict[str, object]:
    """The event's scale: its name, its source, and whether the event chose it (else the
    authority's setting gives it)."""
    authority = event.tournament.authority
    name = event.regulations()["vp_scale"]
    return {"name": name, "source": source(authority, name), "chosen_by_event": bool(event.vp_scale)}
