"""Precedents a committee would cite (issue #43), on a set of published cases built here: ranked
by the final outcome (the committee's decision over the director's ruling); the facts compared
first (the same hesitation at the same call, the same finding of logical alternatives), then the
laws and the kind of score; the opposite outcome on alike facts beside the twin; "how to weight"
cases for a ruling that weights; a floor that needs the same kind of case; and why each is alike,
in the reader's language."""

import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.utils import translation

from national import likeness, precedent_selectors, precedents
from tests.appeals.conftest import case  # noqa: F401 - a fixture
from tests.national.test_casebooks import decided  # noqa: F401 - a fixture
from tests.national.test_precedent_ranking import SLOW_DOUBLE, ruling
from tests.national.test_precedents import _auction, library, past_casebook, sent  # noqa: F401 - fixtures

# North's slow double of 3H, South's 4S: the twin, the same facts, and the same facts with the
# opposite finding (the committee overturned the director: no logical alternative).
CASES = {
    # title: (laws, kind, year, the director's outcome, score kind, the committee's decision, auction)
    "Twin": (["16B1a"], "ui", 2022, "adjusted", "assigned", "uphold", SLOW_DOUBLE),
    "Twin, earlier": (["16B1a"], "ui", 2021, "adjusted", "assigned", "uphold", SLOW_DOUBLE),
    "Overturned": (["16B1a"], "ui", 2024, "adjusted", "assigned", "overturn", SLOW_DOUBLE),
    "Same laws, no hesitation recorded": (["16B1a"], "ui", 2025, "adjusted", "assigned", "uphold", None),
    "Weighted": (["12C1c"], "adjusted_score", 2020, "adjusted", "weighted", "uphold", None),
    "Slow play": (["74B4", "90B2"], "procedural_penalty", 2025, "rectification", "", "uphold", None),
    "Rudeness": (["74A2", "91A"], "disciplinary_penalty", 2019, "rectification", "", "uphold", None),
}


@pytest.fixture
def committee(library):
    books = past_casebook(
        library,
        "Committee",
        [
            (laws, kind, year, decision, "Decided.", "Facts.")
            for laws, kind, year, _o, _k, decision, _a in CASES.values()
        ],
    )
    for book, (title, (_laws, _kind, _year, outcome, score_kind, _d, auction)) in zip(
        books, CASES.items(), strict=True
    ):
        entry = book.content["cases"][0]
        entry["ruling"].update(outcome_code=outcome, score_kind=score_kind)
        entry["auction"] = auction
        book.title = book.content["title"] = title
        book.save()
        precedents.index_casebook(book.pk)
    return library


def titles(library, new, limit=10):
    found = precedent_selectors.similar_cases(new, user=library.director, limit=limit)
    assert all(s.score >= likeness.FLOOR for s in found)
    return [s.case.casebook.title for s in found if s.case.casebook.title in CASES], found


def hesitation(library, **kw):
    auction = _auction("S", "1S 2H 2S 3H X P 4S P P P".split(), tempo=(4, 12))
    return ruling(library, 5, kind="ui", laws="16B1a", score_kind="assigned", auction=auction, **kw)


def test_the_twin_comes_first_with_the_opposite_outcome_beside_it(committee):
    titles_found, found = titles(committee, hesitation(committee, outcome="adjusted"))
    # The facts first: the same hesitation at the same call and the same finding; the case the
    # committee overturned (newer, and the same director's ruling) is the opposite, beside the twin.
    assert titles_found[:4] == ["Twin", "Overturned", "Twin, earlier", "Same laws, no hesitation recorded"]
    twin, opposite = (s for s in found if s.case.casebook.title in ("Twin", "Overturned"))
    assert (twin.opposite, opposite.opposite) == (False, True)
    assert (twin.final, opposite.final) == ("ADJUSTED", "RESULT_STANDS")  # the committee's, not the director's
    assert "LA:YES" in twin.alike and "LA:YES" not in opposite.alike
    assert twin.reasons[:2] == [
        "The same hesitation at the same call (3H – X)",
        "The same finding: a logical alternative was found",
    ]
    assert "The same laws: 16B1a" in twin.reasons
    assert opposite.reasons[:2] == [
        "The opposite outcome on alike facts: compare it with the case above",
        "The same hesitation at the same call (3H – X)",
    ]


def test_the_facts_outrank_the_laws_and_the_score_kind(committee):
    titles_found, _found = titles(committee, hesitation(committee, outcome="result_stands"))
    # No logical alternative found here: the overturned case is the twin now, the upheld
    # adjustments on the same facts the opposite beside it, the same laws without the facts last.
    assert titles_found[:2] == ["Overturned", "Twin"]
    assert titles_found.index("Same laws, no hesitation recorded") > titles_found.index("Twin, earlier")


def test_a_ruling_citing_only_12c1c_is_offered_the_weighted_cases(committee):
    new = ruling(committee, 5, kind="adjusted_score", laws="12C1c", outcome="adjusted", score_kind="weighted")
    titles_found, found = titles(committee, new)
    assert titles_found[0] == "Weighted"
    assert "The same subject: Weighted score (Law 12C1c)" in found[0].reasons


def test_a_disciplinary_ruling_is_not_offered_a_slow_play_penalty(committee):
    new = ruling(committee, 5, kind="disciplinary_penalty", laws="74A1, 91A", outcome="rectification")
    titles_found, _found = titles(committee, new)
    assert titles_found == ["Rudeness"]


@pytest.mark.parametrize(
    "language, said",
    [
        ("he", "אותה השהיה באותה קריאה (3H – X)"),
        ("uk", "Та сама пауза перед тим самим викликом (3H – X)"),
        ("nl", "Dezelfde aarzeling bij dezelfde bieding (3H – X)"),
        ("el", "Ο ίδιος δισταγμός στην ίδια αγορά (3H – X)"),
        ("is", "Sama hik við sömu sögn (3H – X)"),
    ],
)
def test_the_ruling_page_says_why_in_the_readers_language(committee, language, said):
    new = hesitation(committee, outcome="adjusted")
    request = RequestFactory().get("/")
    request.user = committee.director
    with translation.override(language):
        html = Template("{% load precedents %}{% precedents_for ruling %}").render(
            Context({"request": request, "ruling": new})
        )
    assert said in html
    assert html.index(">Twin,") < html.index('class="precedent precedent-opposite"') < html.index(">Overturned,")
