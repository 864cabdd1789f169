"""The committee's room (issue #44), walked on a 390x844 phone: the director reads what the case
does to the standings; a member of the committee reads the same case without it, decides on the
page, and then sees the effect as it stood when the committee decided, in Hebrew too. Each page
is no wider than the phone."""

import pytest

from scoring import recalculation
from tests.appeals.conftest import case, ready, vote_all  # noqa: F401 (case is a fixture)
from tests.e2e.test_appeal_journey import fits, on_phone, submit
from tests.e2e.test_filings import with_password

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_committee_decides_without_the_effect_and_sees_it_after(browser, live_server, case):  # noqa: F811
    recalculation.recalculate_board(case.record.boards[0].pk)  # the ruling's score in the standings
    appeal, body, _hearing = ready(case)
    vote_all(body, "uphold")
    member = with_password(case.members[0])
    with_password(case.director)

    desk = on_phone(browser, live_server, case.director)
    desk.goto(f"{live_server.url}/appeals/{appeal.pk}/")
    effect = desk.inner_text("#effect")
    assert "In the session: " in effect and str(case.ns) in effect
    assert "Not shown to the members of the body while they decide." in effect
    fits(desk, "room-1-director-sees-the-effect")

    page = on_phone(browser, live_server, member)
    page.goto(f"{live_server.url}/appeals/{appeal.pk}/")
    assert page.is_visible("#effect-kept")
    assert "In the session" not in page.inner_text("#effect")
    fits(page, "room-2-member-without-the-effect")
    page.check("form:has(input[value=decide]) input[name=decide-decision][value=uphold]")
    page.fill("form:has(input[value=decide]) [name=decide-reasons]", "Pass was a logical alternative.")
    submit(page, "decide")
    page.wait_for_selector("text=Recorded.")
    assert not page.is_visible("#effect-kept")
    recorded = page.inner_text("#effect-recorded")
    assert "In the session: " in recorded and str(case.ns) in recorded
    assert "As it stood when the body decided, at " in page.inner_text("#effect")
    fits(page, "room-3-member-after-the-decision")

    with page.expect_navigation():
        page.select_option("#language", "he")
    assert page.get_attribute("html", "dir") == "rtl"
    assert "כפי שהיה כשהגוף החליט" in page.inner_text("#effect")
    fits(page, "room-4-after-the-decision-he")
