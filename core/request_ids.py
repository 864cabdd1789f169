"""What an operator sees of an error: every request's id, and every unhandled exception logged
once with it, the user and the step (issue #38; docs/operations.md, "Errors").

- ``RequestIdMiddleware`` (first in ``MIDDLEWARE``) gives each request an id: the caller's
  ``X-Request-ID`` when it is one (1 to 100 letters, digits, ``.``, ``_``, ``-``: a proxy's own
  id carries through), else a new one (32 hexadecimal digits). The response carries it back in
  ``X-Request-ID``, so a user who reports an error can quote it, and with Sentry on
  (``init_sentry``) the event is tagged with it.
- Django logs each unhandled exception once, on the ``django.request`` logger ("Internal Server
  Error: /path", with the traceback). ``RequestContext``, that logger's filter
  (config/settings.py ``LOGGING``), adds to that one line the request's id, the user (their
  username, or "anonymous") and the step (the URL's name, e.g. ``appeals:step``); the record
  also carries them as ``request_id``, ``user`` and ``step`` for a structured handler.
- ``init_sentry(dsn)``: when ``SENTRY_DSN`` is set, each unhandled exception (of a request or a
  task) is also sent to Sentry through sentry-sdk; off by default. No personal data is sent
  beyond the user's id and username.
"""

import re
import uuid

HEADER = "X-Request-ID"
_GIVEN = re.compile(r"^[A-Za-z0-9._-]{1,100}$")


def request_id_for(given):
    """The id of a request whose caller sent ``given`` (None for none)."""
    if given and _GIVEN.match(given):
        return given
    return uuid.uuid4().hex


class RequestIdMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.request_id = request_id_for(request.headers.get(HEADER))
        scope = _sentry_scope()
        if scope is not None:
            scope.set_tag("request_id", request.request_id)
        response = self.get_response(request)
        response[HEADER] = request.request_id
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        """With Sentry on, the step and the user (known once the view is found) join the scope."""
        scope = _sentry_scope()
        if scope is not None:
            scope.set_tag("step", step(request))
            user = getattr(request, "user", None)
            if user is not None and getattr(user, "is_authenticated", False):
                scope.set_user({"id": str(user.pk), "username": user.get_username()})
        return None


def who(request):
    """The user's name, "anonymous", or "-" when it cannot be known: a logging filter never
    fails the line it adds to (the user is read from the database, which may be the fault)."""
    try:
        user = getattr(request, "user", None)
        if user is None or not getattr(user, "is_authenticated", False):
            return "anonymous"
        return user.get_username()
    except Exception:
        return "-"


def step(request):
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "-"
    return match.view_name


class RequestContext:
    """A logging filter: a record about a request (Django's ``django.request`` records carry
    it) says, on its line, the request's id, the user and the step."""

    def filter(self, record):
        request = getattr(record, "request", None)
        if request is None or not hasattr(request, "META"):
            return True
        if getattr(record, "step", None) is not None:
            return True  # another handler's filter has already said it: once on the line
        record.request_id = getattr(request, "request_id", "-")
        record.user = who(request)
        record.step = step(request)
        message = record.getMessage()
        record.msg = "%s (request %s, user %s, step %s)"
        record.args = (message, record.request_id, record.user, record.step)
        return True


def _sentry_scope():
    """Sentry's scope of this request, or None with Sentry off."""
    try:
        import sentry_sdk
    except ImportError:  # pragma: no cover - sentry-sdk is in the runtime's lock
        return None
    return sentry_sdk.get_isolation_scope() if sentry_sdk.get_client().is_active() else None


def init_sentry(dsn, *, environment=None, transport=None):
    """Send every unhandled exception to the Sentry project at ``dsn`` (config/settings.py calls
    this when ``SENTRY_DSN`` is set). ``transport`` replaces how events are sent (the tests)."""
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    options = {}
    if transport is not None:
        options["transport"] = transport
    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        traces_sample_rate=0,
        **options,
    )
