"""Team events: each match scored from its two rooms (IMPs and VPs, knockout carry-over), with
its match penalties (``scoring.models.MatchPenalty``), totalled per session and for the event."""

import dataclasses
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction
from typing import Any

from bridge.engine import imps as imp_engine
from bridge.engine.rounding import exact_str
from bridge.engine.scores import EngineInputError
from bridge.engine.vp import vp_for_margin
from scoring import vp_scales
from scoring.models import Board, Event, Match, MatchPenalty, MatchScore, Result
from scoring.recalculation.board import entry_for, regulations, to_decimal
from scoring.recalculation.standings import with_event_totals


def team_standings(event, boards=None):
    """The event's standings from its matches. ``boards`` (ids), when given, are the boards a
    pass changed: only the matches they moved are scored again (``_touched_matches``), and every
    other match counts with its stored score. Without it, every match is scored (the full
    recompute; a test holds the two equal)."""
    regs = regulations(event)
    scale = vp_scales.engine_scale(event.tournament.authority, regs["vp_scale"])  # a body's own: from the DB
    matches = list(Match.objects.filter(round__session__event=event).select_related("round"))
    existing = {ms.match_id: ms for ms in MatchScore.objects.filter(match__round__session__event=event)}
    results = Result.objects.filter(board__session__event=event)
    penalties = _match_penalties(event)
    options = {"artificial_imps": regs["average_plus_imps"], "knockout": event.kind == Event.Kind.KNOCKOUT_TEAMS}
    if boards is not None:
        touched = _touched_matches(matches, existing, boards, penalties, options, scale)
        matches, kept = [m for m in matches if m.pk in touched], [m for m in matches if m.pk not in touched]
        rooms = {(room, m.round_id) for m in matches for room in (m.open_room_id, m.closed_room_id)}
        results = results.filter(round_id__in={r for _t, r in rooms}, table_id__in={t for t, _r in rooms})
    else:
        kept = []
    by_room: defaultdict[tuple[int, int | None], dict[int, Result]] = defaultdict(
        dict
    )  # (table, round) -> {board: result}: tables are reused each round
    for result in results.select_related("effective", "board").order_by("board__number"):
        by_room[(result.table_id, result.round_id)][result.board_id] = result
    rows, to_save = [], []
    for match in matches:
        open_results = by_room[(match.open_room_id, match.round_id)]
        closed_results = by_room[(match.closed_room_id, match.round_id)]
        pairs, numbers = [], []
        for board_id, open_result in sorted(open_results.items(), key=lambda kv: kv[1].board.number):
            closed_result = closed_results.get(board_id)
            open_entry = entry_for(open_result) if open_result else None
            closed_entry = entry_for(closed_result) if closed_result else None
            if open_entry is None or closed_entry is None:
                continue
            pairs.append((open_entry, closed_entry))
            numbers.append(open_result.board.number)
        if not pairs:
            continue
        penalty = penalties.get(match.pk, NO_MATCH_PENALTY)
        ms = existing.get(match.pk) or MatchScore(match=match)
        try:
            scored = _score_match(pairs, penalty, vp_scale=scale, **options)
            ms.unscaled_boards = None
        except EngineInputError as error:
            if error.field != "boards":
                raise
            # A discrete scale with no table for this many boards (a match part played, or a
            # scale chosen for other match lengths): the IMPs stand, the VPs wait for a scale
            # that has the table, and the pages say so. The recalculation must not fail on it,
            # or the event's standings would stay pending for good.
            scored = imp_engine.team_match(pairs, vp_scale="wbf2013-20", **options)
            ms.unscaled_boards = scored.scale_boards
        ms.home_imps, ms.away_imps = to_decimal(scored.home_imps), to_decimal(scored.away_imps)
        ms.home_imp_penalty, ms.away_imp_penalty, ms.home_vp_penalty, ms.away_vp_penalty = penalty
        ms.boards = [
            {"board": n, "home": exact_str(b.home), "away": exact_str(b.away)} for n, b in zip(numbers, scored.boards)
        ]
        to_save.append(ms)
        if ms.unscaled_boards is not None:
            ms.home_vp = ms.away_vp = None
            continue
        ms.home_vp, ms.away_vp = Decimal(scored.home_vp), Decimal(scored.away_vp)
        session_id = match.round.session_id
        rows.append((session_id, match.home_id, Fraction(str(scored.home_vp)), None, len(pairs)))
        rows.append((session_id, match.away_id, Fraction(str(scored.away_vp)), None, len(pairs)))
    for ms in to_save:
        ms.save()
    for match in kept:  # untouched by this pass: their stored VPs (exact: the scales give cents)
        stored = existing.get(match.pk)
        if stored is None or stored.home_vp is None or stored.away_vp is None:
            continue
        session_id, boards_played = match.round.session_id, len(stored.boards)
        rows.append((session_id, match.home_id, Fraction(str(stored.home_vp)), None, boards_played))
        rows.append((session_id, match.away_id, Fraction(str(stored.away_vp)), None, boards_played))
    merged: defaultdict[tuple[int, int], list[Any]] = defaultdict(lambda: [Fraction(0), 0])
    for session_id, cid, vp, _top, boards in rows:
        merged[(session_id, cid)][0] += vp
        merged[(session_id, cid)][1] += boards
    return with_event_totals([(sid, cid, total, None, boards) for (sid, cid), (total, boards) in merged.items()])


NO_MATCH_PENALTY = (Decimal(0), Decimal(0), Decimal(0), Decimal(0))


def _touched_matches(matches, existing, boards, penalties, options, scale):
    """The ids of the matches a change to ``boards`` moved: one whose IMPs on one of those boards
    now differ from its stored score's (a result changed at one of its rooms, made not played,
    or played), one whose penalties in force differ from the stored ones, one whose stored VPs
    the scale in force would not give (the event's scale changed), and one with no stored score
    yet (a match entered after play). Each board is scored alone for the comparison: the
    engine's IMPs on a board do not depend on the match's other boards."""
    numbers = dict(Board.objects.filter(pk__in=boards).values_list("pk", "number"))
    by_room: defaultdict[tuple[int, int | None], dict[int, Result]] = defaultdict(dict)
    for result in Result.objects.filter(board_id__in=boards).select_related("effective"):
        by_room[(result.table_id, result.round_id)][result.board_id] = result
    touched = set()
    for match in matches:
        ms = existing.get(match.pk)
        penalty = penalties.get(match.pk, NO_MATCH_PENALTY)
        if ms is None or penalty != _stored_penalty(ms) or _stored_vps(ms, penalty, scale) != (ms.home_vp, ms.away_vp):
            touched.add(match.pk)
            continue
        stored = {b["board"]: (b["home"], b["away"]) for b in ms.boards}
        open_room, closed_room = (
            by_room[(match.open_room_id, match.round_id)],
            by_room[(match.closed_room_id, match.round_id)],
        )
        for board_id, number in numbers.items():
            open_result, closed_result = open_room.get(board_id), closed_room.get(board_id)
            if open_result is None and closed_result is None:
                continue  # not this match's board (another round's or session's)
            open_entry = entry_for(open_result) if open_result else None
            closed_entry = entry_for(closed_result) if closed_result else None
            fresh = None
            if open_entry is not None and closed_entry is not None:
                board = imp_engine.team_board(open_entry, closed_entry, **options)
                fresh = (exact_str(board.home), exact_str(board.away))
            if fresh != stored.get(number):
                touched.add(match.pk)
                break
    return touched


def _stored_vps(ms, penalty, scale):
    """The VPs the scale in force gives the stored match (its boards' exact IMPs and its
    penalties, as ``_score_match`` converts them); (None, None) if the scale has no table for it."""
    if not ms.boards:
        return (None, None)
    home_imps, away_imps, home_vps, away_vps = penalty
    home = sum((Fraction(b["home"]) for b in ms.boards), Fraction(0)) - Fraction(home_imps)
    away = sum((Fraction(b["away"]) for b in ms.boards), Fraction(0)) - Fraction(away_imps)
    try:
        return (
            vp_for_margin(home, len(ms.boards), scale) - home_vps,
            vp_for_margin(away, len(ms.boards), scale) - away_vps,
        )
    except EngineInputError:
        return (None, None)


def _stored_penalty(ms):
    return (ms.home_imp_penalty, ms.away_imp_penalty, ms.home_vp_penalty, ms.away_vp_penalty)


def _match_penalties(event):
    """{match id: (home IMPs, away IMPs, home VPs, away VPs)}: the penalties in force, added up."""
    totals: defaultdict[int, list[Any]] = defaultdict(lambda: list(NO_MATCH_PENALTY))
    for match_id, home_id, team_id, unit, amount in MatchPenalty.objects.filter(
        match__round__session__event=event, withdrawn_at__isnull=True
    ).values_list("match_id", "match__home_id", "team_id", "unit", "amount"):
        index = (0 if unit == MatchPenalty.Unit.IMPS else 2) + (0 if team_id == home_id else 1)
        totals[match_id][index] += amount
    return {match_id: tuple(values) for match_id, values in totals.items()}


def _score_match(pairs, penalty, *, vp_scale, **options):
    """The match as the engine scores it, with its penalties: VPs come off after the conversion
    (the engine's ``vp_penalties``), IMPs off the penalised team's own margin before it, so the
    opponents' VPs stay as they were."""
    home_imps, away_imps, home_vps, away_vps = penalty
    scored = imp_engine.team_match(pairs, vp_scale=vp_scale, vp_penalties=(home_vps, away_vps), **options)
    if not (home_imps or away_imps):
        return scored
    return dataclasses.replace(
        scored,
        home_vp=vp_for_margin(scored.home_imps - Fraction(home_imps), scored.scale_boards, vp_scale) - home_vps,
        away_vp=vp_for_margin(scored.away_imps - Fraction(away_imps), scored.scale_boards, vp_scale) - away_vps,
    )
