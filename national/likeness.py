"""What makes two rulings alike as a director sees it (issue #34): the subject of the laws cited,
read across editions; the kind of adjusted score; the structure of the facts; the outcome.

A case and a ruling are each reduced to tokens (``tokens``), written on the index row as one
space-delimited column (``PrecedentCase.likeness``) and compared by ``score``:

- ``S:<subject>``: the subject of a law cited (misinformation: 20F, 21B, 40, 75; unauthorised
  information: 16A, 16B, 16D, 73C, 73D; claims: 68-71; revokes: 61-64; irregular calls: 23-32
  and 16C, the information from a withdrawn call; ...), or of the kind of ruling. Law 12 (the
  adjusted score), 84-86 (how the director rules) and 92-93 (the appeal) are no subject: every
  ruling cites them.
- ``C:<citation>``: each citation in the numbering of the 2017 code (``CURRENT``), with the laws
  above it (``C:16 C:16B C:16B1 C:16B1A``), so that 1997 Law 16A and 2007 Law 16B1 meet; Law 12,
  84-86 and 92-93 are left out here too.
- ``K:<score kind>``: the adjusted score (weighted, assigned, split, artificial, redress): a
  likeness of its own, not a shared Law 12 citation.
- ``WHO:<side>``: who made the call the ruling is about (the tempo, the alert or the director's
  note): the side that opened the bidding (``OPENER``) or the other (``OTHER``).
- ``AT:<mark>:<bid>-<call>`` (in the auction column, ``national.precedents.auction_keys``): over
  which call.
- ``LA:YES`` / ``LA:NO``: whether a logical alternative was found (unauthorised information: the
  score was adjusted, or the result stood).
- ``OMIT:<what>``: what a claim left out (a trump, an entry, a finesse, a suit), from the claim
  statement and the facts.
- ``RES:<outcome>``: the final outcome (``ADJUSTED``, ``RECTIFICATION``, ``RESULT_STANDS``): for a
  published case the appeal's decision over the director's ruling (``final_outcome``), so a case
  the committee overturned is compared by what the committee decided; ``LA:`` follows it.
- ``S:weight``: a ruling or case that weights (Law 12C1c cited, or a weighted score): a ruling
  citing only 12C1c is offered the cases that weighted.

The floor needs the same kind of case: a case of another kind of ruling (both kinds naming a
subject, ``SUBJECT_KINDS``) is alike only with a citation in common down to its section.
- ``ED:<edition>``: the code of the Laws the citations are of.

Pure functions: no database.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any

CURRENT = "2017"

# Citations renumbered between the codes, as (edition, citation prefix) -> the 2017 prefix.
# 1997: 16A extraneous information from partner, 16B from other sources, 16C withdrawn action;
# 2007: 16B from partner, 16C other sources, 16D withdrawn; 2017: 16B partner, 16C withdrawn, 16D
# other sources. The 1997 adjusted scores: 12C1 artificial, 12C2 assigned, 12C3 (a committee's
# weighting); 2007/2017: 12C1 assigned (12C1c weighted), 12C2 artificial.
RENUMBERED = {
    ("1997", "16A"): "16B",
    ("1997", "16B"): "16D",
    ("1997", "16C"): "16C",
    ("2007", "16C"): "16D",
    ("2007", "16D"): "16C",
    ("1997", "12C1"): "12C2",
    ("1997", "12C2"): "12C1",
    ("1997", "12C3"): "12C1C",
}

# Subjects by citation prefix (2017 numbering): the longest prefix that matches decides.
SUBJECT_OF_PREFIX = {
    "16A": "ui",
    "16B": "ui",
    "16D": "ui",
    "16C": "calls",  # information from a withdrawn call or play: the irregular call's
    "73C": "ui",
    "73D": "ui",
    "73": "ui",
    "20F": "mi",
    "20": "mi",
    "21B": "mi",
    "21": "mi",
    "40": "mi",
    "75": "mi",
    "68": "claim",
    "69": "claim",
    "70": "claim",
    "71": "claim",
    "61": "revoke",
    "62": "revoke",
    "63": "revoke",
    "64": "revoke",
    "17": "calls",
    "18": "calls",
    "19": "calls",
    "23": "calls",
    "25": "calls",
    "26": "calls",
    "27": "calls",
    "28": "calls",
    "29": "calls",
    "30": "calls",
    "31": "calls",
    "32": "calls",
    "35": "calls",
    "36": "calls",
    "37": "calls",
    "38": "calls",
    "39": "calls",
    "24": "cards",
    "45": "cards",
    "47": "cards",
    "48": "cards",
    "49": "cards",
    "50": "cards",
    "51": "cards",
    "52": "cards",
    "53": "leads",
    "54": "leads",
    "55": "leads",
    "56": "leads",
    "57": "leads",
    "41": "leads",
    "42": "dummy",
    "43": "dummy",
    "13": "board",
    "14": "board",
    "15": "board",
    "87": "board",
    "82": "error",
    "90": "procedure",  # a procedural penalty (slow play, a late arrival, ...)
    "91": "conduct",  # a disciplinary penalty
    "74": "conduct",
}
# Law 12C1c (how to weight) is a subject of its own: a ruling that weights is offered the cases
# that weighted, whatever else they were about.
WEIGHTING = "12C1C"
# Cited by every kind of ruling: no subject, no citation likeness.
NOT_A_LIKENESS = {"12", "84", "85", "86", "92", "93"}
SUBJECT_OF_KIND = {
    "ui": "ui",
    "mi": "mi",
    "claim": "claim",
    "revoke": "revoke",
    "fouled_board": "board",
    "directors_error": "error",
    "procedural_penalty": "procedure",
    "disciplinary_penalty": "conduct",
}
# The floor needs the same kind of case: where both kinds name a subject and differ, a case is
# alike only if it shares a citation down to its section (16B, not only Law 16; 74A, not only
# 74): a disciplinary ruling for rudeness (74A, 91) is not offered a slow-play penalty (74, 90),
# while a misinformation case citing 16B1a still meets a Law 16B1a ruling. The kinds that name no
# subject (facts agreed or disputed, an adjusted score) meet every kind.
SUBJECT_KINDS = frozenset(SUBJECT_OF_KIND)
OTHER_KIND_DEPTH = 2
# What a claim left out, by the words of the claim statement and the facts (English, and the
# stems of the other languages the casebooks are written in).
OMISSIONS = {
    "TRUMP": ("trump", "atout", "troef", "טראמפ", "козир", "atú", "ατού"),
    "ENTRY": ("entry", "entries", "ingang", "вход", "כניסה"),
    "FINESSE": ("finesse", "snit", "імпас", "עקיפה", "svín"),
    "SUIT": ("suit was not mentioned", "line of play was not stated", "no line"),
}
OUTCOMES = {"adjusted": "ADJUSTED", "rectification": "RECTIFICATION", "result_stands": "RESULT_STANDS"}


# What the appeal's decision makes of the director's outcome: upheld, it stands; varied, the
# score was adjusted (again); overturned, an adjusted score gives way to the result and the result
# (or a rectification) to an adjustment.
OVERTURNED = {"adjusted": "result_stands", "result_stands": "adjusted", "rectification": "adjusted"}


def final_outcome(ruling_outcome: str, decision: str = "") -> str:
    """The outcome a committee cites: the appeal's decision over the director's ruling
    (``decision``: ``uphold``, ``vary``, ``overturn`` or "" where no body decided)."""
    if decision == "vary" and ruling_outcome:
        return "adjusted"
    if decision == "overturn":
        return OVERTURNED.get(ruling_outcome, ruling_outcome)
    return ruling_outcome


def _pieces(number: str) -> list[str]:
    return re.findall(r"\d+|[A-Za-z]", str(number or "").upper().replace("LAW", ""))


def current(number: str, edition: str = CURRENT) -> str:
    """``number`` of ``edition`` in the 2017 numbering: ``current("16A1", "1997") == "16B1"``."""
    text = "".join(_pieces(number))
    for (from_edition, prefix), renamed in sorted(RENUMBERED.items(), key=lambda item: -len(item[0][1])):
        if from_edition == str(edition) and text.startswith(prefix):
            return renamed + text[len(prefix) :]
    return text


def law_of(number: str) -> str:
    pieces = _pieces(number)
    return pieces[0] if pieces and pieces[0].isdigit() else ""


def subject_of(number: str) -> str:
    """The subject of a 2017 citation ("ui", "mi", ...); "" for none (Law 12, 92, ...); a law
    with no subject of its own is its own (``"L77"``); 12C1c, how to weight, is ``"weight"``."""
    if number.startswith(WEIGHTING):
        return "weight"
    if law_of(number) in NOT_A_LIKENESS or not law_of(number):
        return ""
    for length in range(len(number), 0, -1):
        if number[:length] in SUBJECT_OF_PREFIX:
            return SUBJECT_OF_PREFIX[number[:length]]
    return f"L{law_of(number)}"


def ancestors(number: str) -> list[str]:
    pieces = _pieces(number)
    return ["".join(pieces[:depth]) for depth in range(1, len(pieces) + 1)]


def _opening_side(calls: list[dict[str, Any]]) -> int | None:
    for index, call in enumerate(calls):
        if str(call.get("call") or "").upper() not in ("P", "PASS", ""):
            return index % 2
    return None


def who(auction: dict[str, Any] | None) -> str:
    """``OPENER`` or ``OTHER``: the side of the call with the tempo, else the director's note,
    else the alert, against the side that opened the bidding; "" if none."""
    calls = list((auction or {}).get("calls") or [])
    opener = _opening_side(calls)
    if opener is None:
        return ""
    for marked in (
        lambda call: call.get("tempo_seconds") is not None,
        lambda call: bool(call.get("note")),
        lambda call: bool(call.get("alert") or call.get("explanation")),
    ):
        point = next((i for i, call in enumerate(calls) if marked(call)), None)
        if point is not None:
            return "OPENER" if point % 2 == opener else "OTHER"
    return ""


def omissions(kind: str, texts: Iterable[str]) -> list[str]:
    if kind != "claim":
        return []
    text = " ".join(str(t or "") for t in texts).lower()
    return [name for name, words in OMISSIONS.items() if any(word in text for word in words)]


def tokens(
    *,
    kind: str,
    laws: Iterable[tuple[str, str]],
    score_kind: str = "",
    auction: dict[str, Any] | None = None,
    outcome: str = "",
    texts: Iterable[str] = (),
) -> list[str]:
    """The likeness tokens of a ruling or a published case. ``laws``: (citation, edition)."""
    found: list[str] = []

    def add(token: str) -> None:
        if token not in found:
            found.append(token)

    laws = list(laws)
    citations = [current(number, edition or CURRENT) for number, edition in laws]
    for number in citations:
        subject = subject_of(number)
        if subject:
            add(f"S:{subject}")
    if SUBJECT_OF_KIND.get(kind):
        add(f"S:{SUBJECT_OF_KIND[kind]}")
    for number in citations:
        if law_of(number) not in NOT_A_LIKENESS:
            for part in ancestors(number):
                add(f"C:{part}")
    for _number, edition in laws:
        add(f"ED:{edition or CURRENT}")
    if score_kind == "weighted":
        add("S:weight")
    if score_kind:
        add(f"K:{score_kind.upper()}")
    side = who(auction)
    if side:
        add(f"WHO:{side}")
    if outcome in OUTCOMES:
        add(f"RES:{OUTCOMES[outcome]}")
        if kind == "ui" or any(subject_of(n) == "ui" for n in citations):
            add("LA:YES" if outcome == "adjusted" else "LA:NO")
    texts = list(texts)
    claim = (auction or {}).get("claim") or {}
    for name in omissions(kind, [*texts, claim.get("text") or ""]):
        add(f"OMIT:{name}")
    return found


def column(found: Iterable[str]) -> str:
    found = list(found)
    return f" {' '.join(found)} " if found else " "


# What each likeness is worth to a director. A case with no subject in common is never alike;
# below FLOOR nothing is suggested.
# A committee compares the facts first (the same irregularity or information, the same call or play
# after it, the same finding of logical alternatives), then the laws and the kind of score.
POINTS = {
    "subject": 6,
    "citation": 1,  # for each level of the deepest citation in common: 16 = 1, 16B = 2, 16B1A = 4
    "kind": 4,  # the same kind of ruling (a UI ruling, a claim, ...)
    "score_kind": 3,
    "who": 2,
    "mark": 4,  # the same kind of irregularity (a tempo, a note, an alert)
    "call": 8,  # at the same call after the same bid
    "la": 2,
    "omission": 8,
    "result": 1,
    "edition": 1,  # the same code of the Laws (a 1997 Law 64A2 is not a 2017 one)
    "contract": 1,
    "words": 1,  # each word of the ruling's the case's text holds, at most WORDS
}
WORDS = 2
FLOOR = 9


@functools.lru_cache(maxsize=4096)
def _depth(token: str) -> int:
    """The depth of a ``C:`` token: ``C:16`` 1, ``C:16B1A`` 4."""
    return len(_pieces(token[2:]))


# The points of each likeness token in common, by its prefix (the subject and the citation are
# counted apart).
TOKEN_POINTS = {
    "K:": POINTS["score_kind"],
    "WHO:": POINTS["who"],
    "LA:": POINTS["la"],
    "OMIT:": POINTS["omission"],
    "RES:": POINTS["result"],
    "ED:": POINTS["edition"],
}


def token_points(token: str) -> int:
    """What one token in common adds at most: a subject 6, each level of a citation 1, a kind of
    score 4, ... (the database's upper bound of ``Ruler.score``, without the words)."""
    head = token[: token.index(":") + 1] if ":" in token else ""
    if head == "S:":
        return POINTS["subject"]
    if head == "C:":
        return POINTS["citation"]
    if head == "AT:":
        return POINTS["call"] if token.count(":") == 2 else POINTS["mark"]
    return TOKEN_POINTS.get(head, 0)


class Ruler:
    """A ruling's tokens, ready to score many cases against (``score``)."""

    def __init__(self, tokens: Iterable[str], *, kind: str, auction: Iterable[str] = (), contract: str = ""):
        self.tokens = frozenset(tokens)
        self.kind = kind
        auction = list(auction)
        self.marks = frozenset(k for k in auction if k.startswith("AT:") and k.count(":") == 1)
        self.calls = frozenset(k for k in auction if k.startswith("AT:") and k.count(":") == 2)
        self.contract = contract

    def score(self, case: Iterable[str], *, kind: str, auction: str = "", contract: str = "", words: int = 0) -> int:
        """The points of a case (its tokens, kind, auction column, contract and the number of
        the ruling's words its text holds); 0 where no subject is shared."""
        common = self.tokens.intersection(case)
        subjects = depth = points = 0
        for token in common:
            head = token[:2]
            if head == "S:":
                subjects += 1
            elif head == "C:":
                depth = max(depth, _depth(token))
            else:
                points += TOKEN_POINTS.get(token[: token.index(":") + 1], 0)
        if not subjects:
            return 0
        if self.kind in SUBJECT_KINDS and kind in SUBJECT_KINDS and kind != self.kind and depth < OTHER_KIND_DEPTH:
            return 0  # another kind of case, without a citation in common down to its section
        points += POINTS["subject"] * min(subjects, 2) + POINTS["citation"] * depth
        if self.kind and self.kind == kind:
            points += POINTS["kind"]
        if self.marks or self.calls:
            theirs = set(auction.split())
            if self.marks & theirs:
                points += POINTS["mark"]
            if self.calls & theirs:
                points += POINTS["call"]
        if self.contract and self.contract == contract:
            points += POINTS["contract"]
        return points + POINTS["words"] * min(words, WORDS)

    def alike(self, case: Iterable[str], *, kind: str, auction: str = "") -> list[str]:
        """What is alike, as tokens: the subjects, each citation in common at its deepest (16B1A,
        not 16B as well), the kind ("KIND:ui"), the other tokens in common, the auction's."""
        common = self.tokens.intersection(case)
        cited = [t for t in common if t.startswith("C:")]
        found = sorted(t for t in common if t.startswith("S:"))
        found += sorted(t for t in cited if not any(o != t and o.startswith(t) for o in cited))
        if self.kind and self.kind == kind:
            found.append(f"KIND:{kind}")
        found += sorted(t for t in common if t[:2] not in ("S:", "C:"))
        theirs = set(auction.split())
        found += sorted((self.marks | self.calls) & theirs)
        return found
