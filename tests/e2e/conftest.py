"""A real browser for the web tests: Debian's Chromium driven by Playwright, headless."""

import os
from pathlib import Path

import pytest
from django.utils import translation

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 390, "height": 844}


# Issue #30: a page that breaks its Content-Security-Policy fails the browser test that opened it.
# Chromium reports each violation on the console ("Refused to execute inline script because it
# violates the following Content Security Policy directive ...").
CSP_VIOLATIONS = []


def watch_console(context):
    def heard(message):
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            CSP_VIOLATIONS.append(f"{message.page.url if message.page else '?'}: {message.text}")

    context.on("console", heard)
    return context


class WatchedBrowser:
    """The browser, every context and page of which reports CSP violations to CSP_VIOLATIONS."""

    def __init__(self, browser):
        self._browser = browser

    def __getattr__(self, name):
        return getattr(self._browser, name)

    def new_context(self, *args, **kwargs):
        return watch_console(self._browser.new_context(*args, **kwargs))

    def new_page(self, *args, **kwargs):
        page = self._browser.new_page(*args, **kwargs)
        watch_console(page.context)
        return page


@pytest.fixture(autouse=True)
def no_csp_violation():
    CSP_VIOLATIONS.clear()
    yield
    found, CSP_VIOLATIONS[:] = list(CSP_VIOLATIONS), []
    if found:
        pytest.fail("the Content-Security-Policy was broken:\n  " + "\n  ".join(found))


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        message = f"no browser at {CHROMIUM}: install Debian's chromium (apt-get install chromium)"
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop; Django must allow its ORM calls in tests.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
            ],
        )
        yield WatchedBrowser(instance)
        instance.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


def screenshot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def log_in(page, live_server, username, password, lands_on="/"):
    """Log in through the form; ``lands_on`` is where the role's home is (an auditor's: /national/)."""
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}{lands_on}")


def words(language):
    """What the interface says in ``language``: a test walking in it finds its buttons by them."""

    def say(message):
        with translation.override(language):
            return translation.gettext(message)

    return say


def speak(page, language):
    """Switch ``page`` to ``language`` with the language selector, as a user does. Every page it
    loads from then on, in a right-to-left language, is read as its reader would
    (tests/e2e/reading.py): the Reader is returned, to assert on at the end of the walk."""
    from tests.e2e.reading import Reader

    reader = Reader(language)
    if language != "en":
        with page.expect_navigation():  # the language switcher submits itself on change
            page.select_option("#language", language)
        if translation.get_language_info(language)["bidi"]:
            reader.watch(page)
            reader.read(page)
    return reader


def ask_to_appeal(page, row, grounds, *, touch=True, language="en"):
    """The player's request to appeal from ``row`` (a ruling's row with its "Ask to appeal"):
    opened, its grounds typed and sent to the director, by tapping (``touch``) or clicking, in
    the page's ``language``."""
    say = words(language)

    def press(locator):
        locator.tap() if touch else locator.click()

    press(row.locator("summary", has_text=say("Ask to appeal")))
    row.locator("form[action*='/request/'] [name=grounds]").fill(grounds)
    with page.expect_navigation():
        press(row.get_by_role("button", name=say("Send to the director")))
    page.get_by_text(say("Your request is with the director, who lodges the appeal (Law 92C).")).wait_for()
