"""The chief director of a simultaneous field, on a phone, opens a club's held upload from the
session's page, reads its flag (board, table, reason) and confirms it with one tap, after which
the upload joins the field (issue #44), in English and in Hebrew."""

import pytest

from scoring.models import FieldUpload, Result
from tests.e2e.conftest import PHONE, log_in, screenshot
from tests.scoring.test_field_uploads import rows, sim, upload  # noqa: F401  (sim: the field's fixture)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "he"])
def test_the_chief_director_confirms_a_flag_with_one_tap_on_a_phone(phone, live_server, sim, language):  # noqa: F811
    sim.chief.set_password("pw-simchief")
    sim.chief.save()
    held = upload(sim, rows(**{"1-9": ("4S", "N", 10, 425)}))

    log_in(phone, live_server, "simchief", "pw-simchief")
    if language != "en":
        with phone.expect_navigation():
            phone.select_option("#language", language)
    phone.goto(f"{live_server.url}/sessions/{sim.session.pk}/")
    with phone.expect_navigation():
        phone.click("ul.field-uploads a")
    widths = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1] == PHONE["width"], widths
    flag = phone.locator("li.check-impossible_score")
    assert flag.count() == 1 and "425" in flag.inner_text()
    assert phone.locator("p.upload-held").count() == 1
    screenshot(phone, f"field-upload-phone-{language}")
    with phone.expect_navigation():
        flag.locator("form.accept button").tap()
    assert phone.locator("p.upload-joined").count() == 1
    assert phone.locator("li.check-impossible_score.answer-confirmed").count() == 1
    assert phone.locator("form.accept").count() == 0
    assert FieldUpload.objects.get(pk=held.pk).state == FieldUpload.State.JOINED
    assert Result.objects.filter(board__session=sim.session, table__number__gte=9).count() == 8
