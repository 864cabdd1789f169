"""The play of a board read trick by trick: who led, who won, what each hand held at any card,
the revokes in it, and the double-dummy tricks from a position part-way through the play.

``read_play(deal, auction)`` checks the play against the deal (``bridge.auction.check_play``:
a revoke is not refused, it is what a ruling may be about) and returns a ``PlayRecord``.
``solve_position`` asks the DDS solver (endplay) for the tricks the side on play can still take.

For the Laws' purposes declarer and dummy are separate players when it comes to who won a
trick (Law 64, footnote in the 2007 and 2017 codes): a trick is won by a seat, not by a side.

Plain Python, no Django.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from bridge import messages
from bridge.auction import Auction, check_play
from bridge.deals import RANKS, SUITS, Deal, DealError, winning_index
from bridge.messages import Message
from bridge.play_irregularities import trick_leaders

# bridge.messages is not annotated yet: its marker, typed here (makemessages still reads "_").
_: Callable[..., Message] = messages._


def _fault(field: str, message: Message, index: int | None = None) -> DealError:
    return DealError(field, message, index)


SEATS = ("N", "E", "S", "W")


def next_seat(seat: str, steps: int = 1) -> str:
    """The seat ``steps`` places clockwise from ``seat``."""
    return SEATS[(SEATS.index(seat) + steps) % 4]


def side_of(seat: str) -> str:
    """``"NS"`` or ``"EW"``."""
    return "NS" if seat in ("N", "S") else "EW"


def other_side(side: str) -> str:
    return "EW" if side == "NS" else "NS"


def strain_of(contract: str) -> str:
    """The strain of a contract as the auction writes it (``4SX`` -> ``S``, ``3NT`` -> ``NT``)."""
    body = contract.rstrip("X")
    return "NT" if body.endswith("NT") else body[-1]


@dataclass(frozen=True)
class Trick:
    """One trick: ``number`` from 1, the ``leader``, the cards in play order, and the seat and
    card that won it (None while the trick is unfinished)."""

    number: int
    leader: str
    cards: tuple[str, ...]
    winner: str | None
    winning_card: str | None

    def seat_at(self, position: int) -> str:
        """The seat that played the card at ``position`` (0 the lead)."""
        return next_seat(self.leader, position)

    @property
    def complete(self) -> bool:
        return len(self.cards) == 4


@dataclass(frozen=True)
class Revoke:
    """A card that did not follow suit while its player held the suit led (Law 61A)."""

    trick: int
    position: int
    seat: str
    card: str
    suit_led: str


@dataclass(frozen=True)
class Position:
    """The play at a moment: the cards each seat still holds (the current trick's cards taken
    out), who led the current trick and what was played to it, and the tricks each side won."""

    trick: int
    leader: str
    current: tuple[str, ...]
    hands: dict[str, tuple[str, ...]]
    won: dict[str, int]

    @property
    def to_play(self) -> str:
        return next_seat(self.leader, len(self.current))

    @property
    def tricks_left(self) -> int:
        return 13 - self.won["NS"] - self.won["EW"]

    def pbn(self) -> str:
        """The cards left in each hand (with the current trick's cards back in the hands that
        played them) as a PBN deal from North; a void hand suit is empty."""
        hands = {seat: list(self.hands[seat]) for seat in SEATS}
        for offset, card in enumerate(self.current):
            hands[next_seat(self.leader, offset)].append(card)
        return "N:" + " ".join(_hand_pbn(hands[seat]) for seat in SEATS)


def _hand_pbn(cards: list[str]) -> str:
    return ".".join("".join(sorted((c[1] for c in cards if c[0] == suit), key=RANKS.index)) for suit in SUITS)


@dataclass(frozen=True)
class PlayRecord:
    """A board's play as played: the contract, declarer, strain, the deal, the tricks, and the
    total tricks a claim gave declarer (None when the record has no claim)."""

    contract: str
    declarer: str
    strain: str
    deal: Deal
    tricks: tuple[Trick, ...]
    claim: int | None

    @property
    def declarer_side(self) -> str:
        return side_of(self.declarer)

    @property
    def dummy(self) -> str:
        return next_seat(self.declarer, 2)

    @property
    def completed(self) -> int:
        """How many tricks were played to the end."""
        return sum(1 for trick in self.tricks if trick.complete)

    def won_in_play(self, side: str, first: int = 1, last: int = 13) -> int:
        """Tricks numbered ``first`` to ``last`` that ``side`` won in the play (claimed tricks
        not counted)."""
        return sum(
            1 for t in self.tricks if t.winner is not None and first <= t.number <= last and side_of(t.winner) == side
        )

    def claimed(self, side: str) -> int | None:
        """The tricks not played that the claim gave ``side``; None without a claim."""
        if self.claim is None:
            return None
        to_declarer = self.claim - self.won_in_play(self.declarer_side)
        return to_declarer if side == self.declarer_side else 13 - self.completed - to_declarer

    def won_from(self, side: str, first: int) -> int | None:
        """Tricks ``side`` won from trick ``first`` on, a claim's tricks included; None when the
        record stops before the end without a claim (so nobody knows)."""
        in_play = self.won_in_play(side, first)
        if self.completed == 13:
            return in_play
        claimed = self.claimed(side)
        return None if claimed is None else in_play + claimed

    @property
    def declarer_tricks(self) -> int | None:
        """Declarer's tricks at the end of play (as played, or as the claim says); None when
        the record stops before the end without a claim."""
        return self.won_from(self.declarer_side, 1)

    def position(self, trick: int, card: int = 0) -> Position:
        """The position before card ``card`` (0 the lead) of trick ``trick``."""
        if not 1 <= trick <= 13 or not 0 <= card <= 3:
            raise _fault("play", _("there is no card %(card)s of trick %(trick)s", card=card + 1, trick=trick))
        hands = {seat: list(self.deal.cards(seat)) for seat in SEATS}
        won = {"NS": 0, "EW": 0}
        leader = next_seat(self.declarer)
        for played in self.tricks:
            if played.number == trick:
                break
            if not played.complete or played.winner is None:
                raise _fault("play", _("the play stops in trick %(n)s", n=played.number))
            for offset, played_card in enumerate(played.cards):
                hands[played.seat_at(offset)].remove(played_card)
            won[side_of(played.winner)] += 1
            leader = played.winner
        else:
            if trick != len(self.tricks) + 1:
                raise _fault("play", _("the play stops in trick %(n)s", n=len(self.tricks)))
        if trick <= len(self.tricks):
            leader = self.tricks[trick - 1].leader  # a lead out of turn accepted: the trick's own leader
        current: tuple[str, ...] = ()
        if trick <= len(self.tricks):
            current = self.tricks[trick - 1].cards[:card]
        if len(current) < card:
            raise _fault("play", _("there is no card %(card)s of trick %(trick)s", card=card + 1, trick=trick))
        for offset, played_card in enumerate(current):
            hands[next_seat(leader, offset)].remove(played_card)
        return Position(
            trick=trick,
            leader=leader,
            current=current,
            hands={seat: tuple(cards) for seat, cards in hands.items()},
            won=won,
        )

    def revokes(self) -> list[Revoke]:
        """Every card played that did not follow suit while its player held the suit led."""
        found = []
        held = {seat: set(self.deal.cards(seat)) for seat in SEATS}
        for trick in self.tricks:
            led = trick.cards[0][0]
            for offset, card in enumerate(trick.cards):
                seat = trick.seat_at(offset)
                if card[0] != led and any(c[0] == led for c in held[seat]):
                    found.append(Revoke(trick=trick.number, position=offset, seat=seat, card=card, suit_led=led))
                held[seat].discard(card)
        return found


def read_play(deal: Deal, auction: Auction) -> PlayRecord:
    """The play of ``auction`` on ``deal`` trick by trick. Raises DealError when the deal is not
    complete, the auction did not end in a contract, or a card was not in its player's hand."""
    if not deal.complete:
        raise _fault("deal", _("the deal is not complete: the play needs all four hands"))
    contract, declarer = check_play(deal, auction)
    if contract is None or contract == "PASS" or declarer is None:
        raise _fault("auction", _("the auction did not end in a contract: there is no play"))
    strain = strain_of(contract)
    cards: list[str] = list(auction.cards)
    tricks: list[Trick] = []
    # The seat that led each trick as played: an accepted lead out of turn starts its trick
    # (bridge.play_irregularities); check_play has already given the declarer after Law 54A.
    leaders = trick_leaders(declarer, [cards[i : i + 4] for i in range(0, len(cards), 4)], [], strain)
    if auction.play_irregularities:
        auction_declarer = auction.as_called(False).declarer or declarer
        leaders = trick_leaders(
            auction_declarer, [cards[i : i + 4] for i in range(0, len(cards), 4)], auction.play_irregularities, strain
        )
    for number, start in enumerate(range(0, len(cards), 4)):
        played = tuple(cards[start : start + 4])
        leader = leaders[number]
        winner = winning = None
        if len(played) == 4:
            index = winning_index(played, strain)
            winner, winning = next_seat(leader, index), played[index]
        tricks.append(Trick(number=len(tricks) + 1, leader=leader, cards=played, winner=winner, winning_card=winning))
    claim = auction.claim.tricks if auction.claim is not None else None
    return PlayRecord(contract=contract, declarer=declarer, strain=strain, deal=deal, tricks=tuple(tricks), claim=claim)


# --- Double dummy from a position ----------------------------------------------------------

_DENOMS = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": 4}  # endplay's Denom values
_PLAYERS = {"N": 0, "E": 1, "S": 2, "W": 3}  # endplay's Player values


def solve_position(position: Position, strain: str) -> int:
    """The most tricks the side on play can still take, double dummy, from ``position`` (the
    current trick counted). Uses the DDS solver through endplay; raises DealError if it fails."""
    if position.tricks_left == 0:
        return 0
    os.environ.setdefault("MPLBACKEND", "Agg")
    from endplay import dds, types

    try:
        deal = types.Deal(
            position.pbn(), first=types.Player(_PLAYERS[position.leader]), trump=types.Denom(_DENOMS[strain])
        )
        for card in position.current:
            deal.play(card)
        solved = dds.solve_board(deal)
        return max(tricks for _card, tricks in solved)
    except Exception as exc:  # DDS reports failures as assorted exceptions
        raise _fault(
            "deal", _("the double-dummy solver failed on %(deal)s: %(error)s", deal=position.pbn(), error=str(exc))
        ) from exc


def side_tricks_from(position: Position, strain: str, side: str) -> int:
    """The tricks ``side`` takes double dummy from ``position`` on (the current trick counted)."""
    best = solve_position(position, strain)
    return best if side_of(position.to_play) == side else position.tricks_left - best
