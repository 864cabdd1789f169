"""A regulating authority's own terms in place of the project's defaults (docs/translations.md):
a Dutch body's "Commissie van Beroep" for the appeals committee, a Hebrew body's national name
for its appeals body. One helper, :func:`term`, used by the templates through
``{% load appeal_terms %}{% term tournament "committee" %}``; the texts are kept per authority
and language in ``AuthorityTerm`` and written through :func:`set_term` (audited)."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _

from appeals.models import AuthorityTerm, Body
from appeals.reading import authority_of, reading_authority
from audit import services as audit
from core import policy

# The terms an authority may rename, with the project's word each one replaces: the appeals
# bodies (Body.Kind: the same catalogue entries) and the directors' titles.
TERMS = {
    **dict(Body.Kind.choices),
    "director": gettext_lazy("Director"),
    "chief_director": gettext_lazy("Chief director"),
}


def _texts(authority):
    """All of the authority's terms, read once per authority object: {(key, language): text}."""
    cached = getattr(authority, "_term_texts", None)
    if cached is None:
        cached = {(t.key, t.language): t.text for t in AuthorityTerm.objects.filter(authority=authority)}
        authority._term_texts = cached
    return cached


def body_kind(show):
    """A stored text's format for a body kind: the authority's own word when a page reads for
    one (reading_for) and it renamed the body, else ``show``'s (a ``label``, whose values_of
    read_back still uses)."""

    def kind(value):
        authority = reading_authority()
        default = show(value)
        if authority is None:
            return default
        return term(authority, value, default)

    kind.values_of = show.values_of  # type: ignore[attr-defined]
    return kind


def term(where, key, default=None):
    """The authority's own word for ``key`` in the active language; else ``default``, else the
    project's word (translated)."""
    fallback = default if default is not None else TERMS.get(key, key)
    authority = authority_of(where)
    if authority is None:
        return str(fallback)
    language = (get_language() or "en").split("-")[0]
    return _texts(authority).get((key, language)) or str(fallback)


def set_term(*, authority, key, language, text, by):
    """Give the authority's word for ``key`` in ``language`` (empty ``text``: back to the
    project's word). Refused, naming the field, for an unknown term or language or a text over
    100 characters. An authority's words are its regulations: the superuser's (core.policy,
    "settings")."""
    policy.require(by, "settings", authority)
    text = (text or "").strip()
    errors = {}
    if key not in TERMS:
        errors["key"] = _("'%(key)s' is not a term an authority may rename: %(choices)s.") % {
            "key": key,
            "choices": ", ".join(TERMS),
        }
    if language not in dict(AuthorityTerm._meta.get_field("language").choices or ()):
        errors["language"] = _("'%(language)s' is not a language of this site.") % {"language": language}
    if len(text) > 100:
        errors["text"] = ngettext(
            "At most 100 characters: this text has %(n)s.", "At most 100 characters: this text has %(n)s.", len(text)
        ) % {"n": len(text)}
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        before = AuthorityTerm.objects.filter(authority=authority, key=key, language=language).first()
        if text:
            AuthorityTerm.objects.update_or_create(
                authority=authority, key=key, language=language, defaults={"text": text}
            )
        elif before is not None:
            before.delete()
        audit.record(
            action="authority.term",
            obj=authority,
            before={"key": key, "language": language, "text": before.text if before else ""},
            after={"key": key, "language": language, "text": text},
            actor=policy.person(by),
            summary=f"{authority}: {key} ({language}) = {text or '-'}",
        )
    if hasattr(authority, "_term_texts"):
        del authority._term_texts
