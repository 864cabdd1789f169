"""A real file written by ScoreBridge (10.25.02, USEBIO 1.2; origin in tests/fixtures/ORIGINS): an
8-pair club session of 28 boards, 16 of them played three times and one twice where the most
played were played four times. Imported as a director would and scored here: every line's
matchpoints, every percentage and place as ScoreBridge printed them, before and after a ruling
changes one board (issue #40). The file is read for the comparison with ElementTree, not with
the importer's reader.

ScoreBridge counted each result missing from a board as an average one: a board played three
times prints 5, 3 and 1 on a top of 6 (the board's 4, 2, 0 and 1 for the missing comparison),
where Neuberg gives 5.67, 3 and 0.33. The project's rule for ScoreBridge by version said Neuberg
from 10.24 on; the file's own lines say otherwise, and the import reads the method from them."""

import xml.etree.ElementTree as ElementTree
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from core import policy
from scoring import recalculation, services
from scoring.importers.session_import import import_file
from scoring.models import Contestant, Event, Result, Standing

pytestmark = pytest.mark.django_db
FILE = (
    Path(__file__).resolve().parent.parent / "fixtures" / "realfiles" / "scorebridge" / "forest_of_dean_2025-07-30.xml"
)
TOP = 6  # four results on the most played boards: 2 for each score beaten, 1 for each tie


def lines_of(root):
    """[(board, N-S pair, E-W pair, N-S score, printed N-S and E-W matchpoints)] of the file."""
    return [
        (
            int(board.findtext("BOARD_NUMBER")),
            int(line.findtext("NS_PAIR_NUMBER")),
            int(line.findtext("EW_PAIR_NUMBER")),
            int(line.findtext("SCORE")),
            Decimal(line.findtext("NS_MATCH_POINTS")),
            Decimal(line.findtext("EW_MATCH_POINTS")),
        )
        for board in root.iter("BOARD")
        for line in board.findall("TRAVELLER_LINE")
    ]


def average_method(lines):
    """Each pair's (total, top) as ScoreBridge scores them: on each board 2 for each score beaten
    and 1 for each tie, and 1 for each result missing from the most played boards' four."""
    by_board = defaultdict(list)
    for board, ns, ew, score, *_printed in lines:
        by_board[board].append((ns, ew, score))
    totals, tops = defaultdict(int), defaultdict(int)
    for rows in by_board.values():
        missing = 4 - len(rows)
        for ns, ew, score in rows:
            points = sum(2 if score > other else 1 if score == other else 0 for _n, _e, other in rows) - 1 + missing
            totals[ns] += points
            totals[ew] += TOP - points
            tops[ns] += TOP
            tops[ew] += TOP
    return {pair: (totals[pair], tops[pair]) for pair in totals}


def cents(value):
    value = Fraction(value)
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def places(percentages):
    """ScoreBridge's places: by percentage, ties as ``3=``."""
    order = sorted(percentages.values(), reverse=True)
    return {pair: f"{order.index(p) + 1}{'=' if order.count(p) > 1 else ''}" for pair, p in percentages.items()}


def printed_standings(root):
    return {
        int(pair.findtext("PAIR_NUMBER")): (Decimal(pair.findtext("PERCENTAGE")), pair.findtext("PLACE"))
        for pair in root.iter("PAIR")
    }


def our_standings(event):
    return {
        s.contestant.number: (cents(Fraction(s.total_exact) / Fraction(s.top) * 100), s.place)
        for s in Standing.objects.filter(event=event, session=None).select_related("contestant")
    }


def import_scorebridge(record):
    event = services.create_event(
        tournament=record.tournament, name="Forest of Dean", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )
    summary = import_file(event=event, data=FILE.read_bytes())
    recalculation.rescore_everything(event)
    return event, summary


def test_a_scorebridge_session_is_scored_as_scorebridge_printed_it(record):
    root = ElementTree.parse(FILE).getroot()
    lines = lines_of(root)
    event, summary = import_scorebridge(record)
    assert (summary.boards, summary.results) == (28, len(lines)) == (28, 94)
    # The method is read from the file's lines (an average for each missing result), not from
    # the version rule (10.24 and later: Neuberg with rounded lines), which this file belies.
    assert summary.warnings == [
        "Scoring method: ScoreBridge 10.25.02 scores fewer_played average, where the regulations here say "
        "fewer_played neuberg: recorded as this event's scoring method, so its standings are the program's. The "
        "event's page shows it and can change it.",
        "The file gives no table numbers: each result is placed at the table of its N-S pair's number.",
    ]
    event.refresh_from_db()
    assert event.scoring_method == {"fewer_played": "average"}
    named = {c.number: c.name for c in Contestant.objects.filter(event=event)}
    assert named[1] == "Harry Kear - Grace Martyn" and named[2] == "Alan Keenan - John Plews"
    stored = {
        (r.board.number, r.ns.number, r.ew.number): r
        for r in Result.objects.filter(board__session__event=event).select_related("board", "ns", "ew", "board_score")
    }
    assert len(stored) == len(lines)
    for board, ns, ew, score, ns_points, ew_points in lines:
        result = stored[(board, ns, ew)]
        assert result.score_ns == score, (board, ns, ew)
        assert (result.board_score.ns, result.board_score.ew) == (ns_points, ew_points), (board, ns, ew)
    # Every pair's percentage (two decimals, over the boards it played) and place, ties and all.
    assert (
        our_standings(event)
        == printed_standings(root)
        == {
            1: (Decimal("63.89"), "1"),
            5: (Decimal("52.78"), "2"),
            4: (Decimal("50.69"), "3="),
            7: (Decimal("50.69"), "3="),
            8: (Decimal("48.48"), "5"),
            6: (Decimal("45.65"), "6"),
            3: (Decimal("43.75"), "7"),
            2: (Decimal("43.48"), "8"),
        }
    )
    # The test's own reading of ScoreBridge's method gives the printed numbers too.
    assert {
        pair: (cents(Fraction(total, top) * 100), place)
        for (pair, (total, top)), place in zip(
            average_method(lines).items(),
            places({p: cents(Fraction(t, m) * 100) for p, (t, m) in average_method(lines).items()}).values(),
            strict=True,
        )
    } == printed_standings(root)


def test_a_ruling_on_a_board_played_three_times_gives_what_scorebridge_would_print(record):
    # Board 9 was played three times: pair 1 (N-S) +490 against pair 4, pair 2 +200 against 8,
    # pair 5 -150 against 7. The director assigns +200 at pair 1's table: two 200s tie, each
    # 3 of the board's 4 and 1 for the missing result (4), the -150 still 1; with Neuberg the
    # 200s would score 4.33 and the -150 0.33.
    root = ElementTree.parse(FILE).getroot()
    lines = lines_of(root)
    event, _summary = import_scorebridge(record)
    result = Result.objects.get(board__session__event=event, board__number=9, ns__number=1)
    services.set_effective_score(result=result, kind="assigned", score={"ns": 200}, reason="Misinformation")
    recalculation.rescore_everything(event)
    ruled = [(b, ns, ew, 200 if (b, ns) == (9, 1) else score, *p) for b, ns, ew, score, *p in lines]
    points = {
        (r.ns.number, r.board_score.ns, r.board_score.ew)
        for r in Result.objects.filter(board__number=9, board__session__event=event).select_related("ns", "board_score")
    }
    assert points == {(1, Decimal(4), Decimal(2)), (2, Decimal(4), Decimal(2)), (5, Decimal(1), Decimal(5))}
    expected = {pair: cents(Fraction(total, top) * 100) for pair, (total, top) in average_method(ruled).items()}
    assert (
        our_standings(event)
        == {pair: (p, place) for (pair, p), place in zip(expected.items(), places(expected).values(), strict=True)}
        == {
            1: (Decimal("63.19"), "1"),
            5: (Decimal("52.78"), "2"),
            4: (Decimal("51.39"), "3"),
            7: (Decimal("50.69"), "4"),
            8: (Decimal("47.73"), "5"),
            6: (Decimal("45.65"), "6"),
            2: (Decimal("44.20"), "7"),
            3: (Decimal("43.75"), "8"),
        }
    )
