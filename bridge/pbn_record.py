"""One board's PBN game read into and written from a ``BoardRecord`` (deal, auction with
alerts, notes and tempo, play, claim).

``parse_pbn_record`` reads one game, ``to_pbn`` writes one; faults are ``PbnError``s with the
line at fault. The whole-file reader for scoring programs' exports is ``bridge.pbn``.

Plain Python, no Django.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bridge.auction import Auction, AuctionCall, BoardRecord, Claim, parse_card, trick_winner
from bridge.deals import (
    SEAT_NAMES,
    SEAT_WORDS,
    DealError,
    next_seat,
    validate_auction,
)
from bridge.engine.contract import SEATS, parse_contract
from bridge.messages import Message, _, ngettext
from bridge.pbn import Call, PbnError, PbnGame, parse_pbn, write_pbn
from bridge.play_irregularities import PlayIrregularity, declarer_after, trick_leaders
from bridge.tempo import TEMPO_SOURCES

# A call's time as to_pbn writes it in the call's note: "tempo: 22 s", "tempo: 22 s ± 1 s",
# "tempo: 22 s ± 1 s (online)" (the source's key, bridge.tempo.TEMPO_SOURCES).
_TEMPO_RE = re.compile(r"^tempo: (\d+) s(?: \u00b1 (\d+) s)?(?: \((\w+)\))?$")
_CLAIM_TAG_RE = re.compile(r"^(\d+)(?::(.*))?$", re.S)


def tagged(tag: str, message: str) -> Message:
    """``Play: ...``: the PBN tag at fault, then what is wrong."""
    return Message("%(tag)s: %(message)s", tag=tag, message=message)


# --- PBN ---------------------------------------------------------------------------------


def parse_pbn_record(text: str, play_irregularities: Sequence[PlayIrregularity] = ()) -> BoardRecord:
    """Read ONE game of PBN text into a BoardRecord; raise PbnError (with a line) if the
    game is faulty or the text holds no game or several.

    A call is alerted when it has a note or a ``!``, unless its note starts with
    ``not alerted``; the note text is read as ``to_pbn`` writes it (see there). ``AP`` is
    written out as the passes it stands for. The Play section (one column per player from
    the opening leader) is turned into tricks in play order; ``[Claim "11:text"]`` is the
    claim. ``play_irregularities`` are those already recorded on the board (an opening lead out
    of turn accepted, 54A or 54B): each trick is read from the seat that really led, the Play
    section may start from the offender's column, and they stay with the record.
    """
    games = parse_pbn(text)
    if len(games) != 1:
        line = games[1].line if len(games) > 1 else 1
        raise PbnError(
            line,
            ngettext(
                "%(n)s game in the text: a ruling is about one board",
                "%(n)s games in the text: a ruling is about one board",
                len(games),
                n=len(games),
            ),
        )
    game = games[0]
    if game.deal is None:
        raise PbnError(game.line, tagged("Deal", _("the game has no deal")))
    for tag, value in (("Dealer", game.dealer), ("Vulnerable", game.vulnerability)):
        if value is None:
            raise PbnError(
                game.line, tagged(tag, _("the game has no %(tag)s tag, nor a Board number to take it from", tag=tag))
            )
    assert game.dealer is not None and game.vulnerability is not None  # refused just above otherwise

    alerted = _alerted_calls(text)
    calls = [_call_from_note(call.call, call.note, i in alerted) for i, call in enumerate(game.auction)]
    if calls and calls[-1].call == "AP":  # all pass: the passes it stands for
        ap = calls.pop()
        while validate_auction(game.dealer, [c.call for c in calls], complete=False)[0] is None:
            calls.append(AuctionCall("Pass", ap.alert, ap.explanation, ap.tempo_seconds, ap.note))
    if "AuctionTimeTable" in game.sections:
        _read_call_times(game, calls, _line_of(text, "[AuctionTimeTable") or game.line)

    claim: Claim | None = None
    if game.tags.get("Claim"):
        match = _CLAIM_TAG_RE.match(game.tags["Claim"].strip())
        if not match:
            raise PbnError(
                _line_of(text, "[Claim"),
                tagged(
                    "Claim",
                    _(
                        "'%(value)s' is not a claim: write tricks:what was said, e.g. 10:the rest are mine",
                        value=game.tags["Claim"],
                    ),
                ),
            )
        claim = Claim(int(match[1]), match[2] or "")
    irregularities = list(play_irregularities)
    play = _read_play(game, calls, _line_of(text, "[Play"), irregularities) if "Play" in game.sections else []
    auction = Auction(game.dealer, calls, play=play, claim=claim, play_irregularities=irregularities)
    players = {
        seat: game.tags[SEAT_NAMES[seat]].strip()
        for seat in SEATS
        if game.tags.get(SEAT_NAMES[seat], "").strip() not in ("", "?")
    }
    record = BoardRecord(game.board, game.vulnerability, game.deal, auction, players)
    try:
        record.validate()
    except DealError as exc:
        where = _line_of(text, "[Play" if exc.field == "play" else "[Claim") or game.line
        message = (
            _("trick %(n)s: %(message)s", n=exc.index // 4 + 1, message=exc.message)
            if exc.index is not None
            else exc.message
        )
        raise PbnError(where, tagged(exc.field.capitalize(), message)) from None
    return record


def _read_play(
    game: PbnGame, calls: list[AuctionCall], line: int | None, irregularities: Sequence[PlayIrregularity] = ()
) -> list[list[str]]:
    """The tricks, in play order, of the game's Play section (one column per player, from
    the opening leader, or from the offender whose opening lead out of turn was accepted: each
    trick starts from the seat that led it, ``trick_leaders``' accepted leads)."""
    assert game.dealer is not None  # parse_pbn_record refuses a game without one first
    contract, declarer = validate_auction(game.dealer, [c.call for c in calls], False)
    leader_tag, rows = game.sections["Play"]
    if contract in (None, "PASS"):
        raise PbnError(
            line,
            tagged(
                "Play",
                _("cards are played but the auction has not ended")
                if contract is None
                else _("cards are played but the board was passed out"),
            ),
        )
    assert declarer is not None  # a contract other than a pass-out has its declarer
    first = next_seat(declarer)
    accepted = {
        i.trick: i.seat
        for i in irregularities
        if i.kind == "lead_out_of_turn" and (i.accepted or not (i.option or i.attention_by))
    }
    column = leader_tag.strip().upper()
    if column not in {first, next_seat(declarer_after(declarer, irregularities)), accepted.get(1, first)}:
        raise PbnError(
            line,
            tagged(
                "Play",
                _(
                    "the play starts with %(start)s but the opening leader is %(leader)s, on declarer %(declarer)s's left",
                    start=leader_tag,
                    leader=first,
                    declarer=declarer,
                ),
            ),
        )
    words = [w for row in rows for w in row]
    words = words[: words.index("*")] if "*" in words else words
    trump = parse_contract(contract).strain
    leader, tricks = accepted.get(1, first), []
    try:
        for start in range(0, len(words), 4):
            leader = accepted.get(start // 4 + 1, leader)
            by_seat = {next_seat(column, i): w for i, w in enumerate(words[start : start + 4])}
            trick: list[str] = []
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
        raise PbnError(
            line, tagged("Play", _("trick %(n)s: %(message)s", n=len(tricks) + 1, message=exc.message))
        ) from None
    return tricks


def _line_of(text: str, start: str) -> int | None:
    return next((n for n, line in enumerate(text.splitlines(), 1) if line.lstrip().startswith(start)), None)


def _alerted_calls(text: str) -> set[int]:
    """Positions of the calls written with a ``!`` (parse_pbn drops it): a single ``!``
    only, as ``!!`` and ``?!`` are PBN's comments on the quality of a call."""
    match = re.search(r'\[\s*Auction\s*"[^"]*"\s*\]', text)
    if not match:
        return set()
    body = re.sub(r"\{.*?\}", " ", text[match.end() :], flags=re.S)
    body = re.sub(r";[^\n]*", " ", body).split("[", 1)[0]
    words = [w for w in body.split() if not re.fullmatch(r"=\d+=|\$\d+|\*", w)]
    return {i for i, word in enumerate(words) if re.search(r"[^!?]!$", word)}


def _call_from_note(call: str, note: str | None, bang: bool) -> AuctionCall:
    if note is None:
        return AuctionCall(call, alert=bang)
    parts = note.split("; ")
    alert = parts[0] != "not alerted"
    parts = parts[1:] if not alert else parts
    remark = ""
    for i, part in enumerate(parts):
        if part.startswith("note: "):
            remark, parts = "; ".join(parts[i:])[len("note: ") :], parts[:i]
            break
    tempo, source, uncertainty = None, "", None
    timed = _TEMPO_RE.match(parts[-1]) if parts else None
    if timed and (timed[3] or "") in ("", *TEMPO_SOURCES):
        tempo, parts = int(timed[1]), parts[:-1]
        uncertainty = int(timed[2]) if timed[2] else None
        source = timed[3] or ""
    explanation = "; ".join(parts)
    if alert and explanation == "alert":
        explanation = ""
    return AuctionCall(call, alert, explanation, tempo, remark, tempo_source=source, tempo_uncertainty=uncertainty)


# Where a file's [AuctionTimeTable] comes from, by its [Site]: an online platform's record of the
# time each call took (BBO Helper takes BBO's; measured where the calls reach the player's browser,
# so with the network's delay), else a program's or bidding device's log. Whole seconds: ± 1 s.
_ONLINE_SITE_RE = re.compile(r"\b(?:bbo|bridge ?base|realbridge|funbridge|stepbridge|intobridge)\b", re.I)


def _read_call_times(game: PbnGame, calls: list[AuctionCall], line: int) -> None:
    """The seconds each call took, from PBN's ``[AuctionTimeTable "N"]`` section (PBN 2.1 §5.4;
    BBO Helper's export): the seat of the first call, then one time a call in the auction's
    order, four a row, as whole seconds (``SS``, ``MM:SS`` or ``HH:MM:SS``). A ``0`` or ``-`` is a
    call whose time was not taken (BBO Helper writes 0 when it joined the table mid-auction). The
    times are put on the calls with their source and ± 1 s (whole seconds); a table that starts
    from another seat than the auction, or holds more times than calls, is refused naming it."""
    seat, rows = game.sections["AuctionTimeTable"]
    seat = str(seat).strip().upper()
    if seat != game.dealer:
        raise PbnError(
            line,
            tagged(
                "AuctionTimeTable",
                _(
                    "the times start from %(seat)s but the auction from %(dealer)s",
                    seat=SEAT_WORDS.get(seat, seat),
                    dealer=SEAT_WORDS[str(game.dealer)],
                ),
            ),
        )
    times = [str(word) for row in rows for word in row]
    if len(times) > len(calls):
        raise PbnError(
            line,
            tagged(
                "AuctionTimeTable",
                _("more times than the auction has calls: one time a call, in the auction's order"),
            ),
        )
    source = "online" if _ONLINE_SITE_RE.search(game.tags.get("Site", "")) else "device"
    for number, (word, call) in enumerate(zip(times, calls), start=1):
        seconds = _seconds(word)
        if seconds is None:
            raise PbnError(
                line,
                tagged(
                    "AuctionTimeTable",
                    _("call %(n)s: '%(time)s' is not a time; write seconds, MM:SS or -", n=number, time=word),
                ),
            )
        if seconds and call.tempo_seconds is None:  # a time the call's own note gives stands
            call.tempo_seconds, call.tempo_source, call.tempo_uncertainty = seconds, source, 1


def _seconds(word: str) -> int | None:
    """``"12"``, ``"1:05"``, ``"0:01:05"`` as seconds; ``"-"`` as 0 (not taken); None: no time."""
    if word in ("-", "*"):
        return 0
    parts = word.split(":")
    if len(parts) > 3 or not all(part.isdigit() for part in parts):
        return None
    total = 0
    for part in parts:
        total = total * 60 + int(part)
    return total


def _note_text(call: AuctionCall) -> str | None:
    """The PBN note for ``call``, or None when there is nothing to say."""
    parts: list[str] = []
    if not call.alert and (call.explanation or call.tempo_seconds is not None or call.note):
        parts.append("not alerted")
    if call.explanation:
        parts.append(call.explanation)
    elif call.alert and call.tempo_seconds is None and not call.note:
        parts.append("alert")
    if call.tempo_seconds is not None:
        uncertainty = "" if call.tempo_uncertainty is None else f" \u00b1 {call.tempo_uncertainty} s"
        source = f" ({call.tempo_source})" if call.tempo_source else ""
        parts.append(f"tempo: {call.tempo_seconds} s{uncertainty}{source}")
    if call.note:
        parts.append(f"note: {call.note}")
    return " ".join("; ".join(parts).split("\n")) or None


def declarer_tricks(auction: Auction, contract: str | None, declarer: str | None) -> int | None:
    """Declarer's tricks: the claim's (it counts the whole board), else those won in a play of
    thirteen tricks; None when the record does not say (no contract, play unfinished)."""
    if contract is None or declarer is None:
        return None
    if auction.claim:
        return auction.claim.tricks
    if len(auction.cards) < 52:
        return None
    trump = parse_contract(contract).strain
    leader, won = next_seat(declarer), 0
    for trick in auction.play:
        leader = trick_winner(trick, leader, trump)
        won += leader in (declarer, next_seat(declarer, 2))
    return won


def to_pbn(record: BoardRecord) -> str:
    """Write ``record`` as one PBN 2.1 game that ``parse_pbn_record`` reads back equal.

    Each call with something to say gets one note, parts joined by ``"; "`` in this order:
    ``not alerted`` (only for a call that is not alerted: any other note marks an alert),
    the explanation (``alert`` when an alerted call has nothing else), ``tempo: 12 s`` (with
    ``± 1 s`` and the source's key, ``(online)``, when stated), and
    ``note: `` followed by the director's remark. Other programs show the note as text.
    The play goes in a Play section (``*`` after an unfinished play), the claim in a
    ``[Claim "11:what was said"]`` tag. ``[Result]`` gives declarer's tricks when the record
    knows them: a claim's tricks, or those won in a play of all thirteen tricks. Round trips are exact except for texts that mimic
    these markers (an explanation ending in ``; tempo: 5 s``) and line breaks in notes,
    which become spaces.
    """
    contract, declarer = record.validate()
    auction = record.auction
    tags = {SEAT_NAMES[seat]: name for seat, name in record.players.items() if name}
    if auction.claim:
        text = auction.claim.text.replace("\n", " ")
        tags["Claim"] = f"{auction.claim.tricks}:{text}" if text else str(auction.claim.tricks)
    game = PbnGame(
        line=0,
        tags=tags,
        board=record.board,
        dealer=record.dealer,
        vulnerability=record.vulnerability,
        deal=record.deal,
        declarer=declarer,
        contract=contract,
        # The calls that stand: PBN has no place for a cancelled call (docs/irregularities.md).
        auction=[Call(c.call, _note_text(c)) for c in auction.legal_calls()],
        auction_complete=contract is not None,
        result=declarer_tricks(auction, contract, declarer),
    )
    if auction.cards:
        assert contract is not None and declarer is not None  # record.validate() refuses a play without them
        first = next_seat(declarer)
        trump = parse_contract(contract).strain
        rows = []
        # The opening lead alone when there is no play (Auction.cards); each trick from the seat
        # that led it (an accepted lead out of turn: bridge.play_irregularities).
        tricks = auction.play or [auction.cards[:1]]
        auction_declarer = auction.as_called(complete=False).declarer or declarer
        leaders = trick_leaders(auction_declarer, tricks, auction.play_irregularities, trump)
        for trick, leader in zip(tricks, leaders):
            by_seat = {next_seat(leader, i): card for i, card in enumerate(trick)}
            rows.append([by_seat.get(next_seat(first, i), "-") for i in range(4)])
        if len(auction.cards) < 52:
            rows.append(["*"])
        game.sections["Play"] = (first, rows)
    # write_pbn opens with "% PBN 2.1" / "% EXPORT" lines; one game is all there is.
    return write_pbn([game])
