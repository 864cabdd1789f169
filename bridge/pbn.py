"""Read and write PBN 2.1 files as scoring programs and dealing machines export them.

``parse_pbn(text)`` returns one PbnGame per game, or raises PbnError for the first thing wrong
in the file, with its line number: a file is taken whole or not at all. ``write_pbn(games)``
writes games back (tags, deal, auction with notes, tables).

Plain Python, no Django: the importer service decides what to do with the games.

The public names are here; the code is split by concern: ``bridge.pbn_model`` (games, tables,
score rows, columns, PbnError), ``bridge.pbn_reader`` (reading and checking a file),
``bridge.pbn_writer`` (writing) and ``bridge.pbn_session`` (a file's games as a session's
boards and results).
"""

from __future__ import annotations

from bridge.pbn_model import (
    COLUMNS,
    CONTESTANT_COLUMNS,
    INDIVIDUAL_COLUMNS,
    ROSTER,
    Call,
    PbnError,
    PbnGame,
    PbnTable,
    ScoreRow,
    canonical_column,
)
from bridge.pbn_reader import (
    parse_pbn,
    read_pbn,
)
from bridge.pbn_session import (
    generator_of,
    players_of,
    session_from_pbn,
)
from bridge.pbn_writer import (
    write_pbn,
)

__all__ = [
    "COLUMNS",
    "CONTESTANT_COLUMNS",
    "Call",
    "INDIVIDUAL_COLUMNS",
    "PbnError",
    "PbnGame",
    "PbnTable",
    "ROSTER",
    "ScoreRow",
    "canonical_column",
    "generator_of",
    "parse_pbn",
    "players_of",
    "read_pbn",
    "session_from_pbn",
    "write_pbn",
]
