"""The law catalogue (rulings.laws): plain data, no database."""

import pytest

from rulings.laws import (
    EDITIONS, CitationError, children, load, normalise_citation, title, validate_citation)


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_edition_has_laws_1_to_93(edition):
    laws = [entry.number for entry in load(edition) if entry.parent is None]
    assert laws == [str(n) for n in range(1, 94)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_entry_has_its_parent_before_it(edition):
    seen = set()
    for entry in load(edition):
        assert entry.parent is None or entry.parent in seen, entry.number
        assert entry.number.startswith(str(entry.law))
        assert normalise_citation(entry.number) == entry.number
        assert entry.titles["en"]
        seen.add(entry.number)


@pytest.mark.parametrize("edition", EDITIONS)
def test_unverified_entries_carry_the_law_title(edition):
    for entry in load(edition):
        if not entry.verified and entry.parent is not None:
            assert entry.title() == title(edition, str(entry.law))


@pytest.mark.parametrize("edition", EDITIONS)
def test_92B_exists_in_every_edition(edition):
    assert validate_citation(edition, "Law 92B").number == "92B"


def test_12C9_does_not_exist_in_2007_and_the_message_names_the_real_sub_sections():
    with pytest.raises(CitationError) as error:
        validate_citation("2007", "12C9")
    assert str(error.value) == "Law 12C9 does not exist in the 2007 Laws: Law 12C has 12C1 to 12C4"
    assert [e.number for e in children("2007", "12C")] == ["12C1", "12C2", "12C3", "12C4"]


def test_artificial_adjusted_score_is_12C1_in_1997_and_12C2_in_2007():
    assert "artificial" in title("1997", "12C1").lower()
    assert "artificial" not in title("1997", "12C2").lower()
    assert "artificial" in title("2007", "12C2").lower()
    assert "artificial" not in title("2007", "12C1").lower()


def test_64A2_exists_in_1997_and_2007_with_different_transfers():
    assert "two tricks" in title("1997", "64A2")
    assert "one trick" in title("2007", "64A2")


def test_law_94_and_malformed_citations():
    with pytest.raises(CitationError, match=r"^Law 94 does not exist: the Laws have 93 laws$"):
        validate_citation("2017", "94")
    with pytest.raises(CitationError) as error:
        validate_citation("2007", "12X")
    assert str(error.value) == "'12X' is not a law citation: write the law number and sub-section, e.g. 12C1c"
    with pytest.raises(ValueError):
        validate_citation("2009", "12")


def test_a_sub_section_of_an_undivided_law():
    with pytest.raises(CitationError, match="Law 83A does not exist in the 2007 Laws: Law 83 has no sub-sections"):
        validate_citation("2007", "83A")


@pytest.mark.parametrize("text, expected", [
    ("Law 12C1c", "12C1c"),
    ("12 C 1 (c)", "12C1c"),
    ("L12C1c", "12C1c"),
    ("12c1c", "12C1c"),
    ("LAW 12C1C", "12C1c"),
    ("Law 92 B", "92B"),
    ("law 16b1(a)", "16B1a"),
    ("12C(1)(c)", "12C1c"),
    ("71(1)", "71.1"),
    ("Law 71.2", "71.2"),
    (" 40 ", "40"),
    ("92.B", "92B"),
    ("Law 64A2.", "64A2"),
])
def test_normalise_citation(text, expected):
    assert normalise_citation(text) == expected


@pytest.mark.parametrize("text", ["", "Law", "12X", "C12", "12C1c(ii)", "twelve"])
def test_not_a_citation(text):
    with pytest.raises(CitationError, match="is not a law citation"):
        normalise_citation(text)


def test_titles_from_the_seeds():
    assert title("2007", "16", language="he") == "מידע מורשה ובלתי מורשה"
    assert title("1997", "64", language="nl") == "De gang van zaken na het voldongen worden van een verzaking"
    assert title("1997", "Law 64 A 2", language="nl") == "Overtreder heeft de slag waarin verzaakt is, niet gemaakt"


@pytest.mark.parametrize("edition, languages", [
    ("2007", {"en", "he", "uk", "is", "el", "nl"}), ("2017", {"en", "he", "uk", "is", "el", "nl"}),
    ("1997", {"en", "nl"}),
])
def test_every_entry_has_a_title_in_each_language_of_its_edition(edition, languages):
    for entry in load(edition):
        assert set(entry.titles) == languages, entry.number
        assert all(text.strip() for text in entry.titles.values()), entry.number


def test_a_title_from_a_published_text_is_kept_and_not_marked_as_translated():
    entry = {e.number: e for e in load("2007")}["16"]
    assert entry.titles["he"] == "מידע מורשה ובלתי מורשה"
    assert "he" not in entry.translated
    assert set(entry.translated) == {"uk", "is", "el", "nl"}


def test_translated_titles():
    assert title("2017", "16", language="he") != title("2017", "16")
    assert title("2007", "16", language="uk") == title("2017", "16", language="uk")
    assert title("2017", "12C1", language="el") != title("2017", "12C1")


def test_titles_fall_back_to_english():
    assert title("1997", "12", language="he") == title("1997", "12") == "Director's Discretionary Powers"
    assert title("2007", "12", language="xx") == title("2007", "12")


def test_the_structure_is_per_edition():
    assert [e.number for e in children("1997", "71")] == ["71A", "71B", "71C"]
    assert [e.number for e in children("2007", "71")] == ["71.1", "71.2"]
    assert "withdrawn" in title("2007", "16D").lower()
    assert "withdrawn" in title("2017", "16C").lower()
    with pytest.raises(CitationError, match="Law 64B7 does not exist in the 1997 Laws: Law 64B has 64B1 to 64B6"):
        validate_citation("1997", "64B7")


def test_load_is_cached_and_returns_a_fresh_list():
    first = load("2007")
    first.clear()
    assert len(load("2007")) > 700
