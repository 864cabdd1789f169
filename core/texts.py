"""Texts a service writes once and readers see later (an appeal's timeline, a notification, the
audit trail's summaries, a score change's words), kept as a code and its values so that each
reader sees them in their own language, whoever wrote them and in whatever language.

Each app has one small registry (``appeals/texts.py``, ``scoring/texts.py``...) of codes, each a
``Template``: a ``gettext_lazy`` (or ``ngettext_lazy`` where a number is counted) message with
named placeholders, and how each value is shown (a choice's label, a moment in the tournament's
zone). The app registers it in ``AppConfig.ready()``, so this module (the lowest app, imported by
every other) needs none of theirs.

A service writes ``text("appeals.body_formed", kind="committee", n=3)``: a ``Coded`` whose
``english()`` is what is stored in the old free-text column too (and hashed, in the audit
trail), and whose ``code`` and ``params`` go into their own columns. A reader's page calls
``render(code, params, stored)``. A person's own words (grounds, reasons, a director's facts)
are values, shown as written: they are never translated.
"""

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils import translation

REGISTRY: dict[str, "Template"] = {}


_PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


@dataclass(frozen=True)
class Template:
    """One code's message. ``message`` is lazy (gettext_lazy, or ngettext_lazy with a named
    count); ``formats`` maps a value's name to a function that shows it (called at read time,
    in the reader's language); ``compose``, when given, builds the text from the values itself
    (a sentence with optional parts)."""

    message: Any = None
    formats: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    compose: Callable[[dict], str] | None = None
    # For reading an English text back into values (read_back): the code a value's own text has
    # ({"ruling": "rulings.ruling"}).
    nested: Mapping[str, str] = field(default_factory=dict)
    # A record's name ("Ruling 4"), only ever a value of another text: never a summary itself.
    name: bool = False
    # What a text is, for texts stored without their code (a score change's reason and cause):
    # shown() reads them back from the English among the templates of that kind.
    kind: str = ""

    def render(self, params):
        values = {}
        for name, value in params.items():
            if isinstance(value, dict) and "code" in value:
                value = _nested(value)
            elif isinstance(value, list):  # several texts, as a list in a sentence
                value = "; ".join(_nested(item) if isinstance(item, dict) else str(item) for item in value)
            elif name in self.formats:
                value = self.formats[name](value)
            values[name] = value
        if self.compose is not None:
            return str(self.compose(values))
        return str(self.message % values)


def _nested(value):
    return render(value["code"], value.get("params") or {}, value.get("text", ""))


def register(prefix, templates):
    """Add an app's codes, as ``<prefix>.<code>``."""
    for code, template in templates.items():
        REGISTRY[f"{prefix}.{code}"] = template


def render(code, params, stored=""):
    """The text in the current language; ``stored`` (as written) when the code is unknown or its
    values no longer fit it."""
    template = REGISTRY.get(code or "")
    if template is None:
        return stored
    try:
        return template.render(dict(params or {}))
    except (KeyError, TypeError, ValueError, LookupError):
        return stored


def english(code, params):
    with translation.override("en"):
        return render(code, params)


@dataclass(frozen=True)
class Coded:
    """What a service writes: a code and its values (JSON: strings, numbers, booleans, or a
    nested ``as_param()``)."""

    code: str
    params: dict

    def english(self):
        return english(self.code, self.params)

    def __str__(self):
        return render(self.code, self.params, self.english())

    def as_param(self):
        return {"code": self.code, "params": self.params, "text": self.english()}


def _english_forms(template):
    """The English message(s) of a template, as written (singular and plural)."""
    message = template.message
    with translation.override("en"):
        if isinstance(message, str):
            return [message]
        forms = []
        for n in (1, 2):
            try:
                forms.append(str(message % _Any(n)))
            except (KeyError, TypeError, ValueError):
                return []
        return forms


class _Count(int):
    """A number that chooses a plural form and prints as its placeholder."""

    key: str

    def __new__(cls, n, key):
        number = super().__new__(cls, n)
        number.key = key
        return number

    def __str__(self):
        return f"%({self.key})s"


class _Any(dict):
    """Values that print as their own placeholder, to recover a lazy message's text."""

    def __init__(self, n):
        super().__init__()
        self.n = n

    def __getitem__(self, key):
        return _Count(self.n, key)

    def __contains__(self, key):
        return True


def read_back(stored, code):
    """``stored``, an English text written before it was kept as a code, read back into the
    values of ``code``; None unless the code says exactly ``stored`` in English. Choice values
    are found from their English labels (a ``label`` format), numbers as numbers."""
    template = REGISTRY.get(code)
    if template is None or template.message is None:
        return None
    for form in _english_forms(template):
        names = _PLACEHOLDER.findall(form)
        pattern = "".join(
            re.escape(part) if index % 2 == 0 else f"(?P<{part}>.+?)"
            for index, part in enumerate(_PLACEHOLDER.split(form.replace("%%", "%")))
        )
        match = re.fullmatch(pattern, stored, re.S)
        if match is None:
            continue
        params = {}
        for name in names:
            value = match.group(name)
            if name in template.nested:
                inner = read_back(value, template.nested[name])
                if inner is None:
                    break
                value = Coded(template.nested[name], inner).as_param()
            elif name in template.formats and hasattr(template.formats[name], "values_of"):
                value = getattr(template.formats[name], "values_of")().get(value)  # noqa: B009 - a label's (below)
                if value is None:
                    break
            elif value.isdigit():
                value = int(value)
            params[name] = value
        else:
            if english(code, params) == stored:
                return params
    return None


def shown(stored, kind):
    """A text stored in English without its code (written by a service in a fixed form), in the
    reader's language: read back against every template of ``kind``; as stored if none fits
    (a person's own words, or a text written in another language)."""
    if not stored:
        return stored
    for code, template in REGISTRY.items():
        if template.kind == kind:
            params = read_back(stored, code)
            if params is not None:
                return render(code, params, stored)
    return stored


_SENTENCE_END = re.compile(r"(?<=[.!?]) +")


def shown_sentences(stored, kind):
    """:func:`shown` for a text that may be several sentences, each written by a service or by a
    person (a ruling's words after a revoke or claim, which the director may extend): each
    sentence a service wrote reads in the reader's language, the rest as written."""
    if not stored:
        return stored
    # Sentence by sentence, never the whole: a template's last value would swallow the sentences
    # after it ("...; %(contract)s." read as "4S N +2. Law 64C: ...").
    return " ".join(shown(sentence, kind) for sentence in _SENTENCE_END.split(stored))


def text(code, /, **params):
    if code not in REGISTRY:
        raise LookupError(f"No stored text is registered as {code!r}.")
    return Coded(code, params)


def label(choices, lower=False):
    """A format showing a stored choice value by its label (lower-cased where the sentence
    needs it); an unknown value is shown as stored."""

    def show(value):
        try:
            shown = str(choices(value).label) if isinstance(choices, type) else str(dict(choices)[value])
        except (ValueError, KeyError):
            return value
        return shown.lower() if lower else shown

    def values_of():
        """{English label: value}, to read an English text back (read_back)."""
        with translation.override("en"):
            pairs = getattr(choices, "choices") if isinstance(choices, type) else choices  # noqa: B009 - a TextChoices
            return {(str(name).lower() if lower else str(name)): value for value, name in pairs}

    show.values_of = values_of  # type: ignore[attr-defined]
    return show


def split(value: Any) -> tuple[str, str, dict[str, Any]]:
    """A column value (str or Coded) as (stored text, code, params)."""
    if isinstance(value, Coded):
        return value.english(), value.code, value.params
    return str(value or ""), "", {}


# The audit trail's actions ("ruling.given", "appeal.decided"), each app's labels, registered
# with its texts: a reader's page shows an entry's action by its label in the reader's language.
ACTIONS: dict[str, Any] = {}


def register_actions(labels):
    """Add an app's labels of audit actions: {action code: gettext_lazy label}."""
    ACTIONS.update(labels)


def action_label(code):
    """An audit action in the reader's language; the code itself where no app names it."""
    found = ACTIONS.get(code or "")
    return str(found) if found is not None else code
