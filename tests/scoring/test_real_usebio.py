"""Real USEBIO files written by scoring programs (tests/fixtures/realfiles, origins in
tests/fixtures/ORIGINS), imported as a director would: every traveller line stored as the file
says, and the program's own matchpoints, Butler IMPs and percentages recalculated here to the
program's rounding (issue #29). The file is read for the comparison with ElementTree, not with
the importer's reader."""

import datetime
import xml.etree.ElementTree as ElementTree
from collections import Counter
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from core import policy
from scoring import recalculation, services
from scoring.importers.session_import import import_file
from scoring.models import Board, Event, Result, Standing

pytestmark = pytest.mark.django_db
NO_TABLES = "The file gives no table numbers: each result is placed at the table of its N-S pair's number."
COMPSCORE = Path(__file__).resolve().parent.parent / "fixtures" / "realfiles" / "compscore"
KINDS = {
    "MP_PAIRS": Event.Kind.MP_PAIRS,
    "BUTLER_PAIRS": Event.Kind.IMP_PAIRS_BUTLER,
    "CROSS_IMP": Event.Kind.IMP_PAIRS_CROSS,
    "CROSS_IMPS": Event.Kind.IMP_PAIRS_CROSS,
}


# Lines whose matchpoints the program wrote otherwise than the table result gives: the director
# adjusted them in the program, and the file does not say so (the same score scores 19 beside it).
DIFFERENT = {"mp_pairs_mitchell_adjusted_02.xml": [(4, "1 N-S", "21 E-W", "19", "21")]}
# Artificial scores the program awarded otherwise than their codes say, recorded as awarded.
AWARDED = {
    "mp_pairs_mitchell_adjusted_02.xml": [
        "board 3, traveller line 1: SCORE A5050 was scored 23 and 11 matchpoints of 40: recorded as 57.5% and 27.5%, "
        "as the program awarded it"
    ]
}


def label(text, side):
    """Compscore's ``3NS`` -> ``3 N-S``; a Howell's ``3`` -> ``3``."""
    text = text.strip().upper()
    if text.endswith(("NS", "EW")):
        return f"{text[:-2]} {'N-S' if side == 'NS' else 'E-W'}"
    return text


def lines_of(root):
    for board in root.iter("BOARD"):
        if board.find("TRAVELLER_LINE") is None:
            continue
        number = int(board.findtext("BOARD_NUMBER"))
        for line in board.findall("TRAVELLER_LINE"):
            yield number, {child.tag: (child.text or "").strip() for child in line}


def import_real(record, path):
    # Compscore rounds a Butler datum ending in 5 away from zero (-445 -> -450).
    services.set_authority_setting(
        authority=record.authority,
        key="butler_rounding",
        value="half-away",
        effective_from=datetime.date(2000, 1, 1),
        by=policy.SYSTEM,
    )
    root = ElementTree.parse(path).getroot()
    kind = root.find(".//PARTICIPANTS").get("EVENT_TYPE")
    event = services.create_event(tournament=record.tournament, name=path.stem, kind=KINDS[kind], by=policy.SYSTEM)
    summary = import_file(event=event, data=path.read_bytes())
    return root, event, summary


@pytest.mark.parametrize("name", sorted(p.name for p in COMPSCORE.glob("*.xml")))
def test_compscore_file_is_stored_as_it_says_and_scored_as_compscore_scored_it(record, name):
    root, event, summary = import_real(record, COMPSCORE / name)
    lines = list(lines_of(root))
    assert summary.results == len(lines)
    assert summary.warnings == [*AWARDED.get(name, []), NO_TABLES]
    stored = {
        (r.board.number, r.ns.label, r.ew.label): r
        for r in Result.objects.filter(board__session__event=event).select_related("board", "ns", "ew", "effective")
    }
    assert len(stored) == len(lines)
    # The hand records beside EVENT (the DTD's order) are read: every board's deal (issue #29).
    hands = {int(b.findtext("BOARD_NUMBER")) for b in root.iter("HANDSET") for b in b.findall("BOARD")}
    dealt = set(Board.objects.filter(session__event=event).exclude(deal="").values_list("number", flat=True))
    assert dealt == hands
    recalculation.rescore_everything(event)
    counts = Counter(board for board, _ in lines)
    most = max(counts.values())
    differ = []
    for board, line in lines:
        result = stored[(board, label(line["NS_PAIR_NUMBER"], "NS"), label(line["EW_PAIR_NUMBER"], "EW"))]
        where = (board, line)
        if line.get("CONTRACT", "").upper() == "PASS":
            assert (result.contract, result.declarer, result.tricks, result.score_ns) == ("PASS", "", None, 0), where
        elif "CONTRACT" in line:
            contract = line["CONTRACT"].upper().replace("**", "XX").replace("*", "X")
            tricks = int(line["TRICKS"])
            assert (result.contract, result.declarer, result.tricks) == (contract, line["PLAYED_BY"], tricks), where
            assert result.score_ns == int(line["SCORE"]), where
        else:
            assert result.not_played and result.effective.kind == "artificial", where
        points = result.board_score
        if "NS_MATCH_POINTS" in line and "CONTRACT" in line:
            # Whole matchpoints, or scaled ones (boards with artificial scores) to one decimal.
            theirs = (Decimal(line["NS_MATCH_POINTS"]), Decimal(line["EW_MATCH_POINTS"]))
            if counts[board] < most:
                # The traveller shows the board's own matchpoints; the totals take them scaled
                # with Neuberg to the session's most played board, as the board scores here do.
                theirs = tuple(neuberg(value, counts[board], most) for value in theirs)
                ours = (Fraction(points.ns_exact), Fraction(points.ew_exact))
            else:
                ours = (like(points.ns, theirs[0]), like(points.ew, theirs[1]))
            if ours != theirs:
                differ.append((board, result.ns.label, result.ew.label, str(ours[0]), line["NS_MATCH_POINTS"]))
        if "NS_BUTLER_POINTS" in line:
            assert (points.ns, points.ew) == (Decimal(line["NS_BUTLER_POINTS"]), Decimal(line["EW_BUTLER_POINTS"])), (
                where
            )
        if "NS_CROSS_IMP_POINTS" in line:  # written to two decimals
            ours = (cents(points.ns), cents(points.ew))
            assert ours == (Decimal(line["NS_CROSS_IMP_POINTS"]), Decimal(line["EW_CROSS_IMP_POINTS"])), where
    assert differ == DIFFERENT.get(name, [])
    # The matchpoints the director set by hand on a played line (DIFFERENT) are in the program's
    # totals; the record has the table result's own.
    by_hand = Counter()
    for _board, ns, ew, ours, theirs in DIFFERENT.get(name, []):
        by_hand[ns] += Fraction(theirs) - Fraction(ours)
        by_hand[ew] -= Fraction(theirs) - Fraction(ours)
    wrong = []
    for pair in root.iter("PAIR"):
        number = (pair.findtext("PAIR_NUMBER") or "").strip()
        direction = (pair.findtext("DIRECTION") or "").strip()
        standing = Standing.objects.get(
            event=event, session=None, contestant__number=int(number.rstrip("NSEW")), contestant__direction=direction
        )
        total = Fraction(standing.total_exact) + by_hand[standing.contestant.label]
        if pair.findtext("PERCENTAGE"):
            # The percentage to the program's two decimals, from the exact total.
            ours = cents(total / Fraction(standing.top) * 100)
            theirs = Decimal(pair.findtext("PERCENTAGE"))
        else:
            ours, theirs = cents(total), Decimal(pair.findtext("TOTAL_SCORE"))
        if ours != theirs:
            wrong.append((standing.contestant.label, ours, theirs))
    assert wrong == []


def neuberg(matchpoints, results, expected):
    """Neuberg's formula on the 2/1 scale, exactly: (M + 1) x E / A - 1."""
    return (Fraction(matchpoints) + 1) * expected / results - 1


def like(value, written):
    """``value`` rounded to as many decimals as the program wrote ``written`` with, a half to
    even as Compscore rounds (12.65 -> 12.6 beside 27.35 -> 27.4: the two add up to the top)."""
    return Decimal(value).quantize(Decimal(1).scaleb(written.as_tuple().exponent), rounding=ROUND_HALF_EVEN)


def cents(value):
    """A number rounded half up to two decimals, as the programs print them."""
    value = Fraction(value)
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


@pytest.mark.parametrize("fmt", ["usebio", "pbn"])
def test_a_mitchell_exported_reads_back_as_the_same_record(record, fmt):
    """Compscore's Mitchell imported, exported, and the export imported into another event: the
    same pairs (1 N-S and 1 E-W apart), deals, results and standings (issue #29)."""
    from scoring.importers.export import session_pbn, session_usebio

    _root, event, _summary = import_real(record, COMPSCORE / "mp_pairs_mitchell_04.xml")
    recalculation.rescore_everything(event)
    session = event.sessions.get()
    data = session_usebio(session) if fmt == "usebio" else session_pbn(session).encode()
    if fmt == "usebio":
        written = ElementTree.fromstring(data)
        assert [child.tag for child in written] == ["CLUB", "EVENT", "HANDSET"]
        assert written.findtext("CLUB/CLUB_NAME") == record.tournament.name
        assert written.findtext("EVENT/DATE") == record.tournament.start_date.strftime("%d/%m/%Y")
        assert len(written.findall("EVENT/PARTICIPANTS/PAIR")) == event.contestants.count() == 16
        first = written.find("EVENT/PARTICIPANTS/PAIR")
        assert (first.findtext("PAIR_NUMBER"), first.findtext("DIRECTION")) == ("1NS", "NS")
        assert first.findtext("PLAYER/PLAYER_NAME") == "JEANNIE EGGER"
    again = services.create_event(
        tournament=record.tournament, name="again", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )
    import_file(event=again, data=data)
    recalculation.rescore_everything(again)

    def seen(e):
        results = Result.objects.filter(board__session__event=e).select_related("board", "ns", "ew")
        deals = dict(Board.objects.filter(session__event=e).values_list("number", "deal"))
        return (
            sorted(
                (r.board.number, r.ns.label, r.ew.label, r.contract, r.declarer, r.tricks, r.score_ns) for r in results
            ),
            deals,
            sorted(
                (s.contestant.label, s.total, s.percent)
                for s in Standing.objects.filter(event=e, session=None).select_related("contestant")
            ),
        )

    assert seen(again) == seen(event)


def test_a_team_match_exported_as_usebio_reads_back_with_its_rooms_imps_and_vps(record):
    """The European Youth Teams file (open and closed rooms between named teams) imported,
    exported as USEBIO and imported into another team event: TEAM participants, a MATCH per
    match with the VPs, each traveller line's DIRECTION (where the home team sat) and IMPs; and
    the same matches, rooms, results, IMPs and VPs read back (issue #29)."""
    from scoring.importers.export import session_usebio
    from scoring.models import MatchScore

    real = COMPSCORE.parent / "endplay" / "eyc_example1.pbn"
    event = services.create_event(
        tournament=record.tournament, name="EYTC", kind=Event.Kind.TEAMS_SWISS, by=policy.SYSTEM
    )
    import_file(event=event, data=real.read_bytes())
    recalculation.rescore_everything(event)
    data = session_usebio(event.sessions.get())
    written = ElementTree.fromstring(data)
    assert [child.tag for child in written] == ["CLUB", "EVENT", "HANDSET"]
    assert written.find("EVENT").get("EVENT_TYPE") == "SWISS_TEAMS"
    assert written.findtext("EVENT/MATCH_SCORING_METHOD") == "VPS"
    teams = written.findall("EVENT/PARTICIPANTS/TEAM")
    assert sorted((t.get("TEAM_ID"), t.findtext("TEAM_NAME")) for t in teams) == sorted(
        (str(c.number), c.name) for c in event.contestants.all()
    )
    assert written.find("EVENT/PARTICIPANTS/PAIR") is None and written.find("EVENT/BOARD") is None
    score = MatchScore.objects.select_related("match__home", "match__away").get(match__round__session__event=event)
    match = written.find("EVENT/MATCH")
    assert (match.findtext("TEAM"), match.findtext("OPPOSING_TEAM")) == (
        str(score.match.home.number),
        str(score.match.away.number),
    )
    assert score.home_vp is not None
    assert (Decimal(match.findtext("TEAM_SCORE")), Decimal(match.findtext("OPPOSING_TEAM_SCORE"))) == (
        score.home_vp,
        score.away_vp,
    )
    lines = match.findall("BOARD/TRAVELLER_LINE")
    assert Counter(line.findtext("DIRECTION") for line in lines) == Counter(
        {"NS": len(score.boards), "EW": len(score.boards)}
    )
    # The home team's IMPs: N-S's in the open room, E-W's in the closed room.
    home = sum(
        Fraction(line.findtext("NS_IMPS" if line.findtext("DIRECTION") == "NS" else "EW_IMPS")) for line in lines
    )
    assert home == 2 * Fraction(score.home_imps)
    again = services.create_event(
        tournament=record.tournament, name="again", kind=Event.Kind.TEAMS_SWISS, by=policy.SYSTEM
    )
    import_file(event=again, data=data)
    recalculation.rescore_everything(again)

    def seen(e):
        results = sorted(
            (r.board.number, r.table.number, r.ns.number, r.ew.number, r.contract, r.declarer, r.tricks, r.score_ns)
            for r in Result.objects.filter(board__session__event=e).select_related("board", "table", "ns", "ew")
        )
        matches = sorted(
            (m.match.home.name, m.match.away.name, m.home_imps, m.away_imps, m.home_vp, m.away_vp, m.boards)
            for m in MatchScore.objects.filter(match__round__session__event=e).select_related(
                "match__home", "match__away"
            )
        )
        deals = dict(Board.objects.filter(session__event=e).values_list("number", "deal"))
        return results, matches, deals

    assert seen(again) == seen(event)
