"""The national auditor's desk in a real browser, on the demo: the audit chain verified, the
statistics page with its charts, and the demo casebook with the players' names hidden, as a page
and as the PDF the server prints. The screenshots are kept for a look by eye."""

import pytest
from celery import current_app

from scoring.models import Player
from tests.demo import load_small_demo
from tests.e2e.conftest import ARTIFACTS, log_in, screenshot, speak, words

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def small_demo():
    load_small_demo()


def test_the_auditors_desk_statistics_and_casebook(browser, live_server, small_demo, monkeypatch, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    monkeypatch.setitem(current_app.conf, "task_always_eager", True)
    context = browser.new_context(viewport={"width": 1100, "height": 1400})
    page = context.new_page()
    page.set_default_timeout(20000)
    log_in(page, live_server, "auditor", "auditor-demo", lands_on="/national/")
    assert "Intact:" in page.inner_text("#audit-chain")

    page.click("text=Statistics >> nth=0")
    page.wait_for_url(f"{live_server.url}/national/statistics/")
    assert page.locator("figure.chart svg").count() == 10
    assert page.locator("figure.chart rect.chart-bar").count() > 0
    screenshot(page, "national-statistics")

    page.goto(f"{live_server.url}/national/casebooks/")
    page.click(".casebook-row a")
    assert "Final" in page.inner_text("main")
    with context.expect_page() as opened:
        page.evaluate("window.open(document.querySelector('a[href$=\"/book/\"]').href)")
    book = opened.value
    book.wait_for_load_state()
    book.set_viewport_size({"width": 900, "height": 1270})
    text = book.inner_text("body")
    assert "Case 1" in text and "Index of subjects" in text
    names = {name for player in Player.objects.all() for name in (player.first_name, player.last_name)}
    assert not [name for name in names if f" {name} " in f" {text} "]
    ARTIFACTS.mkdir(exist_ok=True)
    book.screenshot(path=str(ARTIFACTS / "casebook-first-page.png"))  # the cover, as the first page
    book.locator("#case-1").screenshot(path=str(ARTIFACTS / "casebook-case-1.png"))

    # The PDF is printed by a worker (run in the server here): the page shows it ready.
    page.click("a.button:has-text('PDF')")
    page.click("button:has-text('Print the PDF')")
    page.wait_for_selector("#print.state-ready")
    pdf = page.request.get(live_server.url + page.get_attribute("a:has-text('Download the PDF')", "href"))
    assert pdf.status == 200 and pdf.body().startswith(b"%PDF")
    context.close()


@pytest.mark.parametrize("language", ["en", "he"])
def test_the_quality_view_on_a_phone_grouped_by_law_and_as_csv(phone, live_server, small_demo, language):
    """The auditor taps from the statistics to the quality view, groups it by law and reads each
    row's figures as the selector counts them; the CSV holds the same rows. In English and in
    Hebrew, every page passed read as its reader would (tests/e2e/reading.py)."""
    from django.contrib.auth import get_user_model
    from django.utils import translation

    from national import quality

    say = words(language)
    auditor = get_user_model().objects.get(username="auditor")
    with translation.override(language):
        expected = [[str(row.label), str(row.decided), str(row.upheld)] for row in quality.quality_rows(auditor, "law")]
    assert expected, "the demo decides appeals"
    log_in(phone, live_server, "auditor", "auditor-demo", lands_on="/national/")
    reader = speak(phone, language)
    phone.goto(f"{live_server.url}/national/statistics/")
    phone.get_by_text(say("Quality of rulings and appeals")).first.tap()
    phone.wait_for_url(f"{live_server.url}/national/statistics/quality/")
    phone.select_option("select[name=by]", "law")
    phone.get_by_role("button", name=say("Show"), exact=True).tap()
    phone.wait_for_url("**by=law**")
    cells = [[cell.strip() for cell in row.split("\t")] for row in phone.locator("#quality tbody tr").all_inner_texts()]
    assert [row[:3] for row in cells] == expected
    # The table scrolls in its card: the page itself is no wider than the phone.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, f"national-quality-phone-{language}")
    csv = phone.get_by_role("link", name=say("Download as CSV")).get_attribute("href")
    answer = phone.request.get(live_server.url + "/national/statistics/quality/" + csv)
    assert answer.status == 200
    lines = answer.text().splitlines()
    assert len(lines) == len(expected) + 1
    if language == "en":
        assert lines[0].startswith('"Law","Decided appeals"')
    else:
        reader.assert_clean()


def test_a_casebook_of_a_hebrew_speaking_body_reads_right_to_left(browser, live_server, small_demo):
    from django.contrib.auth import get_user_model

    from national import casebooks

    auditor = get_user_model().objects.get(username="auditor")
    authority = auditor.auditing.get().authority
    authority.language = "he"
    authority.save()
    casebook = casebooks.compile_casebook(authority=authority, by=auditor, title="ספר מקרים: אליפות האביב")
    context = browser.new_context(viewport={"width": 900, "height": 1270})
    page = context.new_page()
    page.set_default_timeout(20000)
    log_in(page, live_server, "auditor", "auditor-demo", lands_on="/national/")
    page.goto(f"{live_server.url}/national/casebooks/{casebook.pk}/book/")
    assert page.get_attribute("html", "dir") == "rtl"
    assert "מקרה 1" in page.inner_text("#case-1 h2")
    # The diagram and the auction keep West on the left, whatever the page's direction.
    west, east = page.locator("#case-1 .hand-w").bounding_box(), page.locator("#case-1 .hand-e").bounding_box()
    assert west["x"] < east["x"]
    # A law's number reads left to right inside the Hebrew sentence.
    assert page.locator("#case-1 .laws li span[dir=ltr]").first.inner_text() == "20F1"
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#case-1").screenshot(path=str(ARTIFACTS / "casebook-case-1-he.png"))
    context.close()
