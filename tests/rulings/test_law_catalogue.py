"""The law catalogue (rulings.laws): plain data, no database (but for the migrations' check)."""

import filecmp
import json
import shutil

import pytest

from rulings.laws import (
    EDITIONS,
    CitationError,
    children,
    extract_seeds,
    load,
    normalise_citation,
    title,
    validate_citation,
)


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
    assert (
        str(error.value)
        == "Law 12C9 does not exist in the 2007 Laws: the sub-sections of Law 12C run from 12C1 to 12C4"
    )
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


@pytest.mark.parametrize(
    "text, expected",
    [
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
        ("40B2(a)(ii)", "40B2a"),
        ("Law 12C1e (i)", "12C1e"),
        ("80B2(i)", "80B2i"),
    ],
)
def test_normalise_citation(text, expected):
    assert normalise_citation(text) == expected


@pytest.mark.parametrize("text", ["", "Law", "12X", "C12", "12C1(ii)", "12C1c(q)", "12C1cii", "twelve"])
def test_not_a_citation(text):
    with pytest.raises(CitationError, match="is not a law citation"):
        normalise_citation(text)


def test_titles_from_the_seeds():
    assert title("2007", "16", language="he") == "מידע מורשה ובלתי מורשה"
    assert title("1997", "64", language="nl") == "De gang van zaken na het voldongen worden van een verzaking"
    assert title("1997", "Law 64 A 2", language="nl") == "Overtreder heeft de slag waarin verzaakt is, niet gemaakt"


@pytest.mark.parametrize(
    "edition, languages",
    [
        ("2007", {"en", "he", "uk", "is", "el", "nl"}),
        ("2017", {"en", "he", "uk", "is", "el", "nl"}),
        ("1997", {"en", "nl"}),
    ],
)
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
    with pytest.raises(
        CitationError,
        match="Law 64B7 does not exist in the 1997 Laws: the sub-sections of Law 64B run from 64B1 to 64B6",
    ):
        validate_citation("1997", "64B7")


def test_load_is_cached_and_returns_a_fresh_list():
    first = load("2007")
    first.clear()
    assert len(load("2007")) > 700


# ---------------------------------------------------------------------------------------------
# Every citation form a director writes, in each edition: the entry cited, or the exact message.

NOT_A_CITATION = "{!r} is not a law citation: write the law number and sub-section, e.g. 12C1c"


def _absent(number, edition, ancestor, has):
    """The refusal's whole sentence: ``has`` is "no sub-sections", "only X" or "X to Y"."""
    start = f"Law {number} does not exist in the {edition} Laws: "
    if has == "no sub-sections":
        return start + f"Law {ancestor} has no sub-sections"
    if has.startswith("only "):
        return start + f"the only sub-section of Law {ancestor} is {has[5:]}"
    first, last = has.split(" to ")
    return start + f"the sub-sections of Law {ancestor} run from {first} to {last}"


CITATIONS = [
    # (text, {edition: the number cited, or the error message})
    ("12C1c", {"1997": _absent("12C1c", "1997", "12C1", "no sub-sections"), "2007": "12C1c", "2017": "12C1c"}),
    ("Law 12 C 1 (c)", {"1997": _absent("12C1c", "1997", "12C1", "no sub-sections"), "2007": "12C1c", "2017": "12C1c"}),
    ("16B1a", {"1997": _absent("16B1a", "1997", "16B", "no sub-sections"), "2007": "16B1a", "2017": "16B1a"}),
    ("law 16b1(a)", {"1997": _absent("16B1a", "1997", "16B", "no sub-sections"), "2007": "16B1a", "2017": "16B1a"}),
    ("L16B", {"1997": "16B", "2007": "16B", "2017": "16B"}),
    # Roman numerals are not catalogued: their parent is cited.
    ("40B2(a)(ii)", {"1997": _absent("40B2a", "1997", "40B", "no sub-sections"), "2007": "40B2a", "2017": "40B2a"}),
    ("12C1e(i)", {"1997": _absent("12C1e", "1997", "12C1", "no sub-sections"), "2007": "12C1e", "2017": "12C1e"}),
    ("20F5(b)(ii)", {"1997": _absent("20F5b", "1997", "20F", "20F1 to 20F2"), "2007": "20F5b", "2017": "20F5b"}),
    ("6D1", {"1997": _absent("6D1", "1997", "6D", "no sub-sections"), "2007": "6D1", "2017": "6D1"}),
    ("13A", {"1997": _absent("13A", "1997", "13", "no sub-sections"), "2007": "13A", "2017": "13A"}),
    ("24B", {"1997": "24B", "2007": "24B", "2017": "24B"}),
    (
        "Law 23C",
        {
            "1997": _absent("23C", "1997", "23", "no sub-sections"),
            "2007": _absent("23C", "2007", "23", "no sub-sections"),
            "2017": "23C",
        },
    ),
    (
        "72C",
        {
            "1997": _absent("72C", "1997", "72", "72A to 72B"),
            "2007": _absent("72C", "2007", "72", "72A to 72B"),
            "2017": "72C",
        },
    ),
    ("71.1", {"1997": _absent("71.1", "1997", "71", "71A to 71C"), "2007": "71.1", "2017": "71.1"}),
    (
        "71A",
        {
            "1997": "71A",
            "2007": _absent("71A", "2007", "71", "71.1 to 71.2"),
            "2017": _absent("71A", "2017", "71", "71.1 to 71.2"),
        },
    ),
    ("17E", {"1997": "17E", "2007": "17E", "2017": _absent("17E", "2017", "17", "17A to 17D")}),
    ("64B7", {"1997": _absent("64B7", "1997", "64B", "64B1 to 64B6"), "2007": "64B7", "2017": "64B7"}),
    ("93C3a", {"1997": _absent("93C3a", "1997", "93C", "no sub-sections"), "2007": "93C3a", "2017": "93C3a"}),
    # Made up.
    ("12Z", {edition: NOT_A_CITATION.format("12Z") for edition in EDITIONS}),
    ("99A", {edition: "Law 99 does not exist: the Laws have 93 laws" for edition in EDITIONS}),
    ("0", {edition: "Law 0 does not exist: the Laws have 93 laws" for edition in EDITIONS}),
    (
        "16B9",
        {
            "1997": _absent("16B9", "1997", "16B", "no sub-sections"),
            "2007": _absent("16B9", "2007", "16B", "16B1 to 16B3"),
            "2017": _absent("16B9", "2017", "16B", "16B1 to 16B3"),
        },
    ),
    ("2B", {edition: _absent("2B", edition, "2", "no sub-sections") for edition in EDITIONS}),
    (
        "1D",
        {
            "1997": _absent("1D", "1997", "1", "no sub-sections"),
            "2007": _absent("1D", "2007", "1", "no sub-sections"),
            "2017": _absent("1D", "2017", "1", "1A to 1C"),
        },
    ),
]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("text, expected", CITATIONS, ids=[text for text, _ in CITATIONS])
def test_the_citations_a_director_writes(edition, text, expected):
    want = expected[edition]
    if " " in want:
        with pytest.raises(CitationError) as error:
            validate_citation(edition, text)
        assert str(error.value) == want
    else:
        assert validate_citation(edition, text).number == want


# ---------------------------------------------------------------------------------------------
# The 2017 edition: every law with its sections, and the 2007 structure but where 2017 changed it.

# The sections (letters) of each 2017 law that has any; 71 has the numbered items 71.1 and 71.2.
SECTIONS_2017 = {
    1: "ABC",
    5: "AB",
    6: "ABCDEF",
    7: "ABCD",
    8: "ABC",
    9: "ABC",
    10: "ABC",
    11: "AB",
    12: "ABC",
    13: "ABCDEF",
    14: "ABC",
    15: "ABCD",
    16: "ABCD",
    17: "ABCD",
    18: "ABCDEF",
    19: "ABCD",
    20: "ABCDEFG",
    21: "AB",
    22: "AB",
    23: "ABC",
    24: "ABC",
    25: "AB",
    26: "AB",
    27: "ABCD",
    28: "AB",
    29: "ABC",
    30: "ABC",
    31: "ABC",
    32: "AB",
    35: "ABCD",
    36: "AB",
    37: "AB",
    38: "ABCD",
    39: "ABC",
    40: "ABC",
    41: "ABCD",
    42: "AB",
    43: "AB",
    44: "ABCDEFG",
    45: "ABCDEFG",
    46: "AB",
    47: "ABCDEF",
    48: "AB",
    50: "ABCDE",
    51: "AB",
    52: "AB",
    53: "ABC",
    54: "ABCDE",
    55: "ABC",
    57: "ABC",
    58: "AB",
    60: "ABC",
    61: "AB",
    62: "ABCD",
    63: "AB",
    64: "ABC",
    65: "ABCD",
    66: "ABCD",
    67: "AB",
    68: "ABCD",
    69: "AB",
    70: "ABCDE",
    72: "ABC",
    73: "ABCDE",
    74: "ABC",
    75: "ABC",
    76: "ABCD",
    78: "ABCD",
    79: "ABC",
    80: "AB",
    81: "ABCD",
    82: "ABC",
    84: "ABCD",
    85: "AB",
    86: "ABCD",
    87: "AB",
    90: "AB",
    91: "AB",
    92: "ABCD",
    93: "ABC",
}
# The 2017 laws printed as one undivided text.
UNDIVIDED_2017 = {2, 3, 4, 33, 34, 49, 56, 59, 77, 83, 88, 89}

# The 2007 citations the 2017 Laws no longer have, and why. Every other 2007 citation is a
# 2017 citation too (not always of the same text: 16C and 16D changed places).
REMOVED_IN_2017 = {
    **dict.fromkeys(
        ["16C2a", "16C2b", "16C2c", "16C2d", "16C3"],
        "16C and 16D changed places: the Director's options on extraneous information from other "
        "sources are 16D2(a)-(d) and 16D3; 16C (withdrawn calls and plays) has only 16C1 and 16C2",
    ),
    **dict.fromkeys(
        ["17D3", "17D4", "17E", "17E1", "17E2"],
        "cards taken from the wrong board (2007 17D1-4) moved to Law 15, Wrong Board or Hand; "
        "the end of the auction period (2007 17E) is 17D, with two items",
    ),
    **dict.fromkeys(
        ["26A1", "26A2", "26A2a", "26A2b"],
        "Law 26 no longer lets declarer require a lead or choose between options: he may only "
        "prohibit the lead of one suit the offender did not specify",
    ),
    "73F": "the violation of proprieties (2007 73F) became 73E2, false inference from an opponent's action",
    **dict.fromkeys(
        ["30B2a", "30B2b", "30B3"],
        "2017 30A is the pass at RHO's turn, 30B the pass at partner's or LHO's turn (30B1(a), 30B1(b), "
        "30B2): the 2007 30B2(a)-(b) and 30B3 are not so numbered any more",
    ),
}


def test_every_2017_law_has_its_sections():
    assert set(SECTIONS_2017) | UNDIVIDED_2017 | {71} == set(range(1, 94))
    assert not set(SECTIONS_2017) & UNDIVIDED_2017
    for law in range(1, 94):
        found = [entry.number for entry in children("2017", str(law))]
        if law in UNDIVIDED_2017:
            expected = []
        elif law == 71:
            expected = ["71.1", "71.2"]
        else:
            expected = [f"{law}{letter}" for letter in SECTIONS_2017[law]]
        assert found == expected, law


def test_the_2017_catalogue_has_every_2007_citation_the_2017_laws_kept():
    in_2017 = {entry.number for entry in load("2017")}
    lost = [entry.number for entry in load("2007") if entry.number not in in_2017]
    assert sorted(lost) == sorted(REMOVED_IN_2017)
    for number in REMOVED_IN_2017:
        with pytest.raises(CitationError, match=f"^Law {number} does not exist in the 2017 Laws"):
            validate_citation("2017", number)


def test_the_2017_catalogue_has_the_2017_changes():
    assert "comparable" in title("2017", "23").lower()
    assert [e.number for e in children("2017", "23A")] == ["23A1", "23A2", "23A3"]
    assert title("2017", "72C") == title("2007", "23") == "Awareness of Potential Damage"
    assert "extraneous" in title("2017", "16D").lower() and "withdrawn" in title("2017", "16C").lower()
    assert "end of the auction period" in title("2017", "17D").lower()
    assert "wrong board" in title("2007", "17D").lower()
    assert [e.number for e in children("2017", "73E")] == ["73E1", "73E2"]


# ---------------------------------------------------------------------------------------------
# The English source (data/source) and the data files built from it.


def test_the_english_source_is_data_and_the_python_source_is_gone():
    assert not (extract_seeds.DATA_DIR.parent / "titles_en.py").exists()
    for edition in EDITIONS:
        rows = extract_seeds.read_english(edition)
        assert [(e.number, e.verified) for e in load(edition)] == [(n, v) for n, _, v in rows]
        english = {number: text for number, text, _ in rows}
        for entry in load(edition):
            assert entry.title() == (english[entry.number] or english[str(entry.law)]), entry.number


def test_the_data_files_are_rebuilt_from_the_english_source_without_the_seeds(tmp_path, monkeypatch, capsys):
    for edition in EDITIONS:
        shutil.copy(extract_seeds.DATA_DIR / f"laws_{edition}.json", tmp_path)
    monkeypatch.setattr(extract_seeds, "DATA_DIR", tmp_path)
    extract_seeds.main([])
    for edition in EDITIONS:
        name = f"laws_{edition}.json"
        assert filecmp.cmp(tmp_path / name, extract_seeds.SOURCE_DIR.parent / name, shallow=False), name
    extract_seeds.main(["--translations-only"])
    for edition in EDITIONS:
        name = f"laws_{edition}.json"
        assert filecmp.cmp(tmp_path / name, extract_seeds.SOURCE_DIR.parent / name, shallow=False), name
    assert "laws_2017.json: " in capsys.readouterr().out


@pytest.mark.parametrize(
    "entries, error",
    [
        ([{"number": "1", "title": "One"}, {"number": "1A1", "title": "Early"}], "1A1 comes before its parent 1A"),
        ([{"number": "1", "title": "One"}, {"number": "1", "title": "Again"}], "bad or repeated number '1'"),
        ([{"number": "1", "title": "One"}, {"number": "1a", "title": "Lower"}], "bad or repeated number '1a'"),
        ([{"number": "1", "title": None}], "law 1 has no title"),
        (
            [{"number": "1", "title": "One"}, {"number": "1A", "title": "A", "verified": False}],
            "only a law may be marked",
        ),
        ([{"number": "1", "title": "One", "note": "x"}], "bad entry"),
        ([{"number": "1", "title": " "}], "empty title"),
    ],
)
def test_the_english_source_is_checked(tmp_path, monkeypatch, entries, error):
    (tmp_path / "titles_en_2017.json").write_text(json.dumps(entries), encoding="utf-8")
    monkeypatch.setattr(extract_seeds, "SOURCE_DIR", tmp_path)
    with pytest.raises(ValueError, match=error):
        extract_seeds.read_english("2017")


def test_a_new_entry_without_a_translation_is_refused():
    rows = [{"number": "1", "law": 1, "parent": None, "titles": {"en": "A title nobody translated"}, "verified": True}]
    with pytest.raises(ValueError, match="no he translation of 'A title nobody translated'"):
        extract_seeds.add_translations("2017", rows)


@pytest.mark.django_db
def test_the_migrations_load_the_whole_catalogue():
    """Runs the catalogue's data migrations into an empty table: a test with transactions earlier
    in the same process ends with a flush, so what migrate loaded may be gone by now. The models
    the last migration leaves are the app's own (makemigrations --check holds), so they are given."""
    from django.apps import apps
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    from rulings.models import LawEntry

    LawEntry.objects.all().delete()
    loader = MigrationLoader(connection, load=True)
    for name in (
        "0002_law_catalogue",
        "0004_law_titles_in_six_languages",
        "0005_complete_law_catalogue",
        "0019_law_catalogue_2017_lettering",
        "0021_law_catalogue_1997_paragraphs",
    ):
        for operation in loader.get_migration("rulings", name).operations:
            operation.code(apps, None)
    for edition in EDITIONS:
        stored = dict(LawEntry.objects.filter(edition=edition).values_list("number", "title"))
        assert stored == {entry.number: entry.title() for entry in load(edition)}, edition
    entry = LawEntry.objects.get(edition="2017", number="13A")
    assert entry.parent == "13" and set(entry.titles) == {"en", "he", "uk", "is", "el", "nl"}


# ---------------------------------------------------------------------------------------------
# Issue #39: the 2017 Laws 26, 30, 31 and 32 lettered as the 2017 text letters them (the 2017
# English text of the Laws, as the PZBS publishes it: www.pzbs.pl/sedziowie/mpb/2017/en/l31.html).


@pytest.mark.parametrize(
    "law, children_2017, children_2007",
    [
        ("26", ["26A", "26B"], ["26A", "26B"]),
        ("30", ["30A", "30B", "30C"], ["30A", "30B", "30C"]),
        ("30B", ["30B1", "30B2"], ["30B1", "30B2", "30B3"]),
        ("30B1", ["30B1a", "30B1b"], []),
        ("31", ["31A", "31B", "31C"], ["31A", "31B"]),
        ("31B", ["31B1", "31B2"], []),
        ("32A", ["32A1", "32A2"], []),
        ("32A2", ["32A2a", "32A2b"], None),  # 2007 32A has no sub-sections
        ("32B", ["32B1", "32B2"], ["32B1", "32B2"]),
    ],
)
def test_the_2017_laws_26_and_30_to_32_are_lettered_as_the_2017_text(law, children_2017, children_2007):
    assert [e.number for e in children("2017", law)] == children_2017
    if children_2007 is not None:
        assert [e.number for e in children("2007", law)] == children_2007


def test_the_2017_titles_say_the_2017_rectification():
    # 31A2(b): "offender's partner must pass when next it is his turn to call" (2007: throughout).
    assert title("2017", "31A2b") == "Call not comparable: partner must pass at his next turn"
    assert "throughout" in title("2007", "31A2b")
    # 31A2(a): "When the call is a comparable call ... there is no further rectification".
    assert "comparable" in title("2017", "31A2a").lower() and "denomination" in title("2007", "31A2a")
    # 32A is the RHO's turn in 2017, the partner's turn in 2007; 32B the other way round.
    assert title("2017", "32A") == "RHO's Turn to Call" and "Partner" in title("2007", "32A")
    assert title("2017", "32B") == "Offender's Partner's Turn to Call" and "RHO" in title("2007", "32B")
    assert "repeats the double" in title("2017", "32A1")
    # 30A: the pass at RHO's turn (2007: before any player has bid); 31C: later bids, Law 25.
    assert title("2017", "30A") == "At RHO's Turn to Call" and "Before" in title("2007", "30A")
    assert "Law 25" in title("2017", "31C")
    # 26A, 26B: a comparable call or not (2017 26 has no 26A1, 26A2).
    assert "comparable" in title("2017", "26A") and "prohibit" in title("2017", "26B")
    for number in ("26A", "26B", "30A", "30B1a", "30B1b", "31A2a", "31A2b", "31C", "32A2a", "32A2b", "32B2"):
        assert validate_citation("2017", number).verified, number
        assert {"en", "he", "uk", "is", "el", "nl"} <= set(validate_citation("2017", number).titles), number


@pytest.mark.django_db
def test_the_2007_lettering_left_in_the_2017_catalogue_is_removed_unless_cited(field, director):
    from rulings import services
    from rulings.catalogue import remove_stale_entries
    from rulings.models import LawEntry, Ruling, RulingCitation

    for number in ("30B2a", "30B3"):
        LawEntry.objects.create(edition="2017", number=number, law=30, parent="30B2", title="stale", titles={})
    ruling = services.record_ruling(director=director, kind=Ruling.Kind.LAW_APPLIED, result=field.results[6])
    RulingCitation.objects.create(ruling=ruling, law=LawEntry.objects.get(edition="2017", number="30B3"))
    assert remove_stale_entries() == (["2017 30B2a"], ["2017 30B3"])
    assert not LawEntry.objects.filter(edition="2017", number="30B2a").exists()


def test_the_1997_paragraphs_the_rectifications_name_are_catalogued():
    """1997 26A1 ("Suit Specified by Offender"), 26A2 ("Suit Not Specified") and 27B1(a), 27B1(b)
    (issue #39): each rectification of the 1997 Laws 26 and 27 cites its own paragraph."""
    assert [e.number for e in children("1997", "26A")] == ["26A1", "26A2"]
    assert [e.number for e in children("1997", "27B1")] == ["27B1a", "27B1b"]
    assert "later" in title("1997", "26A1") and "require or prohibit" in title("1997", "26A2")
    assert "Adjusted score" in title("1997", "27B1b")
    assert title("1997", "27B1a", language="nl").startswith("Laagste voldoende bod")
