"""The PBN 2.1 reader and writer (bridge/pbn.py): plain Python, no database.

The fixtures in tests/fixtures/pbn come from make_fixtures.py; the line numbers below are
those of the committed files.
"""

import importlib.util
from fractions import Fraction
from pathlib import Path

import pytest

from bridge.deals import double_dummy, parse_deal
from bridge.engine.contract import ns_score
from bridge.pbn import Call, PbnError, PbnGame, parse_pbn, read_pbn, write_pbn

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "pbn"
EXAMPLE = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"
HEAD = f"""% PBN 2.1
[Event "Club"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "{EXAMPLE}"]
"""
SCORE_TABLE = '[ScoreTable "Table\\2R;Contract\\5L;Declarer\\1R;Result\\2R;Score_NS\\5R;Score_EW\\5R"]\n'


def error(text):
    with pytest.raises(PbnError) as caught:
        parse_pbn(text)
    return str(caught.value)


@pytest.fixture(scope="module")
def session():
    return read_pbn(FIXTURES / "session_export.pbn")


# --- the good export ---------------------------------------------------------------------


def test_session_export_has_six_boards_with_deals_and_the_board_cycle(session):
    assert [g.board for g in session] == [1, 2, 3, 4, 5, 6]
    assert [g.dealer for g in session] == ["N", "E", "S", "W", "N", "E"]
    assert [g.vulnerability for g in session] == ["None", "NS", "EW", "All", "NS", "EW"]
    assert [g.line for g in session] == [5, 63, 108, 153, 198, 248]
    assert session[1].deal == parse_deal("E:AQ2.8.KQ92.AQ532 874.T952.JT5.JT7 T65.KQ64.A63.986 KJ93.AJ73.874.K4")
    assert all(g.deal.complete for g in session)


def test_hash_inherits_the_previous_games_value_and_question_mark_is_unknown(session):
    assert session[3].tags["Event"] == "Thursday Pairs"
    assert session[3].tags["Date"] == "2024.03.14"
    assert session[3].tags["Scoring"] == "MP"
    assert session[3].tags["West"] == "?"
    assert (session[3].contract, session[3].declarer, session[3].result) == (None, None, None)


def test_score_table_rows_are_read_with_their_line_numbers(session):
    rows = session[4].score_rows
    assert len(rows) == 6 and all(len(g.score_rows) == 6 for g in session)
    assert rows[0] == {
        "Table": "1",
        "Round": "3",
        "PairId_NS": "1",
        "PairId_EW": "11",
        "Contract": "3NT",
        "Declarer": "S",
        "Result": "10",
        "Lead": "S5",
        "Score_NS": "630",
        "Score_EW": None,
        "MP_NS": "3.8",
        "MP_EW": "6.2",
    }
    assert rows[0].line == 240
    assert (rows[0].contract, rows[0].declarer, rows[0].tricks) == ("3NT", "S", 10)
    assert (rows[0].score_ns, rows[0].score_ew, rows[0].artificial) == (630, None, None)
    assert [r.line for r in rows] == [240, 241, 242, 243, 245, 246]  # a comment line at 244
    east_west = session[1].score_rows[1]
    assert (east_west["Contract"], east_west.score_ns, east_west.score_ew) == ("3NT", None, 430)


def test_artificial_score_is_kept_as_a_marker(session):
    row = session[4].score_rows[3]
    assert row.line == 243
    assert row.artificial == "A60"
    assert (row["Score_NS"], row["Score_EW"], row["MP_NS"], row["MP_EW"]) == ("A60", "A40", "6", "4")
    assert (row.contract, row.declarer, row.tricks, row.score_ns, row.score_ew) == (None,) * 5


def test_every_score_agrees_with_law_77_and_the_matchpoints_add_up(session):
    for game in session:
        for row in game.score_rows:
            assert Fraction(row["MP_NS"]) + Fraction(row["MP_EW"]) == 10
            if row.artificial is None:
                expected = ns_score(row.contract, row.declarer, row.tricks, game.vulnerability)
                assert (row.score_ns or -row.score_ew) == expected
        # 2/1 matchpoints: a board played at six tables hands out 30 to each side...
        if game.board != 5:
            assert sum(Fraction(r["MP_NS"]) for r in game.score_rows) == 30
    # ...except board 5, where the five results scored are scaled up to a top of 10 (Neuberg).
    assert [r["MP_NS"] for r in session[4].score_rows] == ["3.8", "3.8", "3.8", "6", "3.8", "9.8"]


def test_auction_with_a_note_matches_the_contract_tags(session):
    board5 = session[4]
    assert board5.auction == [
        Call("Pass"),
        Call("Pass"),
        Call("1NT", "15-17"),
        Call("Pass"),
        Call("3NT"),
        Call("Pass"),
        Call("Pass"),
        Call("Pass"),
    ]
    assert (board5.contract, board5.declarer, board5.result) == ("3NT", "S", 10)
    assert [g.auction for g in session if g.board != 5] == [[]] * 5


def test_total_score_table_and_double_dummy_table_are_kept(session):
    totals = session[0].total_score_rows
    assert len(totals) == 12
    assert totals[0] == {
        "Rank": "1",
        "PairId": "6",
        "Table": "6",
        "Direction": "NS",
        "TotalScoreMP": "47.8",
        "TotalPercentage": "79.7",
        "Names": "Karen Bell - Liam Ford",
    }
    assert totals[2]["Rank"] == "3=" and totals[6]["Table"] is None
    assert session[1].total_score_rows == []
    # The OptimumResultTable was written by DDS: it must agree with our own solve.
    board1 = session[0]
    table = double_dummy(board1.deal)
    rows = board1.tables["OptimumResultTable"].rows
    assert len(rows) == 20
    assert all(int(r["Result"]) == table[r["Declarer"]][r["Denomination"]] for r in rows)
    assert board1.tags["OptimumScore"] == "NS 100"


def test_write_then_read_gives_the_same_games(session):
    text = write_pbn(session)
    again = parse_pbn(text)
    assert again == session
    assert write_pbn(again) == text
    assert text.startswith("% PBN 2.1\n% EXPORT\n")
    assert '[Note "1:15-17"]' in text and "Pass Pass 1NT =1= Pass" in text


def test_fixtures_are_what_the_generator_makes():
    # If this fails, plausible_result or the generator changed: rerun make_fixtures.py and
    # update the line numbers and literal messages in these tests.
    spec = importlib.util.spec_from_file_location("make_fixtures", FIXTURES / "make_fixtures.py")
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    boards = generator.session()
    assert generator.render(boards) == (FIXTURES / "session_export.pbn").read_text()
    for name, text in generator.variants(boards).items():
        assert text == (FIXTURES / name).read_text(), name


# --- the broken exports: one message each, with its line ---------------------------------


@pytest.mark.parametrize(
    "name, expected",
    [
        ("bad_14_cards.pbn", "line 73: Deal: North holds 14 cards and East 12: a hand has 13"),
        ("bad_unterminated_tag.pbn", "line 111: Board: the tag is not terminated: the value has no closing quote"),
        (
            "bad_missing_column.pbn",
            "line 103: ScoreTable: the row has 11 columns but the header names 12 (Table, Round, PairId_NS, "
            "PairId_EW, Contract, Declarer, Result, Lead, Score_NS, Score_EW, MP_NS, MP_EW)",
        ),
        ("bad_8nt.pbn", "line 192: Contract: '8NT' has level 8: a level is 1 to 7."),
        ("bad_law77.pbn", "line 194: Score_NS 110 does not match 2D by S making 8 tricks, vulnerable: Law 77 gives 90"),
        (
            "bad_duplicate_board.pbn",
            "line 156: Board: board 3 appears twice in this file with a different Deal "
            "(first at line 111): games of one board must agree",
        ),
    ],
)
def test_broken_exports_are_refused_with_the_line_and_reason(name, expected):
    with pytest.raises(PbnError) as caught:
        read_pbn(FIXTURES / name)
    assert str(caught.value) == expected
    assert caught.value.line == int(expected.split(":")[0].removeprefix("line "))


# --- tags, deals and boards --------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        (HEAD.replace('[Dealer "N"]', '[Dealer "Q"]'), "line 4: Dealer: 'Q' is not a seat: write N, E, S or W"),
        (
            HEAD.replace('"None"', '"Neither"'),
            "line 5: Vulnerable: 'Neither' is not a vulnerability: write None (or Love, -), NS, EW or All (or Both)",
        ),
        (
            HEAD.replace('[Board "1"]', '[Board "0"]'),
            "line 3: Board: '0' is not a board number: a board number is a positive whole number",
        ),
        (
            HEAD.replace('[Board "1"]', '[Board "1a"]'),
            "line 3: Board: '1a' is not a board number: a board number is a positive whole number",
        ),
        (
            HEAD.replace("QJ82.T942", "QJ82.T9Z2"),
            "line 6: Deal: 'Z' is not a rank in East's hearts: ranks are AKQJT98765432",
        ),
        (
            HEAD.replace("54.7.K96532", "54.7.K96532.A"),
            "line 6: Deal: 5 suits in West's hand: a hand is spades.hearts.diamonds.clubs",
        ),
        (
            HEAD.replace("54.7.K96532", "54.7.K96542"),
            "line 6: Deal: the 4 of diamonds (D4) appears twice: in North's and West's hands",
        ),
        (
            HEAD.replace('"Club"', '"#"'),
            "line 2: Event: '#' repeats the previous game's value, but there is no earlier Event",
        ),
        (HEAD + "[Site abc]\n", 'line 7: Site: the value must be in double quotes, e.g. [Site "value"]'),
        (HEAD + '[Site "abc"\n', "line 7: Site: the tag is not terminated: ] is missing"),
        (HEAD + '[ "abc"]\n', 'line 7: a tag is [Name "value"]: this one has no name'),
        (HEAD + "{ never closed\n\n", "line 7: a comment opened with { is never closed with }"),
        (HEAD + "hello\n", "line 7: 'hello' after the Deal tag is outside any section"),
        ("hello\n" + HEAD, "line 1: 'hello' is outside any tag"),
        (
            HEAD + HEAD.replace("% PBN 2.1\n", "").replace('"1"', '"2"'),
            "line 8: Board: a second Board tag in the same game (the first is at line 3): games are separated by a "
            "blank line",
        ),
        (
            HEAD + "\n" + HEAD.replace("% PBN 2.1\n", "").replace("QJ82", "QJ8"),
            "line 12: Deal: East holds 12 cards: a hand has 13; the deal is missing S2",
        ),
        (HEAD + '[Declarer "Q"]\n', "line 7: Declarer: 'Q' is not a seat: write N, E, S or W"),
        (HEAD + '[Contract "8NT"]\n', "line 7: Contract: '8NT' has level 8: a level is 1 to 7."),
        (HEAD + '[Result "14"]\n', "line 7: Result: '14' is not a number of tricks: declarer takes 0 to 13"),
    ],
)
def test_tag_errors(text, expected):
    assert error(text) == expected


def test_an_error_in_the_last_game_refuses_the_whole_file():
    good = HEAD + "\n" + HEAD.replace("% PBN 2.1\n", "").replace('"1"', '"2"')
    assert len(parse_pbn(good)) == 2
    assert error(good + "\n" + HEAD.replace("% PBN 2.1\n", "").replace('"1"', '"2"').replace("K96532", "K9653")) == (
        "line 18: Deal: West holds 12 cards: a hand has 13; the deal is missing D2"
    )


def test_dealer_and_vulnerable_from_the_file_win_over_the_board_number():
    text = HEAD.replace('[Dealer "N"]', '[Dealer "w"]').replace('"None"', '"Both"')
    game = parse_pbn(text)[0]
    assert (game.board, game.dealer, game.vulnerability) == (1, "W", "All")
    cycle = parse_pbn('[Board "7"]\n')[0]
    assert (cycle.dealer, cycle.vulnerability) == ("S", "All")
    assert [
        parse_pbn(f'[Vulnerable "{v}"]\n')[0].vulnerability for v in ("Love", "-", "None", "NS", "EW", "All", "Both")
    ] == ["None", "None", "None", "NS", "EW", "All", "All"]
    unknown = parse_pbn('[Event "x"]\n[Board "?"]\n[Dealer "?"]\n[Deal "?"]\n')[0]
    assert (unknown.board, unknown.dealer, unknown.vulnerability, unknown.deal) == (None, None, None, None)


def test_comments_headers_and_partial_deals():
    text = (
        "% PBN 2.1\n% EXPORT\n{ a comment\n\nover [three] lines }\n"
        + HEAD.replace("% PBN 2.1\n", "")
        + '; a line comment [Site "no"]\n[Site "Hall; {not a comment}"] ; trailing\n'
        + '[Annotator "Said \\"hi\\""]\n'
    )
    game = parse_pbn(text)[0]
    assert game.tags["Site"] == "Hall; {not a comment}"
    assert game.tags["Annotator"] == 'Said "hi"'
    assert game.line == 6
    partial = parse_pbn(HEAD.replace("QJ82.T942.J.KT64", "-"))[0]
    assert partial.deal.hands["E"] is None
    assert parse_pbn("\ufeff" + HEAD)[0].board == 1


# --- auctions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "auction, expected",
    [
        ("1NT 2C Pass 1H\n", "line 8: Auction: West's 1H (call 4) is insufficient: the last bid was 2C"),
        (
            "1NT Pass X\n",
            "line 8: Auction: South's X (call 3) doubles their own side's 1NT: a double is only of an opponent's bid",
        ),
        ("1NT Pass XX\n", "line 8: Auction: South's XX (call 3): there is no double to redouble"),
        ("1NT Pass Pass Pass\n2C\n", "line 9: Auction: North's 2C (call 5) comes after the end of the auction"),
    ],
)
def test_illegal_auctions_are_refused(auction, expected):
    assert error(HEAD + '[Auction "N"]\n' + auction) == expected


@pytest.mark.parametrize(
    "auction, call, n", [("1NT 9S AP\n", "9S", 2), ("- - 1NT AP\n", "-", 1), ("1NT\nPass 1Z AP\n", "1Z", 3)]
)
def test_an_unknown_call_leaves_the_auction_out_and_names_the_board_and_the_call(auction, call, n):
    """A mistyped call, or the PBN standard's - for a call nobody recorded, no longer refuses the
    whole file: the game is read without its auction, and the warning names the board, the call
    and its line (issue #40)."""
    warnings = []
    game = parse_pbn(HEAD + '[Declarer "N"]\n[Contract "1NT"]\n[Result "7"]\n[Auction "N"]\n' + auction, warnings)[0]
    assert game.auction == [] and game.contract == "1NT" and game.result == 7
    line = 11 + auction.split(call)[0].count("\n")
    assert [str(w) for w in warnings] == [
        f"line {line}: Auction: board 1: '{call}' (call {n}) is not a call (Pass, X, XX, AP or a bid from 1C to 7NT): "
        "the auction is left out, the board's result kept"
    ]


def test_auction_must_start_with_the_dealer_and_end_in_the_contract():
    assert error(HEAD + '[Auction "E"]\n1NT AP\n') == ("line 7: Auction: the auction starts with E but the dealer is N")
    assert error(HEAD + '[Declarer "S"]\n[Contract "3NT"]\n[Auction "N"]\n1NT Pass 3NT AP\n') == (
        "line 8: Contract: 3NT by S does not match the auction, which ends in 3NT by N"
    )


def test_auction_calls_notes_and_unfinished_auctions():
    game = parse_pbn(
        HEAD + '[Declarer "S"]\n[Contract "2CX"]\n[Auction "N"]\n'
        'p 1d =1= 2c! $1 X =2=\nPass Pass AP\n[Note "1:could be short"]\n[Note "2:takeout"]\n'
    )[0]
    assert game.auction == [
        Call("Pass"),
        Call("1D", "could be short"),
        Call("2C"),
        Call("X", "takeout"),
        Call("Pass"),
        Call("Pass"),
        Call("AP"),
    ]
    assert game.contract == "2CX" and game.auction_complete
    unfinished = parse_pbn(HEAD + '[Auction "N"]\n1NT Pass *\n')[0]
    assert not unfinished.auction_complete
    assert parse_pbn(write_pbn([unfinished]))[0] == unfinished


# --- score tables ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "row, expected",
    [
        (" 1 4S Q 10 420 -\n", "line 8: Declarer: 'Q' is not a seat: write N, E, S or W"),
        (" 1 4S N 14 420 -\n", "line 8: Result: '14' is not a number of tricks: declarer takes 0 to 13"),
        (" 1 8NT N 10 420 -\n", "line 8: Contract: '8NT' has level 8: a level is 1 to 7."),
        (
            " 1 4Z N 10 420 -\n",
            "line 8: Contract: '4Z' is not a contract: write PASS, or a level 1-7, a strain "
            "(C, D, H, S, NT) and X or XX for doubled or redoubled, e.g. 4S or 3NTX.",
        ),
        (
            " 1 4S N 9 420 -\n",
            "line 8: Score_NS 420 does not match 4S by N making 9 tricks, not vulnerable: Law 77 gives -50",
        ),
        (
            " 1 4S E 8 - 50\n",
            "line 8: Score_EW 50 does not match 4S by E making 8 tricks, not vulnerable: Law 77 gives -100",
        ),
        (" 1 Pass - - 50 -\n", "line 8: Score_NS 50 does not match a passed-out board: Law 77 gives 0"),
        (" 1 4S N - 420 -\n", "line 8: Result: 4S by N is scored but has no result"),
        (
            " 1 4S N\n",
            "line 8: ScoreTable: the row has 3 columns but the header names 6 (Table, Contract, "
            "Declarer, Result, Score_NS, Score_EW)",
        ),
    ],
)
def test_score_table_errors(row, expected):
    assert error(HEAD + SCORE_TABLE + row) == expected


def test_score_table_accepts_what_scoring_programs_write():
    rows = parse_pbn(
        HEAD
        + SCORE_TABLE
        + (
            " 1 4S E 8 100 -\n"  # only the winning side's score
            " 2 3NT N 11 460 -460\n"  # both sides
            " 3 Pass - - 0 0\n"  # passed out
            " 4 Bye - - - -\n"  # free text in the contract column
            " 5 - - - A6040 -\n"  # an artificial score as USEBIO writes it
            ' 6 "4S" N 10 "420" -\n'  # quoted values
            " 7 4SX N 10 590 -\n"
        )
    )[0].score_rows
    assert [(r.contract, r.score_ns, r.score_ew, r.artificial) for r in rows] == [
        ("4S", 100, None, None),
        ("3NT", 460, -460, None),
        ("PASS", 0, 0, None),
        (None, None, None, "Bye"),
        (None, None, None, "A6040"),
        ("4S", 420, None, None),
        ("4SX", 590, None, None),
    ]


def test_score_cannot_be_checked_without_vulnerability():
    assert error('[Event "x"]\n' + SCORE_TABLE + " 1 4S N 10 420 -\n") == (
        "line 3: Score_NS: the board's vulnerability is not known, so the score cannot be checked: give the "
        "Board number or a Vulnerable tag"
    )


def test_written_games_can_be_built_in_code():
    game = PbnGame(
        line=0,
        board=3,
        dealer="S",
        vulnerability="EW",
        deal=parse_deal(EXAMPLE),
        contract="4H",
        declarer="S",
        result=10,
        auction=[Call("1H", "5+ cards"), Call("Pass"), Call("4H"), Call("AP")],
    )
    text = write_pbn([game])
    assert '[Deal "S:T73.AQ653.AQ8.A2 54.7.K96532.J875 AK96.KJ8.T74.Q93 QJ82.T942.J.KT64"]' in text
    read = parse_pbn(text)[0]
    assert (read.board, read.dealer, read.vulnerability, read.deal, read.contract, read.auction) == (
        3,
        "S",
        "EW",
        game.deal,
        "4H",
        game.auction,
    )
