"""PBN 2.1: what a file holds once read (games, their tables and score rows), the column names and
the error a refusal raises. Part of :mod:`bridge.pbn`, which gives the public names.

Plain Python, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from bridge.deals import (
    Deal,
)
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

TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
QUOTED_RE = re.compile(r'"((?:[^"\\]|\\.)*)"')
WORD_RE = re.compile(r'[^\s\[\]{};"]+')
NOTE_REF_RE = re.compile(r"^=(\d+)=$")
NOTE_RE = re.compile(r"^\s*(\d+)\s*:(.*)$", re.S)
_COLUMN_RE = re.compile(r"^(?P<name>[^\\]+)(?:\\(?P<width>\d+)(?P<align>[LR])?)?$")
INT_RE = re.compile(r"^[+-]?\d+$")
NUMBER_RE = re.compile(r"^\d+(?:[.,]\d+)?$")
SIDE_SCORE_RE = re.compile(r"^(NS|EW|N-S|E-W)\s*([+-]?\d+)$", re.I)

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
    English (``core.i18n.translate(error)`` in the reader's language)."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(_("line %(line)s: %(message)s", line=line, message=message))
        self.line = line
        self.message = message


def tagged(tag: str, message: str) -> Message:
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
