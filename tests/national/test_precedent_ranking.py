"""Precedents ranked as a director would rank them (issue #34), on a set of published cases: the
laws grouped by subject and read across editions, the kind of adjusted score as a likeness of its
own (not a shared Law 12 citation), the structure of the facts and the outcome, and a floor below
which nothing is suggested. For each of the six kinds of ruling the issue tried, the expected case
comes first and nothing below the floor is offered; where nothing is alike the page says so."""

import pytest
from django.template import Context, Template
from django.test import RequestFactory

from national import likeness, precedent_selectors, precedents
from rulings.models import Ruling
from tests.appeals.conftest import case  # noqa: F401 - a fixture
from tests.conftest import ruling_at
from tests.national.test_casebooks import decided  # noqa: F401 - a fixture
from tests.national.test_precedents import _auction, library, past_casebook, sent  # noqa: F401 - fixtures

SLOW_DOUBLE = _auction("N", "1S 2H 2S 3H X P 4S P P P".split(), tempo=(4, 20))  # North's slow double of 3H
ALERTED_2C = _auction("E", "1NT 2C P P P".split(), alert=(1, "natural"))

# The published cases: title -> (laws with their edition, kind, year, ruling outcome, score kind,
# facts, auction).
CASES = {
    "Slow double": (
        [("16B1a", "2017")],
        "ui",
        2024,
        "adjusted",
        "assigned",
        "North doubled 3H after a long pause; South bid 4S.",
        SLOW_DOUBLE,
    ),
    "Weighted by the committee": (
        [("16B1a", "2017"), ("12C1c", "2017")],
        "ui",
        2023,
        "adjusted",
        "weighted",
        "East passed slowly; the committee weighted 60% of 4S= and 40% of 4S-1.",
        None,
    ),
    "Wrong explanation": (
        [("20F1", "2017"), ("21B1a", "2017")],
        "mi",
        2022,
        "adjusted",
        "assigned",
        "2C was explained as natural; it showed the majors.",
        ALERTED_2C,
    ),
    "Claim, trump outstanding": (
        [("70C1", "2017")],
        "claim",
        2021,
        "adjusted",
        "assigned",
        "Declarer claimed the rest without mentioning the outstanding trump.",
        None,
    ),
    "Claim, a finesse": (
        [("70D1", "2017")],
        "claim",
        2024,
        "result_stands",
        "",
        "Declarer claimed, stating the finesse he would take.",
        None,
    ),
    "Revoke under the 1997 code": (
        [("64A2", "1997")],
        "revoke",
        2005,
        "rectification",
        "",
        "West revoked at trick 5 and won the trick.",
        None,
    ),
    "Revoke": ([("64A1", "2017")], "revoke", 2019, "rectification", "", "East revoked and won the trick.", None),
    "Insufficient bid": (
        [("27B1b", "2017"), ("16C2", "2017")],
        "law_applied",
        2020,
        "rectification",
        "",
        "1H over 1S was insufficient; 2H was not a comparable call.",
        None,
    ),
    "Score only": ([("12C1e", "2017")], "adjusted_score", 2025, "adjusted", "assigned", "Score adjusted.", None),
    "Lead out of turn": ([("54A", "2017")], "law_applied", 2025, "rectification", "", "East led out of turn.", None),
}


@pytest.fixture
def published(library):
    """The set of published cases above, each in a casebook of its own, beside the library's."""
    books = past_casebook(
        library,
        "Published",
        [
            ([law for law, _ed in laws], kind, year, "uphold", "Upheld.", facts)
            for laws, kind, year, *_r, facts, _a in CASES.values()
        ],
    )
    for book, (title, (laws, _kind, _year, outcome, score_kind, _facts, auction)) in zip(
        books, CASES.items(), strict=True
    ):
        entry = book.content["cases"][0]
        entry["ruling"]["laws"] = [{"number": law, "edition": edition, "title": ""} for law, edition in laws]
        entry["ruling"].update(outcome_code=outcome, score_kind=score_kind)
        entry["auction"] = auction
        book.title = title
        book.content["title"] = title
        book.save()
        precedents.index_casebook(book.pk)
    return library


def ruling(library, table, *, kind, laws, outcome="result_stands", score_kind="", auction=None, facts=""):
    made = ruling_at(library.record.results[table], library.director, laws=laws, facts=facts, given_at=None)
    Ruling.objects.filter(pk=made.pk).update(kind=kind, outcome=outcome, score_kind=score_kind, auction=auction)
    return Ruling.objects.get(pk=made.pk)


def suggested(library, new):
    found = precedent_selectors.similar_cases(new, user=library.director, limit=10)
    assert all(s.score >= likeness.FLOOR for s in found), [(s.case.casebook.title, s.score) for s in found]
    return [s.case.casebook.title for s in found], found


def test_a_claim_finds_the_claim_with_the_same_omitted_trump_even_with_the_opposite_outcome(published):
    new = ruling(
        published,
        5,
        kind="claim",
        laws="70D1",
        outcome="result_stands",
        facts="South claimed the rest; the outstanding trump was not mentioned.",
    )
    titles, found = suggested(published, new)
    assert titles[0] == "Claim, trump outstanding"
    assert "OMIT:TRUMP" in found[0].alike
    assert set(titles) <= {"Claim, trump outstanding", "Claim, a finesse", "Past seasons"}  # claims only


def test_misinformation_cited_as_75_and_40_finds_the_20f_and_21b_case(published):
    new = ruling(
        published, 5, kind="mi", laws="75C, 40B4", outcome="adjusted", score_kind="assigned", auction=ALERTED_2C
    )
    titles, found = suggested(published, new)
    assert titles[0] == "Wrong explanation"
    assert "S:mi" in found[0].alike and str(found[0].labels[0]) == "Misinformation"
    assert "Slow double" not in titles and "Score only" not in titles


def test_an_insufficient_bid_with_16c2_is_offered_the_insufficient_bid_not_the_hesitations(published):
    new = ruling(published, 5, kind="law_applied", laws="27B1b, 16C2", outcome="rectification")
    titles, found = suggested(published, new)
    assert titles == ["Insufficient bid"]
    assert found[0].shared_laws == ["27B1b", "16C2"]


def test_a_weighted_score_finds_the_case_the_committee_weighted_first(published):
    new = ruling(
        published,
        5,
        kind="ui",
        laws="16B1a, 12C1c",
        outcome="adjusted",
        score_kind="weighted",
        facts="West paused before passing; East bid on. Weighted.",
    )
    titles, found = suggested(published, new)
    assert titles[0] == "Weighted by the committee"
    assert "K:WEIGHTED" in found[0].alike and "Weighted score (Law 12C1c)" in [str(x) for x in found[0].labels]
    assert "Score only" not in titles  # a shared Law 12 citation is no likeness


def test_a_hesitation_finds_the_slow_double_over_the_same_call_first(published):
    new = ruling(
        published,
        5,
        kind="ui",
        laws="16B1a",
        outcome="adjusted",
        score_kind="assigned",
        auction=_auction("S", "1S 2H 2S 3H X P 4S P P P".split(), tempo=(4, 12)),
        facts="North doubled slowly; South bid 4S.",
    )
    titles, found = suggested(published, new)
    assert titles[0] == "Slow double"
    assert {"AT:TEMPO:3H-X", "WHO:OPENER", "LA:YES"} <= set(found[0].alike)
    assert "Insufficient bid" not in titles and "Wrong explanation" not in titles


def test_a_revoke_finds_the_revoke_of_its_own_code_first(published):
    new = ruling(published, 5, kind="revoke", laws="64A1", outcome="rectification")
    titles, _found = suggested(published, new)
    assert titles == ["Revoke", "Revoke under the 1997 code"]


def test_law_numbers_are_read_across_editions():
    assert likeness.current("16A1", "1997") == "16B1"  # extraneous information from partner
    assert likeness.current("16C2", "2017") == "16C2" and likeness.current("16D2", "2007") == "16C2"  # withdrawn calls
    assert likeness.current("12C3", "1997") == "12C1C"  # a committee's weighting, now 12C1(c)
    assert likeness.subject_of("16C2") == "calls" and likeness.subject_of("16B1A") == "ui"
    assert likeness.subject_of("12C1C") == "weight" and likeness.subject_of("93B") == ""  # how to weight
    assert likeness.subject_of("12C1E") == ""


def test_no_similar_published_case_is_said_plainly(published):
    new = ruling(published, 5, kind="law_applied", laws="43B2a", outcome="rectification")  # dummy: no case
    assert precedent_selectors.similar_cases(new, user=published.director) == []
    request = RequestFactory().get("/")
    request.user = published.director
    html = Template("{% load precedents %}{% precedents_for ruling %}").render(
        Context({"request": request, "ruling": new})
    )
    assert "No similar published case." in html
