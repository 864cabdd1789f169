"""Who is acting and through which door, for the audit trail: set by the middleware for web
and API requests, by management commands and by tasks."""

import contextvars
from contextlib import contextmanager

_current: contextvars.ContextVar[dict | None] = contextvars.ContextVar("audit_context", default=None)


def current():
    return _current.get() or {}


def enter(*, user=None, channel="other", path=""):
    """Act as ``user`` through ``channel`` from now on; returns the token that :func:`leave` takes
    to go back (a task's signals, which cannot use a ``with`` block)."""
    return _current.set({"user": user, "channel": channel, "path": path[:300]})


def leave(token):
    _current.reset(token)


@contextmanager
def acting(*, user=None, channel="other", path=""):
    token = enter(user=user, channel=channel, path=path)
    try:
        yield
    finally:
        leave(token)


class AuditContextMiddleware:
    """Records the user and the screen or API call of every request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path
        channel = "api" if path.startswith("/api/") else "admin" if path.startswith("/admin/") else "web"
        # The user is read lazily: DRF authenticates API callers after the middleware runs.
        with acting(user=_LazyUser(request), channel=channel, path=f"{request.method} {path}"):
            return self.get_response(request)


class _LazyUser:
    def __init__(self, request):
        self.request = request

    def resolve(self):
        user = getattr(self.request, "user", None)
        return user if user is not None and user.is_authenticated else None
