"""Law 27 (insufficient bid) and Law 25 (changes of call) as tables, one per edition (1997, 2007,
2017): each row is one paragraph of that edition's text, its words beside it, and what it does.
The functions below only name the situation the facts meet (``insufficient_situation``,
``change_situation``); the edition's row gives the law cited and the rectification, so the
irregularity page's options, the service's checks (``bridge.auction_checks.obligation``) and the
ruling's citations read the same row. Law 23 (1997, 2007: the damage the offender could have
known of; 2017: the comparable call) is ``bridge.call_laws.LAW_23``.

The editions differ where their texts differ:

- 1997 letters Law 27 without sub-paragraphs of A (27A accepted; 27C out of rotation), has no
  call "with the same or a more precise meaning" (27B1b there is the adjusted score when the
  insufficient bid gave damaging information) and no 27B4 (a second insufficient bid is 27B2);
- 2007 27B1(b) lets a call with the same or a more precise meaning end the matter, 2017 27B1(b)
  a comparable call (Law 23A); 2017 refers to 72C where 2007 refers to Law 23;
- 1997 25A allows the change "only if he does so ... without pause for thought" (2007 the same),
  2017 25A1 whatever the pause; 1997 25A is one paragraph ("Until his partner makes a call"),
  2007 and 2017 name the too-late cases 25A2 and 25A3; 1997 25B2(b) lets the offender make any
  other legal call, his side getting at most average minus; 2017 25B1 and 25B2 add "(Law 26 may
  apply)"; 2007 and 2017 25B3 apply Law 16 to the call withdrawn or cancelled.

``bridge.irregularities`` re-exports every public name. Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bridge import messages
from bridge.call_laws import (
    EDITIONS,
    LAW_23,
    Choice,
    IrregularityError,
    Rectification,
    bid_rank,
    check_edition,
    damage_law,
    is_bid,
    lowest_sufficient,
)
from bridge.deals import DealError, normalise_call
from bridge.messages import Message

# bridge.messages is not annotated yet: its marker, typed here (makemessages still reads "_").
_: Callable[..., Message] = messages._

# --- Law 27: the texts (one Message each; several paragraphs say the same) ---------------------

ACCEPTED = _("accepted by the left-hand opponent: the bid stands and the auction goes on")
OUT_OF_ROTATION = _("an insufficient bid out of rotation: Law 31 applies")
NOT_REPLACED = _("not accepted: the offender replaces it with a legal call; the rectification depends on the call")
LOWEST = _(
    "replaced by the lowest sufficient bid in the same denomination, neither bid artificial: the auction "
    "goes on without further rectification"
)
OTHER = _("the offender's partner must pass whenever it is his turn to call; Law 26 lead restrictions may apply")
DOUBLE_AS_PASS = _(
    "a double or redouble cannot replace an insufficient bid: it is treated as a pass, the offender's "
    "partner must pass whenever it is his turn; Law 26 lead restrictions may apply"
)
DOUBLE_CANCELLED = _(
    "the attempted double or redouble is cancelled: the offender must make another legal call and his "
    "partner must pass whenever it is his turn; Law 26 lead restrictions may apply"
)
SECOND_INSUFFICIENT_1997 = _(
    "a second insufficient bid cannot replace the first: the offender must make a legal call and his "
    "partner must pass whenever it is his turn; Law 26 lead restrictions may apply"
)
SECOND_INSUFFICIENT = _(
    "the attempt to replace it with another insufficient bid is cancelled: the offender must make a legal "
    "call and his partner must pass whenever it is his turn; Law 26 lead restrictions may apply"
)
SAME_OR_MORE_PRECISE = _(
    "replaced by a call with the same or a more precise meaning as the insufficient bid: the auction goes "
    "on without further rectification"
)
COMPARABLE = _("replaced by a comparable call: the auction goes on without further rectification")


def _row(law: str, text: Message, **effect: Any) -> Rectification:
    return Rectification(law, text, **effect)


def _barred(law: str, text: Message, edition: str) -> Rectification:
    """The offender's partner "must pass whenever it is his turn to call"; Law 26; the damage law."""
    return _row(law, text, partner_must_pass="throughout", lead_restriction=True, adjustment=damage_law(edition))


# 1997: 27A "Any insufficient bid may be accepted (treated as legal) at the option of offender's LHO.
# It is accepted if that player calls." 27B "If an insufficient bid made in rotation is not accepted,
# it must be corrected by the substitution of either a sufficient bid or a pass": 27B1(a) "corrected
# by the lowest sufficient bid in the same denomination", both bids incontrovertibly not
# conventional, "the auction proceeds as though the irregularity had not occurred"; 27B1(b) "If the
# Director judges that the insufficient bid conveyed such information as to damage the
# non-offending side, he shall assign an adjusted score"; 27B2 "corrected by any other sufficient
# bid or by a pass, the offender's partner must pass whenever it is his turn to call (see Law 23 ...;
# lead penalties, Law 26, may apply)"; 27B3 an attempt to substitute a double or redouble: treated
# as a pass, partner passes throughout; 27C "If a player makes an insufficient bid out of rotation,
# Law 31 applies". (1997 has no 27B4: a second insufficient bid is not a sufficient bid, 27B2.)
INSUFFICIENT_1997: dict[str, Rectification] = {
    "accepted": _row("27A", ACCEPTED, stands=True),
    "out_of_rotation": _row("27C", OUT_OF_ROTATION),
    "not_replaced": _row("27B", NOT_REPLACED),
    "lowest": _row("27B1a", LOWEST, adjustment="27B1b"),
    "other": _barred("27B2", OTHER, "1997"),
    "double": _barred("27B3", DOUBLE_AS_PASS, "1997"),
    "insufficient_again": _barred("27B2", SECOND_INSUFFICIENT_1997, "1997"),
}

# 2007: 27A1 "Any insufficient bid may be accepted (treated as legal) at the option of offender's
# LHO. It is accepted if that player calls." 27A2 "If a player makes an insufficient bid out of
# rotation Law 31 applies." 27B "it must be corrected by the substitution of a legal call (but see
# 3 following)": 27B1(a) "corrected by the lowest sufficient bid in the same denomination and in the
# Director's opinion both the insufficient bid and the substituted bid are incontrovertibly not
# artificial the auction proceeds without further rectification. Law 16D does not apply but see D
# following"; 27B1(b) "except as in (a), ... corrected with a legal call that in the Director's
# opinion has the same meaning as, or a more precise meaning than, the insufficient bid ... the
# auction proceeds without further rectification, but see D following"; 27B2 "except as provided in
# B1 above, ... corrected by a sufficient bid or by a pass, the offender's partner must pass
# whenever it is his turn to call. The lead restrictions in Law 26 may apply, and see Law 23";
# 27B3 "except as provided in B1(b) above, if the offender attempts to substitute a double or a
# redouble ... the attempted call is cancelled. The offender must replace it as the foregoing
# allows and his partner must then pass whenever it is his turn to call" (26, 23); 27B4 "another
# insufficient bid: the Director rules as in 3 if the LHO does not accept the substituted
# insufficient bid"; 27C "Premature Replacement": the offender's replacement made before the
# Director ruled "stands if it is legal and the appropriate paragraph of B applies" (no row: the
# service reads the replacement from the record and applies its row); 27D "Non-offending Side
# Damaged" after B1: an adjusted score.
INSUFFICIENT_2007: dict[str, Rectification] = {
    "accepted": _row("27A1", ACCEPTED, stands=True),
    "out_of_rotation": _row("27A2", OUT_OF_ROTATION),
    "not_replaced": _row("27B", NOT_REPLACED),
    "lowest": _row("27B1a", LOWEST, adjustment="27D"),
    "other_comparable": _row("27B1b", SAME_OR_MORE_PRECISE, adjustment="27D"),
    "other": _barred("27B2", OTHER, "2007"),
    "double_comparable": _row("27B1b", SAME_OR_MORE_PRECISE, adjustment="27D"),
    "double": _barred("27B3", DOUBLE_CANCELLED, "2007"),
    "insufficient_again": _barred("27B4", SECOND_INSUFFICIENT, "2007"),
}

# 2017: 27A1 and 27A2 as 2007. 27B1(a) "corrected by the lowest sufficient bid which specifies the
# same denomination(s) as that specified by the withdrawn call, the auction proceeds without
# further rectification. Laws 26B and 16C2 do not apply but see D following" (an artificial bid,
# or one whose replacement is artificial, is read as not specifying the same denomination: 27B2
# unless comparable); 27B1(b) "except as in (a), ... corrected with a comparable call (see Law
# 23A) the auction proceeds without further rectification. Law 16C2 does not apply but see D
# following"; 27B2 "the offender's partner must pass whenever it is his turn to call. The lead
# restrictions in Law 26B may apply, and see Law 72C"; 27B3 "Except as provided in B1(b) above" a
# double or redouble "is cancelled. The offender must replace it ... and his partner must then pass
# whenever it is his turn to call" (26B, 72C); 27B4 another insufficient bid: "as in 3"; 27C a
# premature replacement stands if legal (read from the record, as 2007); 27D after B1: an
# adjusted score.
INSUFFICIENT_2017: dict[str, Rectification] = {
    "accepted": _row("27A1", ACCEPTED, stands=True),
    "out_of_rotation": _row("27A2", OUT_OF_ROTATION),
    "not_replaced": _row("27B", NOT_REPLACED),
    "lowest": _row("27B1a", LOWEST, adjustment="27D"),
    "other_comparable": _row("27B1b", COMPARABLE, adjustment="27D"),
    "other": _barred("27B2", OTHER, "2017"),
    "double_comparable": _row("27B1b", COMPARABLE, adjustment="27D"),
    "double": _barred("27B3", DOUBLE_CANCELLED, "2017"),
    "insufficient_again": _barred("27B4", SECOND_INSUFFICIENT, "2017"),
}

INSUFFICIENT: dict[str, dict[str, Rectification]] = {
    "1997": INSUFFICIENT_1997,
    "2007": INSUFFICIENT_2007,
    "2017": INSUFFICIENT_2017,
}
assert set(INSUFFICIENT) == set(EDITIONS)


@dataclass(frozen=True)
class InsufficientBid:
    """The facts of an insufficient bid (Law 27).

    ``bid`` the insufficient bid, ``last_bid`` the bid it had to overcall; ``accepted`` the
    offender's left-hand opponent accepted it (27A1, 1997 27A: he called over it);
    ``out_of_rotation`` (27A2, 1997 27C: Law 31 applies); ``replacement`` the call that replaced
    it (empty: not replaced yet; another insufficient bid is 27B4, 1997 27B2); ``artificial``
    whether the insufficient bid or its replacement was (or may have been) artificial (1997
    "conventional", 2017 "specifies the same denomination(s)" read the other way round);
    ``comparable`` the director's judgement that the replacement is a comparable call (2017,
    Law 23A) or, 2007 27B1b, has the same or a more precise meaning contained in the
    insufficient bid's (1997 has no such paragraph: it counts for nothing there)."""

    bid: str
    last_bid: str
    accepted: bool = False
    out_of_rotation: bool = False
    replacement: str = ""
    artificial: bool = False
    comparable: bool = False

    def check(self) -> None:
        for name in ("bid", "last_bid"):
            value = getattr(self, name)
            try:
                normal = normalise_call(value)
            except DealError:
                normal = ""
            if not is_bid(normal):
                raise IrregularityError(name, _("'%(text)s' is not a bid", text=value))
        if bid_rank(normalise_call(self.bid)) > bid_rank(normalise_call(self.last_bid)):
            raise IrregularityError(
                "bid",
                _(
                    "%(bid)s is sufficient over %(last)s: it is not an insufficient bid",
                    bid=self.bid,
                    last=self.last_bid,
                ),
            )
        if self.replacement:
            normalise_call(self.replacement)


def insufficient_situation(facts: InsufficientBid) -> str:
    """The situation of Law 27 the facts meet (a key of every edition's table, before the
    ``_comparable`` an edition may add): ``accepted``, ``out_of_rotation``, ``not_replaced``,
    ``double`` (a double or redouble), ``insufficient_again``, ``lowest`` (the lowest sufficient
    bid in the same denomination, neither bid artificial) or ``other`` (any other sufficient bid
    or a pass)."""
    facts.check()
    if facts.accepted:
        return "accepted"
    if facts.out_of_rotation:
        return "out_of_rotation"
    if not facts.replacement:
        return "not_replaced"
    bid, last = normalise_call(facts.bid), normalise_call(facts.last_bid)
    replacement = normalise_call(facts.replacement)
    if replacement in ("X", "XX"):
        return "double"
    if is_bid(replacement) and bid_rank(replacement) <= bid_rank(last):
        return "insufficient_again"
    if replacement == lowest_sufficient(bid, last) and not facts.artificial:
        return "lowest"
    return "other"


def insufficient_bid(edition: str, facts: InsufficientBid) -> Rectification:
    """Law 27 in ``edition``: the row of the edition's table for the facts. The director's
    judgement that the replacement is comparable (``comparable``) counts only where the
    edition's text has the paragraph (2007, 2017 27B1b)."""
    check_edition(edition)
    table = INSUFFICIENT[edition]
    situation = insufficient_situation(facts)
    if facts.comparable and f"{situation}_comparable" in table:
        return table[f"{situation}_comparable"]
    return table[situation]


def insufficient_bid_options(edition: str, facts: InsufficientBid) -> list[Choice]:
    """Every option at the table, in the order the director offers them, each the row of the
    edition's table it brings: the left-hand opponent may accept (key ``27A1``); if he does not,
    the replacements: the lowest sufficient bid in the same denomination (``27B1a:<bid>``), a
    call of the same or a more precise meaning / a comparable call (``27B1b``, where the
    edition's table has the row: 2007, 2017), any other sufficient bid or pass (``27B2``), a
    double or redouble (``27B3``). Out of rotation: accept (``27A1``) or Law 31 (``31``). The
    keys are the record's, the same in every edition; the row gives the law cited (1997: 27A,
    27C)."""
    check_edition(edition)
    facts.check()
    bid, last = normalise_call(facts.bid), normalise_call(facts.last_bid)
    table = INSUFFICIENT[edition]
    accept = Choice("27A1", "lho", table["accepted"])
    if facts.out_of_rotation:
        return [accept, Choice("31", "director", table["out_of_rotation"])]
    lowest = lowest_sufficient(bid, last)
    choices = [
        accept,
        Choice(
            f"27B1a:{lowest}",
            "offender",
            insufficient_bid(edition, InsufficientBid(bid, last, replacement=lowest, artificial=facts.artificial)),
        ),
    ]
    if "other_comparable" in table:
        choices.append(Choice("27B1b", "offender", table["other_comparable"]))
    choices.append(Choice("27B2", "offender", table["other"]))
    choices.append(Choice("27B3", "offender", table["double"]))
    return choices


def comparable_law(edition: str) -> str:
    """The paragraph whose words the director's ``comparable`` judgement answers in ``edition``:
    2017 Law 23A (the comparable call), 2007 27B1b (a call with the same or a more precise
    meaning); empty in 1997, whose rows read no such judgement."""
    check_edition(edition)
    row = INSUFFICIENT[edition].get("other_comparable")
    return LAW_23[edition].comparable or (row.law if row is not None else "")


# --- Law 25 --------------------------------------------------------------------------------------

UNINTENDED = _("an unintended call replaced: the intended call stands without rectification")
CHANGE_ACCEPTED = _("the left-hand opponent called over the second call: it stands and the auction goes on")
TOO_LATE = _("too late to change the call: the first call stands")
FIRST_STANDS_1997 = _(
    "the second call is cancelled and the first stands: his partner must pass at his next turn; Law 26 lead "
    "restrictions may apply"
)
OTHER_CALL_1997 = _(
    "the second call is cancelled; the offender makes any other legal call, his side then getting at most "
    "average minus; Law 26 lead restrictions may apply"
)
NOT_ACCEPTED = _("the second call is cancelled: the first call stands and the auction goes on; Law 16 applies")

# 1997: 25A "Until his partner makes a call, a player may substitute his intended call for an
# inadvertent call but only if he does so, or attempts to do so, without pause for thought. If
# legal, his last call stands without penalty" (after a pause, or once partner has called, 25A
# allows no change: the first call stands; the 1997 Law has no 25A2, 25A3). 25B "Until LHO calls, a
# call may be substituted when Section A does not apply": 25B1 "The substituted call may be
# accepted (treated as legal) at the option of offender's LHO; then, the second call stands and
# the auction proceeds without penalty"; 25B2 "If the substituted call is not accepted, it is
# cancelled", and, the first call legal, the offender must either (b)(1) "allow his first call to
# stand, in which case (penalty) his partner must pass when next it is his turn to call (see Law 23
# when the pass damages the non-offending side)", or (b)(2) "make any other legal call, in which
# case (penalty) the auction proceeds normally ...; the offending side may receive no score greater
# than average minus"; (c) "In either case (b)(1) or (b)(2) above, the offender's partner will be
# subject to a lead penalty (see Law 26) if he becomes a defender". Under (b)(2) the call after the
# changed one is read as the offender's other legal call: it stands, the first call is withdrawn.
CHANGE_1997: dict[str, Rectification] = {
    "unintended": _row("25A", UNINTENDED, stands=True),
    "too_late_partner_called": _row("25A", TOO_LATE),
    "too_late_auction_ended": _row("25A", TOO_LATE),
    "accepted": _row("25B1", CHANGE_ACCEPTED, stands=True),
    "not_accepted": _row(
        "25B2b1", FIRST_STANDS_1997, partner_must_pass="next", lead_restriction=True, adjustment=damage_law("1997")
    ),
    "not_accepted_other_call": _row(
        "25B2b2", OTHER_CALL_1997, stands=True, lead_restriction=True, score_cap="average_minus"
    ),
}

# 2007: 25A1 "Until his partner makes a call, a player may substitute his intended call for an
# unintended call but only if he does so, or attempts to do so, without pause for thought. The
# second (intended) call stands"; 25A2 "No substitution of call may be made when his partner has
# made a subsequent call"; 25A3 "If the auction ends before it reaches the player's partner no
# substitution may occur after the end of the auction period". 25B1 "A substituted call not
# permitted by A may be accepted by the offender's LHO. (It is accepted if LHO calls intentionally
# over it.) The first call is then withdrawn, the second call stands and the auction continues";
# 25B2 "Except as in B1, a substitution not permitted by A is cancelled. The original call stands
# and the auction continues"; 25B3 Law 16 applies to the call withdrawn or cancelled.
CHANGE_2007: dict[str, Rectification] = {
    "unintended": _row("25A", UNINTENDED, stands=True),
    "too_late_partner_called": _row("25A2", TOO_LATE),
    "too_late_auction_ended": _row("25A3", TOO_LATE),
    "accepted": _row("25B1", CHANGE_ACCEPTED, stands=True, adjustment="16"),
    "not_accepted": _row("25B2", NOT_ACCEPTED, adjustment="16"),
}

# 2017: 25A1 "If a player discovers that he has not made the call he intended to make, he may,
# until his partner makes a call, substitute the call he intended for the unintended call. The
# second (intended) call stands ..., but the lead restrictions in Law 26 do not apply" (no word of
# a pause for thought); "No substitution of call may be made when his partner has made a
# subsequent call"; "If the auction ends before it reaches the player's partner no substitution may
# occur after the end of the auction period" (catalogued 25A2 and 25A3, with 2007's lettering).
# 25B1 "A substituted call not permitted by A may be accepted by the offender's LHO. (It is
# accepted if LHO calls intentionally over it.) The first call is then withdrawn, the second call
# stands and the auction continues (Law 26 may apply)"; 25B2 "Except as in B1, a substitution not
# permitted by A is cancelled. The original call stands and the auction continues (Law 26 may
# apply)"; 25B3 "Law 16C applies to any call withdrawn or cancelled".
CHANGE_2017: dict[str, Rectification] = {
    "unintended": _row("25A", UNINTENDED, stands=True),
    "unintended_after_pause": _row("25A", UNINTENDED, stands=True),
    "too_late_partner_called": _row("25A2", TOO_LATE),
    "too_late_auction_ended": _row("25A3", TOO_LATE),
    "accepted": _row("25B1", CHANGE_ACCEPTED, stands=True, lead_restriction=True, adjustment="16"),
    "not_accepted": _row("25B2", NOT_ACCEPTED, lead_restriction=True, adjustment="16"),
}

CHANGE: dict[str, dict[str, Rectification]] = {"1997": CHANGE_1997, "2007": CHANGE_2007, "2017": CHANGE_2017}
assert set(CHANGE) == set(EDITIONS)


@dataclass(frozen=True)
class ChangeOfCall:
    """A player changed his call (Law 25). ``unintended`` the first call was not the one he
    meant (a mechanical error or slip of the tongue); ``pause_for_thought`` he paused before
    changing it; ``partner_called`` his partner had called since; ``auction_ended`` the
    auction period was over; ``accepted`` the left-hand opponent called over the second call
    (25B1)."""

    unintended: bool
    pause_for_thought: bool = False
    partner_called: bool = False
    auction_ended: bool = False
    accepted: bool = False


def change_situation(edition: str, facts: ChangeOfCall) -> str:
    """The situation of Law 25 the facts meet in ``edition``'s table: ``unintended`` (replaced in
    time, without pause), ``unintended_after_pause`` where the edition's 25A allows it (2017),
    else as an intended change: ``accepted`` (25B1), ``too_late_auction_ended``,
    ``too_late_partner_called``, ``not_accepted`` (25B2)."""
    check_edition(edition)
    table = CHANGE[edition]
    if facts.unintended and not facts.partner_called and not facts.auction_ended:
        situation = "unintended_after_pause" if facts.pause_for_thought else "unintended"
        if situation in table:
            return situation
    if facts.accepted:
        return "accepted"
    if facts.auction_ended:
        return "too_late_auction_ended"
    if facts.partner_called:
        return "too_late_partner_called"
    return "not_accepted"


def change_of_call(edition: str, facts: ChangeOfCall) -> Rectification:
    """Law 25 in ``edition``: the row of the edition's table for the facts."""
    return CHANGE[edition][change_situation(edition, facts)]


def change_of_call_options(edition: str, facts: ChangeOfCall) -> list[Choice]:
    """The options at the table, each a row of the edition's table, its law the key: where the
    facts leave no choice (25A, too late) the one row, chosen by the director; otherwise the
    left-hand opponent's choice, accept the second call (``25B1``) or not (``25B2``; 1997: the
    offender then chooses, ``25B2b1`` his first call stands, ``25B2b2`` any other legal call)."""
    situation = change_situation(edition, ChangeOfCall(**{**facts.__dict__, "accepted": False}))
    table = CHANGE[edition]
    if situation != "not_accepted":
        return [Choice(table[situation].law, "director", table[situation])]
    refused = [
        table["not_accepted"],
        *([table["not_accepted_other_call"]] if "not_accepted_other_call" in table else []),
    ]
    chooser = "offender" if len(refused) > 1 else "lho"
    return [Choice(table["accepted"].law, "lho", table["accepted"]), *(Choice(r.law, chooser, r) for r in refused)]


__all__ = [
    "CHANGE",
    "ChangeOfCall",
    "INSUFFICIENT",
    "InsufficientBid",
    "change_of_call",
    "change_of_call_options",
    "change_situation",
    "comparable_law",
    "insufficient_bid",
    "insufficient_bid_options",
    "insufficient_situation",
]
