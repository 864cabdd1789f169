"""Claims and concessions (Laws 68-71): the position at the claim read from the play record,
the remaining cards, and the double-dummy tricks from there as an aid to the director.

``claim_position(record)`` is the position at the claim the record carries (LIN ``mc``, PBN
``[Play]`` ending in a claim); ``position_at(record, trick)`` the position at the start of an
entered trick. ``claim_double_dummy`` gives declarer's total tricks with best play from the
claim on (tricks already won plus the solver's count), and the claimer's side's. The
director still judges the worst "normal" line (Laws 70 and 71) and records the tricks awarded.

Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bridge import messages
from bridge.deals import RANKS, SEAT_WORDS, SUITS, Deal
from bridge.messages import Message
from bridge.play import SEATS, PlayRecord, Position, side_of, side_tricks_from
from bridge.revokes import RevokeError

# bridge.messages is not annotated yet: its marker, typed here (makemessages still reads "_").
_: Callable[..., Message] = messages._


@dataclass(frozen=True)
class ClaimAid:
    """What the director sees at a claim: the trick it was made at, the tricks each side had
    won, the cards left (``remaining``: seat -> suit -> ranks), and the tricks declarer and the
    claimer's side take double dummy from there (``None`` when not solved)."""

    trick: int
    claimer_side: str
    won: dict[str, int]
    remaining: dict[str, dict[str, str]]
    current: tuple[str, ...]
    leader: str
    declarer_double_dummy: int | None
    claimer_double_dummy: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "trick": self.trick,
            "claimer_side": self.claimer_side,
            "won": dict(self.won),
            "remaining": self.remaining,
            "current": list(self.current),
            "leader": self.leader,
            "declarer_double_dummy": self.declarer_double_dummy,
            "claimer_double_dummy": self.claimer_double_dummy,
        }


def claim_position(record: PlayRecord) -> Position:
    """The position when the claim in the record was made (after the last card played)."""
    if record.claim is None:
        raise RevokeError("claim", _("the play record has no claim: enter the trick the claim was made at"))
    if not record.tricks:
        return record.position(1)
    last = record.tricks[-1]
    if last.complete:
        if last.number == 13:
            raise RevokeError("claim", _("the play record has all 13 tricks: there is nothing left to claim"))
        return record.position(last.number + 1)
    return record.position(last.number, len(last.cards))


def position_at(record: PlayRecord, trick: int) -> Position:
    """The position at the start of ``trick`` (1-13), from the play record."""
    if not isinstance(trick, int) or not 1 <= trick <= 13:
        raise RevokeError("trick", _("a claim is made at a trick from 1 to 13, not %(trick)s", trick=trick))
    if trick > len(record.tricks) + 1 or (
        trick == len(record.tricks) + 1 and record.tricks and not record.tricks[-1].complete
    ):
        raise RevokeError(
            "trick",
            _(
                "the play record stops in trick %(n)s: it cannot show trick %(trick)s",
                n=len(record.tricks),
                trick=trick,
            ),
        )
    return record.position(trick)


def remaining_cards(position: Position) -> dict[str, dict[str, str]]:
    """The cards each seat still holds, with the current trick's cards out: seat -> suit ->
    ranks high to low (``""`` for a void)."""
    return {
        seat: {
            suit: "".join(sorted((c[1] for c in position.hands[seat] if c[0] == suit), key=RANKS.index))
            for suit in SUITS
        }
        for seat in SEATS
    }


def remaining_deal(position: Position) -> Deal:
    """The cards left as a Deal (hands shorter than 13), for the hand diagram."""
    return Deal({seat: dict(hand) for seat, hand in remaining_cards(position).items()})


def claim_aid(record: PlayRecord, position: Position, *, claimer: str, solve: bool = True) -> ClaimAid:
    """The director's aid at a claim by ``claimer`` (a seat) from ``position``: the cards left
    and, with ``solve``, the double-dummy tricks of declarer and of the claimer's side for the
    whole board (tricks won before the claim included)."""
    return aid_at(position, strain=record.strain, declarer_side=record.declarer_side, claimer=claimer, solve=solve)


def entered_position(hands: str, *, leader: str, declarer_side: str, declarer_won: int | None) -> Position:
    """A claim position the director enters without a play record: the cards left as a PBN
    deal (``"N:AK9..T7. QJ82.T.. T73..A8. 54..96.7"``, every hand as long as the others), the
    seat on lead, and the tricks declarer's side had won. Raises RevokeError naming the field."""
    text = (hands or "").strip()
    if len(text) < 2 or text[1] != ":" or text[0].upper() not in SEATS:
        raise RevokeError(
            "remaining", _("write the cards left as a PBN deal, e.g. N:AK9..T7. QJ82.T.. T73..A8. 54..96.7")
        )
    first, parts = text[0].upper(), text[2:].split()
    if len(parts) != 4 or any(part.count(".") != 3 for part in parts):
        raise RevokeError(
            "remaining", _("write the cards left as a PBN deal, e.g. N:AK9..T7. QJ82.T.. T73..A8. 54..96.7")
        )
    cards: dict[str, tuple[str, ...]] = {}
    seen: set[str] = set()
    for offset, part in enumerate(parts):
        seat = SEATS[(SEATS.index(first) + offset) % 4]
        held = tuple(
            suit + rank for suit, ranks in zip(SUITS, part.upper().replace("10", "T").split(".")) for rank in ranks
        )
        if any(card[1] not in RANKS for card in held) or seen & set(held) or len(set(held)) != len(held):
            raise RevokeError("remaining", _("the cards left must be cards, each in one hand once"))
        seen |= set(held)
        cards[seat] = held
    left = len(cards[first])
    if left == 0 or any(len(held) != left for held in cards.values()):
        raise RevokeError("remaining", _("every hand must hold as many cards as the others, and at least one"))
    if leader not in SEATS:
        raise RevokeError("leader", _("'%(text)s' is not a seat: write N, E, S or W", text=leader))
    if not isinstance(declarer_won, int) or not 0 <= declarer_won <= 13 - left:
        raise RevokeError("declarer_won", _("declarer takes 0 to 13 tricks, not %(n)s", n=declarer_won))
    other = "EW" if declarer_side == "NS" else "NS"
    return Position(
        trick=14 - left,
        leader=leader,
        current=(),
        hands=cards,
        won={declarer_side: declarer_won, other: 13 - left - declarer_won},
    )


def aid_at(position: Position, *, strain: str, declarer_side: str, claimer: str, solve: bool = True) -> ClaimAid:
    """``claim_aid`` for a position with or without a play record: the contract's ``strain``
    and declarer's side say what to solve."""
    if claimer not in SEATS:
        raise RevokeError("claimer", _("'%(text)s' is not a seat: write N, E, S or W", text=claimer))
    declarer_dd = claimer_dd = None
    if solve:
        future = side_tricks_from(position, strain, declarer_side)
        declarer_dd = position.won[declarer_side] + future
        claimer_dd = declarer_dd if side_of(claimer) == declarer_side else 13 - declarer_dd
    return ClaimAid(
        trick=position.trick,
        claimer_side=side_of(claimer),
        won=dict(position.won),
        remaining=remaining_cards(position),
        current=position.current,
        leader=position.leader,
        declarer_double_dummy=declarer_dd,
        claimer_double_dummy=claimer_dd,
    )


def outstanding_trumps(position: Position, *, strain: str, claimer: str) -> tuple[str, ...]:
    """The trumps the claimer's opponents still hold at the claim (Law 70C: a claim that does
    not mention an outstanding trump), as cards ("SQ"); none in no trumps."""
    if strain not in ("S", "H", "D", "C"):
        return ()
    remaining = remaining_cards(position)
    return tuple(
        f"{strain}{rank}"
        for seat in SEATS
        if side_of(seat) != side_of(claimer)
        for rank in remaining[seat].get(strain, "")
    )


def check_awarded(declarer_side: str, position: Position, declarer_tricks: int) -> None:
    """Refuse tricks awarded to declarer that the position makes impossible: fewer than he has
    already won or more than he has won plus the tricks left."""
    won = position.won[declarer_side]
    if not isinstance(declarer_tricks, int) or not won <= declarer_tricks <= won + position.tricks_left:
        raise RevokeError(
            "awarded_tricks",
            _(
                "declarer had won %(won)s tricks with %(left)s to play: award %(won)s to %(most)s, not %(n)s",
                won=won,
                left=position.tricks_left,
                most=won + position.tricks_left,
                n=declarer_tricks,
            ),
        )


# Law 70E2 (2007, 2017): the orders a regulating authority may specify for a suit whose order of
# play the claim statement did not clarify ("from the top down" the Law's own example).
SUIT_ORDERS = ("top_down",)


@dataclass(frozen=True)
class ClaimFlags:
    """What the director finds about a contested claim beyond the position (Law 70; 1997 70D,
    70E): ``new_line`` the claimer proposes a successful line the statement did not contain
    (70D1); ``unstated_line`` it needs a card found with one opponent rather than the other
    (70E1); ``partner_choice`` part of a defender's claim depends on his partner choosing one
    play among normal ones (70D2); ``played_after`` the cards played after the claim, which the
    director may take as evidence (70D3); ``order_unstated`` the statement did not give the
    order a suit is played in, deemed as the regulating authority specifies (70E2)."""

    new_line: bool = False
    unstated_line: bool = False
    partner_choice: bool = False
    played_after: str = ""
    order_unstated: bool = False


def check_claim_flags(flags: ClaimFlags, *, edition: str, claimer: str, declarer: str, suit_order: str) -> None:
    """Refuse what the Laws of ``edition`` cannot apply to this claim, naming the fact: 70D2
    is about a defender's claim only; 70D3 and 70E2 are not in the 1997 Laws; 70E2 applies only
    where the regulating authority specified an order (``suit_order``)."""
    if flags.partner_choice and side_of(claimer) == side_of(declarer):
        raise RevokeError(
            "partner_choice",
            _(
                "Law 70D2 is about a defender's claim: %(claimer)s claimed for declarer's side",
                claimer=SEAT_WORDS[claimer],
            ),
        )
    if edition == "1997":
        for field, law in (("played_after", "70D3"), ("order_unstated", "70E2"), ("partner_choice", "70D2")):
            if getattr(flags, field):
                raise RevokeError(
                    field, _("Law %(law)s is in the 2007 and 2017 Laws, not in the 1997 Laws in force", law=law)
                )
    if flags.order_unstated and suit_order not in SUIT_ORDERS:
        raise RevokeError(
            "order_unstated",
            _(
                "the regulations in force specify no order in which a suit is deemed played (Law 70E2): "
                "judge the line under Law 70A instead"
            ),
        )


def claim_laws(flags: ClaimFlags, *, edition: str, trump_unmentioned: bool) -> list[str]:
    """The sub-sections of Law 70 a contested claim's decision applies, besides 70 itself: 70C
    for an outstanding trump not mentioned, and each flag's law in the edition's numbering
    (1997: 70D and 70E have no sub-sections)."""
    modern = edition != "1997"
    pairs = (
        (trump_unmentioned, "70C"),
        (flags.new_line, "70D1" if modern else "70D"),
        (flags.partner_choice and modern, "70D2"),
        (bool(flags.played_after) and modern, "70D3"),
        (flags.unstated_line, "70E1" if modern else "70E"),
        (flags.order_unstated and modern, "70E2"),
    )
    return [law for applies, law in pairs if applies]


def deemed_suit_order(ranks: str, order: str) -> str:
    """The order the director deems a suit played in from one hand when the statement did not
    clarify it (Law 70E2): ``top_down`` the highest card first ("Q9J2" -> "QJ92")."""
    if order != "top_down":
        raise ValueError(f"no such order: {order!r}")
    return "".join(sorted(ranks.upper(), key=RANKS.index))


__all__ = [
    "SUIT_ORDERS",
    "ClaimAid",
    "ClaimFlags",
    "check_claim_flags",
    "claim_laws",
    "deemed_suit_order",
    "aid_at",
    "check_awarded",
    "claim_aid",
    "claim_position",
    "entered_position",
    "outstanding_trumps",
    "position_at",
    "remaining_cards",
    "remaining_deal",
]
