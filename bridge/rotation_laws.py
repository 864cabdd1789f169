"""Laws 29-32 (calls out of rotation) and Law 26 (lead restrictions after a withdrawn call) as
tables, one per edition (1997, 2007, 2017): each row is one paragraph of that edition's text,
its words beside it, and what it does. The functions below only name the situation the facts
meet; the edition's row gives the law cited and the rectification, so the page's options, the
service's checks and the ruling's citations read the same row. The editions differ where their
texts differ: 2017 lets a comparable call (Law 23A) end the matter, bars the offender's partner
at his next turn only otherwise (30B1(b)(ii), 31A2(b), 31B, 32A2(b), 32B), letters Law 32's
paragraphs the other way round (32A the right-hand opponent's turn) and has one Law 26B
(prohibit any one suit the offender did not specify) where 1997 and 2007 have 26A and 26B.
``bridge.irregularities`` re-exports every public name.

Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bridge import messages
from bridge.call_laws import (
    EDITIONS,
    LAW_23,
    TURNS,
    Choice,
    IrregularityError,
    Rectification,
    check_edition,
    damage_law,
    is_bid,
)
from bridge.deals import normalise_call
from bridge.messages import Message

# bridge.messages is not annotated yet: its marker, typed here (makemessages still reads "_").
_: Callable[..., Message] = messages._

SUIT_LETTERS = ("S", "H", "D", "C")

# --- The texts (one Message each; several paragraphs say the same) -----------------------------

ACCEPTED = _("accepted: the offender's left-hand opponent called over it; the auction goes on")
CHANGE = _("made at the left-hand opponent's turn after the offender had called: a change of call, Law 25 applies")
PASS_FIRST = _("a pass out of rotation before any bid: the offender must pass at his next turn")
PASS_AT_RHO = _("a pass at the right-hand opponent's turn: the offender must pass at his next turn")
PASS_AT_PARTNER = _(
    "a pass at partner's turn: the offender must pass whenever it is his turn; his partner may make any "
    "sufficient bid or pass, but not double or redouble, at that turn"
)
REPEATED = _("the right-hand opponent passed: the offender must repeat the call, and there is no rectification")
RHO_TO_CALL = _(
    "cancelled; the rectification depends on the right-hand opponent's call: if he passes the offender "
    "repeats the call, otherwise the offender calls as he likes"
)
COMPARABLE_AT_RHO = _("the offender's call is comparable: no further rectification")
COMPARABLE_AT_TURN = _("the offender's call at his turn is comparable: no further rectification")
SAME_DENOMINATION = _("the offender bid the same denomination again: his partner must pass at his next turn")
OTHER_AT_RHO = _(
    "the offender may make any legal call; his partner must pass whenever it is his turn; Law 26 lead "
    "restrictions may apply"
)
AT_PARTNER = _(
    "cancelled: the offender may make any legal call at his turn; his partner must pass whenever it is his "
    "turn; Law 26 lead restrictions may apply"
)
NOT_COMPARABLE_2017 = _(
    "the offender's call at his correct turn is not comparable: his partner must pass when next it is his "
    "turn to call; Laws 16C, 26B and 72C may apply"
)


def _row(law: str, text: Message, **effect: Any) -> Rectification:
    return Rectification(law, text, **effect)


def _barred(law: str, text: Message, edition: str, how_long: str) -> Rectification:
    return _row(law, text, partner_must_pass=how_long, lead_restriction=True, adjustment=damage_law(edition))


def _older(edition: str) -> dict[str, Rectification]:
    """1997 and 2007 (the same paragraphs): 30A "the offender must pass when next it is his turn";
    30B1 at RHO's turn the same; 30B2(a) at partner's turn "the offender must pass whenever it is
    his turn", (b) partner "may not double or redouble at that turn"; 31A1 RHO passes, "offender
    must repeat"; 31A2(a) "repeats a denomination of his call out of rotation: partner must pass
    when next it is his turn", (b) otherwise "partner must pass whenever it is his turn", Law 26;
    31B at partner's (or LHO's) turn, partner "must pass whenever it is his turn"; 32A at partner's
    turn, the same; 32B1 RHO passes, repeat; 32B2 RHO calls, partner passes throughout."""
    damage = damage_law(edition)
    return {
        "accepted": _row("29A", ACCEPTED, stands=True),
        "change": _row("25", CHANGE, change_of_call=True),
        "pass_first": _row("30A", PASS_FIRST, offender_must_pass="next", adjustment=damage),
        "pass_rho_first": _row("30A", PASS_FIRST, offender_must_pass="next", adjustment=damage),
        "pass_rho": _row("30B1", PASS_AT_RHO, offender_must_pass="next"),
        "pass_partner": _row(
            "30B2", PASS_AT_PARTNER, offender_must_pass="throughout", partner_may_not_double=True, adjustment=damage
        ),
        "bid_rho_open": _row("31A", RHO_TO_CALL, lead_restriction=True),
        "bid_rho_repeated": _row("31A1", REPEATED, offender_must_repeat=True),
        "bid_rho_same_denomination": _row("31A2a", SAME_DENOMINATION, partner_must_pass="next", adjustment=damage),
        "bid_rho_other": _barred("31A2b", OTHER_AT_RHO, edition, "throughout"),
        "bid_partner": _barred("31B", AT_PARTNER, edition, "throughout"),
        "double_rho_open": _row("32B", RHO_TO_CALL, lead_restriction=True),
        "double_rho_repeated": _row("32B1", REPEATED, offender_must_repeat=True),
        "double_rho_other": _barred("32B2", OTHER_AT_RHO, edition, "throughout"),
        "double_partner": _barred("32A", AT_PARTNER, edition, "throughout"),
    }


# 2017: 30A at RHO's turn "offender must pass when next it is his turn to call"; 30B1 at partner's
# turn (or LHO's, the offender not having called): (a) partner "may make any legal call at his proper
# turn" (16C2), (b) offender "may make any legal call at his correct turn": (i) comparable, "no
# further rectification"; (ii) not comparable, "offender's partner must pass when next it is his
# turn to call"; 30B2 at LHO's turn after the offender had called, Law 25. 31A1 RHO passes, repeat;
# 31A2(a) comparable, none (23C), (b) not comparable, partner "must pass when next it is his turn
# to call. Laws 16C, 26B and 72C may apply"; 31B partner's or LHO's turn: "the Director rules as in
# A2(a) or A2(b)". 32A the RHO's turn (32A1 repeat, 32A2(a) comparable, 32A2(b) partner passes at
# his next turn), 32B partner's turn, ruled as 32A2(a) or (b).
COMPARABLE_DAMAGE = LAW_23["2017"].comparable_damage  # 23C
ROTATION_2017: dict[str, Rectification] = {
    "accepted": _row("29A", ACCEPTED, stands=True),
    "change": _row("25", CHANGE, change_of_call=True),
    "pass_rho_first": _row("30A", PASS_AT_RHO, offender_must_pass="next"),
    "pass_rho": _row("30A", PASS_AT_RHO, offender_must_pass="next"),
    "pass_first": _barred("30B1b", NOT_COMPARABLE_2017, "2017", "next"),
    "pass_first_comparable": _row("30B1b", COMPARABLE_AT_TURN, adjustment=COMPARABLE_DAMAGE),
    "pass_partner": _barred("30B1b", NOT_COMPARABLE_2017, "2017", "next"),
    "pass_partner_comparable": _row("30B1b", COMPARABLE_AT_TURN, adjustment=COMPARABLE_DAMAGE),
    "bid_rho_open": _row("31A", RHO_TO_CALL, lead_restriction=True),
    "bid_rho_repeated": _row("31A1", REPEATED, offender_must_repeat=True),
    "bid_rho_other_comparable": _row("31A2a", COMPARABLE_AT_RHO, adjustment=COMPARABLE_DAMAGE),
    "bid_rho_other": _barred("31A2b", NOT_COMPARABLE_2017, "2017", "next"),
    "bid_partner_comparable": _row("31B", COMPARABLE_AT_TURN, adjustment=COMPARABLE_DAMAGE),
    "bid_partner": _barred("31B", NOT_COMPARABLE_2017, "2017", "next"),
    "double_rho_open": _row("32A", RHO_TO_CALL, lead_restriction=True),
    "double_rho_repeated": _row("32A1", REPEATED, offender_must_repeat=True),
    "double_rho_other_comparable": _row("32A2a", COMPARABLE_AT_RHO, adjustment=COMPARABLE_DAMAGE),
    "double_rho_other": _barred("32A2b", NOT_COMPARABLE_2017, "2017", "next"),
    "double_partner_comparable": _row("32B", COMPARABLE_AT_TURN, adjustment=COMPARABLE_DAMAGE),
    "double_partner": _barred("32B", NOT_COMPARABLE_2017, "2017", "next"),
}

ROTATION: dict[str, dict[str, Rectification]] = {"1997": _older("1997"), "2007": _older("2007"), "2017": ROTATION_2017}
assert set(ROTATION) == set(EDITIONS)


@dataclass(frozen=True)
class OutOfRotation:
    """The facts of a call out of rotation (Laws 29-32).

    ``call`` the call; ``turn`` whose turn it was seen from the offender: ``rho`` (his
    right-hand opponent's), ``partner`` or ``lho``; ``any_bid_before`` a bid had been made
    before it (Law 30A/30B); ``offender_had_called`` the offender had called before in the
    auction (a call at LHO's turn is then a change of call, 30B3 / 31B footnote);
    ``accepted`` the offender's LHO called over it (29A); ``artificial`` the call (or a pass
    of partner's artificial call) was artificial (29C, 30C); ``rho_call`` what the right-hand
    opponent then called (``Pass`` or a bid, double, redouble: 31A, 32B); ``replacement``
    the offender's call at his turn; ``comparable`` the director's judgement that it is a
    comparable call (2017, Law 23A)."""

    call: str
    turn: str
    any_bid_before: bool = False
    offender_had_called: bool = False
    accepted: bool = False
    artificial: bool = False
    rho_call: str = ""
    replacement: str = ""
    comparable: bool = False

    def check(self) -> None:
        normalise_call(self.call)
        if self.turn not in TURNS:
            raise IrregularityError(
                "turn",
                _(
                    "'%(text)s' is not whose turn it was: rho (right-hand opponent), partner or lho (left-hand opponent)",
                    text=self.turn,
                ),
            )
        if self.rho_call and self.turn != "rho":
            raise IrregularityError(
                "rho_call", _("the right-hand opponent's call matters only when the call was made at his turn")
            )


def rotation_situation(facts: OutOfRotation) -> str:
    """The situation of Laws 29-32 the facts meet (a key of every edition's table, before the
    ``_comparable`` an edition may add)."""
    call = normalise_call(facts.call)
    if facts.accepted:
        return "accepted"
    if facts.turn == "lho" and (facts.offender_had_called or (call == "Pass" and facts.any_bid_before)):
        return "change"
    if call == "Pass" and not facts.artificial:
        if facts.turn == "rho":
            return "pass_rho" if facts.any_bid_before else "pass_rho_first"
        return "pass_partner" if facts.any_bid_before else "pass_first"
    kind = "double" if call in ("X", "XX") else "bid"
    if facts.turn != "rho":
        return f"{kind}_partner"
    rho_call = normalise_call(facts.rho_call) if facts.rho_call else ""
    if not rho_call:
        return f"{kind}_rho_open"
    if rho_call == "Pass":
        return f"{kind}_rho_repeated"
    replacement = normalise_call(facts.replacement) if facts.replacement else ""
    if kind == "bid" and is_bid(call) and is_bid(replacement) and replacement[1:] == call[1:] and not facts.artificial:
        return "bid_rho_same_denomination"
    return f"{kind}_rho_other"


def call_out_of_rotation(edition: str, facts: OutOfRotation) -> Rectification:
    """Laws 29-32 in ``edition``: the row of the edition's table for the facts. The director's
    judgement that the offender's call at his turn is comparable (``comparable``, with the call
    given) counts only where the edition's text has the comparable-call paragraph (2017); the
    1997 and 2007 31A2(a) "repeats the denomination" exists only in those editions."""
    check_edition(edition)
    facts.check()
    table = ROTATION[edition]
    situation = rotation_situation(facts)
    if situation == "bid_rho_same_denomination" and situation not in table:
        situation = "bid_rho_other"
    comparable = f"{situation}_comparable"
    if facts.comparable and facts.replacement and comparable in table:
        return table[comparable]
    return table[situation]


def out_of_rotation_options(edition: str, facts: OutOfRotation) -> list[Choice]:
    """The left-hand opponent may accept (29A, key ``29A``) or not (key ``29B``: cancelled,
    the auction goes back to the player whose turn it was, and Laws 30-32 apply)."""
    check_edition(edition)
    facts.check()
    accepted = OutOfRotation(**{**facts.__dict__, "accepted": True})
    refused = OutOfRotation(**{**facts.__dict__, "accepted": False})
    return [
        Choice("29A", "lho", call_out_of_rotation(edition, accepted)),
        Choice("29B", "lho", call_out_of_rotation(edition, refused)),
    ]


# --- Law 26 --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeadRestriction:
    """Law 26: what declarer may do at the offender's partner's first turn to lead (the
    opening lead included). ``law`` 26A1, 26A2, 26B (2017: 26A, 26B) or ``""`` (no
    restriction); ``require`` the suits declarer may require (one of them), ``prohibit`` the
    suits he may prohibit (one; the prohibition lasts while the partner keeps the lead)."""

    law: str
    text: Message
    require: tuple[str, ...] = ()
    prohibit: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"law": self.law, "text": str(self.text), "require": list(self.require), "prohibit": list(self.prohibit)}


DECLARERS_SIDE = _("the offender's side declares: no lead restriction")
# 1997 and 2007 26A1 "each such suit was specified in the legal auction by the same player":
# no restriction (Law 16); 26A2 "declarer may (a) require the offender's partner to lead such a
# suit ... or (b) prohibit (one) such suit"; 26B "other withdrawn calls": "prohibit ... any one suit".
LEAD_OLDER = {
    "26A1": _("the offender specified the same suits in the legal auction: no lead restriction (Law 16 applies)"),
    "26A2": _(
        "declarer may require the lead of a suit the withdrawn call specified and the offender did not, or "
        "prohibit the lead of one such suit for as long as the offender's partner keeps the lead"
    ),
    "26B": _("declarer may prohibit the lead of any one suit, for as long as the offender's partner keeps the lead"),
}
# 2017 26A "replaced by a comparable call ... there are no lead restrictions"; 26B "not replaced by a
# comparable call": declarer may "prohibit offender's partner from leading any (one) suit which has
# not been specified in the legal auction by the offender ... for as long as [he] retains the lead".
LEAD_2017 = {
    "26A": _("replaced by a comparable call: no lead restriction (Law 23A)"),
    "26B": _(
        "declarer may prohibit the lead of any one suit the offender did not specify in the legal auction, for as "
        "long as the offender's partner keeps the lead"
    ),
}


def lead_restriction(
    edition: str,
    *,
    withdrawn_suits: Sequence[str],
    offender_specified: Sequence[str] = (),
    offender_specified_later: Sequence[str] | None = None,
    offender_declarer_side: bool = False,
    comparable: bool = False,
) -> LeadRestriction:
    """Law 26 for a withdrawn call by the offender. ``withdrawn_suits`` the suits the
    withdrawn call related to and to no other (empty: an artificial call, a pass, a double:
    26B); ``offender_specified`` the suits the offender specified in the legal auction;
    ``offender_specified_later`` those he specified after the withdrawn call (1997 26A1 reads
    "later"; None: the same as ``offender_specified``). No restriction when the offender's side
    declares. 2017: none after a comparable call (26A); otherwise declarer may prohibit any one
    suit the offender did not specify in the legal auction (26B), whatever the withdrawn call."""
    check_edition(edition)
    for suit in (*withdrawn_suits, *offender_specified, *(offender_specified_later or ())):
        if suit not in SUIT_LETTERS:
            raise IrregularityError("suit", _("'%(text)s' is not a suit: S, H, D or C", text=suit))
    if offender_declarer_side:
        return LeadRestriction("", DECLARERS_SIDE)
    if edition == "2017":
        if comparable:
            return LeadRestriction("26A", LEAD_2017["26A"])
        unspecified = tuple(s for s in SUIT_LETTERS if s not in offender_specified)
        return LeadRestriction("26B", LEAD_2017["26B"], prohibit=unspecified)
    if not withdrawn_suits:
        return LeadRestriction("26B", LEAD_OLDER["26B"], prohibit=SUIT_LETTERS)
    specified = (
        offender_specified_later if (edition == "1997" and offender_specified_later is not None) else offender_specified
    )
    unspecified = tuple(s for s in SUIT_LETTERS if s in withdrawn_suits and s not in specified)
    if not unspecified:
        return LeadRestriction("26A1", LEAD_OLDER["26A1"])
    return LeadRestriction("26A2", LEAD_OLDER["26A2"], require=unspecified, prohibit=unspecified)


__all__ = [
    "LEAD_2017",
    "LEAD_OLDER",
    "LeadRestriction",
    "OutOfRotation",
    "ROTATION",
    "SUIT_LETTERS",
    "call_out_of_rotation",
    "lead_restriction",
    "out_of_rotation_options",
    "rotation_situation",
]
