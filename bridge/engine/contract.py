"""Contracts and their scores (Law 77).

A contract is written as scorers write it: ``PASS``, or level, strain and doubling such as
``4S``, ``3NT``, ``6HX``, ``7NTXX``. Strains are C, D, H, S and NT (``N`` is accepted for NT).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from bridge.messages import Message, MessageError, _

SEATS = ("N", "E", "S", "W")
STRAINS = ("C", "D", "H", "S", "NT")

_CONTRACT_RE = re.compile(r"^(?P<level>[1-7])(?P<strain>NT|N|C|D|H|S)(?P<doubling>X{0,2})$")


class ContractError(MessageError):
    """A contract, declarer or trick count that cannot be scored; the message says why.

    ``message`` is a Message (bridge.messages): English as ``str()``, translated where it is
    shown; ``str(error)`` is ``"field: message"``."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(Message("%(field)s: %(message)s", field=field, message=message))
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Contract:
    level: int  # 0 for a passed-out board
    strain: str = ""
    doubling: int = 0  # 0, 1 (doubled) or 2 (redoubled)

    @property
    def passed_out(self) -> bool:
        return self.level == 0

    def __str__(self) -> str:
        if self.passed_out:
            return "PASS"
        return f"{self.level}{self.strain}{'X' * self.doubling}"


# A passed-out board as the programs write it (Bridgewebs: PO).
PASS_WORDS = frozenset({"PASS", "P", "AP", "PO", "PASSED OUT", "PASSED", "ALL PASS"})


def parse_contract(text: str | None) -> Contract:
    """Read a contract such as ``4S``, ``3NTX`` or ``Pass``; raise ContractError if malformed."""
    cleaned = (text or "").strip().upper().replace("*", "X")
    if cleaned in PASS_WORDS:
        return Contract(0)
    match = _CONTRACT_RE.match(cleaned)
    if not match:
        if re.match(r"^[0-9]", cleaned) and not re.match(r"^[1-7]", cleaned):
            raise ContractError(
                "contract", _("'%(text)s' has level %(level)s: a level is 1 to 7.", text=text, level=cleaned[0])
            )
        raise ContractError(
            "contract",
            _(
                "'%(text)s' is not a contract: write PASS, or a level 1-7, a strain "
                "(C, D, H, S, NT) and X or XX for doubled or redoubled, e.g. 4S or 3NTX.",
                text=text,
            ),
        )
    strain = match["strain"]
    return Contract(int(match["level"]), "NT" if strain in {"N", "NT"} else strain, len(match["doubling"]))


def contract_score(contract: Contract | str, tricks: int | None, vulnerable: bool) -> int:
    """Score of the declaring side (positive when made) for ``contract`` taking ``tricks``.

    ``contract`` is a Contract or its text; ``tricks`` is the number of tricks declarer took
    (0-13); ``vulnerable`` is whether the declaring side was vulnerable.
    """
    if isinstance(contract, str):
        contract = parse_contract(contract)
    if contract.passed_out:
        return 0
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 13:
        raise ContractError("tricks", _("%(t)s tricks: declarer takes 0 to 13 tricks.", t=repr(tricks)))
    needed = contract.level + 6
    multiplier = (1, 2, 4)[contract.doubling]
    if tricks >= needed:
        first = 40 if contract.strain == "NT" else (20 if contract.strain in {"C", "D"} else 30)
        per = 20 if contract.strain in {"C", "D"} else 30
        trick_score = (first + per * (contract.level - 1)) * multiplier
        score = trick_score
        score += (500 if vulnerable else 300) if trick_score >= 100 else 50
        if contract.level == 6:
            score += 750 if vulnerable else 500
        elif contract.level == 7:
            score += 1500 if vulnerable else 1000
        score += (0, 50, 100)[contract.doubling]
        over = tricks - needed
        if contract.doubling:
            score += over * (200 if vulnerable else 100) * (contract.doubling)
        else:
            score += over * per
        return score
    down = needed - tricks
    if not contract.doubling:
        return -down * (100 if vulnerable else 50)
    if vulnerable:
        penalty = 200 + 300 * (down - 1)
    else:
        penalty = sum(100 if i == 1 else 200 if i <= 3 else 300 for i in range(1, down + 1))
    return -penalty * contract.doubling


VULNERABILITIES = (None, "None", "NS", "EW", "All")


def vulnerable_for(seat: str | None, vulnerability: str | None) -> bool:
    """Whether ``seat`` (N, E, S, W) is vulnerable under ``vulnerability`` (None, NS, EW, All)."""
    if vulnerability not in VULNERABILITIES:
        raise ContractError("vulnerability", _("%(v)s is not None, NS, EW or All.", v=repr(vulnerability)))
    side = "NS" if seat in {"N", "S"} else "EW"
    return vulnerability == "All" or vulnerability == side


def ns_score(contract: Contract | str, declarer: str | None, tricks: int | None, vulnerability: str | None) -> int:
    """The Law 77 score from North-South's point of view."""
    if isinstance(contract, str):
        contract = parse_contract(contract)
    if contract.passed_out:
        return 0
    if declarer not in SEATS:
        raise ContractError("declarer", _("%(seat)s is not a seat: the declarer is N, E, S or W.", seat=repr(declarer)))
    score = contract_score(contract, tricks, vulnerable_for(declarer, vulnerability))
    return score if declarer in {"N", "S"} else -score


@functools.lru_cache(maxsize=len(VULNERABILITIES))
def possible_ns_scores(vulnerability: str | None) -> frozenset[int]:
    """Every N-S score some contract, declarer and number of tricks gives at ``vulnerability``
    (Law 77): a score outside it is impossible on the board, whatever the contract (a score not
    ending in 0 among them). Passed out: 0."""
    scores = {0}
    for level in range(1, 8):
        for strain in STRAINS:
            for doubling in range(3):
                contract = Contract(level, strain, doubling)
                for declarer in ("N", "E"):
                    for tricks in range(14):
                        scores.add(ns_score(contract, declarer, tricks, vulnerability))
    return frozenset(scores)


# Board number -> dealer and vulnerability, the 16-board cycle of Law 2 and PBN.
_VULN_CYCLE = (
    "None",
    "NS",
    "EW",
    "All",
    "NS",
    "EW",
    "All",
    "None",
    "EW",
    "All",
    "None",
    "NS",
    "All",
    "None",
    "NS",
    "EW",
)


def _board_number(number: int) -> int:
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise ContractError("board", _("%(n)s is not a board number (1 or more).", n=repr(number)))
    return number


def board_dealer(number: int) -> str:
    """The dealer of board ``number`` (1 -> N, 2 -> E, ...)."""
    return SEATS[(_board_number(number) - 1) % 4]


def board_vulnerability(number: int) -> str:
    """The vulnerability of board ``number``: "None", "NS", "EW" or "All"."""
    return _VULN_CYCLE[(_board_number(number) - 1) % 16]
