"""The deal, auction and play a director's ruling is about.

A ruling carries a ``BoardRecord``: the deal, board number, vulnerability, player names and
an ``Auction`` (dealer, calls with alerts, explanations and tempo, opening lead, play, claim).
``Auction.to_dict()`` is what the database stores. ``check_play`` checks the play and a claim
against the deal and the auction. ``bridge.lin`` and ``bridge.pbn_record`` read and write the
record in the formats directors get it in.

Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bridge.calls import AuctionCall as AuctionCall  # its home is bridge/calls.py
from bridge.deals import (
    RANKS,
    SEAT_WORDS,
    SUITS,
    Deal,
    DealError,
    next_seat,
    parse_seat,
)
from bridge.engine.contract import parse_contract
from bridge.irregularities import AuctionAsCalled, read_auction
from bridge.messages import _, ngettext
from bridge.play_irregularities import PlayIrregularity, declarer_after, trick_leaders

# --- The record --------------------------------------------------------------------------


def parse_card(text: str | None) -> str:
    """``"sq"`` -> ``"SQ"``, ``"H10"`` -> ``"HT"``; raise DealError if it is not a card."""
    card = (text or "").strip().upper().replace("10", "T")
    if len(card) != 2 or card[0] not in SUITS or card[1] not in RANKS:
        raise DealError("play", _("'%(text)s' is not a card: write the suit and the rank, e.g. SQ", text=text))
    return card


@dataclass
class Claim:
    """A claim: the total number of tricks it gives declarer (as LIN's ``mc`` counts them)
    and what the claimer said."""

    tricks: int
    text: str = ""


@dataclass
class Auction:
    """The auction from ``dealer``, the opening lead, the play and a claim.

    ``play`` is a list of tricks, each up to four cards in play order (only the last may be
    short). A play that stops after the opening lead is kept as ``opening_lead`` alone, so
    records read from any format compare equal.

    ``calls`` are the calls as called, irregular ones included (``bridge.irregularities``);
    ``play_irregularities`` the leads and plays out of turn, premature plays, exposed cards and
    declarer's penalty-card lead options (``bridge.play_irregularities``): a trick whose lead
    out of turn was accepted starts with that card, from the offender's seat.
    """

    dealer: str
    calls: list[AuctionCall] = field(default_factory=list)
    opening_lead: str | None = None
    play: list[list[str]] = field(default_factory=list)
    claim: Claim | None = None
    play_irregularities: list[PlayIrregularity] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.dealer = parse_seat(self.dealer)
        self.calls = [c if isinstance(c, AuctionCall) else AuctionCall(c) for c in self.calls]
        self.play_irregularities = [
            i if isinstance(i, PlayIrregularity) else PlayIrregularity.from_dict(i) for i in self.play_irregularities
        ]
        self.play = [[parse_card(card) for card in trick] for trick in self.play if trick]
        if self.opening_lead:
            self.opening_lead = parse_card(self.opening_lead)
        elif self.play:
            self.opening_lead = self.play[0][0]
        if self.play == [[self.opening_lead]]:
            self.play = []

    @property
    def cards(self) -> list[str]:
        """Every card played, in order (the opening lead alone when there is no play)."""
        if self.play:
            return [card for trick in self.play for card in trick]
        return [self.opening_lead] if self.opening_lead else []

    def validate(self, complete: bool = True) -> tuple[str | None, str | None]:
        """Check the auction and the shape of the play; return ``(contract, declarer)`` as
        ``validate_auction`` does: ``("3NT", "S")``, ``("PASS", None)``, or ``(None, None)``
        for an unfinished auction when ``complete`` is False. Raises DealError.

        The calls are read as called (``bridge.irregularities.read_auction``): an insufficient
        bid or a call out of rotation the next player called over stands (27A1, 29A)."""
        as_called = self.as_called(complete)
        contract, declarer = as_called.contract, as_called.declarer
        if self.play and self.play[0][0] != self.opening_lead:
            raise DealError(
                "play",
                _(
                    "the opening lead is %(lead)s but the play starts with %(card)s",
                    lead=self.opening_lead,
                    card=self.play[0][0],
                ),
            )
        for number, trick in enumerate(self.play, 1):
            if len(trick) > 4 or (len(trick) < 4 and number < len(self.play)):
                raise DealError(
                    "play",
                    _(
                        "trick %(n)s has %(cards)s cards: a trick has 4 (only the last may be unfinished)",
                        n=number,
                        cards=len(trick),
                    ),
                )
        if len(self.play) > 13:
            raise DealError(
                "play",
                ngettext(
                    "%(n)s trick: a board has 13", "%(n)s tricks: a board has 13", len(self.play), n=len(self.play)
                ),
            )
        if self.claim and not 0 <= self.claim.tricks <= 13:
            raise DealError(
                "claim",
                ngettext(
                    "a claim of %(n)s trick: declarer takes 0 to 13",
                    "a claim of %(n)s tricks: declarer takes 0 to 13",
                    self.claim.tricks,
                    n=self.claim.tricks,
                ),
            )
        return contract, declarer

    def as_called(self, complete: bool = True) -> AuctionAsCalled:
        """The auction as called: the legal calls, the contract, every irregular call."""
        return read_auction(self.dealer, self.calls, complete)

    def legal_calls(self) -> list[AuctionCall]:
        """The calls that stand, in rotation (what PBN and LIN can hold): the cancelled and
        withdrawn calls left out; the calls as written when the auction cannot be read."""
        try:
            legal = self.as_called(complete=False).legal
        except DealError:
            return list(self.calls)
        return [self.calls[i] for i in legal]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"dealer", "calls": [{"call", "alert", "explanation",
        "tempo_seconds", "note"}], "opening_lead", "play", "claim": {"tricks", "text"} or
        None}``. A call with an irregularity also has ``seat``, ``status``, ``attention_by``,
        ``law`` and ``option``; a call whose time has a stated source or uncertainty also has
        ``tempo_source`` and ``tempo_uncertainty`` (bridge.tempo); ``play_irregularities`` is
        there when the play had any."""
        calls = []
        for c in self.calls:
            entry: dict[str, Any] = {
                "call": c.call,
                "alert": c.alert,
                "explanation": c.explanation,
                "tempo_seconds": c.tempo_seconds,
                "note": c.note,
            }
            if c.irregular:
                entry.update(seat=c.seat, status=c.status, attention_by=c.attention_by, law=c.law, option=c.option)
            if c.tempo_source or c.tempo_uncertainty is not None:
                entry.update(tempo_source=c.tempo_source, tempo_uncertainty=c.tempo_uncertainty)
            calls.append(entry)
        data: dict[str, Any] = {
            "dealer": self.dealer,
            "calls": calls,
            "opening_lead": self.opening_lead,
            "play": [list(trick) for trick in self.play],
            "claim": None if self.claim is None else {"tricks": self.claim.tricks, "text": self.claim.text},
        }
        if self.play_irregularities:
            data["play_irregularities"] = [i.to_dict() for i in self.play_irregularities]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Auction:
        """The Auction that ``to_dict()`` wrote; keys left out take their defaults."""
        claim = data.get("claim")
        return cls(
            dealer=data["dealer"],
            calls=[AuctionCall(**c) for c in data.get("calls", [])],
            opening_lead=data.get("opening_lead"),
            play=data.get("play", []),
            claim=Claim(claim["tricks"], claim.get("text", "")) if claim else None,
            play_irregularities=[PlayIrregularity.from_dict(i) for i in data.get("play_irregularities", [])],
        )


@dataclass
class BoardRecord:
    """One board as a ruling records it. ``players`` maps seats (N, E, S, W) to the names
    known; ``vulnerability`` is None, NS, EW or All."""

    board: int | None
    vulnerability: str
    deal: Deal
    auction: Auction
    players: dict[str, str] = field(default_factory=dict)

    @property
    def dealer(self) -> str:
        return self.auction.dealer

    @property
    def play(self) -> list[list[str]]:
        return self.auction.play

    @property
    def claim(self) -> Claim | None:
        return self.auction.claim

    def validate(self) -> tuple[str | None, str | None]:
        """Check the auction, and the play and claim against the deal; return
        ``(contract, declarer)`` (``(None, None)`` while the auction is unfinished)."""
        return check_play(self.deal, self.auction)


def trick_winner(trick: Sequence[str], leader: str, trump: str) -> str:
    """The seat that wins ``trick`` (cards in play order, led by ``leader``); ``trump`` is
    the contract's strain (``NT`` has none)."""

    def power(card: str) -> tuple[int, int]:
        if card[0] == trump:
            return 2, -RANKS.index(card[1])
        if card[0] == trick[0][0]:
            return 1, -RANKS.index(card[1])
        return 0, 0

    return next_seat(leader, max(range(len(trick)), key=lambda i: power(trick[i])))


def check_play(deal: Deal, auction: Auction) -> tuple[str | None, str | None]:
    """Check that each card was held by the player whose turn it was and played once, and
    that a claim fits the tricks left; return ``(contract, declarer)``.

    Failing to follow suit is not refused: a revoke is exactly what a ruling may be about.
    Raises DealError: field ``"auction"`` or ``"play"`` (``index`` the 0-based card) or
    ``"claim"``.
    """
    contract, declarer = auction.validate(complete=False)
    cards = auction.cards
    if (cards or auction.claim) and contract in (None, "PASS"):
        if cards:
            message = (
                _("a card is played but the auction has not ended")
                if contract is None
                else _("a card is played but the board was passed out")
            )
        else:
            message = (
                _("a claim is made but the auction has not ended")
                if contract is None
                else _("a claim is made but the board was passed out")
            )
        raise DealError("play" if cards else "claim", message, 0 if cards else None)
    if contract in (None, "PASS"):
        return contract, declarer
    trump = parse_contract(contract).strain
    assert declarer is not None  # a contract was bid
    seen: dict[str, int] = {}
    played = [cards[start : start + 4] for start in range(0, len(cards), 4)]
    leaders = trick_leaders(declarer, played, auction.play_irregularities, trump)
    declarer = declarer_after(declarer, auction.play_irregularities)
    won = 0
    for number, start in enumerate(range(0, len(cards), 4)):
        trick = cards[start : start + 4]
        leader = leaders[number]
        for offset, card in enumerate(trick):
            seat, index = next_seat(leader, offset), start + offset
            if card in seen:
                raise DealError(
                    "play", _("%(card)s was already played (card %(n)s)", card=card, n=seen[card] + 1), index
                )
            known = deal.hands[seat] is not None
            if known and card not in deal.cards(seat):
                raise DealError(
                    "play", _("%(seat)s is to play and does not hold %(card)s", seat=SEAT_WORDS[seat], card=card), index
                )
            seen[card] = index
        if len(trick) == 4:
            won += trick_winner(trick, leader, trump) in (declarer, next_seat(declarer, 2))
    if auction.claim:
        tricks, left = auction.claim.tricks, 13 - len(cards) // 4
        if tricks < won:
            raise DealError(
                "claim", _("a claim of %(n)s tricks, but declarer has already won %(won)s", n=tricks, won=won)
            )
        if tricks > won + left:
            raise DealError(
                "claim",
                _(
                    "a claim of %(n)s tricks, but declarer has won %(won)s with %(left)s to play",
                    n=tricks,
                    won=won,
                    left=left,
                ),
            )
    return contract, declarer
