"""The score checks of a session (issue #44, "checks before anything is final"): what
simultaneous-pairs organisers check by hand in every upload and scoring programs flag, run on the
session's recorded results against the deal and the movement.

Some checks are made at the door and never reach the record: a contract that is not one, a
declarer who is not a seat, tricks out of 0-13 (``Result.clean``, which scores the contract with
``bridge.engine.contract.ns_score``: a score is never typed, so it always ends in 0 and fits the
contract and the vulnerability when entered). What can still be wrong once recorded is flagged
here, each flag on one result:

- ``vulnerability``: the recorded score is not what the contract makes at the board's
  vulnerability now (the board's vulnerability or the result changed after it was scored);
- ``far_from_field``: on a board of at least ``FIELD_MIN`` played results, a score no other
  table comes within ``NEAR`` points of and at least ``FAR`` points from the board's median
  (a misscored or mis-entered board, a wrong direction), with the board's double-dummy par
  beside it where the deal is known;
- ``passed_out_everywhere``: every table passed the board out (a board not dealt, or the results
  of another board);
- ``passed_out_nowhere``: double-dummy par is a pass-out and no table passed it out (only where
  the deal is known);
- ``same_pair_twice``: a contestant that played the board in both directions, or two contestants
  that met at two rounds of the session (a movement entered wrongly).

A scorer answers each flag with one tap: accepted (``ScoreCheckAccepted``: looked at, it stands)
or corrected (``services.correct_result``, after which the check runs again). The counts are on
the session's page.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext as _

from bridge.engine.contract import ContractError, ns_score, parse_contract
from scoring.models import Board, Result, ScoreCheckAccepted, Session

FIELD_MIN = 4  # played results on a board before its frequency says anything
NEAR = 200  # points within which another table's score keeps a result company
FAR = 500  # points from the board's median that make a lone score suspicious


@dataclass
class Flag:
    code: str
    result: Result
    message: str
    par: str = ""  # the board's double-dummy par in words, where the deal is known
    accepted: ScoreCheckAccepted | None = None


@dataclass
class Checks:
    session: Session
    flags: list[Flag]

    @property
    def open(self) -> list[Flag]:
        return [flag for flag in self.flags if flag.accepted is None]

    @property
    def accepted(self) -> list[Flag]:
        return [flag for flag in self.flags if flag.accepted is not None]


def board_par(board: Board) -> dict | None:
    """The board's double-dummy par (bridge.deals.par), or None where the deal is not known."""
    if not board.deal:
        return None
    from bridge.deals import DealError, par, parse_deal

    try:
        return par(parse_deal(board.deal), board.dealer, board.vulnerability)
    except (DealError, ImportError):
        return None


def par_words(found: dict | None) -> str:
    if found is None:
        return ""
    if not found["contracts"]:
        return _("double-dummy par: passed out")
    contracts = ", ".join(f"{c['contract']} {c['declarer']}" for c in found["contracts"])
    return _("double-dummy par: %(contracts)s, N-S %(score)s") % {
        "contracts": contracts,
        "score": f"{found['score']:+d}",
    }


def _vulnerability(result: Result) -> Flag | None:
    try:
        contract = parse_contract(result.contract)
    except ContractError:
        return None
    if contract.passed_out or result.tricks is None:
        return None
    expected = ns_score(contract, result.declarer, result.tricks, result.board.vulnerability)
    if expected == result.score_ns:
        return None
    return Flag(
        "vulnerability",
        result,
        _("N-S %(recorded)s recorded; %(contract)s makes N-S %(expected)s at this vulnerability")
        % {
            "recorded": f"{result.score_ns:+d}",
            "contract": result.contract_display,
            "expected": f"{expected:+d}",
        },
    )


def _board_flags(board: Board, results: list[Result]) -> list[Flag]:
    played = [result for result in results if not result.not_played and result.score_ns is not None]
    flags = [flag for flag in map(_vulnerability, played) if flag]
    passed = [result for result in played if result.contract == "PASS"]
    if len(played) >= 2 and len(passed) == len(played):
        flags.append(Flag("passed_out_everywhere", played[0], _("every table passed this board out")))
    par_found = None
    if len(played) >= FIELD_MIN:
        scores = [(result, int(result.score_ns or 0)) for result in played]
        median = statistics.median(score for _result, score in scores)
        for result, score in scores:
            alone = all(abs(other - score) > NEAR for them, other in scores if them is not result)
            if alone and abs(score - median) >= FAR:
                par_found = par_found or board_par(board)
                flags.append(
                    Flag(
                        "far_from_field",
                        result,
                        _("N-S %(score)s is far from the field (median %(median)s) and no other table is near it")
                        % {"score": f"{score:+d}", "median": f"{int(median):+d}"},
                        par=par_words(par_found),
                    )
                )
    if played and not passed and board.deal:
        par_found = par_found or board_par(board)
        if par_found is not None and not par_found["contracts"]:
            flags.append(
                Flag(
                    "passed_out_nowhere",
                    played[0],
                    _("double-dummy par is a pass-out and no table passed this board out"),
                    par=par_words(par_found),
                )
            )
    for result in results:
        if result.ns_id in {other.ew_id for other in results}:
            flags.append(
                Flag("same_pair_twice", result, _("N-S %(pair)s played this board E-W too") % {"pair": result.ns.label})
            )
    return flags


def _movement_flags(results: list[Result]) -> list[Flag]:
    """Two contestants that met at two rounds of the session: each later meeting's first result."""
    met: dict[frozenset[int], int] = {}
    flags, seen = [], set()
    for result in sorted(results, key=lambda r: (r.round.number, r.table.number, r.board.number)):
        pair = frozenset((result.ns_id, result.ew_id))
        first = met.setdefault(pair, result.round.number)
        if first != result.round.number and (pair, result.round.number) not in seen:
            seen.add((pair, result.round.number))
            flags.append(
                Flag(
                    "same_pair_twice",
                    result,
                    _("%(ns)s and %(ew)s met in round %(first)s already")
                    % {
                        "ns": result.ns.label,
                        "ew": result.ew.label,
                        "first": first,
                    },
                )
            )
    return flags


def session_checks(session: Session) -> Checks:
    """Every flag of ``session``'s recorded results, with the acceptance of each that has one."""
    results = list(
        Result.objects.filter(board__session=session)
        .select_related("board", "table", "round", "ns", "ew")
        .order_by("board__number", "table__number")
    )
    by_board: dict[int, list[Result]] = defaultdict(list)
    for result in results:
        by_board[result.board_id].append(result)
    flags: list[Flag] = []
    for board_results in by_board.values():
        flags.extend(_board_flags(board_results[0].board, board_results))
    if not session.event.is_teams:  # teams meet at every board of a match, in both rooms
        flags.extend(_movement_flags(results))
    accepted = {
        (mark.result_id, mark.code): mark
        for mark in ScoreCheckAccepted.objects.filter(result__board__session=session).select_related("accepted_by")
    }
    for flag in flags:
        flag.accepted = accepted.get((flag.result.pk, flag.code))
    flags.sort(key=lambda flag: (flag.result.board.number, flag.result.table.number, flag.code))
    return Checks(session, flags)
