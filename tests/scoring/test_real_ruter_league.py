"""A real Ruter team league summary (2022KM_A, origin in tests/fixtures/ORIGINS): its pseudo-board
202 holds the league table and each match's IMPs by segment, VPs and line-ups. It is read by
bridge.pbn_league and checked against the project's VP engine: every printed VP is the WBF
continuous 20-VP scale's for a 28-board match (two segments), recomputed from the printed IMPs
(issue #40). The record here scores matches from table results, which the file does not hold:
it imports as nothing, with a warning (docs/formats.md)."""

import re
from decimal import Decimal
from pathlib import Path

import pytest

from bridge.engine.vp import victory_points
from bridge.pbn_league import Seat, league_from_pbn
from bridge.pbn_model import PbnError
from bridge.pbn_reader import parse_pbn
from core import policy
from scoring import services, vp_scales
from scoring.importers.session_import import import_file
from scoring.models import Event, Match, Result

LEAGUE = Path(__file__).resolve().parent.parent / "fixtures" / "realfiles" / "ruter" / "ruter_league_2022KM_A.pbn"
TEXT = LEAGUE.read_text(encoding="utf-8")


def printed_matches():
    """(round, table, home, away, home IMPs, away IMPs, home VPs, away VPs) as the file prints them."""
    found = re.findall(r'^(\d) (\d) (\d) (\d) "[^"]*\|200,(\d+),(\d+)"\s+([\d.]+)\s+([\d.]+)', TEXT, re.M)
    return [(*map(int, row[:6]), Decimal(row[6]), Decimal(row[7])) for row in found]


def test_a_ruter_league_summary_is_read_as_printed_and_its_vps_are_the_wbf_continuous_scale():
    league = league_from_pbn(parse_pbn(TEXT))
    assert (len(league.teams), len(league.matches), league.scheduled) == (8, 16, 12)
    assert [(m.round, m.table, m.home, m.away, *m.imps, *m.vps) for m in league.matches] == printed_matches()
    first = league.matches[0]
    assert (first.segments, first.imps) == ([(1, 15, 54), (2, 30, 0)], (45, 54))
    assert first.lineups[0][0] == Seat(1, "open", "N", "18444", "Magnus Bruun Larssen")
    assert all(sum(s[1] for s in m.segments) == m.imps[0] for m in league.matches)
    # Every printed VP, to its two decimals, from the IMPs by the project's scale.
    assert "wbf2013-20" in vp_scales.choices(None)
    for match in league.matches:
        assert victory_points(match.imps[0] - match.imps[1], 28, "wbf2013-20") == match.vps, match
    # 28 boards is the only match length of 1-64 that gives every printed VP.
    fits = [
        boards
        for boards in range(1, 65)
        if all(victory_points(m.imps[0] - m.imps[1], boards, "wbf2013-20") == m.vps for m in league.matches)
    ]
    assert fits == [28]
    # The league table: each team's total is the sum of its matches' VPs, ranked as printed.
    totals = {team.number: Decimal(0) for team in league.teams}
    for match in league.matches:
        totals[match.home] += match.vps[0]
        totals[match.away] += match.vps[1]
    assert {team.number: team.vps for team in league.teams} == totals
    assert [team.number for team in sorted(league.teams, key=lambda t: -t.vps)] == [
        team.number for team in sorted(league.teams, key=lambda t: t.rank)
    ]
    assert (league.teams[0].name, league.teams[0].roster[0]) == ("Fredrikstad 1", "Flemming Johnsen")
    # Line-ups as printed: round 1's match 1 v 8 fields Anders Raaen for Sarpsborg 2 (team 1),
    # whom its roster does not list; the four matches with no line-up recorded print "-".
    sarpsborg = next(team for team in league.teams if team.number == 1)
    fielded = {seat.name for seat in league.matches[3].lineups[0]}
    assert fielded - set(sarpsborg.roster) == {"Anders Raaen"}
    assert [(m.round, m.table) for m in league.matches if not (m.lineups[0] or m.lineups[1])] == [
        (2, 1),
        (3, 2),
        (3, 4),
        (4, 2),
    ]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            '"1,15,54|2,30,0|200,45,54"',
            '"1,15,54|2,30,1|200,45,54"',
            "line 74: MatchDetails: the segments' IMPs add up to 45-55, the match's total (segment 200) says 45-54",
        ),
        (
            '"1,15,54|2,30,0|200,45,54"',
            '"1,15,54|2;30;0|200,45,54"',
            "line 74: MatchDetails: '2;30;0' is not a segment's IMPs: write segment,home IMPs,away IMPs, the segments "
            "joined by |",
        ),
        ("8.02 11.98", "8,02 11.98", "line 74: VP_Home: '8,02' is not a number"),
        (
            '"1,O,N,18444,Larssen,Magnus Bruun|',
            '"1,X,N,18444,Larssen,Magnus Bruun|',
            "line 74: LineupDetails_Home: '1,X,N,18444,Larssen,Magnus Bruun' is not a player of a line-up: write "
            "segment,room (O or C),seat (N, E, S or W),member number,surname,given name",
        ),
    ],
)
def test_a_bad_row_of_a_league_summary_is_refused_by_its_line_and_reason(old, new, message):
    assert TEXT.count(old) >= 1
    with pytest.raises(PbnError) as refused:
        league_from_pbn(parse_pbn(TEXT.replace(old, new, 1)))
    assert str(refused.value) == message


@pytest.mark.django_db
def test_a_ruter_league_summary_imports_as_nothing_with_a_warning(record):
    event = services.create_event(
        tournament=record.tournament, name="2022KM_A", kind=Event.Kind.TEAMS_ROUND_ROBIN, by=policy.SYSTEM
    )
    summary = import_file(event=event, data=LEAGUE.read_bytes())
    assert (summary.boards, summary.results) == (1, 0)
    assert not Result.objects.filter(board__session__event=event).exists()
    assert not Match.objects.filter(round__session__event=event).exists()
    assert any("a match summary" in str(w) for w in summary.warnings), summary.warnings
