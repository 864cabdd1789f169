"""The auction as called: irregular calls kept, and the director's options for each (Laws 25-39),
per edition of the Laws (1997, 2007, 2017).

``read_auction(dealer, calls)`` reads the calls in the order they were made, each with the seat
that made it (``AuctionCall.seat``, empty for the seat whose turn it was) and what became of
it (``AuctionCall.status``): standing (``""``), ``accepted`` or ``condoned`` (it stands as
legal), ``cancelled`` (rectified away: an insufficient bid replaced, a call out of rotation
cancelled, a call after the final pass, an inadmissible double), ``withdrawn`` (a change of
call, Law 25: the player's next call replaces it) or ``pending`` (attention drawn, the director
not yet ruled: the auction stops there). It returns the ``AuctionAsCalled``: the legal auction,
the contract and declarer, and every irregular call with the law that keeps or removes it.

An irregular call nobody marked is read as the Laws read it: an insufficient bid followed by
its left-hand opponent's call was accepted (27A1), a call out of rotation followed by the
offender's left-hand opponent's call was accepted (29A). What cannot have happened is refused
with a ``DealError`` naming the call: a call after the auction closed that no ruling cancels
(Law 39), a double or redouble the Laws never allow left standing (Law 36 cancels it), a call
out of rotation that nobody called over and nothing says was accepted.

The options (in ``bridge.call_laws``, Law 23 per edition there as ``LAW_23``; Laws 25 and 27 as
per-edition tables in ``bridge.replacement_laws``, Laws 26 and 29-32 in ``bridge.rotation_laws``;
every name re-exported here): ``insufficient_bid`` (27),
``call_out_of_rotation`` (29-32), ``change_of_call`` (25), ``inadmissible_call`` (35-39) and
``lead_restriction`` (26) each return the
``Rectification`` the law gives for the facts; ``insufficient_bid_options`` and
``out_of_rotation_options`` list every choice a director offers at the table, each with its
rectification. docs/irregularities.md has the Law -> function table.

Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bridge import messages
from bridge.call_laws import (
    EDITIONS,
    INADMISSIBLE,
    LATER_CALLS_CANCELLED,
    LAW_23,
    REMOVED,
    STANDING,
    STATUSES,
    TURNS,
    Choice,
    IrregularityError,
    Rectification,
    bid_rank,
    check_edition,
    damage_law,
    inadmissible_call,
    is_bid,
    later_calls_cancelled,
    lowest_sufficient,
    side,
)
from bridge.calls import AuctionCall
from bridge.deals import SEAT_WORDS, DealError, next_seat, parse_seat
from bridge.messages import Message
from bridge.replacement_laws import (
    CHANGE,
    INSUFFICIENT,
    ChangeOfCall,
    InsufficientBid,
    change_of_call,
    change_of_call_options,
    change_situation,
    comparable_law,
    insufficient_bid,
    insufficient_bid_options,
    insufficient_situation,
)
from bridge.rotation_laws import (
    ROTATION,
    SUIT_LETTERS,
    LeadRestriction,
    OutOfRotation,
    call_out_of_rotation,
    lead_restriction,
    out_of_rotation_options,
    rotation_situation,
)

# bridge.messages is not annotated yet: its marker, typed here (makemessages still reads "_").
_: Callable[..., Message] = messages._
# --- The auction as called -----------------------------------------------------------------

# The laws under which a call by a player who had to pass stands (2007, 2017 37A; 1997 35B).
REQUIRED_PASS_STANDS = ("37A", "35B")


@dataclass(frozen=True)
class IrregularCall:
    """One irregular call and what became of it.

    ``kind``: ``insufficient`` (Law 27), ``out_of_rotation`` (29-32; ``turn`` the seat whose
    turn it was), ``inadmissible`` (35-36: a double or redouble the Laws do not allow),
    ``after_close`` (39), ``change`` (25: a call withdrawn for the player's next call),
    ``required_pass`` (37A, 1997 35B: a call by a player who had to pass, standing as marked).
    ``status`` as the record says or as the Laws read it (``condoned`` when nobody drew
    attention and the next player called over it); ``law`` the sub-section that keeps or
    removes it; ``option`` the director's chosen option as recorded."""

    index: int
    seat: str
    call: str
    kind: str
    status: str
    law: str
    attention_by: str = ""
    turn: str = ""
    option: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seat": self.seat,
            "call": self.call,
            "kind": self.kind,
            "status": self.status,
            "law": self.law,
            "attention_by": self.attention_by,
            "turn": self.turn,
            "option": self.option,
        }


@dataclass(frozen=True)
class AuctionAsCalled:
    """The auction read as called: ``seats`` the seat of every call (in the order made),
    ``legal`` the indexes of the calls that stand, the ``contract`` and ``declarer`` as
    ``validate_auction`` gives them (``(None, None)`` unfinished), ``ended``, the irregular
    calls and the ``pending`` one (attention drawn, not yet ruled)."""

    seats: tuple[str, ...]
    legal: tuple[int, ...]
    contract: str | None
    declarer: str | None
    ended: bool
    irregular: tuple[IrregularCall, ...]
    pending: IrregularCall | None = None

    @property
    def irregular_by_index(self) -> dict[int, IrregularCall]:
        return {call.index: call for call in self.irregular}


def _refusal(index: int, seat: str, call: str, reason: Message, template: str = "%(who)s %(reason)s") -> DealError:
    who = _("%(seat)s's %(call)s (call %(n)s)", seat=SEAT_WORDS[seat], call=call, n=index + 1)
    return DealError("auction", Message(template, who=who, reason=reason), index, reason=reason)


@dataclass
class _State:
    last_bid: str | None = None
    last_bidder: str = ""
    doubled: int = 0
    passes: int = 0
    ended: bool = False
    first_to_name: dict[tuple[str, str], str] = field(default_factory=dict)


def _inadmissible(state: _State, seat: str, call: str) -> Message | None:
    """Why a double or redouble is not allowed here (Law 19 / 35A), or None."""
    if call == "X":
        if state.last_bid is None:
            return _("there is no bid to double")
        if side(state.last_bidder) == side(seat):
            return _("doubles their own side's %(bid)s: a double is only of an opponent's bid", bid=state.last_bid)
        if state.doubled:
            return (
                _("%(bid)s is already doubled", bid=state.last_bid)
                if state.doubled == 1
                else _("%(bid)s is already redoubled", bid=state.last_bid)
            )
    if call == "XX":
        if state.doubled == 0:
            return _("there is no double to redouble")
        if state.doubled == 2:
            return _("%(bid)s is already redoubled", bid=state.last_bid)
        if side(state.last_bidder) != side(seat):
            return _("redoubles their own side's double: a redouble is only of an opponent's double")
    return None


def _apply(state: _State, seat: str, call: str) -> None:
    if call == "Pass":
        state.passes += 1
        state.ended = state.passes == (3 if state.last_bid else 4)
    elif call == "X":
        state.doubled, state.passes = 1, 0
    elif call == "XX":
        state.doubled, state.passes = 2, 0
    else:
        state.last_bid, state.last_bidder, state.doubled, state.passes = call, seat, 0, 0
        state.first_to_name.setdefault((side(seat), call[1:]), seat)


def read_auction(dealer: str, calls: Sequence[AuctionCall | str], complete: bool = True) -> AuctionAsCalled:
    """The auction as called (see the module's docstring). Raises DealError (field
    ``"auction"``, ``index`` the call) for what cannot have happened."""
    dealer = parse_seat(dealer)
    made = [c if isinstance(c, AuctionCall) else AuctionCall(c) for c in calls]
    state = _State()
    expected = dealer
    seats: list[str] = []
    legal: list[int] = []
    irregular: list[IrregularCall] = []
    pending: IrregularCall | None = None
    # Whose the next standing call is: the seat written on it, else the seat whose turn it is.
    for i, made_call in enumerate(made):
        call = made_call.call
        seat = made_call.seat or expected
        seats.append(seat)
        status = made_call.status
        attention = made_call.attention_by
        if status not in STATUSES:
            raise _refusal(
                i,
                seat,
                call,
                _(
                    "is marked '%(status)s': a call stands, was accepted, condoned, cancelled, withdrawn, or "
                    "awaits the director (pending)",
                    status=status,
                ),
            )
        if pending is not None:
            raise _refusal(i, seat, call, _("comes after a call the director has not ruled on yet"))
        if call == "AP":
            if i != len(made) - 1:
                raise _refusal(i, seat, call, _("must be the last call: AP means all pass"))
            if state.ended:
                raise _refusal(i, seat, call, _("comes after the end of the auction"))
            state.ended = True
            legal.append(i)
            continue

        kind, reason = _classify(state, seat, expected, call)

        if status in REMOVED:
            irregular.append(_removed(i, made_call, seat, kind, expected))
            continue  # the rotation does not move: the next call is the one that replaces it
        if status == "pending":
            if not kind:
                raise _refusal(i, seat, call, _("is marked as awaiting the director, but nothing is irregular in it"))
            turn = expected if kind == "out_of_rotation" else ""
            pending = IrregularCall(i, seat, call, kind, "pending", made_call.law, attention, turn)
            irregular.append(pending)
            continue
        if kind in ("after_close", "inadmissible"):
            raise _cannot_stand(state, i, seat, call, kind, reason)

        # A standing irregular call: accepted by the player who was next to call.
        if kind:
            how = _how_it_stands(made, i, seat, expected, kind, reason, complete)
            law = made_call.law or ("27A1" if kind == "insufficient" else "29A")
            entry = IrregularCall(
                i,
                seat,
                call,
                kind,
                how,
                law,
                attention,
                expected if kind == "out_of_rotation" else "",
                made_call.option,
            )
            irregular.append(entry)
            if how == "pending":
                pending = entry
                continue
        elif status in ("accepted", "condoned") and made_call.law in REQUIRED_PASS_STANDS:
            # Law 37A (1997 35B): a call by a player who had to pass, the left-hand opponent having
            # called over it: it stands, and only the rectification's record says it was irregular.
            irregular.append(
                IrregularCall(i, seat, call, "required_pass", status, made_call.law, attention, "", made_call.option)
            )
        elif status in ("accepted", "condoned"):
            raise _refusal(i, seat, call, _("is marked %(status)s, but nothing is irregular in it", status=status))
        # The call stands: the auction goes on from the seat after it.
        _apply(state, seat, call)
        legal.append(i)
        expected = next_seat(seat)

    if not state.ended and complete and pending is None:
        raise DealError(
            "auction",
            _("the auction has not ended: it needs three passes after the last call")
            if state.last_bid
            else _("the auction has not ended: it needs four passes"),
        )
    contract, declarer = _contract(state)
    return AuctionAsCalled(tuple(seats), tuple(legal), contract, declarer, state.ended, tuple(irregular), pending)


def _contract(state: _State) -> tuple[str | None, str | None]:
    if not state.ended:
        return None, None
    if state.last_bid is None:
        return "PASS", None
    contract = state.last_bid + "X" * state.doubled
    return contract, state.first_to_name[(side(state.last_bidder), state.last_bid[1:])]


def _classify(state: _State, seat: str, expected: str, call: str) -> tuple[str, Message | None]:
    """What is irregular about the call, in the order the Laws deal with it: its kind (empty:
    nothing) and why it cannot stand as it is."""
    if state.ended:
        return "after_close", _("comes after the end of the auction")
    if call in ("X", "XX"):
        why = _inadmissible(state, seat, call)
        if why is not None:  # an inadmissible double, in or out of rotation: Law 36 cancels it
            return "inadmissible", why
    if seat != expected:
        return "out_of_rotation", None
    if is_bid(call) and state.last_bid and bid_rank(call) <= bid_rank(state.last_bid):
        return "insufficient", _("insufficient: the last bid was %(bid)s", bid=state.last_bid)
    return "", None


def _cannot_stand(state: _State, i: int, seat: str, call: str, kind: str, reason: Message | None) -> DealError:
    """The refusal of a call after the close, or of an inadmissible double, left standing."""
    assert reason is not None
    template = "%(who)s %(reason)s" if kind == "after_close" else "%(who)s: %(reason)s"
    if kind == "inadmissible" and call == "X" and state.last_bid and side(state.last_bidder) == side(seat):
        template = "%(who)s %(reason)s"
    if kind == "inadmissible" and call == "XX" and state.doubled == 1:
        template = "%(who)s %(reason)s"
    return _refusal(i, seat, call, reason, template)


def _how_it_stands(
    made: Sequence[AuctionCall],
    i: int,
    seat: str,
    expected: str,
    kind: str,
    reason: Message | None,
    complete: bool,
) -> str:
    """A standing irregular call: as marked, or accepted (condoned when nobody drew attention) by
    the offender's left-hand opponent's call over it, or awaiting the director; else refused."""
    made_call, call = made[i], made[i].call
    lho = next_seat(seat)
    following = _next_standing(made, i)
    following_seat = (made[following].seat or lho) if following is not None else None
    if made_call.status in ("accepted", "condoned"):
        return made_call.status
    if following is not None and following_seat == lho:
        return "accepted" if made_call.attention_by else "condoned"
    if following is None and not complete and made_call.attention_by:
        return "pending"
    if kind == "insufficient":
        assert reason is not None
        raise _refusal(i, seat, call, reason, "%(who)s is %(reason)s")
    raise _refusal(
        i,
        seat,
        call,
        _(
            "was out of rotation (it was %(turn)s's turn) and nobody called over it: say whether it was "
            "accepted (Law 29A) or cancelled",
            turn=SEAT_WORDS[expected],
        ),
    )


def _removed(index: int, made_call: AuctionCall, seat: str, kind: str, expected: str) -> IrregularCall:
    """A cancelled or withdrawn call, kept: what it was, and the law that removed it."""
    if not kind:
        kind = "change" if made_call.status == "withdrawn" else "cancelled"
    return IrregularCall(
        index,
        seat,
        made_call.call,
        kind,
        made_call.status,
        made_call.law or _removed_law(kind),
        made_call.attention_by,
        expected if seat != expected else "",
        made_call.option,
    )


def _next_standing(made: Sequence[AuctionCall], index: int) -> int | None:
    for j in range(index + 1, len(made)):
        if made[j].status not in REMOVED:
            return j
    return None


def _removed_law(kind: str) -> str:
    return {
        "insufficient": "27B",
        "out_of_rotation": "29B",
        "inadmissible": "36",
        "after_close": "39",
        "change": "25",
    }.get(kind, "")


__all__ = [
    "AuctionAsCalled",
    "CHANGE",
    "ChangeOfCall",
    "Choice",
    "EDITIONS",
    "INADMISSIBLE",
    "INSUFFICIENT",
    "InsufficientBid",
    "IrregularCall",
    "IrregularityError",
    "LeadRestriction",
    "OutOfRotation",
    "ROTATION",
    "LATER_CALLS_CANCELLED",
    "LAW_23",
    "REMOVED",
    "Rectification",
    "STANDING",
    "STATUSES",
    "SUIT_LETTERS",
    "TURNS",
    "bid_rank",
    "call_out_of_rotation",
    "change_of_call",
    "change_of_call_options",
    "change_situation",
    "check_edition",
    "comparable_law",
    "damage_law",
    "inadmissible_call",
    "insufficient_bid",
    "insufficient_bid_options",
    "insufficient_situation",
    "is_bid",
    "later_calls_cancelled",
    "lead_restriction",
    "lowest_sufficient",
    "out_of_rotation_options",
    "read_auction",
    "rotation_situation",
    "side",
]
