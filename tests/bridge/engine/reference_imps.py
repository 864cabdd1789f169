"""The cross-IMP and Butler scorers as they were before issue #15, kept as the slow reference.

Quadratic (cross-IMPs) and Fraction-per-result (Butler); the engine's O(n log n) versions must
give exactly the same scores (tests/bridge/engine/test_engine_imps_fast.py).
"""

from fractions import Fraction

from bridge.engine.imps import _weighted_imps, artificial_value, evaluate
from bridge.engine.rounding import round_step
from bridge.engine.scores import Artificial, EngineInputError, Redress


def _real_or_artificial(entries, side):
    real, artificial = [], {}
    for entry in entries:
        score = entry.raw(side)
        if isinstance(score, Artificial):
            artificial[entry.id] = score
        else:
            real.append(entry)
    return real, artificial


def slow_cross_imps(entries, *, mode="mean", artificial_imps=3):
    """Cross-IMPs: each result against every other real result on the board.

    Return {id: (ns, ew)} of Fractions: the mean (``mode="mean"``) or the sum (``"sum"``) of
    IMP(own - other) over the other real results, each direction against its own direction.
    Artificial scores get +-``artificial_imps`` (in both modes) and take no part.
    """
    if mode not in ("mean", "sum"):
        raise EngineInputError("board", "mode", f"{mode!r} is not 'mean' or 'sum'")
    entries = list(entries)
    result = {entry.id: [None, None] for entry in entries}
    for k, side in enumerate(("NS", "EW")):
        sign = 1 if side == "NS" else -1

        def rate(own, other, sign=sign):
            # the sign is applied inside so that a redress's damage is seen from this side
            return sign * _weighted_imps(own, other)

        real, artificial = _real_or_artificial(entries, side)
        for entry_id, score in artificial.items():
            result[entry_id][k] = artificial_value(score, artificial_imps, f"result {entry_id}", side.lower())
        for entry in real:
            others = [o for o in real if o is not entry]
            total = Fraction(0)
            for other in others:
                total += evaluate([(entry.raw(side), side), (other.side(side), "other")], rate)
            if mode == "mean":
                total = total / len(others) if others else Fraction(0)
            result[entry.id][k] = total
    return {entry_id: tuple(pair) for entry_id, pair in result.items()}


def slow_butler_datum(points, *, drop=1, step=10, half="away"):
    """The Butler datum: the mean of ``points`` after dropping the ``drop`` highest and lowest
    (none with 3 or fewer, or when that would leave nothing), rounded to ``step`` with the
    named rule for an exact half (see :func:`~bridge.engine.rounding.round_step`)."""
    values = sorted(Fraction(p) for p in points)
    if not values:
        raise EngineInputError("board", "results", "no real results to make a datum from")
    if len(values) > 3 and drop and len(values) > 2 * drop:
        values = values[drop:-drop]
    return round_step(sum(values) / len(values), step, half)


def slow_butler(entries, *, drop=1, step=10, half="away", artificial_imps=3):
    """Score a board against a datum (see :func:`butler_datum`).

    The datum is made from each real result's N-S score (a weighted score counts as its
    weighted mean, a redress as the table result; artificial scores are left out). N-S score
    IMP(score - datum), E-W IMP(datum - score), weighted and redress as at teams.
    """
    entries = list(entries)
    real, _ = _real_or_artificial(entries, "NS")
    datum_points = []
    for entry in real:
        score = entry.raw("NS")
        score = score.table if isinstance(score, Redress) else score
        datum_points.append(score if isinstance(score, int) else score.mean)
    datum = slow_butler_datum(datum_points, drop=drop, step=step, half=half)
    datum_score = ((datum, Fraction(1)),)
    scores = {}
    for entry in entries:
        pair = []
        for side, sign in (("NS", 1), ("EW", -1)):
            score = entry.raw(side)
            if isinstance(score, Artificial):
                pair.append(artificial_value(score, artificial_imps, entry.name, side.lower()))
            else:
                pair.append(evaluate([(score, side)], lambda own, sign=sign: sign * _weighted_imps(own, datum_score)))
        scores[entry.id] = tuple(pair)
    return datum, scores
