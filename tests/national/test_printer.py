"""The casebook printer's browser runs with JavaScript off and no network (issue #30): the
document and the site's own static files are answered in-process, anything else refused."""

import io
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.conf import settings

from national import pdf


class Route:
    """What Playwright hands a route handler, as far as the printer reads it."""

    def __init__(self, url):
        self.request = type("Request", (), {"url": url})()
        self.answered = None

    def fulfill(self, **kwargs):
        self.answered = ("fulfilled", kwargs)

    def abort(self, reason):
        self.answered = ("aborted", reason)


def answered(url, html="<p>book</p>"):
    route = Route(url)
    pdf.answer(route, html)
    return route.answered


def test_the_printer_answers_the_document_and_static_files_and_refuses_the_rest():
    kind, document = answered(pdf.ORIGIN + "/")
    assert kind == "fulfilled" and document["body"] == "<p>book</p>"
    kind, sheet = answered(f"{pdf.ORIGIN}/{settings.STATIC_URL.lstrip('/')}css/casebook.css")
    assert kind == "fulfilled" and sheet["content_type"] == "text/css"
    assert sheet["body"] == (Path(settings.BASE_DIR) / "static/css/casebook.css").read_bytes()
    for url in (
        "http://example.org/tracker.png",
        "http://127.0.0.1:8000/static/css/site.css",
        f"{pdf.ORIGIN}/national/casebooks/1/book/",
        f"{pdf.ORIGIN}/static/../config/settings.py",
        f"{pdf.ORIGIN}/static/css/nothing-here.css",
        "file:///etc/passwd",
    ):
        assert answered(url)[0] == "aborted", url


@pytest.mark.skipif(not pdf.available(), reason="no Chromium on this machine")
def test_a_printed_page_runs_no_script_and_fetches_nothing():
    from pypdf import PdfReader

    hits = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    here = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        body = pdf.html_to_pdf(
            f"""<!doctype html><html><head><link rel="stylesheet" href="{here}/sheet.css"></head><body>
            <p id="text">The plain text of the book.</p>
            <img src="{here}/image.png" alt="">
            <script>document.getElementById("text").textContent = "A script ran";
            fetch("{here}/fetched");</script></body></html>"""
        )
    finally:
        server.shutdown()
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)
    assert "The plain text of the book." in text and "A script ran" not in text
    assert hits == []
