"""Live pages without a reload: a page polls its own URL and is answered 304 Not Modified until
something it shows has changed (docs/architecture.md, "Live pages").

A view that shows changing things is wrapped in ``@live(version_of)``, where
``version_of(request, *args, **kwargs)`` answers, in a constant number of queries, a string that
changes whenever the page would (the tournament's last audited change and its recalculations:
``scoring.selectors.live_version`` and ``record_version``), or None for a record the reader may
not see: 404, as the page answers.

- An ordinary visit renders the page as before; the page carries its version
  (``request.live_etag``, written by base.html in ``<meta name="live-version">``) and the same
  value as its ETag.
- static/js/live.js asks the same URL every few seconds with ``X-Live: 1`` and
  ``If-None-Match``: while the version is the same the answer is an empty 304, without running
  the view; otherwise the page is rendered again and the script swaps its ``<main>`` in place.

A page without a clock (no countdown: the standings, a board's traveller) is wrapped in
``@live(version_of, revalidate=True)``: an ordinary conditional GET (a browser revalidating its
copy, ``If-None-Match`` without ``X-Live``) is answered 304 too while nothing the page shows has
changed and no message waits for the reader. An API read of the same records takes the same
version through ``@live.conditional(version_of)`` (issue #33).

The ETag is the reader's: their user, their signed-in session (a page's forms carry the session's
CSRF token) and their language, so two readers never share a copy.

A hot page (the standings, a traveller, the notice board) is also rendered once per version,
language and audience and served to every reader of that audience from the one render, their own
parts (CSRF token, name, ETag, clocks) filled in as it is served: ``@live(version_of,
shared=audience_of)``, core/renders.py.

The version is taken before the page is rendered: a change committed meanwhile makes the next
poll render once more, never miss a change. A poll's page leaves out the messages ("Recorded."):
they stay for the reader's next page.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags, quote_etag
from django.utils.translation import get_language

from core import renders

HEADER = "X-Live"


def etag_for(request: HttpRequest, version: str) -> str:
    """The page's ETag: its version, for this reader in this language (two readers of one page
    see different buttons; a language switch is a new page)."""
    user = getattr(request, "user", None)
    who = getattr(user, "pk", None) or "-"
    session = getattr(getattr(request, "session", None), "session_key", None) or "-"
    digest = hashlib.sha256(f"{version}|{who}|{session}|{get_language()}".encode()).hexdigest()[:32]
    return quote_etag(digest)


def _not_modified(etag: str) -> HttpResponse:
    response = HttpResponseNotModified()
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True, private=True)
    return response


def _matches(request: HttpRequest, etag: str) -> bool:
    return etag in parse_etags(request.headers.get("If-None-Match", ""))


def _messages_waiting(request: HttpRequest) -> bool:
    """A message ("Recorded.") waits for the reader's next page: a 304 would not show it."""
    return bool(len(get_messages(request)))


def is_poll(request: HttpRequest) -> bool:
    return request.headers.get(HEADER) == "1"


def live(
    version_of: Callable[..., str | None],
    *,
    revalidate: bool = False,
    shared: Callable[..., str] | None = None,
    period: int | None = None,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Make a page's GET answer its live poll (above); with ``revalidate``, a browser's
    conditional GET of a page without a clock too. With ``shared``, the reader's audience
    (``shared(request, *args, **kwargs)``), the page is rendered once per version, language and
    audience and served to each reader from that render (core/renders.py); a page with a clock
    names the ``period`` in seconds its render may serve at most."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def page(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in ("GET", "HEAD"):
                return view(request, *args, **kwargs)
            version = version_of(request, *args, **kwargs)
            if version is None:
                raise Http404
            etag = etag_for(request, version)
            poll = is_poll(request)
            if _matches(request, etag) and (poll or (revalidate and not _messages_waiting(request))):
                return _not_modified(etag)
            request.live_etag = etag  # type: ignore[attr-defined]
            request.live_poll = poll  # type: ignore[attr-defined]  # base.html leaves the messages
            if shared is not None and (poll or not _messages_waiting(request)):
                audience = shared(request, *args, **kwargs)
                response = renders.serve(
                    view, request, args, kwargs, version=version, etag=etag, audience=audience, period=period
                )
            else:
                response = view(request, *args, **kwargs)
            if response.status_code == 200:
                response["ETag"] = etag
                patch_cache_control(response, no_cache=True, private=True)
                patch_vary_headers(response, [HEADER])
            return response

        return page

    return decorate


def conditional(version_of: Callable[..., str | None]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """An API read (a viewset's action, ``(self, request, pk)``) with the version of its page:
    the ETag of the reader's answer, and 304 Not Modified, without reading the rows again, to a
    GET whose ``If-None-Match`` has it; None from ``version_of`` is the 404 of a record the
    caller may not see."""

    def decorate(action: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(action)
        def read(viewset: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                version = version_of(request, *args, **kwargs)
            except (TypeError, ValueError, ValidationError):  # not an id: 404, as get_object answers
                version = None
            if version is None:
                raise Http404
            etag = etag_for(request, version)
            if _matches(request, etag):
                return _not_modified(etag)
            response = action(viewset, request, *args, **kwargs)
            if response.status_code == 200:
                response["ETag"] = etag
                patch_cache_control(response, no_cache=True, private=True)
            return response

        return read

    return decorate
