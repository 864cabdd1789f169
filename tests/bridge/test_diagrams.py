"""Hand diagrams (bridge/diagrams.py): the SVG and the auction as rows for HTML.

Plain Python, no database. The board is tests/fixtures/lin/board7.lin: dealer South, all
vulnerable, alerts on 1NT and 2D, an unalerted explanation of the double.
"""

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from bridge.auction import Auction, AuctionCall
from bridge.diagrams import (
    auction_notes,
    auction_rows,
    hand_diagram_svg,
    record_svg,
    render_png,
)
from bridge.lin import parse_lin

LIN = (Path(__file__).resolve().parents[1] / "fixtures" / "lin" / "board7.lin").read_text()
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def record():
    record = parse_lin(LIN)
    record.auction.calls[6].tempo_seconds = 14  # North's 3NT after a pause
    record.auction.calls[6].note = "N-S agree there was a pause"
    return record


def svg_of(record, **options):
    options = {
        "dealer": record.dealer,
        "vulnerability": record.vulnerability,
        "board_number": record.board,
        "auction": record.auction,
        "players": record.players,
        **options,
    }
    return hand_diagram_svg(record.deal, **options)


def text_of(element):
    return "".join(element.itertext())


def hand_lines(root, seat):
    group = next(g for g in root.iter(f"{SVG}g") if g.get("data-seat") == seat)
    return [text_of(t) for t in group.iter(f"{SVG}text")]


def test_svg_is_well_formed_standalone_and_520_wide(record):
    svg = svg_of(record)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("width") == "520"
    for outside in ("<script", "href", "@import", "url("):
        assert outside not in svg
    assert svg == svg_of(record)  # deterministic


def test_svg_shows_the_four_hands_with_suit_symbols(record):
    root = ET.fromstring(svg_of(record))
    assert hand_lines(root, "N") == ["North: nora_n", "\u2660 107", "\u2665 85", "\u2666 AQ963", "\u2663 KQJ3"]
    assert hand_lines(root, "E")[1:] == ["\u2660 832", "\u2665 1064", "\u2666 1074", "\u2663 10852"]
    assert hand_lines(root, "S")[1:] == ["\u2660 AK4", "\u2665 Q73", "\u2666 KJ82", "\u2663 A96"]
    assert hand_lines(root, "W")[1:] == ["\u2660 QJ965", "\u2665 AKJ92", "\u2666 5", "\u2663 74"]
    # hearts and diamonds in red
    assert '<tspan fill="#c8102e">\u2665</tspan> 85' in svg_of(record)


def test_north_on_top_south_below_west_left_east_right(record):
    root = ET.fromstring(svg_of(record))
    first = {
        seat: next(g for g in root.iter(f"{SVG}g") if g.get("data-seat") == seat).find(f"{SVG}text") for seat in "NESW"
    }
    x = {seat: int(t.get("x")) for seat, t in first.items()}
    y = {seat: int(t.get("y")) for seat, t in first.items()}
    assert y["N"] < y["W"] == y["E"] < y["S"]
    assert x["W"] < x["N"] == x["S"] < x["E"]


def test_vulnerable_seats_are_marked(record):
    def marked(vulnerability):
        root = ET.fromstring(svg_of(record, vulnerability=vulnerability))
        return sorted(r.get("data-seat") for r in root.iter(f"{SVG}rect") if r.get("class") == "vul")

    assert marked("All") == ["E", "N", "S", "W"]
    assert marked("NS") == ["N", "S"]
    assert marked("EW") == ["E", "W"]
    assert marked("None") == []
    assert "Vul: N-S" in svg_of(record, vulnerability="NS")


def test_auction_note_markers_and_notes_listed(record):
    svg = svg_of(record)
    root = ET.fromstring(svg)
    refs = [t.text for t in root.iter(f"{SVG}tspan") if t.get("class") == "note-ref"]
    assert refs == ["1", "2", "3", "4"]
    notes = [text_of(t) for g in root.iter(f"{SVG}g") if g.get("class") == "notes" for t in g.iter(f"{SVG}text")]
    assert notes == [
        "1. South 1NT \u2014 alerted: 15-17",
        "2. West 2\u2666 \u2014 alerted: both majors, 5-5 or better",
        "3. North X \u2014 not alerted, explained: values, takeout of majors",
        "4. North 3NT \u2014 tempo: 14 s; N-S agree there was a pause",
    ]
    alerts = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "alert"]
    assert len(alerts) == 2  # the alerted calls are circled
    assert "Contract: 3NT by South; lead: \u2665K" in svg
    assert "Claim: 11 tricks for declarer" in svg


def test_all_text_is_escaped(record):
    record.players["N"] = 'Nora <b>"N"</b> & co'
    record.auction.calls[0].explanation = "<script>alert(1)</script>"
    svg = svg_of(record, title="Ruling <12> & appeal", players=record.players)
    root = ET.fromstring(svg)
    assert "<script>" not in svg and "<b>" not in svg
    assert root.find(f"{SVG}title").text == "Ruling <12> & appeal"
    assert hand_lines(root, "N")[0] == 'North: Nora <b>"N"</b> & co'


def test_letters_and_national_honours(record):
    root = ET.fromstring(svg_of(record, suit_symbols=False))
    assert hand_lines(root, "S")[1:] == ["S AK4", "H Q73", "D KJ82", "C A96"]
    # The letters come from the caller (the view passes core.i18n.rank_letters(...)).
    dutch = ET.fromstring(svg_of(record, ranks={"A": "A", "K": "H", "Q": "V", "J": "B", "T": "10"}))
    assert hand_lines(dutch, "E")[1:] == ["\u2660 832", "\u2665 1064", "\u2666 1074", "\u2663 10852"]
    assert hand_lines(dutch, "W")[1:3] == ["\u2660 VB965", "\u2665 AHB92"]
    assert "lead: \u2665H" in svg_of(record, ranks={"K": "H"})
    pbn_letters = ET.fromstring(svg_of(record, ranks="AKQJT"))
    assert hand_lines(pbn_letters, "E")[1] == "\u2660 832" and hand_lines(pbn_letters, "N")[1] == "\u2660 T7"
    german = ET.fromstring(svg_of(record, ranks="AKDBZ"))
    assert hand_lines(german, "W")[1] == "\u2660 DB965"
    spelled = ET.fromstring(svg_of(record, ranks={"Q": "Qu"}))  # an honour of two letters: spaced
    assert hand_lines(spelled, "W")[1] == "\u2660 Qu J 9 6 5"


def test_diagram_without_auction_or_board_number(record):
    svg = hand_diagram_svg(record.deal, dealer="N", vulnerability="-", board_number=None)
    root = ET.fromstring(svg)
    assert "Dealer: North" in svg and "Vul: None" in svg and "auction" not in svg
    assert hand_lines(root, "N")[0] == "North"


def test_record_svg_draws_a_board_record(record):
    assert record_svg(record) == svg_of(record)


# --- Auction rows for HTML -----------------------------------------------------------------


def test_auction_rows_start_at_west_with_blanks_before_the_dealer(record):
    rows = auction_rows(record.auction)
    assert [[cell["seat"] for cell in row] for row in rows] == [["W", "N", "E", "S"]] * 4
    assert [cell["call"] for cell in rows[0]] == ["", "", "", "1NT"]  # dealer South
    assert [cell["text"] for cell in rows[1]] == ["2\u2666", "X", "2\u2665", "Pass"]
    assert [cell["call"] for cell in rows[3]] == ["Pass", "", "", ""]  # padded
    assert rows[0][3] == {
        "seat": "S",
        "call": "1NT",
        "text": "1NT",
        "level": "1",
        "symbol": "NT",
        "red": False,
        "alert": True,
        "notes": [1],
        "irregular": False,
        "cancelled": False,
    }
    assert rows[1][0]["red"] and rows[1][0]["symbol"] == "\u2666" and rows[1][0]["notes"] == [2]
    assert rows[1][1]["notes"] == [3] and not rows[1][1]["alert"]
    assert rows[2][1]["notes"] == [4]
    assert rows[1][3]["level"] == "" and rows[1][3]["notes"] == []


@pytest.mark.parametrize("dealer, blanks", [("W", 0), ("N", 1), ("E", 2), ("S", 3)])
def test_the_dealers_first_call_is_in_the_dealers_column(dealer, blanks):
    rows = auction_rows(Auction(dealer, ["1C", "Pass"]))
    assert [cell["call"] for cell in rows[0][:blanks]] == [""] * blanks
    assert rows[0][blanks]["call"] == "1C" and rows[0][blanks]["seat"] == dealer


def test_auction_notes_number_the_calls_with_something_to_say():
    auction = Auction("N", [AuctionCall("1C", True), "Pass", AuctionCall("1H", tempo_seconds=9)])
    assert auction_notes(auction, suit_symbols=False) == [
        {"number": 1, "index": 0, "seat": "N", "call": "1C", "text": "North 1C \u2014 alerted"},
        {"number": 2, "index": 2, "seat": "S", "call": "1H", "text": "South 1H \u2014 tempo: 9 s"},
    ]


# --- PNG -----------------------------------------------------------------------------------


def test_render_png_draws_the_diagram_at_the_zoom_asked(record):
    import io
    import re

    from PIL import Image

    svg = svg_of(record)
    width, height = (int(v) for v in re.search(r'<svg[^>]* width="(\d+)" height="(\d+)"', svg).groups())
    png = render_png(svg, zoom=2.0)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (2 * width, 2 * height)
    colours = {colour for _, colour in image.getcolors(maxcolors=1 << 20)}
    assert (255, 255, 255) in colours  # the white card table
    assert any(r < 60 and g < 60 and b < 60 for r, g, b in colours)  # black text: spades, clubs, names
    assert any(r > 150 and g < 80 and b < 80 for r, g, b in colours)  # red hearts and diamonds


def test_render_png_without_resvg_says_what_to_install(record, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_resvg(name, *args, **kwargs):
        if name == "resvg_py":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_resvg)
    with pytest.raises(RuntimeError, match="PNG output needs the resvg-py package"):
        render_png(svg_of(record))
