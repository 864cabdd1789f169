"""A discrete VP scale read from data or typed as CSV text (issue #15): ``parse_scale`` names the
table, the row and the field of a fault; ``scale_from_csv`` names the line.

The tables here are made up for the tests (TEST TABLES, no body's scale)."""

import pytest

from bridge.engine.scores import EngineInputError
from bridge.engine.vp import ScaleError, parse_scale, scale_from_csv, victory_points

TEST_TABLE = {"name": "test-table", "max_vp": 20, "tables": {"6-8": [[0, 10, 10], [4, 14, 6], [10, 20, 0]]}}


def refusal(data):
    with pytest.raises(ScaleError) as caught:
        parse_scale(data)
    return str(caught.value), caught.value.field


def test_a_scale_from_a_dict():
    scale = parse_scale(TEST_TABLE)
    assert (scale.name, scale.max_vp, sorted(scale.tables)) == ("test-table", 20, [6, 7, 8])
    assert victory_points(5, 7, scale) == (14, 6)
    assert victory_points(-10, 8, scale) == (0, 20)
    assert victory_points(3, 6, scale) == (10, 10)


@pytest.mark.parametrize(
    "tables, message, field",
    [
        ({"8": [[1, 10, 10]]}, "the 8-board table, row 1, imps_from: the table must start at 0, not 1", "imps_from"),
        ({"8": [[0, 10, 10], [4, 12, 8], [4, 13, 7]]}, "the 8-board table, row 3, imps_from: the margins must increase: 4 after 4", "imps_from"),
        ({"8": [[0, 10, 10], [4, 12, 8], [6, 11, 8]]}, "the 8-board table, row 3, winner_vp: the winner's VPs must not fall: 11 after 12", "winner_vp"),
        ({"8": [[0, 10, 10], [4, 12, 9]]}, "the 8-board table, row 2, loser_vp: 12 + 9 VPs is more than the scale's 20", "loser_vp"),
        ({"8": [[0, 10, 10], [4, 12, 7], [6, 12, 8]]}, "the 8-board table, row 3, loser_vp: the loser's VPs must not rise: 8 after 7", "loser_vp"),
        ({"8": [[0, 11, 9]]}, "the 8-board table, row 1, loser_vp: a tie (margin 0) gives both teams the same VPs", "loser_vp"),
        ({"8": [[0, 10, 10], [3, 8, 12]]}, "the 8-board table, row 2, winner_vp: the winner gets fewer VPs than the loser", "winner_vp"),
        ({"8": [[0, 10, 10], [3, "x", 9]]}, "the 8-board table, row 2, winner_vp: 'x' is not a number", "winner_vp"),
        ({"sixteen": [[0, 10, 10]]}, "the scale, boards: 'sixteen' is not a number of boards (16) or a range (6-8)", "boards"),
        ({"8-6": [[0, 10, 10]]}, "the scale, boards: '8-6' is not a number of boards (16) or a range (6-8)", "boards"),
        ({"6-8": [[0, 10, 10]], "8": [[0, 10, 10]]}, "the 8-board table, boards: 8 boards already have a table (6-8)", "boards"),
        ({"8": []}, "the 8-board table, tables: the table has no rows", "tables"),
        ({}, "the scale, tables: a scale needs at least one table", "tables"),
    ],
)  # fmt: skip
def test_a_bad_table_is_refused_naming_the_table_row_and_field(tables, message, field):
    assert refusal({**TEST_TABLE, "tables": tables}) == (message, field)


def test_csv_lines_give_the_tables():
    scale, data = scale_from_csv(
        "boards,imps_from,winner_vp,loser_vp\n# a test table\n6-8,0,10,10\n6-8,4,14,6\n\n6-8,10,20,0\n",
        name="test-table",
        max_vp="20",
        source="test",
    )
    assert data["tables"] == {"6-8": [["0", "10", "10"], ["4", "14", "6"], ["10", "20", "0"]]}
    assert parse_scale(data) == scale
    assert victory_points(-4, 6, scale) == (6, 14)


@pytest.mark.parametrize(
    "text, message",
    [
        ("8,0,10,10\n8,3,12,8\n8,9,11,9", "line 3, winner_vp: the winner's VPs must not fall: 11 after 12"),
        ("8,0,10,10\n8,0,12,8", "line 2, imps_from: the margins must increase: 0 after 0"),
        ("8,0,10,10\n8,3,1x,8", "line 2, winner_vp: '1x' is not a number"),
        ("8,0,10,10\neight,3,12,8", "line 2, boards: 'eight' is not a number of boards (16) or a range (6-8)"),
        ("8,0,10,10\n8,3,12", "line 2: 3 values: a line is boards,imps_from,winner_vp,loser_vp"),
        ("16,2,10,10", "line 1, imps_from: the table must start at 0, not 2"),
        ("# nothing\n", "tables: no line gives a band: one a line, boards,imps_from,winner_vp,loser_vp"),
    ],
)
def test_a_bad_csv_line_is_refused_naming_the_line_and_field(text, message):
    with pytest.raises(EngineInputError) as caught:
        scale_from_csv(text, name="test-table", max_vp=20)
    assert str(caught.value) == message
