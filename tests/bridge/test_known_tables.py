"""Double-dummy tables known before (bridge.deals.know_tables): a known deal is read from its
table, not solved, and gives what the solver gives, par included (issue #42: the demo ships its
deals' tables so that building it does not solve them again)."""

import pytest

from bridge import deals
from bridge.deals import DealError, double_dummy, generate_deal, par, parse_deal

EXAMPLE = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"
# endplay's rows for EXAMPLE: spades, hearts, diamonds, clubs, NT; columns N, E, S, W.
EXAMPLE_ROWS = [[10, 3, 10, 3], [11, 2, 10, 2], [7, 5, 8, 5], [7, 6, 7, 6], [11, 2, 10, 2]]


@pytest.fixture
def known():
    """deals' known tables as the test leaves them: emptied again afterwards."""
    saved, solved = dict(deals._KNOWN), deals._SOLVED
    yield deals
    deals._KNOWN.clear()
    deals._KNOWN.update(saved)
    deals._SOLVED = solved
    deals._solve.cache_clear()


@pytest.fixture
def no_solver(monkeypatch):
    from endplay import dds

    def refuse(*args, **kwargs):
        raise AssertionError("the solver was asked")

    monkeypatch.setattr(dds, "calc_dd_table", refuse)


def test_a_known_deal_is_read_from_its_table_and_not_solved(known, no_solver):
    known.know_tables({parse_deal(EXAMPLE).to_pbn(): EXAMPLE_ROWS})
    assert double_dummy(parse_deal(EXAMPLE)) == {
        "N": {"C": 7, "D": 7, "H": 11, "S": 10, "NT": 11},
        "E": {"C": 6, "D": 5, "H": 2, "S": 3, "NT": 2},
        "S": {"C": 7, "D": 8, "H": 10, "S": 10, "NT": 10},
        "W": {"C": 6, "D": 5, "H": 2, "S": 3, "NT": 2},
    }
    # par is computed from the known table as from a solved one
    assert par(parse_deal(EXAMPLE), "N", "None") == {
        "score": 460,
        "contracts": [{"contract": "3NT", "declarer": "N", "tricks": 11}],
    }


def test_the_tables_solved_while_recording_are_the_solvers_and_known_ones_are_not_among_them(known):
    known.know_tables({parse_deal(EXAMPLE).to_pbn(): EXAMPLE_ROWS})
    known.record_solved()
    double_dummy(parse_deal(EXAMPLE))
    other = generate_deal(5)
    double_dummy(other)
    assert known.solved_tables() == {other.to_pbn(): known._solve(other.to_pbn()).to_list()}
    assert list(known.solved_tables()) == [other.to_pbn()]


@pytest.mark.parametrize(
    "rows",
    [
        [[10, 3, 10, 3]] * 4,  # four strains
        [[10, 3, 10]] * 5,  # three declarers
        [[10, 3, 10, 14]] * 5,  # fourteen tricks
    ],
)
def test_a_table_that_is_not_five_rows_of_four_tricks_is_refused_naming_the_deal(known, rows):
    pbn = parse_deal(EXAMPLE).to_pbn()
    with pytest.raises(DealError) as caught:
        known.know_tables({pbn: rows})
    assert str(caught.value) == f"{pbn}: a double-dummy table has 5 rows of 4 tricks from 0 to 13"
    assert caught.value.field == "deal"
    assert pbn not in known._KNOWN
