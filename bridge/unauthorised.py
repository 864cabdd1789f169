"""Law 16, unauthorised information from partner, as it happened, per edition (issue #28).

The facts of the source (what kind, who, how long, whether both sides agreed it happened or the
director found it on the balance of probabilities, Law 85), the action the partner chose, the
logical alternatives with what a poll of the player's peers said of each, what the information
demonstrably suggested, and whether the offenders gained from it; from them the finding, the
laws it cites in the edition in force, and a weighted score (Law 12C1(c)) proposed from the poll
that the director may change.

The editions' words:

- 1997 Law 16A: after extraneous information from partner ("a remark, a question, a reply to a
  question, or ... unmistakable hesitation, unwonted speed, special emphasis, tone, gesture,
  movement, mannerism or the like") the partner "may not choose from among logical alternative
  actions one that could demonstrably have been suggested over another"; the 1997 Laws do not
  define a logical alternative. The director adjusts, in the same Law 16A, when "an infraction
  of law has resulted in damage".
- 2007 Law 16B1(a): the same test, the list adding "an unexpected alert or failure to alert";
  16B1(b) defines a logical alternative: an action that "among the class of players in question
  and using the methods of the partnership, would have been given serious consideration by a
  significant proportion of such players, of whom it is judged some might select it". 16B3: the
  director adjusts (12C) when the offender gained an advantage through the infraction.
- 2017 Law 16B1(a) turns it round: a player "may not choose a call or play that is demonstrably
  suggested over another by unauthorised information if the other call or play is a logical
  alternative"; 16B1(b) defines the logical alternative; 16B3 as in 2007.

The proposal follows the definition: an alternative is proposed as logical when at least one
polled player chose it ("some might select it") and the director records that a significant
proportion would seriously consider it; the weights of the proposed 12C1(c) score are the poll's
counts of the logical alternatives not suggested by the information. Where the ruling has a poll
as data (bridge.polls), its finding by the regulating authority's threshold is passed in
(``Alternative.from_poll``, the peers' counts as ``chose``) and decides the proposal instead
(issue #44). The director decides both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bridge import messages
from bridge.call_laws import EDITIONS, IrregularityError, check_edition
from bridge.messages import Message, _

SOURCES = (
    "hesitation",
    "unwonted_speed",
    "remark",
    "question",
    "reply",
    "alert",
    "failure_to_alert",
    "explanation",
    "emphasis",
    "gesture",
    "other",
)
# The sources the Law's own list names in each edition (1997 has no alerts; "or the like"
# covers any other manner). Everything else is recorded as ``other`` with a note.
NAMED = {
    "1997": (
        "hesitation",
        "unwonted_speed",
        "remark",
        "question",
        "reply",
        "emphasis",
        "gesture",
    ),
    "2007": (
        "hesitation",
        "unwonted_speed",
        "remark",
        "question",
        "reply",
        "alert",
        "failure_to_alert",
        "emphasis",
        "gesture",
    ),
}
NAMED["2017"] = NAMED["2007"]


@dataclass(frozen=True)
class Source:
    """Where the information came from: ``kind`` (one of SOURCES), the ``seat`` that made it
    available, ``seconds`` a hesitation or tray delay lasted, ``agreed`` whether both sides agree
    it happened; when not, ``found`` the director's finding (Law 85: on the balance of
    probabilities)."""

    kind: str
    seat: str
    seconds: int | None = None
    agreed: bool = True
    found: bool = False
    note: str = ""

    @property
    def established(self) -> bool:
        return self.agreed or self.found


@dataclass(frozen=True)
class Alternative:
    """An action the player could have chosen instead: ``chose`` how many polled players chose
    it, ``considered`` how many would have seriously considered it (None: not asked),
    ``suggested`` whether the information demonstrably suggested the action chosen over this
    one, ``logical`` the director's decision (None: take the proposal), ``from_poll`` whether
    the poll's finding by the authority's threshold (bridge.polls.find) makes it a logical
    alternative (None: no such finding; the proposal is then read from the counts), and the
    result it would have led to (``contract``, ``declarer``, ``tricks``) for the weighted score."""

    action: str
    chose: int = 0
    considered: int | None = None
    suggested: bool = True
    logical: bool | None = None
    contract: str = ""
    declarer: str = ""
    tricks: int | None = None
    from_poll: bool | None = None

    def proposed_logical(self) -> bool:
        if self.from_poll is not None:
            return self.from_poll
        return self.chose > 0 or bool(self.considered)

    def is_logical(self) -> bool:
        return self.proposed_logical() if self.logical is None else self.logical


@dataclass(frozen=True)
class Finding:
    """The outcome: ``infraction`` (the action chosen was demonstrably suggested over a logical
    alternative), ``adjust`` (and the offenders gained, or in 1997 the other side was damaged),
    the ``laws`` to cite in order, ``text`` the finding in words, ``logical`` the alternatives
    found logical, and ``weights`` the proposed Law 12C1(c) components."""

    infraction: bool
    adjust: bool
    laws: tuple[str, ...]
    text: Message
    logical: tuple[str, ...] = ()
    weights: tuple[dict[str, Any], ...] = field(default_factory=tuple)
    weighting_allowed: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "infraction": self.infraction,
            "adjust": self.adjust,
            "laws": list(self.laws),
            **messages.stored(self.text),
            "logical": list(self.logical),
            "weights": [dict(w) for w in self.weights],
            "weighting_allowed": self.weighting_allowed,
        }


def infraction_law(edition: str) -> str:
    """The law the partner breaks: 16A (1997), 16B1a (2007, 2017)."""
    check_edition(edition)
    return "16A" if edition == "1997" else "16B1a"


def adjustment_laws(edition: str, weighted: bool, weighting_allowed: bool = True) -> tuple[str, ...]:
    """The laws of the adjustment: 1997 an assigned score 12C2 (weighted: 12C3; the adjustment
    itself is in 16A), 2007 and 2017 16B3 with 12C1c (weighted) or 12C1 (assigned). Where the
    regulating authority does not allow weighting and several results were possible, each side
    gets one: 2007, 2017 12C1e ("the most favourable result that was likely" to the
    non-offenders, "the most unfavourable result that was at all probable" to the offenders);
    1997 12C2 says the same."""
    check_edition(edition)
    weighted = weighted and weighting_allowed
    if edition == "1997":
        return ("12C3" if weighted else "12C2",)
    if not weighting_allowed:
        return ("16B3", "12C1e")
    return ("16B3", "12C1c" if weighted else "12C1")


def check_source(edition: str, source: Source) -> None:
    check_edition(edition)
    if source.kind not in SOURCES:
        raise IrregularityError(
            "source", _("'%(kind)s' is not a source of unauthorised information Law 16 names", kind=source.kind)
        )
    if source.seat not in ("N", "E", "S", "W"):
        raise IrregularityError("source_seat", _("Say who made the information available: N, E, S or W."))
    if source.seconds is not None and not 0 <= source.seconds <= 3600:
        raise IrregularityError("seconds", _("A hesitation lasts from 0 to 3600 seconds."))


def proposed_weights(alternatives: list[Alternative], chosen: str = "") -> tuple[dict[str, Any], ...]:
    """The Law 12C1(c) components proposed from the poll: each logical alternative the
    information did not suggest, with a result recorded, weighted by how many polled players
    chose it (equal weights when none was polled). The action ``chosen``, demonstrably
    suggested, is never one (16B1(a): the player may not choose it; 12B1: the score is what
    would have been without the infraction), even when it is entered among the alternatives.
    Weights are exact fractions as text ("2/3"), which the ruling form and
    rulings.services.build_adjusted_score read."""
    rows = [
        a
        for a in alternatives
        if a.is_logical()
        and a.suggested
        and a.action.strip().lower() != chosen.strip().lower()
        and a.contract
        and a.tricks is not None
    ]
    if not rows:
        return ()
    total = sum(a.chose for a in rows)
    weights = [Fraction(a.chose, total) if total else Fraction(1, len(rows)) for a in rows]
    return tuple(
        {
            "action": a.action,
            "contract": a.contract,
            "declarer": a.declarer,
            "tricks": a.tricks,
            "weight": f"{w.numerator}/{w.denominator}" if w.denominator != 1 else str(w.numerator),
        }
        for a, w in zip(rows, weights, strict=True)
        if w
    )


def assess(
    edition: str,
    source: Source,
    chosen: str,
    alternatives: list[Alternative],
    *,
    gained: bool,
    weighting_allowed: bool = True,
) -> Finding:
    """Law 16 on the facts: the information must be established (agreed, or found), the
    action ``chosen`` demonstrably suggested over at least one logical alternative
    (``Alternative.suggested``), and for an adjustment the offenders must have gained (2007,
    2017: 16B3) or the other side been damaged (1997: 16A2) -- ``gained`` either way.
    ``weighting_allowed`` the regulating authority's setting (12C1c "unless the Regulating
    Authority forbids"): without it the laws cited are 12C1e (1997 12C2), not 12C1c."""
    check_source(edition, source)
    if not chosen.strip():
        raise IrregularityError("chosen_action", _("Say which call or play the partner chose."))
    law = infraction_law(edition)
    if not source.established:
        return Finding(
            False,
            False,
            ("85",),
            _("the facts are not established: no unauthorised information was found to be available (Law 85)"),
        )
    logical = tuple(a.action for a in alternatives if a.is_logical() and a.action.strip() != chosen.strip())
    suggested_over = [a.action for a in alternatives if a.action in logical and a.suggested]
    if not logical:
        return Finding(
            False,
            False,
            (law,),
            _("no logical alternative to %(chosen)s: the partner was free to choose it", chosen=chosen),
        )
    if not suggested_over:
        return Finding(
            False,
            False,
            (law,),
            _(
                "%(chosen)s was not demonstrably suggested over a logical alternative (%(logical)s): no infraction",
                chosen=chosen,
                logical=", ".join(logical),
            ),
            logical,
        )
    weights = proposed_weights(alternatives, chosen)
    if not gained:
        return Finding(
            True,
            False,
            (law,),
            _(
                "%(chosen)s was demonstrably suggested over %(alternatives)s, but the offenders gained nothing "
                "from it: the result stands",
                chosen=chosen,
                alternatives=", ".join(suggested_over),
            ),
            logical,
        )
    laws = (
        law,
        *(("16B1b",) if edition in EDITIONS[1:] else ()),
        *adjustment_laws(edition, len(weights) > 1, weighting_allowed),
    )
    return Finding(
        True,
        True,
        laws,
        _(
            "%(chosen)s was demonstrably suggested over %(alternatives)s by the unauthorised information: the score "
            "is adjusted",
            chosen=chosen,
            alternatives=", ".join(suggested_over),
        ),
        logical,
        weights,
        weighting_allowed,
    )
