"""Cross-IMPs and Butler at sort speed give exactly the scores of the quadratic reference
(the implementation before issue #15, kept in reference_imps.py), on plain and mixed boards."""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_imps import slow_butler, slow_cross_imps  # this directory (pytest puts it on the path)

from bridge.engine.imps import BUTLER_TRIMS, butler, butler_datum, butler_trim_count, cross_imps
from bridge.engine.scores import Artificial, EngineInputError, Entry, Redress, Weighted

# Real scores are multiples of 10; a few odd values exercise the gaps of the IMP table.
points = st.one_of(st.integers(-760, 760).map(lambda k: 10 * k), st.integers(-5000, 5000))
near = st.integers(-40, 40).map(lambda k: 10 * k)  # close together: ties and small bands


@st.composite
def weighted(draw, values=points):
    parts = draw(st.lists(st.integers(1, 9), min_size=1, max_size=4))
    total = sum(parts)
    return Weighted(tuple((draw(values), F(part, total)) for part in parts))


@st.composite
def real_score(draw, values=points):
    return draw(st.one_of(values, weighted(values)))


@st.composite
def board(draw, values=points, mixed=True):
    entries = []
    kinds = ["plain", "split", "weighted", "redress", "artificial"] if mixed else ["plain"]
    for i in range(draw(st.integers(1, 20))):
        kind = draw(st.sampled_from(kinds))
        if kind == "plain":
            entries.append(Entry(i, draw(values)))
        elif kind == "split":
            entries.append(Entry(i, draw(values), draw(real_score(values))))
        elif kind == "weighted":
            entries.append(Entry(i, draw(weighted(values))))
        elif kind == "redress":
            entries.append(
                Entry(
                    i,
                    Redress(
                        draw(real_score(values)),
                        draw(real_score(values)),
                        draw(real_score(values)),
                        draw(st.sampled_from(["NS", "EW"])),
                    ),
                )
            )
        else:
            code = draw(st.sampled_from(["AVE+", "AVE", "AVE-"]))
            entries.append(Entry(i, Artificial(code), Artificial(draw(st.sampled_from(["AVE+", "AVE", "AVE-"])))))
    return entries


@settings(max_examples=120, deadline=None)
@given(st.one_of(board(), board(near), board(mixed=False), board(near, mixed=False)), st.sampled_from(["mean", "sum"]))
def test_cross_imps_equal_the_reference(entries, mode):
    assert cross_imps(entries, mode=mode) == slow_cross_imps(entries, mode=mode)


@settings(max_examples=120, deadline=None)
@given(
    st.one_of(board(), board(near), board(mixed=False)),
    st.integers(0, 4),
    st.sampled_from(["away", "up", "down", "even"]),
)
def test_butler_equals_the_reference(entries, drop, half):
    real = [e for e in entries if not isinstance(e.raw("NS"), Artificial)]
    if not real:
        with pytest.raises(EngineInputError):
            butler(entries, drop=drop, half=half)
        return
    fast = butler(entries, drop=drop, half=half)
    datum, scores = slow_butler(entries, drop=drop, half=half)
    assert (fast.datum, fast.scores) == (datum, scores)


def test_two_hundred_plain_results_equal_the_reference():
    import random

    rng = random.Random(15)
    entries = [Entry(i, rng.choice(range(-1400, 1500, 10))) for i in range(200)]
    assert cross_imps(entries) == slow_cross_imps(entries)
    assert butler(entries).scores == slow_butler(entries)[1]


def test_domain_checks_still_hold():
    scores = cross_imps([Entry(i, p) for i, p in enumerate([620, 170, 140, 140, -100])])
    assert [scores[i][0] for i in range(5)] == [F("10.5"), F("-0.25"), F("-1.25"), F("-1.25"), F("-7.75")]
    result = butler([Entry(i, p) for i, p in enumerate([-650, -170, -1440, 100, -170, -200])])
    assert result.datum == -300
    assert [result.scores[i][0] for i in range(6)] == [-8, 4, -15, 9, 4, 3]


@pytest.mark.parametrize("count, each", [(3, 0), (4, 1), (10, 1), (11, 2), (25, 2), (26, 3), (40, 3), (41, 4)])
def test_field_size_trimming(count, each):
    # bridge-scorer's rule: ceil((n - 10) / 15) + 1 at each end with more than 3 results
    assert butler_trim_count("field-size", count) == each


def test_trimming_conventions():
    assert butler_trim_count("none", 20) == 0
    assert butler_trim_count("one-each-end", 20) == 1
    assert butler_trim_count("one-each-end", 3) == 0
    assert butler_trim_count(2, 20) == 2
    assert butler_trim_count("2", 20) == 2
    assert butler_trim_count("10%", 25) == 2
    assert butler_trim_count("10%", 9) == 0
    assert butler_trim_count("12.5%", 16) == 2
    assert butler_trim_count(3, 6) == 0  # would leave nothing
    for bad in ("most", "-1", -1, True, "10%%"):
        with pytest.raises(EngineInputError):
            butler_trim_count(bad, 10)
    assert {"none", "one-each-end", "field-size"} <= set(BUTLER_TRIMS)


def test_datum_with_a_percentage_trim():
    # 10 results, 10%: one at each end dropped: mean of 20..90 by tens is 55 -> 60 (away)
    assert butler_datum(range(10, 110, 10), drop="10%") == 60
    assert butler_datum(range(10, 110, 10), drop="none") == 60  # mean 55 too
    assert butler_datum([0, 0, 0, 0, 1000], drop="field-size") == 0
