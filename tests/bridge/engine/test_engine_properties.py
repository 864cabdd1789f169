"""Properties of matchpointing that must hold on any board (Hypothesis)."""

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.engine.matchpoints import neuberg, score_board
from bridge.engine.scores import Entry, Weighted

# Scores close together so that ties are common.
points = st.integers(min_value=-30, max_value=30).map(lambda k: 10 * k)
boards = st.lists(points, min_size=1, max_size=40)


@st.composite
def weighted_scores(draw):
    """A weighted score of 1-5 components with weights adding up to exactly 1."""
    parts = draw(st.lists(st.integers(1, 12), min_size=1, max_size=5))
    total = sum(parts)
    return Weighted(tuple((draw(points), F(part, total)) for part in parts))


@st.composite
def mixed_entries(draw):
    """Plain, weighted and split results."""
    entries = []
    for i in range(draw(st.integers(1, 25))):
        kind = draw(st.sampled_from(["plain", "weighted", "split"]))
        if kind == "plain":
            entries.append(Entry(i, draw(points)))
        elif kind == "weighted":
            entries.append(Entry(i, draw(weighted_scores())))
        else:
            entries.append(Entry(i, draw(points), draw(st.one_of(points, weighted_scores()))))
    return entries


def all_values(result):
    return [(result.ns(e.id), result.ew(e.id)) for e in result.entries]


@given(boards, st.integers(0, 5), st.sampled_from(["2/1", "1/half"]))
def test_fast_path_equals_exact_path(scores, missing, scale):
    entries = [Entry(i, p) for i, p in enumerate(scores)]
    expected = len(scores) + missing
    fast = score_board(entries, expected=expected, scale=scale)
    exact = score_board(entries, expected=expected, scale=scale, fast=False)
    assert all_values(fast) == all_values(exact)
    assert fast.column("NS") == exact.column("NS") and fast.column("EW") == exact.column("EW")
    assert fast.top == exact.top


@given(st.lists(st.one_of(points, weighted_scores()), min_size=1, max_size=25))
def test_balanced_board_adds_up_to_n_times_n_minus_one(scores):
    entries = [Entry(i, s) for i, s in enumerate(scores)]
    result = score_board(entries)
    n = len(entries)
    assert sum(result.ns(e.id) for e in entries) == n * (n - 1)
    assert sum(result.ew(e.id) for e in entries) == n * (n - 1)
    for e in entries:  # each table's two sides share the top
        assert result.ns(e.id) + result.ew(e.id) == result.top


@given(boards)
def test_weight_one_equals_plain(scores):
    plain = score_board([Entry(i, p) for i, p in enumerate(scores)])
    weighted = score_board([Entry(i, Weighted(((p, 1),))) for i, p in enumerate(scores)])
    assert all_values(plain) == all_values(weighted)


@given(boards)
def test_split_with_equal_sides_equals_plain(scores):
    plain = score_board([Entry(i, p) for i, p in enumerate(scores)])
    split = score_board([Entry(i, p, Weighted(((p, 1),))) for i, p in enumerate(scores)])
    assert all_values(plain) == all_values(split)


@given(mixed_entries())
def test_neuberg_with_every_result_present_changes_nothing(entries):
    n = len(entries)
    assert all_values(score_board(entries)) == all_values(score_board(entries, expected=n))
    assert all(neuberg(m, n, n) == m for m in range(0, 2 * n, 1))


@given(mixed_entries())
def test_north_south_and_east_west_are_symmetric(entries):
    def flip(score):
        if isinstance(score, Weighted):
            return Weighted(tuple((-p, w) for p, w in score.components))
        return -score

    flipped = [Entry(e.id, flip(e.ew), flip(e.ns)) for e in entries]
    result, mirror = score_board(entries), score_board(flipped)
    for e in entries:
        assert result.ns(e.id) == mirror.ew(e.id)
        assert result.ew(e.id) == mirror.ns(e.id)


@settings(max_examples=50)
@given(mixed_entries(), st.integers(0, 4))
def test_half_scale_is_half_of_two_one(entries, missing):
    expected = len(entries) + missing
    two = score_board(entries, expected=expected)
    half = score_board(entries, expected=expected, scale="1/half")
    assert [(a / 2, b / 2) for a, b in all_values(two)] == all_values(half)
    assert half.top * 2 == two.top


@settings(max_examples=50)
@given(boards.filter(lambda s: len(s) >= 2), weighted_scores())
def test_weighted_score_equals_weighted_mean_of_boards(scores, weighted):
    entries = [Entry(i, p) for i, p in enumerate(scores)]
    result = score_board([*entries, Entry("X", weighted)])
    for entry_id in [*range(len(scores)), "X"]:
        mean = sum(w * score_board([*entries, Entry("X", p)]).ns(entry_id) for p, w in weighted.components)
        assert result.ns(entry_id) == mean
