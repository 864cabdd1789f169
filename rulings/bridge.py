"""The deal, auction and play a director's ruling is about, and the formats they travel in.

A ruling carries a ``BoardRecord``: the deal, board number, vulnerability, player names and
an ``Auction`` (dealer, calls with alerts, explanations and tempo, opening lead, play, claim).
``Auction.to_dict()`` is what the database stores.

Directors get hands from BBO (LIN strings and handviewer links) and from scoring programs
(PBN); ``parse_lin`` and ``parse_pbn_record`` read one board from either, ``to_pbn`` and
``lin_from_record`` write it back. Every fault is refused with a message naming what is wrong
and where.

Plain Python, no Django.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import parse_qs, quote, urlsplit

from scoring.deals import (
    RANKS,
    SEAT_NAMES,
    SUITS,
    Deal,
    SEAT_WORDS,
    DealError,
    next_seat,
    normalise_call,
    parse_deal,
    parse_seat,
    validate_auction,
)
from scoring.engine.contract import SEATS, board_vulnerability, parse_contract
from scoring.importers.pbn import Call, PbnError, PbnGame, parse_pbn, write_pbn
from scoring.messages import Message, MessageError, _

HANDVIEWER = "https://www.bridgebase.com/tools/handviewer.html"

# LIN writes the hands South, West, North, East; the dealer digit counts in the same order.
LIN_SEATS = ("S", "W", "N", "E")
LIN_VULNERABILITY = {"o": "None", "0": "None", "n": "NS", "e": "EW", "b": "All"}
_LIN_VUL_CODE = {"None": "o", "NS": "n", "EW": "e", "All": "b"}
_LIN_CALLS = {"P": "Pass", "D": "X", "R": "XX"}
_LIN_KEY_RE = re.compile(r"^[a-z]{2}$")
_LIN_BID_RE = re.compile(r"^[1-7](C|D|H|S|N|NT)$")
_TEMPO_RE = re.compile(r"^tempo: (\d+) s$")
_CLAIM_TAG_RE = re.compile(r"^(\d+)(?::(.*))?$", re.S)


class LinError(MessageError):
    """A LIN string or link that cannot be read; ``str()`` is the message a director reads (in
    English; ``scoring.i18n.translate(error)`` in the reader's language)."""


def _at(key, message):
    """``md: ...``, ``mb 5 (3H): ...``: the LIN key (and position) at fault, then what is wrong."""
    return Message("%(key)s: %(message)s", key=key, message=message)


def _tagged(tag, message):
    """``Play: ...``: the PBN tag at fault, then what is wrong."""
    return Message("%(tag)s: %(message)s", tag=tag, message=message)


# --- The record --------------------------------------------------------------------------

def parse_card(text):
    """``"sq"`` -> ``"SQ"``, ``"H10"`` -> ``"HT"``; raise DealError if it is not a card."""
    card = (text or "").strip().upper().replace("10", "T")
    if len(card) != 2 or card[0] not in SUITS or card[1] not in RANKS:
        raise DealError("play", _("'%(text)s' is not a card: write the suit and the rank, e.g. SQ", text=text))
    return card


@dataclass
class AuctionCall:
    """One call and what the director needs to know about it.

    ``call`` is normalised (``Pass``, ``X``, ``XX``, ``1C``..``7NT``); ``tempo_seconds`` is how
    long the player took (for unauthorised-information cases), None when not recorded;
    ``note`` is the director's own remark.
    """

    call: str
    alert: bool = False
    explanation: str = ""
    tempo_seconds: int | None = None
    note: str = ""

    def __post_init__(self):
        self.call = normalise_call(self.call)


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
    """

    dealer: str
    calls: list = field(default_factory=list)
    opening_lead: str | None = None
    play: list = field(default_factory=list)
    claim: Claim | None = None

    def __post_init__(self):
        self.dealer = parse_seat(self.dealer)
        self.calls = [c if isinstance(c, AuctionCall) else AuctionCall(c) for c in self.calls]
        self.play = [[parse_card(card) for card in trick] for trick in self.play if trick]
        if self.opening_lead:
            self.opening_lead = parse_card(self.opening_lead)
        elif self.play:
            self.opening_lead = self.play[0][0]
        if self.play == [[self.opening_lead]]:
            self.play = []

    @property
    def cards(self):
        """Every card played, in order (the opening lead alone when there is no play)."""
        if self.play:
            return [card for trick in self.play for card in trick]
        return [self.opening_lead] if self.opening_lead else []

    def validate(self, complete=True):
        """Check the auction and the shape of the play; return ``(contract, declarer)`` as
        ``validate_auction`` does: ``("3NT", "S")``, ``("PASS", None)``, or ``(None, None)``
        for an unfinished auction when ``complete`` is False. Raises DealError."""
        contract, declarer = validate_auction(self.dealer, [c.call for c in self.calls], complete)
        if self.play and self.play[0][0] != self.opening_lead:
            raise DealError("play", _("the opening lead is %(lead)s but the play starts with %(card)s",
                                      lead=self.opening_lead, card=self.play[0][0]))
        for number, trick in enumerate(self.play, 1):
            if len(trick) > 4 or (len(trick) < 4 and number < len(self.play)):
                raise DealError("play", _("trick %(n)s has %(cards)s cards: a trick has 4 (only the last may be "
                                          "unfinished)", n=number, cards=len(trick)))
        if len(self.play) > 13:
            raise DealError("play", _("%(n)s tricks: a board has 13", n=len(self.play)))
        if self.claim and not 0 <= self.claim.tricks <= 13:
            raise DealError("claim", _("a claim of %(n)s tricks: declarer takes 0 to 13", n=self.claim.tricks))
        return contract, declarer

    def to_dict(self):
        """A JSON-ready dict: ``{"dealer", "calls": [{"call", "alert", "explanation",
        "tempo_seconds", "note"}], "opening_lead", "play", "claim": {"tricks", "text"} or
        None}``."""
        return {
            "dealer": self.dealer,
            "calls": [{"call": c.call, "alert": c.alert, "explanation": c.explanation,
                       "tempo_seconds": c.tempo_seconds, "note": c.note} for c in self.calls],
            "opening_lead": self.opening_lead,
            "play": [list(trick) for trick in self.play],
            "claim": None if self.claim is None else {"tricks": self.claim.tricks,
                                                      "text": self.claim.text},
        }

    @classmethod
    def from_dict(cls, data):
        """The Auction that ``to_dict()`` wrote; keys left out take their defaults."""
        claim = data.get("claim")
        return cls(
            dealer=data["dealer"],
            calls=[AuctionCall(**c) for c in data.get("calls", [])],
            opening_lead=data.get("opening_lead"),
            play=data.get("play", []),
            claim=Claim(claim["tricks"], claim.get("text", "")) if claim else None,
        )


@dataclass
class BoardRecord:
    """One board as a ruling records it. ``players`` maps seats (N, E, S, W) to the names
    known; ``vulnerability`` is None, NS, EW or All."""

    board: int | None
    vulnerability: str
    deal: Deal
    auction: Auction
    players: dict = field(default_factory=dict)

    @property
    def dealer(self):
        return self.auction.dealer

    @property
    def play(self):
        return self.auction.play

    @property
    def claim(self):
        return self.auction.claim

    def validate(self):
        """Check the auction, and the play and claim against the deal; return
        ``(contract, declarer)`` (``(None, None)`` while the auction is unfinished)."""
        return check_play(self.deal, self.auction)


def trick_winner(trick, leader, trump):
    """The seat that wins ``trick`` (cards in play order, led by ``leader``); ``trump`` is
    the contract's strain (``NT`` has none)."""
    def power(card):
        if card[0] == trump:
            return 2, -RANKS.index(card[1])
        if card[0] == trick[0][0]:
            return 1, -RANKS.index(card[1])
        return 0, 0
    return next_seat(leader, max(range(len(trick)), key=lambda i: power(trick[i])))


def check_play(deal, auction):
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
            message = (_("a card is played but the auction has not ended") if contract is None
                       else _("a card is played but the board was passed out"))
        else:
            message = (_("a claim is made but the auction has not ended") if contract is None
                       else _("a claim is made but the board was passed out"))
        raise DealError("play" if cards else "claim", message, 0 if cards else None)
    if contract in (None, "PASS"):
        return contract, declarer
    trump = parse_contract(contract).strain
    leader, seen, won = next_seat(declarer), {}, 0
    for start in range(0, len(cards), 4):
        trick = cards[start:start + 4]
        for offset, card in enumerate(trick):
            seat, index = next_seat(leader, offset), start + offset
            if card in seen:
                raise DealError("play", _("%(card)s was already played (card %(n)s)", card=card, n=seen[card] + 1),
                                index)
            known = deal.hands[seat] is not None
            if known and card not in deal.cards(seat):
                raise DealError("play", _("%(seat)s is to play and does not hold %(card)s", seat=SEAT_WORDS[seat],
                                          card=card), index)
            seen[card] = index
        if len(trick) == 4:
            leader = trick_winner(trick, leader, trump)
            won += leader in (declarer, next_seat(declarer, 2))
    if auction.claim:
        tricks, left = auction.claim.tricks, 13 - len(cards) // 4
        if tricks < won:
            raise DealError("claim", _("a claim of %(n)s tricks, but declarer has already won %(won)s", n=tricks,
                                       won=won))
        if tricks > won + left:
            raise DealError("claim", _("a claim of %(n)s tricks, but declarer has won %(won)s with %(left)s to play",
                                       n=tricks, won=won, left=left))
    return contract, declarer


# --- LIN ---------------------------------------------------------------------------------

def parse_lin(text):
    """Read one board from a BBO LIN string or a link carrying one (handviewer, ``bbo=y``,
    movie links: anything with a ``lin=`` parameter); return a BoardRecord.

    Keys read: ``pn`` names, ``ah`` board, ``sv`` vulnerability, ``md`` deal, ``mb`` calls
    (a trailing ``!`` is an alert), ``an`` the explanation of the call before it, ``pc``
    cards, ``mc`` a claim. Other keys (``pg``, ``st``, ``rh``, ``nt``...) are ignored.
    Raises LinError naming the key and position at fault, e.g.
    ``mb 5 (3H): insufficient: the last bid was 4C``.
    """
    pairs = _lin_pairs(_lin_from_link(text))
    board = vulnerability = dealer_deal = claim = None
    players, calls, raw_calls, raw_cards = {}, [], [], []
    for key, value in pairs:
        if key == "pn":
            names = [name.strip() for name in value.split(",")[:4]]
            players = {seat: name for seat, name in zip(LIN_SEATS, names) if name}
        elif key == "ah":
            number = re.search(r"\d+", value)
            board = int(number[0]) if number else None
        elif key == "sv":
            vulnerability = LIN_VULNERABILITY.get(value.strip().lower())
            if vulnerability is None:
                raise LinError(_("sv|%(value)s|: '%(value)s' is not a vulnerability (o, n, e, b)", value=value))
        elif key == "md":
            dealer_deal = _lin_deal(value)
        elif key == "mb":
            raw_calls.append(value)
            calls.append(_lin_call(value, len(raw_calls)))
        elif key == "an":
            if not calls:
                raise LinError(_("an|%(value)s|: an explanation before any call (mb)", value=value))
            last = calls[-1]
            last.explanation = f"{last.explanation}; {value}" if last.explanation else value
        elif key == "pc":
            raw_cards.append(value)
        elif key == "mc":
            if not re.fullmatch(r"\d+", value.strip()) or int(value) > 13:
                raise LinError(_("mc|%(value)s|: '%(value)s' is not a number of tricks (0 to 13)", value=value))
            claim = Claim(int(value))

    dealer, deal = dealer_deal
    if vulnerability is None:
        if board is None:
            raise LinError(_("no sv| (vulnerability) found, and no board number (ah|) to take it from"))
        vulnerability = board_vulnerability(board)
    cards = []
    for number, raw in enumerate(raw_cards, 1):
        try:
            cards.append(parse_card(raw))
        except DealError as exc:
            raise LinError(_at(f"pc {number} ({raw})", exc.message)) from None
    auction = Auction(dealer, calls, play=[cards[i:i + 4] for i in range(0, len(cards), 4)],
                      claim=claim)
    try:
        check_play(deal, auction)
    except DealError as exc:
        if exc.field == "auction":
            if exc.index is None:
                raise LinError(_at("mb", exc.message)) from None
            # "mb 5 (3H): insufficient: ...", not "West's 3H (call 5) is insufficient: ..."
            raise LinError(_at(f"mb {exc.index + 1} ({raw_calls[exc.index]})", exc.reason)) from None
        if exc.field == "play":
            raise LinError(_at(f"pc {exc.index + 1} ({raw_cards[exc.index]})", exc.message)) from None
        raise LinError(_at(f"mc|{claim.tricks}|", exc.message)) from None
    return BoardRecord(board, vulnerability, deal, auction, players)


def _lin_from_link(text):
    """The LIN string itself: ``text`` unless it is a link, then its ``lin=`` parameter."""
    text = (text or "").strip()
    if not re.match(r"(https?://|www\.)", text, re.I):
        return text
    parts = urlsplit(text if "://" in text else "https://" + text)
    for part in (parts.query, parts.fragment):  # some links carry it after '#'
        values = parse_qs(part, keep_blank_values=True).get("lin")
        if values:
            return values[0]
    raise LinError(_("the link has no lin= parameter"))


def _lin_pairs(lin):
    """``[(key, value), ...]`` of a LIN string; refuse text that is not LIN."""
    tokens = lin.split("|")
    pairs = [(tokens[i].strip().lower(), tokens[i + 1]) for i in range(0, len(tokens) - 1, 2)]
    mds = [value for key, value in pairs if key == "md"]
    if not mds:
        raise LinError(_("not a LIN string: no md| (deal) found"))
    if len(mds) > 1:
        raise LinError(_("%(n)s deals (md|) in the LIN string: a ruling is about one board", n=len(mds)))
    for key, _value in pairs:
        if not _LIN_KEY_RE.match(key):
            raise LinError(_("'%(key)s' is not a LIN key: LIN is written as key|value| with two-letter keys",
                             key=key))
    leftover = tokens[-1].strip() if len(tokens) % 2 else ""
    if leftover:
        raise LinError(_("'%(text)s' has no value: LIN is written as key|value|", text=leftover))
    return pairs


def _lin_call(value, number):
    text = value.strip().upper()
    alert = text.endswith("!")
    text = text.rstrip("!")
    if text in _LIN_CALLS:
        return AuctionCall(_LIN_CALLS[text], alert=alert)
    if _LIN_BID_RE.match(text):
        return AuctionCall(text, alert=alert)
    raise LinError(_at(f"mb {number} ({value})", _(
        "'%(value)s' is not a call: LIN writes p, d, r or a bid from 1C to 7N", value=value)))


def _lin_deal(value):
    """``(dealer, Deal)`` from an md value; one hand may be left out: it is the rest."""
    match = re.match(r"\s*([1-4]?)(.*)$", value, re.S)
    if not match[1]:
        # endplay's LIN export leaves the digit out; guessing it would move the auction.
        raise LinError(_at("md", _("no dealer digit: md starts with 1 (South), 2 (West), 3 (North) or "
                                   "4 (East) before the hands")))
    dealer = LIN_SEATS[int(match[1]) - 1]
    texts = match[2].split(",")
    if len(texts) > 4:
        raise LinError(_at("md", _("%(n)s hands: LIN gives four (South, West, North, East)", n=len(texts))))
    hands = {seat: _lin_hand(seat, text) for seat, text in zip(LIN_SEATS, texts + [""] * 4)}
    missing = [seat for seat in LIN_SEATS if hands[seat] is None]
    if len(missing) > 1:
        named = SEAT_WORDS[missing[0]]
        for seat in missing[1:]:
            named = _("%(items)s and %(last)s", items=named, last=SEAT_WORDS[seat])
        raise LinError(_at("md", _("the hands of %(seats)s are missing: LIN may leave out one hand only",
                                   seats=named)))
    try:
        deal = parse_deal("N:" + " ".join(hands[s] or "-" for s in SEATS), allow_partial=True)
    except DealError as exc:
        raise LinError(_at("md", exc.message)) from None
    if missing:
        held = {card for seat in SEATS if seat not in missing for card in deal.cards(seat)}
        deal.hands[missing[0]] = {suit: "".join(r for r in RANKS if suit + r not in held)
                                  for suit in SUITS}
    return dealer, deal


def _lin_hand(seat, text):
    """A LIN hand (``SAKQ2HK...``, suits in any order) as PBN's ``spades.hearts...``; None
    when empty."""
    text = re.sub(r"\s", "", text).upper()
    if not text:
        return None
    suits, suit = {s: "" for s in SUITS}, None
    for char in text:
        if char in SUITS:
            suit = char
        elif suit is None:
            raise LinError(_at("md", _("'%(char)s' in %(seat)s's hand comes before any suit letter (S, H, D, C)",
                                       char=char, seat=SEAT_WORDS[seat])))
        else:
            suits[suit] += char
    return ".".join(suits[s] for s in SUITS)


def lin_from_record(record):
    """A LIN string for ``record``, with the dealer digit, to open in BBO's handviewer.

    Alerts (``!``), explanations (``an``), the play and the claim travel; tempo and the
    director's notes do not (LIN has no place for them). ``|`` in a text becomes ``/`` and
    ``,`` in a name a space, as LIN cannot escape them.
    """
    def clean(text):
        return text.replace("|", "/")

    names = ",".join(clean(record.players.get(seat, "")).replace(",", " ") for seat in LIN_SEATS)
    hands = ",".join(_lin_hand_text(record.deal, seat) for seat in LIN_SEATS)
    parts = [("pn", names), ("st", ""),
             ("md", f"{LIN_SEATS.index(record.dealer) + 1}{hands}"), ("rh", "")]
    if record.board is not None:
        parts.append(("ah", f"Board {record.board}"))
    parts.append(("sv", _LIN_VUL_CODE[record.vulnerability]))
    lin_calls = {"Pass": "p", "X": "d", "XX": "r"}
    for call in record.auction.calls:
        code = lin_calls.get(call.call, call.call.replace("NT", "N"))
        parts.append(("mb", code + ("!" if call.alert else "")))
        if call.explanation:
            parts.append(("an", clean(call.explanation)))
    cards = record.auction.cards
    for number, card in enumerate(cards, 1):
        parts.append(("pc", card))
        if number % 4 == 0:
            parts.append(("pg", ""))  # BBO's pause after each trick
    if record.claim:
        parts.append(("mc", str(record.claim.tricks)))
    return "".join(f"{key}|{value}|" for key, value in parts)


def handviewer_url(record):
    """A BBO handviewer link showing ``record``."""
    return f"{HANDVIEWER}?lin={quote(lin_from_record(record), safe='')}"


def _lin_hand_text(deal, seat):
    hand = deal.hands[seat]
    return "" if hand is None else "".join(suit + hand[suit] for suit in SUITS)


# --- PBN ---------------------------------------------------------------------------------

def parse_pbn_record(text):
    """Read ONE game of PBN text into a BoardRecord; raise PbnError (with a line) if the
    game is faulty or the text holds no game or several.

    A call is alerted when it has a note or a ``!``, unless its note starts with
    ``not alerted``; the note text is read as ``to_pbn`` writes it (see there). ``AP`` is
    written out as the passes it stands for. The Play section (one column per player from
    the opening leader) is turned into tricks in play order; ``[Claim "11:text"]`` is the
    claim.
    """
    games = parse_pbn(text)
    if len(games) != 1:
        line = games[1].line if len(games) > 1 else 1
        raise PbnError(line, _("%(n)s games in the text: a ruling is about one board", n=len(games)))
    game = games[0]
    if game.deal is None:
        raise PbnError(game.line, _tagged("Deal", _("the game has no deal")))
    for tag, value in (("Dealer", game.dealer), ("Vulnerable", game.vulnerability)):
        if value is None:
            raise PbnError(game.line, _tagged(tag, _("the game has no %(tag)s tag, nor a Board number to take it "
                                                     "from", tag=tag)))

    alerted = _alerted_calls(text)
    calls = [_call_from_note(call.call, call.note, i in alerted)
             for i, call in enumerate(game.auction)]
    if calls and calls[-1].call == "AP":  # all pass: the passes it stands for
        ap = calls.pop()
        while validate_auction(game.dealer, [c.call for c in calls], complete=False)[0] is None:
            calls.append(AuctionCall("Pass", ap.alert, ap.explanation, ap.tempo_seconds, ap.note))

    claim = None
    if game.tags.get("Claim"):
        match = _CLAIM_TAG_RE.match(game.tags["Claim"].strip())
        if not match:
            raise PbnError(_line_of(text, "[Claim"), _tagged("Claim", _(
                "'%(value)s' is not a claim: write tricks:what was said, e.g. 10:the rest are mine",
                value=game.tags["Claim"])))
        claim = Claim(int(match[1]), match[2] or "")
    play = _read_play(game, calls, _line_of(text, "[Play")) if "Play" in game.sections else []
    auction = Auction(game.dealer, calls, play=play, claim=claim)
    players = {seat: game.tags[SEAT_NAMES[seat]].strip() for seat in SEATS
               if game.tags.get(SEAT_NAMES[seat], "").strip() not in ("", "?")}
    record = BoardRecord(game.board, game.vulnerability, game.deal, auction, players)
    try:
        record.validate()
    except DealError as exc:
        where = _line_of(text, "[Play" if exc.field == "play" else "[Claim") or game.line
        message = (_("trick %(n)s: %(message)s", n=exc.index // 4 + 1, message=exc.message)
                   if exc.index is not None else exc.message)
        raise PbnError(where, _tagged(exc.field.capitalize(), message)) from None
    return record


def _read_play(game, calls, line):
    """The tricks, in play order, of the game's Play section (one column per player, from
    the opening leader)."""
    contract, declarer = validate_auction(game.dealer, [c.call for c in calls], False)
    leader_tag, rows = game.sections["Play"]
    if contract in (None, "PASS"):
        raise PbnError(line, _tagged("Play", _("cards are played but the auction has not ended") if contract is None
                                     else _("cards are played but the board was passed out")))
    first = next_seat(declarer)
    if leader_tag.strip().upper() != first:
        raise PbnError(line, _tagged("Play", _(
            "the play starts with %(start)s but the opening leader is %(leader)s, on declarer %(declarer)s's left",
            start=leader_tag, leader=first, declarer=declarer)))
    words = [w for row in rows for w in row]
    words = words[:words.index("*")] if "*" in words else words
    trump, leader, tricks = parse_contract(contract).strain, first, []
    try:
        for start in range(0, len(words), 4):
            by_seat = {next_seat(first, i): w for i, w in enumerate(words[start:start + 4])}
            trick = []
            for i in range(4):  # the cards in play order, up to the first not played
                word = by_seat.get(next_seat(leader, i), "-")
                if word == "-":
                    break
                trick.append(parse_card(word))
            if trick:
                tricks.append(trick)
            if len(trick) < 4:
                break
            leader = trick_winner(trick, leader, trump)
    except DealError as exc:
        raise PbnError(line, _tagged("Play", _("trick %(n)s: %(message)s", n=len(tricks) + 1,
                                               message=exc.message))) from None
    return tricks


def _line_of(text, start):
    return next((n for n, line in enumerate(text.splitlines(), 1)
                 if line.lstrip().startswith(start)), None)


def _alerted_calls(text):
    """Positions of the calls written with a ``!`` (parse_pbn drops it): a single ``!``
    only, as ``!!`` and ``?!`` are PBN's comments on the quality of a call."""
    match = re.search(r'\[\s*Auction\s*"[^"]*"\s*\]', text)
    if not match:
        return set()
    body = re.sub(r"\{.*?\}", " ", text[match.end():], flags=re.S)
    body = re.sub(r";[^\n]*", " ", body).split("[", 1)[0]
    words = [w for w in body.split() if not re.fullmatch(r"=\d+=|\$\d+|\*", w)]
    return {i for i, word in enumerate(words) if re.search(r"[^!?]!$", word)}


def _call_from_note(call, note, bang):
    if note is None:
        return AuctionCall(call, alert=bang)
    parts = note.split("; ")
    alert = parts[0] != "not alerted"
    parts = parts[1:] if not alert else parts
    remark = ""
    for i, part in enumerate(parts):
        if part.startswith("note: "):
            remark, parts = "; ".join(parts[i:])[len("note: "):], parts[:i]
            break
    tempo = None
    if parts and _TEMPO_RE.match(parts[-1]):
        tempo, parts = int(_TEMPO_RE.match(parts[-1])[1]), parts[:-1]
    explanation = "; ".join(parts)
    if alert and explanation == "alert":
        explanation = ""
    return AuctionCall(call, alert, explanation, tempo, remark)


def _note_text(call):
    """The PBN note for ``call``, or None when there is nothing to say."""
    parts = []
    if not call.alert and (call.explanation or call.tempo_seconds is not None or call.note):
        parts.append("not alerted")
    if call.explanation:
        parts.append(call.explanation)
    elif call.alert and call.tempo_seconds is None and not call.note:
        parts.append("alert")
    if call.tempo_seconds is not None:
        parts.append(f"tempo: {call.tempo_seconds} s")
    if call.note:
        parts.append(f"note: {call.note}")
    return " ".join("; ".join(parts).split("\n")) or None


def to_pbn(record):
    """Write ``record`` as one PBN 2.1 game that ``parse_pbn_record`` reads back equal.

    Each call with something to say gets one note, parts joined by ``"; "`` in this order:
    ``not alerted`` (only for a call that is not alerted: any other note marks an alert),
    the explanation (``alert`` when an alerted call has nothing else), ``tempo: 12 s``, and
    ``note: `` followed by the director's remark. Other programs show the note as text.
    The play goes in a Play section (``*`` after an unfinished play), the claim in a
    ``[Claim "11:what was said"]`` tag. Round trips are exact except for texts that mimic
    these markers (an explanation ending in ``; tempo: 5 s``) and line breaks in notes,
    which become spaces.
    """
    contract, declarer = record.validate()
    auction = record.auction
    tags = {SEAT_NAMES[seat]: name for seat, name in record.players.items() if name}
    if auction.claim:
        text = auction.claim.text.replace("\n", " ")
        tags["Claim"] = f"{auction.claim.tricks}:{text}" if text else str(auction.claim.tricks)
    game = PbnGame(line=0, tags=tags, board=record.board, dealer=record.dealer,
                   vulnerability=record.vulnerability, deal=record.deal, declarer=declarer,
                   contract=contract, auction=[Call(c.call, _note_text(c)) for c in auction.calls],
                   auction_complete=contract is not None)
    if auction.cards:
        first = next_seat(declarer)
        trump, leader, rows = parse_contract(contract).strain, first, []
        for trick in auction.play or [[auction.opening_lead]]:
            by_seat = {next_seat(leader, i): card for i, card in enumerate(trick)}
            rows.append([by_seat.get(next_seat(first, i), "-") for i in range(4)])
            if len(trick) == 4:
                leader = trick_winner(trick, leader, trump)
        if len(auction.cards) < 52:
            rows.append(["*"])
        game.sections["Play"] = (first, rows)
    # write_pbn opens with "% PBN 2.1" / "% EXPORT" lines; one game is all there is.
    return write_pbn([game])
