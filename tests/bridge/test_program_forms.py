"""Forms real scoring programs write that a file must not be refused over (issue #29): an
unfinished auction in a hand record, a Result giving both sides' tricks, a match summary table,
a LIN file, a game naming only its players."""

from bridge.interchange import identify
from bridge.lin import looks_like_lin, session_from_lin
from bridge.pbn import parse_pbn, session_from_pbn

DEAL = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"


def game(*tags, body=""):
    return f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n' + "".join(tags) + body


def test_an_unfinished_auction_in_a_hand_record_is_kept_with_a_warning():
    warnings = []
    games = parse_pbn(game(body='[Auction "N"]\n1NT Pass 2C Pass\n'), warnings)
    assert games[0].auction_complete is False and [c.call for c in games[0].auction] == ["1NT", "Pass", "2C", "Pass"]
    assert [str(w) for w in warnings] == [
        "line 6: Auction: the auction has not ended: it needs three passes after the last call: the auction is kept "
        "as unfinished (the result does not need it)"
    ]


def test_a_result_with_both_sides_tricks_reads_the_declarers():
    tags = '[Declarer "N"]\n[Contract "3NT"]\n'
    assert parse_pbn(game(tags, '[Result "NS 9 EW 4"]\n'))[0].result == 9
    assert parse_pbn(game('[Declarer "E"]\n[Contract "2S"]\n', '[Result "NS 5 EW 8"]\n'))[0].result == 8


def test_a_match_summary_table_is_no_table_results_and_no_refusal():
    text = game(
        '[Scoring "IMP"]\n',
        '[ScoreTable "TeamId_Home\\2R;TeamId_Away\\2R;IMP_Home\\3R;IMP_Away\\3R;VP_Home\\5R;VP_Away\\5R"]\n'
        " 1  2  23  11 14.21  5.79\n",
    )
    session = session_from_pbn(parse_pbn(text))
    assert session.results == [] and len(session.boards) == 1
    assert [str(w) for w in session.warnings] == [
        "line 1: ScoreTable: board 1: the table has no Contract or Score column (a match summary, TeamId_Home, "
        "TeamId_Away, IMP_Home, IMP_Away, VP_Home, VP_Away): it holds no table results to import"
    ]


def test_a_game_naming_only_its_players_is_a_result_between_named_pairs():
    text = game(
        '[North "Para-1"]\n[South "Para-1"]\n[East "Ann"]\n[West "Bob"]\n[Declarer "S"]\n[Contract "4H"]\n[Result "9"]\n'
    )
    session = session_from_pbn(parse_pbn(text))
    identify(session)
    (result,) = session.results
    assert (result.ns_name, result.ew_name, result.contract, result.declarer, result.tricks) == (
        "Para-1",
        "Ann - Bob",
        "4H",
        "S",
        9,
    )


BOARD7 = (
    "pn|sallys,wwest,nora_n,edeast|st||md|1SAK4HQ73DKJ82CA96,SQJ965HAKJ92D5C74,ST7H85DAQ963CKQJ3,|rh||"
    "ah|Board 7|sv|b|mb|1N!|an|15-17|mb|2D!|mb|d|mb|2H|mb|p|mb|p|mb|3N|mb|p|mb|p|mb|p|pc|HK|pc|H5|pc|H4|"
    "pc|H3|pg||mc|11|\n"
)


def test_a_lin_file_is_read_as_boards_and_results_not_refused_as_text_outside_any_tag():
    assert looks_like_lin(BOARD7) and not looks_like_lin('[Board "1"]\n')
    session = session_from_lin(BOARD7)
    (board,) = session.boards
    assert (board.number, board.dealer, board.vulnerability) == (7, "S", "All")
    (result,) = session.results
    # pn lists South, West, North, East: N-S nora_n and sallys, E-W edeast and wwest.
    assert (result.ns_name, result.ew_name, result.contract, result.declarer, result.tricks) == (
        "nora_n - sallys",
        "edeast - wwest",
        "3NT",
        "S",  # South opened 1NT
        11,
    )


def test_ebuscore_writes_a_void_as_a_dash_and_the_hand_record_is_read_whole():
    # EBUScore's HANDSET: an empty suit is "-" (issue #40: the file was refused whole for it).
    from bridge.usebio import parse_usebio

    hands = {
        "N": ("AKQJT98765432", "-", "-", "-"),
        "E": ("-", "AKQJT98765432", "-", "-"),
        "S": ("-", "-", "AKQJT98765432", "-"),
        "W": ("-", "-", "-", "AKQJT98765432"),
    }
    xml = "".join(
        f"<HAND><DIRECTION>{seat}</DIRECTION><SPADES>{s}</SPADES><HEARTS>{h}</HEARTS>"
        f"<DIAMONDS>{d}</DIAMONDS><CLUBS>{c}</CLUBS></HAND>"
        for seat, (s, h, d, c) in hands.items()
    )
    data = (
        '<?xml version="1.0"?><USEBIO Version="1.2"><CLUB><CLUB_NAME>Club</CLUB_NAME></CLUB>'
        '<EVENT EVENT_TYPE="MP_PAIRS"><PROGRAM_NAME>EBUScore</PROGRAM_NAME></EVENT>'
        f"<HANDSET><BOARD><BOARD_NUMBER>1</BOARD_NUMBER><DEALER>N</DEALER><VULNERABILITY>None</VULNERABILITY>"
        f"{xml}</BOARD></HANDSET></USEBIO>"
    ).encode()
    session = parse_usebio(data)
    assert [b.deal for b in session.boards] == ["N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]


def test_bridgewebs_po_is_a_passed_out_board():
    # Bridgewebs writes a passed-out board's contract as PO (issue #40: the file was refused whole).
    table = '[ScoreTable "Table\\1R;PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R"]\n'
    games = parse_pbn(game('[Scoring "MP"]\n', table + "1 1 2 PO - -\n2 3 4 4S N 10\n"))
    results = session_from_pbn(games).results
    assert [(r.contract, r.declarer, r.tricks) for r in results] == [("PASS", "", None), ("4S", "N", 10)]
