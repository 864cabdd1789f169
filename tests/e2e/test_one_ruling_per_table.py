"""Two directors at one table, on a phone (issue #41): Olga opens the ruling form at table X,
Dana gives her ruling there meanwhile; Olga's ruling is refused naming Dana's (its number and a
link to it), and Olga records hers as a further ruling on this table."""

import pytest

from core import policy, roles
from rulings.models import Ruling
from scoring import services
from tests.conftest import make_user, ruling_at, table_x
from tests.e2e.conftest import log_in, screenshot
from tests.e2e.test_irregularity_flow import _fits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _director(field, username, first, last):
    user = make_user(username, first_name=first, last_name=last)
    user.set_password("table-side")
    user.save()
    services.appoint_official(tournament=field.tournament, user=user, role=roles.DIRECTOR, by=policy.SYSTEM)
    return user


def test_a_second_director_is_refused_then_records_a_further_ruling_on_a_phone(phone, live_server, field):
    dana = _director(field, "dana", "Dana", "Director")
    _director(field, "olga", "Olga", "Other")
    page = phone
    log_in(page, live_server, "olga", "table-side")
    page.goto(f"{live_server.url}/rulings/new/{table_x(field).pk}/")
    assert not page.is_visible("#table-ruled")  # nobody has ruled here yet
    page.select_option("[name=kind]", "claim")
    page.fill("[name=laws]", "70D1")
    page.fill("[name=ruling_text]", "The claim stands")
    page.check("input[name=outcome][value=result_stands]")

    first = ruling_at(table_x(field), dana)  # Dana, at the same table, is quicker
    with page.expect_navigation():
        page.click("button[name=give]")
    refusal = page.inner_text("#table-ruled")
    assert f"Ruling {first.number} by Dana Director" in refusal
    assert "a further ruling on this table" in refusal
    assert page.get_attribute("#open-first-ruling", "href") == f"/rulings/{first.pk}/"
    assert Ruling.objects.count() == 1
    _fits(page, "refused ruling form")
    screenshot(page, "ruling-refused-table-ruled-phone")

    page.check("[name=further_ruling]")
    with page.expect_navigation():
        page.click("button[name=give]")
    page.wait_for_selector("h1:has-text('Ruling 2')")
    further = Ruling.objects.get(number=2)
    assert further.further_ruling and further.state == Ruling.State.GIVEN
    assert "A further ruling on this table" in page.inner_text("main")
    _fits(page, "further ruling's page")

    page.goto(f"{live_server.url}/rulings/new/{table_x(field).pk}/")
    with page.expect_navigation():
        page.click("#open-first-ruling")  # or go to the first
    page.wait_for_selector(f"h1:has-text('Ruling {first.number}')")
