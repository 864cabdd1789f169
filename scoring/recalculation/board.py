"""One board scored: the engine's view of each result (its effective score or its table score),
matchpoints or IMPs across the field, and each board score's values rounded for storage."""

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Count

from bridge.engine import imps as imp_engine
from bridge.engine import matchpoints as mp_engine
from bridge.engine.rounding import exact_str
from bridge.engine.scores import Entry, parse_result
from scoring.models import Event, Result

FOUR = Decimal("0.0001")


THREE = Decimal("0.001")  # percentages


# The regulation's words for rounding a Butler datum that ends in 5, in the engine's words.
BUTLER_HALF = {"half-up": "up", "half-down": "down", "half-even": "even", "half-away": "away"}


def to_decimal(value, places=FOUR):
    """A Fraction (or number) as a Decimal rounded for storage; the exact value is kept too."""
    if value is None:
        return None
    if isinstance(value, Fraction):
        return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(places)
    return Decimal(value).quantize(places)


def entry_for(result, where=None):
    """The engine's view of a result: its effective score if it has one, else its table score;
    None if it was not played and has no adjusted score."""
    effective = getattr(result, "effective", None) if _has_effective(result) else None
    if effective is None:
        return entry_of(result.pk, result.score_ns, result.not_played, None, where)
    return entry_of(
        result.pk,
        result.score_ns,
        result.not_played,
        (effective.score, effective.penalty, effective.outside_agency),
        where,
    )


def entry_of(result_id, score_ns, not_played, effective, where=None):
    """``entry_for`` from a result's plain values: its id, N-S score, whether it was not played,
    and its effective score as (score, penalty, outside agency), or None (a pass reads them as
    one row a result, not as model instances)."""
    if effective is None:
        if not_played or score_ns is None:
            return None
        return Entry.balanced(result_id, score_ns)
    score, penalty, outside_agency = effective
    data = {"id": result_id, "ns": score.get("ns") if score else score_ns}
    if score and score.get("ew") is not None:
        data["ew"] = score["ew"]
    if data["ns"] is None:
        return None
    if penalty:
        data["penalty"] = penalty
    if outside_agency:
        data["outside_agency"] = True
    return parse_result(data, where=where or f"result {result_id}", max_components=10)


_EFFECTIVE = Result.effective  # the reverse one-to-one descriptor


def _has_effective(result):
    # Read with select_related("effective"), a result without one has None cached: look there
    # rather than raise and catch RelatedObjectDoesNotExist 500 times a board.
    if _EFFECTIVE.is_cached(result):
        return _EFFECTIVE.related.get_cached_value(result) is not None
    try:
        return result.effective is not None
    except _EFFECTIVE.RelatedObjectDoesNotExist:
        return False


def regulations(event):
    return event.regulations()  # the tournament's, with the event's own VP scale


def session_plays(session_id):
    """How many times a board of the session is expected to be played: the most results any of
    its boards has. A board played fewer times (a missing table, a board not reached) has its
    matchpoints scaled up to that many with Neuberg's formula, so every board of the session
    has the same top, as Compscore, EBUScore and ACBLscore score them (docs/scoring.md)."""
    counts = (
        Result.objects.filter(board__session_id=session_id)
        .order_by()
        .values("board_id")
        .annotate(results=Count("pk"))
        .order_by("-results")
        .values_list("results", flat=True)
    )
    return next(iter(counts[:1]), 0)


def engine_scores(event, results, regs, plays=0):
    """The engine's scores of one board's ``results``; ``plays``: session_plays() of its session."""
    return entry_scores(event, [entry_for(r) for r in results], regs, plays)


def entry_scores(event, entries, regs, plays=0):
    """The engine's scores of one board from each of its results' ``entries`` (entry_for; None
    for a result not scored), in the form engine_scores gives them."""
    if event.is_teams:
        return {}  # team boards are scored per match in rescore_event
    if event.kind in (Event.Kind.MP_PAIRS, Event.Kind.INDIVIDUAL):
        return _matchpoint_board(entries, regs, plays)
    return _imp_pairs_board(event, entries, regs)


def fewer_played(regs, results, scored, plays):
    """(results expected, the engine's ``missing``) of a board of ``results`` (``scored`` of them
    with a score) in a session whose boards are played ``plays`` times, by the method's
    ``fewer_played``: Neuberg or an average for each missing result up to the session's most
    played board, or the board on its own top (its scored results only)."""
    method = regs.get("fewer_played", "neuberg")
    if method == "own-top":
        return max(scored, 1), "neuberg"
    return max(results, scored, plays, 1), ("average" if method == "average" else "neuberg")


def _matchpoint_board(entries, regs, plays=0):
    averages = (Fraction(regs["average_plus_percent"]), Fraction(50), Fraction(regs["average_minus_percent"]))
    results = len(entries)
    entries = [e for e in entries if e is not None]
    if not entries:
        return {}
    expected, missing = fewer_played(regs, results, len(entries), plays)
    board = mp_engine.score_board(
        entries, expected=expected, scale=regs["matchpoint_scale"], averages=averages, missing=missing
    )
    scores = {}
    top, zero, percents = board.top, Fraction(0), {}

    def percent(value):  # as BoardScore.percent: 50 when the top is 0 (one result)
        key = (value.numerator, value.denominator)  # cheaper to hash than the Fraction
        if key not in percents:
            percents[key] = value * 100 / top if top else Fraction(50)
        return percents[key]

    # Whole columns at once (the engine's quick way); a plain result is real and unpenalised, so
    # only the others need their SideBoard for the session rule's kind, raw value and penalty.
    # Plain results with the same matchpoints share one dict, which board_values rounds once.
    shared: dict[object, dict[str, object]] = {}
    for entry, ns, ew in zip(board.entries, board.column("NS"), board.column("EW"), strict=True):
        if entry.plain is not None:
            key = (ns.numerator, ns.denominator, ew.numerator, ew.denominator)
            values = shared.get(key)
            if values is None:
                values = shared[key] = {
                    "ns": ns,
                    "ew": ew,
                    "ns_percent": percent(ns),
                    "ew_percent": percent(ew),
                    "top": top,
                    "ns_kind": "real",
                    "ew_kind": "real",
                    "ns_raw": ns,
                    "ew_raw": ew,
                    "ns_penalty": zero,
                    "ew_penalty": zero,
                }
            scores[entry.id] = values
            continue
        ns_side, ew_side = board.side_board(entry.id, "NS"), board.side_board(entry.id, "EW")
        scores[entry.id] = {
            "ns": ns,
            "ew": ew,
            "ns_percent": percent(ns),
            "ew_percent": percent(ew),
            "top": top,
            "ns_kind": ns_side.kind,
            "ew_kind": ew_side.kind,
            "ns_raw": ns_side.matchpoints,
            "ew_raw": ew_side.matchpoints,
            "ns_penalty": ns_side.penalty,
            "ew_penalty": ew_side.penalty,
        }
    return scores


def _imp_pairs_board(event, entries, regs):
    entries = [e for e in entries if e is not None]
    if not entries:
        return {}
    if event.kind == Event.Kind.IMP_PAIRS_BUTLER:
        half = BUTLER_HALF[regs["butler_rounding"]]
        scored = imp_engine.butler(
            entries, drop=regs["butler_drop"], half=half, artificial_imps=regs["average_plus_imps"]
        ).scores
    else:
        scored = imp_engine.cross_imps(
            entries, mode=regs.get("cross_imps", "mean"), artificial_imps=regs["average_plus_imps"]
        )
    return {entry_id: {"ns": ns, "ew": ew, "top": None} for entry_id, (ns, ew) in scored.items()}


# What a board score holds besides its result. The first nine determine the other four (the
# rounded matchpoints and percentages are functions of the exact values and the top), so the
# rows a change moved are found by comparing those nine with the stored ones (COMPARED_VALUES;
# a full recompute writes every column again).
BOARD_SCORE_VALUES = (
    "ns_exact",
    "ew_exact",
    "top",
    "ns_kind",
    "ew_kind",
    "ns_raw",
    "ew_raw",
    "ns_penalty",
    "ew_penalty",
    "ns",
    "ew",
    "ns_percent",
    "ew_percent",
)


COMPARED_VALUES = BOARD_SCORE_VALUES[:9]


COMPARED_COUNT = len(COMPARED_VALUES)


# The position of each value in a board score's values (BOARD_SCORE_VALUES' order).
NS_EXACT, EW_EXACT, TOP, NS_KIND, EW_KIND, NS_RAW, EW_RAW, NS_PENALTY, EW_PENALTY, NS, EW, NS_PERCENT, EW_PERCENT = (
    range(13)
)


# A result not scored (not played, no adjusted score): no values, kinds "real".
UNSCORED = ("", "", None, "real", "real", "", "", "", "", None, None, None, None)


ARTIFICIAL = ("AVE+", "AVE-")


class Rounding:
    """Each exact value rounded for its column and written out exactly, once: the same few
    values recur on a board."""

    def __init__(self):
        self.memo, self.percents = {}, {}

    def both(self, value, places=FOUR):
        # Keyed by integers: a Fraction's own hash costs a modular inverse.
        key = (value.numerator, value.denominator, places) if value is not None else (None, None, places)
        made = self.memo.get(key)
        if made is None:
            made = self.memo[key] = (to_decimal(value, places), exact_str(value) if value is not None else "")
        return made

    def percent(self, value):
        """A percentage rounded for its column (it keeps no exact text)."""
        key = (value.numerator, value.denominator) if value is not None else None
        made = self.percents.get(key)
        if made is None:
            made = self.percents[key] = to_decimal(value, THREE)
        return made

    def values(self, values):
        """A board score's values (BOARD_SCORE_VALUES' order) from the engine's for a result."""
        both = self.both
        (ns, ns_exact), (ew, ew_exact) = both(values["ns"]), both(values["ew"])
        return (
            ns_exact,
            ew_exact,
            both(values.get("top"))[0],
            values.get("ns_kind", "real"),
            values.get("ew_kind", "real"),
            both(values["ns_raw"])[1] if "ns_raw" in values else "",
            both(values["ew_raw"])[1] if "ew_raw" in values else "",
            both(values["ns_penalty"])[1] if values.get("ns_penalty") else "",
            both(values["ew_penalty"])[1] if values.get("ew_penalty") else "",
            ns,
            ew,
            self.percent(values.get("ns_percent")),
            self.percent(values.get("ew_percent")),
        )


def board_values(results, scores):
    """(result id, board score values) for every result of the board, in the order of
    ``results``; results with the same scores share one values tuple."""
    return board_values_of([result.pk for result in results], scores)


def board_values_of(result_ids, scores):
    """board_values from the results' ids (a pass reads them as plain rows)."""
    rounding, scored = Rounding(), []  # scored: (result id, its values or UNSCORED)
    made: dict[int, tuple[Any, Any]] = {}  # id of a shared values dict: (it, its rounded values)
    for result_id in result_ids:
        values = scores.get(result_id)
        if values is None:
            scored.append((result_id, UNSCORED))
            continue
        # plain results with the same score share one values dict (_matchpoint_board)
        pair = made.get(id(values))
        if pair is None:
            pair = made[id(values)] = (values, rounding.values(values))
        scored.append((result_id, pair[1]))
    return scored


def plain_seats(board):
    """[(result id, N-S id, E-W id, N-S points or None if not played)] of every result of
    the board, or None when one has an adjusted score (the board then takes the road of
    entries)."""
    return plain_board_seats(board)[0]


def plain_board_seats(board):
    """(plain_seats(board), the ids of its results with no board score yet), one query."""
    return plain_of(boards_seats([board.pk]).get(board.pk, []))


def boards_seats(board_ids):
    """{board id: [(result id, N-S id, E-W id, N-S points, not played, effective score, scored)]}
    of every result of the boards, read in one query; the effective score as entry_of takes it
    ((score, penalty, outside agency)), or None for a table result; ``scored``: whether the
    result has a board score yet."""
    rows = (
        Result.objects.filter(board_id__in=board_ids)
        .order_by()
        .values_list(
            "board_id",
            "pk",
            "ns_id",
            "ew_id",
            "score_ns",
            "not_played",
            "effective__id",
            "effective__score",
            "effective__penalty",
            "effective__outside_agency",
            "board_score__id",
        )
    )
    seats: dict[int, list[tuple[object, ...]]] = {}
    for board_id, pk, ns_id, ew_id, points, not_played, effective, score, penalty, outside, scored in rows:
        adjusted = None if effective is None else (score, penalty, outside)
        seats.setdefault(board_id, []).append((pk, ns_id, ew_id, points, not_played, adjusted, scored is not None))
    return seats


def plain_of(seats):
    """A board's ``boards_seats`` as plain_board_seats gives them: (plain_seats' form, or None
    when one holds an adjusted score; the ids of the results with no board score yet)."""
    new = [seat[0] for seat in seats if not seat[-1]]
    if any(adjusted is not None for *_rest, adjusted, _scored in seats):
        return None, new
    return [
        (pk, ns_id, ew_id, None if not_played else points) for pk, ns_id, ew_id, points, not_played, *_ in seats
    ], new


_FIFTY = to_decimal(Fraction(50), THREE)


def _percent_of(value, top):
    """``value`` as a percentage of ``top`` rounded for its column (50 when the top is 0: one
    result): the same Decimal as to_decimal(value * 100 / top), with no Fraction made."""
    if not top:
        return _FIFTY
    num, den = value.numerator * 100 * top.denominator, value.denominator * top.numerator
    return (Decimal(num) / Decimal(den)).quantize(THREE)


def plain_board_values(seats, regs, plays=0):
    """([(result id, board score values)] of every seat of a board of plain results, {points:
    values}): the engine scores each distinct score once (score_plain_board), and the values
    of the results with that score are one shared tuple."""
    played = [points for _pk, _ns, _ew, points in seats if points is not None]
    expected, missing = fewer_played(regs, len(seats), len(played), plays)
    board = mp_engine.score_plain_board(played, expected=expected, scale=regs["matchpoint_scale"], missing=missing)
    both, top = Rounding().both, board.top
    top_q, by_points = both(top)[0], {}
    for points, ns, ew in zip(board.points, board.ns, board.ew, strict=True):
        (ns_q, ns_exact), (ew_q, ew_exact) = both(ns), both(ew)
        # as board_values makes them from _matchpoint_board's values of a plain result
        by_points[points] = (
            ns_exact,
            ew_exact,
            top_q,
            "real",
            "real",
            ns_exact,
            ew_exact,
            "",
            "",
            ns_q,
            ew_q,
            _percent_of(ns, top),
            _percent_of(ew, top),
        )
    return [(pk, UNSCORED if points is None else by_points[points]) for pk, _ns, _ew, points in seats], by_points
