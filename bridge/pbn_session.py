"""PBN 2.1: a file's games as one session's boards and table results (``session_from_pbn``), for
the importer. Part of :mod:`bridge.pbn`, which gives the public names.

Plain Python, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from fractions import Fraction

from bridge.interchange import (
    BoardIn,
    Notice,
    ResultIn,
    SessionFile,
    direction_of,
    fewer_played_printed,
    read_scoring,
)
from bridge.messages import _
from bridge.pbn_model import (
    CONTESTANT_COLUMNS,
    INDIVIDUAL_COLUMNS,
    PbnError,
    PbnGame,
    ScoreRow,
    canonical_column,
    tagged,
)

# --- A session's results ---------------------------------------------------------------------

_ROOMS = {"OPEN": "open", "O": "open", "CLOSED": "closed", "C": "closed", "CLOSE": "closed"}


def session_from_pbn(
    games: Iterable[PbnGame], warnings: Iterable[Notice | str] = (), faulty: list[PbnError] | None = None
) -> SessionFile:
    """The boards and table results of parsed games, as a :class:`SessionFile`.

    Results come from each game's ScoreTable or, where a game has none, from the game's own
    Contract, Declarer and Result with its Table, Round, Section, Room, PairId_NS, PairId_EW
    (or TeamId_Home, TeamId_Away, HomeTeam, VisitTeam) tags. A game that carries a deal or a
    result but no Board is refused; a game with neither (a file's header) is read for its
    tables only. With ``faulty``, a list, a ScoreTable row refused is left out and its error
    put there instead of raised (as parse_pbn does)."""
    session = SessionFile(format="PBN", warnings=list(warnings))
    boards: dict[tuple[str, int], BoardIn] = {}
    roomless: list[ResultIn] = []
    totals: list[tuple[str, str, int, str]] = []  # (section, direction, number, name) in the totals
    printed: list[tuple[str, list[tuple[int, Fraction, Fraction]]]] = []  # each board's lines with MP_NS, MP_EW
    for game in games:
        for tag, kept in (("Generator", "generator"), ("Application", "application")):  # Ruter: [Application]
            if not getattr(session, kept) and (game.tags.get(tag) or "").strip() not in ("", "#", "##", "?"):
                setattr(session, kept, game.tags[tag].strip())
        scoring = read_scoring(game.tags.get("Scoring"))
        if scoring == "butler" and re.search(r"BUTLER-?2\b", (game.tags.get("Scoring") or "").upper()):
            session.method["butler_drop"] = "one-each-end-from-3"  # Ruter: top and bottom, from 3 results
        if scoring and scoring != session.scoring:
            if session.scoring is None:
                session.scoring, session.scoring_line = scoring, game.line
            else:
                raise PbnError(
                    game.line,
                    tagged(
                        "Scoring",
                        _(
                            "'%(value)s' differs from the Scoring of an earlier game (line %(line)s): one session is "
                            "scored one way",
                            value=game.tags.get("Scoring"),
                            line=session.scoring_line,
                        ),
                    ),
                )
        for row in game.total_score_rows:
            number = row.get("PairId") or row.get("TeamId") or row.get("PlayerId")
            name = row.get("Names") or row.get("Name") or row.get("TeamName") or ""
            if number and name and number.isdigit():
                section = (row.get("Section") or game.tags.get("Section") or "").strip().strip("?")
                totals.append((section, direction_of(row.get("Direction")), int(number), name.strip('"')))
        summary = game.tables.get("ScoreTable")
        if game.board is None:
            if game.deal is not None or game.contract or (game.score_rows and not (summary and summary.summary)):
                raise PbnError(
                    game.line,
                    tagged(
                        "Board",
                        _(
                            "the game that starts at line %(line)s has a deal or a result but no Board tag: give its "
                            "board number",
                            line=game.line,
                        ),
                    ),
                )
            continue
        section = game.tags.get("Section", "").strip().strip("?")
        key = (section, game.board)
        if key not in boards:
            boards[key] = BoardIn(
                number=game.board,
                line=game.line,
                dealer=game.dealer,
                vulnerability=game.vulnerability,
                section=section,
                deal=game.deal.to_pbn() if game.deal and game.deal.complete else "",
            )
            session.boards.append(boards[key])
        elif not boards[key].deal and game.deal and game.deal.complete:
            boards[key].deal = game.deal.to_pbn()
        table = game.tables.get("ScoreTable")
        if table is not None and table.summary:
            session.warnings.append(
                Notice(
                    game.line,
                    tagged(
                        "ScoreTable",
                        _(
                            "board %(board)s: the table has no Contract or Score column (a match summary, %(columns)s): "
                            "it holds no table results to import",
                            board=game.board,
                            columns=", ".join(c[0] for c in table.columns),
                        ),
                    ),
                )
            )
        elif table is not None:
            columns = {canonical_column(c[0]) for c in table.columns}
            if columns & set(INDIVIDUAL_COLUMNS):
                session.individual = True
            if columns & {"TeamId_Home", "TeamId_Away", "Room"}:
                session.teams = True
            shown: list[tuple[int, Fraction, Fraction] | None] = []
            for row in table.rows:
                try:
                    result = _result_in(game, row, row, section, session)
                except PbnError as error:
                    if faulty is None:
                        raise
                    faulty.append(error)
                    shown.append(None)
                    continue
                if result is not None:
                    session.results.append(result)
                    shown.append(_printed(row) if result.kind == "played" else None)
            if shown and all(line is not None for line in shown):
                printed.append((section, [line for line in shown if line is not None]))
        elif game.contract:
            tags = ScoreRow(
                {
                    canonical_column(name): value
                    for name, value in game.tags.items()
                    if value.strip() not in {"", "?", "-"}
                },
                line=game.line,
            )
            tags.contract, tags.declarer, tags.tricks = game.contract, game.declarer, game.result
            if game.tags.get("Room") or game.tags.get("HomeTeam"):
                session.teams = True
            identified = any(tags.get(c) for c in CONTESTANT_COLUMNS) or game.tags.get("HomeTeam")
            home, away = (game.tags.get("HomeTeam") or "").strip(), (game.tags.get("VisitTeam") or "").strip()
            if home and away and not game.tags.get("Room") and not tags.get("TeamId_Home"):
                # RealBridge: no Room; the home team is the one seated N-S at this table.
                session.teams = True
                result = ResultIn(board=game.board, line=game.line, section=section, home_name=home, away_name=away)
                result.table = int(game.tags["Table"]) if game.tags.get("Table", "").isdigit() else None
                result.round = int(game.tags["Round"]) if game.tags.get("Round", "").isdigit() else None
                result.contract, result.declarer = game.contract, game.declarer or ""
                result.tricks = game.result if game.contract != "PASS" else None
                roomless.append(result)
                continue
            players = players_of(game.tags)
            if not identified and players and not game.tags.get("Room"):
                # One game per table naming only its players (BBO, PbnTools): each pair is
                # known by its players' names.
                result = ResultIn(
                    board=game.board, line=game.line, section=section, ns_name=players[0], ew_name=players[1]
                )
                result.table = int(game.tags["Table"]) if game.tags.get("Table", "").isdigit() else None
                result.round = int(game.tags["Round"]) if game.tags.get("Round", "").isdigit() else None
                result.contract, result.declarer = game.contract, game.declarer or ""
                result.tricks = game.result if game.contract != "PASS" else None
                session.results.append(result)
                continue
            if not identified:
                session.left_out += 1
                session.warnings.append(
                    Notice(
                        game.line,
                        tagged(
                            "Contract",
                            _(
                                "the game's own result (%(contract)s) is not imported: it names no pairs (PairId_NS, "
                                "PairId_EW) or teams (Room with HomeTeam and VisitTeam)",
                                contract=game.contract,
                            ),
                        ),
                    )
                )
                continue
            result = _result_in(game, tags, tags, section, session)
            if result is not None:
                session.results.append(result)
    _rooms(roomless, session)
    _names(totals, session)
    # The method for boards played fewer times, as the program's printed MP_NS / MP_EW show it
    # (bridge.interchange.fewer_played_printed): the file's form, over its program's version.
    if session.scoring in (None, "matchpoints") and (fewer_played := fewer_played_printed(printed)):
        session.method["fewer_played"] = fewer_played
    return session


def _printed(row: ScoreRow) -> tuple[int, Fraction, Fraction] | None:
    """A played row's N-S score and the matchpoints printed to N-S and E-W, or None when the row
    prints no matchpoints (or not as numbers)."""
    ns, ew = (row.get("MP_NS") or "").strip(), (row.get("MP_EW") or "").strip()
    if not all(re.fullmatch(r"\d{1,4}(\.\d{1,4})?", text) for text in (ns, ew)):
        return None
    if row.score_ns is not None:
        score = row.score_ns
    elif row.score_ew is not None:
        score = -row.score_ew
    elif row.contract == "PASS":
        score = 0
    else:
        return None
    return score, Fraction(ns), Fraction(ew)


_META = r'^%\s*<META\s+name="?{}"?\s+content="([^"]+)"'
_META_GENERATOR = re.compile(_META.format("Generator"), re.I | re.M)
_META_VERSION = re.compile(_META.format("Version"), re.I | re.M)


def generator_of(text: str) -> str:
    """The program a PBN file names in its ``% <META name=Generator content="...">`` comment
    (Ruter, Magic Contest), with the version its ``Version`` comment gives ("Ruter i Norge
    4.14.2"), or ""."""
    found = _META_GENERATOR.search(text)
    if not found:
        return ""
    version = _META_VERSION.search(text)
    name = found.group(1).strip()
    return f"{name} {version.group(1).strip()}" if version and version.group(1).strip() not in name else name


def _names(totals: list[tuple[str, str, int, str]], session: SessionFile) -> None:
    """The contestants' names from the totals. A Direction column alone is not a Mitchell: Ruter
    and Magic Contest write where each pair sat (or sat first) in a Howell too, and a pair that
    sat both ways is one pair. The totals show a Mitchell when one number is listed in both
    directions (N-S pair 1 and E-W pair 1); the results show it when a number sits on both
    sides of one board (bridge.interchange.identify)."""
    directions: dict[tuple[str, int], set[str]] = {}
    for section, direction, number, _name in totals:
        directions.setdefault((section, number), set()).add(direction)
    for (section, _number), seen in directions.items():
        if {"NS", "EW"} <= seen:
            session.mitchell.add(section)
    for section, direction, number, name in totals:
        if direction:
            session.names[(section, direction, number)] = name
        if section not in session.mitchell:
            if section:
                session.names[(section, "", number)] = name
            session.names.setdefault(number, name)


def _rooms(results: list[ResultIn], session: SessionFile) -> None:
    """Team games without a Room, each naming the team seated N-S as HomeTeam (RealBridge): the
    two games of one board between the same two teams are the match's two rooms. The lower
    table number is the open room and its N-S team the match's home team; the other game, the
    teams swapped, the closed room. A game without its other room is left out with a warning."""
    groups: dict[tuple[str, int, frozenset[str]], list[ResultIn]] = {}
    for result in results:
        key = (result.section, result.board, frozenset({result.home_name.lower(), result.away_name.lower()}))
        groups.setdefault(key, []).append(result)
    for games in groups.values():
        games.sort(key=lambda r: (r.table or 0, r.line))
        if len(games) != 2 or games[0].home_name.lower() == games[1].home_name.lower():
            for result in games:
                session.left_out += 1
                session.warnings.append(
                    Notice(
                        result.line,
                        tagged(
                            "Room",
                            _(
                                "board %(board)s: %(home)s v %(away)s is not one game in each room (no Room tag, and "
                                "not two tables with the teams swapped): not imported",
                                board=result.board,
                                home=result.home_name,
                                away=result.away_name,
                            ),
                        ),
                    )
                )
            continue
        first, second = games
        first.room, second.room = "open", "closed"
        second.home_name, second.away_name = first.home_name, first.away_name
        second.table = first.table
        session.results.extend(games)


def players_of(tags: Mapping[str, str]) -> tuple[str, str] | None:
    """The two pairs of a game that names its four players: ("North - South", "East - West"),
    or one name for a pair whose two seats carry the same name (a pair's name, "Para-1")."""
    names = [(tags.get(seat) or "").strip() for seat in ("North", "South", "East", "West")]
    if any(not name or name in {"?", "-", "#", "##"} for name in names):
        return None
    ns = names[0] if names[0] == names[1] else f"{names[0]} - {names[1]}"
    ew = names[2] if names[2] == names[3] else f"{names[2]} - {names[3]}"
    return (ns, ew) if ns.lower() != ew.lower() else None


def _result_in(
    game: PbnGame, row: ScoreRow, cells: Mapping[str, str | None], section: str, session: SessionFile
) -> ResultIn | None:
    def number(column: str, required: bool = True) -> int | None:
        text = cells.get(column)
        if not text:
            if required:
                raise PbnError(row.line, tagged(column, _("the column is missing or empty")))
            return None
        if not re.fullmatch(r"\d+", text.strip()) or int(text) < 1:
            raise PbnError(row.line, tagged(column, _("'%(value)s' is not a number", value=text)))
        return int(text)

    assert game.board is not None  # session_from_pbn reads results of numbered boards only
    if row.kind == "bye":
        session.warnings.append(
            Notice(
                row.line,
                tagged(
                    "ScoreTable",
                    _(
                        "board %(board)s: a sit-out (%(text)s) has no result to record",
                        board=game.board,
                        text=row.artificial or "-",
                    ),
                ),
            )
        )
        return None
    result = ResultIn(
        board=game.board, line=row.line, section=(cells.get("Section") or section or "").strip(), kind=row.kind
    )
    result.table = number("Table", required=False)
    result.round = number("Round", required=False)
    if session.individual:
        return result  # the importer refuses individual tables as a whole
    room = (cells.get("Room") or "").strip()
    if room:
        if room.upper() not in _ROOMS:
            raise PbnError(row.line, tagged("Room", _("'%(value)s' is not a room: write Open or Closed", value=room)))
        result.room = _ROOMS[room.upper()]
    if cells.get("PairId_NS") or cells.get("PairId_EW"):
        result.ns, result.ew = number("PairId_NS"), number("PairId_EW")
    elif cells.get("TeamId_Home") or cells.get("TeamId_Away") or room:
        if not room:
            raise PbnError(row.line, tagged("Room", _("a team result needs its room (Open or Closed)")))
        if cells.get("TeamId_Home") or cells.get("TeamId_Away"):
            result.home, result.away = number("TeamId_Home"), number("TeamId_Away")
            result.ns, result.ew = (result.home, result.away) if result.room == "open" else (result.away, result.home)
        else:
            result.home_name = (game.tags.get("HomeTeam") or "").strip()
            result.away_name = (game.tags.get("VisitTeam") or "").strip()
            if not result.home_name or not result.away_name:
                raise PbnError(
                    row.line,
                    tagged(
                        "HomeTeam",
                        _(
                            "a team result names both teams: give HomeTeam and VisitTeam, or TeamId_Home and TeamId_Away"
                        ),
                    ),
                )
    else:
        raise PbnError(
            row.line,
            tagged(
                "PairId_NS",
                _(
                    "the row names no contestants: a pairs table has PairId_NS and PairId_EW, a teams table TeamId_Home, "
                    "TeamId_Away and Room, an individual PlayerId_North...PlayerId_West"
                ),
            ),
        )
    if row.kind == "played":
        result.contract = row.contract or ""
        result.declarer = row.declarer or ""
        result.tricks = row.tricks
        lead = (cells.get("Lead") or "").strip()
        result.lead = "" if lead in {"-", "?"} else lead
    elif row.kind == "artificial":
        result.score, result.code = row.adjusted, row.artificial or ""
    else:
        result.code = row.artificial or ""
    return result
