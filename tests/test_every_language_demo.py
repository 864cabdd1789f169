"""The every-language checks of tests/test_every_language.py over the demo (issue #27): every page
each demo login reaches by following links from the home page (``manage.py load_demo
--past-seasons``, small), in each language. What the demo's people wrote (a director's facts, a
committee's reasons: the string literals of the demo modules) is theirs, in English, and is not
checked; what the services stored (a score's words, an outcome, a call) is. A module of its own:
the demo's logins share names with the role matrix's world, which the other module builds."""

import ast
import collections
import functools
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import Resolver404, resolve
from django.utils import translation

from tests.demo import load_small_demo
from tests.test_every_language import LANGUAGES, found_in, reported, shown

# The demo's logins (scoring/demo.py, appeals/demo.py): every role with the demo's records.
DEMO_USERS = ("director", "chief", "scorer", "appeals", "appeals2", "auditor", "player", "admin")
DEMO_MODULES = ("scoring/demo.py", "rulings/demo.py", "appeals/demo.py", "national/demo.py")
# Pages of each kind (view) a login's walk reads at most: the second shows what the first does
# not (another ruling's kind, another appeal's state) without reading all forty boards.
PER_VIEW = 2
NOT_WALKED = ("/admin", "/accounts/logout", "/logout", "/static", "/media", "/api/")


@functools.cache
def demo_literals():
    """What the demo's people wrote: every string literal of the demo modules with a space in it,
    longest first (so a sentence goes before a phrase of it)."""
    found = set()
    for module in DEMO_MODULES:
        tree = ast.parse((Path(settings.BASE_DIR) / module).read_text())
        found |= {
            node.value.strip()
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and " " in node.value.strip()
        }
    return sorted(found, key=len, reverse=True)


def without_demo_literals(lines):
    """``lines`` with what the demo's people wrote taken out."""
    out = []
    for line in lines:
        for literal in demo_literals():
            if literal in line:
                line = line.replace(literal, " ")
        out.append(line)
    return out


class Links(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links = []

    def handle_starttag(self, tag, attrs):
        href = dict(attrs).get("href")
        if tag == "a" and href and href.startswith("/"):
            self.links.append(href.split("#")[0])


def walk(client):
    """The pages ``client`` reaches from the home page by following links, at most PER_VIEW of
    each view, in the order met."""
    seen, per_view, queue, pages = set(), collections.Counter(), ["/"], []
    while queue:
        path = queue.pop(0)
        if path in seen or path.startswith(NOT_WALKED):
            continue
        seen.add(path)
        try:
            view = resolve(path.split("?")[0]).view_name
        except Resolver404:
            continue
        if per_view[view] >= PER_VIEW:
            continue
        per_view[view] += 1
        response = client.get(path)
        if response.status_code != 200 or not response.get("Content-Type", "").startswith("text/html"):
            continue
        pages.append(path)
        links = Links()
        links.feed(response.content.decode())
        queue += [link for link in links.links if link not in seen]
    return pages


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The small demo with the past seasons' casebook (precedents), and the pages each demo login
    reaches (walked in English), built once and rolled back at the end."""
    with django_db_blocker.unblock(), transaction.atomic():
        load_small_demo(past_seasons=True)
        users = {name: get_user_model().objects.get(username=name) for name in DEMO_USERS}
        walks = {}
        for name, user in users.items():
            client = Client()
            client.force_login(user)
            with translation.override("en"):
                walks[name] = walk(client)
        yield users, walks
        transaction.set_rollback(True)


@pytest.mark.walk
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_of_the_demo_in_every_language(demo, db, language):
    """Every page each demo login reaches, in ``language``: no exponent-form number and no side
    code in any language, and on a page in another language than English no English of the
    catalogue and no English the services stored (what the demo's people wrote aside)."""
    users, walks = demo
    problems, fetched = [], 0
    for name, paths in walks.items():
        client = Client()
        client.force_login(users[name])
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        for path in paths:
            response = client.get(path)
            fetched += 1
            if response.status_code >= 500:
                problems.append((f"{name} {path}", f"answered {response.status_code}"))
                continue
            found = found_in(without_demo_literals(shown(response, language)), language)
            problems += [(f"{name} {path}", what) for what in found]
    assert fetched > 150
    report = reported(problems)
    assert not report, f"{len(report)} problems in {language} on the demo's pages:\n" + "\n".join(report)
