"""BBO's LIN strings and handviewer links, read into and written from a ``BoardRecord``.

``parse_lin`` reads one board from a LIN string or any link carrying one, ``lin_from_record``
and ``handviewer_url`` write it back. Every fault is refused with a ``LinError`` naming the key
and position at fault.

Plain Python, no Django.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, quote, urlsplit

from bridge.auction import Auction, AuctionCall, BoardRecord, Claim, check_play, parse_card
from bridge.deals import (
    RANKS,
    SEAT_WORDS,
    SUITS,
    Deal,
    DealError,
    parse_deal,
)
from bridge.engine.contract import SEATS, board_vulnerability
from bridge.messages import Message, MessageError, _

if TYPE_CHECKING:
    from collections.abc import Sequence

    from bridge.interchange import SessionFile
    from bridge.play_irregularities import PlayIrregularity

HANDVIEWER = "https://www.bridgebase.com/tools/handviewer.html"

# LIN writes the hands South, West, North, East; the dealer digit counts in the same order.
LIN_SEATS = ("S", "W", "N", "E")
LIN_VULNERABILITY = {"o": "None", "0": "None", "n": "NS", "e": "EW", "b": "All"}
_LIN_VUL_CODE = {"None": "o", "NS": "n", "EW": "e", "All": "b"}
_LIN_CALLS = {"P": "Pass", "D": "X", "R": "XX"}
_LIN_KEY_RE = re.compile(r"^[a-z]{2}$")
_LIN_BID_RE = re.compile(r"^[1-7](C|D|H|S|N|NT)$")
_BOM = "\ufeff"
_BOM_AS_LATIN1 = "\xef\xbb\xbf"  # the mark's three bytes read one character each


class LinError(MessageError):
    """A LIN string or link that cannot be read; ``str()`` is the message a director reads (in
    English; ``core.i18n.translate(error)`` in the reader's language)."""


def _at(key: str, message: str) -> Message:
    """``md: ...``, ``mb 5 (3H): ...``: the LIN key (and position) at fault, then what is wrong."""
    return Message("%(key)s: %(message)s", key=key, message=message)


# --- LIN ---------------------------------------------------------------------------------


def parse_lin(text: str | None, play_irregularities: Sequence[PlayIrregularity] = ()) -> BoardRecord:
    """Read one board from a BBO LIN string or a link carrying one (handviewer, ``bbo=y``,
    movie links: anything with a ``lin=`` parameter); return a BoardRecord.

    Keys read: ``pn`` names, ``ah`` board, ``sv`` vulnerability, ``md`` deal, ``mb`` calls
    (a trailing ``!`` is an alert), ``an`` the explanation of the call before it, ``pc``
    cards, ``mc`` a claim. Other keys (``pg``, ``st``, ``rh``, ``nt``...) are ignored.
    Raises LinError naming the key and position at fault, e.g.
    ``mb 5 (3H): insufficient: the last bid was 4C``. ``play_irregularities`` are those already
    recorded for the board (a ruling's: an opening lead out of turn accepted, 54A or 54B): the play
    is read from the seat that really led (``bridge.play_irregularities.trick_leaders``).
    """
    pairs = _lin_pairs(_lin_from_link(text))
    board: int | None = None
    vulnerability: str | None = None
    dealer_deal: tuple[str, Deal] | None = None
    claim: Claim | None = None
    players: dict[str, str] = {}
    calls: list[AuctionCall] = []
    raw_calls: list[str] = []
    raw_cards: list[str] = []
    for key, value in pairs:
        if key == "pn":
            names = [name.strip() for name in value.split(",")[:4]]
            players = {seat: name for seat, name in zip(LIN_SEATS, names) if name}
        elif key == "ah":
            digits = re.search(r"\d+", value)
            board = int(digits[0]) if digits else None
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

    assert dealer_deal is not None  # _lin_pairs refuses a LIN string without md
    dealer, deal = dealer_deal
    if vulnerability is None:
        if board is None:
            raise LinError(_("no sv| (vulnerability) found, and no board number (ah|) to take it from"))
        vulnerability = board_vulnerability(board)
    cards: list[str] = []
    for number, raw in enumerate(raw_cards, 1):
        try:
            cards.append(parse_card(raw))
        except DealError as exc:
            raise LinError(_at(f"pc {number} ({raw})", exc.message)) from None
    auction = Auction(
        dealer,
        calls,
        play=[cards[i : i + 4] for i in range(0, len(cards), 4)],
        claim=claim,
        play_irregularities=list(play_irregularities),
    )
    try:
        check_play(deal, auction)
    except DealError as exc:
        if exc.field == "auction":
            if exc.index is None:
                raise LinError(_at("mb", exc.message)) from None
            # "mb 5 (3H): insufficient: ...", not "West's 3H (call 5) is insufficient: ..."
            raise LinError(_at(f"mb {exc.index + 1} ({raw_calls[exc.index]})", exc.reason)) from None
        if exc.field == "play":
            if exc.index is None:  # the play as a whole (more than 13 tricks, a short trick): no one card
                raise LinError(_at("pc", exc.message)) from None
            raise LinError(_at(f"pc {exc.index + 1} ({raw_cards[exc.index]})", exc.message)) from None
        raise LinError(_at(f"mc|{claim.tricks if claim else ''}|", exc.message)) from None
    return BoardRecord(board, vulnerability, deal, auction, players)


def _lin_from_link(text: str | None) -> str:
    """The LIN string itself: ``text`` unless it is a link, then its ``lin=`` parameter."""
    text = (text or "").strip()
    # A file saved with a UTF-8 byte-order mark (Windows editors, BBO downloads), read as UTF-8 or
    # as Latin-1 / Windows-1252: the mark is not part of the first key.
    for mark in (_BOM, _BOM_AS_LATIN1):
        text = text.removeprefix(mark).lstrip()
    if not re.match(r"(https?://|www\.)", text, re.I):
        return text
    try:
        parts = urlsplit(text if "://" in text else "https://" + text)
    except ValueError:  # "http://]": an address that is not one (urlsplit refuses its host)
        raise LinError(
            _(
                "'%(link)s' is not a link that can be read: paste the link as the hand viewer gives it, "
                "or the LIN string itself",
                link=text[:100],
            )
        ) from None
    for part in (parts.query, parts.fragment):  # some links carry it after '#'
        values = parse_qs(part, keep_blank_values=True).get("lin")
        if values:
            return values[0]
    raise LinError(_("the link has no lin= parameter"))


def _lin_pairs(lin: str) -> list[tuple[str, str]]:
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
            raise LinError(_("'%(key)s' is not a LIN key: LIN is written as key|value| with two-letter keys", key=key))
    leftover = tokens[-1].strip() if len(tokens) % 2 else ""
    if leftover:
        raise LinError(_("'%(text)s' has no value: LIN is written as key|value|", text=leftover))
    return pairs


def _lin_call(value: str, number: int) -> AuctionCall:
    text = value.strip().upper()
    alert = text.endswith("!")
    text = text.rstrip("!")
    if text in _LIN_CALLS:
        return AuctionCall(_LIN_CALLS[text], alert=alert)
    if _LIN_BID_RE.match(text):
        return AuctionCall(text, alert=alert)
    raise LinError(
        _at(
            f"mb {number} ({value})",
            _("'%(value)s' is not a call: LIN writes p, d, r or a bid from 1C to 7N", value=value),
        )
    )


def _lin_deal(value: str) -> tuple[str, Deal]:
    """``(dealer, Deal)`` from an md value; one hand may be left out: it is the rest."""
    match = re.match(r"\s*([1-4]?)(.*)$", value, re.S)
    assert match is not None  # every text matches: both groups may be empty
    if not match[1]:
        # endplay's LIN export leaves the digit out; guessing it would move the auction.
        raise LinError(
            _at("md", _("no dealer digit: md starts with 1 (South), 2 (West), 3 (North) or 4 (East) before the hands"))
        )
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
        raise LinError(_at("md", _("the hands of %(seats)s are missing: LIN may leave out one hand only", seats=named)))
    try:
        deal = parse_deal("N:" + " ".join(hands[s] or "-" for s in SEATS), allow_partial=True)
    except DealError as exc:
        raise LinError(_at("md", exc.message)) from None
    if missing:
        held = {card for seat in SEATS if seat not in missing for card in deal.cards(seat)}
        deal.hands[missing[0]] = {suit: "".join(r for r in RANKS if suit + r not in held) for suit in SUITS}
    return dealer, deal


def _lin_hand(seat: str, text: str) -> str | None:
    """A LIN hand (``SAKQ2HK...``, suits in any order) as PBN's ``spades.hearts...``; None
    when empty."""
    text = re.sub(r"\s", "", text).upper()
    if not text:
        return None
    suits: dict[str, str] = {s: "" for s in SUITS}
    suit: str | None = None
    for char in text:
        if char in SUITS:
            suit = char
        elif suit is None:
            raise LinError(
                _at(
                    "md",
                    _(
                        "'%(char)s' in %(seat)s's hand comes before any suit letter (S, H, D, C)",
                        char=char,
                        seat=SEAT_WORDS[seat],
                    ),
                )
            )
        else:
            suits[suit] += char
    return ".".join(suits[s] for s in SUITS)


def lin_from_record(record: BoardRecord) -> str:
    """A LIN string for ``record``, with the dealer digit, to open in BBO's handviewer.

    Alerts (``!``), explanations (``an``), the play and the claim travel; tempo and the
    director's notes do not (LIN has no place for them). ``|`` in a text becomes ``/`` and
    ``,`` in a name a space, as LIN cannot escape them.
    """

    def clean(text: str) -> str:
        return text.replace("|", "/")

    names = ",".join(clean(record.players.get(seat, "")).replace(",", " ") for seat in LIN_SEATS)
    hands = ",".join(_lin_hand_text(record.deal, seat) for seat in LIN_SEATS)
    parts = [("pn", names), ("st", ""), ("md", f"{LIN_SEATS.index(record.dealer) + 1}{hands}"), ("rh", "")]
    if record.board is not None:
        parts.append(("ah", f"Board {record.board}"))
    parts.append(("sv", _LIN_VUL_CODE[record.vulnerability]))
    lin_calls = {"Pass": "p", "X": "d", "XX": "r"}
    for call in record.auction.legal_calls():  # LIN holds the calls that stand
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


def handviewer_url(record: BoardRecord) -> str:
    """A BBO handviewer link showing ``record``."""
    return f"{HANDVIEWER}?lin={quote(lin_from_record(record), safe='')}"


def _lin_hand_text(deal: Deal, seat: str) -> str:
    hand = deal.hands[seat]
    return "" if hand is None else "".join(suit + hand[suit] for suit in SUITS)


# --- A file of boards ----------------------------------------------------------------------


def looks_like_lin(text: str) -> bool:
    """True when ``text`` is BBO LIN (``pn|...|md|...``), not PBN or USEBIO."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return bool(re.match(r"^[a-z]{2}\|", first)) and "md|" in text


def session_from_lin(text: str) -> SessionFile:
    """The boards and table results of a LIN file (BBO's hand records and tournament
    downloads): one board per line (blank lines and ``qx|`` movie segments apart). Each board
    brings its deal; its result comes in when the auction ended and the play was finished or
    claimed, between the pairs named by their players (``pn|``), as BBO names them. A line
    that cannot be read is refused naming its line, with the key and position at fault."""
    from bridge.interchange import BoardIn, Notice, ResultIn, SessionFile
    from bridge.pbn_record import declarer_tricks

    session = SessionFile(format="LIN")
    boards: dict[int, BoardIn] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if "md|" not in line:
            continue
        try:
            record = parse_lin(line.strip())
            contract, declarer = record.validate()
        except LinError as error:
            raise LinError(Message("line %(line)s: %(message)s", line=number, message=error.text)) from None
        board = record.board or len(boards) + 1
        if board not in boards:
            boards[board] = BoardIn(
                number=board,
                line=number,
                dealer=record.dealer,
                vulnerability=record.vulnerability,
                deal=record.deal.to_pbn() if record.deal.complete else "",
            )
            session.boards.append(boards[board])
        players = [record.players.get(seat, "").strip() for seat in ("N", "S", "E", "W")]
        tricks = declarer_tricks(record.auction, contract, declarer)
        if contract is None or (contract != "PASS" and tricks is None) or not all(players):
            session.warnings.append(
                Notice(
                    number,
                    _(
                        "board %(board)s: no result read (the auction or the play is unfinished, or a player is "
                        "not named): the board's deal is imported",
                        board=board,
                    ),
                )
            )
            continue
        result = ResultIn(
            board=board,
            line=number,
            ns_name=f"{players[0]} - {players[1]}",
            ew_name=f"{players[2]} - {players[3]}",
            contract=contract,
            declarer=declarer or "",
            tricks=tricks if contract != "PASS" else None,
        )
        session.results.append(result)
    return session


# --- A vugraph file: a team match's boards in two rooms ----------------------------------------

_QX = re.compile(r"qx\|([oc])(\d+)[^|]*\|", re.IGNORECASE)
_RS = re.compile(r"^(\d)([CDHSN])(X{0,2})([NESW])(=|[+-]\d{1,2})$", re.IGNORECASE)


def looks_like_vugraph(text: str) -> bool:
    """True when ``text`` is a BBO vugraph file: a match's boards, each in its open and closed
    room (``qx|o1|``, ``qx|c1|``), the teams named in its ``vg|`` header."""
    return "vg|" in text and bool(_QX.search(text))


def session_from_vugraph(text: str) -> SessionFile:
    """The boards and table results of a BBO vugraph file (a team match: ``vg|`` names the two
    teams, ``qx|o1|`` and ``qx|c1|`` begin board 1 in the open and closed room). The first team
    named sits N-S in the open room and E-W in the closed, as BBO shows it; each room's result is
    read from its auction and its play or claim, else from the header's ``rs|`` list (open and
    closed room of each board in turn). One board is one board, whatever the number of rooms
    that played it; a segment that cannot be read is refused naming its line and room."""
    from bridge.interchange import BoardIn, Notice, ResultIn, SessionFile
    from bridge.pbn_record import declarer_tricks

    header = re.search(r"vg\|([^|]*)\|", text)
    fields = [part.strip() for part in (header[1] if header else "").split(",")]
    if len(fields) < 8 or not fields[5] or not fields[7]:
        raise LinError(
            _("vg|: the vugraph header names no two teams (title, segment, scoring, boards, team, score, team)")
        )
    home, away = fields[5], fields[7]
    heads = list(_QX.finditer(text))
    listed = re.search(r"rs\|([^|]*)\|", text[: heads[0].start()])
    printed = [part.strip() for part in listed[1].split(",")] if listed else []
    session = SessionFile(format="LIN", teams=True)
    boards: dict[int, BoardIn] = {}
    deals: dict[int, str] = {}
    for index, head in enumerate(heads):
        room, number = ("open" if head[1].lower() == "o" else "closed"), int(head[2])
        line = text.count("\n", 0, head.start()) + 1
        segment = text[head.end() : heads[index + 1].start() if index + 1 < len(heads) else len(text)]
        segment = segment.replace("\r", "").replace("\n", "")
        if "md|" not in segment and number in deals:
            segment = f"md|{deals[number]}|{segment}"  # the closed room's deal is the open room's
        if "md|" not in segment:
            continue  # a room with no deal and no play: nothing to read
        if "ah|" not in segment:
            segment += f"ah|Board {number}|"
        try:
            record = parse_lin(segment)
            contract, declarer = record.validate()
        except LinError as error:
            raise LinError(
                Message(
                    "line %(line)s (qx|%(room)s): %(message)s", line=line, room=head[1] + head[2], message=error.text
                )
            ) from None
        deals.setdefault(number, re.search(r"md\|([^|]*)\|", segment)[1])  # type: ignore[index]
        if number not in boards:
            boards[number] = BoardIn(
                number=number,
                line=line,
                dealer=record.dealer,
                vulnerability=record.vulnerability,
                deal=record.deal.to_pbn() if record.deal.complete else "",
            )
            session.boards.append(boards[number])
        tricks = declarer_tricks(record.auction, contract, declarer)
        if contract is None or (contract != "PASS" and tricks is None):
            position = 2 * (number - 1) + (room == "closed")
            contract, declarer, tricks = _printed(printed[position] if position < len(printed) else "")
        if contract is None:
            session.warnings.append(
                Notice(
                    line,
                    _(
                        "board %(board)s, %(room)s room: no result read (the auction or the play is unfinished and "
                        "rs| gives none): the board's deal is imported",
                        board=number,
                        room=_("open") if room == "open" else _("closed"),
                    ),
                )
            )
            continue
        session.results.append(
            ResultIn(
                board=number,
                line=line,
                table=1,
                room=room,
                home_name=home,
                away_name=away,
                contract=contract,
                declarer=declarer or "",
                tricks=tricks if contract != "PASS" else None,
            )
        )
    return session


def _printed(text: str) -> tuple[str | None, str | None, int | None]:
    """A vugraph ``rs|`` result (``4SN=``, ``3NS-1``, ``2HXE+1``, ``P``) as (contract,
    declarer, tricks), or (None, None, None)."""
    if text.upper() in ("P", "PASS"):
        return "PASS", None, None
    match = _RS.match(text)
    if not match:
        return None, None, None
    level, strain, doubled, declarer, said = match.groups()
    contract = f"{level}{'NT' if strain.upper() == 'N' else strain.upper()}{doubled.upper()}"
    tricks = 6 + int(level) + (0 if said == "=" else int(said))
    return contract, declarer.upper(), tricks if 0 <= tricks <= 13 else None
