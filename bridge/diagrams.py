"""Hand diagrams for rulings: the deal and the auction as one standalone SVG.

The SVG uses no external fonts, images or scripts, so it can be embedded in a page, attached
to an e-mail or printed as it is. Output is deterministic: the same record always gives the
same text. ``auction_rows`` and ``auction_notes`` give the auction as data, so an HTML
template can show the same auction with the same note numbers.

Plain Python, no Django.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from bridge.deals import SEAT_WORDS, SUITS, next_seat, parse_vulnerability
from bridge.engine.contract import vulnerable_for
from bridge.messages import Message, _, ngettext, render
from bridge.tempo import timing_words

if TYPE_CHECKING:
    from bridge.auction import Auction, AuctionCall, BoardRecord
    from bridge.deals import Deal

WIDTH = 520
RED = "#c8102e"
FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
COLUMNS = ("W", "N", "E", "S")  # auction columns, as printed in bridge books
# The diagram's words as Messages (English as they stand): the caller passes ``translate``
# (core.i18n.translate on the Django side) to draw them in the reader's language.
VULNERABILITY_LINES = {
    "None": _("Vul: None"),
    "NS": _("Vul: N-S"),
    "EW": _("Vul: E-W"),
    "All": _("Vul: All"),
}
Translate = Callable[[Any], str]


def _english(message: Any) -> str:
    return str(render(message))


# The international letters, the default. Other letters (a national body's, in the reader's
# language) come from core/i18n.py's rank_letters(), which the view passes in: this module
# stays plain Python and keeps no table of its own.
INTERNATIONAL_RANKS = {"A": "A", "K": "K", "Q": "Q", "J": "J", "T": "10"}

# Characters XML 1.0 forbids even when escaped.
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _esc(text: object) -> str:
    return escape(_CONTROL_RE.sub("", str(text)), {'"': "&quot;"})


def call_text(call: str, suit_symbols: bool = True) -> str:
    """``"4H"`` -> ``"4♥"`` (or ``"4H"`` without symbols); ``Pass``, ``X``, ``XX``, ``1NT``
    stay as they are."""
    if suit_symbols and call[:1].isdigit() and call[1:] in SUIT_SYMBOLS:
        return call[0] + SUIT_SYMBOLS[call[1:]]
    return call


IRREGULAR_KINDS = {
    "insufficient": _("insufficient bid"),
    "out_of_rotation": _("out of rotation"),
    "inadmissible": _("inadmissible call"),
    "after_close": _("call after the auction ended"),
    "change": _("change of call"),
    "cancelled": _("cancelled call"),
}
IRREGULAR_STATUSES = {
    "accepted": _("accepted"),
    "condoned": _("condoned"),
    "cancelled": _("cancelled"),
    "withdrawn": _("withdrawn"),
    "pending": _("awaiting the director"),
}

# The tempo notes the system itself writes (the director's "that it happened is ..." of a
# hesitation, Law 16): stored in English on the call, shown in the reader's language. Any other
# note is a person's words and is shown as written.
TEMPO_NOTES = {
    "agreed by both sides": _("agreed by both sides"),
    "disputed, found by the director (Law 85)": _("disputed, found by the director (Law 85)"),
    "disputed, not established (Law 85)": _("disputed, not established (Law 85)"),
}


def _seats(auction: Auction) -> tuple[list[str], dict[int, Any]]:
    """The seat of each call as called, and the irregular calls by index; the plain rotation
    when the auction cannot be read (a faulty auction is still drawn)."""
    try:
        as_called = auction.as_called(complete=False)
    except ValueError:
        return [next_seat(auction.dealer, i) for i in range(len(auction.calls))], {}
    return list(as_called.seats), as_called.irregular_by_index


def call_seats(auction: Auction) -> list[str]:
    """The seat of each call as called (the plain rotation when the auction cannot be read)."""
    return _seats(auction)[0]


def _note_parts(call: AuctionCall, irregular: Any = None) -> Message | str:
    """What a note says of a call, as a Message (English as a ``str``; core.i18n.translate
    gives the reader's language); "" when there is nothing to say."""
    parts: list[Message | str] = []
    if irregular is not None:
        parts.append(
            Message(
                "%(kind)s, %(status)s (%(law)s)",
                kind=IRREGULAR_KINDS.get(irregular.kind, irregular.kind),
                status=IRREGULAR_STATUSES.get(irregular.status, irregular.status),
                law=irregular.law or "-",
            )
        )
    if call.alert:
        parts.append(_("alerted: %(explanation)s", explanation=call.explanation) if call.explanation else _("alerted"))
    elif call.explanation:
        parts.append(_("not alerted, explained: %(explanation)s", explanation=call.explanation))
    timing = timing_words(call)
    if timing is not None:
        parts.append(timing)
    if call.note:
        parts.append(TEMPO_NOTES.get(call.note.strip(), call.note))
    if not parts:
        return ""
    text = parts[0]
    for part in parts[1:]:
        text = Message("%(before)s; %(after)s", before=text, after=part)
    return text


def auction_notes(auction: Auction, suit_symbols: bool = True) -> list[dict[str, Any]]:
    """One numbered note per call with an alert, explanation, tempo or remark:
    ``[{"number": 1, "index": 0, "seat": "S", "call": "1NT", "text": "South 1NT —
    alerted: 15-17"}, ...]`` (``index`` is the call's 0-based position; ``text`` is a Message:
    English as it stands, the reader's language through core.i18n.translate)."""
    notes: list[dict[str, Any]] = []
    seats, irregular = _seats(auction)
    for index, call in enumerate(auction.calls):
        parts = _note_parts(call, irregular.get(index))
        if parts:
            seat = seats[index]
            notes.append(
                {
                    "number": len(notes) + 1,
                    "index": index,
                    "seat": seat,
                    "call": call.call,
                    "text": Message(
                        "%(seat)s %(call)s \u2014 %(parts)s",
                        seat=SEAT_WORDS[seat],
                        # Translators: the call, in an auction's note ("East Pass — tempo: 20 s").
                        call=_("Pass") if call.call == "Pass" else call_text(call.call, suit_symbols),
                        parts=parts,
                    ),
                }
            )
    return notes


def _blank(seat: str) -> dict[str, Any]:
    return {
        "seat": seat,
        "call": "",
        "text": "",
        "level": "",
        "symbol": "",
        "red": False,
        "alert": False,
        "notes": [],
        "irregular": False,
        "cancelled": False,
    }


def auction_rows(auction: Auction, suit_symbols: bool = True) -> list[list[dict[str, Any]]]:
    """The auction as rows of four cells, columns West, North, East, South.

    The first row has blank cells before the dealer and the last is padded with blanks.
    A cell is ``{"seat": "N", "call": "4H", "text": "4♥", "level": "4", "symbol": "♥",
    "red": True, "alert": False, "notes": [2]}``; for Pass, X and XX ``level`` and
    ``symbol`` are empty; a blank cell has ``call`` and ``text`` empty.
    """
    numbers = {note["index"]: note["number"] for note in auction_notes(auction)}
    seats, irregular = _seats(auction)
    cells = [_blank(seat) for seat in COLUMNS[: COLUMNS.index(auction.dealer)]]
    for index, call in enumerate(auction.calls):
        bid = call.call[:1].isdigit()
        text = call_text(call.call, suit_symbols)
        seat = seats[index]
        # The calls as called: a call goes in its own seat's column, blanks for seats skipped,
        # a new row when its column is already past (a call out of rotation, a replaced call).
        while COLUMNS[len(cells) % 4] != seat:
            cells.append(_blank(COLUMNS[len(cells) % 4]))
        entry = irregular.get(index)
        cells.append(
            {
                "seat": seat,
                "call": call.call,
                "text": text,
                "level": call.call[0] if bid else "",
                "symbol": text[1:] if bid else "",
                "red": call.call[1:] in ("H", "D"),
                "alert": call.alert,
                "notes": [numbers[index]] if index in numbers else [],
                "irregular": entry is not None,
                "cancelled": entry is not None and entry.status in ("cancelled", "withdrawn"),
            }
        )
    while len(cells) % 4:
        cells.append(_blank(COLUMNS[len(cells) % 4]))
    return [cells[i : i + 4] for i in range(0, len(cells), 4)]


def _rank_map(ranks: str | Mapping[str, str] | None) -> dict[str, str]:
    mapping = {rank: rank for rank in "AKQJT98765432"}
    mapping.update(INTERNATIONAL_RANKS)
    if ranks is None:
        return mapping
    if isinstance(ranks, str):
        if len(ranks) != 5:
            raise ValueError(f"'{ranks}' is not five honour letters (for A, K, Q, J, T)")
        mapping.update(zip("AKQJT", ranks))
    else:
        mapping.update(ranks)
    return mapping


def _text(x: int, y: int, body: str, **attrs: object) -> str:
    """A <text> element; ``body`` is markup already escaped."""
    extra = "".join(f' {name.replace("_", "-")}="{_esc(value)}"' for name, value in sorted(attrs.items()))
    return f'<text x="{x}" y="{y}"{extra}>{body}</text>'


def _suit(suit: str, symbols: bool) -> str:
    label = SUIT_SYMBOLS[suit] if symbols else suit
    if suit in ("H", "D"):
        return f'<tspan fill="{RED}">{label}</tspan>'
    return label


def _hand(
    seat: str,
    deal: Deal,
    x: int,
    y: int,
    names: Mapping[str, str],
    ranks: Mapping[str, str],
    symbols: bool,
    translate: Translate,
) -> list[str]:
    """A hand: the seat and player's name, then one line per suit."""
    name = names.get(seat, "")
    seat_word = translate(SEAT_WORDS[seat])
    title = seat_word + (f": {name}" if name else "")
    out = [f'<g class="hand" data-seat="{seat}">', _text(x, y, _esc(title), font_size="12", fill="#555")]
    hand = deal.hands[seat]
    if hand is None:
        out.append(_text(x, y + 20, _esc(translate(_("(not known)"))), font_style="italic"))
    else:
        # "AK109" as the pages print it; spaced only when an honour is written with more than one letter
        separator = "" if all(len(ranks[r]) == 1 for r in "AKQJ") else " "
        for i, suit in enumerate(SUITS):
            held = separator.join(ranks[r] for r in hand[suit]) or "\u2014"
            out.append(_text(x, y + 20 + 18 * i, f"{_suit(suit, symbols)} {_esc(held)}"))
    out.append("</g>")
    return out


def _compass(cx: int, cy: int, board_number: int | str | None, dealer: str, vulnerability: str) -> list[str]:
    """The square in the middle: a band per seat, red where the seat is vulnerable."""
    out = [f'<rect x="{cx - 50}" y="{cy - 50}" width="100" height="100" fill="#fff" stroke="#333"/>']
    bands = {
        "N": (cx - 28, cy - 50, 56, 22),
        "S": (cx - 28, cy + 28, 56, 22),
        "W": (cx - 50, cy - 28, 22, 56),
        "E": (cx + 28, cy - 28, 22, 56),
    }
    for seat in ("N", "E", "S", "W"):
        x, y, w, h = bands[seat]
        vulnerable = vulnerable_for(seat, vulnerability)
        out.append(
            f'<rect class="{"vul" if vulnerable else "nonvul"}" data-seat="{seat}" '
            f'x="{x}" y="{y}" width="{w}" height="{h}" '
            f'fill="{RED if vulnerable else "#e8e8e8"}"/>'
        )
        weight = {"font_weight": "bold", "text_decoration": "underline"} if seat == dealer else {}
        out.append(
            _text(
                x + w // 2, y + h // 2 + 5, seat, text_anchor="middle", fill="#fff" if vulnerable else "#000", **weight
            )
        )
    if board_number is not None:
        out.append(_text(cx, cy + 7, _esc(board_number), text_anchor="middle", font_size="20", font_weight="bold"))
    return out


def hand_diagram_svg(
    deal: Deal,
    *,
    dealer: str,
    vulnerability: str,
    board_number: int | str | None,
    auction: Auction | None = None,
    suit_symbols: bool = True,
    ranks: str | Mapping[str, str] | None = None,
    title: str = "",
    players: Mapping[str, str] | None = None,
    translate: Translate | None = None,
) -> str:
    """A standalone SVG (520 px wide) of ``deal``: North at the top, West left, East right,
    South at the bottom, the board number, dealer and vulnerability (vulnerable seats in red
    in the central square), then the auction (an ``Auction``) as a table West, North, East,
    South with numbered markers for alerts, explanations, tempo and remarks, the notes
    listed below it, and the contract, lead and claim.

    ``ranks`` says how ranks are printed: None for the international A K Q J 10, five honour
    letters for A K Q J T (``"AKQJT"`` prints PBN's T), or a mapping of ranks such as
    ``core.i18n.rank_letters("national", language="nl")`` (A H V B 10). The same letters
    print the opening lead. ``players`` maps seats to names. All text is escaped.

    ``translate`` gives each of the diagram's words (seats, "Dealer", "Vul", "Board", the
    contract, lead, claim and notes) in the reader's language: ``core.i18n.translate`` from
    the Django side; English without it.
    """
    translate = translate or _english
    vulnerability = parse_vulnerability(vulnerability)
    rank_map = _rank_map(ranks)
    names = players or {}
    out = []
    top = 10
    if title:
        out.append(_text(WIDTH // 2, 24, _esc(title), text_anchor="middle", font_size="16", font_weight="bold"))
        top = 40
    info = [
        translate(_("Board %(number)s", number=board_number)) if board_number is not None else "",
        translate(_("Dealer: %(seat)s", seat=SEAT_WORDS[dealer])),
        translate(VULNERABILITY_LINES[vulnerability]),
    ]
    out += [
        _text(12, top + 16 + 18 * i, _esc(line), font_size="13", **({"font_weight": "bold"} if i == 0 else {}))
        for i, line in enumerate(info)
        if line
    ]
    out += _hand("N", deal, 210, top + 16, names, rank_map, suit_symbols, translate)
    out += _hand("W", deal, 24, top + 122, names, rank_map, suit_symbols, translate)
    out += _hand("E", deal, 340, top + 122, names, rank_map, suit_symbols, translate)
    out += _hand("S", deal, 210, top + 236, names, rank_map, suit_symbols, translate)
    out += _compass(260, top + 160, board_number, dealer, vulnerability)
    y = top + 320
    if auction is not None:
        y = _auction(out, auction, y + 20, vulnerability, suit_symbols, rank_map, translate)
    height = y + 12
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}" font-size="14" role="img" '
            # Left to right whatever the page or document that embeds it: the seats, contracts and
            # card runs keep their order inside a right-to-left casebook or page.
            'direction="ltr" unicode-bidi="embed">',
            f"<title>{_esc(title or info[0] or translate(_('Hand diagram')))}</title>",
            f'<rect width="{WIDTH}" height="{height}" fill="#fff"/>',
            *out,
            "</svg>",
            "",
        ]
    )


def _auction(
    out: list[str],
    auction: Auction,
    y: int,
    vulnerability: str,
    suit_symbols: bool,
    rank_map: Mapping[str, str],
    translate: Translate,
) -> int:
    """Append the auction table, the contract line and the notes; return the next y."""
    xs = {seat: 150 + 60 * i for i, seat in enumerate(COLUMNS)}
    out.append('<g class="auction">')
    for seat in COLUMNS:
        vulnerable = vulnerable_for(seat, vulnerability)
        out.append(
            _text(
                xs[seat], y, _esc(translate(SEAT_WORDS[seat])), font_weight="bold", fill=RED if vulnerable else "#000"
            )
        )
    for row in auction_rows(auction, suit_symbols):
        y += 20
        for cell in row:
            if not cell["call"]:
                continue
            x = xs[cell["seat"]]
            if cell["alert"]:  # alerted calls are circled, as on a paper ruling form
                out.append(
                    f'<rect class="alert" x="{x - 4}" y="{y - 15}" width="46" '
                    'height="20" rx="9" fill="none" stroke="#333"/>'
                )
            # Translators: the call, in an auction diagram's cell (as pgettext "call" "Pass").
            body = _esc(translate(_("Pass")) if cell["call"] == "Pass" else cell["text"])
            if cell["level"]:
                symbol = _esc(cell["symbol"])
                body = _esc(cell["level"]) + (f'<tspan fill="{RED}">{symbol}</tspan>' if cell["red"] else symbol)
            for number in cell["notes"]:
                body += f'<tspan class="note-ref" font-size="9" dy="-6">{number}</tspan>'
            if cell["cancelled"]:  # a call that does not stand: struck through, as on a paper form
                out.append(_text(x, y, body, text_decoration="line-through", fill="#777"))
                continue
            out.append(_text(x, y, body))
    out.append("</g>")

    lines = [translate(line) for line in _summary(auction, suit_symbols, rank_map)]
    notes = auction_notes(auction, suit_symbols)
    if lines or notes:
        y += 10
    for line in lines:
        y += 18
        out.append(_text(12, y, _esc(line), font_size="13"))
    if notes:
        out.append('<g class="notes">')
        for note in notes:
            text = f"{note['number']}. {translate(note['text'])}"
            wrapped = textwrap.wrap(text, 72, subsequent_indent="    ") or [""]
            for line in wrapped:
                y += 17
                out.append(_text(12, y, _esc(line), font_size="12"))
        out.append("</g>")
    return y


def _summary(auction: Auction, suit_symbols: bool, rank_map: Mapping[str, str] | None = None) -> list[Message]:
    """The contract, lead and claim as lines of text (none while the auction is open)."""
    try:
        contract, declarer = auction.validate(complete=False)
    except ValueError:
        return []  # a faulty auction is still drawn, without a contract
    if contract is None:
        return []
    if contract == "PASS":
        return [_("Passed out")]
    assert declarer is not None  # a contract has its declarer
    level_strain = contract.rstrip("X")
    text = call_text(level_strain, suit_symbols) + contract[len(level_strain) :]
    line = _("Contract: %(contract)s by %(declarer)s", contract=text, declarer=SEAT_WORDS[declarer])
    if auction.opening_lead:
        lead = auction.opening_lead
        rank = (rank_map or _rank_map(None)).get(lead[1], lead[1])
        line = _(
            "Contract: %(contract)s by %(declarer)s; lead: %(lead)s",
            contract=text,
            declarer=SEAT_WORDS[declarer],
            lead=f"{SUIT_SYMBOLS[lead[0]] if suit_symbols else lead[0]}{rank}",
        )
    lines = [line]
    if auction.claim:
        tricks = auction.claim.tricks
        if auction.claim.text:
            lines.append(
                ngettext(
                    "Claim: %(n)s trick for declarer: \u201c%(said)s\u201d",
                    "Claim: %(n)s tricks for declarer: \u201c%(said)s\u201d",
                    tricks,
                    n=tricks,
                    said=auction.claim.text,
                )
            )
        else:
            lines.append(
                ngettext("Claim: %(n)s trick for declarer", "Claim: %(n)s tricks for declarer", tricks, n=tricks)
            )
    return lines


def record_svg(record: BoardRecord, **options: Any) -> str:
    """``hand_diagram_svg`` for a BoardRecord (bridge.auction), its auction and players."""
    return hand_diagram_svg(
        record.deal,
        dealer=record.dealer,
        vulnerability=record.vulnerability,
        board_number=record.board,
        auction=record.auction,
        players=record.players,
        **options,
    )


def _bundled_fonts() -> list[str]:
    """matplotlib's copy of DejaVu (it has the suit symbols); matplotlib is installed with
    endplay. Found without importing matplotlib, which is slow to load."""
    import importlib.util
    import os

    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        return []
    fonts = os.path.join(spec.submodule_search_locations[0], "mpl-data", "fonts", "ttf")
    return [
        os.path.join(fonts, name)
        for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf")
        if os.path.exists(os.path.join(fonts, name))
    ]


def render_png(svg: str, zoom: float = 2.0) -> bytes:
    """``svg`` as PNG bytes, drawn by resvg (the ``resvg-py`` wheel: no system packages).

    The fonts are the DejaVu files bundled with matplotlib, not the system's, so the picture
    is the same on every machine. Raises RuntimeError when resvg-py is not installed.
    """
    try:
        import resvg_py
    except ImportError:
        raise RuntimeError(
            "PNG output needs the resvg-py package (pip install resvg-py); the SVG needs nothing"
        ) from None
    fonts = _bundled_fonts()
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            zoom=zoom,
            font_files=fonts,
            skip_system_fonts=bool(fonts),
            font_family="DejaVu Sans",
            sans_serif_family="DejaVu Sans",
        )
    )
