"""Every filing received (issue #44), walked on a 390x844 phone: a player asks to appeal after the
period, in Greek, and is acknowledged in Greek with the filing's number; the director lodges it
(the desk cannot decline it) and reads the register; the committee, sitting, finds it not valid
with its reason, which the player reads on their page. Each page is no wider than the phone."""

import pytest

from appeals.models import Appeal, Filing
from tests.appeals.conftest import case, committee  # noqa: F401 (case is a fixture)
from tests.e2e.test_appeal_journey import fits, on_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def with_password(user):
    user.set_password(f"pw-{user.username}")
    user.save()
    return user


def test_a_late_appeal_is_received_acknowledged_and_judged_by_the_body_on_the_phone(browser, live_server, case):  # noqa: F811
    from tests.conftest import make_user

    north = with_password(make_user("north", first_name="Nora"))
    case.north.user = north
    case.north.save(update_fields=["user"])
    for user in (case.director, *case.members[:3]):
        with_password(user)

    # The period ended in May (the fixture's clock): the player may still appeal, in Greek.
    page = on_phone(browser, live_server, north)
    with page.expect_navigation():
        page.select_option("#language", "el")
    page.goto(f"{live_server.url}/appeals/mine/")
    page.click("summary:has-text('Έφεση μετά την προθεσμία')")
    page.fill(
        "form[action$='/request/%d/'] textarea[name=grounds]" % case.ruling.pk, "Το πάσο δεν ήταν λογική εναλλακτική."
    )
    with page.expect_navigation():
        page.click("form[action$='/request/%d/'] button" % case.ruling.pk)
    acknowledged = page.inner_text("body")
    assert "Το έγγραφο 1 (" in acknowledged and "παραλήφθηκε" in acknowledged
    assert "η επιτροπή εφέσεων αποφασίζει αν είναι έγκυρο" in acknowledged
    fits(page, "filings-1-late-request-el")
    filing = Filing.objects.get()
    assert (filing.number, filing.kind, filing.validity, filing.language) == (1, "request", "pending", "el")

    # The director lodges it: the desk receives, it does not judge.
    page = on_phone(browser, live_server, case.director)
    page.goto(f"{live_server.url}/appeals/lodge/{case.ruling.pk}/")
    assert "Filing 1" in page.inner_text("body")
    assert "the appeals body, never the desk, decides whether it is valid" in page.inner_text("body")
    fits(page, "filings-2-desk")
    with page.expect_navigation():
        page.click("form:has(input[name=action][value=from_request]) button")
    assert "Late: the body decides whether it is valid" in page.inner_text("#validity")
    fits(page, "filings-3-case")
    page.goto(f"{live_server.url}/appeals/filings/{case.record.tournament.pk}/")
    assert "Late: the body decides whether it is valid" in page.inner_text("#filing-1")
    fits(page, "filings-4-register")

    # The committee sits and finds it not valid, with its reason.
    appeal = Appeal.objects.get()
    committee(case, appeal)
    page = on_phone(browser, live_server, case.members[0])
    page.goto(f"{live_server.url}/appeals/{appeal.pk}/")
    form = page.locator("#validity-form")
    form.locator("input[name=valid][value=no]").check()
    form.locator("textarea[name=reason]").fill("Filed the next morning, after the players had left.")
    fits(page, "filings-5-body")
    with page.expect_navigation():
        form.locator("button").click()
    page.wait_for_selector("text=Recorded.")
    assert "Filed the next morning" in page.inner_text("#validity")
    assert Appeal.objects.get().state == "out_of_time"

    # The player reads the body's decision and its reason on their page.
    page = on_phone(browser, live_server, north)
    page.goto(f"{live_server.url}/appeals/mine/")
    assert "Filed the next morning, after the players had left." in page.inner_text("#filing-1")
    fits(page, "filings-6-player-reads")
