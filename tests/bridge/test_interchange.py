"""Every form of results file the scoring programs write (tests/fixtures/interchange, see its
README.md), read into boards and table results: bridge/pbn.py, bridge/usebio.py and
bridge/interchange.py, plain Python."""

from pathlib import Path

import pytest

from bridge.interchange import decode, read_artificial, read_scoring
from bridge.pbn import PbnError, parse_pbn, session_from_pbn
from bridge.usebio import UsebioError, parse_usebio, write_usebio

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "interchange"
DEAL = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"


def read(name):
    warnings = []
    games = parse_pbn(decode((FIXTURES / name).read_bytes()), warnings)
    return games, session_from_pbn(games, warnings)


def pbn(text):
    warnings = []
    return session_from_pbn(parse_pbn(text, warnings), warnings)


def refusal(text):
    with pytest.raises(PbnError) as caught:
        pbn(text)
    return str(caught.value)


def played(result):
    return (result.board, result.table, result.ns, result.ew, result.contract, result.declarer, result.tricks)


# --- one game per table result ------------------------------------------------------------


def test_one_game_per_table_result_is_grouped_by_board():
    games, session = read("per_table_games.pbn")
    assert len(games) == 6
    assert [(b.number, b.dealer, b.vulnerability) for b in session.boards] == [(1, "N", "None"), (2, "E", "NS")]
    assert [played(r) for r in session.results] == [
        (1, 1, 1, 4, "4S", "N", 10),
        (1, 2, 2, 5, "4S", "N", 11),
        (1, 3, 3, 6, "3NT", "S", 9),
        (2, 1, 1, 5, "2H", "E", 8),
        (2, 2, 2, 6, "3H", "E", 8),
        (2, 3, 3, 4, "PASS", "", None),
    ]
    assert session.scoring == "matchpoints"


def test_double_hash_carries_a_value_on_and_hash_takes_the_latest_earlier_value():
    games, _session = read("per_table_games.pbn")
    # Game 2 says [Event "##"]; games 3-6 leave Event out and still carry it.
    assert [g.tags["Event"] for g in games] == ["Tuesday Pairs"] * 6
    assert [g.tags["Site"] for g in games] == ["Harbour Bridge Club"] * 6
    text = '[Event "A"]\n[Site "S"]\n[Board "1"]\n\n[Board "2"]\n\n[Event "#"]\n[Site "#"]\n[Board "3"]\n'
    third = parse_pbn(text)[2]
    assert (third.tags["Event"], third.tags["Site"]) == ("A", "S")  # from game 1: game 2 has neither


def test_a_repeated_tag_counts_once_with_a_warning():
    _games, session = read("per_table_games.pbn")
    assert [str(w) for w in session.warnings] == [
        "line 20: Scoring: a second Scoring tag in the same game (the first is at line 12) is ignored"
    ]


def test_result_as_a_sides_tricks_and_claim_markers():
    head = f'[Board "1"]\n[Deal "{DEAL}"]\n[PairId_NS "1"]\n[PairId_EW "2"]\n[Table "1"]\n'
    assert pbn(head + '[Declarer "E"]\n[Contract "2H"]\n[Result "NS 6"]\n').results[0].tricks == 7
    assert pbn(head + '[Declarer "E"]\n[Contract "2H"]\n[Result "EW 9"]\n').results[0].tricks == 9
    assert pbn(head + '[Declarer "E"]\n[Contract "2H"]\n[Result "9^1"]\n').results[0].tricks == 9
    assert refusal(head + '[Contract "2H"]\n[Result "NS 6"]\n') == (
        "line 7: Result: 'NS 6' gives the tricks of a side, but the game has no Declarer"
    )


def test_a_game_result_without_contestants_is_named_not_imported():
    session = pbn(f'[Board "1"]\n[Deal "{DEAL}"]\n[Declarer "S"]\n[Contract "3NT"]\n[Result "9"]\n')
    assert session.results == [] and session.left_out == 1
    assert [str(w) for w in session.warnings] == [
        "line 1: Contract: the game's own result (3NT) is not imported: it names no pairs (PairId_NS, PairId_EW) "
        "or teams (Room with HomeTeam and VisitTeam)"
    ]


def test_a_game_without_board_is_refused_naming_the_game():
    text = f'[Event "Club"]\n[Board "1"]\n\n[Event "Club"]\n[Deal "{DEAL}"]\n'
    assert refusal(text) == (
        "line 4: Board: the game that starts at line 4 has a deal or a result but no Board tag: give its board number"
    )
    assert pbn('[Event "Header only"]\n[Site "Club"]\n\n[Board "1"]\n').boards[0].number == 1


def test_games_of_one_board_must_carry_one_deal_but_sections_may_differ():
    other = "N:QJ82.T942.J.KT64 AK96.KJ8.T74.Q93 T73.AQ653.AQ8.A2 54.7.K96532.J875"
    text = f'[Board "1"]\n[Deal "{DEAL}"]\n\n[Board "1"]\n[Deal "{other}"]\n'
    assert refusal(text) == (
        "line 4: Board: board 1 appears twice in this file with a different Deal (first at "
        "line 1): games of one board must agree"
    )
    sections = f'[Section "A"]\n[Board "1"]\n[Deal "{DEAL}"]\n\n[Section "B"]\n[Board "1"]\n[Deal "{other}"]\n'
    assert len(parse_pbn(sections)) == 2


def test_note_references_without_notes_are_kept_with_a_warning():
    warnings = []
    game = parse_pbn(
        f'[Board "1"]\n[Deal "{DEAL}"]\n[Auction "N"]\n1NT =2= Pass Pass Pass\n[Play "E"]\nC2 =1= C3 CA C4\n', warnings
    )[0]
    assert game.auction[0].call == "1NT" and game.auction[0].note == ""
    assert game.sections["Play"] == ("E", [["C2", "=1=", "C3", "CA", "C4"]])
    assert [str(w) for w in warnings] == [
        'line 4: Auction: the note =2= has no [Note "2:..."]: the call is kept with an empty note'
    ]


@pytest.mark.parametrize(
    "written, read",
    [
        ("N-S", "NS"),
        ("E-W", "EW"),
        ("NS", "NS"),
        ("EW", "EW"),
        ("Both", "All"),
        ("All", "All"),
        ("None", "None"),
        ("Love", "None"),
        ("-", "None"),
    ],
)
def test_every_vulnerability_spelling(written, read):
    assert parse_pbn(f'[Board "1"]\n[Vulnerable "{written}"]\n')[0].vulnerability == read


# --- score tables ----------------------------------------------------------------------------


def test_sections_columns_in_any_order_byes_and_artificial_codes():
    _games, session = read("sections_and_byes.pbn")
    rows = [(r.board, r.section, r.table, r.ns, r.ew, r.kind, r.contract, r.score, r.code) for r in session.results]
    assert rows == [
        (1, "A", 1, 1, 4, "played", "4S", None, ""),
        (1, "A", 2, 2, 5, "played", "4S", None, ""),
        (1, "B", 1, 11, 14, "played", "3NT", None, ""),
        (1, "B", 2, 12, 15, "artificial", "", {"ns": "AVE+", "ew": "AVE-"}, "A+"),
        (1, "B", 3, 13, 16, "not_played", "", None, "NP"),
        (2, "A", 1, 1, 4, "played", "2H", None, ""),
        (2, "A", 2, 2, 5, "artificial", "", {"ns": "60%", "ew": "40%"}, "60%"),
        (2, "B", 1, 11, 14, "played", "PASS", None, ""),
        (2, "B", 2, 12, 15, "played", "3H", None, ""),
        (2, "B", 3, 13, 16, "played", "4S", None, ""),
    ]
    assert session.results[0].lead == "HK"
    assert [str(w) for w in session.warnings] == [
        "line 13: ScoreTable: board 1: a sit-out (-) has no result to record",
        "line 27: ScoreTable: board 2: a sit-out (Bye) has no result to record",
    ]
    # Windows-1252 names and CRLF line ends.
    assert session.names == {1: "Zoë Lefèvre - José Muñoz", 4: "Søren Ærø - Ågot Dahl"}


def test_team_tables_with_rooms():
    _games, session = read("teams.pbn")
    assert session.teams and session.scoring == "imps"
    assert [(r.board, r.room, r.home, r.away, r.ns, r.ew, r.contract) for r in session.results] == [
        (1, "open", 1, 2, 1, 2, "4S"),
        (1, "closed", 1, 2, 2, 1, "2S"),
        (2, "open", 1, 2, 1, 2, "PASS"),
        (2, "closed", 1, 2, 2, 1, "2H"),
    ]
    assert session.names == {1: "Lions", 2: "Tigers"}


def test_individual_tables_are_recognised_not_misread():
    _games, session = read("individual.pbn")
    assert session.individual


HEAD = f'[Board "1"]\n[Deal "{DEAL}"]\n'
TABLE = (
    '[ScoreTable "Table\\2R;PairId_NS\\2R;PairId_EW\\2R;Contract\\5L;Declarer\\1R;Result\\2R;Score_NS\\5R;'
    'Score_EW\\5R"]\n'
)


@pytest.mark.parametrize(
    "row, expected",
    [
        (
            " 1 1 2 - - - XYZ -\n",
            "line 4: Score_NS: 'XYZ' is not a score or an artificial-score code this system knows "
            "(A60, A6040, A+, A, A-, AVE+, AVE, AVE-, 60%, NP)",
        ),
        (
            " 1 1 2 - - - A60 Q\n",
            "line 4: Score_NS: 'Q' is not a score or an artificial-score code this system knows "
            "(A60, A6040, A+, A, A-, AVE+, AVE, AVE-, 60%, NP)",
        ),
        (
            " 1 1 2 - - - - -\n",
            "line 4: Contract: the row has neither a contract nor a score: write the result, an "
            "artificial score (A60, A+, 60%...) or NP for a board not played",
        ),
        (" 1 1 2 - - - 420 -\n", "line 4: Contract: the row has a score but no contract"),
        (" 1 x 2 4S N 10 420 -\n", "line 4: PairId_NS: 'x' is not a number"),
    ],
)
def test_score_table_refusals_name_the_row_and_the_code(row, expected):
    assert refusal(HEAD + TABLE + row) == expected


def test_a_table_without_contestants_says_which_columns_it_needs():
    table = '[ScoreTable "Table\\2R;Contract\\5L;Declarer\\1R;Result\\2R"]\n 1 4S N 10\n'
    assert refusal(HEAD + table) == (
        "line 4: PairId_NS: the row names no contestants: a pairs table has PairId_NS and PairId_EW, a teams "
        "table TeamId_Home, TeamId_Away and Room, an individual PlayerId_North...PlayerId_West"
    )


def test_column_names_in_another_case_and_one_score_column():
    table = (
        '[ScoreTable "table;pairid_ns;pairid_ew;contract;declarer;result;score"]\n 1 1 2 4S N 10 "NS 420"\n'
        ' 2 3 4 4S N 9 "EW 50"\n'
    )
    session = pbn(HEAD + table)
    assert [played(r) for r in session.results] == [(1, 1, 1, 2, "4S", "N", 10), (1, 2, 3, 4, "4S", "N", 9)]
    assert "Law 77 gives 420" in refusal(HEAD + table.replace('"NS 420"', '"NS 450"'))


@pytest.mark.parametrize(
    "ns, ew, expected",
    [
        ("A60", "A40", ("artificial", {"ns": "60%", "ew": "40%"})),
        ("A50", None, ("artificial", {"ns": "50%", "ew": "50%"})),
        ("A6040", None, ("artificial", {"ns": "60%", "ew": "40%"})),
        ("A6060", None, ("artificial", {"ns": "60%", "ew": "60%"})),
        ("A+", "A-", ("artificial", {"ns": "AVE+", "ew": "AVE-"})),
        ("AVE+", None, ("artificial", {"ns": "AVE+", "ew": "AVE-"})),
        (None, "AVE", ("artificial", {"ns": "AVE", "ew": "AVE"})),
        ("AV-", "AV-", ("artificial", {"ns": "AVE-", "ew": "AVE-"})),
        ("60%", None, ("artificial", {"ns": "60%", "ew": "40%"})),
        ("57,5%", None, ("artificial", {"ns": "57.5%", "ew": "42.5%"})),
        ("NP", None, ("not_played", None)),
        ("Bye", None, ("bye", None)),
    ],
)
def test_artificial_codes(ns, ew, expected):
    assert read_artificial(ns, ew) == expected


@pytest.mark.parametrize(
    "text, kind",
    [
        ("MP", "matchpoints"),
        ("MatchPoints", "matchpoints"),
        ("IMP", "imps"),
        ("Butler", "butler"),
        ("IMP;Butler", "butler"),
        ("Cross-IMPs", "cross_imps"),
        ("CrossImps", "cross_imps"),
        ("IMP;Cross2", "cross_imps"),  # Ruter's variants (issue #40)
        ("IMP;Butler-2", "butler"),
        ("BAM", "bam"),
        ("Rubber", "rubber"),
        ("?", None),
        ("Swiss", "swiss"),
    ],
)
def test_scoring_tag(text, kind):
    assert read_scoring(text) == kind


def test_scoring_must_agree_across_games():
    assert refusal('[Board "1"]\n[Scoring "MP"]\n\n[Board "2"]\n[Scoring "Butler"]\n') == (
        "line 4: Scoring: 'Butler' differs from the Scoring of an earlier game (line 1): one session is scored one way"
    )


# --- bytes ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, text",
    [
        (b'\xef\xbb\xbf[Event "Caf\xc3\xa9"]\r\n', '[Event "Café"]\n'),
        (b'[Event "Caf\xe9"]\r\n', '[Event "Café"]\n'),  # Windows-1252 / Latin-1
        (b'[Event "\x80"]\r', '[Event "€"]\n'),  # Windows-1252's euro sign
        (b'[Event "\x81"]', '[Event "\x81"]'),  # undefined in Windows-1252: Latin-1
    ],
)
def test_decode(data, text):
    assert decode(data) == text


# --- USEBIO ---------------------------------------------------------------------------------


def test_usebio_event_results_and_hand_records():
    session = parse_usebio((FIXTURES / "event.usebio.xml").read_bytes())
    assert session.format == "USEBIO" and session.scoring == "matchpoints"
    assert [(b.number, b.dealer, b.vulnerability, b.deal[:13]) for b in session.boards] == [
        (1, "N", "None", "N:KT4.KQ93.AK"),
        (2, "E", "NS", "N:AJ532.AT83."),
    ]
    assert [
        (r.board, r.table, r.ns, r.ew, r.kind, r.contract, r.declarer, r.tricks, r.lead, r.score)
        for r in session.results
    ] == [
        (1, 1, 1, 4, "played", "4S", "N", 10, "HK", None),
        (1, 2, 2, 5, "played", "4S", "N", 11, "", None),
        (1, 3, 3, 6, "played", "3NTX", "S", 8, "S2", None),
        (2, 1, 1, 5, "played", "2H", "E", 8, "D2", None),
        (2, 2, 2, 6, "artificial", "", "", None, "", {"ns": "60%", "ew": "40%"}),
        (2, 3, 3, 4, "played", "PASS", "", None, "", None),
    ]
    assert session.names == {1: "Ann Hughes - Bill Carter", 4: "Mary Webb - Neil Grant"}


def usebio_error(data):
    with pytest.raises(UsebioError) as caught:
        parse_usebio(data)
    return str(caught.value)


GOOD = (FIXTURES / "event.usebio.xml").read_text()


@pytest.mark.parametrize(
    "change, expected",
    [
        (
            ("<TRICKS>11</TRICKS>", "<TRICKS>14</TRICKS>"),
            "board 1, traveller line 2: TRICKS: '14' is not a number of tricks: declarer takes 0 to 13",
        ),
        (
            ("<SCORE>450</SCORE>", "<SCORE>480</SCORE>"),
            "board 1, traveller line 2: SCORE 480 does not match 4S by N making 11 tricks: Law 77 gives 450",
        ),
        (
            ("<SCORE>A6040</SCORE>", "<SCORE>Z99</SCORE>"),
            "board 2, traveller line 2: SCORE: 'Z99' is not a score or an artificial-score code this system knows "
            "(A60, A6040, A+, A, A-, AVE+, AVE, AVE-, 60%, NP)",
        ),
        (
            ("<CONTRACT>4S</CONTRACT>", "<CONTRACT>8S</CONTRACT>"),
            "board 1, traveller line 1: CONTRACT: '8S' has level 8: a level is 1 to 7.",
        ),
        (
            ("<NS_PAIR_NUMBER>2</NS_PAIR_NUMBER>", "<NS_PAIR_NUMBER>two</NS_PAIR_NUMBER>"),
            "board 1, traveller line 2: NS_PAIR_NUMBER: 'two' is not a number",
        ),
        (
            ("<PLAYED_BY>N</PLAYED_BY><LEAD>HK", "<PLAYED_BY>Q</PLAYED_BY><LEAD>HK"),
            "board 1, traveller line 1: PLAYED_BY: 'Q' is not a seat: write N, E, S or W",
        ),
        (("</EVENT>", ""), "line 45, column 2: this is not well-formed XML"),
    ],
)
def test_usebio_refusals_name_the_element_and_field(change, expected):
    assert GOOD.count(change[0]) >= 1
    assert usebio_error(GOOD.replace(change[0], change[1], 1).encode()) == expected


def test_a_file_that_is_not_usebio_is_named():
    assert usebio_error(b"<RESULTS><BOARD/></RESULTS>") == (
        "the file: the root element is <RESULTS>, not <USEBIO>: this is not a USEBIO file"
    )


def test_usebio_entities_are_refused_never_expanded():
    bomb = (
        '<?xml version="1.0"?>\n<!DOCTYPE USEBIO [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>\n'
        "<USEBIO><EVENT><EVENT_DESCRIPTION>&b;</EVENT_DESCRIPTION></EVENT></USEBIO>"
    )
    assert usebio_error(bomb.encode()) == (
        "the file: it declares XML entities, which a results file never needs: refused for safety"
    )
    external = (
        '<?xml version="1.0"?>\n<!DOCTYPE USEBIO [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<USEBIO>&x;</USEBIO>'
    )
    assert "refused for safety" in usebio_error(external.encode())


def test_usebio_written_reads_back():
    session = parse_usebio((FIXTURES / "event.usebio.xml").read_bytes())
    boards = [(board, [r for r in session.results if r.board == board.number], {}) for board in session.boards]
    again = parse_usebio(
        write_usebio(event_name="Tuesday Pairs", scoring="matchpoints", boards=boards, names=session.names)
    )
    assert [(b.number, b.deal) for b in again.boards] == [(b.number, b.deal) for b in session.boards]
    assert [(r.board, r.ns, r.ew, r.kind, r.contract, r.declarer, r.tricks, r.score) for r in again.results] == [
        (r.board, r.ns, r.ew, r.kind, r.contract, r.declarer, r.tricks, r.score) for r in session.results
    ]
    assert again.names == session.names


def test_usebio_in_the_encoding_its_declaration_names():
    latin = GOOD.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"').replace("Ann Hughes", "Zoë Lefèvre")
    assert parse_usebio(latin.encode("latin-1")).names[1] == "Zoë Lefèvre - Bill Carter"
    assert usebio_error(GOOD.replace('encoding="UTF-8"', 'encoding="TF-8"').encode()) == (
        "the file: the XML declaration names an encoding that does not exist"
    )


@pytest.mark.parametrize(
    "generator, rounding",
    [
        ("Ruter 3.2.1", "half-away"),
        ("RUTER", "half-away"),
        ("Router 2.0", None),  # a word of its own, not a prefix
        ("Magic Contest 4.6", "half-away"),  # Ruter's program: Ruter i Norge is its Norwegian edition (issue #40)
        ("ScoreBridge 10.25.02", None),  # not known: not guessed at
        ("", None),
        (None, None),
    ],
)
def test_the_programs_butler_rounding_is_read_from_its_generator_tag(generator, rounding):
    from bridge.interchange import butler_rounding_of

    assert butler_rounding_of(generator) == rounding


TEAM_MATCH = """<USEBIO Version="1.2"><EVENT EVENT_TYPE="SWISS_TEAMS">
<PARTICIPANTS><TEAM TEAM_ID="1"><TEAM_NAME>Lions</TEAM_NAME></TEAM><TEAM TEAM_ID="2"><TEAM_NAME>Tigers</TEAM_NAME></TEAM>
</PARTICIPANTS>
<MATCH><ROUND_NUMBER>1</ROUND_NUMBER><TEAM>1</TEAM><OPPOSING_TEAM>{away}</OPPOSING_TEAM>
<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
<TRAVELLER_LINE><DIRECTION>NS</DIRECTION><NS_PAIR_NUMBER>1A</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2B</EW_PAIR_NUMBER>
<CONTRACT>4S</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>10</TRICKS><SCORE>420</SCORE></TRAVELLER_LINE>
<TRAVELLER_LINE><DIRECTION>{closed}</DIRECTION><NS_PAIR_NUMBER>2A</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1B</EW_PAIR_NUMBER>
<CONTRACT>2S</CONTRACT><PLAYED_BY>S</PLAYED_BY><TRICKS>10</TRICKS><SCORE>170</SCORE></TRAVELLER_LINE>
</BOARD></MATCH></EVENT></USEBIO>"""


def test_usebio_team_matches_read_by_room():
    session = parse_usebio(TEAM_MATCH.format(away=2, closed="EW"))
    assert session.teams and session.scoring == "imps"
    assert session.names == {1: "Lions", 2: "Tigers"}
    assert [(r.board, r.room, r.home, r.away, r.ns, r.ew, r.table, r.round, r.contract) for r in session.results] == [
        (1, "open", 1, 2, 1, 2, 1, 1, "4S"),
        (1, "closed", 1, 2, 2, 1, 1, 1, "2S"),
    ]


@pytest.mark.parametrize(
    "away, closed, expected",
    [
        (2, "N", "match 1, board 1, traveller line 2: DIRECTION: 'N' is not where the home team sat: write NS or EW"),
        (2, "NS", "match 1, board 1, traveller line 2: DIRECTION: the home team sits NS at two tables of one board"),
        (1, "EW", "match 1: OPPOSING_TEAM: team 1 cannot play itself"),
        ("", "EW", "match 1: OPPOSING_TEAM: the element is missing or empty"),
    ],
)
def test_usebio_team_match_refusals_name_the_match_and_the_field(away, closed, expected):
    with pytest.raises(UsebioError) as caught:
        parse_usebio(TEAM_MATCH.format(away=away, closed=closed))
    assert str(caught.value) == expected


def test_the_method_for_a_board_played_fewer_times_is_read_from_the_printed_lines():
    # Issue #40: four results on the most played board; a board played three times prints, with
    # an average for each missing result, 5, 3, 1 of 6 (ScoreBridge's real 10.25.02 file); with
    # Neuberg 5.7, 3, 0.3 (to one decimal); on its own top 4, 2, 0 (Compscore's travellers: they
    # say nothing of the totals' method). A full board alone says nothing either.
    from fractions import Fraction as F

    from bridge.interchange import fewer_played_printed

    full = ("", [(620, F(6), F(0)), (170, F(4), F(2)), (140, F(2), F(4)), (-100, F(0), F(6))])

    def board(points):
        return "", [(score, F(ns), 6 - F(ns)) for score, ns in zip((490, 200, -150), points, strict=True)]

    assert fewer_played_printed([full, board(("5", "3", "1"))]) == "average"
    assert fewer_played_printed([full, board(("5.7", "3", "0.3"))]) == "neuberg"
    assert fewer_played_printed([full, ("", [(490, F(4), F(0)), (200, F(2), F(2)), (-150, F(0), F(4))])]) == ""
    assert fewer_played_printed([full]) == ""
    assert fewer_played_printed([full, board(("5", "3", "1")), board(("5.7", "3", "0.3"))]) == ""
