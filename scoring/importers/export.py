"""A scored session as a results file a scoring program or a results site reads back: PBN 2.1
in export format (CRLF, the mandatory tags of every game, a ScoreTable per board and the
session's TotalScoreTable) or USEBIO 1.2 XML.

Reads only (the selectors' record); artificial scores are written as the codes the programs
write (A60 / A40, AVE+ / AVE-), a board not played without a score as NP.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from bridge.deals import parse_deal
from bridge.interchange import BoardIn, ResultIn
from bridge.pbn import PbnGame, PbnTable, ScoreRow, write_pbn
from bridge.usebio import MatchOut, ParticipantOut, write_usebio
from scoring import selectors
from scoring.models import Board, Contestant, Event, Match, Result

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from scoring.models import Session

_SCORING: dict[str, str] = {
    Event.Kind.MP_PAIRS: "matchpoints",
    Event.Kind.INDIVIDUAL: "matchpoints",
    Event.Kind.IMP_PAIRS_BUTLER: "butler",
    Event.Kind.IMP_PAIRS_CROSS: "cross_imps",
}
_PBN_SCORING = {"matchpoints": "MP", "butler": "IMP;Butler", "cross_imps": "IMP;Cross", "imps": "IMP"}


def _scoring(event: Event) -> str:
    return _SCORING.get(event.kind, "imps")


def _number(value: Decimal | Fraction | int | str | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    value = Decimal(value).normalize()
    text = f"{value:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _codes(result: Result) -> tuple[str, ...]:
    """(N-S text, E-W text) for a result without a table score."""
    effective = getattr(result, "effective", None)
    score = effective.score if effective is not None and effective.kind == "artificial" else None
    if not score:
        return "NP", "NP"
    texts = []
    for side in ("ns", "ew"):
        value = str(score.get(side, score.get("ns")))
        texts.append(f"A{value[:-1]}" if value.endswith("%") and value[:-1].isdigit() else value)
    return tuple(texts)


def _results(session: Session) -> QuerySet[Result]:
    return (
        Result.objects.filter(board__session=session)
        .select_related("board", "ns", "ew", "table__section", "round", "effective", "board_score")
        .order_by("board__number", "table__section__name", "table__number")
    )


def session_pbn(session: Session) -> str:
    """The PBN export text of ``session`` (CRLF line ends)."""
    event = session.event
    tournament = event.tournament
    scoring = _scoring(event)
    sections = session.sections.count() > 1
    unit = "MP" if scoring == "matchpoints" else "IMP"
    teams = _team_seats(session) if event.is_teams else None
    seats = (
        ["Table\\2R", "Room\\6L", "Round\\2R", "TeamId_Home\\3R", "TeamId_Away\\3R"]
        if teams is not None
        else ["Table\\2R", "Round\\2R", "PairId_NS\\3R", "PairId_EW\\3R"]
    )
    points = ["IMP_Home\\5R", "IMP_Away\\5R"] if teams is not None else [f"{unit}_NS\\5R", f"{unit}_EW\\5R"]
    header = ";".join(
        (["Section\\1L"] if sections else [])
        + seats
        + [
            "Contract\\5L",
            "Declarer\\1R",
            "Result\\2R",
            "Lead\\3L",
            "Score_NS\\5R",
            "Score_EW\\5R",
        ]
        + points
    )
    by_board: dict[int, list[Result]] = {}
    for result in _results(session):
        by_board.setdefault(result.board_id, []).append(result)
    games = []
    for board in Board.objects.filter(session=session).order_by("number"):
        game = PbnGame(
            line=0,
            board=board.number,
            dealer=board.dealer,
            vulnerability=board.vulnerability,
            deal=parse_deal(board.deal) if board.deal else None,
        )
        game.tags = {
            "Event": event.name,
            "Site": tournament.venue or tournament.name,
            "Date": tournament.start_date.strftime("%Y.%m.%d"),
            "West": "?",
            "North": "?",
            "East": "?",
            "South": "?",
            "Scoring": _PBN_SCORING[scoring],
            "Declarer": "?",
            "Contract": "?",
            "Result": "?",
        }
        # A board with no deal has no Deal tag: [Deal "?"] breaks other readers (endplay's among them).
        table = PbnTable(header)
        for result in by_board.get(board.pk, []):
            score = getattr(result, "board_score", None)
            if teams is not None:
                row = _team_row(result, teams)
                if row is None:
                    continue  # a table of no match: nothing a team file can say of it
            else:
                row = ScoreRow(
                    {
                        "Table": str(result.table.number),
                        "Round": str(result.round.number),
                        "PairId_NS": str(result.ns.number),
                        "PairId_EW": str(result.ew.number),
                    }
                )
            if sections:
                row["Section"] = result.table.section.name
            if result.not_played:
                row["Score_NS"], row["Score_EW"] = _codes(result)
            else:
                passed = result.contract == "PASS"
                row.update(
                    {
                        "Contract": "Pass" if passed else result.contract,
                        "Declarer": None if passed else result.declarer,
                        "Result": None if passed else str(result.tricks),
                        "Lead": result.lead or None,
                    }
                )
                score_ns = result.score_ns
                if score_ns is not None:  # computed for every board played (Law 77)
                    row["Score_NS" if score_ns >= 0 else "Score_EW"] = str(abs(score_ns))
            if teams is None:
                row[f"{unit}_NS"] = _number(score.ns) if score is not None else None
                row[f"{unit}_EW"] = _number(score.ew) if score is not None else None
            table.rows.append(row)
        game.tables["ScoreTable"] = table
        games.append(game)
    if games:
        games[0].tables["TotalScoreTable"] = _totals(event, session, "VP" if teams is not None else unit)
    text = write_pbn(games)
    charset = "ISO-8859-1" if _latin1(text) else "UTF-8"
    # PBN 2.1's character set is ISO 8859-1; a name outside it (Greek, Hebrew, Cyrillic...) makes
    # the file UTF-8. Either way it says which, as BridgeComposer writes it, after % EXPORT.
    text = text.replace("% EXPORT\n", f"% EXPORT\n%Content-type: text/x-pbn; charset={charset}\n", 1)
    return text.replace("\n", "\r\n")


def _latin1(text: str) -> bool:
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


def pbn_bytes(text: str) -> tuple[bytes, str]:
    """(the bytes of a PBN export, its charset): ISO 8859-1 where it declares it, else UTF-8."""
    charset = "ISO-8859-1" if "charset=ISO-8859-1" in text[:200] else "UTF-8"
    return text.encode("latin-1" if charset == "ISO-8859-1" else "utf-8"), charset


def _team_seats(session: Session) -> dict[tuple[int, int], tuple[Match, str, dict[int, tuple[str, str]]]]:
    """{(table id, round id): (match, room, {board number: (home IMPs, away IMPs)})} of the
    session's matches: a team file names each result by its match (Table), room, and teams."""
    seats = {}
    for match in selectors.session_matches(session).select_related("home", "away", "open_room", "closed_room"):
        score = getattr(match, "score", None)
        imps = {b["board"]: (b["home"], b["away"]) for b in (score.boards if score is not None else [])}
        seats[(match.open_room_id, match.round_id)] = (match, "Open", imps)
        seats[(match.closed_room_id, match.round_id)] = (match, "Closed", imps)
    return seats


def _team_row(result: Result, teams: dict) -> ScoreRow | None:
    seat = teams.get((result.table_id, result.round_id))
    if seat is None:
        return None
    match, room, imps = seat
    home_imps, away_imps = imps.get(result.board.number, (None, None))
    return ScoreRow(
        {
            # The match's number: its open room's table, as the import seats match n at tables 2n-1 and 2n.
            "Table": str((match.open_room.number + 1) // 2),
            "Room": room,
            "Round": str(result.round.number),
            "TeamId_Home": str(match.home.number),
            "TeamId_Away": str(match.away.number),
            "IMP_Home": _number(Fraction(home_imps)) if home_imps is not None else None,
            "IMP_Away": _number(Fraction(away_imps)) if away_imps is not None else None,
        }
    )


def _totals(event: Event, session: Session, unit: str) -> PbnTable:
    who = "TeamId" if event.is_teams else "PairId"
    table = PbnTable(f"Rank\\3R;{who}\\3R;Direction\\2L;TotalScore{unit}\\7R;TotalPercentage\\6R;Names\\40L")
    for standing in selectors.standings(event, session):
        table.rows.append(
            ScoreRow(
                {
                    "Rank": standing.place,
                    who: str(standing.contestant.number),
                    "Direction": standing.field or None,
                    f"TotalScore{unit}": _number(standing.total),
                    "TotalPercentage": _number(standing.percent),
                    "Names": " - ".join(name for name, _id in _players(standing.contestant)) or None,
                }
            )
        )
    return table


def session_usebio(session: Session) -> bytes:
    """The USEBIO 1.2 XML of ``session`` (bytes)."""
    event = session.event
    boards = []
    by_board: dict[int, list[Result]] = {}
    written: dict[int, ResultIn] = {}  # result id -> as written
    sectioned = session.sections.count() > 1  # each section its own SECTION (its boards and pairs)
    played_in: dict[int, str] = {}  # contestant id -> the section it played in
    for result in _results(session):
        by_board.setdefault(result.board_id, []).append(result)
        if sectioned:
            for contestant_id in (result.ns_id, result.ew_id):
                played_in.setdefault(contestant_id, result.table.section.name)
    for board in Board.objects.filter(session=session).order_by("number"):
        record = BoardIn(
            number=board.number, line=0, dealer=board.dealer, vulnerability=board.vulnerability, deal=board.deal
        )
        results, points = [], {}
        for index, result in enumerate(by_board.get(board.pk, [])):
            item = ResultIn(
                board=board.number,
                line=0,
                ns=result.ns.number,
                ew=result.ew.number,
                table=result.table.number,
                round=result.round.number,
                section=result.table.section.name if sectioned else "",
            )
            if result.not_played:
                ns, ew = _codes(result)
                item.kind, item.code = (
                    (
                        "artificial",
                        f"{ns}{ew[1:]}" if ns.startswith("A") and ns[1:].isdigit() and ew[1:].isdigit() else ns,
                    )
                    if ns != "NP"
                    else ("not_played", "NP")
                )
            else:
                item.contract, item.declarer, item.tricks, item.lead = (
                    result.contract,
                    result.declarer,
                    result.tricks,
                    result.lead,
                )
            score = getattr(result, "board_score", None)
            if score is not None and score.ns is not None:
                points[index] = (_number(score.ns), _number(score.ew))
            results.append(item)
            written[result.pk] = item
        boards.append((record, results, points))
    tournament = event.tournament
    return write_usebio(
        event_name=f"{event.name}, {session}",
        scoring=_scoring(event),
        boards=boards,
        participants=_participants(event, session, played_in),
        club=tournament.name,
        date=tournament.start_date,
        venue=tournament.venue,
        mitchell=any(c.direction for c in selectors.event_contestants(event)),
        matches=_matches(session, by_board, written) if event.is_teams else None,
        event_type=_EVENT_TYPES.get(event.kind, ""),
    )


_EVENT_TYPES: dict[str, str] = {
    Event.Kind.TEAMS_SWISS: "SWISS_TEAMS",
    Event.Kind.TEAMS_ROUND_ROBIN: "TEAMS",
    Event.Kind.KNOCKOUT_TEAMS: "KO_TEAMS",
}


def _matches(session: Session, by_board: dict[int, list[Result]], written: dict[int, ResultIn]) -> list[MatchOut]:
    """The session's team matches: each board's results in the match's open and closed rooms
    (N-S the home team in the open room, the away team in the closed), its IMPs and the VPs."""
    out = []
    boards = {board.pk: board.number for board in Board.objects.filter(session=session)}
    for match in selectors.session_matches(session):
        score = getattr(match, "score", None)
        imps = {b["board"]: (b["home"], b["away"]) for b in (score.boards if score is not None else [])}
        rooms = {match.open_room_id: "open", match.closed_room_id: "closed"}
        played: dict[int, list[ResultIn]] = {}
        for board_id, results in by_board.items():
            for result in results:
                room = rooms.get(result.table_id) if result.round_id == match.round_id else None
                if room is not None:
                    item = written[result.pk]
                    item.room = room
                    played.setdefault(boards[board_id], []).append(item)
        home_vp = _number(score.home_vp) if score is not None else None
        away_vp = _number(score.away_vp) if score is not None else None
        out.append(
            MatchOut(
                round=match.round.number,
                home=match.home.number,
                away=match.away.number,
                # The match's number: its open room's table, as the import seats match n at tables 2n-1 and 2n.
                table=(match.open_room.number + 1) // 2,
                home_vp=home_vp,
                away_vp=away_vp,
                boards=[(number, results, _imps(imps.get(number))) for number, results in sorted(played.items())],
            )
        )
    return out


def _players(contestant: Contestant) -> list[tuple[str, str]]:
    """(name, national id) of each member, or the pair's own name when it has no members."""
    members = sorted(contestant.members.all(), key=lambda p: p.pk)
    if members:
        return [(f"{p.first_name} {p.last_name}".strip(), p.membership_number) for p in members]
    return [(name, "") for name in (contestant.name or "").split(" - ") if name]


def _imps(imps: tuple[object, object] | None) -> tuple[str, str] | None:
    """A board's IMPs to the home and the away team, as written (None when not scored)."""
    if imps is None:
        return None
    return str(_number(Fraction(str(imps[0])))), str(_number(Fraction(str(imps[1]))))


def _members(contestant: Contestant) -> list[tuple[str, str]]:
    """A team's players (its name is the team's, not a player's)."""
    return [(f"{p.first_name} {p.last_name}".strip(), p.membership_number) for p in contestant.members.all()]


def _participants(event: Event, session: Session, played_in: dict[int, str] | None = None) -> list[ParticipantOut]:
    """Every contestant of the event, with its total, percentage and place in ``session``, and
    the section it played in (``played_in``: contestant id -> section, when there are several)."""
    standing = {s.contestant_id: s for s in selectors.standings(event, session)}
    out = []
    for contestant in selectors.event_contestants(event):
        row = standing.get(contestant.pk)
        out.append(
            ParticipantOut(
                number=contestant.number,
                direction=contestant.direction,
                team_name=contestant.name if event.is_teams else "",
                players=_players(contestant) if not event.is_teams else _members(contestant),
                total=_number(row.total) if row else None,
                percentage=_number(row.percent) if row and row.percent is not None else None,
                place=row.place if row else None,
                section=(played_in or {}).get(contestant.pk, ""),
            )
        )
    return out
