"""PBN 2.1: writing games back in export format (``write_pbn``). Part of :mod:`bridge.pbn`.

Plain Python, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bridge.pbn_model import (
    ROSTER,
    PbnGame,
    canonical_column,
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
