"""The import of a file with faulty result rows, walked on a 390x844 phone (issue #40): the
director uploads the file, the preview lists each row refused with its line and reason and says
the rest will be imported once confirmed, nothing runs off the screen, and Import brings in the
other results."""

import pytest

from scoring.models import Event, Result
from tests.e2e.conftest import PHONE, log_in, screenshot
from tests.e2e.test_national import small_demo  # noqa: F401 - fixture
from tests.scoring.test_faulty_rows import FAULTY, REASONS, pbn

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_director_sees_which_rows_were_refused_and_why_and_imports_the_rest(
    phone, live_server, small_demo, settings, tmp_path
):  # noqa: F811
    settings.VAR_DIR = tmp_path
    event = Event.objects.filter(kind=Event.Kind.MP_PAIRS).order_by("pk").first()
    before = Result.objects.filter(board__session__event=event).count()
    log_in(phone, live_server, "director", "director-demo")
    phone.goto(f"{live_server.url}/events/{event.pk}/import/")
    phone.set_input_files("#id_file", files=[{"name": "club.pbn", "mimeType": "text/plain", "buffer": pbn(FAULTY)}])
    with phone.expect_navigation():
        phone.click("button[value=preview]")
    warnings = phone.locator("li").all_inner_texts()
    left_out = [w.strip() for w in warnings if w.strip().endswith(": left out")]
    assert [w.split(":", 2)[:2] for w in left_out] == [r.split(":", 2)[:2] for r in REASONS], left_out
    assert any(w.startswith("2 result rows of the file are faulty (listed above) and are left out") for w in warnings)
    widths = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1] == PHONE["width"], widths
    screenshot(phone, "import-faulty-rows-preview-phone")
    assert Result.objects.filter(board__session__event=event).count() == before  # a preview writes nothing
    with phone.expect_navigation():
        phone.click("button[value=import]")
    assert "2 boards and 4 results are in" in phone.inner_text("main")
    assert Result.objects.filter(board__session__event=event).count() == before + 4
