"""The translations: every marked string translated in every language, placeholders kept,
pages rendered in the reader's language (Hebrew right to left, with numbers and contracts left
to right). How to add or change a string: docs/translations.md."""

import ast
import functools
import gettext
import io
import re
import tokenize
from collections import Counter, defaultdict
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.apps import apps
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation.reloader import translation_file_changed
from django.utils.translation.template import templatize

from core.management.commands.compile_translations import compile_all
from tests.conftest import page_in, table_result

ROOT = Path(settings.BASE_DIR)
LOCALE = ROOT / "locale"
SOURCE = LOCALE / "en" / "LC_MESSAGES" / "django.po"
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]

# Source not scanned: a new app may be listed here until its strings are translated (then remove
# it here and from the makemessages command in docs/translations.md). None is left out now: the
# plain-Python modules (the engine, the deal, PBN and LIN readers) mark their messages with
# bridge.messages._, which this scan and makemessages read like gettext.
NOT_SCANNED = set()

GETTEXT_FUNCTIONS = {
    "_",
    "gettext",
    "gettext_lazy",
    "gettext_noop",
    "pgettext",
    "pgettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "npgettext",
    "npgettext_lazy",
}
WITH_CONTEXT = {"pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"}


def test_the_five_languages_have_catalogues():
    assert sorted(TRANSLATED) == ["el", "he", "is", "nl", "uk"]
    for code in ["en", *TRANSLATED]:
        assert (LOCALE / code / "LC_MESSAGES" / "django.po").is_file(), f"locale/{code}/LC_MESSAGES/django.po"


# ---------------------------------------------------------------------------------------------
# What the source marks for translation


def _skipped(path):
    relative = path.relative_to(ROOT).as_posix()
    if "/migrations/" in relative:
        return True
    return any(relative == skip or relative.startswith(skip + "/") for skip in NOT_SCANNED)


def _source_roots():
    """config/, bridge/, the project's own apps and the project templates (not .venv, tests, bench)."""
    roots = {ROOT / "config", ROOT / "bridge", ROOT / "templates"}
    for app in apps.get_app_configs():
        path = Path(app.path).resolve()
        if ROOT in path.parents and ".venv" not in path.parts:
            roots.add(path)
    return sorted(roots)


def _files(suffix):
    for root in _source_roots():
        for path in sorted(root.rglob(f"*{suffix}")):
            if not _skipped(path):
                yield path


def _python_messages(path):
    """(context, msgid, line) of each gettext call with literal arguments in a Python file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name not in GETTEXT_FUNCTIONS or not node.args:
            continue
        args = list(node.args)
        context = None
        if name in WITH_CONTEXT:
            first = args.pop(0)
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)) or not args:
                continue
            context = first.value
        message = args[0]
        if isinstance(message, ast.JoinedStr):
            yield context, None, node.lineno  # an f-string cannot be looked up: reported below
        elif isinstance(message, ast.Constant) and isinstance(message.value, str):
            yield context, message.value, node.lineno


def _template_messages(path):
    """(context, msgid, line) of each {% translate %}, {% blocktranslate %} and _("...") in a
    template, read with Django's own templatize(), as makemessages reads it."""
    source = templatize(path.read_text(encoding="utf-8"), origin=str(path))
    # templatize() keeps the template's indentation, which means nothing to Python's tokenizer
    # but can make it stop with an IndentationError: drop it (strings never span lines here).
    source = "\n".join(line.lstrip() for line in source.splitlines()) + "\n"
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
        if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT)
    ]
    for i, token in enumerate(tokens):
        if token.type != tokenize.NAME or token.string not in GETTEXT_FUNCTIONS:
            continue
        if i + 1 >= len(tokens) or tokens[i + 1].string != "(":
            continue
        strings = []
        for arg in tokens[i + 2 :]:
            if arg.type == tokenize.STRING:
                strings.append(ast.literal_eval(arg.string))
            elif arg.string == ")":
                break
        if token.string in WITH_CONTEXT and len(strings) >= 2:
            yield strings[0], strings[1], token.start[0]
        elif strings:
            yield None, strings[0], token.start[0]


@functools.cache
def source_messages():
    """{(context, msgid): [where, ...]} of every string the source marks; f-strings under None."""
    found = defaultdict(list)
    for path in _files(".py"):
        for context, msgid, line in _python_messages(path):
            found[(context, msgid)].append(f"{path.relative_to(ROOT)}:{line}")
    for path in _files(".html"):
        for context, msgid, line in _template_messages(path):
            found[(context, msgid)].append(f"{path.relative_to(ROOT)}")
    return found


def _catalogue(code):
    return polib.pofile(str(LOCALE / code / "LC_MESSAGES" / "django.po"))


def _translated(entry):
    if entry.obsolete or entry.fuzzy:
        return False
    if entry.msgid_plural:
        return bool(entry.msgstr_plural) and all(entry.msgstr_plural.values())
    return bool(entry.msgstr)


def _key(entry):
    return entry.msgctxt, entry.msgid


def test_the_source_scan_finds_what_makemessages_finds():
    # Guards the scanner itself: a scan that found nothing would pass every check below.
    found = source_messages()
    assert len(found) > 300
    assert (None, "Claim: %(n)s tricks for declarer") in found  # a blocktranslate with a variable
    assert ("vulnerability", "None") in found  # pgettext_lazy
    assert ("team match", "Home") in found  # {% translate ... context ... %}
    assert (None, "Only a director, chief director or scorer of this tournament may change its record.") in found


def test_no_string_is_marked_in_a_form_that_cannot_be_extracted():
    found = source_messages()
    assert (None, None) not in found, (
        f"gettext of an f-string at {found[(None, None)]}: write _('... %(name)s ...') % {{'name': value}}"
    )


def test_every_marked_string_is_in_the_source_catalogue():
    catalogue = {_key(entry) for entry in _catalogue("en") if not entry.obsolete}
    missing = {key: where for key, where in source_messages().items() if key[1] is not None and key not in catalogue}
    assert not missing, (
        "Marked for translation but not in locale/en/LC_MESSAGES/django.po (run the makemessages command in "
        "docs/translations.md, then translate):\n"
        + "\n".join(
            f"  {msgid!r}{f' (context {context!r})' if context else ''} at {', '.join(where)}"
            for (context, msgid), where in sorted(missing.items(), key=str)
        )
    )


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_marked_string_is_translated(code):
    """Against the source catalogue and against a fresh scan of the source, so a string added
    later without a translation fails here even before anyone runs makemessages."""
    wanted = {_key(entry) for entry in _catalogue("en") if not entry.obsolete}
    wanted |= {key for key in source_messages() if key[1] is not None}
    done = {_key(entry) for entry in _catalogue(code) if _translated(entry)}
    untranslated = sorted(wanted - done, key=str)
    assert not untranslated, f"{len(untranslated)} strings not translated into {code}:\n" + "\n".join(
        f"  {msgid!r}{f' (context {context!r})' if context else ''}" for context, msgid in untranslated
    )


# ---------------------------------------------------------------------------------------------
# Placeholders

PERCENT_RE = re.compile(r"%%|%\([^)]+\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|%[-#0 +]*\d*(?:\.\d+)?[sdifrxXeEgGc]")
BRACE_RE = re.compile(r"\{\{\s*[\w.|:\"']+\s*\}\}|\{[A-Za-z_]\w*(?:\.\w+)*(?:![rsa])?(?::[^{}]*)?\}|\{\d*\}")


def placeholders(text, python_format=True):
    """The placeholders of a message, as a multiset: %(name)s, %s, %% (python-format
    messages), {name}, {0}, {} and any {{ name }} left in a template string."""
    found = Counter(BRACE_RE.findall(text))
    if python_format:
        found.update(PERCENT_RE.findall(text))
    return found


def test_placeholder_reading():
    assert placeholders("weight '%(w)s' is not a number: 60%% or %s") == Counter({"%(w)s": 1, "%%": 1, "%s": 1})
    assert placeholders("{name} and {0} and {{ zone }}") == Counter({"{name}": 1, "{0}": 1, "{{ zone }}": 1})
    assert placeholders('must look like {"currency": "GBP"}') == Counter()


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_the_placeholders_of_the_source(code):
    wrong = []
    for entry in _catalogue(code):
        if not _translated(entry):
            continue
        python_format = "python-format" in entry.flags or bool(PERCENT_RE.search(entry.msgid))
        translations = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for msgstr in translations:
            if placeholders(entry.msgid, python_format) != placeholders(msgstr, python_format):
                wrong.append(f"  {entry.msgid!r}\n    -> {msgstr!r}")
    assert not wrong, f"Placeholders differ from the source in {code}:\n" + "\n".join(wrong)


# ---------------------------------------------------------------------------------------------
# Compiling without GNU gettext


def test_compiling_needs_no_gettext_and_writes_only_what_changed(tmp_path):
    folder = tmp_path / "xx" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "xx"}
    po.append(polib.POEntry(msgid="Board %(number)s", msgstr="Spil %(number)s", flags=["python-format"]))
    po.append(polib.POEntry(msgid="Home", msgctxt="team match", msgstr="Heima"))
    po.append(polib.POEntry(msgid="Not yet", msgstr=""))
    po.save(str(folder / "django.po"))

    assert compile_all([tmp_path], check=True) == ([], [folder / "django.mo"])
    assert compile_all([tmp_path]) == ([folder / "django.mo"], [])
    assert compile_all([tmp_path]) == ([], [])
    assert compile_all([tmp_path], check=True) == ([], [])

    with open(folder / "django.mo", "rb") as mo:
        catalogue = gettext.GNUTranslations(mo)
    assert catalogue.gettext("Board %(number)s") % {"number": 7} == "Spil 7"
    assert catalogue.pgettext("team match", "Home") == "Heima"
    assert catalogue.gettext("Not yet") == "Not yet"


# ---------------------------------------------------------------------------------------------
# Pages


@pytest.fixture(scope="module")
def compiled():
    """The .mo files up to date, as `make test` leaves them, for a bare pytest run too."""
    written, _stale = compile_all()
    if written:
        translation_file_changed(sender=None, file_path=written[0])  # Django rereads its catalogues


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    translation.deactivate()


WEIGHTED = [
    {"contract": "4S", "declarer": "N", "tricks": 10, "weight": "0.5"},
    {"contract": "4S", "declarer": "N", "tricks": 9, "weight": "0.5"},
]


@pytest.fixture
def ruled(record, people):
    """Board 1 played at both tables (4S+1, 4S-1) and a weighted ruling on the second table."""
    from rulings import services as ruling_services
    from rulings.models import Ruling

    board = record.boards[0]
    results = [
        table_result(record, t, board, contract="4S", declarer="N", tricks=tricks) for t, tricks in ((0, 11), (1, 9))
    ]
    ruling = ruling_services.rule(
        result=results[1],
        director=people.director,
        kind=Ruling.Kind.UNAUTHORISED_INFORMATION,
        laws="16B1a, 12C1c",
        ruling_text="Score adjusted",
        reasoning="Pass was a logical alternative",
        give=True,
        outcome="adjusted",
        score_kind="weighted",
        ns=WEIGHTED,
        offending_side="EW",
    )
    record.results, record.ruling = results, ruling
    return record


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SIGNED_NUMBER = re.compile(r"(?<![\w.+\-−])[+\-−]\d+(?:[.,]\d+)?")
CONTRACT = re.compile(r"(?<!\w)[1-7](?:NT|[SHDC♠♥♦♣])(?:XX|X)?(?!\w)")


class DirectionOfText(HTMLParser):
    """Each text run with the direction of its nearest ancestor that sets dir."""

    def __init__(self):
        super().__init__()
        self.stack, self.runs = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append((tag, dict(attrs).get("dir")))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        tags = [tag for tag, _dir in self.stack]
        if data.strip() and not {"script", "style", "title"} & set(tags):
            direction = next((d for _tag, d in reversed(self.stack) if d), None)
            self.runs.append((data, direction))


def not_left_to_right(html):
    """Signed numbers and contracts that are not inside an element with dir="ltr"."""
    parser = DirectionOfText()
    parser.feed(html)
    return [
        (match, text.strip()[:80])
        for text, direction in parser.runs
        if direction != "ltr"
        for match in SIGNED_NUMBER.findall(text) + CONTRACT.findall(text)
    ]


def test_the_direction_check_sees_a_contract_outside_an_ltr_element():
    html = '<html dir="rtl"><body><p>חוזה 4S, <span dir="ltr">3NT -1</span> ניקוד -50</p></body></html>'
    assert not_left_to_right(html) == [("4S", "חוזה 4S,"), ("-50", "ניקוד -50")]


def test_a_hebrew_page_is_right_to_left_with_numbers_and_contracts_left_to_right(client, ruled, people, compiled):
    board = ruled.boards[0]
    for url in (reverse("scoring:board", args=[board.pk]), reverse("rulings:ruling", args=[ruled.ruling.pk])):
        html = page_in(client, people.director, url, "he")
        assert '<html lang="he" dir="rtl">' in html, url
        assert not not_left_to_right(html), (url, not_left_to_right(html))
    board_page = page_in(client, people.director, reverse("scoring:board", args=[board.pk]), "he")
    assert re.search(r'<td dir="ltr"[^>]*>4S</td>', board_page) and re.search(
        r'<td dir="ltr"[^>]*>\+1</td>', board_page
    )
    assert "מחלק" in board_page and "פגיעות" in board_page and "אין צד פגיע" in board_page
    ruling_page = page_in(client, people.director, reverse("rulings:ruling", args=[ruled.ruling.pk]), "he")
    assert "פסיקה 1" in ruling_page and "מידע בלתי מורשה (חוקים\u00a016,\u00a073)" in ruling_page
    assert '<bdi dir="ltr">0.5 4S N = / 0.5 4S N -1</bdi>' in ruling_page
    assert "Dealer" not in board_page and "Ruling 1" not in ruling_page


def test_a_greek_page_is_in_greek(client, ruled, people, compiled):
    home = page_in(client, people.director, "/", "el")
    assert '<html lang="el" dir="ltr">' in home
    assert "Καλώς ήρθατε, Dana" in home and "Τουρνουά όπου είστε αξιωματούχος" in home
    board = page_in(client, people.director, reverse("scoring:board", args=[ruled.boards[0].pk]), "el")
    for greek in ("Διανομή 1", "Μοιραστής", "Βορράς", "Ευπάθεια", "Κανείς ευπαθής", "Συμβόλαιο", "Φύλλο αποτελεσμάτων"):
        assert greek in board, greek
    for english in ("Dealer", "Vulnerability", "Traveller", "Contract"):
        assert english not in board, english
    ruling = page_in(client, people.director, reverse("rulings:ruling", args=[ruled.ruling.pk]), "el")
    assert "Απόφαση 1" in ruling and "Αθέμιτη πληροφορία (Νόμοι\u00a016,\u00a073)" in ruling
    assert (
        "Η περίοδος διόρθωσης λήγει (Νόμος\u00a079C)" in ruling
        and "Η προθεσμία έφεσης λήγει (Νόμος\u00a092B)" in ruling
    )


@pytest.mark.parametrize(
    "code,welcome",
    [
        ("he", "שלום, Dana"),
        ("uk", "Вітаємо, Dana"),
        ("is", "Velkomin(n), Dana"),
        ("el", "Καλώς ήρθατε, Dana"),
        ("nl", "Welkom, Dana"),
    ],
)
def test_every_language_greets_in_its_own_words(client, record, people, compiled, code, welcome):
    assert welcome in page_in(client, people.director, "/", code)
