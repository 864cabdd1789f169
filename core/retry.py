"""Transactions that meet a concurrent one: retried, never shown to a user as a 500.

PostgreSQL resolves a deadlock by aborting one of the transactions in it ("deadlock detected",
SQLSTATE 40P01) and may abort one that cannot be serialised (40001); SQLite answers "database
is locked" when its write lock stays busy past the timeout. Each is safe to run again from the
start: the aborted transaction left nothing behind.

- ``atomic_with_retry`` replaces ``transaction.atomic`` on a service. Called outside any
  transaction (a view, an API call, a task, a command), it runs the service in its own
  transaction and runs it again, after a short random pause, when the database aborts it for a
  conflict. Called inside a caller's transaction it is a plain savepoint: the caller's
  transaction is the one to retry, and its own outermost service or ``run_with_retry`` does.
- ``DatabaseTroubleMiddleware`` is the last line: a conflict that still escapes after the
  retries, or a database that does not answer (a lost connection), answers 503 with
  Retry-After (JSON in the API's error shape under /api/), not a 500; a read that lost its
  connection is run once more first.
"""

import functools
import logging
import random
import time

from django.db import DatabaseError, InterfaceError, OperationalError, connection, transaction
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

ATTEMPTS = 8
FIRST_PAUSE = 0.02  # seconds; doubled each attempt, with jitter, at most MAX_PAUSE
MAX_PAUSE = 0.5
RETRY_AFTER_SECONDS = 1

# SQLSTATE codes of a transaction aborted by a concurrent one.
CONFLICT_SQLSTATES = {"40P01", "40001"}
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def is_conflict(error):
    """True if ``error`` is the database aborting this transaction for a concurrent one."""
    if not isinstance(error, DatabaseError):
        return False
    cause = error.__cause__ or error
    sqlstate = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    if sqlstate in CONFLICT_SQLSTATES:
        return True
    return isinstance(error, OperationalError) and "database is locked" in str(error)


def run_with_retry(function, *args, attempts=ATTEMPTS, **kwargs):
    """Run ``function`` in a transaction of its own, again when a concurrent transaction aborts
    it. Inside a caller's transaction it cannot retry (the caller's work is lost with the
    abort), so there it runs once in a savepoint and the conflict goes up to the caller."""
    if connection.in_atomic_block:
        with transaction.atomic():
            return function(*args, **kwargs)
    for attempt in range(1, attempts + 1):
        try:
            with transaction.atomic():
                return function(*args, **kwargs)
        except DatabaseError as error:
            if not is_conflict(error) or attempt == attempts:
                raise
            pause = min(MAX_PAUSE, FIRST_PAUSE * 2 ** (attempt - 1)) * (0.5 + random.random())
            log.info(
                "%s met a concurrent transaction (%s); attempt %s of %s in %.3f s.",
                getattr(function, "__qualname__", function),
                str(error).splitlines()[0],
                attempt + 1,
                attempts,
                pause,
            )
            time.sleep(pause)
    raise AssertionError("unreachable")  # pragma: no cover


def atomic_with_retry(function):
    """Decorator: ``transaction.atomic`` that retries a transaction aborted for a conflict."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        return run_with_retry(function, *args, **kwargs)

    return wrapper


def is_unavailable(error):
    """True if ``error`` is the database not answering (a connection lost, refused or closed
    under us: PostgreSQL restarted, a connection terminated, a proxy cut), not a refusal of the
    request itself (an integrity error, a bad query)."""
    return isinstance(error, (OperationalError, InterfaceError)) and not is_conflict(error)


def unavailable_message(error, method="GET"):
    """What a client is told about a conflict or a database that does not answer: a conflict
    saved nothing; a write that lost its database may have been saved before its answer was
    lost (issue #41), and its Idempotency-Key makes sending it again safe."""
    if is_conflict(error):
        return _(
            "Someone else changed the same record at the same moment. Nothing was saved: please send your change again."
        )
    if method not in SAFE_METHODS:
        return _(
            "The database could not be reached: your change may have been saved. Send it again with the same "
            "Idempotency-Key, and it is saved once."
        )
    return _("The database cannot be reached for a moment. Please send your request again in a few seconds.")


def unavailable_response(request, error):
    """503 with Retry-After: JSON in the API's one error shape under /api/, plain text elsewhere."""
    message = unavailable_message(error, request.method)
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": [message]}, status=503)
    else:
        response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class DatabaseTroubleMiddleware:
    """The last line between the database and a user (issue #30):

    - a read (GET, HEAD, OPTIONS) whose database connection was lost is run once more on a new
      connection (a read changes nothing, so running it again is safe);
    - a conflict that escaped every retry, or a database that still does not answer, is a 503
      with Retry-After (JSON in the API's error shape under /api/), never a 500 page.

    A write is never run again here: the client retries it, with its Idempotency-Key."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method not in SAFE_METHODS or connection.in_atomic_block:
            return None
        first: BaseException | None
        try:
            response = view_func(request, *view_args, **view_kwargs)
        except DatabaseError as error:
            if is_conflict(error):
                return self.process_exception(request, error)
            if not is_unavailable(error):
                raise
            response = None
            first = error
        else:
            # A DRF view answers its own exceptions (core.api_contract.exception_handler).
            first = getattr(response, "database_unavailable", None)
            if first is None:
                return response
        log.warning("A read lost its database connection (%s); run again: %s %s", first, request.method, request.path)
        connection.close()  # the next query opens a new connection
        try:
            return view_func(request, *view_args, **view_kwargs)
        except DatabaseError as error:
            # Raised here, it would skip process_exception (Django calls that for the view it
            # runs itself only): answer it the same way.
            if not (is_conflict(error) or is_unavailable(error)):
                raise
            return self.process_exception(request, error)

    def process_exception(self, request, exception):
        if not (is_conflict(exception) or is_unavailable(exception)):
            return None
        log.warning("%s %s answered 503: %s", request.method, request.path, str(exception).splitlines()[:1])
        return unavailable_response(request, exception)
