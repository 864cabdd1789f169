"""PBN 2.1: reading a file's text into games (``parse_pbn``), with every refusal naming its line
and tag. Part of :mod:`bridge.pbn`, which gives the public names.

Plain Python, no Django.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import NoReturn

from bridge.deals import (
    DealError,
    normalise_call,
    parse_deal,
    parse_seat,
    parse_vulnerability,
    validate_auction,
)
from bridge.engine.contract import (
    PASS_WORDS,
    ContractError,
    board_dealer,
    board_vulnerability,
    ns_score,
    parse_contract,
    vulnerable_for,
)
from bridge.interchange import BYES, Notice, read_artificial
from bridge.messages import Message, _
from bridge.pbn_model import (
    CONTESTANT_COLUMNS,
    INDIVIDUAL_COLUMNS,
    INT_RE,
    NOTE_RE,
    NOTE_REF_RE,
    NUMBER_RE,
    QUOTED_RE,
    SIDE_SCORE_RE,
    TAG_RE,
    WORD_RE,
    Call,
    PbnError,
    PbnGame,
    PbnTable,
    ScoreRow,
    canonical_column,
    tagged,
)

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
        return tagged(name, _("the tag is not terminated: the value has no closing quote"))
    return tagged(name, _("the tag is not terminated: ] is missing"))


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
                match = TAG_RE.match(line, pos)
                if not match:
                    raise PbnError(number, _tag_error(line[pos:]))
                yield _Token("tag", number, match[1], _unescape(match[2]))
                pos = match.end()
            elif char == '"':
                match = QUOTED_RE.match(line, pos)
                if not match:
                    raise PbnError(number, _("a quoted value has no closing quote"))
                yield _Token("word", number, value=_unescape(match[1]), quoted=True)
                pos = match.end()
            else:
                match = WORD_RE.match(line, pos)
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


def parse_pbn(text: str, warnings: list[Notice] | None = None, faulty: list[PbnError] | None = None) -> list[PbnGame]:
    """Read a PBN file's text into a list of PbnGame; raise PbnError on the first error.

    Nothing is returned for a file with an error: the caller gets all the games or none.
    ``warnings``, a list, receives a :class:`bridge.interchange.Notice` for each thing
    read past (a repeated tag, a note reference without its note...). With ``faulty``, a list,
    a ScoreTable row that is refused is left out of its table and its error put there instead
    of raised, so a file with faulty rows is still read once (scoring/importers/faulty_rows.py).

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
        game, board_line = _read_game(raw, state, warnings, faulty)
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
                            tagged(
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


def _read_game(
    raw: _RawGame, state: dict[str, dict[str, str]], warnings: list[Notice], faulty: list[PbnError] | None = None
) -> tuple[PbnGame, int | None]:
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
                    tagged(name, _("'#' repeats the previous game's value, but there is no earlier %(tag)s", tag=name)),
                )
            if value == "##":
                sticky[name] = seen[name]
            value = seen[name]
        elif name in sticky:
            del sticky[name]  # a value of its own ends the ## carry
        if name == "Note":
            match = NOTE_RE.match(value)
            if not match:
                raise PbnError(
                    token.line,
                    tagged("Note", _("'%(value)s' is not a note: write number:text, e.g. 1:Stayman", value=value)),
                )
            notes[int(match[1])] = match[2]
            continue
        if name in lines:
            if name == "Board" and value.strip() != resolved[name].strip():
                raise PbnError(
                    token.line,
                    tagged(
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
                    tagged(
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
        raise PbnError(lines[name], tagged(name, message))

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
        if name in _TIME_TABLES and resolved[name].strip().upper() in {"N", "E", "S", "W"}:
            # BBO Helper's timing: [AuctionTimeTable "N"] (the seat of the first call, not a
            # header) and the seconds each call or card took, four a row. The times say
            # nothing of the result: kept as the section's rows, not read as a table.
            game.sections[name] = (resolved[name], [[word.value for word in row] for row in _group(data[name])])
            continue
        if _is_table(name):
            game.tables[name] = _read_table(game, name, resolved[name], lines[name], data[name], faulty)
    return game, lines.get("Board")


_TIME_TABLES = ("AuctionTimeTable", "PlayTimeTable")


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
        raise PbnError(line, tagged("Auction", exc.message)) from None
    if game.dealer and start != game.dealer:
        raise PbnError(
            line,
            tagged(
                "Auction",
                _("the auction starts with %(start)s but the dealer is %(dealer)s", start=start, dealer=game.dealer),
            ),
        )
    calls: list[Call] = []
    call_lines: list[int] = []
    complete = True
    for word in words:
        text = word.value
        ref = NOTE_REF_RE.match(text)
        if ref:
            if not calls:
                raise PbnError(word.line, tagged("Auction", _("the note %(note)s comes before any call", note=text)))
            number = int(ref[1])
            if number not in notes:
                warnings.append(
                    Notice(
                        word.line,
                        tagged(
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
    if _unknown_call(game, calls, call_lines, warnings):
        return None, None
    try:
        contract = validate_auction(start, [c.call for c in calls], complete)
    except DealError as exc:
        at = call_lines[exc.index] if exc.index is not None else (call_lines or [line])[-1]
        if not complete or exc.index is not None:
            raise PbnError(at, tagged("Auction", exc.message)) from None
        try:  # the calls are legal but the auction does not end: kept as unfinished
            contract = validate_auction(start, [c.call for c in calls], False)
        except DealError:
            raise PbnError(at, tagged("Auction", exc.message)) from None
        complete = False
        warnings.append(
            Notice(
                at,
                tagged(
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


def _unknown_call(game: PbnGame, calls: list[Call], call_lines: list[int], warnings: list[Notice]) -> bool:
    """Whether the auction holds a call that is not one (the PBN standard's ``-`` for a call
    nobody recorded, or a mistyped ``1Z``): then the auction is left out of the game with a
    warning naming the board and the call, and the game is read without it (the result is the
    Contract, Declarer and Result tags'), instead of refusing the whole file for one word."""
    for index, call in enumerate(calls):
        try:
            normalise_call(call.call)
        except DealError:
            warnings.append(
                Notice(
                    call_lines[index],
                    tagged(
                        "Auction",
                        _(
                            "board %(board)s: '%(call)s' (call %(n)s) is not a call (Pass, X, XX, AP or a bid from "
                            "1C to 7NT): the auction is left out, the board's result kept",
                            board=game.board if game.board is not None else "?",
                            call=call.call,
                            n=index + 1,
                        ),
                    ),
                )
            )
            game.auction, game.auction_complete = [], False
            return True
    return False


def _read_table(
    game: PbnGame, name: str, header: str, line: int, words: list[_Token], faulty: list[PbnError] | None = None
) -> PbnTable:
    table = PbnTable(header)
    try:
        columns = [canonical_column(c[0]) for c in table.columns]
    except ValueError as exc:
        raise PbnError(line, tagged(name, exc.args[0] if exc.args else str(exc))) from None
    if name == "ScoreTable" and not set(columns) & {"Contract", "Score", "Score_NS", "Score_EW", "Result"}:
        # A match or session summary (Ruter writes one per match: teams, IMPs, VPs), not the
        # results at the tables: nothing in it to record, as the scores are recalculated here.
        table.summary = True
    for cells in _group(words):
        try:
            row = _read_row(game, name, table, columns, cells)
        except PbnError as error:
            if faulty is None or name != "ScoreTable":
                raise
            faulty.append(error)  # the row is left out; the caller decides whether the file is read
            continue
        table.rows.append(row)
    return table


def _read_row(game: PbnGame, name: str, table: PbnTable, columns: list[str], cells: list[_Token]) -> ScoreRow:
    """One row of a table, a ScoreTable's checked against Law 77; PbnError at the row's line."""
    row_line = cells[0].line
    if len(cells) != len(columns):
        raise PbnError(
            row_line,
            tagged(
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
    return row


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
        raise PbnError(row.line, tagged(column, message))

    def fail_result(message: str) -> NoReturn:
        fail("Result", message)

    contract = row.get("Contract")
    if contract:
        if contract[0].isdigit() or contract.strip().upper() in PASS_WORDS:
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
        match = SIDE_SCORE_RE.match(score.strip())
        if match:
            value = int(match[2])
            row.score_ns = value if match[1].upper().replace("-", "") == "NS" else -value
        elif INT_RE.match(score):
            row.score_ns = int(score)
        else:
            codes["Score"] = score
    for column, attribute in (("Score_NS", "score_ns"), ("Score_EW", "score_ew")):
        text = row.get(column)
        if text and INT_RE.match(text):
            setattr(row, attribute, int(text))
        elif text:
            codes[column] = text
    for column in ("MP_NS", "MP_EW"):
        text = row.get(column)
        if text and not NUMBER_RE.match(text):
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
