"""Casebooks as PDF, printed by the system's Chromium from the same HTML the page shows.

One renderer for both: the casebook's print stylesheet lays out the pages, and Chromium (driven
by Playwright, which installs from the package index) prints them, right-to-left Hebrew and the
SVG diagrams included. A server without Chromium says so; the reader can still print the HTML
casebook from their own browser.
"""

import os
import threading

from django.conf import settings
from django.utils.translation import gettext as _

BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# One print at a time: each launches a browser, and a server has few cores.
_lock = threading.Lock()


class PdfUnavailable(RuntimeError):
    """No browser to print with."""


def available():
    return os.path.exists(settings.CHROMIUM_PATH)


def html_to_pdf(html):
    """The PDF of a self-contained HTML document (styles and images inline)."""
    if not available():
        raise PdfUnavailable(
            _(
                "This server has no browser to print PDFs with (looked for %(path)s). Open the "
                "casebook and print it from your browser: its print layout makes the same book."
            )
            % {"path": settings.CHROMIUM_PATH}
        )
    outcome = {}

    # Its own thread: Playwright's sync API refuses to start where an event loop already runs
    # (an async server, or a test already driving a browser).
    def run():
        try:
            outcome["pdf"] = _print(html)
        except Exception as error:  # handed to the caller's thread
            outcome["error"] = error

    with _lock:
        thread = threading.Thread(target=run, name="casebook-pdf")
        thread.start()
        thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["pdf"]


def _print(html):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=settings.CHROMIUM_PATH, args=BROWSER_ARGS)
        try:
            page = browser.new_page()
            page.set_content(html, wait_until="load")
            return page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
        finally:
            browser.close()
