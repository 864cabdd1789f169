"""Tempo evidence in the plain-Python library (issue #44, bridge.tempo): a call's time with its
source and stated uncertainty, checked, kept with the auction, written in the auction's notes,
and read from PBN's ``[AuctionTimeTable]`` (PBN 2.1 §5.4, as BBO Helper exports a BBO board)."""

import pytest

from bridge.auction import Auction, AuctionCall
from bridge.deals import DealError
from bridge.diagrams import auction_notes
from bridge.pbn import PbnError
from bridge.pbn_record import parse_pbn_record, to_pbn
from bridge.tempo import check_timing, timing_words

GAME = """% PBN 2.1
[Event "Daylong"]
[Site "{site}"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"]
[Declarer "N"]
[Contract "4S"]
[Result "10"]
[Auction "N"]
1S\tPass\t4S\tPass
Pass\tPass
[AuctionTimeTable "{seat}"]
{times}
"""


def _game(times=" 5  0 12 22\n 1  1", site="BBO", seat="N"):
    return GAME.format(site=site, seat=seat, times=times)


@pytest.mark.parametrize(
    "call, words",
    [
        (AuctionCall("Pass", tempo_seconds=20), "tempo: 20 s"),
        (AuctionCall("Pass", tempo_seconds=20, tempo_uncertainty=3), "tempo: 20 s ± 3 s"),
        (AuctionCall("Pass", tempo_seconds=20, tempo_source="agreed"), "tempo: 20 s (agreed by both sides)"),
        (
            AuctionCall("Pass", tempo_seconds=22, tempo_source="online", tempo_uncertainty=1),
            "tempo: 22 s ± 1 s (online platform record; includes network delay)",
        ),
        (
            AuctionCall("Pass", tempo_seconds=9, tempo_source="server", tempo_uncertainty=2),
            "tempo: 9 s ± 2 s (server timestamps; include network delay)",
        ),
        (AuctionCall("Pass", tempo_seconds=12, tempo_source="device"), "tempo: 12 s (a bidding device's log)"),
        (AuctionCall("Pass", tempo_seconds=5, tempo_source="player"), "tempo: 5 s (a player's statement)"),
        (AuctionCall("Pass", tempo_seconds=15, tempo_source="director"), "tempo: 15 s (the director's estimate)"),
        (AuctionCall("Pass"), None),
    ],
)
def test_a_calls_time_is_written_with_its_uncertainty_and_source(call, words):
    assert timing_words(call) == words


@pytest.mark.parametrize(
    "given, field, message",
    [
        ((-1, "", None), "tempo_seconds", "Seconds: a call's time is 0 seconds or more, not -1."),
        ((3601, "", None), "tempo_seconds", "Seconds: 3601 s is more than an hour; give the call's time in seconds."),
        (("2.5", "", None), "tempo_seconds", "Seconds: write the call's time as a whole number, e.g. 22."),
        (
            (10, "guess", None),
            "tempo_source",
            "Source: 'guess' is not a source of a call's time; choose one of the list.",
        ),
        ((10, "", -2), "tempo_uncertainty", "Uncertainty: ± is 0 seconds or more, not -2."),
        (
            (10, "", 11),
            "tempo_uncertainty",
            "Uncertainty: ± 11 s is more than the time itself (10 s); such a time says nothing.",
        ),
        (
            (0, "", 2),
            "tempo_uncertainty",
            "Uncertainty: ± 2 s is more than the time itself (0 s); such a time says nothing.",
        ),
        (
            (None, "online", None),
            "tempo_seconds",
            "Seconds: give the call's time that the source and uncertainty are of.",
        ),
    ],
)
def test_what_cannot_be_evidence_is_refused_naming_the_field(given, field, message):
    with pytest.raises(DealError) as refused:
        check_timing(*given)
    assert (refused.value.field, str(refused.value)) == (field, message)


def test_a_time_that_can_be_evidence_is_kept():
    assert check_timing("22", "online", "1") == (22, "online", 1)
    assert check_timing(0, "", 1) == (0, "", 1)  # a call made at once, to a second
    assert check_timing(None, "", None) == (None, "", None)
    assert check_timing("", "", "") == (None, "", None)


def test_the_source_and_uncertainty_are_stored_with_the_auction_only_when_stated():
    auction = Auction(
        "N", [AuctionCall("1S"), AuctionCall("Pass", tempo_seconds=22, tempo_source="online", tempo_uncertainty=1)]
    )
    data = auction.to_dict()
    assert data["calls"][0] == {"call": "1S", "alert": False, "explanation": "", "tempo_seconds": None, "note": ""}
    assert data["calls"][1]["tempo_source"] == "online" and data["calls"][1]["tempo_uncertainty"] == 1
    assert Auction.from_dict(data) == auction
    notes = auction_notes(auction)
    assert [note["text"] for note in notes] == [
        "East Pass \u2014 tempo: 22 s ± 1 s (online platform record; includes network delay)"
    ]


def test_bbo_helpers_auction_time_table_gives_each_call_its_time_from_an_online_record():
    record = parse_pbn_record(_game())
    times = [(c.tempo_seconds, c.tempo_source, c.tempo_uncertainty) for c in record.auction.calls]
    # BBO Helper's 0: a call it did not time (it joined the table after it).
    assert times == [(5, "online", 1), (None, "", None), (12, "online", 1), (22, "online", 1), (1, "online", 1)] + [
        (1, "online", 1)
    ]
    assert str(auction_notes(record.auction)[2]["text"]) == (
        "West Pass \u2014 tempo: 22 s ± 1 s (online platform record; includes network delay)"
    )
    # Written back in the calls' notes (the source's key), read back the same.
    text = to_pbn(record)
    assert '[Note "3:not alerted; tempo: 22 s ± 1 s (online)"]' in text
    assert parse_pbn_record(text).auction == record.auction


def test_a_time_table_from_another_site_is_a_programs_log_and_reads_minutes():
    record = parse_pbn_record(_game(" 5  - 1:05 22\n 1  1", site="Abbotsford Bridge Club"))
    assert [(c.tempo_seconds, c.tempo_source) for c in record.auction.calls][:3] == [
        (5, "device"),
        (None, ""),
        (65, "device"),
    ]


@pytest.mark.parametrize(
    "game, message",
    [
        (_game(seat="E"), "AuctionTimeTable: the times start from East but the auction from North"),
        (
            _game(" 5  2 12 22\n 1  1  4"),
            "AuctionTimeTable: more times than the auction has calls: one time a call, in the auction's order",
        ),
        (_game(" 5  2 soon 22\n 1  1"), "AuctionTimeTable: call 3: 'soon' is not a time; write seconds, MM:SS or -"),
    ],
)
def test_a_time_table_that_does_not_fit_the_auction_is_refused_naming_it(game, message):
    with pytest.raises(PbnError) as refused:
        parse_pbn_record(game)
    assert str(refused.value).endswith(message)
    assert "line 14" in str(refused.value)
