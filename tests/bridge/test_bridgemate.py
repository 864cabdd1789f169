"""Bridgemate server files (bridge/bridgemate.py): the ReceivedData rows the table computers
write, read into results; a file that is not an Access database refused cleanly.

The rows below are written for the project in the form Bridgemate Control Software keeps them
(see tests/fixtures/interchange/README.md)."""

import pytest
from access_parser import AccessParser

from bridge.bridgemate import BridgemateError, read_bws, session_from_received_data


def row(**values):
    base = {
        "ID": 1,
        "Section": 1,
        "Table": 1,
        "Round": 1,
        "Board": 1,
        "PairNS": 1,
        "PairEW": 4,
        "Declarer": 1,
        "NS/EW": "N",
        "Contract": "4 S",
        "Result": "=",
        "LeadCard": "HK",
        "Remarks": "",
        "Erased": False,
    }
    base.update(values)
    return base


def results(rows, sections=None):
    return [
        (r.board, r.section, r.table, r.round, r.ns, r.ew, r.contract, r.declarer, r.tricks, r.lead)
        for r in session_from_received_data(rows, sections).results
    ]


def test_received_data_rows_become_results():
    rows = [
        row(),
        row(ID=2, Table=2, PairNS=2, PairEW=5, Contract="4 S", Result="+1", LeadCard="S10"),
        row(ID=3, Table=3, PairNS=3, PairEW=6, Contract="3 NT x", **{"NS/EW": "S"}, Result="-1"),
        row(ID=4, Board=2, Contract="PASS", Result="", **{"NS/EW": ""}),
        row(ID=5, Board=2, Table=2, PairNS=2, PairEW=5, Contract="2 H xx", **{"NS/EW": "E"}, Result="8"),
    ]
    assert results(rows, {1: "A"}) == [
        (1, "A", 1, 1, 1, 4, "4S", "N", 10, "HK"),
        (1, "A", 2, 1, 2, 5, "4S", "N", 11, "ST"),
        (1, "A", 3, 1, 3, 6, "3NTX", "S", 8, "HK"),
        (2, "A", 1, 1, 1, 4, "PASS", "", None, ""),
        (2, "A", 2, 1, 2, 5, "2HXX", "E", 8, "HK"),
    ]
    session = session_from_received_data(rows)
    assert [(b.number, b.dealer, b.vulnerability) for b in session.boards] == [(1, "N", "None"), (2, "E", "NS")]


def test_a_correction_at_the_table_counts_not_the_erased_or_earlier_row():
    rows = [row(Result="-1"), row(ID=2, Result="=", Erased=True), row(ID=3, Result="+1")]
    assert results(rows) == [(1, "1", 1, 1, 1, 4, "4S", "N", 11, "HK")]


@pytest.mark.parametrize(
    "change, expected",
    [
        ({"Contract": "8 S"}, "ReceivedData row 1: Contract: '8S' has level 8: a level is 1 to 7."),
        ({"Result": "+5"}, "ReceivedData row 1: Result: +5 on 4S gives 15 tricks: declarer takes 0 to 13"),
        (
            {"Result": "made"},
            "ReceivedData row 1: Result: 'made' is not a result: write =, +1 or -2 against the contract",
        ),
        ({"NS/EW": "Q", "Declarer": ""}, "ReceivedData row 1: NS/EW: 'Q' is not a seat: write N, E, S or W"),
        ({"PairNS": "x"}, "ReceivedData row 1: PairNS: 'x' is not a number"),
        ({"Board": None}, "ReceivedData row 1: Board: the field is empty"),
        (
            {"Contract": "", "Remarks": ""},
            "ReceivedData row 1: Contract: the row has no contract and no remark: it is neither a result nor a board "
            "not played",
        ),
    ],
)
def test_refusals_name_the_row_and_the_field(change, expected):
    with pytest.raises(BridgemateError) as caught:
        session_from_received_data([row(**change)])
    assert str(caught.value) == expected


@pytest.mark.parametrize(
    "data", [b"", b"x" * 5000, b"\x00\x01\x00\x00Standard Jet DB\x00" + b"\x00" * 4000, bytes(range(256)) * 20]
)
def test_a_file_that_is_not_an_access_database_is_refused_cleanly(data):
    with pytest.raises(BridgemateError) as caught:
        read_bws(data)
    assert str(caught.value) == (
        "the Bridgemate file: this is not a Microsoft Access database that can be read (a Bridgemate .BWS file)"
    )


# --- Real Microsoft Access files -----------------------------------------------------------------
# msaccessdb (a development dependency) holds the empty databases Microsoft Access itself saved:
# Jet 4 (.mdb, Access 2000-2003, the format of a Bridgemate .BWS) and ACE (.accdb, 2007 on). No
# Bridgemate Control Software file can be had here, so these show the reader opens the real page
# format; a .BWS with ReceivedData rows is still to be met (docs/formats.md).


@pytest.fixture(params=["mdb", "accdb"])
def real_access_file(request, tmp_path):
    msaccessdb = pytest.importorskip("msaccessdb")
    path = tmp_path / f"empty.{request.param}"
    msaccessdb.create(str(path))
    return path.read_bytes()


def test_a_real_access_database_is_opened_and_its_tables_listed(real_access_file, tmp_path):
    # The importer tells an Access file by these bytes (scoring/importers/session_import.py).
    assert real_access_file[4:19] in (b"Standard Jet DB", b"Standard ACE DB")
    path = tmp_path / "copy.bws"
    path.write_bytes(real_access_file)
    database = AccessParser(str(path))
    names = database.parse_table("MSysObjects")["Name"]
    assert "MSysObjects" in database.catalog
    # The system catalogue's rows name its own tables: the row pages were read.
    assert {"MSysObjects", "MSysACEs", "MSysQueries"} <= set(names)


def test_a_real_access_database_without_received_data_is_refused_by_name(real_access_file):
    with pytest.raises(BridgemateError) as refused:
        read_bws(real_access_file)
    assert str(refused.value) == (
        "the Bridgemate file: the database has no ReceivedData table: this is not a Bridgemate server file"
    )


@pytest.mark.parametrize("keep", [4096, 20000, 40000])
def test_a_real_access_database_cut_short_is_refused_cleanly(real_access_file, keep):
    with pytest.raises(BridgemateError) as refused:
        read_bws(real_access_file[:keep])
    assert str(refused.value) == (
        "the Bridgemate file: this is not a Microsoft Access database that can be read (a Bridgemate .BWS file)"
    )


# --- Every kind of ReceivedData row (issue #29) -------------------------------------------------


def test_every_kind_of_row_played_not_played_erased_and_adjusted():
    rows = [
        row(),  # played
        row(ID=2, Table=2, PairNS=2, PairEW=5, Contract="", Remarks="Not played", Result=""),
        row(ID=3, Table=3, PairNS=3, PairEW=6, Contract="4 H", Result="=", Erased=True),  # erased...
        row(ID=4, Table=3, PairNS=3, PairEW=6, Contract="", Remarks="Arbitral score", Result="A60-40"),
        row(ID=5, Table=4, PairNS=7, PairEW=8, Contract="", Remarks="Arbitral score", Result=""),
        row(ID=6, Table=5, PairNS=9, PairEW=10, Contract="A+", Remarks=""),
    ]
    session = session_from_received_data(rows)
    assert [(r.table, r.kind, r.code, r.score) for r in session.results] == [
        (1, "played", "", None),
        (2, "not_played", "Not played", None),
        (3, "artificial", "A60-40", {"ns": "60%", "ew": "40%"}),  # ...replaced by the arbitral score
        (4, "not_played", "Arbitral score", None),  # no score written: the director gives one
        (5, "artificial", "A+", {"ns": "AVE+", "ew": "AVE-"}),
    ]


def test_a_damaged_record_is_passed_over_and_counted(real_access_file, tmp_path, monkeypatch):
    # No tool here writes an Access table, so the damage is made in the parser: the third
    # record of the system catalogue fails to read, as a damaged record does.
    from access_parser import access_parser

    from bridge.bridgemate import table_rows

    path = tmp_path / "damaged.bws"
    path.write_bytes(real_access_file)
    database = AccessParser(str(path))
    real = access_parser.AccessTable._parse_row
    seen = []

    def damaged(self, record):
        seen.append(record)
        if len(seen) == 3:
            raise ValueError("stream read less than specified amount")
        return real(self, record)

    monkeypatch.setattr(access_parser.AccessTable, "_parse_row", damaged)
    rows, lost = table_rows(database, "MSysObjects")
    full = AccessParser(str(path)).parse_table("MSysObjects")["Name"]
    assert lost == 1 and [r["Name"] for r in rows] == full[:2] + full[3:]


class _Database:
    """A database whose catalogue holds ReceivedData and a Section table that cannot be read."""

    catalog = {"ReceivedData": 1, "Section": 2}


def test_a_section_table_that_does_not_parse_is_a_warning_not_a_refusal(monkeypatch):
    import access_parser

    import bridge.bridgemate as bridgemate

    def rows_of(database, name):
        if name == "Section":
            raise ValueError("damaged page")
        return [row(), row(ID=2, Table=2, PairNS=2, PairEW=5)], 0

    monkeypatch.setattr(access_parser, "AccessParser", lambda path: _Database())
    monkeypatch.setattr(bridgemate, "table_rows", rows_of)
    session = read_bws(b"\x00\x01\x00\x00Standard Jet DB\x00", isolated=False)
    assert len(session.results) == 2 and {r.section for r in session.results} == {"1"}
    assert [str(w) for w in session.warnings] == [
        "Section: the table could not be read whole: sections without a letter are named by their numbers"
    ]


def test_reading_a_database_is_bounded_in_time(real_access_file):
    # A hostile database (pointers that loop) would read forever: the child process reading it
    # is stopped. A real file takes far longer than a thousandth of a second to start reading.
    with pytest.raises(BridgemateError) as caught:
        read_bws(real_access_file, seconds=0.001)
    assert str(caught.value) == (
        "the Bridgemate file: reading the database took longer than 0.001 seconds: the file is not read (a "
        "Bridgemate file of a session is read in well under a second)"
    )
