"""Ruter's team league summary (issue #40): a PBN file whose one game, a pseudo-board (202),
holds no deal or table result but the league's table (``TotalScoreTable``: rank, team, total
VPs, roster) and each match of the schedule (``ScoreTable`` with ``MatchDetails``: each
segment's IMPs as ``segment,home,away`` joined by ``|``, segment 200 the match's total; the
VPs; ``LineupDetails_Home`` and ``_Away``: ``segment,room,seat,member number,surname,given
name`` joined by ``|``). A match not yet played is written with ``-`` for all of these.

The record here scores a match from its boards' table results, which a league summary does not
hold: the summary is read and checked here (every segment's IMPs add up to the match's total)
and imported as nothing, with a warning (docs/formats.md). Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from bridge.messages import _
from bridge.pbn_model import PbnError, PbnGame, ScoreRow, tagged

TOTAL_SEGMENT = 200  # Ruter's segment number for the match's total
_ROOMS = {"O": "open", "C": "closed"}


@dataclass(frozen=True)
class Seat:
    """One player of a line-up: in ``segment``, ``room`` ("open"/"closed"), ``seat`` (N, E, S, W)."""

    segment: int
    room: str
    seat: str
    member: str
    name: str


@dataclass
class LeagueMatch:
    line: int
    round: int
    table: int
    home: int
    away: int
    segments: list[tuple[int, int, int]]  # (segment, home IMPs, away IMPs), the total left out
    imps: tuple[int, int]  # the match's total as the file prints it (segment 200)
    vps: tuple[Decimal, Decimal]
    lineups: tuple[list[Seat], list[Seat]]


@dataclass
class LeagueTeam:
    line: int
    number: int
    name: str
    rank: int
    vps: Decimal
    roster: list[str]


@dataclass
class LeagueSummary:
    teams: list[LeagueTeam] = field(default_factory=list)
    matches: list[LeagueMatch] = field(default_factory=list)  # the matches played
    scheduled: int = 0  # matches of the schedule not yet played (written with "-")


def is_league_summary(game: PbnGame) -> bool:
    table = game.tables.get("ScoreTable")
    return table is not None and any(column[0] == "MatchDetails" for column in table.columns)


def league_from_pbn(games: Iterable[PbnGame]) -> LeagueSummary | None:
    """The league summary of parsed games, or None when no game holds one. A row that cannot be
    read is refused with its line and reason (:class:`PbnError`)."""
    league = None
    for game in games:
        if not is_league_summary(game):
            continue
        league = league or LeagueSummary()
        for row in game.total_score_rows:
            league.teams.append(_team(row))
        for row in game.score_rows:
            if row.get("MatchDetails") is None:
                league.scheduled += 1
            else:
                league.matches.append(_match(row))
    return league


def _integer(row: ScoreRow, column: str) -> int:
    value = row.get(column) or ""
    if not value.isdigit():
        raise PbnError(row.line, tagged(column, _("'%(value)s' is not a number", value=value)))
    return int(value)


def _vps(row: ScoreRow, column: str) -> Decimal:
    value = row.get(column) or ""
    try:
        return Decimal(value)
    except InvalidOperation:
        raise PbnError(row.line, tagged(column, _("'%(value)s' is not a number", value=value))) from None


def _team(row: ScoreRow) -> LeagueTeam:
    return LeagueTeam(
        line=row.line,
        number=_integer(row, "TeamId"),
        name=row.get("TeamName") or "",
        rank=_integer(row, "Rank"),
        vps=_vps(row, "TotalScoreVP"),
        roster=[name.strip() for name in (row.get("Roster") or "").split(" - ") if name.strip()],
    )


def _match(row: ScoreRow) -> LeagueMatch:
    details = row.get("MatchDetails") or ""
    segments: dict[int, tuple[int, int]] = {}
    for part in details.split("|"):
        numbers = part.split(",")
        if len(numbers) != 3 or not all(n.strip().isdigit() for n in numbers):
            raise PbnError(
                row.line,
                tagged(
                    "MatchDetails",
                    _(
                        "'%(value)s' is not a segment's IMPs: write segment,home IMPs,away IMPs, the segments "
                        "joined by |",
                        value=part,
                    ),
                ),
            )
        segment, home, away = (int(n) for n in numbers)
        segments[segment] = (home, away)
    played = sorted((s, h, a) for s, (h, a) in segments.items() if s != TOTAL_SEGMENT)
    total = segments.get(TOTAL_SEGMENT)
    summed = (sum(h for _s, h, _a in played), sum(a for _s, _h, a in played))
    if total is None or total != summed:
        raise PbnError(
            row.line,
            tagged(
                "MatchDetails",
                _(
                    "the segments' IMPs add up to %(home)s-%(away)s, the match's total (segment 200) says %(total)s",
                    home=summed[0],
                    away=summed[1],
                    total="-".join(map(str, total)) if total else "-",
                ),
            ),
        )
    return LeagueMatch(
        line=row.line,
        round=_integer(row, "Round"),
        table=_integer(row, "Table"),
        home=_integer(row, "TeamId_Home"),
        away=_integer(row, "TeamId_Away"),
        segments=played,
        imps=total,
        vps=(_vps(row, "VP_Home"), _vps(row, "VP_Away")),
        lineups=(_lineup(row, "LineupDetails_Home"), _lineup(row, "LineupDetails_Away")),
    )


def _lineup(row: ScoreRow, column: str) -> list[Seat]:
    """A team's line-up in the match; empty where Ruter wrote ``-`` (none recorded)."""
    seats = []
    for part in filter(None, (row.get(column) or "").split("|")):
        words = part.split(",", 5)
        if len(words) != 6 or not words[0].isdigit() or words[1] not in _ROOMS or words[2] not in ("N", "E", "S", "W"):
            raise PbnError(
                row.line,
                tagged(
                    column,
                    _(
                        "'%(value)s' is not a player of a line-up: write segment,room (O or C),seat (N, E, S or "
                        "W),member number,surname,given name",
                        value=part,
                    ),
                ),
            )
        segment, room, seat, member, surname, given = words
        seats.append(Seat(int(segment), _ROOMS[room], seat, member, f"{given} {surname}".strip()))
    return seats
