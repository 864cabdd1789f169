"""Messages of the plain-Python modules, translatable without importing Django.

The score engine, the deal, PBN and LIN readers (``bridge/engine``, ``bridge/deals.py``,
``bridge/pbn.py``, ``bridge/auction.py, bridge/lin.py, bridge/pbn_record.py``) refuse input with messages a director
reads. They do not import Django, so they cannot call gettext. Their messages are
:class:`Message` objects instead: an English template with named placeholders and its values::

    from bridge.messages import _

    raise DealError("deal", _("%(n)s hands in the deal: a deal has 4, separated by spaces", n=3))

``_`` here is not gettext: it returns a Message and translates nothing. It marks the template,
so that ``makemessages`` (xgettext reads ``_`` by default) and tests/test_translations.py find
it. A Message is a ``str``, the English text: what the engine's command line, the logs and the
plain-Python tests read. The Django side (services, forms, the API, management commands)
shows ``core.i18n.translate(message_or_error)``: the template through gettext, then every
value that is itself a Message, in the reader's language.

A template is always formatted with ``%``, so a literal percent sign is written ``%%``.
``Message(...)`` called by that name is for joining parts (``"%(where)s: %(reason)s"``): it is
not in the catalogues and reads the same in every language. A template chosen before its values
are known is marked with ``gettext_noop("...")`` and made a Message later.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]

__all__ = ["Message", "MessageError", "PluralMessage", "_", "gettext_noop", "join", "ngettext", "render"]


class Message(str):
    """An English ``template`` (``%(name)s`` placeholders) and the values that go in it.

    A Message is the English text itself (a ``str``), so code that reads, compares or prints
    messages keeps working; it also keeps the template and values to translate it with.
    A value may itself be a Message (a seat's name, a reason inside a longer sentence); it is
    rendered, and translated, with the message around it."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Message:
        self = super().__new__(cls, template % params)
        self.template = template
        self.params = params
        return self

    def render(self, gettext: Gettext | None = None, ngettext: Ngettext | None = None) -> str:
        """The text, with ``gettext`` (a function of one string) translating each template and
        ``ngettext`` each plural one; English without them."""
        if gettext is None:
            return str.__str__(self)
        template = self._translated_template(gettext, ngettext)
        return str(template % {key: render(value, gettext, ngettext) for key, value in self.params.items()})

    def _translated_template(self, gettext: Gettext, ngettext: Ngettext | None) -> str:
        return gettext(self.template) if self.template else self.template

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, Any]]:  # copy and pickle build it again from its parts
        return (self.template,), self.params

    def __repr__(self) -> str:
        return f"Message({self.template!r}, **{self.params!r})"


class PluralMessage(Message):
    """A message whose wording depends on a number: the English singular and plural templates
    and ``number``. Each language picks its own form for the number (Hebrew and Ukrainian have
    four), so a sentence with a number is never pasted together from parts."""

    singular: str
    plural: str
    number: int

    def __new__(cls, singular: str, plural: str, number: int, /, **params: Any) -> PluralMessage:
        self = str.__new__(cls, (singular if number == 1 else plural) % params)
        self.template = singular
        self.singular, self.plural, self.number = singular, plural, number
        self.params = params
        return self

    def _translated_template(self, gettext: Gettext, ngettext: Ngettext | None) -> str:
        if ngettext is None:
            return self.singular if self.number == 1 else self.plural
        return ngettext(self.singular, self.plural, self.number)

    def __getnewargs_ex__(self) -> tuple[tuple[str, str, int], dict[str, Any]]:  # type: ignore[override]
        return (self.singular, self.plural, self.number), self.params

    def __repr__(self) -> str:
        return f"PluralMessage({self.singular!r}, {self.plural!r}, {self.number!r}, **{self.params!r})"


def render(value: Any, gettext: Gettext | None = None, ngettext: Ngettext | None = None) -> Any:
    """``value`` as text: a Message rendered (and translated with ``gettext`` and
    ``ngettext``), anything else as it is."""
    return value.render(gettext, ngettext) if isinstance(value, Message) else value


def _(template: str, /, **params: Any) -> Message:
    """Mark ``template`` for translation and keep its values: a :class:`Message`."""
    return Message(template, **params)


def ngettext(singular: str, plural: str, count: int, /, **params: Any) -> PluralMessage:
    """Mark a message with a number for translation: ``count`` picks the form, in English and
    in every language (``params`` usually holds ``n=count`` too)."""
    return PluralMessage(singular, plural, count, **params)


def gettext_noop(template: str) -> str:
    """Mark a template kept for later (``Message(template, **values)``); returns it as it is."""
    return template


def join(items: Iterable[str]) -> str:
    """``[a]`` -> a; ``[a, b]`` -> "a and b"; ``[a, b, c]`` -> "a, b and c"."""
    parts = list(items)
    if len(parts) == 1:
        return parts[0]
    head = parts[0]
    for item in parts[1:-1]:
        head = Message("%(items)s, %(item)s", items=head, item=item)
    # Translators: the end of a list, e.g. "North, East and South"
    return _("%(items)s and %(last)s", items=head, last=parts[-1])


class MessageError(ValueError):
    """An error whose text is a Message (or a plain string): ``str()`` is the English,
    ``core.i18n.translate(error)`` the reader's language. ``text`` is the whole text."""

    def __init__(self, text: str) -> None:
        self.text = text
        super().__init__(str(text))


def stored(text: object) -> dict[str, object]:
    """A text as a record keeps it: its English words, its template and its parameters (each a
    string), so a page can say it again in the reader's language."""
    params: dict[str, object] = getattr(text, "params", {})
    return {
        "text": str(text),
        "text_template": getattr(text, "template", str(text)),
        "text_params": {key: str(value) for key, value in params.items()},
    }
