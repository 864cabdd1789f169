"""Event totals and rankings: per session and for the event, with the session rule for artificial
scores (Law 12C2c), ranked per window and written where they moved; and the incremental road of
pairs events (``apply_differences``)."""

import dataclasses
import math
from collections import defaultdict, namedtuple
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import connections, router
from django.db.models import Q, Value

from bridge.engine import matchpoints as mp_engine
from bridge.engine.ranking import Placing, rank
from bridge.engine.rounding import acbl, ebu, exact_ratio_str, exact_str, round_half_up
from scoring.models import Board, BoardScore, Event, Result, Standing
from scoring.recalculation.board import (
    ARTIFICIAL,
    EW,
    EW_EXACT,
    EW_KIND,
    FOUR,
    NS,
    NS_EXACT,
    NS_KIND,
    THREE,
    TOP,
    regulations,
    to_decimal,
)
from scoring.recalculation.diff import concrete_field, update_rows


def matchpoint_standings(event, known=None):
    """Per session, each side's total with the session rule; the event total sums sessions.

    Reads plain tuples, not model objects (a simultaneous field has 240,000 board scores). A
    side whose session holds no artificial score is totalled in integers (_plain_totals); the
    others go through the session rule (Law 12C2c) board by board. ``known``: {board id:
    (session id, seats, values by points)} of boards of plain results just written
    (plain_board_seats, plain_board_values), whose board scores are not read back."""
    regs = regulations(event)
    method = session_method(regs)
    stored = BoardScore.objects.filter(result__board__session__event=event, ns__isnull=False)
    if known:
        stored = stored.exclude(result__board_id__in=list(known))
    scores = _side_rows(stored) + _known_rows(known or {})
    artificial = {
        (session_id, ns_id if side == "ns" else ew_id)
        for _pk, _ns, _ew, _top, ns_kind, ew_kind, *_values, ns_id, ew_id, session_id in scores
        for side, kind in (("ns", ns_kind), ("ew", ew_kind))
        if kind in ARTIFICIAL
    }
    if method.lines is not None:  # totals of rounded lines: every side board by board
        rows, sides = [], _side_boards(scores)
    else:
        rows, sides = _plain_totals(scores, artificial), _side_boards(scores, artificial)
    refreshed: defaultdict[int, dict[str, Any]] = defaultdict(dict)  # board score -> its new values
    for (session_id, contestant_id), items in sides.items():
        session = _session_rule(items, method, refreshed)
        rows.append((session_id, contestant_id, session.matchpoints, session.top, len(items)))
    _write_refreshed(refreshed)
    return with_event_totals(rows)


def _side_rows(board_scores):
    """The board scores as _side_boards and _plain_totals read them: tuples of (pk, ns, ew,
    top, ns_kind, ew_kind, ns_raw, ew_raw, ns_penalty, ew_penalty, N-S id, E-W id, session)."""
    return list(
        board_scores.order_by().values_list(
            "pk",
            "ns",
            "ew",
            "top",
            "ns_kind",
            "ew_kind",
            "ns_raw",
            "ew_raw",
            "ns_penalty",
            "ew_penalty",
            "result__ns_id",
            "result__ew_id",
            "result__board__session_id",
        )
    )


def _known_rows(known):
    """The rows _side_rows would read of the boards in ``known`` (matchpoint_standings), made
    from each board's values by distinct score as they were written (no board score id: a
    plain result holds no artificial score, which is all the id is wanted for)."""
    rows = []
    for session_id, seats, by_points in known.values():
        made = {
            points: (None, v[NS], v[EW], v[TOP], "real", "real", v[NS_EXACT], v[EW_EXACT], "", "")
            for points, v in by_points.items()
        }
        rows += [(*made[points], ns_id, ew_id, session_id) for _pk, ns_id, ew_id, points in seats if points is not None]
    return rows


def _plain_totals(scores, skip):
    """[(session, contestant, total, top, boards)] of every side of ``scores`` (_side_rows)
    whose window is not in ``skip``: with no artificial score the session rule (session_score)
    counts each board's matchpoints as scored, so the total is their sum less the penalties
    and the top the sum of the tops. Summed exactly as integers over the common denominator
    of every value, each distinct text parsed once, one Fraction a side."""
    texts = set().union(*({row[i] for row in scores} for i in (6, 7, 8, 9)))
    tops = {top: Fraction(str(top)) for top in {row[3] for row in scores}}
    exact = {text: Fraction(text or 0) for text in texts}
    common = math.lcm(1, *(value.denominator for value in (*exact.values(), *tops.values())))
    scaled = {key: value.numerator * (common // value.denominator) for key, value in exact.items()}
    scaled_top = {key: value.numerator * (common // value.denominator) for key, value in tops.items()}
    sums: dict[tuple[int, int], list[int]] = {}  # window -> [total, top, boards] over ``common``
    for _pk, _ns, _ew, top, _nk, _ek, ns_raw, ew_raw, ns_pen, ew_pen, ns_id, ew_id, session_id in scores:
        top = scaled_top[top]
        for key, value in (
            ((session_id, ns_id), scaled[ns_raw] - scaled[ns_pen]),
            ((session_id, ew_id), scaled[ew_raw] - scaled[ew_pen]),
        ):
            entry = sums.get(key)
            if entry is None:
                sums[key] = [value, top, 1]
            else:
                entry[0] += value
                entry[1] += top
                entry[2] += 1
    for key in skip:
        sums.pop(key, None)
    return [
        (session_id, contestant_id, Fraction(total, common), Fraction(top, common), boards)
        for (session_id, contestant_id), (total, top, boards) in sums.items()
    ]


def _side_boards(scores, only=None):
    """{(session, contestant): [(board score pk, "ns" or "ew", stored value, SideBoard)]} of
    ``scores`` (_side_rows), of the windows in ``only`` if given."""
    fractions: dict[str, Fraction] = {}  # the same few strings recur: parse each once

    def exact(text):
        value = fractions.get(text)
        if value is None:
            value = fractions[text] = Fraction(text or 0)
        return value

    sides = defaultdict(list)  # (session, contestant) -> [(pk, stored value, SideBoard)]
    for pk, ns, ew, top, ns_kind, ew_kind, ns_raw, ew_raw, ns_pen, ew_pen, ns_id, ew_id, session_id in scores:
        if only is not None and (session_id, ns_id) not in only and (session_id, ew_id) not in only:
            continue
        top = exact(str(top))
        if only is None or (session_id, ns_id) in only:
            sides[(session_id, ns_id)].append(
                (pk, "ns", ns, mp_engine.SideBoard(exact(ns_raw), top, ns_kind, exact(ns_pen)))
            )
        if only is None or (session_id, ew_id) in only:
            sides[(session_id, ew_id)].append(
                (pk, "ew", ew, mp_engine.SideBoard(exact(ew_raw), top, ew_kind, exact(ew_pen)))
            )
    return sides


# How a session is totalled, from the event's regulations (its program's method): average plus
# and minus (``plus``, ``minus``; ``rule``: raised or lowered by Law 12C2c, or as awarded), and
# ``lines``: None to sum the exact matchpoints, else the rounding of each line before it is summed.
SessionMethod = namedtuple("SessionMethod", ("plus", "minus", "rule", "lines"))


def _line_rounding(name):
    """A line's rounding by the ``rounding`` setting: (value, top) -> the value as printed."""
    if name == "0.1-half-to-average":
        return ebu
    if name == "0.01-half-up":
        return lambda value, _top: acbl(value)
    return lambda value, _top: value


def session_method(regs):
    """The SessionMethod of ``regs`` (Event.regulations())."""
    lines = _line_rounding(regs.get("rounding", "exact")) if regs.get("totals") == "rounded-lines" else None
    return SessionMethod(
        Fraction(regs["average_plus_percent"]),
        Fraction(regs["average_minus_percent"]),
        regs.get("artificial_scores", "session-rule") == "session-rule",
        lines,
    )


def needs_whole_totals(regs):
    """Whether the event's method totals or ranks otherwise than by exact sums and percentages
    (rounded lines, rounded percentages): its standings are then always recomputed whole."""
    return regs.get("totals", "exact") != "exact" or regs.get("percent_rounding", "exact") != "exact"


def _session_rule(items, method, refreshed):
    """One side's session total (Law 12C2c, or as awarded; its lines rounded where the method
    says); the artificial scores it moved go into ``refreshed`` ({board score pk: {field: value}})."""
    sides = [item[3] for item in items]
    session = mp_engine.session_score(sides, plus=method.plus, minus=method.minus, rule=method.rule)
    if method.lines is not None:
        total = sum((method.lines(value - b.penalty, b.top) for value, b in zip(session.boards, sides)), Fraction(0))
        session = dataclasses.replace(session, matchpoints=total)
    for (pk, field, stored, side_board), counted in zip(items, session.boards):
        if side_board.kind in ARTIFICIAL:
            value = to_decimal(counted - side_board.penalty)
            if stored != value:
                refreshed[pk][field] = value
                refreshed[pk][f"{field}_percent"] = (
                    to_decimal(counted * 100 / side_board.top, THREE) if side_board.top else None
                )
    return session


def _write_refreshed(refreshed):
    # The session rule moves artificial scores only: a few rows, written one by one.
    for pk, values in refreshed.items():
        BoardScore.objects.filter(pk=pk).update(**values)


def with_event_totals(rows):
    totals: defaultdict[int, list[Any]] = defaultdict(lambda: [Fraction(0), Fraction(0), 0])
    for _session_id, contestant_id, total, top, boards in rows:
        entry = totals[contestant_id]
        entry[0] += total
        entry[1] += top or 0
        entry[2] += boards
    return rows + [(None, cid, total, top or None, boards) for cid, (total, top, boards) in totals.items()]


def imp_pairs_standings(event):
    scores = BoardScore.objects.filter(result__board__session__event=event, ns__isnull=False).select_related(
        "result__board"
    )
    sums: defaultdict[tuple[int, int], list[Any]] = defaultdict(lambda: [Fraction(0), 0])
    for bs in scores:
        session_id = bs.result.board.session_id
        for contestant_id, value in ((bs.result.ns_id, bs.ns_exact), (bs.result.ew_id, bs.ew_exact)):
            sums[(session_id, contestant_id)][0] += Fraction(value)
            sums[(session_id, contestant_id)][1] += 1
    rows = [(sid, cid, total, None, boards) for (sid, cid), (total, boards) in sums.items()]
    return with_event_totals(rows)


def _fields(event, regs=None):
    """Each contestant's field per session and for the event: "NS" or "EW" when it sat only
    that way (a Mitchell), else "" (one field: Howell, teams, or a method that ranks one list)."""
    regs = event.regulations() if regs is None else regs
    if event.is_teams or regs.get("ranking") == "one-list":
        return {}  # one list, as Ruter ranks a Butler or cross-IMP session (the event's method)
    seen: defaultdict[tuple[int | None, int], set[str]] = defaultdict(set)
    results = Result.objects.filter(board__session__event=event).order_by()
    sat = (
        results.annotate(direction=Value("NS"))
        .values_list("board__session_id", "ns_id", "direction")
        .union(results.annotate(direction=Value("EW")).values_list("board__session_id", "ew_id", "direction"))
    )  # each (session, contestant, direction) once: a UNION removes the repeats
    for session_id, contestant_id, direction in sat:
        seen[(session_id, contestant_id)].add(direction)
        seen[(None, contestant_id)].add(direction)
    fields = {key: next(iter(directions)) if len(directions) == 1 else "" for key, directions in seen.items()}
    # A field is only a field if the other direction is one too.
    for window in {key[0] for key in fields}:
        values = {v for (sid, _cid), v in fields.items() if sid == window}
        if values != {"NS", "EW"}:
            for key in [k for k in fields if k[0] == window]:
                fields[key] = ""
    return fields


def write_standings(event, rows, fields=None, existing=None, unchanged=frozenset(), denominator=None, regs=None):
    """Rank each window (session or event, and field) and write the standings that moved;
    ``fields`` and ``existing`` (the event's Standing rows by window) are read when not given.
    The windows in ``unchanged`` keep their stored total, top and percentage (the same numbers
    would be computed again): only their places are new. With ``denominator`` the rows' totals
    and tops are integers over it (the incremental road) rather than Fractions. ``regs``: the
    event's regulations when the caller has read them (a pass reads them once)."""
    regs = event.regulations() if regs is None else regs
    fields = _fields(event, regs) if fields is None else fields
    # EBUScore's percentages: to two places, a half up, and ranked so (the event's method)
    two_places = regs.get("percent_rounding", "exact") == "0.01-half-up"
    windows: defaultdict[tuple[Any, str], list[Any]] = defaultdict(list)
    absent: defaultdict[tuple[Any, str], list[int]] = defaultdict(list)
    for session_id, contestant_id, total, top, boards in rows:
        field = fields.get((session_id, contestant_id), "")
        if session_id is None and not boards and not event.is_teams:
            absent[(None, field)].append(contestant_id)  # listed last (the incremental road's rows)
            windows.setdefault((None, field), [])
            continue
        windows[(session_id, field)].append((contestant_id, total, top, boards))
    if denominator is None and regs.get("ranking") == "one-list":
        _absent(event, rows, windows, absent)
    rows = []  # (session, contestant, the STANDING_VALUES)
    tops: dict[Any, Any] = {}  # a field's sides mostly share their top: each rounded once
    for (session_id, field), items in windows.items():
        items.sort(key=lambda item: item[0])  # equal totals in contestant order, however they were read
        if denominator is None:
            percents = {cid: total * 100 / top if top else None for cid, total, top, _boards in items}
            if two_places:
                percents = {cid: None if p is None else round_half_up(p) for cid, p in percents.items()}
            numbers = _fraction_numbers(percents, tops)
            keys = _rank_keys(items, percents)
        else:
            numbers = _scaled_numbers(denominator, tops)
            keys = _scaled_rank_keys(items)
        by_id = {item[0]: item for item in items}
        by_id.update(
            {
                cid: (cid, Fraction(0) if denominator is None else 0, None, 0)
                for cid in absent.get((session_id, field), ())
            }
        )
        for position, placing in enumerate(rank(keys) + _listed_last(absent.get((session_id, field)), len(items)), 1):
            contestant_id, total, top, boards = by_id[placing.id]
            if (session_id, contestant_id) in unchanged:
                old = existing[(session_id, contestant_id)]
                values = (old.total, old.total_exact, old.top, old.percent, field, position, placing.label, boards)
            else:
                values = (*numbers(contestant_id, total, top), field, position, placing.label, boards)
            rows.append((session_id, contestant_id, values))
    _write_standing_differences(event, rows, existing)


def _absent(event, rows, windows, absent):
    """Add to ``absent`` ({window: contestant ids}) the pairs entered in a pairs event ranked in
    one list (the event's method, as Ruter ranks a Butler) that played no board, as the program's
    total table lists them (Ruter's pairs with 0.00 and no board): in the event's standings after
    every pair that played, sharing the place after the last (issue #40). The incremental road
    passes them among its rows instead."""
    if event.is_teams or not rows:
        return
    seen = {contestant_id for session_id, contestant_id, *_ in rows if session_id is None}
    for contestant_id, direction in event.contestants.order_by("number").values_list("id", "direction"):
        if contestant_id not in seen:
            field = direction if (None, direction) in windows else ""
            windows.setdefault((None, field), [])
            absent[(None, field)].append(contestant_id)


def _listed_last(absent, played):
    """The placings of the pairs that played no board, after the ``played`` that did."""
    return [Placing(cid, 0, played + 1, len(absent) > 1) for cid in absent or ()]


def _rank_keys(items, percents):
    """{contestant: what it is ranked on}: its percentage if every side of the window has a top,
    else its total."""
    use_percent = all(top for _cid, _total, top, _boards in items)
    return {cid: percents[cid] if use_percent else total for cid, total, _top, _b in items}


def _fraction_numbers(percents, tops):
    """(total, exact total, top, percentage) as stored, of a side's Fraction total and top."""

    def numbers(contestant_id, total, top):
        if top and top not in tops:
            tops[top] = to_decimal(top)
        percent = to_decimal(percents[contestant_id], THREE) if top else None
        return to_decimal(total), exact_str(total), tops[top] if top else None, percent

    return numbers


def _scaled_rank_keys(items):
    """_rank_keys of totals and tops that are integers over one denominator: the integer totals
    themselves (the same order and ties as the percentages when the window's sides share one
    positive top, and as the totals), the exact percentages only when the tops differ."""
    window_tops = {top for _cid, _total, top, _boards in items}
    if not all(window_tops) or (len(window_tops) == 1 and next(iter(window_tops)) > 0):
        return {cid: total for cid, total, _top, _b in items}
    return {cid: Fraction(total * 100, top) for cid, total, top, _b in items}


def _scaled_numbers(denominator, tops):
    """_fraction_numbers of a total and top that are integers over ``denominator``: the same
    Decimals (a quotient of integers is rounded the same whatever their common factor) and the
    same exact text, with no Fraction made."""

    def numbers(_contestant_id, total, top):
        if top and top not in tops:
            tops[top] = _quotient(top, denominator, FOUR)
        percent = _quotient(total * 100, top, THREE) if top else None
        return _quotient(total, denominator, FOUR), exact_ratio_str(total, denominator), tops.get(top), percent

    return numbers


def _quotient(numerator, denominator, places):
    """to_decimal(Fraction(numerator, denominator), places), without the Fraction."""
    if denominator < 0:
        numerator, denominator = -numerator, -denominator
    return (Decimal(numerator) / Decimal(denominator)).quantize(places)


# What a standing holds besides its window (session, contestant): compared to find the rows a
# recalculation moved.
STANDING_VALUES = ("total", "total_exact", "top", "percent", "field", "position", "place", "boards")


def _write_standing_differences(event, rows, existing=None):
    """Write only what changed, under the event lock: new windows are inserted, rows whose
    values moved are updated in one statement per batch, rows no longer there are deleted.
    One change on a big event moves a few totals and the places around them, not every row;
    the result is the same as replacing the standings whole (a test compares them)."""
    if existing is None:
        existing = _standings_by_window(event)
    existing = dict(existing)
    to_create, to_update = [], []
    for session_id, contestant_id, values in rows:
        old = existing.pop((session_id, contestant_id), None)
        if old is None:
            to_create.append(
                Standing(
                    event=event,
                    session_id=session_id,
                    contestant_id=contestant_id,
                    **dict(zip(STANDING_VALUES, values, strict=True)),
                )
            )
        elif old[_VALUES_FROM:] != values:
            to_update.append((old.pk, *values))
    if existing:
        Standing.objects.filter(pk__in=[s.pk for s in existing.values()]).delete()
    update_rows(Standing, STANDING_VALUES, to_update)
    if to_create:
        Standing.objects.bulk_create(to_create, batch_size=1000)


_VALUES_FROM = 3  # a row of _standings_by_window: pk, session, contestant, then the STANDING_VALUES


# What _standings_by_window reads of a standing: its pk, window, then the STANDING_VALUES.
StandingRow = namedtuple(
    "StandingRow",
    (
        "pk",
        "session_id",
        "contestant_id",
        "total",
        "total_exact",
        "top",
        "percent",
        "field",
        "position",
        "place",
        "boards",
    ),
)
assert StandingRow._fields[_VALUES_FROM:] == STANDING_VALUES


def _standings_by_window(event):
    """{(session, contestant): a StandingRow of the Standing's pk, window and values}. In plain
    SQL, each column through the database's own converters (SQLite's give its decimals back as
    Decimals): the ORM took longer to build the query than to run it."""
    conn = connections[router.db_for_write(Standing)]
    columns = [concrete_field(Standing, name) for name in ("id", "session", "contestant", *STANDING_VALUES)]
    table = conn.ops.quote_name(Standing._meta.db_table)
    converted = []  # (index, [converters], column) of the columns that have converters
    for index, field in enumerate(columns):
        col = field.get_col(Standing._meta.db_table)
        converters = conn.ops.get_db_converters(col) + col.get_db_converters(conn)
        if converters:
            converted.append((index, converters, col))
    with conn.cursor() as cursor:
        names = ", ".join(conn.ops.quote_name(field.column) for field in columns)
        event_column = conn.ops.quote_name(concrete_field(Standing, "event").column)
        cursor.execute(f"SELECT {names} FROM {table} WHERE {event_column} = %s", [event.pk])
        rows = cursor.fetchall()
    standings = {}
    for row in rows:
        if converted:
            row = list(row)
            for index, converters, col in converted:
                for converter in converters:
                    row[index] = converter(row[index], col, conn)
        standing = StandingRow(*row)
        standings[(standing.session_id, standing.contestant_id)] = standing
    return standings


def apply_differences(event, regs, differences):
    """The incremental road for pairs events (see ``_rescore_pending``): add each board's new
    scores minus its old ones to the standings' exact totals, total again the sides whose
    session holds an artificial score, rank again and write what moved. Returns False, having
    written no standing, when the standings do not hold every contestant the boards name (the
    caller then recomputes them whole). The sums are exact integers over the common
    denominator of every number involved (no Fraction a side)."""
    matchpoints = event.kind in (Event.Kind.MP_PAIRS, Event.Kind.INDIVIDUAL)
    existing = _standings_by_window(event)
    listed = [key for key, standing in existing.items() if not standing.boards]  # pairs that played no board
    played = {key: standing for key, standing in existing.items() if standing.boards}
    moves, again = _moves(differences, matchpoints)
    if matchpoints:
        again |= _artificial_elsewhere(differences)
    totalled = _totalled_again(again, played, regs) if again else {}
    if totalled is None:
        return False
    parts = {}  # each text (or stored decimal) as (numerator, denominator), parsed once
    for value in (
        *(text for _key, _sign, text, _top in moves),
        *(top for _key, _sign, _text, top in moves),
        *(standing.total_exact for standing in played.values()),
        *(standing.top for standing in played.values()),
    ):
        if value not in parts:
            parts[value] = _parts(value)
    common = math.lcm(
        1,
        *{den for _num, den in parts.values()},
        *(number.denominator for total, top, _boards in totalled.values() for number in (total, top)),
    )
    scaled = {value: num * (common // den) for value, (num, den) in parts.items()}
    change: dict[tuple[int | None, int], list[int]] = {}  # window -> [total, top, boards], over ``common``
    for key, sign, text, top in moves:
        entry = change.setdefault(key, [0, 0, 0])
        entry[0] += sign * scaled[text]
        entry[1] += sign * scaled[top]
        entry[2] += sign
    for key, (total, top, boards) in totalled.items():
        before = played[key]
        change[key] = [
            total.numerator * (common // total.denominator) - scaled[before.total_exact],
            top.numerator * (common // top.denominator) - scaled[before.top],
            boards - before.boards,
        ]
    for (_session_id, contestant_id), (total, top, boards) in list(change.items()):
        entry = change.setdefault((None, contestant_id), [0, 0, 0])
        entry[0] += total
        entry[1] += top
        entry[2] += boards
    if any(key not in played for key in change):
        return False  # a contestant new to the standings
    rows, unchanged = [(*key, 0, None, 0) for key in listed], set()
    for key, standing in played.items():
        total, top, boards = change.get(key, (0, 0, 0))
        if not (total or top or boards):
            unchanged.add(key)
        if standing.boards + boards <= 0:
            return False  # a contestant leaves the standings
        rows.append(
            (*key, scaled[standing.total_exact] + total, (scaled[standing.top] + top) or None, standing.boards + boards)
        )
    fields = {key: standing.field for key, standing in existing.items()}
    write_standings(event, rows, fields, existing, unchanged, denominator=common, regs=regs)
    return True


def _moves(differences, matchpoints):
    """([(window, +1 or -1, exact score text, top)] of the sides whose score moved: the old
    score taken off, the new one added; the windows to total again, whose side holds an
    artificial score before or after (matchpoints)."""
    moves, again = [], set()
    sides = ((NS, "ns_kind", "ns_exact", NS_KIND, NS_EXACT), (EW, "ew_kind", "ew_exact", EW_KIND, EW_EXACT))
    for session_id, _seats, compared in differences:
        for ns_id, ew_id, before, values in compared:
            for side, kind, exact, new_kind, new_exact in sides:
                key = (session_id, ns_id if side == NS else ew_id)
                if matchpoints and (getattr(before, kind) in ARTIFICIAL or values[new_kind] in ARTIFICIAL):
                    again.add(key)
                    continue
                was, now = getattr(before, exact), values[new_exact]
                if was == now and before.top == values[TOP]:  # (an exact "" is no score)
                    continue  # this side's score did not move
                if was != "":
                    moves.append((key, -1, was, before.top))
                if now != "":
                    moves.append((key, 1, now, values[TOP]))
                if was == "" and now == "":
                    moves.append((key, 0, "", None))  # still a window that moved (no change)
    return moves, again


def _totalled_again(again, existing, regs):
    """{window: (total, top, boards)} of the windows in ``again`` by the session rule, as
    Fractions, its moved artificial scores written; None when a window is not in the
    standings or holds no board."""
    method = session_method(regs)
    contestants = {contestant_id for _sid, contestant_id in again}
    sides = _side_boards(
        _side_rows(
            BoardScore.objects.filter(
                result__board__session_id__in={session_id for session_id, _cid in again}, ns__isnull=False
            ).filter(Q(result__ns_id__in=contestants) | Q(result__ew_id__in=contestants))
        )
    )
    refreshed: defaultdict[int, dict[str, Any]] = defaultdict(dict)
    totalled: dict[tuple[int, int], Any] = {}
    for key in again:
        items = sides.get(key)
        if key not in existing or not items:
            return None
        session = _session_rule(items, method, refreshed)
        totalled[key] = (session.matchpoints, session.top, len(items))
    _write_refreshed(refreshed)
    return totalled


def _parts(value):
    """(numerator, denominator) of an exact score text ("7.5", "-23/3", "" for none) or a stored
    Decimal (None for none), not necessarily in lowest terms."""
    text = "" if value is None else str(value)
    if not text:
        return 0, 1
    if "/" in text:
        numerator, denominator = text.split("/")
        return int(numerator), int(denominator)
    whole, dot, decimals = text.partition(".")
    if whole.removeprefix("-").isdecimal() and (decimals.isdecimal() or not dot):
        return int(whole + decimals), 10 ** len(decimals)
    exact = Fraction(text)
    return exact.numerator, exact.denominator


def _artificial_elsewhere(differences):
    """The windows (session, contestant) of the sides on a changed board that hold an
    artificial score elsewhere in the session: its value follows the side's percentage on its
    real boards, which a changed board moves."""
    sessions = sorted({session_id for session_id, *_rest in differences})
    conn = connections[router.db_for_write(BoardScore)]  # the pass's own, which wrote the scores
    scores, results, boards = (conn.ops.quote_name(m._meta.db_table) for m in (BoardScore, Result, Board))
    kinds = ", ".join(["%s"] * len(ARTIFICIAL))
    with conn.cursor() as cursor:  # plain SQL: the ORM took longer to build it than to run it
        cursor.execute(
            "SELECT b.session_id, r.ns_id, r.ew_id, bs.ns_kind, bs.ew_kind "
            f"FROM {scores} AS bs JOIN {results} AS r ON r.id = bs.result_id JOIN {boards} AS b ON b.id = r.board_id "
            f"WHERE b.session_id IN ({', '.join(['%s'] * len(sessions))}) AND bs.ns IS NOT NULL "
            f"AND (bs.ns_kind IN ({kinds}) OR bs.ew_kind IN ({kinds}))",
            [*sessions, *ARTIFICIAL, *ARTIFICIAL],
        )
        artificial = cursor.fetchall()
    again = set()
    touched = None  # the windows of every side on a changed board, when first needed
    for session_id, ns_id, ew_id, ns_kind, ew_kind in artificial:
        if touched is None:
            touched = {
                (board_session, contestant)
                for board_session, seats, _compared in differences
                for _pk, board_ns, board_ew, _points in seats
                for contestant in (board_ns, board_ew)
            }
        for contestant_id, kind in ((ns_id, ns_kind), (ew_id, ew_kind)):
            if kind in ARTIFICIAL and (session_id, contestant_id) in touched:
                again.add((session_id, contestant_id))
    return again
