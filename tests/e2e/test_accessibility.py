"""axe-core over every page each role reaches, on a phone (issue #27): no violation of WCAG 2.0,
2.1 or 2.2 A/AA, of any impact, including the 24 px target size of WCAG 2.2.

Each role logs in to the demo and walks the site from its home page by the links it is shown
(one page per kind of address: /rulings/7/ stands for every ruling), and axe runs in each page.
axe-core is vendored in tests/e2e/vendor/ (see its README.md) and evaluated through the browser's
devtools, which the page's Content-Security-Policy does not govern: the site's own CSP check
(conftest.no_csp_violation) stays on."""

import re
from pathlib import Path
from urllib.parse import urldefrag, urlsplit

import pytest

from tests.e2e.conftest import PHONE, log_in, speak
from tests.e2e.test_national import small_demo  # noqa: F401 - fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text()
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
RUN = """async tags => {
  const results = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return results.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.map(n => n.target.join(' ') + ' :: ' + (n.failureSummary || '').split('\\n').slice(1).join(' '))}));
}"""
# Not pages: leaving, files to download, the machine API, the admin (Django's own) and the
# service worker's files.
SKIP = re.compile(
    r"^/(logout|admin|api|i18n|static|media|sw\.js|manifest)|\.(pdf|csv|json|pbn|txt|xml)$|/export|/download"
)
MOST_PAGES = 60


def kind_of(path):
    """/rulings/7/ and /rulings/12/ are one kind of page."""
    return re.sub(r"\d+", "N", path)


def violations_in(page):
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE)
    return page.evaluate(RUN, TAGS)


def described(url, violations):
    lines = [url]
    for v in violations:
        lines.append(f"  {v['id']} ({v['impact']}): {v['help']}")
        lines.extend(f"      at {target}" for target in v["targets"][:5])
    return "\n".join(lines)


def walk(page, origin, start):
    """Every kind of page reachable from ``start`` by the links shown, with axe's findings."""
    found, seen, queue = [], set(), [start]
    while queue and len(seen) < MOST_PAGES:
        path = queue.pop(0)
        if kind_of(path) in seen:
            continue
        seen.add(kind_of(path))
        response = page.goto(origin + path)
        if response is None or "text/html" not in (response.headers.get("content-type") or ""):
            continue
        if urlsplit(page.url).path != path:  # a redirect: the page it leads to is walked as its own kind
            landed = urlsplit(page.url).path
            if kind_of(landed) in seen:
                continue
            seen.add(kind_of(landed))
        page.wait_for_load_state("load")
        violations = violations_in(page)
        if violations:
            found.append(described(page.url, violations))
        for href in page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)"):
            url = urlsplit(urldefrag(href)[0])
            if f"{url.scheme}://{url.netloc}" != origin or url.query or SKIP.search(url.path):
                continue
            if kind_of(url.path) not in seen:
                queue.append(url.path)
    return seen, found


ROLES = [
    ("director", "/"),
    ("chief", "/"),
    ("player", "/"),
    ("appeals", "/"),
    ("auditor", "/national/"),
    ("scorer", "/"),
    (None, "/"),
]


@pytest.mark.parametrize("username,home", ROLES, ids=[u or "anonymous" for u, _h in ROLES])
@pytest.mark.parametrize("language", ["en", "he"])
def test_every_page_of_every_role_passes_axe_on_a_phone(browser, live_server, small_demo, username, home, language):  # noqa: F811
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20000)
    if username:
        log_in(page, live_server, username, f"{username}-demo", lands_on=home)
    else:
        page.goto(f"{live_server.url}/")
    reader = speak(page, language)  # in Hebrew, each page: right to left, no English interface, no scrambled line
    seen, found = walk(page, live_server.url, home)
    if not username:
        more, also = walk(page, live_server.url, "/login/")
        seen |= more
        found += also
    context.close()
    assert len(seen) >= 2, seen
    assert not found, f"axe found violations on {len(found)} of {len(seen)} pages:\n" + "\n".join(found)
    if language != "en":
        reader.assert_clean()
