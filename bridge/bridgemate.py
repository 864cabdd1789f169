"""Results straight from the table computers: a Bridgemate server file (.BWS, a Microsoft Access
database written by Bridgemate Control Software) read into a :class:`SessionFile`.

``session_from_received_data(rows, sections)`` reads the rows of the file's ReceivedData table
(one row per result entered at a table: Section, Table, Round, Board, PairNS, PairEW,
Declarer, NS/EW, Contract, Result, LeadCard, Remarks, Erased); ``read_bws(data)`` opens the
Access file with the pure-Python access-parser and hands its tables to it.

What the table computers write: a contract ``4 S x`` (level, strain, ``x`` or ``xx``) or
``PASS``; the declarer's seat in ``NS/EW``; a result as ``=``, ``+1`` or ``-2`` against the
contract; the lead as ``S10`` or ``HK``. A result corrected at the table leaves the old row
erased (Erased true) or a later row for the same table, round and board: the latest, not
erased, counts. A row without a contract is a board not played (Remarks ``Not played``) or an
arbitral score (``Arbitral score``): an artificial score when the row writes one (``A60-40``,
``60%-40%``, ``A+``), else recorded as not played, and the import warns that it needs an
adjusted score. A damaged record or Section table is passed over with a warning; the rest is
read.

Plain Python, no Django.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from typing import Any

from bridge.deals import DealError, parse_deal, parse_seat
from bridge.engine.contract import ContractError, board_dealer, board_vulnerability, parse_contract
from bridge.interchange import BoardIn, ResultIn, SessionFile, read_artificial
from bridge.messages import Message, MessageError, _

__all__ = ["BridgemateError", "read_bws", "session_from_received_data"]

_STRAINS = {"C": "C", "D": "D", "H": "H", "S": "S", "N": "NT", "NT": "NT", "SA": "NT"}


class BridgemateError(MessageError):
    """A Bridgemate file refused; ``str()`` is ``ReceivedData row 7: Contract: ...``."""

    def __init__(self, row: int | None, message: str) -> None:
        where = _("ReceivedData row %(row)s", row=row) if row else _("the Bridgemate file")
        super().__init__(Message("%(where)s: %(message)s", where=where, message=message))
        self.row = row
        self.message = message


def _field(name: str, message: str) -> Message:
    return Message("%(field)s: %(message)s", field=name, message=message)


def _int(row: Mapping[str, Any], name: str, index: int, required: bool = True) -> int | None:
    value = row.get(name)
    if value in (None, ""):
        if required:
            raise BridgemateError(index, _field(name, _("the field is empty")))
        return None
    text = str(value).strip()
    if not re.fullmatch(r"\d{1,6}", text) or int(text) < 1:
        raise BridgemateError(index, _field(name, _("'%(value)s' is not a number", value=text[:20])))
    return int(text)


def _contract(text: str, index: int) -> str:
    """``4 S x`` -> ``4SX``; ``PASS`` -> ``PASS``."""
    words = text.upper().replace("*", "X").split()
    if words in (["PASS"], ["AP"], ["P"]):
        return "PASS"
    if (
        len(words) in (2, 3)
        and words[0].isdigit()
        and words[1] in _STRAINS
        and (len(words) == 2 or words[2] in {"X", "XX"})
    ):
        text = words[0] + _STRAINS[words[1]] + (words[2] if len(words) == 3 else "")
    try:
        return str(parse_contract(text.replace(" ", "")))
    except ContractError as error:
        raise BridgemateError(index, _field("Contract", error.message)) from None


def _tricks(contract: str, text: str, index: int) -> int:
    """``=`` / ``+1`` / ``-2`` (or declarer's tricks as a number) -> declarer's tricks."""
    needed = int(contract[0]) + 6
    text = (text or "").strip()
    if text == "=":
        return needed
    if re.fullmatch(r"[+-]\d{1,2}", text):
        tricks = needed + int(text)
    elif re.fullmatch(r"\d{1,2}", text):
        tricks = int(text)
    else:
        raise BridgemateError(
            index,
            _field("Result", _("'%(value)s' is not a result: write =, +1 or -2 against the contract", value=text[:20])),
        )
    if not 0 <= tricks <= 13:
        raise BridgemateError(
            index,
            _field(
                "Result",
                _(
                    "%(value)s on %(contract)s gives %(n)s tricks: declarer takes 0 to 13",
                    value=text,
                    contract=contract,
                    n=tricks,
                ),
            ),
        )
    return tricks


def _erased(value: object) -> bool:
    return str(value).strip().lower() in {"1", "true", "-1", "yes"}


def session_from_received_data(
    rows: Iterable[Mapping[str, Any]],
    sections: Mapping[Any, Any] | None = None,
    hand_records: Iterable[Mapping[str, Any]] = (),
    players: Iterable[Mapping[str, Any]] = (),
    player_names: Iterable[Mapping[str, Any]] = (),
) -> SessionFile:
    """The results of ReceivedData ``rows`` (dicts by column name, in the file's order);
    ``sections`` maps a Section id to its letter (the Section table), else the id is the name.
    The database's own deals (``hand_records``: its HandRecord table) and players
    (``players``: PlayerNumbers, each seat's player number and name; ``player_names``:
    PlayerNames, the club's list of numbers and names) are read too where it holds them."""
    session = _received_data(rows, sections or {})
    _read_hand_records(session, hand_records, sections or {})
    _name_pairs(session, rows, players, player_names, sections or {})
    return session


def _section_of(sections: Mapping[Any, Any], section_id: Any) -> str:
    return str(sections.get(section_id, sections.get(str(section_id), section_id or ""))).strip()


# HandRecord's columns: each seat's four suits, NorthSpades ... WestClubs.
_HAND_COLUMNS = [
    [f"{seat}{suit}" for suit in ("Spades", "Hearts", "Diamonds", "Clubs")]
    for seat in ("North", "East", "South", "West")
]


def _read_hand_records(session: SessionFile, rows: Iterable[Mapping[str, Any]], sections: Mapping[Any, Any]) -> None:
    """Each HandRecord row's deal given to its board (a board with no result comes in as a hand
    record); a row that is not a deal is left out with a warning naming it."""
    boards = {board.number: board for board in session.boards}
    for index, row in enumerate(rows, 1):
        number = row.get("Board")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            continue
        where = _("HandRecord row %(row)s (board %(board)s)", row=index, board=number)
        hands = [
            ".".join(re.sub(r"[\s-]", "", str(row.get(column) or "")).upper().replace("10", "T") for column in seat)
            for seat in _HAND_COLUMNS
        ]
        try:
            deal = parse_deal("N:" + " ".join(hands)).to_pbn()
        except DealError as error:
            session.warnings.append(Message("%(where)s: %(message)s", where=where, message=error.message))
            continue
        board = boards.get(number)
        if board is None:
            board = boards[number] = BoardIn(
                number=number, line=index, dealer=board_dealer(number), vulnerability=board_vulnerability(number)
            )
            board.where = _("hand record of board %(board)s", board=number)
            session.boards.append(board)
        if board.deal and board.deal != deal:
            session.warnings.append(
                _(
                    "%(where)s: section %(section)s has another deal of this board: the first section's is kept",
                    where=where,
                    section=_section_of(sections, row.get("Section")),
                )
            )
            continue
        board.deal = deal
    session.boards.sort(key=lambda board: board.number)


def _name_pairs(
    session: SessionFile,
    rows: Iterable[Mapping[str, Any]],
    players: Iterable[Mapping[str, Any]],
    player_names: Iterable[Mapping[str, Any]],
    sections: Mapping[Any, Any],
) -> None:
    """Each pair named by its two players, "North - South" or "East - West": PlayerNumbers gives
    each seat's player (its Name, else its Number looked up in PlayerNames) at a table in a round
    (its first round when it gives none), and that table's ReceivedData row in that round the pair
    sitting there."""
    listed = {str(row.get("ID")).strip(): str(row.get("Name") or "").strip() for row in player_names}
    seated: dict[tuple[str, Any, Any], tuple[Any, Any]] = {}  # (section, table, round) -> (N-S, E-W)
    first: dict[tuple[str, Any], Any] = {}  # (section, table) -> its first round
    for row in rows:
        if _erased(row.get("Erased", "")):
            continue
        section, table, round_number = _section_of(sections, row.get("Section")), row.get("Table"), row.get("Round")
        seated.setdefault((section, table, round_number), (row.get("PairNS"), row.get("PairEW")))
        if round_number is not None and (first.get((section, table)) is None or round_number < first[(section, table)]):
            first[(section, table)] = round_number
    names: dict[tuple[str, str, int], dict[str, str]] = {}
    for row in players:
        section, table = _section_of(sections, row.get("Section")), row.get("Table")
        seat = str(row.get("Direction") or "").strip().upper()[:1]
        name = str(row.get("Name") or "").strip() or listed.get(str(row.get("Number")).strip(), "")
        pairs = seated.get((section, table, row.get("Round") or first.get((section, table))))
        if seat not in "NESW" or not seat or not name or pairs is None:
            continue
        side = "NS" if seat in "NS" else "EW"
        pair = pairs[0] if side == "NS" else pairs[1]
        if isinstance(pair, int) and not isinstance(pair, bool):
            names.setdefault((section, side, pair), {})[seat] = name
    for (section, side, pair), seats in names.items():
        name = " - ".join(seats[seat] for seat in ("N", "S", "E", "W") if seat in seats)
        # by direction (a Mitchell's N-S 1 and E-W 1 are two pairs), and by number (a Howell)
        session.names[(section, side, pair)] = name
        session.names.setdefault((section, "", pair) if section else pair, name)


def _received_data(rows: Iterable[Mapping[str, Any]], sections: Mapping[Any, Any]) -> SessionFile:
    """The results of ReceivedData ``rows`` (session_from_received_data)."""
    session = SessionFile(format="Bridgemate")
    latest: dict[tuple[Any, ...], tuple[int, Mapping[str, Any]]] = {}
    for index, row in enumerate(rows, 1):
        if _erased(row.get("Erased", "")):
            continue
        key = (row.get("Section"), row.get("Table"), row.get("Round"), row.get("Board"))
        latest[key] = (index, row)
    boards: dict[int, BoardIn] = {}
    for index, row in sorted(latest.values(), key=lambda item: item[0]):
        number = _int(row, "Board", index)
        assert number is not None  # required: _int refuses an empty Board
        section = _section_of(sections, row.get("Section"))
        result = ResultIn(
            board=number,
            line=index,
            where=_("ReceivedData row %(row)s", row=index),
            section=section,
            table=_int(row, "Table", index),
            round=_int(row, "Round", index, required=False),
            ns=_int(row, "PairNS", index),
            ew=_int(row, "PairEW", index),
        )
        if number not in boards:
            boards[number] = BoardIn(
                number=number,
                line=index,
                dealer=board_dealer(number),
                vulnerability=board_vulnerability(number),
            )
            session.boards.append(boards[number])
        contract = str(row.get("Contract") or "").strip()
        remark = str(row.get("Remarks") or "").strip()
        if not contract or not (contract[0].isdigit() or contract.upper() in {"PASS", "AP", "P"}):
            # Not played, or an arbitral (adjusted) score: a code in Contract or Result when the
            # table computer wrote one (A60-40, 60%-40%, A+), else no score at all.
            result.kind, result.code = "not_played", remark or contract or "-"
            for text in (contract, str(row.get("Result") or "").strip()):
                code = re.sub(r"^A?(\d{2,3})%?\s*[-/]\s*A?(\d{2,3})%?$", r"\1% \2%", text)
                parts = code.split()
                if not parts:
                    continue
                try:
                    kind, score = read_artificial(parts[0], parts[1] if len(parts) > 1 else None)
                except ValueError:
                    continue
                if kind == "artificial":
                    result.kind, result.score, result.code = kind, score, text
                    break
            if result.kind == "not_played" and not contract and not remark:
                raise BridgemateError(
                    index,
                    _field(
                        "Contract",
                        _("the row has no contract and no remark: it is neither a result nor a board not played"),
                    ),
                )
            session.results.append(result)
            continue
        result.contract = _contract(contract, index)
        if result.contract != "PASS":
            seat = str(row.get("NS/EW") or row.get("Declarer") or "").strip()
            try:
                result.declarer = parse_seat(seat, "declarer")
            except DealError as error:
                raise BridgemateError(index, _field("NS/EW", error.message)) from None
            result.tricks = _tricks(result.contract, str(row.get("Result") or ""), index)
            lead = str(row.get("LeadCard") or "").strip().upper().replace("10", "T")
            result.lead = lead if re.fullmatch(r"[SHDC][AKQJT2-9]", lead) else ""
        session.results.append(result)
    session.boards.sort(key=lambda board: board.number)
    return session


# How long and how much memory reading one database may take: a hostile file (pointers that
# loop, pages that claim huge sizes) is stopped, not followed.
READ_SECONDS = 20
READ_MEMORY_BYTES = 1024 * 1024 * 1024


def table_rows(database: Any, name: str) -> tuple[list[dict[str, Any]], int]:
    """The rows of table ``name`` read one record at a time, and how many records could not be
    read (a damaged page or record is passed over, not the whole table lost)."""
    from collections import defaultdict

    from access_parser.parsing_primitives import parse_data_page_header

    table = database.get_table(name)
    if table is None:
        return [], 0
    rows: list[dict[str, Any]] = []
    lost = 0
    for page in table.table.linked_pages or []:
        try:
            header = parse_data_page_header(page, version=table.version)
            offsets = list(header.record_offsets)
        except Exception:  # a damaged page header: its records are lost
            lost += 1
            continue
        last = None
        for offset in offsets:
            if offset & 0x8000:  # a deleted record
                last = offset & 0xFFF
                continue
            table.parsed_table = defaultdict(list)
            try:
                if offset & 0x4000:  # the record lives on an overflow page
                    last = offset & 0xFFF
                    pointer = int.from_bytes(page[last : last + 4], "little")
                    record = table._get_overflow_record(pointer)
                else:
                    record = page[offset:] if not last else page[offset:last]
                    last = offset
                if record:
                    table._parse_row(record)
            except Exception:
                lost += 1
                continue
            if not record:
                continue
            if not table.parsed_table:
                lost += 1
                continue
            rows.append({column: (values[0] if values else None) for column, values in table.parsed_table.items()})
    return rows, lost


Tables = tuple[list[dict[str, Any]], dict[Any, Any], list[Message], dict[str, list[dict[str, Any]]]]


def _read_tables(path: str) -> Tables:
    """ReceivedData's rows, the Section table's letters, what could not be read, and the rows of
    HandRecord, PlayerNumbers and PlayerNames where the database has them."""
    from access_parser import AccessParser

    logging.getLogger("access_parser").setLevel(logging.CRITICAL)
    try:
        database = AccessParser(path)
        tables = {name.lower(): name for name in database.catalog}
    except Exception:  # access-parser fails in many ways on a damaged or foreign file
        raise BridgemateError(
            None, _("this is not a Microsoft Access database that can be read (a Bridgemate .BWS file)")
        ) from None
    if "receiveddata" not in tables:
        raise BridgemateError(None, _("the database has no ReceivedData table: this is not a Bridgemate server file"))
    problems: list[Message] = []
    try:
        rows, lost = table_rows(database, tables["receiveddata"])
    except Exception:
        raise BridgemateError(None, _("the ReceivedData table cannot be read: the file is damaged")) from None
    if lost:
        problems.append(
            _(
                "ReceivedData: %(n)s damaged records could not be read: their results are not imported; "
                "%(read)s records were read",
                n=lost,
                read=len(rows),
            )
        )
    letters: dict[Any, Any] = {}
    if "section" in tables:
        try:
            section_rows, lost = table_rows(database, tables["section"])
            letters = {row.get("ID"): row.get("Letter") for row in section_rows if row.get("ID") is not None}
        except Exception:
            lost = 1
        if lost:
            problems.append(
                _("Section: the table could not be read whole: sections without a letter are named by their numbers")
            )
    extra: dict[str, list[dict[str, Any]]] = {}
    for key, name in (("hand_records", "handrecord"), ("players", "playernumbers"), ("player_names", "playernames")):
        if name not in tables:
            continue
        try:
            extra[key], lost = table_rows(database, tables[name])
        except Exception:
            extra[key], lost = [], 1
        if lost:
            problems.append(
                _(
                    "%(table)s: the table could not be read whole: what it holds (deals, players' names) is taken "
                    "from the records read",
                    table=tables[name],
                )
            )
    return rows, letters, problems, extra


def _child(path: str, pipe: Any, memory: int) -> None:
    """Read the database in a child process with its memory bounded, and send back what it read
    (or the refusal)."""
    import resource

    try:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    except (ValueError, OSError):
        pass
    try:
        pipe.send(("ok", _read_tables(path)))
    except BridgemateError as error:
        pipe.send(("refused", error.message))
    except MemoryError:
        pipe.send(("refused", _("the database asks for more memory than a Bridgemate file needs: it is not read")))
    except Exception:
        pipe.send(("refused", _("this is not a Microsoft Access database that can be read (a Bridgemate .BWS file)")))
    finally:
        pipe.close()


def _read_bounded(path: str, seconds: float, memory: int) -> Tables:
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(path, sender, memory), daemon=True)
    process.start()
    sender.close()
    try:
        if not receiver.poll(seconds):
            raise BridgemateError(
                None,
                _(
                    "reading the database took longer than %(seconds)s seconds: the file is not read (a Bridgemate "
                    "file of a session is read in well under a second)",
                    seconds=seconds,
                ),
            )
        try:
            status, value = receiver.recv()
        except EOFError:  # the child died (out of memory, a crash in the parser)
            raise BridgemateError(
                None, _("this is not a Microsoft Access database that can be read (a Bridgemate .BWS file)")
            ) from None
    finally:
        if process.is_alive():
            process.kill()
        process.join(5)
        receiver.close()
    if status == "refused":
        raise BridgemateError(None, value)
    tables: Tables = value
    return tables


def read_bws(data: bytes, seconds: float = READ_SECONDS, isolated: bool = True) -> SessionFile:
    """The results of a Bridgemate server file's bytes. The database is read in a child process
    that may take ``seconds`` and READ_MEMORY_BYTES at most (``isolated=False`` reads it here,
    for tests). Damaged records and an unreadable Section table are passed over with a warning;
    the rows read are imported."""
    handle, path = tempfile.mkstemp(suffix=".bws")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        if isolated:
            rows, letters, problems, extra = _read_bounded(path, seconds, READ_MEMORY_BYTES)
        else:
            rows, letters, problems, extra = _read_tables(path)
    finally:
        os.unlink(path)
    rows.sort(key=lambda row: (row.get("ID") is None, row.get("ID") or 0))
    session = session_from_received_data(rows, letters, **extra)
    session.warnings[:0] = problems
    return session
