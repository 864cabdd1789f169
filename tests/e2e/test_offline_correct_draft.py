"""A draft the server refused on a field is opened for correction, the field marked with its
reason, and sent again as the same draft (issue #42, item 7: "Cite at least one law" could only
be deleted); its times read in the tournament's zone, not the phone's. On a phone, in English
and in Hebrew."""

import pytest

from core import policy, roles
from rulings.models import Ruling
from scoring import services
from tests.conftest import make_user
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "he"])
def test_a_refused_draft_is_corrected_not_only_deleted(phone, live_server, field, language):
    dana = make_user("dana", first_name="Dana", last_name="Director")
    dana.set_password("table-side")
    dana.save()
    services.appoint_official(tournament=field.tournament, user=dana, role=roles.DIRECTOR, by=policy.SYSTEM)
    log_in(phone, live_server, "dana", "table-side")
    if language != "en":
        with phone.expect_navigation():
            phone.select_option("#language", language)
    phone.goto(f"{live_server.url}/rulings/drafts/?session={field.session.pk}&board=1&table=2")
    phone.select_option("[name=kind]", "ui")
    phone.fill("[name=facts]", "North hesitated before passing 3S; South bid 4S.")
    phone.fill("[name=ruling_text]", "Result stands.")
    phone.click("button[name=give]")  # no law cited: the server refuses it on the field
    phone.wait_for_selector("#draft-list li[data-state=attention]")
    item = phone.locator("#draft-list li[data-state=attention]")
    zone = field.tournament.zone.key
    assert f"({zone})" in item.locator(".draft-phone-time").inner_text()  # the tournament's zone
    correct = item.locator("button.correct")
    assert correct.is_visible()
    if language == "he":
        assert "Correct this draft" not in item.inner_text()
    correct.click()

    laws = phone.locator("#draft-form [name=laws]")
    assert laws.get_attribute("aria-invalid") == "true"
    marked = phone.locator("#draft-form .field-error")
    assert marked.count() == 1 and marked.locator(".draft-errors li").count() == 1
    assert phone.is_visible("#draft-form .correcting")
    assert phone.input_value("[name=ruling_text]") == "Result stands."
    assert phone.input_value("[name=table]") == "2"
    screenshot(phone, f"draft-correction-{language}")
    laws.fill("16B1a")
    phone.click("button[name=give]")
    phone.wait_for_selector("#draft-list li[data-state=sent]")
    assert phone.locator("#draft-list li").count() == 1  # the same draft, corrected, not a second
    assert phone.locator("#draft-form .field-error").count() == 0
    ruling = Ruling.objects.get(table=field.tables[1], board=field.boards[0])
    assert ruling.state == Ruling.State.GIVEN and ruling.director == dana
