"""The traveller with a weighted and an artificial adjusted score, a decided appeal's timeline and
a casebook, in Hebrew (right to left) and in Greek, as a browser shows them. The screenshots are
written to docs/screenshots/ (linked from docs/translations.md) for a look by eye: each run
replaces them."""

from pathlib import Path

import pytest

from tests.appeals.conftest import case  # noqa: F401 - fixtures
from tests.e2e.conftest import log_in, screenshot
from tests.national.test_casebooks import compile_book, decided  # noqa: F401
from tests.test_reader import adjusted  # noqa: F401
from tests.test_translations import compiled  # noqa: F401

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
DESKTOP = {"width": 1100, "height": 800}


def keep(page, name):
    """The page as test-artifacts/ keeps every screenshot, and a copy in docs/screenshots/."""
    path = screenshot(page, name)
    DOCS.mkdir(exist_ok=True)
    (DOCS / path.name).write_bytes(path.read_bytes())


def direction_of(locator):
    return locator.evaluate("node => getComputedStyle(node).direction")


# Each character of an element's text with where the browser drew it: what a reader sees, left
# to right, whatever order the characters are stored in. Chromium gives a one-character range at
# the start of a text node no box; such a character is placed from the box of it and the next.
CHARACTERS = """node => { const text = node.firstChild, out = [];
  const box = (i, j) => { const range = document.createRange();
    range.setStart(text, i); range.setEnd(text, j); return range.getClientRects()[0]; };
  for (let i = 0; i < text.length; i++) {
    let own = box(i, i + 1);
    if (!own && i + 1 < text.length) { const both = box(i, i + 2), next = box(i + 1, i + 2);
      own = { left: both.left < next.left - 0.5 ? both.left : next.right }; }
    out.push([text.data[i], own.left]);
  } return out; }"""


def as_seen(locator):
    return "".join(char for char, _x in sorted(locator.evaluate(CHARACTERS), key=lambda pair: pair[1]))


@pytest.mark.parametrize("language,direction,kinds", [("he", "rtl", "תוצאה משוקללת"), ("el", "ltr", "σταθμισμένο")])
def test_traveller_timeline_and_casebook_in_hebrew_and_greek(
    browser,
    live_server,
    adjusted,  # noqa: F811
    decided,  # noqa: F811
    compiled,  # noqa: F811
    language,
    direction,
    kinds,
):
    authority = decided.record.authority
    authority.language = language  # the casebook is written in its body's language
    authority.save()
    casebook = compile_book(decided)
    board = decided.record.boards[0]

    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(15000)
    log_in(page, live_server, "dana", "pw-dana")
    with page.expect_navigation():  # the language switcher submits itself on change
        page.select_option("#language", language)
    assert page.get_attribute("html", "dir") == direction

    page.goto(f"{live_server.url}/boards/{board.pk}/")
    # The description is isolated, and the score inside it kept on one line: two nested bdi.
    # The weights as the director typed them, with the reader's decimal mark (issue #42).
    typed = "0,6 4S N = / 0,4 4S N -1" if language == "el" else "0.6 4S N = / 0.4 4S N -1"
    weighted_everywhere = page.locator("bdi", has_text=typed)
    weighted = page.locator("table.traveller bdi.nowrap", has_text=typed).first
    artificial = page.locator("table.traveller bdi.nowrap", has_text="AVE+").first
    # Whatever the page's direction, the scores read left to right, as written, wherever shown.
    assert all(direction_of(each) == "ltr" for each in weighted_everywhere.all())
    assert direction_of(weighted) == "ltr" and direction_of(artificial) == "ltr"
    assert as_seen(weighted) == typed
    assert as_seen(artificial) == "AVE+"
    assert kinds in page.inner_text(".traveller").lower()
    keep(page, f"traveller-adjusted-{language}")

    page.goto(f"{live_server.url}/appeals/{decided.appeal.pk}/")
    times = page.locator(".timeline time")
    times.first.wait_for()
    assert times.count() >= 5
    assert times.first.inner_text().endswith("(Europe/London)")
    assert direction_of(times.first) == "ltr"
    keep(page, f"appeal-decided-timeline-{language}")
    context.close()

    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(15000)
    log_in(page, live_server, "nora", "pw-nora", lands_on="/national/")
    page.goto(f"{live_server.url}/national/casebooks/{casebook.pk}/book/")
    assert page.get_attribute("html", "dir") == direction
    assert page.get_attribute("html", "lang") == language
    law = page.locator("ul.laws span[dir=ltr]").first
    assert law.inner_text() == "16B1a" and direction_of(law) == "ltr"
    keep(page, f"casebook-{language}")
    context.close()


def test_the_reading_check_finds_a_scrambled_line_and_passes_an_isolated_one(phone):
    """tests/e2e/reading.py's measurement, on lines it must fail and lines it must pass."""
    from tests.e2e.reading import SCRAMBLED

    phone.set_content(
        '<html lang="he" dir="rtl"><body>'
        "<p>צפון-דרום +100 (חציון -635)</p>"  # signed scores drawn "100+" and "635-"
        '<p>החלטה: <span lang="en">The pause was clear.</span></p>'  # marked, not isolated
        '<p>צפון-דרום <bdi dir="ltr">+100</bdi>, ב-17, 12 · 14, פסיקה 13: Rivka Eriksson מבקש</p>'
        '<p>החלטה: <bdi lang="en" dir="auto">The pause was clear.</bdi> 4S N -1</p>'
        "<p>התקבל \u20662026 14:25 CEST (Europe/Amsterdam)\u2069 על ידי Dana, CEST (Europe/Amsterdam) 5 MB</p>"
        "</body></html>"
    )
    assert sorted(each["text"] for each in phone.evaluate(SCRAMBLED)) == [
        "+100",
        "-635",
        "The pause was clear.",
    ]
