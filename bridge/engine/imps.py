"""IMPs (Law 78B): the scale, team boards, cross-IMPs and Butler.

Scores are :class:`~bridge.engine.scores.Entry` objects (or bare scores, meaning a
balanced result). A weighted score is converted to IMPs component by component and then
weighted, never the points first. A redress (Law 12C1b) gives the non-offenders their table
result plus the damage in IMPs, the offenders the result without the infraction. Artificial
scores are worth ``artificial_imps`` (3 unless regulated otherwise, Law 86A).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from fractions import Fraction

from .rounding import round_half_away, round_step
from .scores import Artificial, EngineInputError, Entry, Redress, components
from .vp import to_decimal, vp_for_margin

__all__ = ["imps", "BoardIMPs", "team_board", "MatchScore", "team_match", "cross_imps",
           "ButlerScore", "butler", "butler_datum", "artificial_value"]

# Lowest point difference for 1, 2, ... 24 IMPs (Law 78B).
_IMP_STEPS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300,
              1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000)


def imps(points):
    """IMPs for a point difference; the sign follows the difference (0-10 -> 0, 4000+ -> 24).

    Differences of real scores are multiples of 10; anything in a gap of the table (a
    datum of 345, say) takes the band below: 15 -> 0, 45 -> 1.
    """
    size = abs(points)
    value = bisect_right(_IMP_STEPS, size)
    return value if points >= 0 else -value


def artificial_value(score, artificial_imps=3, where="", field=""):
    """IMPs for an artificial score: AVE+ +a, AVE 0, AVE- -a. A percentage is refused."""
    if score.code is None:
        raise EngineInputError(where, field, f"{score} is a percentage: at IMPs use AVE+, AVE or AVE-")
    return Fraction({"AVE+": artificial_imps, "AVE": 0, "AVE-": -artificial_imps}[score.code])


def _as_entry(value, name):
    return value if isinstance(value, Entry) else Entry(name, value, label=name)


def _evaluate(seats, rate):
    """``rate`` applied to real scores, resolving any redress among ``seats``.

    ``seats`` is a list of (score, side it stands for); ``rate`` takes one components tuple
    per seat. A redress gives its non-offending side T + max(0, value(Q) - value(P)) and its
    offending side Q.
    """
    for k, (score, side) in enumerate(seats):
        if isinstance(score, Redress):
            def using(replacement, k=k, side=side):
                return _evaluate(seats[:k] + [(replacement, side)] + seats[k + 1:], rate)
            if side != score.non_offending:
                return using(score.without_infraction)
            damage = using(score.without_infraction) - using(score.normal_play)
            return using(score.table) + max(Fraction(0), damage)
    return rate(*(components(score) for score, _ in seats))


def _weighted_imps(own, other):
    """IMPs of own - other, weighting each pair of components (Law 12C1c at IMPs)."""
    total = Fraction(0)
    for points, weight in own:
        for other_points, other_weight in other:
            total += weight * other_weight * imps(points - other_points)
    return total


def _penalty_imps(entry, side, where):
    penalty = entry.penalty(side)
    if penalty is None:
        return Fraction(0)
    if penalty.percent:
        raise EngineInputError(where, f"penalty.{side.lower()}", "at IMPs a penalty is in IMPs, not a percentage")
    return penalty.amount


@dataclass(frozen=True)
class BoardIMPs:
    """A team board: IMPs for the home and away team (they need not balance)."""

    home: Fraction
    away: Fraction


def team_board(open_room, closed_room, *, artificial_imps=3, knockout=False, whole_imps=False):
    """IMPs for one board of a team match.

    The home team sits N-S in ``open_room`` and E-W in ``closed_room``; each room is an
    :class:`Entry` or a bare score (balanced). Each team is scored from its own two seats: its
    N-S score against the other room's score for its E-W pair. When either of a team's seats
    has an artificial score, the team gets the mean of its artificial seats' IMPs. With
    ``knockout`` (Law 86B) non-balancing results are averaged: home = (home - away) / 2.
    ``whole_imps`` rounds each team's result to whole IMPs (halves away from zero) first.
    Procedural penalties (in IMPs) are then deducted from the penalised team only.
    """
    open_room = _as_entry(open_room, "open room")
    closed_room = _as_entry(closed_room, "closed room")

    def team(ns_room, ew_room):
        seats = [(ns_room, "NS"), (ew_room, "EW")]
        artificial = [
            artificial_value(room.raw(side), artificial_imps, room.name, side.lower())
            for room, side in seats if isinstance(room.raw(side), Artificial)
        ]
        if artificial:
            return sum(artificial) / len(artificial)
        value = _evaluate([(room.raw(side), side) for room, side in seats], _weighted_imps)
        return round_half_away(value) if whole_imps else value

    home, away = team(open_room, closed_room), team(closed_room, open_room)
    if knockout and home != -away:
        home = (home - away) / 2
        away = -home
    home -= _penalty_imps(open_room, "NS", open_room.name) + _penalty_imps(closed_room, "EW", closed_room.name)
    away -= _penalty_imps(closed_room, "NS", closed_room.name) + _penalty_imps(open_room, "EW", open_room.name)
    return BoardIMPs(home, away)


@dataclass(frozen=True)
class MatchScore:
    """A team match: each board's IMPs, each team's net IMPs (its margin) and VPs."""

    boards: tuple
    home_imps: Fraction
    away_imps: Fraction
    home_vp: object
    away_vp: object
    scale: str
    scale_boards: int


def team_match(boards, *, vp_scale="wbf2013-20", scale_boards=None, vp_penalties=(0, 0),
               **board_options):
    """Score a team match: ``boards`` is a list of (open_room, closed_room) pairs.

    Each team's margin is the sum of its own board results, converted to VPs on its own (so a
    match with non-balancing boards may give VPs that do not add up to the maximum).
    ``scale_boards`` is the number of boards the VP scale is for (default: the boards given);
    ``vp_penalties`` (home, away) are deducted after the conversion. Other options go to
    :func:`team_board`.
    """
    scored = tuple(team_board(open_room, closed_room, **board_options)
                   for open_room, closed_room in boards)
    home = sum((b.home for b in scored), Fraction(0))
    away = sum((b.away for b in scored), Fraction(0))
    count = scale_boards or len(scored)
    if count < 1:
        raise EngineInputError("match", "boards", "a match needs at least one board")
    home_vp = vp_for_margin(home, count, vp_scale) - to_decimal(vp_penalties[0])
    away_vp = vp_for_margin(away, count, vp_scale) - to_decimal(vp_penalties[1])
    return MatchScore(scored, home, away, home_vp, away_vp, str(vp_scale), count)


def _real_or_artificial(entries, side):
    real, artificial = [], {}
    for entry in entries:
        score = entry.raw(side)
        if isinstance(score, Artificial):
            artificial[entry.id] = score
        else:
            real.append(entry)
    return real, artificial


def cross_imps(entries, *, mode="mean", artificial_imps=3):
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
                total += _evaluate([(entry.raw(side), side), (other.side(side), "other")], rate)
            if mode == "mean":
                total = total / len(others) if others else Fraction(0)
            result[entry.id][k] = total
    return {entry_id: tuple(pair) for entry_id, pair in result.items()}


def butler_datum(points, *, drop=1, step=10, half="away"):
    """The Butler datum: the mean of ``points`` after dropping the ``drop`` highest and lowest
    (none with 3 or fewer, or when that would leave nothing), rounded to ``step`` with the
    named rule for an exact half (see :func:`~bridge.engine.rounding.round_step`)."""
    values = sorted(Fraction(p) for p in points)
    if not values:
        raise EngineInputError("board", "results", "no real results to make a datum from")
    if len(values) > 3 and drop and len(values) > 2 * drop:
        values = values[drop:-drop]
    return round_step(sum(values) / len(values), step, half)


@dataclass(frozen=True)
class ButlerScore:
    """Butler IMPs: the ``datum`` and {id: (ns, ew)} of Fractions in ``scores``."""

    datum: Fraction
    scores: dict


def butler(entries, *, drop=1, step=10, half="away", artificial_imps=3):
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
    datum = butler_datum(datum_points, drop=drop, step=step, half=half)
    datum_score = ((datum, Fraction(1)),)
    scores = {}
    for entry in entries:
        pair = []
        for side, sign in (("NS", 1), ("EW", -1)):
            score = entry.raw(side)
            if isinstance(score, Artificial):
                pair.append(artificial_value(score, artificial_imps, entry.name, side.lower()))
            else:
                pair.append(_evaluate(
                    [(score, side)], lambda own, sign=sign: sign * _weighted_imps(own, datum_score)
                ))
        scores[entry.id] = tuple(pair)
    return ButlerScore(datum, scores)
