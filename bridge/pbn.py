"""Read and write PBN 2.1 files as scoring programs and dealing machines export them.

``parse_pbn(text)`` returns one PbnGame per game, or raises PbnError for the first thing wrong
in the file, with its line number: a file is taken whole or not at all. ``write_pbn(games)``
writes games back (tags, deal, auction with notes, tables).

Plain Python, no Django: the importer service decides what to do with the games.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

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
from bridge.messages import Message, MessageError, _

# The tags every PBN game should carry, in the order PBN writes them.
ROSTER = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
          "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")

_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_QUOTED_RE = re.compile(r'"((?:[^"\\]|\\.)*)"')
_WORD_RE = re.compile(r'[^\s\[\]{};"]+')
_NOTE_REF_RE = re.compile(r"^=(\d+)=$")
_NOTE_RE = re.compile(r"^\s*(\d+)\s*:(.*)$", re.S)
_COLUMN_RE = re.compile(r"^(?P<name>[^\\]+)(?:\\(?P<width>\d+)(?P<align>[LR])?)?$")
_INT_RE = re.compile(r"^[+-]?\d+$")
_NUMBER_RE = re.compile(r"^\d+(?:[.,]\d+)?$")


class PbnError(MessageError):
    """A malformed PBN file; ``str()`` is ``line 42: Deal: North holds 14 cards: ...``, in
    English (``scoring.i18n.translate(error)`` in the reader's language)."""

    def __init__(self, line, message):
        super().__init__(_("line %(line)s: %(message)s", line=line, message=message))
        self.line = line
        self.message = message


def _tagged(tag, message):
    """``Deal: North holds 14 cards...``: the tag (or column) at fault, then what is wrong."""
    return Message("%(tag)s: %(message)s", tag=tag, message=message)


@dataclass
class Call:
    """One call of an auction (``Pass``, ``X``, ``XX``, ``AP``, ``1C``..``7NT``) and the
    text of the note attached to it, if any."""

    call: str
    note: str | None = None


class ScoreRow(dict):
    """One row of a score table: column name -> text as written (None where the file has
    ``-``), plus what the parser read from it: ``line``, ``contract`` (``"4S"``, ``"PASS"``
    or None), ``declarer``, ``tricks``, ``score_ns`` and ``score_ew`` (ints or None), and
    ``artificial``: the free text written instead of a score or contract, e.g. ``"A60"``."""

    def __init__(self, values=(), line=None):
        super().__init__(values)
        self.line = line
        self.contract = self.declarer = self.tricks = None
        self.score_ns = self.score_ew = self.artificial = None


@dataclass
class PbnTable:
    """A table section such as ScoreTable: its header as written and its rows."""

    header: str
    rows: list = field(default_factory=list)

    @property
    def columns(self):
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
    tags: dict = field(default_factory=dict)
    board: int | None = None
    dealer: str | None = None
    vulnerability: str | None = None
    deal: Deal | None = None
    declarer: str | None = None
    contract: str | None = None
    result: int | None = None
    auction: list = field(default_factory=list)
    auction_complete: bool = True
    tables: dict = field(default_factory=dict)
    sections: dict = field(default_factory=dict)

    @property
    def score_rows(self):
        table = self.tables.get("ScoreTable")
        return table.rows if table else []

    @property
    def total_score_rows(self):
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


def _unescape(value):
    return re.sub(r'\\(["\\])', r"\1", value)


def _tag_error(rest):
    """Say what is wrong with a tag that starts at ``rest`` but does not match."""
    match = re.match(r"\[\s*([A-Za-z0-9_]*)\s*(\"?)", rest)
    name, quote = match[1], match[2]
    if not name:
        return _('a tag is [Name "value"]: this one has no name')
    if not quote:
        return _('%(tag)s: the value must be in double quotes, e.g. [%(tag)s "value"]', tag=name)
    after = rest[match.end():]
    if not re.search(r'(?<!\\)"', after.replace("\\\\", "")):
        return _tagged(name, _("the tag is not terminated: the value has no closing quote"))
    return _tagged(name, _("the tag is not terminated: ] is missing"))


def _scan(text):
    """Tokens of a PBN text: tags, words of section data and blank lines, skipping
    comments and ``%`` lines."""
    in_comment_since = None
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


def _raw_games(text):
    """Group tokens into games: ``[(tag token, [data tokens])...]`` per game."""
    game = []
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


def _is_table(name):
    return name.endswith("Table")


def parse_pbn(text):
    """Read a PBN file's text into a list of PbnGame; raise PbnError on the first error.

    Nothing is returned for a file with an error: the caller gets all the games or none.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    games = []
    boards_seen = {}
    previous = {}
    for raw in _raw_games(text):
        game, previous, board_line = _read_game(raw, previous)
        if game.board is not None:
            if game.board in boards_seen:
                raise PbnError(board_line, _tagged("Board", _(
                    "board %(board)s appears twice in this file (first at line %(line)s)",
                    board=game.board, line=boards_seen[game.board])))
            boards_seen[game.board] = board_line
        games.append(game)
    return games


def read_pbn(path):
    """Read a PBN file from disk (UTF-8, else Latin-1 as PBN 2.1 prescribes)."""
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return parse_pbn(text)


def _read_game(raw, previous):
    """One game from its tags and their data; ``previous`` holds the previous game's tag
    values for ``#``. Returns (game, this game's tag values, line of its Board tag)."""
    first_line = raw[0][0].line
    resolved = {}  # every tag's value with "#" resolved: the next game may inherit it
    lines = {}
    data = {}
    notes = {}
    tags = {}
    for token, words in raw:
        name, value = token.name, token.value
        if value == "#":
            if name not in previous:
                raise PbnError(token.line, _tagged(name, _(
                    "'#' repeats the previous game's value, but there is no earlier %(tag)s", tag=name)))
            value = previous[name]
        if name == "Note":
            match = _NOTE_RE.match(value)
            if not match:
                raise PbnError(token.line, _tagged("Note", _(
                    "'%(value)s' is not a note: write number:text, e.g. 1:Stayman", value=value)))
            notes[int(match[1])] = match[2]
            continue
        if name in lines:
            raise PbnError(token.line, _tagged(name, _(
                "a second %(tag)s tag in the same game (the first is at line %(line)s): games are separated "
                "by a blank line", tag=name, line=lines[name])))
        if words and name not in {"Auction", "Play"} and not _is_table(name):
            raise PbnError(words[0].line, _("'%(word)s' after the %(tag)s tag is outside any section",
                                            word=words[0].value, tag=name))
        resolved[name], lines[name], data[name] = value, token.line, words
        if name != "Auction" and name != "Play" and not _is_table(name):
            tags[name] = value

    def known(name):
        value = resolved.get(name)
        return None if value is None or value.strip() in {"", "?"} else value.strip()

    def fail(name, message):
        raise PbnError(lines[name], _tagged(name, message))

    game = PbnGame(line=first_line, tags=tags)

    if known("Board"):
        if not re.fullmatch(r"\d+", known("Board")) or int(known("Board")) < 1:
            fail("Board", _("'%(board)s' is not a board number: a board number is a positive whole number",
                            board=known("Board")))
        game.board = int(known("Board"))
    try:
        game.dealer = parse_seat(known("Dealer")) if known("Dealer") else None
    except DealError as exc:
        fail("Dealer", exc.message)
    try:
        if known("Vulnerable"):
            game.vulnerability = parse_vulnerability(known("Vulnerable"))
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

    if known("Declarer"):
        try:
            game.declarer = parse_seat(known("Declarer").lstrip("^"), "declarer")
        except DealError as exc:
            fail("Declarer", exc.message)
    if known("Contract"):
        try:
            game.contract = str(parse_contract(known("Contract")))
        except ContractError as exc:
            fail("Contract", exc.message)
    if known("Result"):
        game.result = _tricks(known("Result"), lambda message: fail("Result", message))

    if "Auction" in resolved:
        contract, declarer = _read_auction(game, resolved["Auction"], lines["Auction"],
                                           data["Auction"], notes)
        # The Contract and Declarer tags must be where the auction ended.
        if contract and game.contract and (
            contract != game.contract or (contract != "PASS" and declarer != game.declarer)
        ):
            said = {"contract": game.contract, "declarer": game.declarer or "?"}
            fail("Contract", _("%(contract)s by %(declarer)s does not match the auction, which ends in a pass-out",
                               **said) if contract == "PASS" else
                 _("%(contract)s by %(declarer)s does not match the auction, which ends in %(played)s by %(by)s",
                   played=contract, by=declarer, **said))
    if "Play" in resolved:
        rows = [[word.value for word in row] for row in _group(data["Play"])]
        game.sections["Play"] = (resolved["Play"], rows)
    for name in resolved:
        if _is_table(name):
            game.tables[name] = _read_table(game, name, resolved[name], lines[name], data[name])
    return game, resolved, lines.get("Board")


def _tricks(text, fail):
    if not re.fullmatch(r"\d+", text) or int(text) > 13:
        fail(_("'%(text)s' is not a number of tricks: declarer takes 0 to 13", text=text))
    return int(text)


def _read_auction(game, value, line, words, notes):
    """Read the auction into ``game.auction``; return where it ended as validate_auction
    does."""
    try:
        start = parse_seat(value)
    except DealError as exc:
        raise PbnError(line, _tagged("Auction", exc.message)) from None
    if game.dealer and start != game.dealer:
        raise PbnError(line, _tagged("Auction", _("the auction starts with %(start)s but the dealer is %(dealer)s",
                                                  start=start, dealer=game.dealer)))
    calls, call_lines = [], []
    complete = True
    for word in words:
        text = word.value
        ref = _NOTE_REF_RE.match(text)
        if ref:
            if not calls:
                raise PbnError(word.line, _tagged("Auction", _("the note %(note)s comes before any call", note=text)))
            number = int(ref[1])
            if number not in notes:
                raise PbnError(word.line, _tagged("Auction", _('the note %(note)s has no [Note "%(number)s:..."]',
                                                             note=text, number=number)))
            note = notes[number]
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
        raise PbnError(at, _tagged("Auction", exc.message)) from None
    for call in calls:
        call.call = normalise_call(call.call)
    game.auction, game.auction_complete = calls, complete
    return contract


def _read_table(game, name, header, line, words):
    table = PbnTable(header)
    try:
        columns = [c[0] for c in table.columns]
    except ValueError as exc:
        raise PbnError(line, _tagged(name, exc.args[0] if exc.args else str(exc))) from None
    for cells in _group(words):
        row_line = cells[0].line
        if len(cells) != len(columns):
            raise PbnError(row_line, _tagged(name, _(
                "the row has %(n)s columns but the header names %(m)s (%(columns)s)",
                n=len(cells), m=len(columns), columns=", ".join(columns))))
        row = ScoreRow({column: (None if cell.value == "-" and not cell.quoted else cell.value)
                        for column, cell in zip(columns, cells)}, line=row_line)
        if name == "ScoreTable":
            _check_score_row(game, row)
        table.rows.append(row)
    return table


def _group(words):
    """Section words grouped by line: one row of a table per line."""
    rows = {}
    for word in words:
        rows.setdefault(word.line, []).append(word)
    return list(rows.values())


def _check_score_row(game, row):
    """Read a ScoreTable row's contract, declarer, tricks and scores, and check the scores
    against Law 77."""

    def fail(column, message):
        raise PbnError(row.line, _tagged(column, message))

    contract = row.get("Contract")
    if contract:
        if contract[0].isdigit() or contract.upper() in {"PASS", "P", "AP"}:
            try:
                row.contract = str(parse_contract(contract))
            except ContractError as exc:
                fail("Contract", exc.message)
        else:
            row.artificial = contract  # "Bye", "A60", "NP": not a contract, keep as written
    if row.get("Declarer"):
        try:
            row.declarer = parse_seat(row["Declarer"], "declarer")
        except DealError as exc:
            fail("Declarer", exc.message)
    if row.get("Result"):
        row.tricks = _tricks(row["Result"], lambda message: fail("Result", message))

    for column, attribute in (("Score_NS", "score_ns"), ("Score_EW", "score_ew")):
        text = row.get(column)
        if text and _INT_RE.match(text):
            setattr(row, attribute, int(text))
        elif text:
            row.artificial = row.artificial or text
    for column in ("MP_NS", "MP_EW"):
        text = row.get(column)
        if text and not _NUMBER_RE.match(text):
            row.artificial = row.artificial or text

    if row.contract is None or (row.score_ns is None and row.score_ew is None):
        return
    passed_out = row.contract == "PASS"
    if not passed_out and row.declarer is None:
        fail("Declarer", _("%(contract)s is scored but has no declarer", contract=row.contract))
    if not passed_out and row.tricks is None:
        fail("Result", _("%(contract)s by %(declarer)s is scored but has no result", contract=row.contract,
                         declarer=row.declarer))
    if not passed_out and game.vulnerability is None:
        fail("Score_NS", _("the board's vulnerability is not known, so the score cannot be "
                           "checked: give the Board number or a Vulnerable tag"))
    expected = 0 if passed_out else ns_score(row.contract, row.declarer, row.tricks,
                                             game.vulnerability)
    if passed_out:
        played = _("a passed-out board")
    else:
        vulnerable = vulnerable_for(row.declarer, game.vulnerability)
        made = {"contract": row.contract, "declarer": row.declarer, "n": row.tricks}
        if row.tricks == 1:
            played = (_("%(contract)s by %(declarer)s making %(n)s trick, vulnerable", **made) if vulnerable
                      else _("%(contract)s by %(declarer)s making %(n)s trick, not vulnerable", **made))
        else:
            played = (_("%(contract)s by %(declarer)s making %(n)s tricks, vulnerable", **made) if vulnerable
                      else _("%(contract)s by %(declarer)s making %(n)s tricks, not vulnerable", **made))
    for column, value, want in (("Score_NS", row.score_ns, expected),
                                ("Score_EW", row.score_ew, -expected)):
        if value is not None and value != want:
            raise PbnError(row.line, _("%(column)s %(value)s does not match %(played)s: Law 77 gives %(want)s",
                                       column=column, value=value, played=played, want=want))


# --- Writing -----------------------------------------------------------------------------

def _quote_tag(value):
    return str(value).replace('"', '\\"')


def _cell(value, width, align):
    text = "-" if value is None else str(value)
    if text == "" or re.search(r'[\s";{}\[\]]', text) or (text == "-" and value is not None):
        text = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text.ljust(width) if align == "L" else text.rjust(width)


def write_pbn(games):
    """Write ``games`` as PBN 2.1 text (export style: the deal starts with the dealer)."""
    out = ["% PBN 2.1", "% EXPORT", ""]
    for game in games:
        tags = dict(game.tags)
        typed = {
            "Board": game.board, "Dealer": game.dealer, "Vulnerable": game.vulnerability,
            "Deal": game.deal.to_pbn(game.dealer or "N") if game.deal else None,
            "Declarer": game.declarer, "Result": game.result,
            "Contract": "Pass" if game.contract == "PASS" else game.contract,
        }
        tags.update({name: value for name, value in typed.items() if value is not None})
        order = [name for name in ROSTER if name in tags]
        order += [name for name in tags if name not in ROSTER]
        out += [f'[{name} "{_quote_tag(tags[name])}"]' for name in order]

        if game.auction:
            out.append(f'[Auction "{game.dealer or "N"}"]')
            notes, words = [], []
            for call in game.auction:
                words.append(call.call)
                if call.note is not None:
                    notes.append(call.note)
                    words[-1] += f" ={len(notes)}="
            if not game.auction_complete:
                words.append("*")
            out += [" ".join(words[i:i + 4]) for i in range(0, len(words), 4)]
            out += [f'[Note "{n}:{_quote_tag(text)}"]' for n, text in enumerate(notes, 1)]
        for name, (value, rows) in game.sections.items():
            out.append(f'[{name} "{_quote_tag(value)}"]')
            out += [" ".join(row) for row in rows]
        for name, table in game.tables.items():
            out.append(f'[{name} "{_quote_tag(table.header)}"]')
            columns = table.columns
            for row in table.rows:
                out.append(" ".join(_cell(row.get(c), width, align)
                                    for c, width, align in columns).rstrip())
        out.append("")
    return "\n".join(out)
