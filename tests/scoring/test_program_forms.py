"""Files in the forms the scoring programs write them, scored as the program scored them (issue #40):
the same pairs, the same field and the same standings as the file prints. Each file is read for
the comparison by a plain reading of its tags and tables here, not with the importer's reader.

The files under tests/fixtures/programs were built for these tests in each program's form (no
file of these programs with a licence that allows redistribution was found in a public
repository); tests/fixtures/ORIGINS says what each stands for."""

import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from core import policy
from scoring import recalculation, services
from scoring.importers.session_import import ImportRefused, import_file
from scoring.models import Contestant, Event, Result, Standing

pytestmark = pytest.mark.django_db
PROGRAMS = Path(__file__).resolve().parent.parent / "fixtures" / "programs"


def tables(text, name):
    """Each ``[name "columns"]`` table of a PBN text as a list of rows (column -> value)."""
    found = []
    for match in re.finditer(rf'^\[{name} "([^"]*)"\]\n((?:[^\[\n].*\n?)*)', text, re.M):
        columns = [c.split("\\")[0] for c in match.group(1).split(";")]
        rows = [
            dict(zip(columns, re.findall(r'"[^"]*"|\S+', line), strict=True)) for line in match.group(2).splitlines()
        ]
        found.append([{k: v.strip('"') for k, v in row.items()} for row in rows if row])
    return found


def cents(value):
    value = Fraction(value)
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def test_a_ruter_howell_pair_that_sits_both_ways_is_one_pair_ranked_in_one_list(record):
    # Ruter writes where each pair sat first in a Direction column (E-W as the Scandinavian Ö-V);
    # the movement is a Howell: every pair sits N-S on some boards and E-W on others.
    text = (PROGRAMS / "ruter_howell.pbn").read_text(encoding="utf-8")
    (totals,) = tables(text, "TotalScoreTable")
    event = services.create_event(
        tournament=record.tournament, name="Klubbkveld", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )
    summary = import_file(event=event, data=text.encode())
    assert [str(i) for i in summary.contestants_created] == ["1", "2", "3", "4"]
    named = {c.number: (c.direction, c.name) for c in Contestant.objects.filter(event=event)}
    assert named == {int(row["PairId"]): ("", row["Names"]) for row in totals}
    recalculation.rescore_everything(event)
    for board, rows in enumerate(tables(text, "ScoreTable"), 1):
        for row in rows:
            result = Result.objects.get(board__number=board, table__number=int(row["Table"]))
            score = result.board_score
            assert (result.ns.number, result.ew.number) == (int(row["PairId_NS"]), int(row["PairId_EW"]))
            assert (score.ns, score.ew) == (Decimal(row["MP_NS"]), Decimal(row["MP_EW"]))
    standings = {s.contestant.number: s for s in Standing.objects.filter(event=event, session=None)}
    printed = {
        int(row["PairId"]): (Decimal(row["TotalScoreMP"]), Decimal(row["TotalPercentage"]), int(row["Rank"]))
        for row in totals
    }
    ours = {
        number: (s.total.quantize(Decimal("0.1")), cents(s.percent), int(s.place.rstrip("=")))
        for number, s in standings.items()
    }
    assert ours == printed
    assert {s.field for s in standings.values()} == {""}  # one list, as Ruter ranks a Howell


@pytest.mark.parametrize(("ns", "ew"), [("N-S", "Ö-V"), ("NS", "ØV"), ("N/S", "O-W"), ("NZ", "OW"), ("N-S", "E-O")])
def test_a_mitchell_listed_in_both_directions_names_each_pair_however_the_program_spells_them(record, ns, ew):
    # Pair 1 is listed twice, N-S and E-W: two pairs, each named from its own row.
    deal = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"
    text = (
        '[Scoring "MP"]\n[TotalScoreTable "PairId\\2R;Direction\\3L;Names\\20L"]\n'
        f'1 {ns} "Ann - Bob"\n2 {ns} "Cy - Di"\n1 {ew} "Ed - Flo"\n2 {ew} "Gus - Hal"\n\n'
        f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{deal}"]\n'
        '[ScoreTable "Table\\1R;PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R"]\n'
        "1 1 1 4S N 10\n2 2 2 4S N 9\n"
    )
    event = services.create_event(
        tournament=record.tournament, name="Mitchell", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )
    import_file(event=event, data=text.encode())
    named = {c.label: c.name for c in Contestant.objects.filter(event=event)}
    assert named == {"1 N-S": "Ann - Bob", "2 N-S": "Cy - Di", "1 E-W": "Ed - Flo", "2 E-W": "Gus - Hal"}


def ruter_imps(scoring, generator='% <META name=Generator content="Ruter 2.0">\n'):
    deal = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"
    return (
        f'% PBN 2.1\n{generator}[Scoring "{scoring}"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        f'[Deal "{deal}"]\n'
        '[ScoreTable "Table\\1R;PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R"]\n'
        "1 1 2 4S N 10\n2 3 4 4S N 9\n3 5 6 3S N 9\n4 7 8 3S N 9\n"
    ).encode()


def test_ruters_cross2_is_read_as_cross_imps_and_refused_by_a_butler_event(record):
    butler = services.create_event(
        tournament=record.tournament, name="Butler", kind=Event.Kind.IMP_PAIRS_BUTLER, by=policy.SYSTEM
    )
    with pytest.raises(ImportRefused) as caught:
        import_file(event=butler, data=ruter_imps("IMP;Cross2"))
    assert caught.value.refusals == [
        "line 3: Scoring: the file is scored in cross-IMPs, but Butler is IMP pairs (Butler): import it into an event "
        "scored that way, or have the program export it as such."
    ]


def test_ruter_named_in_its_meta_generator_comment_is_known_by_its_butler_method(record):
    butler = services.create_event(
        tournament=record.tournament, name="Butler", kind=Event.Kind.IMP_PAIRS_BUTLER, by=policy.SYSTEM
    )
    summary = import_file(event=butler, data=ruter_imps("IMP;Butler-2"), dry_run=True)
    assert [w for w in summary.warnings if w.startswith("Scoring method:")] == [
        "Scoring method: Ruter 2.0 scores butler_drop one-each-end-from-3, butler_rounding half-away, ranking "
        "one-list, where the regulations here say butler_drop 1, butler_rounding half-up, ranking by-direction: "
        "recorded as this event's scoring method, so its standings are the program's. The event's page shows it "
        "and can change it."
    ]


def printed_butler(text):
    """The file's own Butler IMPs by (board, table) and its totals and ranks by pair."""
    rows = {
        (board, int(row["Table"])): (Decimal(row["IMP_NS"]), Decimal(row["IMP_EW"]))
        for board, table in enumerate(tables(text, "ScoreTable"), 1)
        for row in table
    }
    (totals,) = tables(text, "TotalScoreTable")
    return rows, {int(r["PairId"]): (Decimal(r["TotalScoreIMP"]), int(r["Rank"])) for r in totals}


def butler_standings(event):
    return {
        s.contestant.number: (s.total, int(s.place.rstrip("=").split("-")[0]))
        for s in Standing.objects.filter(event=event, session=None).select_related("contestant")
    }


def test_a_ruter_butler_session_is_scored_as_ruter_printed_it_before_and_after_a_ruling(record):
    # Ruter's IMP;Butler-2 drops the top and the bottom result even of three: the datum is the
    # middle score (board 1: 140, where the regulations' mean of three gives 170).
    text = (PROGRAMS / "ruter_butler.pbn").read_text(encoding="utf-8")
    rows, totals = printed_butler(text)
    event = services.create_event(
        tournament=record.tournament, name="Butler", kind=Event.Kind.IMP_PAIRS_BUTLER, by=policy.SYSTEM
    )
    import_file(event=event, data=text.encode())
    event.refresh_from_db()
    assert event.scoring_method == {
        "butler_drop": "one-each-end-from-3",
        "butler_rounding": "half-away",
        "ranking": "one-list",
    }
    recalculation.rescore_everything(event)
    ours = {
        (r.board.number, r.table.number): (r.board_score.ns, r.board_score.ew)
        for r in Result.objects.filter(board__session__event=event).select_related("board", "table", "board_score")
    }
    assert ours == rows
    assert butler_standings(event) == totals
    # The director adjusts board 2 at table 3 to 3H made (N-S -140): Ruter would take -140 as
    # the datum (-140, -140, -110), so table 1 gains 1 IMP and the others score 0.
    result = Result.objects.get(board__session__event=event, board__number=2, table__number=3)
    services.set_effective_score(result=result, kind="assigned", score={"ns": -140}, reason="Misinformation")
    recalculation.rescore_everything(event)
    assert butler_standings(event) == {
        1: (Decimal(8), 1),
        4: (Decimal(4), 2),
        5: (Decimal(0), 3),
        6: (Decimal(0), 3),
        3: (Decimal(-5), 5),
        2: (Decimal(-7), 6),
    }


def test_the_director_sees_the_programs_method_on_the_event_and_may_score_by_the_regulations(record, people, client):
    text = (PROGRAMS / "ruter_butler.pbn").read_bytes()
    event = services.create_event(
        tournament=record.tournament, name="Butler", kind=Event.Kind.IMP_PAIRS_BUTLER, by=policy.SYSTEM
    )
    import_file(event=event, data=text)
    client.force_login(people.scorer)
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "Butler datum: results dropped at each end" in page and "one-each-end-from-3" in page
    client.post(f"/events/{event.pk}/", {"form": "scoring_method", "butler_rounding": "half-away"})
    event.refresh_from_db()
    assert event.scoring_method == {"butler_rounding": "half-away"}
    recalculation.rescore_everything(event)
    # By the regulations' trimming (nothing dropped of three), board 1's datum is the mean, 170.
    points = Result.objects.get(board__session__event=event, board__number=1, table__number=1).board_score
    assert (points.ns, points.ew) == (Decimal(6), Decimal(-6))
    client.force_login(people.director)
    refused = client.post(f"/events/{event.pk}/", {"form": "scoring_method"})
    assert refused.status_code == 403


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (
            b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + b"\x93\x8a" * 400,
            "The file is a ZIP archive, not a results file: unzip it and upload the PBN, USEBIO, LIN or Bridgemate "
            "(.bws) file inside.",
        ),
        (
            '[Event "Club"]\n[Board "1"]\n'.encode("utf-16"),
            "The file is UTF-16 text: save or export it as UTF-8 (or Windows-1252) text and upload it again.",
        ),
        (
            '[Event "Club"]\n[Board "1"]\n'.encode("utf-16-le"),
            "The file is UTF-16 text: save or export it as UTF-8 (or Windows-1252) text and upload it again.",
        ),
        (
            b'[Event "Club"]\n[Board "1"]\n' + b"\x00\x9f\x01junk" * 1000,
            "The file holds binary data (a NUL byte at byte 28): it is not a PBN, USEBIO or LIN text file, nor a "
            "Bridgemate database.",
        ),
    ],
)
def test_a_file_that_is_not_results_text_is_refused_for_what_it_is_without_its_bytes(record, data, reason):
    event = services.create_event(tournament=record.tournament, name="Club", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM)
    with pytest.raises(ImportRefused) as caught:
        import_file(event=event, data=data)
    assert caught.value.refusals == [reason]


BWS = b"\x00\x01\x00\x00Standard Jet DB\x00" + b"\x00" * 100
HAND_RECORD = (
    b'% PBN 2.1\n[Event "Club"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
    b'[Deal "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"]\n\n'
    b'[Event "Club"]\n[Board "2"]\n[Dealer "E"]\n[Vulnerable "NS"]\n'
    b'[Deal "N:QJ82.T942.J.KT64 AK96.KJ8.T74.Q93 54.7.K96532.J875 T73.AQ653.AQ8.A2"]\n'
)


@pytest.mark.parametrize("hand_record_first", [True, False])
def test_bridgemate_results_and_their_hand_record_meet_in_one_session_in_either_order(
    record, monkeypatch, hand_record_first
):
    from bridge.bridgemate import session_from_received_data
    from scoring.importers import session_import
    from tests.bridge.test_bridgemate import row

    rows = [row(), row(ID=2, Table=2, PairNS=2, PairEW=5, Result="+1"), row(ID=3, Board=2, Contract="3 NT")]
    monkeypatch.setattr(session_import, "read_bws", lambda data: session_from_received_data(rows))
    event = services.create_event(tournament=record.tournament, name="Club", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM)
    files = [HAND_RECORD, BWS] if hand_record_first else [BWS, HAND_RECORD]
    for data in files:
        import_file(event=event, data=data, session_number=1)
    session = event.sessions.get()
    boards = {b.number: b for b in session.boards.all()}
    assert sorted(boards) == [1, 2] and all(b.deal for b in boards.values())
    assert boards[1].deal.startswith("N:AK96.KJ8.T74.Q93")
    stored = sorted(
        (r.board.number, r.table.number, r.contract, r.tricks) for r in Result.objects.filter(board__session=session)
    )
    assert stored == [(1, 1, "4S", 10), (1, 2, "4S", 11), (2, 1, "3NT", 9)]


def test_a_bridgemate_file_s_own_deals_and_players_come_in_with_its_results(record, monkeypatch):
    # An ACBL club's .BWS: its HandRecord holds the deals, PlayerNumbers each seat's player at
    # round 1 (a name, or a number PlayerNames knows); before, the boards had no deal and every
    # pair was unnamed (issue #40).
    from bridge.bridgemate import session_from_received_data
    from scoring.importers import session_import
    from tests.bridge.test_bridgemate import row

    rows = [row(), row(ID=2, Table=2, PairNS=2, PairEW=5, Result="+1"), row(ID=3, Board=2, Contract="3 NT")]
    suits = ("Spades", "Hearts", "Diamonds", "Clubs")
    hands = {
        "North": "AK96 KJ8 T74 Q93",
        "East": "QJ82 T942 J KT64",
        "South": "T73 AQ653 AQ8 A2",
        "West": "54 7 K96532 J875",
    }
    hand_record = {"Section": 1, "Board": 1}
    for seat, hand in hands.items():
        for suit, cards in zip(suits, hand.split(), strict=True):
            hand_record[f"{seat}{suit}"] = cards.replace("T", "10")
    players = [
        {"Section": 1, "Table": 1, "Direction": "N", "Number": "1001", "Name": "Ann Lee"},
        {"Section": 1, "Table": 1, "Direction": "S", "Number": "1002", "Name": ""},
        {"Section": 1, "Table": 1, "Direction": "E", "Number": "1003", "Name": "Cy Orr"},
        {"Section": 1, "Table": 1, "Direction": "W", "Number": "1004", "Name": "Di Park"},
    ]
    names = [{"ID": 1002, "Name": "Bob Moss"}]
    monkeypatch.setattr(
        session_import,
        "read_bws",
        lambda data: session_from_received_data(
            rows, {1: "A"}, hand_records=[hand_record], players=players, player_names=names
        ),
    )
    event = services.create_event(tournament=record.tournament, name="Club", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM)
    import_file(event=event, data=BWS)
    boards = {b.number: b.deal for b in event.sessions.get().boards.all()}
    assert boards == {1: "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875", 2: ""}
    named = {c.number: c.name for c in Contestant.objects.filter(event=event)}
    assert named == {1: "Ann Lee - Bob Moss", 4: "Cy Orr - Di Park", 2: "", 5: ""}


def test_a_session_without_deals_is_exported_as_pbn_with_no_unknown_deal(record, monkeypatch):
    # A Bridgemate session with no hand records: before, each board was written [Deal "?"],
    # which other readers refuse; now the tag is left out and the export reads back with this
    # system's reader and with endplay (issue #40).
    from endplay.parsers import pbn as endplay_pbn

    from bridge.bridgemate import session_from_received_data
    from bridge.pbn import parse_pbn
    from scoring.importers import session_import
    from scoring.importers.export import session_pbn
    from tests.bridge.test_bridgemate import row

    rows = [row(), row(ID=2, Table=2, PairNS=2, PairEW=5, Result="+1")]
    monkeypatch.setattr(session_import, "read_bws", lambda data: session_from_received_data(rows))
    event = services.create_event(tournament=record.tournament, name="Club", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM)
    import_file(event=event, data=BWS)
    text = session_pbn(event.sessions.get())
    assert '[Deal "?"]' not in text and "[Deal " not in text
    (game,) = parse_pbn(text)
    assert [row["Contract"] for row in game.tables["ScoreTable"].rows] == ["4S", "4S"]
    (board,) = endplay_pbn.loads(text)
    assert board.board_num == 1


@pytest.mark.parametrize(
    ("names", "charset", "encoding"),
    [
        (["Jón Þórsson - Sigrún Ásta", "Åse Ødegård - Zoë Brontë"], "ISO-8859-1", "latin-1"),
        (["Νίκος Παπάς - Ελένη Κώτσου", "Олена Мельник - Яна Коваль"], "UTF-8", "utf-8"),
    ],
)
def test_a_pbn_export_is_in_the_standards_character_set_and_says_which(record, names, charset, encoding, tmp_path):
    """PBN 2.1's character set is ISO 8859-1: an export whose names fit is written in it, one
    with names outside it (Greek, Cyrillic) in UTF-8, and each says which after % EXPORT, as
    BridgeComposer writes it; before, every export was UTF-8 with no declaration (issue #40). The
    download and the command write those bytes; they read back, here and with endplay, with the
    pairs' names and numbers."""
    from django.core.management import call_command
    from endplay.parsers import pbn as endplay_pbn

    from scoring.importers.export import pbn_bytes, session_pbn

    deal = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"
    text = (
        f'[Scoring "MP"]\n[TotalScoreTable "PairId\\2R;Names\\30L"]\n1 "{names[0]}"\n2 "{names[1]}"\n\n'
        f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{deal}"]\n'
        '[ScoreTable "Table\\1R;PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R"]\n'
        "1 1 2 4S N 10\n"
    )
    event = services.create_event(tournament=record.tournament, name="Club", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM)
    import_file(event=event, data=text.encode())
    recalculation.rescore_everything(event)
    data, said = pbn_bytes(session_pbn(event.sessions.get()))
    assert said == charset
    assert data.startswith(f"% PBN 2.1\r\n% EXPORT\r\n%Content-type: text/x-pbn; charset={charset}\r\n".encode())
    assert all(name.encode(encoding) in data for name in names)
    again = services.create_event(
        tournament=record.tournament, name="Again", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )
    import_file(event=again, data=data)
    assert {c.number: c.name for c in Contestant.objects.filter(event=again)} == {1: names[0], 2: names[1]}
    (board,) = endplay_pbn.loads(data.decode(encoding))
    assert board.board_num == 1
    output = tmp_path / "club.pbn"
    call_command("export_results", "--event", str(event.pk), "--session", "1", "--output", str(output))
    assert output.read_bytes() == data


def test_a_vugraph_match_is_one_match_of_its_boards_in_two_rooms(record):
    """A BBO vugraph file (tests/fixtures/programs/bbo_vugraph.lin): before, its two boards in
    two rooms were stored as four boards numbered 1-4, each deal twice, with no result. Now each
    board is one board with its open and closed room's results between the teams vg| names (the
    first N-S in the open room), the closed room of board 2 read from rs| and the open room's
    deal, and the match scored: 4H+1 (+450) against 2H+2 (+170 to the other side) is 7 IMPs,
    3NT= vulnerable (+600) against 3NT-1 (+100) 12: 19 IMPs to the home team (issue #40)."""
    from scoring.models import Board, MatchScore

    event = services.create_event(
        tournament=record.tournament, name="Cup", kind=Event.Kind.TEAMS_SWISS, by=policy.SYSTEM
    )
    summary = import_file(event=event, data=(PROGRAMS / "bbo_vugraph.lin").read_bytes())
    recalculation.rescore_everything(event)
    assert summary.boards == 2 and summary.results == 4
    assert sorted(Board.objects.filter(session__event=event).values_list("number", flat=True)) == [1, 2]
    rooms = sorted(
        (r.board.number, r.table.number, r.ns.name, r.contract, r.declarer, r.tricks, r.score_ns)
        for r in Result.objects.filter(board__session__event=event).select_related("board", "table", "ns")
    )
    assert rooms == [
        (1, 1, "Home Club", "4H", "S", 11, 450),
        (1, 2, "Away Club", "2H", "S", 10, 170),
        (2, 1, "Home Club", "3NT", "S", 9, 600),
        (2, 2, "Away Club", "3NT", "S", 8, -100),
    ]
    (score,) = MatchScore.objects.filter(match__round__session__event=event).select_related("match__home")
    assert (score.match.home.name, score.home_imps, score.away_imps) == ("Home Club", 19, -19)
