"""A director at the table, on a phone: a weighted adjusted score with the deal from a BBO
link, given in the browser; a real worker recalculates; the standings show it."""

from pathlib import Path

import pytest

from core import policy, roles
from rulings.models import Ruling
from scoring import services
from tests.conftest import make_user, settled, wait_for
from tests.e2e.conftest import log_in, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
LIN_LINK = (Path(__file__).resolve().parents[1] / "fixtures" / "lin" / "handviewer_board1.txt").read_text().strip()


def test_director_gives_a_weighted_ruling_on_a_phone(phone, live_server, worker, field):
    director = make_user("dana", first_name="Dana", last_name="Director")
    director.set_password("table-side")
    director.save()
    services.appoint_official(tournament=field.tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    board = field.boards[0]
    wait_for(lambda: settled(board))

    page = phone
    log_in(page, live_server, "dana", "table-side")
    page.goto(f"{live_server.url}/boards/{board.pk}/")
    with page.expect_navigation():
        page.locator("table.traveller tbody tr").nth(6).get_by_role("link", name="Ruling").click()
    page.select_option("[name=kind]", "ui")
    page.fill("[name=laws]", "16B1a, 12C1c")
    page.fill("[name=facts]", "North hesitated for about 15 seconds before passing 3S; South bid 4S.")
    page.fill("[name=ruling_text]", "Score adjusted: weighted.")
    page.check("input[name=outcome][value=adjusted]")
    page.select_option("[name=score_kind]", "weighted")
    page.select_option("[name=offending_side]", "NS")
    for row, (tricks, weight) in enumerate([(10, "0.5"), (11, "0.3"), (9, "0.2")], start=1):
        page.fill(f"[name=w{row}_contract]", "4S")
        page.select_option(f"[name=w{row}_declarer]", "N")
        page.fill(f"[name=w{row}_tricks]", str(tricks))
        page.fill(f"[name=w{row}_weight]", weight)
    assert page.inner_text("#weight-sum") == "1"
    page.click("text=Deal and auction")
    page.fill("[name=deal_source]", LIN_LINK)
    screenshot(page, "ruling-form-phone")
    with page.expect_navigation():
        page.click("button[name=give]")

    page.wait_for_selector("h1:has-text('Ruling 1')")
    ruling = Ruling.objects.get()
    assert ruling.state == Ruling.State.GIVEN
    assert ruling.score == {"ns": [[420, "0.5"], [450, "0.3"], [-50, "0.2"]]}
    text = page.inner_text("main")
    assert "0.5 4S N = / 0.3 4S N +1 / 0.2 4S N -1" in text
    assert "15-17" in text  # the alert explanation from the BBO link, as a numbered note
    assert "Law 16B1a" in text
    assert page.locator(".diagram .hand").count() == 4
    screenshot(page, "ruling-page-phone")

    wait_for(lambda: settled(board))
    page.goto(f"{live_server.url}/events/{field.event.pk}/standings/")
    row = page.locator("table.standings tr", has_text="P13 Player13")
    assert "7.50" in row.inner_text()  # table X's N-S pair: 8 before the ruling
    screenshot(page, "standings-after-ruling-phone")


@pytest.fixture
def table_x_unplayed(db):
    """Board 1 at seven tables, the result of table 7 (table X) not in yet: the director is called
    there during the auction."""
    from tests.conftest import TABLE_RESULTS, build_pairs_tournament

    record = build_pairs_tournament(tables=7)
    board = record.boards[0]
    for t, (contract, declarer, tricks) in enumerate(TABLE_RESULTS):
        services.record_result(
            board=board,
            round=record.round,
            table=record.tables[t],
            ns=record.pairs[t],
            ew=record.pairs[7 + t],
            contract=contract,
            declarer=declarer,
            tricks=tricks,
            by=policy.SYSTEM,
        )
    return record


def _standing(page, live_server, event):
    page.goto(f"{live_server.url}/events/{event.pk}/standings/")
    row = page.locator("table.standings tr", has_text="P13 Player13")
    return row.inner_text() if row.count() else ""


def test_a_ruling_opened_during_the_auction_given_after_the_result_then_corrected(
    phone, live_server, worker, table_x_unplayed
):
    """Issue #13's "Done when": the standings change once for each step, and the ruling page
    shows both versions."""
    from scoring.models import Board

    record = table_x_unplayed
    board = record.boards[0]
    director = make_user("dana", first_name="Dana", last_name="Director")
    director.set_password("table-side")
    director.save()
    services.appoint_official(tournament=record.tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    wait_for(lambda: settled(board))

    def version():
        return Board.objects.get(pk=board.pk).score_version

    page = phone
    log_in(page, live_server, "dana", "table-side")
    before_result = _standing(page, live_server, record.event)

    # 1. Called to table 7 during the auction: board and table number straight to the form.
    page.goto(f"{live_server.url}/rulings/")
    with page.expect_navigation():
        page.click("text=New ruling: board and table")
    page.fill("[name=board]", "1")
    page.fill("[name=table]", "7")
    with page.expect_navigation():
        page.click("button:has-text('To the ruling form')")
    assert page.locator("#awaiting-result").is_visible()
    page.select_option("[name=kind]", "ui")
    page.select_option("[name=called_by]", "E")
    page.fill("[name=facts]", "North paused about 15 seconds before passing 3S; South then bid 4S.")
    page.click("text=Statements of each side")
    page.fill("[name=statement_ns]", "North: I was thinking about the opponents' alert.")
    page.fill("[name=statement_ew]", "East: the pause was long and obvious.")
    page.fill("[name=laws]", "16B1a, 12C1c")
    page.fill("[name=ruling_text]", "Play on; the director will come back at the end of the hand.")
    screenshot(page, "ruling-during-auction-phone")
    unchanged = version()
    with page.expect_navigation():
        page.click("button[name=draft]")
    page.wait_for_selector("h1:has-text('Ruling 1')")
    assert "Awaiting the table's result." in page.inner_text("main")
    ruling = Ruling.objects.get()
    assert ruling.result is None and ruling.state == Ruling.State.DRAFT
    assert version() == unchanged  # nothing for the scores yet

    # 2. The result comes in from the scoring program: the standings change once.
    services.record_result(
        board=board,
        round=record.round,
        table=record.tables[6],
        ns=record.pairs[6],
        ew=record.pairs[13],
        contract="4S",
        declarer="N",
        tricks=10,
        by=policy.SYSTEM,
    )
    assert version() == unchanged + 1
    wait_for(lambda: settled(board))
    after_result = _standing(page, live_server, record.event)
    assert "8.00" in after_result and after_result != before_result

    # 3. The ruling is completed and given: a weighted score, one change.
    page.goto(f"{live_server.url}/rulings/{ruling.pk}/")
    with page.expect_navigation():
        page.click("#complete-ruling")
    page.fill("[name=ruling_text]", "Score adjusted: weighted.")
    page.check("input[name=outcome][value=adjusted]")
    page.select_option("[name=score_kind]", "weighted")
    page.select_option("[name=offending_side]", "NS")
    for row, (tricks, weight) in enumerate([(10, "0.5"), (11, "0.3"), (9, "0.2")], start=1):
        page.fill(f"[name=w{row}_contract]", "4S")
        page.select_option(f"[name=w{row}_declarer]", "N")
        page.fill(f"[name=w{row}_tricks]", str(tricks))
        page.fill(f"[name=w{row}_weight]", weight)
    given_from = version()
    with page.expect_navigation():
        page.click("button[name=give]")
    page.wait_for_selector("text=Given at the table")
    assert version() == given_from + 1
    wait_for(lambda: settled(board))
    after_ruling = _standing(page, live_server, record.event)
    assert "7.50" in after_ruling

    # 4. Corrected with a reason (Law 82C): the earlier ruling superseded, one change.
    page.goto(f"{live_server.url}/rulings/{ruling.pk}/")
    with page.expect_navigation():
        page.click("#correct-ruling")
    page.check("input[name=correction_basis][value='82C']")
    page.fill(
        "[name=correction_reason]",
        "The poll was misread: passing 3S was not a logical alternative "
        "for 4S, but 3S making ten tricks is the likely result.",
    )
    page.fill("[name=laws]", "16B1a, 12C1e")
    page.fill("[name=ruling_text]", "Score adjusted to 3S N +1.")
    page.check("input[name=outcome][value=adjusted]")
    page.select_option("[name=score_kind]", "assigned")
    page.select_option("[name=offending_side]", "NS")
    page.fill("[name=contract]", "3S")
    page.select_option("[name=declarer]", "N")
    page.fill("[name=tricks]", "10")
    corrected_from = version()
    with page.expect_navigation():
        page.click("button[name=give]")
    page.wait_for_selector("h1:has-text('Ruling 2')")
    assert version() == corrected_from + 1
    versions = page.inner_text("#versions")
    assert "Ruling 1" in versions and "Superseded by a correction" in versions
    assert "Ruling 2" in versions and "The poll was misread" in versions
    screenshot(page, "ruling-corrected-phone")
    wait_for(lambda: settled(board))
    after_correction = _standing(page, live_server, record.event)
    assert "5.00" in after_correction
    first = Ruling.objects.get(number=1)
    assert first.state == Ruling.State.SUPERSEDED and first.result is not None
