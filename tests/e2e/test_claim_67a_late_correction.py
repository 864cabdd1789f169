"""Issue #28 on a 390x844 phone: a director walks the claim page (North claims with play after the
claim: Law 70D3), the defective-trick page under 67A (put right before the next trick, nothing
transferred) and a correction after the correction period by the Law 79C2 route, and the result
each shows is checked exactly. Table X: 4S by North = (tests/fixtures/lin/revoke_board1.lin)."""

import datetime

import pytest

from core import policy, roles
from rulings import services as rulings_services
from rulings.models import Ruling, TrickRuling
from scoring import services
from tests.conftest import make_user, table_x
from tests.e2e.conftest import log_in, screenshot
from tests.e2e.test_irregularity_flow import LIN, _fits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

POSTED = datetime.datetime(2026, 5, 1, 20, 0, tzinfo=datetime.UTC)  # 21:00 in London


def director_on_phone(page, live_server, field):
    director = make_user("cleo", first_name="Cleo", last_name="Director")
    director.set_password("table-side")
    director.save()
    services.appoint_official(tournament=field.tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    log_in(page, live_server, "cleo", "table-side")
    return director


def open_draft(page, live_server, field, kind, facts):
    page.goto(f"{live_server.url}/boards/{field.boards[0].pk}/")
    with page.expect_navigation():
        page.locator("table.traveller tbody tr").nth(6).get_by_role("link", name="Ruling").click()
    page.select_option("[name=kind]", kind)
    page.fill("[name=facts]", facts)
    page.click("text=Deal and auction")
    page.fill("[name=deal_source]", LIN)
    with page.expect_navigation():
        page.click("button[name=draft]")


def laws_cited(page):
    return [text.strip() for text in page.locator("main ul.list li strong").all_inner_texts() if "Law" in text]


def test_a_claim_with_play_after_it_on_a_phone(phone, live_server, field):
    page = phone
    director_on_phone(page, live_server, field)
    open_draft(page, live_server, field, "claim", "North claimed the rest; East played on with the SA and SK.")
    with page.expect_navigation():
        page.click("#work-out-claim")
    page.select_option("[name=claim-claimer]", "N")
    page.fill("[name=claim-statement]", "Drawing trumps, the rest are mine")
    page.check("[name=claim-trump_mentioned]")
    page.fill("[name=claim-played_after]", "SA SK")
    with page.expect_navigation():
        page.click("text=Show the claim position")
    assert page.inner_text("#claim-basis") == "Law 70"
    assert page.inner_text("#claim-played-after") == (
        "70D3: play should have ceased, but cards were played after the claim (SA SK): the director may take them "
        "as evidence of the players' probable plays and of the claim's accuracy."
    )
    _fits(page, "claim page")
    screenshot(page, "claim-70d3-phone")
    page.fill("[name=confirm-awarded_tricks]", "10")
    page.fill("[name=confirm-normal_line]", "Trumps drawn first: the club loser goes on the hearts")
    with page.expect_navigation():
        page.click("#confirm-claim")
    page.wait_for_selector("h1:has-text('Ruling 1')")
    ruling = Ruling.objects.get()
    assert (ruling.state, ruling.offending_side) == (Ruling.State.GIVEN, "")
    assert TrickRuling.objects.get(ruling=ruling).result_tricks == 10
    assert laws_cited(page) == ["Law 70", "Law 70D3"]
    _fits(page, "ruling page")


def test_a_defective_trick_put_right_under_67A_on_a_phone(phone, live_server, field):
    page = phone
    director_on_phone(page, live_server, field)
    open_draft(page, live_server, field, "revoke", "West played two cards to trick 5; noticed at once.")
    with page.expect_navigation():
        page.click("#work-out-revoke")
    page.click("text=Defective trick (Law 67)")
    page.fill("[name=defective-trick]", "5")
    page.select_option("[name=defective-offender]", "W")
    page.check("[name=defective-too_many_cards]")
    page.check("[name=defective-before_next_trick]")
    with page.expect_navigation():
        page.locator("#defective button[type=submit]").click()
    assert page.inner_text("#transfer-law") == "Law 67A2 (2017 Laws)"
    assert page.inner_text("#transfer-tricks") == "0"
    assert page.inner_text("#table-result").split() == ["4S", "N", "10"]
    assert page.inner_text("#result-after").split() == ["4S", "N", "10"]
    _fits(page, "defective-trick page")
    screenshot(page, "defective-trick-67a-phone")
    with page.expect_navigation():
        page.click("#confirm-transfer")
    page.wait_for_selector("h1:has-text('Ruling 1')")
    ruling = Ruling.objects.get()
    assert ruling.state == Ruling.State.GIVEN and ruling.score is None
    assert (TrickRuling.objects.get(ruling=ruling).law, TrickRuling.objects.get(ruling=ruling).transfer) == ("67A2", 0)
    assert laws_cited(page) == ["Law 67A2"]


def test_a_late_correction_by_the_79c2_route_on_a_phone(phone, live_server, field):
    services.set_authority_setting(
        authority=field.authority,
        key="late_corrections_allowed",
        value=True,
        effective_from=datetime.date(2000, 1, 1),
        by=policy.SYSTEM,
    )
    page = phone
    director = director_on_phone(page, live_server, field)
    ruling = rulings_services.rule(
        result=table_x(field),
        director=director,
        kind="ui",
        laws="16",
        give=True,
        ruling_text="Result stands",
        outcome="result_stands",
    )
    services.post_official_scores(session=field.session, at=POSTED, by=policy.SYSTEM)
    page.goto(f"{live_server.url}/rulings/{ruling.pk}/correct/")
    page.check("[name=correction_basis][value='79C']")
    page.fill("[name=correction_reason]", "The score was recorded wrongly")
    with page.expect_navigation():
        page.click("button[name=give]")
    # Without the statement the period's end is named and the 79C2 route explained.
    assert "The regulations allow a later correction (Law 79C2)" in page.inner_text("main")
    assert Ruling.objects.count() == 1
    if not page.is_visible("[name=late_director]"):
        page.click("text=After the correction period (Law 79C2)")
    page.fill("[name=late_director]", "A. Director")
    page.fill("[name=late_organiser]", "B. Organiser")
    page.fill("[name=late_statement]", "The scorer entered 4S+1 for 4S=; both scorecards say 420.")
    _fits(page, "correction form")
    with page.expect_navigation():
        page.click("button[name=give]")
    page.wait_for_selector("#versions")
    assert page.inner_text(".late-correction") == (
        "After the correction period (Law 79C2): A. Director (director) and B. Organiser (organiser): "
        "The scorer entered 4S+1 for 4S=; both scorecards say 420."
    )
    correction = Ruling.objects.get(supersedes=ruling)
    assert correction.late_correction["law"] == "79C2"
    assert Ruling.objects.get(pk=ruling.pk).state == Ruling.State.SUPERSEDED
    _fits(page, "ruling page")
    screenshot(page, "late-correction-79c2-phone")
