"""Deals, auctions and double-dummy results, in plain Python.

A deal is written as PBN writes it: the first seat, a colon, then four hands clockwise, each
``spades.hearts.diamonds.clubs``, e.g.
``N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875``.

Nothing here imports Django, so the importer service and management commands can use it
directly. The double-dummy solver (endplay/DDS) is imported only when first needed: endplay
pulls in matplotlib, which the web process should not pay for.
"""

from __future__ import annotations

import functools
import os
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bridge.engine.contract import (
    SEATS,
    contract_score,
    parse_contract,
    vulnerable_for,
)
from bridge.messages import Message, MessageError, _, gettext_noop, join, ngettext

SUITS = ("S", "H", "D", "C")
RANKS = "AKQJT98765432"
STRAINS = ("C", "D", "H", "S", "NT")
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}  # as PBN tags and the SVG write them
# The same in messages, translated where they are shown (bridge.messages).
SEAT_WORDS = {"N": _("North"), "E": _("East"), "S": _("South"), "W": _("West")}
RANK_WORDS = {"A": _("ace"), "K": _("king"), "Q": _("queen"), "J": _("jack"), "T": "10"}
HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
VULNERABILITIES = {"NONE": "None", "LOVE": "None", "-": "None", "NS": "NS", "EW": "EW", "ALL": "All", "BOTH": "All"}

_GAME_LEVEL = {"C": 5, "D": 5, "H": 4, "S": 4, "NT": 3}
# A hand: suit letter -> ranks held, high to low ("AKT2").
Hand = dict[str, str]
# Double-dummy tricks: declarer -> strain -> tricks.
DDTable = dict[str, dict[str, int]]

_EXAMPLE = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"


class DealError(MessageError):
    """A deal, auction or solver problem; ``str()`` is the message a user reads (in English;
    ``core.i18n.translate(error)`` in the reader's language).

    ``field`` says where the problem is: ``"deal"`` for the deal as a whole, a seat letter
    (N, E, S, W) for one hand, ``"auction"`` for an auction (then ``index`` is the 0-based
    position of the offending call, or None), ``"dealer"`` or ``"vulnerability"``.
    ``message`` is the Message; for an auction, ``reason`` is the same without the call it is
    about (``"insufficient: the last bid was 4C"``).
    """

    def __init__(self, field: str, message: str, index: int | None = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.index = index
        self.reason = reason if reason is not None else message


_CARD_NAMES = {
    "S": gettext_noop("the %(rank)s of spades (%(card)s)"),
    "H": gettext_noop("the %(rank)s of hearts (%(card)s)"),
    "D": gettext_noop("the %(rank)s of diamonds (%(card)s)"),
    "C": gettext_noop("the %(rank)s of clubs (%(card)s)"),
}


def card_name(card: str) -> Message:
    """``"S7"`` -> ``"the 7 of spades (S7)"`` (a Message)."""
    suit, rank = card[0], card[1]
    return Message(_CARD_NAMES[suit], rank=RANK_WORDS.get(rank, rank), card=card)


_SUIT_OF_HAND = {
    "S": gettext_noop("%(seat)s's spades"),
    "H": gettext_noop("%(seat)s's hearts"),
    "D": gettext_noop("%(seat)s's diamonds"),
    "C": gettext_noop("%(seat)s's clubs"),
}


def next_seat(seat: str, steps: int = 1) -> str:
    return SEATS[(SEATS.index(seat) + steps) % 4]


def parse_seat(text: str | None, field: str = "dealer") -> str:
    """Read a seat (N, E, S, W; any case); raise DealError otherwise."""
    seat = (text or "").strip().upper()[:1]
    if len((text or "").strip()) != 1 or seat not in SEATS:
        raise DealError(field, _("'%(text)s' is not a seat: write N, E, S or W", text=text))
    return seat


def parse_vulnerability(text: str | None) -> str:
    """Read a PBN vulnerability (None/Love/-, NS, EW, All/Both) as None, NS, EW or All."""
    value = VULNERABILITIES.get((text or "").strip().upper())
    if value is None:
        raise DealError(
            "vulnerability",
            _("'%(text)s' is not a vulnerability: write None (or Love, -), NS, EW or All (or Both)", text=text),
        )
    return value


@dataclass
class Deal:
    """Four hands. ``hands`` maps each seat to ``{suit: ranks}``, ranks high to low as
    ``"AKT2"``, or to None for a hand that is not known (only in partial deals)."""

    hands: dict[str, Hand | None]

    @property
    def complete(self) -> bool:
        return all(self.hands[seat] is not None for seat in SEATS)

    def hand_pbn(self, seat: str) -> str:
        hand = self.hands[seat]
        return "-" if hand is None else ".".join(hand[suit] for suit in SUITS)

    def to_pbn(self, first: str = "N") -> str:
        """The PBN deal string starting with ``first`` (North unless told otherwise)."""
        seats = [next_seat(first, i) for i in range(4)]
        return f"{first}:" + " ".join(self.hand_pbn(seat) for seat in seats)

    def cards(self, seat: str) -> list[str]:
        """The cards of ``seat`` as ``["SA", "S9", ...]``, spades first, high to low."""
        hand = self._known(seat)
        return [suit + rank for suit in SUITS for rank in hand[suit]]

    def suits(self, seat: str) -> list[tuple[str, str]]:
        """``seat``'s hand suit by suit, spades first, as a diagram shows it:
        ``[("S", "AKT2"), ("H", "QJ5"), ...]``."""
        hand = self._known(seat)
        return [(suit, hand[suit]) for suit in SUITS]

    def hcp(self, seat: str) -> int:
        """High-card points (A 4, K 3, Q 2, J 1) of ``seat``."""
        hand = self._known(seat)
        return sum(HCP.get(rank, 0) for suit in SUITS for rank in hand[suit])

    def _known(self, seat: str) -> Hand:
        hand = self.hands[seat]
        if hand is None:
            raise DealError(seat, _("%(seat)s's hand is not known", seat=SEAT_WORDS[seat]))
        return hand

    def __str__(self) -> str:
        return self.to_pbn()


def _parse_hand(seat: str, text: str) -> Hand:
    suits = text.split(".")
    if len(suits) != 4:
        raise DealError(
            seat,
            ngettext(
                "%(n)s suit in %(seat)s's hand: a hand is spades.hearts.diamonds.clubs",
                "%(n)s suits in %(seat)s's hand: a hand is spades.hearts.diamonds.clubs",
                len(suits),
                n=len(suits),
                seat=SEAT_WORDS[seat],
            ),
        )
    hand: Hand = {}
    for suit, ranks in zip(SUITS, suits):
        ranks = ranks.replace("10", "T")
        for rank in ranks:
            if rank not in RANKS:
                raise DealError(
                    seat,
                    _(
                        "'%(rank)s' is not a rank in %(suit)s: ranks are %(ranks)s",
                        rank=rank,
                        suit=Message(_SUIT_OF_HAND[suit], seat=SEAT_WORDS[seat]),
                        ranks=RANKS,
                    ),
                )
        hand[suit] = "".join(sorted(ranks, key=RANKS.index))
    return hand


def parse_deal(text: str | None, allow_partial: bool = False) -> Deal:
    """Read a PBN deal string into a Deal; raise DealError saying exactly what is wrong.

    ``-`` stands for a hand that is not known; it is refused unless ``allow_partial``.
    Lower case and ``10`` for ``T`` are accepted.
    """
    cleaned = (text or "").strip().upper()
    if len(cleaned) < 2 or cleaned[1] != ":":
        raise DealError("deal", _("a deal starts with the first seat and a colon, e.g. %(example)s", example=_EXAMPLE))
    first = cleaned[0]
    if first not in SEATS:
        raise DealError(
            "deal",
            _("'%(text)s' is not a seat: a deal starts with N, E, S or W and a colon", text=(text or "").strip()[0]),
        )
    parts = cleaned[2:].split()
    if len(parts) != 4:
        raise DealError(
            "deal",
            ngettext(
                "%(n)s hand in the deal: a deal has 4, separated by spaces",
                "%(n)s hands in the deal: a deal has 4, separated by spaces",
                len(parts),
                n=len(parts),
            ),
        )

    hands: dict[str, Hand | None] = {}
    for i, part in enumerate(parts):
        seat = next_seat(first, i)
        if part == "-":
            if not allow_partial:
                raise DealError(
                    seat, _("%(seat)s's hand is unknown ('-'): all four hands are needed here", seat=SEAT_WORDS[seat])
                )
            hands[seat] = None
        else:
            hands[seat] = _parse_hand(seat, part)
    hands = {seat: hands[seat] for seat in SEATS}

    # Which hands hold each card, to name duplicates precisely.
    holders: dict[str, list[str]] = {}
    for seat in SEATS:
        held = hands[seat]
        if held is not None:
            for suit in SUITS:
                for rank in held[suit]:
                    holders.setdefault(suit + rank, []).append(seat)
    for suit in SUITS:
        for rank in RANKS:
            seats = holders.get(suit + rank, [])
            if len(seats) > 1:
                where = sorted(set(seats), key=SEATS.index)
                card, n = card_name(suit + rank), len(seats)
                message: Message
                if len(where) == 1:
                    seat = SEAT_WORDS[where[0]]
                    message = (
                        _("%(card)s appears twice in %(seat)s's hand", card=card, seat=seat)
                        if n == 2
                        else _("%(card)s appears %(n)s times in %(seat)s's hand", card=card, n=n, seat=seat)
                    )
                else:
                    # Translators: a seat in a list such as "in North's and West's hands"
                    owners = join([_("%(seat)s's", seat=SEAT_WORDS[s]) for s in where])
                    message = (
                        _("%(card)s appears twice: in %(seats)s hands", card=card, seats=owners)
                        if n == 2
                        else _("%(card)s appears %(n)s times: in %(seats)s hands", card=card, n=n, seats=owners)
                    )
                raise DealError("deal", message)

    counts = {seat: sum(len(r) for r in hand.values()) for seat, hand in hands.items() if hand is not None}
    wrong = [seat for seat in SEATS if seat in counts and counts[seat] != 13]
    if wrong:
        described: list[Message] = [
            ngettext(
                "%(seat)s holds %(n)s card",
                "%(seat)s holds %(n)s cards",
                counts[wrong[0]],
                seat=SEAT_WORDS[wrong[0]],
                n=counts[wrong[0]],
            )
        ]
        # Translators: after "North holds 14 cards and ": another seat and its number of cards
        described += [_("%(seat)s %(n)s", seat=SEAT_WORDS[seat], n=counts[seat]) for seat in wrong[1:]]
        message = _("%(counts)s: a hand has 13", counts=join(described))
        if all(hand is not None for hand in hands.values()):
            missing = [s + r for s in SUITS for r in RANKS if s + r not in holders]
            if missing:
                shown = (
                    ", ".join(missing)
                    if len(missing) <= 4
                    else ngettext("%(n)s card", "%(n)s cards", len(missing), n=len(missing))
                )
                message = _("%(problem)s; the deal is missing %(cards)s", problem=message, cards=shown)
        raise DealError(wrong[0] if len(wrong) == 1 else "deal", message)
    return Deal(hands)


def generate_deal(seed: int | str) -> Deal:
    """A random deal, the same for the same ``seed`` (an int or a str) on every machine.

    Python only promises that ``Random.random()`` repeats across versions for a given seed
    (not ``shuffle``), so the Fisher-Yates shuffle is written out here on top of it.
    """
    rng = random.Random(seed)
    cards = [suit + rank for suit in SUITS for rank in RANKS]
    for i in range(len(cards) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    hands: dict[str, Hand | None] = {}
    for n, seat in enumerate(SEATS):
        held = cards[13 * n : 13 * n + 13]
        hands[seat] = {suit: "".join(sorted((c[1] for c in held if c[0] == suit), key=RANKS.index)) for suit in SUITS}
    return Deal(hands)


# --- Double dummy ------------------------------------------------------------------------


def _endplay() -> tuple[Any, Any]:
    """Import endplay's solver on first use (it loads matplotlib: keep it off-screen)."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    from endplay import dds, types

    return dds, types


# Tables the solver gave before, by deal (PBN), rows in endplay's order (spades, hearts,
# diamonds, clubs, NT; columns N, E, S, W): the demo ships its deals' tables
# (scoring/demo_tables.json), so building it does not solve them again (issue #42: solving was
# half of `make run`'s first minutes). A deal not known is solved; while ``record_solved`` is
# on, every table solved is kept for ``solved_tables`` (the demo's build writes them).
_KNOWN: dict[str, tuple[tuple[int, ...], ...]] = {}
_SOLVED: dict[str, list[list[int]]] | None = None


def know_tables(tables: Mapping[str, Sequence[Sequence[int]]]) -> None:
    """Take ``tables`` ({PBN: five rows of four tricks}) as solved: 5 strains x 4 declarers, each
    0-13, or ``DealError`` naming the deal."""
    for pbn, rows in tables.items():
        if len(rows) != 5 or any(len(row) != 4 or any(not 0 <= t <= 13 for t in row) for row in rows):
            raise DealError("deal", _("%(deal)s: a double-dummy table has 5 rows of 4 tricks from 0 to 13", deal=pbn))
        _KNOWN[pbn] = tuple(tuple(int(t) for t in row) for row in rows)
    _solve.cache_clear()


def record_solved() -> None:
    """From now on, keep every table the solver gives (``solved_tables``)."""
    global _SOLVED
    _SOLVED = {}


def solved_tables() -> dict[str, list[list[int]]]:
    """The tables asked of the solver since ``record_solved`` (not those known before), {PBN: rows}."""
    return dict(_SOLVED or {})


@functools.lru_cache(maxsize=512)
def _solve(pbn: str) -> Any:
    dds, types = _endplay()
    known = _KNOWN.get(pbn)
    if known is not None:
        from endplay import _dds
        from endplay.dds.ddtable import DDTable

        results = _dds.ddTableResults()
        for strain, row in enumerate(known):
            for hand, tricks in enumerate(row):
                results.resTable[strain][hand] = tricks
        return DDTable(results)
    try:
        table = dds.calc_dd_table(types.Deal(pbn))
    except Exception as exc:  # DDS reports failures as assorted exceptions
        raise DealError(
            "deal", _("the double-dummy solver failed on %(deal)s: %(error)s", deal=pbn, error=str(exc))
        ) from exc
    if _SOLVED is not None:
        _SOLVED[pbn] = table.to_list()
    return table


def _solvable(deal: Deal) -> str:
    if not deal.complete:
        raise DealError("deal", _("the deal is not complete: double-dummy analysis needs all four hands"))
    return deal.to_pbn()


def double_dummy(deal: Deal) -> DDTable:
    """Tricks declarer takes double dummy: ``{"N": {"C": 7, "D": 7, "H": 11, "S": 10,
    "NT": 11}, "E": {...}, "S": {...}, "W": {...}}``.

    endplay's ``DDTable.to_list()`` has one row per strain in its Denom order (spades, hearts,
    diamonds, clubs, NT) and one column per declarer in Player order (N, E, S, W).
    """
    rows = _solve(_solvable(deal)).to_list()
    by_strain = dict(zip(("S", "H", "D", "C", "NT"), rows))
    return {seat: {strain: by_strain[strain][i] for strain in STRAINS} for i, seat in enumerate(SEATS)}


def par(deal: Deal, dealer: str, vulnerability: str) -> dict[str, Any]:
    """The par score from North-South's point of view and the par contracts.

    Returns ``{"score": 460, "contracts": [{"contract": "3NT", "declarer": "N",
    "tricks": 11}]}``; ``contracts`` is empty when par is a pass-out.
    """
    dds, types = _endplay()
    dealer = parse_seat(dealer)
    vul = {"None": types.Vul.none, "NS": types.Vul.ns, "EW": types.Vul.ew, "All": types.Vul.both}[
        parse_vulnerability(vulnerability)
    ]
    table = _solve(_solvable(deal))
    try:
        result = dds.par(table, vul, types.Player(SEATS.index(dealer)))
    except Exception as exc:
        raise DealError(
            "deal", _("the par calculation failed on %(deal)s: %(error)s", deal=deal.to_pbn(), error=str(exc))
        ) from exc
    strains = {
        types.Denom.spades: "S",
        types.Denom.hearts: "H",
        types.Denom.diamonds: "D",
        types.Denom.clubs: "C",
        types.Denom.nt: "NT",
    }
    doublings = {types.Penalty.passed: "", types.Penalty.doubled: "X", types.Penalty.redoubled: "XX"}
    contracts: list[dict[str, Any]] = []
    for c in result:
        entry = {
            "contract": f"{c.level}{strains[c.denom]}{doublings[c.penalty]}",
            "declarer": SEATS[int(c.declarer)],
            "tricks": c.level + 6 + c.result,
        }
        if entry not in contracts:  # endplay can list the same contract twice
            contracts.append(entry)
    return {"score": result.score, "contracts": contracts}


# --- Auctions ----------------------------------------------------------------------------

_BID_RE = re.compile(r"^([1-7])(NT|N|C|D|H|S)$")
# A refused call and the reason put together ("West's 3H (call 5) is insufficient: ..."); LIN
# messages give the reason alone ("mb 5 (3H): insufficient: ...").
_THEN = gettext_noop("%(who)s %(reason)s")
_COLON = gettext_noop("%(who)s: %(reason)s")
_IS = gettext_noop("%(who)s is %(reason)s")


def normalise_call(text: str | None) -> str:
    """``"pass"`` -> ``"Pass"``, ``"1n"`` -> ``"1NT"``, ``"x"`` -> ``"X"``, ``"ap"`` -> ``"AP"``;
    raise DealError for anything that is not a call."""
    cleaned = (text or "").strip().upper()
    if cleaned in {"PASS", "P"}:
        return "Pass"
    if cleaned in {"X", "XX", "AP"}:
        return cleaned
    match = _BID_RE.match(cleaned)
    if match:
        return match[1] + ("NT" if match[2] in {"N", "NT"} else match[2])
    raise DealError("auction", _("'%(text)s' is not a call: write Pass, X, XX, AP or a bid from 1C to 7NT", text=text))


def _bid_rank(bid: str) -> tuple[int, int]:
    return (int(bid[0]), STRAINS.index(bid[1:]))


def _side(seat: str) -> str:
    return "NS" if seat in {"N", "S"} else "EW"


def validate_auction(dealer: str, calls: Sequence[str], complete: bool = True) -> tuple[str | None, str | None]:
    """Check that ``calls``, starting with ``dealer``, are a legal auction.

    Returns ``(contract, declarer)``: e.g. ``("4SX", "N")``, ``("PASS", None)`` for a
    passed-out board, or ``(None, None)`` for an unfinished auction when ``complete`` is
    False. Raises DealError (field ``"auction"``, ``index`` the offending call) for an
    insufficient bid, a double of one's own side or of a doubled bid, a redouble without an
    opponent's double, calls after the end, or (when ``complete``) an auction that has not
    ended. ``AP`` (all pass) closes the auction and must be the last call.
    """
    dealer = parse_seat(dealer)
    last_bid: str | None = None
    last_bidder = ""  # set with last_bid
    doubled = 0
    passes = 0
    ended = False
    first_to_name: dict[tuple[str, str], str] = {}  # (side, strain) -> seat that named it first: the declarer
    for i, raw in enumerate(calls):
        seat = next_seat(dealer, i)
        try:
            call = normalise_call(raw)
        except DealError as exc:
            raise DealError("auction", exc.message, i) from None
        who = _("%(seat)s's %(call)s (call %(n)s)", seat=SEAT_WORDS[seat], call=call, n=i + 1)

        def refuse(joined: str, reason: Message, i: int = i, who: Message = who) -> DealError:
            return DealError("auction", Message(joined, who=who, reason=reason), i, reason=reason)

        if ended:
            raise refuse(_THEN, _("comes after the end of the auction"))
        if call == "AP":
            if i != len(calls) - 1:
                raise refuse(_THEN, _("must be the last call: AP means all pass"))
            ended = True
        elif call == "Pass":
            passes += 1
            ended = passes == (3 if last_bid else 4)
        elif call == "X":
            if last_bid is None:
                raise refuse(_COLON, _("there is no bid to double"))
            if _side(last_bidder) == _side(seat):
                raise refuse(
                    _THEN, _("doubles their own side's %(bid)s: a double is only of an opponent's bid", bid=last_bid)
                )
            if doubled:
                raise refuse(
                    _COLON,
                    _("%(bid)s is already doubled", bid=last_bid)
                    if doubled == 1
                    else _("%(bid)s is already redoubled", bid=last_bid),
                )
            doubled, passes = 1, 0
        elif call == "XX":
            if doubled == 0:
                raise refuse(_COLON, _("there is no double to redouble"))
            if doubled == 2:
                raise refuse(_COLON, _("%(bid)s is already redoubled", bid=last_bid))
            if _side(last_bidder) != _side(seat):
                raise refuse(_THEN, _("redoubles their own side's double: a redouble is only of an opponent's double"))
            doubled, passes = 2, 0
        else:
            if last_bid and _bid_rank(call) <= _bid_rank(last_bid):
                raise refuse(_IS, _("insufficient: the last bid was %(bid)s", bid=last_bid))
            last_bid, last_bidder, doubled, passes = call, seat, 0, 0
            first_to_name.setdefault((_side(seat), call[1:]), seat)
    if not ended:
        if complete:
            raise DealError(
                "auction",
                _("the auction has not ended: it needs three passes after the last call")
                if last_bid
                else _("the auction has not ended: it needs four passes"),
            )
        return None, None
    if last_bid is None:
        return "PASS", None
    return last_bid + "X" * doubled, first_to_name[(_side(last_bidder), last_bid[1:])]


# --- Demo results ------------------------------------------------------------------------


def _declarer_for(deal: Deal, side: Sequence[str], strain: str) -> str:
    """Who of ``side`` plays in ``strain``: the longer trump holding, else more points."""

    def weight(seat: str) -> tuple[int, int, int]:
        length = 0 if strain == "NT" else len(deal._known(seat)[strain])
        return (length, deal.hcp(seat), -SEATS.index(seat))

    return max(side, key=weight)


def _natural_contract(deal: Deal, table: DDTable, side: Sequence[str], vulnerability: str) -> tuple[int, str, str]:
    """The contract ``side`` would reach: its best-scoring makeable game or slam, else a part
    score in its best strain. Returns (level, strain, declarer)."""
    points = sum(deal.hcp(seat) for seat in side)
    best: tuple[int, int, str, str] | None = None
    for strain in ("NT", "S", "H", "D", "C"):
        declarer = _declarer_for(deal, side, strain)
        tricks = table[declarer][strain]
        level = tricks - 6
        game = _GAME_LEVEL[strain]
        if level >= 6 and points >= 29:  # slams bid on shape alone are rare at the table
            level = 7 if level == 7 and points >= 34 else 6
        elif level >= game:
            level = game
        else:  # part scores are rarely bid above the three level
            level = max(1, min(level, game - 1, 3))
        score = contract_score(f"{level}{strain}", tricks, vulnerable_for(declarer, vulnerability))
        if best is None or score > best[0]:
            best = (score, level, strain, declarer)
    assert best is not None  # five strains were tried
    return best[1:]


def _sacrifice(
    deal: Deal, table: DDTable, level: int, strain: str, declarer: str, vulnerability: str
) -> tuple[int, str, str] | None:
    """A doubled save by the other side over ``level strain`` when it costs less than the
    contract is worth; None when there is no sensible one."""
    value = contract_score(f"{level}{strain}", table[declarer][strain], vulnerable_for(declarer, vulnerability))
    if value < 300:  # nobody saves against a part score
        return None
    side = [s for s in SEATS if _side(s) != _side(declarer)]
    best: tuple[int, int, str, str] | None = None
    for their in ("S", "H", "D", "C", "NT"):
        their_level = level if STRAINS.index(their) > STRAINS.index(strain) else level + 1
        if their_level > 7:
            continue
        saver = _declarer_for(deal, side, their)
        cost = -contract_score(f"{their_level}{their}X", table[saver][their], vulnerable_for(saver, vulnerability))
        if 0 < cost < value and (best is None or cost < best[0]):
            best = (cost, their_level, their, saver)
    return None if best is None else best[1:]


def _lead_card(ranks: str, trumps: bool) -> str:
    """A textbook lead from ``ranks`` (high to low)."""
    touching = len(ranks) >= 2 and ranks[0] in "AKQJT" and RANKS.index(ranks[1]) == RANKS.index(ranks[0]) + 1
    if touching or len(ranks) <= 2 or (trumps and ranks[0] == "A"):
        return ranks[0]
    if len(ranks) == 3:
        return ranks[-1] if ranks[0] in "AKQJ" else ranks[0]  # low from an honour, else top
    return ranks[3]  # fourth highest


def opening_lead(deal: Deal, declarer: str, strain: str, rng: random.Random) -> str:
    """A card led by the player on declarer's left, e.g. ``"S4"``."""
    leader = next_seat(declarer)
    hand = deal._known(leader)
    suits = [s for s in SUITS if hand[s] and s != strain] or [s for s in SUITS if hand[s]]
    weights = [len(hand[s]) ** 2 + (6 if _lead_card(hand[s], False) in "AKQJ" else 0) for s in suits]
    suit = rng.choices(suits, weights)[0]
    return suit + _lead_card(hand[suit], strain != "NT")


def plausible_result(deal: Deal, dealer: str, vulnerability: str, rng: random.Random) -> tuple[str, str, int, str]:
    """A realistic table result for demo data: ``(contract, declarer, tricks, lead)`` such
    as ``("4S", "N", 10, "HK")``.

    The side with more high-card points usually plays its natural contract from the double-dummy
    table; now and then it plays another contract, the par contract or the opponents save;
    declarer's tricks vary from double dummy by one about a third of the time and rarely by
    two. Everything random comes from ``rng`` (a random.Random), so the result is fixed by
    its state.
    """
    vulnerability = parse_vulnerability(vulnerability)
    table = double_dummy(deal)
    ns_points = deal.hcp("N") + deal.hcp("S")
    ns_declare = ns_points > 20 or (ns_points == 20 and rng.random() < 0.5)
    side = ("N", "S") if ns_declare else ("E", "W")

    level, strain, declarer = _natural_contract(deal, table, side, vulnerability)
    if level == 7 and rng.random() < 0.5:  # grand slams are often missed
        level = 6
    elif level == 6 and rng.random() < 0.3:  # and small slams now and then
        level = _GAME_LEVEL[strain]
    doubling = ""
    roll = rng.random()
    if roll < 0.06:
        contracts = par(deal, dealer, vulnerability)["contracts"]
        if contracts:
            chosen = rng.choice(contracts)
            parsed = parse_contract(chosen["contract"])
            level, strain, declarer = parsed.level, parsed.strain, chosen["declarer"]
            doubling = "X" * parsed.doubling
    elif roll < 0.11:
        save = _sacrifice(deal, table, level, strain, declarer, vulnerability)
        if save:
            (level, strain, declarer), doubling = save, "X"
    elif roll < 0.30:  # a different contract: another level or another strain
        choice = rng.choice(["higher", "lower", "strain"])
        if choice == "higher" and level < 7:
            level += 1
        elif choice == "lower" and level > 1:
            level -= 1
        else:
            strain = rng.choice([s for s in ("NT", "S", "H", "D", "C") if s != strain])
            declarer = _declarer_for(deal, side, strain)
            level = max(1, min(table[declarer][strain] - 6, _GAME_LEVEL[strain]))
    elif roll < 0.55 and level < _GAME_LEVEL[strain]:
        # A part-score battle: the opponents buy it when they have a fit of their own.
        other = tuple(s for s in SEATS if s not in side)
        their = _natural_contract(deal, table, other, vulnerability)
        if their[1] != "NT" and table[their[2]][their[1]] >= 8:
            level, strain, declarer = their

    if not doubling and table[declarer][strain] <= level + 4 and rng.random() < 0.4:
        doubling = "X"  # opponents double a contract that is two or more off

    tricks = table[declarer][strain]
    roll = rng.random()
    if roll < 0.04:
        tricks += rng.choice((-2, 2))
    elif roll < 0.37:
        tricks += rng.choice((-1, 1))
    tricks = max(0, min(13, tricks))
    return f"{level}{strain}{doubling}", declarer, tricks, opening_lead(deal, declarer, strain, rng)


def winning_index(cards: tuple[str, ...] | list[str], strain: str) -> int:
    """The index of the card that wins a finished trick (cards in play order)."""

    def power(card: str) -> tuple[int, int]:
        if card[0] == strain:
            return 2, -RANKS.index(card[1])
        if card[0] == cards[0][0]:
            return 1, -RANKS.index(card[1])
        return 0, 0

    return max(range(len(cards)), key=lambda i: power(cards[i]))
