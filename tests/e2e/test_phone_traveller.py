"""The traveller on a 390x844 phone (issue #27): a card per table, nothing off to the right, each
table's Result, Lead and both scores in sight; and the case page's multi-choice fields are check
boxes, not multi-select boxes."""

import pytest

from scoring.models import Result
from tests.e2e.conftest import PHONE, log_in, screenshot, speak
from tests.e2e.test_national import small_demo  # noqa: F401 - fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def inside_the_screen(locator):
    box = locator.bounding_box()
    return box is not None and box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


@pytest.mark.parametrize("language", ["en", "he"])
def test_the_traveller_reads_without_scrolling_sideways_on_a_phone(phone, live_server, small_demo, language):  # noqa: F811
    result = Result.objects.filter(not_played=False, score_ns__gt=0).exclude(lead="").select_related("board").first()
    log_in(phone, live_server, "director", "director-demo")
    reader = speak(phone, language)  # in Hebrew, each page read as its reader would
    phone.goto(f"{live_server.url}/boards/{result.board.pk}/")

    widths = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1] == PHONE["width"], widths
    rows = phone.locator("table.traveller tbody tr")
    assert rows.count() == result.board.results.count()
    for i in range(rows.count()):
        row = rows.nth(i)
        if row.locator("td.result").count() == 0:
            continue  # an adjusted score or a board not played: its description, on its own line
        for cell in ("td.result", "td.lead", "td.score-ns", "td.score-ew"):
            assert inside_the_screen(row.locator(cell)), (i, cell, row.locator(cell).bounding_box())
    played = rows.nth(list(result.board.results.all()).index(result))
    assert played.locator("td.result").inner_text() == result.result_display
    assert played.locator("td.score-ns").inner_text() == str(result.score_ns)
    # Each card's "Table: 1" keeps a space between the column's name and the value, on the
    # reader's side (Hebrew had "1שולחן:", the space lost at the end of the right-to-left label).
    assert min(phone.evaluate(LABEL_GAPS)) >= 3, phone.evaluate(LABEL_GAPS)
    screenshot(phone, f"traveller-phone-{language}")
    if language != "en":
        reader.assert_clean()


# For each card cell whose value is plain text, the room between the value and the edge where
# the column's name stands, less the name's own width: the gap a reader sees between them.
LABEL_GAPS = """[...document.querySelectorAll("table.traveller td[data-label]")].flatMap((td) => {
  const text = [...td.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim());
  if (!text) return [];
  const range = document.createRange();
  range.selectNodeContents(text);
  const value = range.getBoundingClientRect(), cell = td.getBoundingClientRect();
  const before = getComputedStyle(td, "::before");
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = `${before.fontWeight} ${before.fontSize} ${before.fontFamily}`;
  const name = pen.measureText(td.dataset.label + ":").width;
  const room = document.dir === "rtl" ? cell.right - value.right : value.left - cell.left;
  return [room - name];
})"""


@pytest.mark.parametrize("language", ["en", "he"])
def test_phone_screenshots_of_the_ruling_the_appeal_and_the_notice_board(phone, live_server, small_demo, language):  # noqa: F811
    """Kept in docs/screenshots/ (linked from docs/translations.md) for a look by eye."""
    from appeals.models import Appeal
    from tests.e2e.test_reader_screenshots import keep

    appeal = Appeal.objects.select_related("ruling").order_by("pk").first()
    log_in(phone, live_server, "director", "director-demo")
    reader = speak(phone, language)  # in Hebrew, each page read as its reader would
    assert phone.get_attribute("html", "dir") == ("rtl" if language == "he" else "ltr")
    for name, path in [
        ("ruling", f"/rulings/{appeal.ruling.pk}/"),
        ("appeal", f"/appeals/{appeal.pk}/"),
        ("notice-board", f"/appeals/board/{appeal.tournament.pk}/"),
    ]:
        phone.goto(live_server.url + path)
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
        keep(phone, f"phone-{name}-{language}")
    if language != "en":
        reader.assert_clean()


@pytest.mark.parametrize("language", ["en", "he"])
def test_a_changed_row_opens_why_on_the_traveller_and_the_standings(phone, live_server, small_demo, language):  # noqa: F811
    """Issue #42, item 5: the traveller's and the standings' change mark opens each change's cause
    and time on a phone, in the reader's language, within the screen."""
    from scoring.models import ScoreChange

    change = ScoreChange.objects.filter(cause_type="ruling").select_related("result__board__session__event").first()
    log_in(phone, live_server, "director", "director-demo")
    reader = speak(phone, language)  # in Hebrew, each page read as its reader would
    phone.goto(f"{live_server.url}/boards/{change.result.board.pk}/")
    mark = phone.locator("table.traveller details.change-mark").first
    mark.locator("summary").click()
    cause = mark.locator("li .cause").first
    assert cause.is_visible() and inside_the_screen(cause)
    assert cause.locator("a").count() == 1  # the ruling opens from the mark
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    if language == "he":
        assert "Why it changed" not in mark.inner_text() and "Ruling by the director" not in mark.inner_text()
        reader.read(phone)  # the mark open: its cause and time drawn in order
    screenshot(phone, f"traveller-change-mark-{language}")
    with phone.expect_navigation():
        cause.locator("a").click()
    assert f"/rulings/{change.cause_id}/" in phone.url

    phone.goto(f"{live_server.url}/events/{change.result.board.session.event.pk}/standings/")
    mark = phone.locator("table.standings details.change-mark").first
    mark.locator("summary").click()
    assert mark.locator("li .when").first.is_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], phone.evaluate(WIDE)
    screenshot(phone, f"standings-change-mark-{language}")
    if language != "en":
        reader.read(phone)
        reader.assert_clean()


WIDE = """[...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > 391).slice(0, 8).map((e) => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right))"""
