"""Read and write PBN 2.1 files as scoring programs and dealing machines export them.

``parse_pbn(text)`` returns one PbnGame per game, or raises PbnError for the first thing wrong
in the file, with its line number: a file is taken whole or not at all. ``write_pbn(games)``
writes games back (tags, deal, auction with notes, tables).

Plain Python, no Django: the importer service decides what to do with the games.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import NoReturn

from bridge.deals import (
    Deal,
    DealError,
    normalise_call,
    parse_deal,
    parse_seat,
    parse_vulnerability,
    validate_auction,
)
from bridge.engine.contract import (
    ContractError,
    board_dealer,
    board_vulnerability,
    ns_score,
    parse_contract,
    vulnerable_for,
)
from bridge.interchange import BYES, BoardIn, Notice, ResultIn, SessionFile, read_artificial, read_scoring
from bridge.messages import Message, MessageError, _

# The tags every PBN game should carry, in the order PBN writes them.
ROSTER = (
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
)

_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_QUOTED_RE = re.compile(r'"((?:[^"\\]|\\.)*)"')
_WORD_RE = re.compile(r'[^\s\[\]{};"]+')
_NOTE_REF_RE = re.compile(r"^=(\d+)=$")
_NOTE_RE = re.compile(r"^\s*(\d+)\s*:(.*)$", re.S)
_COLUMN_RE = re.compile(r"^(?P<name>[^\\]+)(?:\\(?P<width>\d+)(?P<align>[LR])?)?$")
_INT_RE = re.compile(r"^[+-]?\d+$")
_NUMBER_RE = re.compile(r"^\d+(?:[.,]\d+)?$")
_SIDE_SCORE_RE = re.compile(r"^(NS|EW|N-S|E-W)\s*([+-]?\d+)$", re.I)

# Score-table columns as the standard spells them; a file may write them in any case.
COLUMNS = (
    "Table",
    "Round",
    "Section",
    "Room",
    "PairId_NS",
    "PairId_EW",
    "TeamId_Home",
    "TeamId_Away",
    "PlayerId_North",
    "PlayerId_East",
    "PlayerId_South",
    "PlayerId_West",
    "Contract",
    "Declarer",
    "Result",
    "Lead",
    "Score_NS",
    "Score_EW",
    "Score",
    "MP_NS",
    "MP_EW",
    "IMP_NS",
    "IMP_EW",
    "IMP_Home",
    "IMP_Away",
    "Percentage_NS",
    "Percentage_EW",
    "PairId",
    "TeamId",
    "PlayerId",
    "Names",
    "Rank",
    "Direction",
)
_CANONICAL = {name.upper(): name for name in COLUMNS}
_CANONICAL.update(
    {
        "PAIR_NS": "PairId_NS",
        "PAIR_EW": "PairId_EW",
        "NS": "PairId_NS",
        "EW": "PairId_EW",
        "SCORENS": "Score_NS",
        "SCOREEW": "Score_EW",
        "PAIRIDNS": "PairId_NS",
        "PAIRIDEW": "PairId_EW",
    }
)
CONTESTANT_COLUMNS = ("PairId_NS", "PairId_EW", "TeamId_Home", "TeamId_Away")
INDIVIDUAL_COLUMNS = ("PlayerId_North", "PlayerId_East", "PlayerId_South", "PlayerId_West")


def canonical_column(name: str) -> str:
    """``pairid_ns`` -> ``PairId_NS``: a known column in its standard spelling, else as written."""
    return _CANONICAL.get(name.strip().upper(), name.strip())


class PbnError(MessageError):
    """A malformed PBN file; ``str()`` is ``line 42: Deal: North holds 14 cards: ...``, in
    English (``scoring.i18n.translate(error)`` in the reader's language)."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(_("line %(line)s: %(message)s", line=line, message=message))
        self.line = line
        self.message = message


def _tagged(tag: str, message: str) -> Message:
    """``Deal: North holds 14 cards...``: the tag (or column) at fault, then what is wrong."""
    return Message("%(tag)s: %(message)s", tag=tag, message=message)


@dataclass
class Call:
    """One call of an auction (``Pass``, ``X``, ``XX``, ``AP``, ``1C``..``7NT``) and the
    text of the note attached to it, if any."""

    call: str
    note: str | None = None


class ScoreRow(dict[str, str | None]):
    """One row of a score table: column name -> text as written (None where the file has
    ``-``), plus what the parser read from it: ``line``, ``contract`` (``"4S"``, ``"PASS"``
    or None), ``declarer``, ``tricks``, ``score_ns`` and ``score_ew`` (ints or None), and
    ``artificial``: the free text written instead of a score or contract, e.g. ``"A60"``."""

    def __init__(self, values: Mapping[str, str | None] | None = None, line: int = 0) -> None:
        super().__init__(values or {})
        self.line = line
        self.contract: str | None = None
        self.declarer: str | None = None
        self.tricks: int | None = None
        self.score_ns: int | None = None
        self.score_ew: int | None = None
        self.artificial: str | None = None
        self.kind = "played"  # or "artificial", "not_played", "bye" (a sit-out: no result at all)
        self.adjusted: dict[str, str] | None = None  # the artificial score in the engine's form, {"ns": "60%", ...}


@dataclass
class PbnTable:
    """A table section such as ScoreTable: its header as written and its rows."""

    header: str
    rows: list[ScoreRow] = field(default_factory=list)
    summary: bool = False  # a ScoreTable with no contract or score column: totals, not table results

    @property
    def columns(self) -> list[tuple[str, int, str]]:
        """``[("Table", 2, "R"), ("Contract", 5, "L"), ...]``."""
        columns = []
        for part in self.header.split(";"):
            match = _COLUMN_RE.match(part.strip())
            if not match:
                raise ValueError(_("'%(part)s' is not a column: write Name\\widthL or Name\\widthR", part=part))
            columns.append((match["name"], int(match["width"] or 0), match["align"] or "L"))
        return columns


@dataclass
class PbnGame:
    """One game (board) of a PBN file.

    ``tags`` holds every plain tag as written (``#`` resolved), in file order; the typed
    fields below are what they mean. ``dealer`` and ``vulnerability`` come from the file
    when it gives them, else from the board number. ``tables`` holds ScoreTable,
    TotalScoreTable, OptimumResultTable...; ``sections`` other sections (such as Play) as
    ``(tag value, rows of words)``, kept to be written back.
    """

    line: int = field(compare=False)
    tags: dict[str, str] = field(default_factory=dict)
    board: int | None = None
    dealer: str | None = None
    vulnerability: str | None = None
    deal: Deal | None = None
    declarer: str | None = None
    contract: str | None = None
    result: int | None = None
    auction: list[Call] = field(default_factory=list)
    auction_complete: bool = True
    tables: dict[str, PbnTable] = field(default_factory=dict)
    sections: dict[str, tuple[str, list[list[str]]]] = field(default_factory=dict)

    @property
    def score_rows(self) -> list[ScoreRow]:
        table = self.tables.get("ScoreTable")
        return table.rows if table else []

    @property
    def total_score_rows(self) -> list[ScoreRow]:
        table = self.tables.get("TotalScoreTable")
        return table.rows if table else []


# --- Reading -----------------------------------------------------------------------------


@dataclass
class _Token:
    kind: str  # "tag", "word" or "blank"
    line: int
    name: str = ""
    value: str = ""
    quoted: bool = False


def _unescape(value: str) -> str:
    return re.sub(r'\\(["\\])', r"\1", value)


def _tag_error(rest: str) -> Message:
    """Say what is wrong with a tag that starts at ``rest`` but does not match."""
    match = re.match(r"\[\s*([A-Za-z0-9_]*)\s*(\"?)", rest)
    assert match is not None  # rest starts with "[": the pattern's parts may all be empty
    name, quote = match[1], match[2]
    if not name:
        return _('a tag is [Name "value"]: this one has no name')
    if not quote:
        return _('%(tag)s: the value must be in double quotes, e.g. [%(tag)s "value"]', tag=name)
    after = rest[match.end() :]
    if not re.search(r'(?<!\\)"', after.replace("\\\\", "")):
        return _tagged(name, _("the tag is not terminated: the value has no closing quote"))
    return _tagged(name, _("the tag is not terminated: ] is missing"))


def _scan(text: str) -> Iterator[_Token]:
    """Tokens of a PBN text: tags, words of section data and blank lines, skipping
    comments and ``%`` lines."""
    in_comment_since: int | None = None
    for number, line in enumerate(text.splitlines(), 1):
        pos = 0
        if in_comment_since is not None:
            end = line.find("}")
            if end < 0:
                continue
            in_comment_since, pos = None, end + 1
        elif line.startswith("%"):
            continue
        elif not line.strip():
            yield _Token("blank", number)
            continue
        while pos < len(line):
            char = line[pos]
            if char.isspace():
                pos += 1
            elif char == ";":
                break
            elif char == "{":
                end = line.find("}", pos)
                if end < 0:
                    in_comment_since = number
                    break
                pos = end + 1
            elif char == "[":
                match = _TAG_RE.match(line, pos)
                if not match:
                    raise PbnError(number, _tag_error(line[pos:]))
                yield _Token("tag", number, match[1], _unescape(match[2]))
                pos = match.end()
            elif char == '"':
                match = _QUOTED_RE.match(line, pos)
                if not match:
                    raise PbnError(number, _("a quoted value has no closing quote"))
                yield _Token("word", number, value=_unescape(match[1]), quoted=True)
                pos = match.end()
            else:
                match = _WORD_RE.match(line, pos)
                if not match:
                    raise PbnError(number, _("'%(char)s' is out of place here", char=char))
                yield _Token("word", number, value=match[0])
                pos = match.end()
    if in_comment_since is not None:
        raise PbnError(in_comment_since, _("a comment opened with { is never closed with }"))


_RawGame = list[tuple[_Token, list[_Token]]]


def _raw_games(text: str) -> Iterator[_RawGame]:
    """Group tokens into games: ``[(tag token, [data tokens])...]`` per game."""
    game: _RawGame = []
    for token in _scan(text):
        if token.kind == "blank":
            if game:
                yield game
            game = []
        elif token.kind == "tag":
            game.append((token, []))
        elif not game:
            raise PbnError(token.line, _("'%(word)s' is outside any tag", word=token.value))
        else:
            game[-1][1].append(token)
    if game:
        yield game


def _is_table(name: str) -> bool:
    return name.endswith("Table") and name != "Table"  # [Table "3"] is a table's number


def parse_pbn(text: str, warnings: list[Notice] | None = None) -> list[PbnGame]:
    """Read a PBN file's text into a list of PbnGame; raise PbnError on the first error.

    Nothing is returned for a file with an error: the caller gets all the games or none.
    ``warnings``, a list, receives a :class:`bridge.interchange.Notice` for each thing
    read past (a repeated tag, a note reference without its note...).

    A board may be given by several games, one per table result (same Board, own Contract,
    Declarer, Result); their deals must agree. ``#`` takes the value of the tag in the latest
    earlier game that has it; ``##`` does that and carries it into the following games that
    leave the tag out.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    warnings = [] if warnings is None else warnings
    games: list[PbnGame] = []
    boards_seen: dict[tuple[str, int], tuple[PbnGame, int | None]] = {}
    state: dict[str, dict[str, str]] = {"seen": {}, "sticky": {}}
    for raw in _raw_games(text):
        game, board_line = _read_game(raw, state, warnings)
        if game.board is not None:
            key = (game.tags.get("Section", ""), game.board)
            if key in boards_seen:
                first, first_line = boards_seen[key]
                pairs: tuple[tuple[str, object, object], ...] = (
                    ("Deal", game.deal, first.deal),
                    ("Dealer", game.dealer, first.dealer),
                    ("Vulnerable", game.vulnerability, first.vulnerability),
                )
                for label, mine, theirs in pairs:
                    if mine is not None and theirs is not None and mine != theirs:
                        raise PbnError(
                            board_line,
                            _tagged(
                                "Board",
                                _(
                                    "board %(board)s appears twice in this file with a different %(tag)s (first at line "
                                    "%(line)s): games of one board must agree",
                                    board=game.board,
                                    tag=label,
                                    line=first_line,
                                ),
                            ),
                        )
                if first.deal is None and game.deal is not None:
                    boards_seen[key] = (game, first_line)
            else:
                boards_seen[key] = (game, board_line)
        games.append(game)
    return games


def read_pbn(path: str | os.PathLike[str], warnings: list[Notice] | None = None) -> list[PbnGame]:
    """Read a PBN file from disk (UTF-8 with or without BOM, else Windows-1252/Latin-1)."""
    from bridge.interchange import decode

    with open(path, "rb") as handle:
        data = handle.read()
    return parse_pbn(decode(data), warnings)


def _read_game(raw: _RawGame, state: dict[str, dict[str, str]], warnings: list[Notice]) -> tuple[PbnGame, int | None]:
    """One game from its tags and their data. ``state["seen"]`` holds the latest value of each
    tag in the earlier games (for ``#``), ``state["sticky"]`` the ``##`` values carried on.
    Returns (game, line of its Board tag)."""
    first_line = raw[0][0].line
    seen, sticky = state["seen"], state["sticky"]
    resolved: dict[str, str] = {}  # every tag's value with "#" resolved: a later game may inherit it
    lines: dict[str, int] = {}
    data: dict[str, list[_Token]] = {}
    notes: dict[int, str] = {}
    tags: dict[str, str] = {}
    for token, words in raw:
        name, value = token.name, token.value
        if value in {"#", "##"}:
            if name not in seen:
                raise PbnError(
                    token.line,
                    _tagged(
                        name, _("'#' repeats the previous game's value, but there is no earlier %(tag)s", tag=name)
                    ),
                )
            if value == "##":
                sticky[name] = seen[name]
            value = seen[name]
        elif name in sticky:
            del sticky[name]  # a value of its own ends the ## carry
        if name == "Note":
            match = _NOTE_RE.match(value)
            if not match:
                raise PbnError(
                    token.line,
                    _tagged("Note", _("'%(value)s' is not a note: write number:text, e.g. 1:Stayman", value=value)),
                )
            notes[int(match[1])] = match[2]
            continue
        if name in lines:
            if name == "Board" and value.strip() != resolved[name].strip():
                raise PbnError(
                    token.line,
                    _tagged(
                        name,
                        _(
                            "a second %(tag)s tag in the same game (the first is at line %(line)s): games are separated "
                            "by a blank line",
                            tag=name,
                            line=lines[name],
                        ),
                    ),
                )
            # PBN 2.1: a tag given twice in a game counts once, the first time.
            warnings.append(
                Notice(
                    token.line,
                    _tagged(
                        name,
                        _(
                            "a second %(tag)s tag in the same game (the first is at line %(line)s) is ignored",
                            tag=name,
                            line=lines[name],
                        ),
                    ),
                )
            )
            continue
        if words and name not in {"Auction", "Play"} and not _is_table(name):
            raise PbnError(
                words[0].line,
                _("'%(word)s' after the %(tag)s tag is outside any section", word=words[0].value, tag=name),
            )
        resolved[name], lines[name], data[name] = value, token.line, words
        if name != "Auction" and name != "Play" and not _is_table(name):
            tags[name] = value
    for name, value in sticky.items():
        if name not in resolved:
            resolved[name], lines[name], data[name] = value, first_line, []
            tags[name] = value
    for name, value in resolved.items():
        if name not in {"Auction", "Play"} and not _is_table(name):
            seen[name] = value

    def known(name: str) -> str | None:
        value = resolved.get(name)
        if value is None or value.strip() in {"", "?"} or (value.strip() == "-" and name in {"Declarer", "Result"}):
            return None  # "-": no declarer and no result, as programs write for a passed-out board
        return value.strip()

    def fail(name: str, message: str) -> NoReturn:
        raise PbnError(lines[name], _tagged(name, message))

    game = PbnGame(line=first_line, tags=tags)

    board = known("Board")
    if board:
        if not re.fullmatch(r"\d+", board) or int(board) < 1:
            fail(
                "Board",
                _("'%(board)s' is not a board number: a board number is a positive whole number", board=board),
            )
        game.board = int(board)
    try:
        game.dealer = parse_seat(known("Dealer")) if known("Dealer") else None
    except DealError as exc:
        fail("Dealer", exc.message)
    try:
        vulnerable = known("Vulnerable")
        if vulnerable:
            game.vulnerability = parse_vulnerability(_vulnerable(vulnerable))
    except DealError as exc:
        fail("Vulnerable", exc.message)
    if game.dealer is None and known("Auction"):
        try:
            game.dealer = parse_seat(known("Auction"))
        except DealError as exc:
            fail("Auction", exc.message)
    if game.board is not None:  # the file's own Dealer and Vulnerable win over the cycle
        game.dealer = game.dealer or board_dealer(game.board)
        game.vulnerability = game.vulnerability or board_vulnerability(game.board)
    if known("Deal"):
        try:
            game.deal = parse_deal(known("Deal"), allow_partial=True)
        except DealError as exc:
            fail("Deal", exc.message)

    declarer_text = known("Declarer")
    if declarer_text:
        try:
            game.declarer = parse_seat(declarer_text.lstrip("^"), "declarer")
        except DealError as exc:
            fail("Declarer", exc.message)
    if known("Contract"):
        try:
            game.contract = str(parse_contract(known("Contract")))
        except ContractError as exc:
            fail("Contract", exc.message)
    result_text = known("Result")
    if result_text:

        def fail_result(message: str) -> NoReturn:
            fail("Result", message)

        game.result = _result(result_text, game.declarer, fail_result)

    if "Auction" in resolved:
        contract, declarer = _read_auction(
            game, resolved["Auction"], lines["Auction"], data["Auction"], notes, warnings
        )
        # The Contract and Declarer tags must be where the auction ended.
        if (
            contract
            and game.contract
            and (contract != game.contract or (contract != "PASS" and declarer != game.declarer))
        ):
            said = {"contract": game.contract, "declarer": game.declarer or "?"}
            fail(
                "Contract",
                _("%(contract)s by %(declarer)s does not match the auction, which ends in a pass-out", **said)
                if contract == "PASS"
                else _(
                    "%(contract)s by %(declarer)s does not match the auction, which ends in %(played)s by %(by)s",
                    played=contract,
                    by=declarer,
                    **said,
                ),
            )
    if "Play" in resolved:
        rows = [[word.value for word in row] for row in _group(data["Play"])]
        game.sections["Play"] = (resolved["Play"], rows)
    for name in resolved:
        if _is_table(name):
            game.tables[name] = _read_table(game, name, resolved[name], lines[name], data[name])
    return game, lines.get("Board")


def _vulnerable(text: str) -> str:
    """``N-S`` and ``E-W`` (as several programs write them) read as NS and EW."""
    squeezed = text.replace(" ", "")
    return squeezed.replace("-", "") if len(squeezed) == 3 and squeezed[1] == "-" else text


def _result(text: str, declarer: str | None, fail: Callable[[str], NoReturn]) -> int:
    """A game's Result: declarer's tricks (``9``), or a side's tricks (``NS 11``, ``EW 9``), with
    a claim marker ``^`` or a note reference (``=1=``) left aside."""
    text = re.sub(r"=\d+=", "", text).replace("^", " ").strip()
    both = re.fullmatch(r"(NS|EW|N-S|E-W)\s*(\d+)\s*[,;]?\s*(NS|EW|N-S|E-W)\s*(\d+)", text, re.I)
    if both and both[1].upper().replace("-", "") != both[3].upper().replace("-", ""):
        # Both sides' tricks ("NS 9 EW 4", as some programs write): the first side's count.
        text = f"{both[1]} {both[2]}"
    match = re.fullmatch(r"(NS|EW|N-S|E-W)\s*(\d+)", text, re.I)
    if match:
        side = match[1].upper().replace("-", "")
        tricks = _tricks(match[2], fail)
        if declarer is None:
            fail(_("'%(text)s' gives the tricks of a side, but the game has no Declarer", text=text))
        return tricks if (declarer in "NS") == (side == "NS") else 13 - tricks
    return _tricks(text.split()[0] if text else text, fail)


def _tricks(text: str, fail: Callable[[str], NoReturn]) -> int:
    if not re.fullmatch(r"\d+", text) or int(text) > 13:
        fail(_("'%(text)s' is not a number of tricks: declarer takes 0 to 13", text=text))
    return int(text)


def _read_auction(
    game: PbnGame, value: str, line: int, words: list[_Token], notes: dict[int, str], warnings: list[Notice]
) -> tuple[str | None, str | None]:
    """Read the auction into ``game.auction``; return where it ended as validate_auction
    does."""
    try:
        start = parse_seat(value)
    except DealError as exc:
        raise PbnError(line, _tagged("Auction", exc.message)) from None
    if game.dealer and start != game.dealer:
        raise PbnError(
            line,
            _tagged(
                "Auction",
                _("the auction starts with %(start)s but the dealer is %(dealer)s", start=start, dealer=game.dealer),
            ),
        )
    calls: list[Call] = []
    call_lines: list[int] = []
    complete = True
    for word in words:
        text = word.value
        ref = _NOTE_REF_RE.match(text)
        if ref:
            if not calls:
                raise PbnError(word.line, _tagged("Auction", _("the note %(note)s comes before any call", note=text)))
            number = int(ref[1])
            if number not in notes:
                warnings.append(
                    Notice(
                        word.line,
                        _tagged(
                            "Auction",
                            _(
                                'the note %(note)s has no [Note "%(number)s:..."]: the call is kept with an empty note',
                                note=text,
                                number=number,
                            ),
                        ),
                    )
                )
            note = notes.get(number, "")
            calls[-1].note = note if calls[-1].note is None else f"{calls[-1].note}; {note}"
        elif text.startswith("$"):
            continue  # a NAG annotation: nothing to score
        elif text == "*":
            complete = False
        else:
            calls.append(Call(text.rstrip("!?") or text))
            call_lines.append(word.line)
    try:
        contract = validate_auction(start, [c.call for c in calls], complete)
    except DealError as exc:
        at = call_lines[exc.index] if exc.index is not None else (call_lines or [line])[-1]
        if not complete or exc.index is not None:
            raise PbnError(at, _tagged("Auction", exc.message)) from None
        try:  # the calls are legal but the auction does not end: kept as unfinished
            contract = validate_auction(start, [c.call for c in calls], False)
        except DealError:
            raise PbnError(at, _tagged("Auction", exc.message)) from None
        complete = False
        warnings.append(
            Notice(
                at,
                _tagged(
                    "Auction",
                    _(
                        "%(message)s: the auction is kept as unfinished (the result does not need it)",
                        message=exc.message,
                    ),
                ),
            )
        )
    for call in calls:
        call.call = normalise_call(call.call)
    game.auction, game.auction_complete = calls, complete
    return contract


def _read_table(game: PbnGame, name: str, header: str, line: int, words: list[_Token]) -> PbnTable:
    table = PbnTable(header)
    try:
        columns = [canonical_column(c[0]) for c in table.columns]
    except ValueError as exc:
        raise PbnError(line, _tagged(name, exc.args[0] if exc.args else str(exc))) from None
    if name == "ScoreTable" and not set(columns) & {"Contract", "Score", "Score_NS", "Score_EW", "Result"}:
        # A match or session summary (Ruter writes one per match: teams, IMPs, VPs), not the
        # results at the tables: nothing in it to record, as the scores are recalculated here.
        table.summary = True
    for cells in _group(words):
        row_line = cells[0].line
        if len(cells) != len(columns):
            raise PbnError(
                row_line,
                _tagged(
                    name,
                    _(
                        "the row has %(n)s columns but the header names %(m)s (%(columns)s)",
                        n=len(cells),
                        m=len(columns),
                        columns=", ".join(columns),
                    ),
                ),
            )
        row = ScoreRow(
            {
                column: (None if cell.value == "-" and not cell.quoted else cell.value)
                for column, cell in zip(columns, cells)
            },
            line=row_line,
        )
        if name == "ScoreTable" and not table.summary:
            _check_score_row(game, row)
        table.rows.append(row)
    return table


def _group(words: list[_Token]) -> list[list[_Token]]:
    """Section words grouped by line: one row of a table per line."""
    rows: dict[int, list[_Token]] = {}
    for word in words:
        rows.setdefault(word.line, []).append(word)
    return list(rows.values())


def _check_score_row(game: PbnGame, row: ScoreRow) -> None:
    """Read a ScoreTable row's contract, declarer, tricks and scores, and check the scores
    against Law 77."""

    def fail(column: str, message: str) -> NoReturn:
        raise PbnError(row.line, _tagged(column, message))

    def fail_result(message: str) -> NoReturn:
        fail("Result", message)

    contract = row.get("Contract")
    if contract:
        if contract[0].isdigit() or contract.upper() in {"PASS", "P", "AP"}:
            try:
                row.contract = str(parse_contract(contract))
            except ContractError as exc:
                fail("Contract", exc.message)
        else:
            row.artificial = contract  # "Bye", "A60", "NP": not a contract, keep as written
    declarer = row.get("Declarer")
    if declarer:
        try:
            row.declarer = parse_seat(declarer.lstrip("^"), "declarer")
        except DealError as exc:
            fail("Declarer", exc.message)
    result = row.get("Result")
    if result:
        row.tricks = _tricks(re.sub(r"=\d+=|\^", "", result).strip(), fail_result)

    codes: dict[str, str] = {}  # column -> free text written instead of a score
    score = row.get("Score")
    if score:  # one column for both sides: "NS 420", "EW 50" or N-S's score
        match = _SIDE_SCORE_RE.match(score.strip())
        if match:
            value = int(match[2])
            row.score_ns = value if match[1].upper().replace("-", "") == "NS" else -value
        elif _INT_RE.match(score):
            row.score_ns = int(score)
        else:
            codes["Score"] = score
    for column, attribute in (("Score_NS", "score_ns"), ("Score_EW", "score_ew")):
        text = row.get(column)
        if text and _INT_RE.match(text):
            setattr(row, attribute, int(text))
        elif text:
            codes[column] = text
    for column in ("MP_NS", "MP_EW"):
        text = row.get(column)
        if text and not _NUMBER_RE.match(text):
            row.artificial = row.artificial or text
            if row.contract is None and not codes.get("Score_NS") and not codes.get("Score_EW"):
                codes[column] = text
    row.artificial = row.artificial or next(iter(codes.values()), None)

    contestants = [row.get(c) for c in CONTESTANT_COLUMNS + INDIVIDUAL_COLUMNS if c in row]
    if any((text or "").upper() in BYES for text in contestants + [contract, *codes.values()]):
        row.kind = "bye"
        return
    if row.contract is None:
        if row.score_ns is not None or row.score_ew is not None:
            fail("Contract", _("the row has a score but no contract"))
        if not row.artificial:
            if any(text is None for text in contestants):
                row.kind = "bye"  # a table with one pair missing: a sit-out
                return
            fail(
                "Contract",
                _(
                    "the row has neither a contract nor a score: write the result, an artificial "
                    "score (A60, A+, 60%%...) or NP for a board not played"
                ),
            )
        ns_text = codes.get("Score_NS") or codes.get("Score") or codes.get("MP_NS")
        ew_text = codes.get("Score_EW") or codes.get("MP_EW")
        column = next((c for c in ("Score_NS", "Score", "MP_NS", "Score_EW", "MP_EW") if c in codes), "Contract")
        if ns_text is None and ew_text is None:
            ns_text = row.artificial
        try:
            row.kind, row.adjusted = read_artificial(ns_text, ew_text)
        except ValueError as exc:
            fail(column, exc.args[0])
        return

    if row.contract is None or (row.score_ns is None and row.score_ew is None):
        return
    passed_out = row.contract == "PASS"
    if not passed_out and row.declarer is None:
        fail("Declarer", _("%(contract)s is scored but has no declarer", contract=row.contract))
    if not passed_out and row.tricks is None:
        fail(
            "Result",
            _("%(contract)s by %(declarer)s is scored but has no result", contract=row.contract, declarer=row.declarer),
        )
    if not passed_out and game.vulnerability is None:
        fail(
            "Score_NS",
            _(
                "the board's vulnerability is not known, so the score cannot be "
                "checked: give the Board number or a Vulnerable tag"
            ),
        )
    expected = 0 if passed_out else ns_score(row.contract, row.declarer, row.tricks, game.vulnerability)
    if passed_out:
        played = _("a passed-out board")
    else:
        vulnerable = vulnerable_for(row.declarer, game.vulnerability)
        made = {"contract": row.contract, "declarer": row.declarer, "n": row.tricks}
        if row.tricks == 1:
            played = (
                _("%(contract)s by %(declarer)s making %(n)s trick, vulnerable", **made)
                if vulnerable
                else _("%(contract)s by %(declarer)s making %(n)s trick, not vulnerable", **made)
            )
        else:
            played = (
                _("%(contract)s by %(declarer)s making %(n)s tricks, vulnerable", **made)
                if vulnerable
                else _("%(contract)s by %(declarer)s making %(n)s tricks, not vulnerable", **made)
            )
    for column, written, want in (("Score_NS", row.score_ns, expected), ("Score_EW", row.score_ew, -expected)):
        if written is not None and written != want:
            raise PbnError(
                row.line,
                _(
                    "%(column)s %(value)s does not match %(played)s: Law 77 gives %(want)s",
                    column=column,
                    value=written,
                    played=played,
                    want=want,
                ),
            )


# --- Writing -----------------------------------------------------------------------------


def _quote_tag(value: object) -> str:
    return str(value).replace('"', '\\"')


def _cell(value: object, width: int, align: str) -> str:
    text = "-" if value is None else str(value)
    if text == "" or re.search(r'[\s";{}\[\]]', text) or (text == "-" and value is not None):
        text = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text.ljust(width) if align == "L" else text.rjust(width)


def write_pbn(games: Iterable[PbnGame]) -> str:
    """Write ``games`` as PBN 2.1 text (export style: the deal starts with the dealer)."""
    out = ["% PBN 2.1", "% EXPORT", ""]
    for game in games:
        tags: dict[str, object] = dict(game.tags)
        typed: dict[str, object] = {
            "Board": game.board,
            "Dealer": game.dealer,
            "Vulnerable": game.vulnerability,
            "Deal": game.deal.to_pbn(game.dealer or "N") if game.deal else None,
            "Declarer": game.declarer,
            "Result": game.result,
            "Contract": "Pass" if game.contract == "PASS" else game.contract,
        }
        tags.update({name: value for name, value in typed.items() if value is not None})
        order = [name for name in ROSTER if name in tags]
        order += [name for name in tags if name not in ROSTER]
        out += [f'[{name} "{_quote_tag(tags[name])}"]' for name in order]

        if game.auction:
            out.append(f'[Auction "{game.dealer or "N"}"]')
            notes: list[str] = []
            words: list[str] = []
            for call in game.auction:
                words.append(call.call)
                if call.note is not None:
                    notes.append(call.note)
                    words[-1] += f" ={len(notes)}="
            if not game.auction_complete:
                words.append("*")
            out += [" ".join(words[i : i + 4]) for i in range(0, len(words), 4)]
            out += [f'[Note "{n}:{_quote_tag(text)}"]' for n, text in enumerate(notes, 1)]
        for name, (value, rows) in game.sections.items():
            out.append(f'[{name} "{_quote_tag(value)}"]')
            out += [" ".join(row) for row in rows]
        for name, table in game.tables.items():
            out.append(f'[{name} "{_quote_tag(table.header)}"]')
            columns = table.columns
            for row in table.rows:
                out.append(
                    " ".join(_cell(row.get(canonical_column(c)), width, align) for c, width, align in columns).rstrip()
                )
        out.append("")
    return "\n".join(out)


# --- A session's results ---------------------------------------------------------------------

_DIRECTIONS = {"NS": "NS", "N-S": "NS", "N": "NS", "EW": "EW", "E-W": "EW", "E": "EW"}
_ROOMS = {"OPEN": "open", "O": "open", "CLOSED": "closed", "C": "closed", "CLOSE": "closed"}


def session_from_pbn(games: Iterable[PbnGame], warnings: Iterable[Notice | str] = ()) -> SessionFile:
    """The boards and table results of parsed games, as a :class:`SessionFile`.

    Results come from each game's ScoreTable or, where a game has none, from the game's own
    Contract, Declarer and Result with its Table, Round, Section, Room, PairId_NS, PairId_EW
    (or TeamId_Home, TeamId_Away, HomeTeam, VisitTeam) tags. A game that carries a deal or a
    result but no Board is refused; a game with neither (a file's header) is read for its
    tables only."""
    session = SessionFile(format="PBN", warnings=list(warnings))
    boards: dict[tuple[str, int], BoardIn] = {}
    for game in games:
        if not session.generator and (game.tags.get("Generator") or "").strip() not in ("", "#", "##", "?"):
            session.generator = game.tags["Generator"].strip()
        scoring = read_scoring(game.tags.get("Scoring"))
        if scoring and scoring != session.scoring:
            if session.scoring is None:
                session.scoring, session.scoring_line = scoring, game.line
            else:
                raise PbnError(
                    game.line,
                    _tagged(
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
                direction = _DIRECTIONS.get((row.get("Direction") or "").strip().upper(), "")
                if direction:
                    session.mitchell.add(section)
                if direction or section:
                    session.names[(section, direction, int(number))] = name.strip('"')
                if not direction:
                    session.names[int(number)] = name.strip('"')
        summary = game.tables.get("ScoreTable")
        if game.board is None:
            if game.deal is not None or game.contract or (game.score_rows and not (summary and summary.summary)):
                raise PbnError(
                    game.line,
                    _tagged(
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
                    _tagged(
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
            for row in table.rows:
                result = _result_in(game, row, row, section, session)
                if result is not None:
                    session.results.append(result)
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
                session.warnings.append(
                    Notice(
                        game.line,
                        _tagged(
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
    return session


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
                raise PbnError(row.line, _tagged(column, _("the column is missing or empty")))
            return None
        if not re.fullmatch(r"\d+", text.strip()) or int(text) < 1:
            raise PbnError(row.line, _tagged(column, _("'%(value)s' is not a number", value=text)))
        return int(text)

    assert game.board is not None  # session_from_pbn reads results of numbered boards only
    if row.kind == "bye":
        session.warnings.append(
            Notice(
                row.line,
                _tagged(
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
            raise PbnError(row.line, _tagged("Room", _("'%(value)s' is not a room: write Open or Closed", value=room)))
        result.room = _ROOMS[room.upper()]
    if cells.get("PairId_NS") or cells.get("PairId_EW"):
        result.ns, result.ew = number("PairId_NS"), number("PairId_EW")
    elif cells.get("TeamId_Home") or cells.get("TeamId_Away") or room:
        if not room:
            raise PbnError(row.line, _tagged("Room", _("a team result needs its room (Open or Closed)")))
        if cells.get("TeamId_Home") or cells.get("TeamId_Away"):
            result.home, result.away = number("TeamId_Home"), number("TeamId_Away")
            result.ns, result.ew = (result.home, result.away) if result.room == "open" else (result.away, result.home)
        else:
            result.home_name = (game.tags.get("HomeTeam") or "").strip()
            result.away_name = (game.tags.get("VisitTeam") or "").strip()
            if not result.home_name or not result.away_name:
                raise PbnError(
                    row.line,
                    _tagged(
                        "HomeTeam",
                        _(
                            "a team result names both teams: give HomeTeam and VisitTeam, or TeamId_Home and TeamId_Away"
                        ),
                    ),
                )
    else:
        raise PbnError(
            row.line,
            _tagged(
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
