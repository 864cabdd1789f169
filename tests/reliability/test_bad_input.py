"""Issue #19: bad input gets a clear refusal, never a crash."""

from pathlib import Path

import pytest

from bridge.lin import LinError, parse_lin

BOARD7 = (Path(__file__).resolve().parents[1] / "fixtures" / "lin" / "board7.lin").read_text().strip()


def test_a_lin_play_of_14_tricks_is_refused_with_what_is_wrong_not_a_type_error():
    # Board 7 plays four tricks; ten more of any cards make 14.
    with pytest.raises(LinError) as error:
        parse_lin(BOARD7 + "pc|SA|" * 40)
    assert str(error.value) == "pc: 14 tricks: a board has 13"


@pytest.mark.parametrize("link", ["http://]", "https://[", "http://]?lin=md|1|", "www.]/?lin=md|1|"])
def test_a_link_that_is_no_address_is_refused_by_the_reader_itself(link):
    with pytest.raises(LinError, match="is not a link that can be read"):
        parse_lin(link)
