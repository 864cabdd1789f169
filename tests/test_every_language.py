"""Every page and every API error, for every role, in each of the six languages (issue #16).

The pages and the roles are the role matrix's (tests/roles/matrix.py, on the records of
tests/roles/world.py, built once for this module): every page a role may read, every API read,
and every refusal the API gives a role that may not act. Each is fetched once per language, and
a page in a language other than English fails when it shows

- a message of the catalogue in English where the language's catalogue translates it (or lacks
  it): a sentence fragment of an English msgid (two words or more, at least 12 characters) in
  the page's visible text that is no part of any of the language's translations;
- English that the services stored (the notes, summaries and score words listed in
  STORED_ENGLISH): stored English shown as written instead of its code read in the reader's
  language.

- a number in exponent form ("1E+1 percent of a top": ``Decimal.normalize()`` shown as it is),
  in any language, English too;
- a side as its code ("(NS)", "EW") rather than its name in the reader's words, in any language.

The same checks walk the demo (``manage.py load_demo --past-seasons``, small): every page each
demo login reaches by following links from the home page, in each language
(tests/test_every_language_demo.py). What the demo's people wrote (a director's
facts, a committee's reasons: the string literals of the demo modules) is theirs, in English,
and is not checked; what the services stored (a score's words, an outcome, a call) is.

The visible text is the HTML's text and the attributes a reader meets (title, aria-label,
placeholder, alt); in JSON, every string value with a space in it (codes such as ``"lodged"``
are not words for a reader). What people wrote themselves (the world's facts, grounds, names)
is exempt by construction: none of it repeats a catalogue message.
"""

import functools
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.db import transaction

from tests.roles import matrix
from tests.roles.world import ROLES
from tests.test_role_matrix import client_for, send, world  # noqa: F401 - the shared module fixture

pytestmark = pytest.mark.second_round

LANGUAGES = [code for code, _name in settings.LANGUAGES]
FOREIGN = [code for code in LANGUAGES if code != "en"]
LOCALE = Path(settings.BASE_DIR) / "locale"
PLACEHOLDER = re.compile(r"%\([^)]*\)[sdif]|%[sdif%]|\{[a-z_0-9]*\}|\{\{[^}]*\}\}|<[^>]+>")

# English words the services wrote into stored text before it was kept as codes, and words of
# stored texts that are not catalogue messages; none may reach a reader of another language.
STORED_ENGLISH = [
    r"\bweighted \d",
    r"\bredress \(",
    r"\bnormal play [+-]\d",
    r"\bwithout the infraction [+-]\d",
    r"\bpassed out\b",
    r"\bBoard \d+, table \d+\b",
    r"\bsuperseded by\b",
    r"\basks to appeal\b",
    r"\brequest to appeal\b",
    r"\(dissent\)",
    r"\(advisory\)",
    r"\bby ruling \d+\b",
    r"\bappeal \d+ without merit\b",
    r"\bImported from the scoring program",
    r"\bdated values written\b",
    r"\breferred by the director\b",
    r"\bno conflict\b",
    r"\b(?:Appeals committee|Single referee|Panel of directors) of \d\b",
    r"^Pass$",
    r"(?<![\w-])Pass \d+\b",  # a poll's count ("Pass 4 · 4S 1")
    r"\b(?:North|East|South|West|\w+) Pass —",  # an auction's note ("East Pass — tempo: 20 s")
    r"\bRuling (?:upheld|varied|overturned)\b",
    r"\bweighted score:",
    r"\btricks? (?:\(s\) )?transferred\b",
    r"\btricks? awarded to declarer\b",
    r"\bfurther tricks? (?:\(s\) )?for equity\b",
    r"\bDealer: (?:North|East|South|West)\b",
    r"\bVul: (?:None|All|N-S|E-W)\b",
]
# A casebook is published in its regulating authority's language, whoever reads it.
PUBLISHED = re.compile(r"^/national/casebooks/\d+/book")
# Django's and DRF's own messages, which their catalogues translate: English here means a
# language the frameworks were not given.
FRAMEWORK_ENGLISH = [
    r"\bThis field is required\.",
    r"\bYou do not have permission to perform this action\.",
    r"\bAuthentication credentials were not provided\.",
    r"^No \w+ matches the given query\.",
    r"\bis not a valid choice\.",
    r"\bEnter a valid",
]
STORED_RE = re.compile("|".join(f"(?:{pattern})" for pattern in STORED_ENGLISH + FRAMEWORK_ENGLISH), re.M)
# A Decimal in exponent form ("1E+1", "2.5E-3"); a law number (6E1, 45E2) has no sign.
EXPONENT = re.compile(r"\d[Ee][+-]\d+")
# A side's code where its name belongs: "(NS)", "EW" standing alone.
RAW_SIDE = re.compile(r"(?<![\w-])(?:NS|EW)(?![\w-])")


def raw_numbers_and_codes(lines):
    """What of ``lines`` no reader of any language should see: exponent-form numbers and side
    codes."""
    text = "\n".join(lines)
    return [
        f"{what} {match.group(0)!r}: {text[max(0, match.start() - 40) : match.end() + 40]!r}"
        for what, pattern in (("exponent-form number", EXPONENT), ("raw side code", RAW_SIDE))
        for match in pattern.finditer(text)
    ]


@functools.cache
def english_fragments():
    """Every msgid of the source catalogue, cut at its placeholders and markup, as
    {fragment: msgid} for the fragments a reader would recognise as English."""
    found = {}
    for entry in polib.pofile(str(LOCALE / "en" / "LC_MESSAGES" / "django.po")):
        for msgid in filter(None, (entry.msgid, entry.msgid_plural)):
            for piece in PLACEHOLDER.split(msgid):
                piece = piece.strip(" .,:;()·—-\n")
                if len(piece) >= 12 and len(piece.split()) >= 2 and re.search(r"[a-z]{3}", piece):
                    found.setdefault(piece, (entry.msgctxt, entry.msgid))
    return found


@functools.cache
def catalogue(language):
    """(translated msgids, every translation of the language joined: what English may appear)."""
    translated, texts = set(), []
    for entry in polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po")):
        if entry.obsolete or "fuzzy" in entry.flags:
            continue
        strings = [entry.msgstr, *entry.msgstr_plural.values()] if entry.msgid_plural else [entry.msgstr]
        if all(strings):
            translated.add((entry.msgctxt, entry.msgid))
            texts += strings
    return translated, "\n".join(texts)


@functools.cache
def suspects(language):
    """The English fragments that must not be shown in ``language``: those of messages the
    language lacks, and those of translated messages that no translation of it contains."""
    translated, texts = catalogue(language)
    return {
        fragment: key for fragment, key in english_fragments().items() if key not in translated or fragment not in texts
    }


class VisibleText(HTMLParser):
    SKIP = {"script", "style"}
    ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self, language):
        super().__init__(convert_charrefs=True)
        self.language, self.parts, self.skipping, self.open = language, [], 0, []
        self.page_language = None

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            if not self.skipping:
                self.parts += [value for name, value in attrs if name in self.ATTRIBUTES and value]
            return
        values = dict(attrs)
        # Text marked as written in another language (lang="en" on a casebook's words, a
        # regulation's note) is shown as written, on purpose.
        if tag == "html":
            self.page_language = values.get("lang")
        other = values.get("lang") not in (None, "", self.language)
        skip = tag in self.SKIP or other
        self.open.append((tag, skip))
        self.skipping += skip
        if not self.skipping:
            self.parts += [value for name, value in attrs if name in self.ATTRIBUTES and value]

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        while self.open:
            opened, skip = self.open.pop()
            self.skipping -= skip
            if opened == tag:
                break

    def handle_data(self, data):
        if not self.skipping and data.strip():
            self.parts.append(data.strip())


# Not the reader's page: the law catalogue's titles (every language at once) and the sources a
# regulating authority's preset cites, in the language they were published in.
MULTILINGUAL_KEYS = {"title", "titles", "caveat", "source"}


def strings_in(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in MULTILINGUAL_KEYS:
                yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def shown(response, language):
    """The lines of text a reader meets in ``response``."""
    body = response.content.decode("utf-8", "replace")
    if response.get("Content-Type", "").startswith("application/json"):
        try:
            data = json.loads(body)
        except ValueError:
            return [body]
        if isinstance(data, dict) and data.get("language") not in (None, language):
            return []  # a document in its own language (a casebook is published in its body's)
        return [text for text in strings_in(data) if " " in text.strip()]
    if not response.get("Content-Type", "").startswith("text/html"):
        return []
    return shown_html(body, language, response.wsgi_request.path)


def shown_html(body, language, path):
    """The lines of text a reader meets in the HTML ``body`` of the page at ``path`` (also what a
    browser holds: tests/e2e/reading.py)."""
    parser = VisibleText(language)
    parser.feed(body)
    if parser.page_language not in (None, language) and not PUBLISHED.search(path):
        return [f"<html lang={parser.page_language}>", *parser.parts]
    return parser.parts


def english_in(lines, language):
    """What of ``lines`` is English a reader of ``language`` should not see."""
    found = [f"a page in another language: {line}" for line in lines if line.startswith("<html lang=")]
    text = "\n".join(lines)
    for fragment, (context, msgid) in suspects(language).items():
        at = text.find(fragment)
        if at >= 0:
            around = text[max(0, at - 40) : at + len(fragment) + 40].replace("\n", " | ")
            found.append(
                f"catalogue message {msgid!r}{f' ({context})' if context else ''} shown in English: {around!r}"
            )
    found += [
        f"stored English {match.group(0)!r}: {text[max(0, match.start() - 40) : match.end() + 40]!r}"
        for match in STORED_RE.finditer(text)
    ]
    return found


def cases(world):
    """(role, row, path, data) for every page each role may read, every API read, every refusal
    an API write gives a logged-in role, and each API write sent empty by a role that may make
    it (the errors naming the fields); each once."""
    found, seen = [], set()
    for row, target_name in [(each, name) for each in matrix.ROWS for name in each.targets or (None,)]:
        target = world.targets[target_name] if target_name else None
        for role in ROLES:
            if role == "anonymous":
                continue
            expect = row.expect(role, target, world)
            path = row.path(world, target)
            if row.method == "GET":
                wanted = expect.status == 200
            else:
                wanted = row.api and expect.status >= 400
            if not wanted:
                # A role that may act, sending nothing: the API's refusal naming each field.
                if row.api and row.method != "GET" and expect.status < 400 and ("empty", row.method, path) not in seen:
                    seen.add(("empty", row.method, path))
                    found.append((role, row, path, {}))
                continue
            data = row.data(world, target) if row.data else None
            # Each page once per language (by the first role that reads it); an API refusal once
            # per answer it gives (403 and 404 say different things).
            key = (row.method, path, json.dumps(data, sort_keys=True, default=str), expect.status)
            if key not in seen:
                seen.add(key)
                found.append((role, row, path, data))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_and_api_error_in_every_language(world, db, language):  # noqa: F811
    problems, fetched = [], 0
    for role, row, path, data in cases(world):
        with transaction.atomic():
            client = client_for(world, role)
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
            response = send(client, row.method, path, data, row.api)
            transaction.set_rollback(True)
        fetched += 1
        if response.status_code >= 500:
            problems.append((f"{role} {row.method} {path}", f"answered {response.status_code}"))
            continue
        found = found_in(shown(response, language), language)
        problems += [(f"{role} {row.method} {path} ({response.status_code})", what) for what in found]
    assert fetched > 100
    report = reported(problems)
    assert not report, f"{len(report)} problems in {language}:\n" + "\n".join(report)


def found_in(lines, language):
    """What a page's ``lines`` show that a reader of ``language`` should not see."""
    return raw_numbers_and_codes(lines) + (english_in(lines, language) if language != "en" else [])


def reported(problems):
    """Each problem once, with the first page that shows it and how many more do."""
    pages = {}
    for where, what in problems:
        pages.setdefault(what, []).append(where)
    return [f"{what}\n    on {where[0]} and {len(where) - 1} more" for what, where in pages.items()]


def test_the_check_finds_english_a_greek_reader_should_not_see():
    """The two checks above, on text a Greek page must not show (so the page test can fail)."""
    found = english_in(["Appeals committee of 3", "Ruling 4: Claim or concession (Laws 68-71)"], "el")
    assert any(f.startswith("catalogue message 'Appeals committee'") for f in found)
    assert any(f.startswith("catalogue message 'Claim or concession (Laws 68-71)'") for f in found)
    assert any(f.startswith("stored English 'Appeals committee of 3'") for f in found)
    assert english_in(["Επιτροπή Εφέσεων 3 μελών", "Απόφαση 4: Διεκδίκηση"], "el") == []


def test_the_checks_find_exponent_numbers_raw_sides_and_english_calls():
    """The checks the page tests add (so that they can fail): a penalty as Decimal.normalize()
    shows it, a side's code, a poll counted and a note written in English on a Hebrew page."""
    found = raw_numbers_and_codes(["Procedural penalty (Law 90): 1E+1 percent of a top (NS)", "EW: 2.5E-3"])
    assert [f.split(":")[0] for f in found] == [
        "exponent-form number '1E+1'",
        "exponent-form number '5E-3'",
        "raw side code 'NS'",
        "raw side code 'EW'",
    ]
    assert raw_numbers_and_codes(["חוק 6E1", "Law 45E2", "10 percent of a top (N-S)", "NS-EW-X"]) == []
    found = english_in(["פאס 4 · Pass 1", "מזרח Pass — קצב: 20 שניות", "Ruling upheld: the claim stands"], "he")
    assert [f.split(":")[0] for f in found if f.startswith("stored")] == [
        "stored English 'Pass 1'",
        "stored English 'מזרח Pass —'",
        "stored English 'Ruling upheld'",
    ]
    assert english_in(["פאס 4 · 4S 1", "מזרח פאס — קצב: 20 שניות", "הפסיקה אושרה"], "he") == []
