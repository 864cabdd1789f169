"""BBO Helper's timing tables (issue #40): ``[AuctionTimeTable "N"]`` and ``[PlayTimeTable "E"]``
name the seat of the first call or card, not columns, and give the seconds each took, four a
row (a ``-`` for a card not played). Before, the file was refused "the row has 4 columns but the
header names 1 (N)"; now the game is read, the times kept as the section's rows."""

from bridge.pbn import parse_pbn, session_from_pbn

GAME = """% PBN 2.1
[Event "Daylong"]
[Site "BBO"]
[Board "1"]
[West "wendy"]
[North "ned"]
[East "erin"]
[South "sam"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"]
[Scoring "MP"]
[Declarer "N"]
[Contract "4S"]
[Result "10"]
[Auction "N"]
1S\tPass\t4S\tPass
Pass\tPass
[Play "E"]
HT\tH2\tH4\tH3
[AuctionTimeTable "N"]
 5  2 12  3
 1  1
[PlayTimeTable "E"]
 4  2  1  -
"""


def test_bbo_helper_timing_tables_are_read_past():
    warnings = []
    (game,) = parse_pbn(GAME, warnings)
    assert game.sections["AuctionTimeTable"] == ("N", [["5", "2", "12", "3"], ["1", "1"]])
    assert game.sections["PlayTimeTable"] == ("E", [["4", "2", "1", "-"]])
    session = session_from_pbn([game], warnings)
    (result,) = session.results
    assert (result.contract, result.declarer, result.tricks) == ("4S", "N", 10)
    assert (result.ns_name, result.ew_name) == ("ned - sam", "erin - wendy")
