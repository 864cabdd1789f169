"""Deal and auction records for rulings (bridge/auction.py, bridge/lin.py, bridge/pbn_record.py): LIN, handviewer links, PBN.

Plain Python, no database. tests/fixtures/lin/board7.lin is a BBO LIN string of board 7
(dealer South, all vulnerable; md gives three hands and leaves East to be worked out; alerts
with ``!`` and ``an``; four tricks played; a claim of 11); handviewer.txt is the same board as
a URL-encoded handviewer link.
"""

import json
from pathlib import Path
from urllib.parse import quote

import pytest

from bridge.auction import Auction, AuctionCall, BoardRecord, Claim
from bridge.deals import DealError, parse_deal
from bridge.lin import LinError, handviewer_url, lin_from_record, parse_lin
from bridge.pbn import PbnError
from bridge.pbn_record import parse_pbn_record, to_pbn

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lin"
LIN = (FIXTURES / "board7.lin").read_text().strip()
LINK = (FIXTURES / "handviewer.txt").read_text().strip()
DEAL = "S:AK4.Q73.KJ82.A96 QJ965.AKJ92.5.74 T7.85.AQ963.KQJ3 832.T64.T74.T852"


def lin_error(text):
    with pytest.raises(LinError) as caught:
        parse_lin(text)
    return str(caught.value)


@pytest.fixture
def record():
    return parse_lin(LIN)


# --- Reading LIN ---------------------------------------------------------------------------


def test_lin_string_gives_board_seats_deal_and_names(record):
    assert record.board == 7
    assert record.dealer == "S"
    assert record.vulnerability == "All"
    assert record.deal == parse_deal(DEAL)
    assert record.deal.cards("E") == [
        "S8",
        "S3",
        "S2",
        "HT",
        "H6",
        "H4",
        "DT",
        "D7",
        "D4",
        "CT",
        "C8",
        "C5",
        "C2",
    ]  # left out of md: the rest
    assert record.players == {"N": "nora_n", "E": "edeast", "S": "sallys", "W": "wwest"}


def test_lin_calls_alerts_and_explanations(record):
    calls = record.auction.calls
    assert [c.call for c in calls] == ["1NT", "2D", "X", "2H", "Pass", "Pass", "3NT", "Pass", "Pass", "Pass"]
    assert (calls[0].alert, calls[0].explanation) == (True, "15-17")
    assert (calls[1].alert, calls[1].explanation) == (True, "both majors, 5-5 or better")
    # an| without ! explains a call that was not alerted.
    assert (calls[2].alert, calls[2].explanation) == (False, "values, takeout of majors")
    assert not any(c.alert or c.explanation for c in calls[3:])
    assert record.validate() == ("3NT", "S")
    assert record.auction.validate() == ("3NT", "S")


def test_lin_play_in_tricks_and_claim(record):
    assert record.auction.opening_lead == "HK"
    assert record.play == [
        ["HK", "H5", "H4", "H3"],
        ["HA", "H8", "H6", "H7"],
        ["SQ", "S7", "S2", "SK"],
        ["D2", "D5", "DQ", "D4"],
    ]
    assert record.claim == Claim(11)


def test_handviewer_link_reads_as_the_lin_string(record):
    assert LINK.startswith("https://www.bridgebase.com/tools/handviewer.html?lin=pn%7C")
    assert parse_lin(LINK) == record


@pytest.mark.parametrize(
    "link",
    [
        "https://www.bridgebase.com/tools/handviewer.html?bbo=y&lin={encoded}",
        "https://www.bridgebase.com/tools/movie.html?lin={encoded}",
        "http://www.bridgebase.com/tools/handviewer.html?lin={raw}",  # pasted unencoded
        "www.bridgebase.com/tools/handviewer.html?lin={encoded}",
    ],
)
def test_other_links_carrying_lin(link, record):
    raw = LIN.replace(" ", "%20")
    assert parse_lin(link.format(encoded=quote(LIN, safe=""), raw=raw)) == record


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1", "cp1252"])
def test_a_lin_file_with_a_byte_order_mark_reads_as_without(encoding, record):
    # A .lin file saved by a Windows editor starts with the UTF-8 byte-order mark; the rulings
    # form decodes the upload as UTF-8 (the mark becomes U+FEFF) or, failing that, Latin-1.
    data = b"\xef\xbb\xbf" + (FIXTURES / "board7.lin").read_bytes()
    assert parse_lin(data.decode(encoding)) == record
    assert parse_lin(data.decode(encoding) + "\r\n") == record


def test_four_hands_in_md_and_vulnerability_codes():
    lin = "md|2SAK4HQ73DKJ82CA96,SQJ965HAKJ92D5C74,ST7H85DAQ963CKQJ3,S832HT64DT74CT852|sv|0|mb|p|"
    record = parse_lin(lin)
    assert (record.dealer, record.vulnerability, record.board) == ("W", "None", None)
    assert record.deal == parse_deal(DEAL)
    assert [c.call for c in record.auction.calls] == ["Pass"]
    assert record.validate() == (None, None)  # an unfinished auction is kept
    for code, vulnerability in (("o", "None"), ("n", "NS"), ("e", "EW"), ("b", "All")):
        assert parse_lin(lin.replace("sv|0|", f"sv|{code}|")).vulnerability == vulnerability


def test_without_sv_the_board_number_gives_the_vulnerability():
    assert parse_lin(LIN.replace("sv|b|", "").replace("Board 7", "Board 2")).vulnerability == "NS"


# --- Refusals ------------------------------------------------------------------------------

SOUTH_14 = "md|1SAK4HQ73DKJ82CA962,SQJ965HAKJ92D5C74,ST7H85DAQ963CKQJ3,|"


@pytest.mark.parametrize(
    "text, message",
    [
        (SOUTH_14, "md: South holds 14 cards: a hand has 13"),
        (
            "md|1SAK4HQ73DKJ82CA96,SQJ965HAKJ92D5C74,ST7H85DAQ963CKQJ3,|sv|o|mb|1C|mb|p|mb|4C|mb|p|mb|3H|",
            "mb 5 (3H): insufficient: the last bid was 4C",
        ),
        (LIN.replace("sv|b|", "sv|x|"), "sv|x|: 'x' is not a vulnerability (o, n, e, b)"),
        ("pn|a,b,c,d|sv|o|mb|1C|", "not a LIN string: no md| (deal) found"),
        ("Board 7: 1NT by South, lead the king of hearts", "not a LIN string: no md| (deal) found"),
        ("https://www.bridgebase.com/tools/handviewer.html?bbo=y&myhand=M-123", "the link has no lin= parameter"),
    ],
)
def test_refusals_named_in_the_brief(text, message):
    assert lin_error(text) == message


MD = "md|1SAK4HQ73DKJ82CA96,SQJ965HAKJ92D5C74,ST7H85DAQ963CKQJ3,|sv|b|"
AUCTION = "mb|1N|mb|p|mb|3N|mb|p|mb|p|mb|p|"


@pytest.mark.parametrize(
    "text, message",
    [
        # endplay's LIN export leaves out the dealer digit: refused, not guessed.
        (
            "md|SAK4HQ73DKJ82CA96,SQJ965HAKJ92D5C74,ST7H85DAQ963CKQJ3,|",
            "md: no dealer digit: md starts with 1 (South), 2 (West), 3 (North) or 4 (East) before the hands",
        ),
        (
            "md|1SAK4HQ73DKJ82CA96,SQJ965HAKJ92D5C74,,|",
            "md: the hands of North and East are missing: LIN may leave out one hand only",
        ),
        (
            "md|1SAK4HQ73DKJ82CA96,SQJ965HAKJ92D5C74,ST7H85DAQ963CKQJ3,S832HT64DT74CT8532|",
            "md: the 3 of clubs (C3) appears twice: in North's and East's hands",
        ),
        (
            "md|1AK4HQ73DKJ82CA96,SQJ965HAKJ92D5C74,ST7H85DAQ963CKQJ3,|",
            "md: 'A' in South's hand comes before any suit letter (S, H, D, C)",
        ),
        (
            "md|1SAK4HQ73DKJ82CA9X,SQJ965HAKJ92D5C74,ST7H85DAQ963CKQJ3,|",
            "md: 'X' is not a rank in South's clubs: ranks are AKQJT98765432",
        ),
        (MD + LIN[LIN.index("md|") : LIN.index("rh|")], "2 deals (md|) in the LIN string: a ruling is about one board"),
        (MD + "mb|1N|mb|5Z|", "mb 2 (5Z): '5Z' is not a call: LIN writes p, d, r or a bid from 1C to 7N"),
        (MD + "mb|1N|mb|p|mb|d|", "mb 3 (d): doubles their own side's 1NT: a double is only of an opponent's bid"),
        (MD + AUCTION + "mb|p|", "mb 7 (p): comes after the end of the auction"),
        (MD + "an|strong|mb|1C|", "an|strong|: an explanation before any call (mb)"),
        (MD + AUCTION + "pc|HK|pc|SA|", "pc 2 (SA): North is to play and does not hold SA"),
        (MD + AUCTION + "pc|HK|pc|H5|pc|H4|pc|H3|pc|HK|", "pc 5 (HK): HK was already played (card 1)"),
        (MD + AUCTION + "pc|HX|", "pc 1 (HX): 'HX' is not a card: write the suit and the rank, e.g. SQ"),
        (MD + "mb|1N|mb|p|pc|HK|", "pc 1 (HK): a card is played but the auction has not ended"),
        (MD + "mb|p|mb|p|mb|p|mb|p|pc|HK|", "pc 1 (HK): a card is played but the board was passed out"),
        (MD + AUCTION + "mc|14|", "mc|14|: '14' is not a number of tricks (0 to 13)"),
        (
            MD + AUCTION + "pc|HK|pc|H5|pc|H4|pc|H3|mc|13|",
            "mc|13|: a claim of 13 tricks, but declarer has won 0 with 12 to play",
        ),
        (MD + "mb|1N|mc|9|", "mc|9|: a claim is made but the auction has not ended"),
        (MD + "mb|1N|pn", "'pn' has no value: LIN is written as key|value|"),
        (MD.replace("sv|b|", "") + "mb|1N|", "no sv| (vulnerability) found, and no board number (ah|) to take it from"),
    ],
)
def test_other_faults_are_refused_with_what_and_where(text, message):
    assert lin_error(text) == message


def test_a_revoke_is_kept_not_refused():
    # West leads a heart, East discards a spade while holding hearts: what a ruling is for.
    record = parse_lin(MD + AUCTION + "pc|HK|pc|H5|pc|S2|pc|H3|")
    assert record.play == [["HK", "H5", "S2", "H3"]]


# --- The Auction value and its JSON --------------------------------------------------------


def test_auction_to_dict_is_json_and_round_trips(record):
    auction = record.auction
    auction.calls[6].tempo_seconds = 14
    auction.calls[6].note = "long pause before 3NT, agreed by N-S"
    auction.claim.text = "the rest are mine, clubs and diamonds run"
    data = json.loads(json.dumps(auction.to_dict()))
    assert data["dealer"] == "S"
    assert data["calls"][0] == {"call": "1NT", "alert": True, "explanation": "15-17", "tempo_seconds": None, "note": ""}
    assert data["calls"][6]["tempo_seconds"] == 14
    assert data["opening_lead"] == "HK"
    assert data["play"][3] == ["D2", "D5", "DQ", "D4"]
    assert data["claim"] == {"tricks": 11, "text": "the rest are mine, clubs and diamonds run"}
    assert Auction.from_dict(data) == auction


def test_auction_normalises_calls_and_cards():
    auction = Auction("n", ["1n", "p", "p", "pass"], play=[["s10", "s2"]])
    assert auction.dealer == "N"
    assert [c.call for c in auction.calls] == ["1NT", "Pass", "Pass", "Pass"]
    assert (auction.opening_lead, auction.play) == ("ST", [["ST", "S2"]])
    assert Auction("N", play=[["SQ"]]) == Auction("N", opening_lead="SQ")  # the lead alone


def test_auction_validate_uses_the_auction_rules():
    assert Auction(
        "N", [AuctionCall("1H"), AuctionCall("X"), AuctionCall("XX")] + [AuctionCall("Pass")] * 3
    ).validate() == ("1HXX", "N")
    with pytest.raises(
        DealError,
        match=r"West's 1H \(call 4\) is insufficient: the last bid "
        "was 2C",
    ):
        Auction("N", ["1S", "Pass", "2C", "1H"]).validate(complete=False)
    with pytest.raises(DealError, match="the auction has not ended"):
        Auction("N", ["1S"]).validate()
    with pytest.raises(DealError, match="trick 1 has 3 cards"):
        Auction("N", play=[["SA", "S2", "S3"], ["HA"]]).validate(complete=False)


# --- LIN written back ----------------------------------------------------------------------


def test_lin_from_record_has_the_dealer_digit_and_reads_back_the_same(record):
    lin = lin_from_record(record)
    assert "md|1SAK4HQ73DKJ82CA96,SQJ965HAKJ92D5C74,ST7H85DAQ963CKQJ3,S832HT64DT74CT852|" in lin
    assert "mb|1N!|an|15-17|" in lin and "mb|d|an|values, takeout of majors|" in lin
    assert lin.endswith("pc|D4|pg||mc|11|")
    assert parse_lin(lin) == record
    assert parse_lin(handviewer_url(record)) == record


def test_lin_drops_tempo_and_director_notes(record):
    record.auction.calls[6].tempo_seconds = 14
    record.auction.calls[6].note = "slow"
    back = parse_lin(lin_from_record(record))
    assert (back.auction.calls[6].tempo_seconds, back.auction.calls[6].note) == (None, "")


@pytest.mark.parametrize("dealer, digit", [("S", "1"), ("W", "2"), ("N", "3"), ("E", "4")])
def test_dealer_digit_for_each_seat(record, dealer, digit):
    record.auction = Auction(dealer)
    lin = lin_from_record(record)
    assert f"md|{digit}S" in lin
    assert parse_lin(lin).dealer == dealer


# --- PBN -----------------------------------------------------------------------------------

FOREIGN_PBN = f"""% PBN 2.1
% EXPORT
[Event "Thursday Pairs"]
[Board "7"]
[West "Walter West"]
[North "Nora North"]
[East "?"]
[South "Sally South"]
[Dealer "S"]
[Vulnerable "All"]
[Deal "{DEAL}"]
[Declarer "S"]
[Contract "3NT"]
[Result "11"]
[Auction "S"]
1NT =1= 2D! X 2H
Pass Pass 3NT AP
[Note "1:15-17"]
[Play "W"]
HK H5 H4 H3
HA H8 H6 H7
SQ S7 S2 SK
D5 DQ D4 D2
*
"""


def test_pbn_record_reads_notes_alerts_play_and_names(record):
    pbn = parse_pbn_record(FOREIGN_PBN)
    assert (pbn.board, pbn.dealer, pbn.vulnerability, pbn.deal) == (7, "S", "All", record.deal)
    assert pbn.players == {"N": "Nora North", "S": "Sally South", "W": "Walter West"}
    calls = pbn.auction.calls
    assert (calls[0].alert, calls[0].explanation) == (True, "15-17")  # a note is an alert
    assert (calls[1].call, calls[1].alert, calls[1].explanation) == ("2D", True, "")  # and a !
    assert calls[2].alert is False
    assert [c.call for c in calls[6:]] == ["3NT", "Pass", "Pass", "Pass"]  # AP written out
    assert pbn.play == record.play  # columns per player turned into play order
    assert pbn.validate() == ("3NT", "S")


def ruling_record():
    """A record using every field: tempo, remarks, an unalerted explanation, a claim."""
    calls = [
        AuctionCall("1NT", True, "15-17"),
        AuctionCall("2D", True, tempo_seconds=3),
        AuctionCall("X", False, "values", note="explained only when asked"),
        AuctionCall("2H"),
        AuctionCall("Pass"),
        AuctionCall("Pass", tempo_seconds=12),
        AuctionCall("3NT", False, "", 14, "N-S agree there was a pause"),
        AuctionCall("Pass"),
        AuctionCall("Pass"),
        AuctionCall("Pass", True),
    ]
    play = [["HK", "H5", "H4", "H3"], ["HA", "H8", "H6", "H7"], ["SQ", "S7", "S2"]]
    auction = Auction("S", calls, play=play, claim=Claim(11, 'South: "the rest are mine"'))
    return BoardRecord(7, "All", parse_deal(DEAL), auction, {"N": "Nora North", "S": "Sally South", "W": "Walter West"})


def test_pbn_round_trip_keeps_every_field():
    record = ruling_record()
    text = to_pbn(record)
    assert '[Note "3:not alerted; values; note: explained only when asked"]' in text
    assert '[Note "4:not alerted; tempo: 12 s"]' in text
    assert '[Note "5:not alerted; tempo: 14 s; note: N-S agree there was a pause"]' in text
    assert '[Note "6:alert"]' in text
    assert '[Claim "11:South: \\"the rest are mine\\""]' in text
    assert "SQ S7 S2 -" in text
    assert parse_pbn_record(text) == record


@pytest.mark.parametrize(
    "change",
    [
        lambda r: setattr(r.auction, "play", []),  # the opening lead alone
        lambda r: (
            setattr(r.auction, "play", []),
            setattr(r.auction, "opening_lead", None),
            setattr(r.auction, "claim", None),
        ),
        lambda r: setattr(r.auction, "calls", r.auction.calls[:4])
        or setattr(r.auction, "play", [])
        or setattr(r.auction, "opening_lead", None)
        or setattr(r.auction, "claim", None),
        lambda r: setattr(r, "board", None),
        lambda r: setattr(r, "players", {}),
    ],
)
def test_pbn_round_trip_of_partial_records(change):
    record = ruling_record()
    change(record)
    assert parse_pbn_record(to_pbn(record)) == record


def test_pbn_record_of_a_lin_board_round_trips(record):
    assert parse_pbn_record(to_pbn(record)) == record


def test_pbn_record_takes_one_game():
    with pytest.raises(PbnError, match="2 games in the text: a ruling is about one board"):
        parse_pbn_record(FOREIGN_PBN + "\n" + FOREIGN_PBN.replace('Board "7"', 'Board "8"'))


def test_pbn_play_faults_are_refused_with_the_line():
    bad = FOREIGN_PBN.replace("HA H8 H6 H7", "HA H8 H6 S3")
    with pytest.raises(PbnError) as caught:
        parse_pbn_record(bad)
    assert str(caught.value) == "line 19: Play: trick 2: South is to play and does not hold S3"
    with pytest.raises(
        PbnError, match="line 19: Play: the play starts with N but the opening leader is W, on declarer S's left"
    ):
        parse_pbn_record(FOREIGN_PBN.replace('[Play "W"]', '[Play "N"]'))


def test_the_ruling_pbn_writes_the_result_with_the_claim():
    text = to_pbn(ruling_record())
    # The claim gives declarer 11 tricks in all: [Result] says so beside [Claim], after [Contract].
    assert '[Contract "3NT"]\n[Result "11"]' in text
    assert '[Claim "11:South: \\"the rest are mine\\""]' in text
    assert parse_pbn_record(text) == ruling_record()


def test_the_ruling_pbn_writes_the_result_of_a_whole_play():
    # Each hand holds one suit: South declares 7S with North's thirteen spades as dummy. West
    # leads a club, North ruffs and then leads spades to the end: declarer wins all thirteen.
    deal = parse_deal("N:AKQJT98765432... ..AKQJT98765432. .AKQJT98765432.. ...AKQJT98765432")
    ranks = "23456789TJQKA"
    play = [["C2", "S2", "D2", "H2"]] + [[f"S{r}", f"D{r}", f"H{r}", f"C{r}"] for r in ranks[1:]]
    calls = [AuctionCall("7S"), AuctionCall("Pass"), AuctionCall("Pass"), AuctionCall("Pass")]
    record = BoardRecord(1, "None", deal, Auction("S", calls, play=play))
    text = to_pbn(record)
    assert '[Contract "7S"]\n[Result "13"]' in text
    assert parse_pbn_record(text) == record
    # Unfinished, and no claim: the record does not know the result, and writes none.
    record.auction.play = play[:5]
    assert "[Result" not in to_pbn(record)
