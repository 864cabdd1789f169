"""A director's phone with the network cut (issue #31), through Playwright's offline mode
against a live server: the tournament's pages kept when it is opened (a board, its deal and
traveller, a ruling's auction, the law text); a ruling drafted and given with no network, kept
in IndexedDB across a reload and a browser restart, sent once the network returns and given
once however often it is sent; a draft for a table another director ruled on comes back as
"needs your attention" with the server's reason, and is kept."""

from pathlib import Path

import pytest

from core import policy, roles
from rulings import services as rulings_services
from rulings.catalogue import sync_law_catalogue
from rulings.models import Ruling
from scoring import services
from tests.conftest import make_user, settled, wait_for
from tests.e2e.conftest import CHROMIUM, PHONE, log_in, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
LIN_LINK = (Path(__file__).resolve().parents[1] / "fixtures" / "lin" / "handviewer_board1.txt").read_text().strip()
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def phone_browser(browser, profile, offline=False):
    """Chromium with a profile kept on disk (what a phone keeps between launches)."""
    context = browser.browser_type.launch_persistent_context(
        str(profile),
        executable_path=CHROMIUM,
        args=ARGS,
        headless=True,
        viewport=PHONE,
        offline=offline,
        # The test's own wait_for_function predicates are strings Playwright evaluates, which the
        # site's CSP (no unsafe-eval) refuses; the pages' own scripts are unaffected.
        bypass_csp=True,
    )
    context.set_default_timeout(20000)
    page = context.pages[0] if context.pages else context.new_page()
    return context, page


def draft_state(page, table):
    item = page.locator("#draft-list li", has_text=f"table {table}:")
    return item.get_attribute("data-state")


def test_a_directors_phone_with_no_network(browser, live_server, field, tmp_path):
    sync_law_catalogue()
    dana = make_user("dana", first_name="Dana", last_name="Director")
    dana.set_password("table-side")
    dana.save()
    services.appoint_official(tournament=field.tournament, user=dana, role=roles.DIRECTOR, by=policy.SYSTEM)
    olga = make_user("olga", first_name="Olga", last_name="Other")
    services.appoint_official(tournament=field.tournament, user=olga, role=roles.DIRECTOR, by=policy.SYSTEM)
    board = field.boards[0]
    wait_for(lambda: settled(board), what="the board's scores")
    earlier = rulings_services.rule(
        result=field.results[0], director=dana, kind="mi", laws="40B4", deal_source=LIN_LINK, ruling_text="Stands."
    )
    url = live_server.url
    profile = tmp_path / "phone-profile"

    # With the network: the director opens the tournament; the phone keeps its pages.
    context, page = phone_browser(browser, profile)
    log_in(page, live_server, "dana", "table-side")
    page.goto(f"{url}/tournaments/{field.tournament.pk}/")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_selector("#offline-keep[data-done=saved]")
    assert "Saved on this phone for offline use" in page.inner_text("#offline-keep")

    # No network: the board (deal and traveller), the ruling's auction, the law text.
    context.set_offline(True)
    page.goto(f"{url}/boards/{board.pk}/")
    assert page.locator(".diagram .hand").count() == 4
    assert page.locator("table.traveller tbody tr").count() == 7
    assert page.is_visible("#offline-banner")
    assert "No network: this page is as this phone saved it at" in page.inner_text("#offline-banner")
    screenshot(page, "offline-board-phone")
    page.goto(f"{url}/rulings/{earlier.pk}/")
    assert page.locator("table.auction td").count() > 4
    page.goto(f"{url}/rulings/laws/2017/")
    assert "92B" in page.inner_text("#law-92B")
    page.goto(f"{url}/appeals/")  # never opened: the phone says so
    assert "Not saved on this phone" in page.inner_text("h1")

    # Meanwhile another director rules at table 4, on the server.
    olgas = rulings_services.rule(
        result=field.results[3], director=olga, kind="claim", laws="70D1", give=True, ruling_text="The claim stands"
    )

    # Drafts with no network: table 3 from the traveller's "Ruling" link, given; table 4 too.
    page.goto(f"{url}/boards/{board.pk}/")
    page.locator("table.traveller tbody tr").nth(2).get_by_role("link", name="Ruling").click()
    page.wait_for_selector("#draft-form")
    assert page.input_value("[name=table]") == "3"
    page.select_option("[name=kind]", "ui")
    page.fill("[name=laws]", "16B1a")
    page.fill("[name=facts]", "North hesitated before passing 3S; South bid 4S.")
    page.fill("[name=ruling_text]", "Result stands: pass was not a logical alternative.")
    page.click("button[name=give]")
    page.wait_for_selector("#draft-list li[data-state=saved]")
    page.fill("[name=board]", "1")
    page.fill("[name=table]", "4")
    page.fill("[name=ruling_text]", "Claim accepted.")
    page.click("button[name=give]")
    page.wait_for_function("document.querySelectorAll('#draft-list li[data-state=saved]').length === 2")
    assert "Ruling drafts waiting to be sent: 2" in page.inner_text("#offline-banner")
    assert page.is_visible("#offline-banner .send-now")
    page.reload()
    page.wait_for_function("document.querySelectorAll('#draft-list li[data-state=saved]').length === 2")
    assert "Saved on this phone" in page.inner_text("#draft-list")
    screenshot(page, "offline-drafts-phone")
    assert not Ruling.objects.filter(table=field.tables[2]).exists()

    # The phone is switched off and on again, still with no network: the drafts are there.
    context.close()
    context, page = phone_browser(browser, profile, offline=True)
    page.goto(f"{url}/rulings/drafts/")
    page.wait_for_function("document.querySelectorAll('#draft-list li[data-state=saved]').length === 2")

    # The network returns: both are sent; table 3's is given once, table 4's needs attention.
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")  # as the browser does
    page.wait_for_selector("#draft-list li[data-state=sent]")
    page.wait_for_selector("#draft-list li[data-state=attention]")
    assert draft_state(page, 3) == "sent"
    attention = page.inner_text("#draft-list li[data-state=attention]")
    assert "Needs your attention" in attention
    assert "Another director has ruled at this table while your draft waited" in attention
    assert "Ruling 2 by Olga Other" in attention
    # Two ways on (issue #41): merge into Olga's ruling (its page), or send as a further ruling.
    merge = page.locator("#draft-list li[data-state=attention] a.merge")
    assert merge.inner_text() == "Open that ruling to merge yours into it"
    assert merge.get_attribute("href") == f"/rulings/{olgas.pk}/"
    assert page.is_visible("#draft-list li[data-state=attention] button.further")
    screenshot(page, "offline-drafts-sent-phone")
    given = Ruling.objects.get(table=field.tables[2], board=board)
    assert given.state == Ruling.State.GIVEN and given.director == dana
    assert given.device_time is not None and given.received_at is not None
    assert Ruling.objects.filter(table=field.tables[3], director=dana).count() == 0

    # Sent twice (the answer lost on the way, say): still one ruling.
    status = page.evaluate(
        """async () => {
            const drafts = await window.BridgeDrafts.all();
            const sent = drafts.find(d => d.state === "sent");
            const token = document.cookie.match(/csrftoken=([^;]+)/)[1];
            const response = await fetch("/api/v1/ruling-drafts/", {method: "POST", body: sent.body,
                headers: {"Content-Type": "application/json", "X-CSRFToken": token, "Idempotency-Key": sent.key}});
            return [response.status, response.headers.get("Idempotent-Replayed")];
        }"""
    )
    assert status == [201, "true"]
    assert Ruling.objects.filter(table=field.tables[2], board=board).count() == 1

    # The ruling's page shows both clocks.
    page.click("#draft-list li[data-state=sent] a")
    assert "Received by the server at" in page.inner_text("main")
    assert "Drafted on the phone at" in page.inner_text("main")
    context.close()
