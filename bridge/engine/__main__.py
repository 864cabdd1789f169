"""``python -m bridge.engine < board.json``: score one JSON document, print JSON.

The document's "kind" is matchpoints, team_match, board_a_match, knockout, total_points,
cross_imps, butler, imps, vp, session, imp_session or contract (formats with examples in
docs/scoring.md). Exact values are printed as strings
("7.5", "23/3"); each result also has a "display" object with rounded values. Input that
cannot be scored is refused on stderr ("error: result 3 (table 7), ns: ...") with exit
status 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction
from typing import Any, NoReturn, TextIO

from .contract import ContractError, board_vulnerability, ns_score
from .imps import butler, cross_imps, imps, team_match
from .matchpoints import SideBoard, score_board, session_score
from .rounding import decimal_str, ebu, exact_str, round_half_away, round_half_up, to_fraction
from .scores import EngineInputError, Entry, parse_points, parse_result, parse_results, parse_score
from .teams import board_a_match, imp_session, knockout_match, total_points
from .vp import victory_points

CENT = Fraction(1, 100)


def _percent_display(value: Fraction) -> str:
    return decimal_str(round_half_up(value, CENT), 2)


def _signed_display(value: Fraction) -> str:
    return decimal_str(round_half_away(value, CENT), 2)


def _mp_display(value: Fraction, top: Fraction, rounding: str) -> str:
    if rounding == "ebu":
        return decimal_str(ebu(value, top), 1)
    return decimal_str(round_half_up(value, CENT), 2)


def _options(doc: dict[str, Any], allowed: set[str], where: str = "input") -> None:
    unknown = set(doc) - set(allowed) - {"kind"}
    if unknown:
        raise EngineInputError(
            where, sorted(unknown)[0], f"unknown field (this kind takes {', '.join(sorted(allowed))})"
        )


def _int(doc: dict[str, Any], key: str, default: int | None, where: str = "input", minimum: int | None = None) -> Any:
    value = doc.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or (minimum is not None and value < minimum):
        raise EngineInputError(
            where, key, f"{value!r} is not a whole number" + (f" of at least {minimum}" if minimum is not None else "")
        )
    return value


def _number(doc: dict[str, Any], key: str, default: object, where: str = "input") -> Fraction:
    value = doc.get(key, default)
    if value is None:
        raise EngineInputError(where, key, "missing: a number is required")
    try:
        return to_fraction(value)
    except (ValueError, ZeroDivisionError):
        raise EngineInputError(where, key, f"{value!r} is not a number") from None


def _parse_options(doc: dict[str, Any]) -> dict[str, Any]:
    return {
        "max_components": _int(doc, "max_components", 5, minimum=1),
        "weight_decimals": _int(doc, "weight_decimals", None, minimum=0),
    }


def _matchpoints(doc: dict[str, Any]) -> dict[str, Any]:
    _options(
        doc,
        {"expected", "scale", "averages", "small_groups", "rounding", "results", "max_components", "weight_decimals"},
    )
    entries = parse_results(doc.get("results"), **_parse_options(doc))
    averages = doc.get("averages", [60, 50, 40])
    if not isinstance(averages, list) or len(averages) != 3:
        raise EngineInputError("input", "averages", "give [plus, average, minus] percentages, e.g. [60, 50, 40]")
    averages = [_number({"averages": a}, "averages", 0) for a in averages]
    rounding = doc.get("rounding", "ebu")
    if rounding not in ("ebu", "acbl"):
        raise EngineInputError("input", "rounding", f"{rounding!r} is not 'ebu' or 'acbl'")
    board = score_board(
        entries,
        expected=_int(doc, "expected", None, minimum=1),
        scale=doc.get("scale", "2/1"),
        averages=averages,
        small_groups=doc.get("small_groups"),
    )
    results = []
    for entry in entries:
        row = {"id": entry.id}
        display = {}
        for side in ("ns", "ew"):
            mp, pct = board.matchpoints(entry.id, side.upper()), board.percent(entry.id, side.upper())
            row[side], row[f"{side}_percent"] = exact_str(mp), exact_str(pct)
            display[side] = _mp_display(mp, board.top, rounding)
            display[f"{side}_percent"] = _percent_display(pct)
        row["display"] = display
        results.append(row)
    return {
        "kind": "matchpoints",
        "scale": board.scale,
        "expected": board.expected,
        "top": exact_str(board.top),
        "rounding": rounding,
        "results": results,
    }


def _room(value: object, where: str, options: dict[str, Any]) -> Entry:
    if isinstance(value, dict) and "ns" in value:
        return parse_result(value, where=where, **options)
    return Entry(where, parse_score(value, where, "score", **options), label=where)


def _team_boards(doc: dict[str, Any]) -> tuple[list[tuple[Entry, Entry]], list[Any]]:
    """The (open room, closed room) pairs of a team document and the boards' numbers."""
    options = _parse_options(doc)
    boards = doc.get("boards")
    if not isinstance(boards, list) or not boards:
        raise EngineInputError("input", "boards", "give the boards as a non-empty list")
    pairs, numbers = [], []
    for index, board in enumerate(boards, start=1):
        number = board.get("board", index) if isinstance(board, dict) else index
        where = f"board {number}"
        if not isinstance(board, dict) or set(board) - {"board", "open", "closed"}:
            raise EngineInputError(where, "", 'a board is {"board": n, "open": ..., "closed": ...}')
        for room in ("open", "closed"):
            if room not in board:
                raise EngineInputError(where, room, f"missing: the {room} room's result is required")
        pairs.append(
            (
                _room(board["open"], f"{where} (open room)", options),
                _room(board["closed"], f"{where} (closed room)", options),
            )
        )
        numbers.append(number)
    return pairs, numbers


def _team_rows(numbers: list[Any], scored: Iterable[Any]) -> list[dict[str, Any]]:
    return [
        {"board": number, "home": exact_str(b.home), "away": exact_str(b.away)} for number, b in zip(numbers, scored)
    ]


def _board_a_match(doc: dict[str, Any]) -> dict[str, Any]:
    _options(doc, {"boards", "averages", "max_components", "weight_decimals"})
    pairs, numbers = _team_boards(doc)
    averages = doc.get("averages", [60, 50, 40])
    if not isinstance(averages, list) or len(averages) != 3:
        raise EngineInputError("input", "averages", "give [plus, average, minus] percentages, e.g. [60, 50, 40]")
    averages = [_number({"averages": a}, "averages", 0) for a in averages]
    match = board_a_match(pairs, averages=averages)
    return {
        "kind": "board_a_match",
        "boards": _team_rows(numbers, match.boards),
        "home": exact_str(match.home),
        "away": exact_str(match.away),
    }


def _knockout(doc: dict[str, Any]) -> dict[str, Any]:
    _options(
        doc,
        {
            "boards",
            "carry_over",
            "average_non_balancing",
            "artificial_imps",
            "whole_imps",
            "max_components",
            "weight_decimals",
        },
    )
    pairs, numbers = _team_boards(doc)
    carry = doc.get("carry_over", {})
    if not isinstance(carry, dict) or set(carry) - {"home", "away"}:
        raise EngineInputError("input", "carry_over", 'write {"home": imps, "away": imps}')
    match = knockout_match(
        pairs,
        carry_over=(_number(carry, "home", 0, "carry_over"), _number(carry, "away", 0, "carry_over")),
        average_non_balancing=bool(doc.get("average_non_balancing", True)),
        artificial_imps=_number(doc, "artificial_imps", 3),
        whole_imps=bool(doc.get("whole_imps", False)),
    )
    return {
        "kind": "knockout",
        "boards": _team_rows(numbers, match.boards),
        "carry_over": {"home": exact_str(match.carry_over[0]), "away": exact_str(match.carry_over[1])},
        "home": exact_str(match.home),
        "away": exact_str(match.away),
        "margin": exact_str(match.margin),
        "winner": match.winner,
    }


def _total_points(doc: dict[str, Any]) -> dict[str, Any]:
    _options(doc, {"boards", "max_components", "weight_decimals"})
    pairs, numbers = _team_boards(doc)
    match = total_points(pairs)
    return {
        "kind": "total_points",
        "boards": _team_rows(numbers, match.boards),
        "home": exact_str(match.home),
        "away": exact_str(match.away),
    }


def _imp_session(doc: dict[str, Any]) -> dict[str, Any]:
    _options(doc, {"boards", "plus", "minus"})
    rows = doc.get("boards")
    if not isinstance(rows, list):
        raise EngineInputError("input", "boards", "give the side's boards as a list")
    boards = []
    for index, row in enumerate(rows, start=1):
        where = f"board {index}"
        if not isinstance(row, dict) or set(row) - {"imps", "kind"}:
            raise EngineInputError(where, "", 'a board is {"imps": n, "kind": "real"} (kind: real, AVE+, AVE, AVE-)')
        kind = row.get("kind", "real")
        boards.append((_number(row, "imps", None if kind == "real" else 0, where), kind))
    session = imp_session(boards, plus=_number(doc, "plus", 3), minus=_number(doc, "minus", 3))
    return {
        "kind": "imp_session",
        "boards": [exact_str(b) for b in session.boards],
        "total": exact_str(session.total),
        "real_average": None if session.real_average is None else exact_str(session.real_average),
    }


def _team_match(doc: dict[str, Any]) -> dict[str, Any]:
    _options(
        doc,
        {
            "boards",
            "vp_scale",
            "scale_boards",
            "knockout",
            "artificial_imps",
            "whole_imps",
            "vp_penalties",
            "max_components",
            "weight_decimals",
        },
    )
    pairs, numbers = _team_boards(doc)
    penalties = doc.get("vp_penalties", {})
    if not isinstance(penalties, dict) or set(penalties) - {"home", "away"}:
        raise EngineInputError("input", "vp_penalties", 'write {"home": vp, "away": vp}')
    match = team_match(
        pairs,
        vp_scale=doc.get("vp_scale", "wbf2013-20"),
        scale_boards=_int(doc, "scale_boards", None, minimum=1),
        vp_penalties=(_number(penalties, "home", 0, "vp_penalties"), _number(penalties, "away", 0, "vp_penalties")),
        artificial_imps=_number(doc, "artificial_imps", 3),
        knockout=bool(doc.get("knockout", False)),
        whole_imps=bool(doc.get("whole_imps", False)),
    )
    return {
        "kind": "team_match",
        "vp_scale": match.scale,
        "scale_boards": match.scale_boards,
        "boards": [
            {"board": number, "home": exact_str(b.home), "away": exact_str(b.away)}
            for number, b in zip(numbers, match.boards)
        ],
        "home_imps": exact_str(match.home_imps),
        "away_imps": exact_str(match.away_imps),
        "home_vp": str(match.home_vp),
        "away_vp": str(match.away_vp),
        "display": {"home_imps": _signed_display(match.home_imps), "away_imps": _signed_display(match.away_imps)},
    }


def _imp_rows(entries: list[Entry], scores: dict[Any, Any]) -> list[dict[str, Any]]:
    return [
        {
            "id": entry.id,
            "ns": exact_str(scores[entry.id][0]),
            "ew": exact_str(scores[entry.id][1]),
            "display": {"ns": _signed_display(scores[entry.id][0]), "ew": _signed_display(scores[entry.id][1])},
        }
        for entry in entries
    ]


def _cross_imps(doc: dict[str, Any]) -> dict[str, Any]:
    _options(doc, {"results", "mode", "artificial_imps", "max_components", "weight_decimals"})
    entries = parse_results(doc.get("results"), **_parse_options(doc))
    mode = doc.get("mode", "mean")
    scores = cross_imps(entries, mode=mode, artificial_imps=_number(doc, "artificial_imps", 3))
    return {"kind": "cross_imps", "mode": mode, "results": _imp_rows(entries, scores)}


def _butler(doc: dict[str, Any]) -> dict[str, Any]:
    _options(doc, {"results", "drop", "half", "artificial_imps", "max_components", "weight_decimals"})
    entries = parse_results(doc.get("results"), **_parse_options(doc))
    half = doc.get("half", "away")
    if half not in ("up", "down", "away", "even"):
        raise EngineInputError("input", "half", f"{half!r} is not up, down, away or even")
    drop = doc.get("drop", 1)
    drop = drop if isinstance(drop, str) else _int(doc, "drop", 1, minimum=0)
    score = butler(entries, drop=drop, half=half, artificial_imps=_number(doc, "artificial_imps", 3))
    return {"kind": "butler", "datum": exact_str(score.datum), "results": _imp_rows(entries, score.scores)}


def _imps(doc: dict[str, Any]) -> dict[str, Any]:
    _options(doc, {"points"})
    points = parse_points(doc.get("points"), "input", "points")
    return {"kind": "imps", "points": points, "imps": imps(points)}


def _vp(doc: dict[str, Any]) -> dict[str, Any]:
    _options(doc, {"margin", "boards", "scale"})
    margin = _number(doc, "margin", None)
    boards = _int(doc, "boards", None, minimum=1)
    if boards is None:
        raise EngineInputError("input", "boards", "missing: the number of boards in the match")
    scale = doc.get("scale", "wbf2013-20")
    home, away = victory_points(margin, boards, scale)
    return {
        "kind": "vp",
        "margin": exact_str(margin),
        "boards": boards,
        "scale": scale,
        "home": str(home),
        "away": str(away),
    }


def _session(doc: dict[str, Any]) -> dict[str, Any]:
    _options(doc, {"boards", "plus", "minus"})
    rows = doc.get("boards")
    if not isinstance(rows, list):
        raise EngineInputError("input", "boards", "give the side's boards as a list")
    boards = []
    for index, row in enumerate(rows, start=1):
        where = f"board {index}"
        if not isinstance(row, dict) or set(row) - {"matchpoints", "top", "kind", "penalty"}:
            raise EngineInputError(where, "", 'a board is {"matchpoints", "top", "kind", "penalty"}')
        kind = row.get("kind", "real")
        if kind not in ("real", "fixed", "AVE+", "AVE", "AVE-"):
            raise EngineInputError(where, "kind", f"{kind!r} is not real, fixed, AVE+, AVE or AVE-")
        boards.append(
            SideBoard(
                _number(row, "matchpoints", None, where),
                _number(row, "top", None, where),
                kind,
                _number(row, "penalty", 0, where),
            )
        )
    result = session_score(boards, plus=_number(doc, "plus", 60), minus=_number(doc, "minus", 40))
    return {
        "kind": "session",
        "matchpoints": exact_str(result.matchpoints),
        "top": exact_str(result.top),
        "percent": exact_str(result.percent),
        "real_percent": None if result.real_percent is None else exact_str(result.real_percent),
        "boards": [exact_str(b) for b in result.boards],
        "display": {"percent": _percent_display(result.percent)},
    }


def _contract(doc: dict[str, Any]) -> dict[str, Any]:
    _options(doc, {"contract", "declarer", "tricks", "vulnerability", "board"})
    vulnerability = doc.get("vulnerability")
    if vulnerability is None and doc.get("board") is not None:
        vulnerability = board_vulnerability(_int(doc, "board", None, minimum=1))
    if vulnerability not in ("None", "NS", "EW", "All"):
        raise EngineInputError(
            "input", "vulnerability", f"{vulnerability!r} is not None, NS, EW or All (or give the board)"
        )
    contract = doc.get("contract")
    if not isinstance(contract, str):
        raise EngineInputError(
            "input", "contract", f'{json.dumps(contract, default=float)} is not a contract: write it as text, e.g. "4S"'
        )
    try:
        score = ns_score(contract, doc.get("declarer"), doc.get("tricks"), vulnerability)
    except ContractError as error:
        raise EngineInputError("input", error.field, error.message) from None
    return {"kind": "contract", "ns_score": score}


KINDS = {
    "matchpoints": _matchpoints,
    "team_match": _team_match,
    "board_a_match": _board_a_match,
    "knockout": _knockout,
    "total_points": _total_points,
    "cross_imps": _cross_imps,
    "butler": _butler,
    "imps": _imps,
    "vp": _vp,
    "session": _session,
    "imp_session": _imp_session,
    "contract": _contract,
}


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number")


def run(text: str) -> dict[str, Any]:
    """Score the JSON document ``text``; return the output document (a dict).

    Raise EngineInputError (a ValueError) for bad JSON or input that cannot be scored.
    """
    try:
        doc = json.loads(text, parse_float=Decimal, parse_constant=_refuse_constant)
    except ValueError as error:
        raise EngineInputError("input", "", f"not JSON: {error}") from None
    if not isinstance(doc, dict):
        raise EngineInputError("input", "", 'give one JSON object with a "kind"')
    kind = doc.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:  # a list or an object is no kind either
        raise EngineInputError("input", "kind", f"{kind!r} is not one of {', '.join(KINDS)}")
    return KINDS[kind](doc)


def main(stdin: TextIO | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    try:
        output = run(stdin.read())
    except ValueError as error:  # EngineInputError, and ValueErrors from value objects
        print(f"error: {error}", file=stderr)
        return 2
    json.dump(output, stdout, indent=2)
    stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
