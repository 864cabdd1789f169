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
- ``ConcurrencyConflictMiddleware`` is the last line: a conflict that still escapes after the
  retries answers 503 with Retry-After (the change was not made; sending it again is safe),
  not a 500.
"""

import functools
import logging
import random
import time

from django.db import DatabaseError, OperationalError, connection, transaction
from django.http import JsonResponse
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

ATTEMPTS = 8
FIRST_PAUSE = 0.02  # seconds; doubled each attempt, with jitter, at most MAX_PAUSE
MAX_PAUSE = 0.5
RETRY_AFTER_SECONDS = 1

# SQLSTATE codes of a transaction aborted by a concurrent one.
CONFLICT_SQLSTATES = {"40P01", "40001"}


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


class ConcurrencyConflictMiddleware:
    """A conflict that escaped every retry answers 503 + Retry-After instead of a 500."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not is_conflict(exception):
            return None
        log.warning("A request met concurrent changes after every retry: %s %s", request.method, request.path)
        message = _(
            "Someone else changed the same record at the same moment. Nothing was saved: please send your change again."
        )
        response = JsonResponse({"detail": message}, status=503)
        if not request.path.startswith("/api/"):
            from django.http import HttpResponse

            response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
