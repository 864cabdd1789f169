"""Casebooks as PDF, printed by the system's Chromium from the same HTML the page shows.

One renderer for both: the casebook's print stylesheet lays out the pages, and Chromium (driven
by Playwright, which installs from the package index) prints them, right-to-left Hebrew and the
SVG diagrams included. Playwright is an optional extra (requirements/printer.txt): a server
without it, or without Chromium, says which is missing; the reader can still print the HTML
casebook from their own browser.

The printer's browser runs with JavaScript off and no network (issue #30): every request it
makes is answered here, the document from memory and the site's own static files (the
casebook's stylesheet) from disk; anything else is refused, and no host name resolves.
"""

import importlib.util
import mimetypes
import os
import threading
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.utils.translation import gettext as _

BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # No network: no host name resolves, so nothing the routes below miss can be fetched.
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--disable-quic",
]
# The address the document is printed at: never resolved, every request to it answered in-process.
ORIGIN = "http://casebook.invalid"

# One print at a time: each launches a browser, and a server has few cores.
_lock = threading.Lock()


class PdfUnavailable(RuntimeError):
    """No browser to print with."""


def printer_installed():
    """Whether the printer's extra (Playwright, requirements/printer.txt) is installed."""
    return importlib.util.find_spec("playwright") is not None


def available():
    return printer_installed() and os.path.exists(settings.CHROMIUM_PATH)


def html_to_pdf(html):
    """The PDF of an HTML document whose styles and images are inline or the site's static files."""
    if not printer_installed():
        raise PdfUnavailable(
            _(
                "This server cannot print PDFs: the casebook printer's package (Playwright) is not "
                "installed (pip install -r requirements/printer.txt). Open the casebook and print it "
                "from your browser: its print layout makes the same book."
            )
        )
    if not os.path.exists(settings.CHROMIUM_PATH):
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


def static_file(path):
    """The file on disk behind a static URL's path (``/static/css/casebook.css``), or None."""
    prefix = "/" + settings.STATIC_URL.lstrip("/")
    if not path.startswith(prefix):
        return None
    name = path[len(prefix) :]
    if not name or ".." in Path(name).parts:
        return None
    found = finders.find(name)
    if found:
        return Path(found)
    try:  # a collected (hashed) name, as the page names it when DEBUG is off
        candidate = Path(staticfiles_storage.path(name))
    except NotImplementedError:
        return None
    return candidate if candidate.is_file() else None


def answer(route, html):
    """Every request of the printer's browser: the document, a static file, or refused."""
    url = route.request.url
    if not url.startswith(ORIGIN + "/"):
        return route.abort("blockedbyclient")
    path = url[len(ORIGIN) :].split("?", 1)[0].split("#", 1)[0]
    if path == "/":
        return route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)
    found = static_file(path)
    if found is None:
        return route.abort("blockedbyclient")
    content_type = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
    return route.fulfill(status=200, content_type=content_type, body=found.read_bytes())


def _print(html):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=settings.CHROMIUM_PATH, args=BROWSER_ARGS)
        try:
            context = browser.new_context(java_script_enabled=False, service_workers="block")
            context.route("**/*", lambda route: answer(route, html))
            page = context.new_page()
            page.goto(ORIGIN + "/", wait_until="load")
            return page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
        finally:
            browser.close()
