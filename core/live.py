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

The version is taken before the page is rendered: a change committed meanwhile makes the next
poll render once more, never miss a change. A poll's page leaves out the messages ("Recorded."):
they stay for the reader's next page.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags, quote_etag
from django.utils.translation import get_language

HEADER = "X-Live"


def etag_for(request: HttpRequest, version: str) -> str:
    """The page's ETag: its version, for this reader in this language (two readers of one page
    see different buttons; a language switch is a new page)."""
    user = getattr(request, "user", None)
    who = getattr(user, "pk", None) or "-"
    digest = hashlib.sha256(f"{version}|{who}|{get_language()}".encode()).hexdigest()[:32]
    return quote_etag(digest)


def is_poll(request: HttpRequest) -> bool:
    return request.headers.get(HEADER) == "1"


def live(version_of: Callable[..., str | None]) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Make a page's GET answer its live poll (above)."""

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
            if poll and etag in parse_etags(request.headers.get("If-None-Match", "")):
                response: HttpResponse = HttpResponseNotModified()
                response["ETag"] = etag
                patch_cache_control(response, no_cache=True, private=True)
                return response
            request.live_etag = etag  # type: ignore[attr-defined]
            request.live_poll = poll  # type: ignore[attr-defined]  # base.html leaves the messages
            response = view(request, *args, **kwargs)
            if response.status_code == 200:
                response["ETag"] = etag
                patch_cache_control(response, no_cache=True, private=True)
                patch_vary_headers(response, [HEADER])
            return response

        return page

    return decorate
