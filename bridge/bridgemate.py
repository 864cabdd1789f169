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
erased, counts. Remarks such as ``Not played`` or ``Arbitral score`` have no score in the
file: they are refused, naming the row, for the director to enter the adjusted score.

Plain Python, no Django.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from typing import Any

from bridge.deals import DealError, parse_seat
from bridge.engine.contract import ContractError, board_dealer, board_vulnerability, parse_contract
from bridge.interchange import BoardIn, ResultIn, SessionFile
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
    rows: Iterable[Mapping[str, Any]], sections: Mapping[Any, Any] | None = None
) -> SessionFile:
    """The results of ReceivedData ``rows`` (dicts by column name, in the file's order);
    ``sections`` maps a Section id to its letter (the Section table), else the id is the name."""
    sections = sections or {}
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
        section_id = row.get("Section")
        section = str(sections.get(section_id, sections.get(str(section_id), section_id or ""))).strip()
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
        if not contract:
            remark = str(row.get("Remarks") or "").strip()
            raise BridgemateError(
                index,
                _field(
                    "Contract",
                    _(
                        "no contract (%(remark)s): the file gives no score for it; enter the adjusted score after the import, "
                        "or correct the result on the Bridgemate",
                        remark=remark or "-",
                    ),
                ),
            )
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


def read_bws(data: bytes) -> SessionFile:
    """The results of a Bridgemate server file's bytes."""
    from access_parser import AccessParser

    logging.getLogger("access_parser").setLevel(logging.CRITICAL)
    handle, path = tempfile.mkstemp(suffix=".bws")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        try:
            database = AccessParser(path)
            tables = {name.lower(): name for name in database.catalog}
            if "receiveddata" not in tables:
                raise BridgemateError(
                    None, _("the database has no ReceivedData table: this is not a Bridgemate server file")
                )
            columns = database.parse_table(tables["receiveddata"])
            letters = {}
            if "section" in tables:
                section = database.parse_table(tables["section"])
                letters = dict(zip(section.get("ID", []), section.get("Letter", [])))
        except BridgemateError:
            raise
        except Exception:  # access-parser fails in many ways on a damaged or foreign file
            raise BridgemateError(
                None, _("this is not a Microsoft Access database that can be read (a Bridgemate .BWS file)")
            ) from None
    finally:
        os.unlink(path)
    count = max((len(values) for values in columns.values()), default=0)
    rows = [{name: (values[i] if i < len(values) else None) for name, values in columns.items()} for i in range(count)]
    if "ID" in columns:
        rows.sort(key=lambda row: (row.get("ID") is None, row.get("ID") or 0))
    return session_from_received_data(rows, letters)
