"""One render per version: a hot page rendered once per (page, version, language, audience) and
served to every reader from that render (issue #45; docs/architecture.md, "Live pages").

A page wrapped in ``@live(version_of, shared=audience_of)`` (core/live.py) keeps its render in
Django's cache under a key made of the view, the path with its query, the page's live version,
the language and the reader's *audience*: what the page may show differently to two readers
(``audience_of(request, *args, **kwargs)``, e.g. what the reader is to the page's tournament:
director, scorer, auditor, entrant, superuser, with the roles the header names). A reader of the
same audience is answered from that render without running the view.

The parts of a page that are the reader's own are never in the stored render: the page is made
with placeholders for them, filled in for each reader as it is served (``fill``):

- the CSRF token of the page's forms (``csrf_token`` in the context: ``context_processor``),
- the reader's name in the header (``{% reader_name %}``),
- the page's live version, which is the reader's ETag (``request.live_etag``),
- the clocks (``{% fetched_at %}`` and ``{% server_now %}``),
- a link to a record the reader may or may not open (``link_open``/``link_close`` around its
  text, of a kind a module registered with ``links``: the change marks' rulings and appeals):
  the ``<a>`` where this reader may open it, the text alone where not, found for every link of
  the page in one query a kind.

A render is stored only when nothing else of the reader's went into it: every policy question
the page asks while it is made is about the tournament itself (``core.policy.watch``), whose
answer the audience decides; and neither the reader's user name nor their full name appears in
the page outside the placeholders. Otherwise the page is served to its reader and not kept. A
page with messages waiting ("Recorded.") is the reader's own and is rendered as before.

A page with a clock (the notice board's countdowns) names a ``period`` in seconds: its render
serves readers for that long after it was made at most, as well as until its version changes.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.dispatch import Signal
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils import dateformat
from django.utils import timezone as django_timezone
from django.utils.html import escape
from django.utils.translation import get_language

from core import policy, reader

# Placeholders: letters, digits and dashes only, so HTML escaping leaves them as they are.
CSRF = "shared-render-7c1e9a4b-csrf-token"
NAME = "shared-render-7c1e9a4b-reader-name"
ETAG = "shared-render-7c1e9a4b-live-etag"
FETCHED_AT = "shared-render-7c1e9a4b-fetched-at"
SERVER_NOW = "shared-render-7c1e9a4b-server-now"

# A render serves for this long at most, whatever its version: what a version does not count (a
# change of a regulation is stamped apart, ``stamp``) shows within this time.
KEEP_SECONDS = 60

_LINK = re.compile(r"shared-render-7c1e9a4b-(open|close)-([a-z]+)-([0-9]+)")
# kind -> (URL name of the record's page, the ids among these the reader may open)
_LINKS: dict[str, tuple[str, Callable[[Any, set[int]], set[int]]]] = {}


def links(kind: str, url_name: str, openable: Callable[[Any, set[int]], set[int]]) -> None:
    """Register a kind of link a shared page carries as placeholders (``link_open``)."""
    _LINKS[kind] = (url_name, openable)


def link_open(kind: str, pk: int) -> str:
    return f"shared-render-7c1e9a4b-open-{kind}-{int(pk)}"


def link_close(kind: str, pk: int) -> str:
    return f"shared-render-7c1e9a4b-close-{kind}-{int(pk)}"


def _fill_links(content: str, user: Any) -> str:
    wanted: dict[str, set[int]] = {}
    for _end, kind, pk in _LINK.findall(content):
        wanted.setdefault(kind, set()).add(int(pk))
    if not wanted:
        return content
    opened = {kind: _LINKS[kind][1](user, ids) for kind, ids in wanted.items()}

    def link(match: re.Match[str]) -> str:
        end, kind, pk = match.group(1), match.group(2), int(match.group(3))
        if pk not in opened[kind]:
            return ""
        return "</a>" if end == "close" else f'<a href="{escape(reverse(_LINKS[kind][0], args=[pk]))}">'

    return _LINK.sub(link, content)


# Sent each time a shared page is made (a miss), with the view's name: tests count renders by it.
page_rendered = Signal()


def is_shared(request: Any) -> bool:
    """Whether the page being made is a shared render (its reader's parts as placeholders)."""
    return bool(getattr(request, "shared_render", False))


def context_processor(request: HttpRequest) -> dict[str, Any]:
    """After Django's CSRF processor: a shared render's forms carry the placeholder."""
    return {"csrf_token": CSRF} if is_shared(request) else {}


def reader_name(user: Any) -> str:
    return str(user.get_full_name() or user.username)


def fetched_at() -> str:
    """What ``{% now 'c' %}`` says: the time the page was made, in the current time zone."""
    return dateformat.format(datetime.now(tz=django_timezone.get_current_timezone()), "c")


def stamp(name: str) -> str:
    """The generation of something a page shows that its live version does not count (an
    authority's regulations): part of the audience of the pages that show it."""
    return str(cache.get(f"shared-render-stamp:{name}", 0))


def restamp(name: str) -> None:
    """A new generation of ``name``, now and again once the change commits (a page made between
    the two shows what was there before): the renders that showed it are left."""

    def bump() -> None:
        cache.set(f"shared-render-stamp:{name}", time.time_ns(), None)

    bump()
    transaction.on_commit(bump)


def _key(view: Callable[..., Any], request: HttpRequest, version: str, audience: str) -> str:
    parts = f"{view.__module__}.{view.__qualname__}|{request.get_full_path()}|{version}|{get_language()}|{audience}"
    return "shared-render:" + hashlib.sha256(parts.encode()).hexdigest()


def fill(content: str, request: HttpRequest, etag: str) -> str:
    """The stored render with this reader's own parts."""
    user = request.user
    name = escape(reader_name(user)) if user.is_authenticated else ""
    for placeholder, value in (
        (CSRF, get_token(request)),
        (NAME, name),
        (ETAG, escape(etag)),
        (FETCHED_AT, fetched_at()),
        (SERVER_NOW, reader.iso(django_timezone.now(), milliseconds=True)),
    ):
        if placeholder in content:
            content = content.replace(placeholder, value)
    return _fill_links(content, user)


def _own(content: str, user: Any) -> bool:
    """Whether the reader's own name went into the page outside the placeholders."""
    if not user.is_authenticated:
        return False
    return any(name and name in content for name in (user.username, user.get_full_name()))


def serve(
    view: Callable[..., HttpResponse],
    request: HttpRequest,
    args: Any,
    kwargs: Any,
    *,
    version: str,
    etag: str,
    audience: str,
    period: int | None,
) -> HttpResponse:
    """The page from its shared render, made (and kept, if it may be shared) on a miss."""
    key = _key(view, request, version, audience)
    stored = cache.get(key)
    if stored is not None:
        content_type, content = stored
        return HttpResponse(fill(content, request, etag), content_type=content_type)
    request.shared_render = True  # type: ignore[attr-defined]
    request.live_etag = ETAG  # type: ignore[attr-defined]
    try:
        with policy.watch() as questions:
            response = view(request, *args, **kwargs)
            if getattr(response, "is_rendered", True) is False:
                response.render()  # type: ignore[attr-defined]
    finally:
        request.shared_render = False  # type: ignore[attr-defined]
        request.live_etag = etag  # type: ignore[attr-defined]
    page_rendered.send(sender=serve, view=f"{view.__module__}.{view.__qualname__}")
    if response.status_code != 200 or response.streaming:
        return response
    content = response.content.decode(response.charset)
    if questions.shareable and not _own(content, request.user):
        cache.set(key, (response["Content-Type"], content), min(KEEP_SECONDS, period or KEEP_SECONDS))
    response.content = fill(content, request, etag).encode(response.charset)
    return response
