"""Login throttling: django-axes, for every login that comes over the network.

Wrong passwords are counted by username (whatever the addresses) and by address (whatever the
usernames). After ``AXES_FAILURE_LIMIT`` of them for a username (``LOGIN_ADDRESS_FAILURE_LIMIT``
from an address) within ``LOGIN_FAILURE_MEMORY_HOURS``, the username or the address is locked out (HTTP 429 with Retry-After) for ``LOGIN_LOCKOUT_SECONDS``,
and each further wrong password after a lockout doubles the next one, up to
``LOGIN_LOCKOUT_MAX_SECONDS``: a guesser is slowed down more and more, while an official who
mistyped is back in a minute (or at once, unlocked on the locked-accounts page). Guesses during
a lockout are refused unchecked and do not lengthen it. A success forgets the username's wrong
passwords. The attempts are kept in the database (SQLite or PostgreSQL alike), so every web
process shares them.
"""

from datetime import datetime, timedelta

from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max, QuerySet, Sum
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BasicAuthentication as DrfBasicAuthentication


def lockout_seconds(failures: int, limit: int | None = None) -> int:
    """How long ``failures`` wrong passwords lock out: none below the limit (a username's, or
    an address's), then the first lockout's length, doubled for each wrong password after it,
    up to the longest."""
    beyond = failures - (settings.AXES_FAILURE_LIMIT if limit is None else limit)
    if beyond < 0:
        return 0
    first, longest = settings.LOGIN_LOCKOUT_SECONDS, settings.LOGIN_LOCKOUT_MAX_SECONDS
    return min(longest, first * 2 ** min(beyond, 40))


def _attempt_time(request) -> datetime:
    return getattr(request, "axes_attempt_time", None) or timezone.now()


class BackoffHandler(AxesDatabaseHandler):
    """axes' database handler with a growing lockout (AXES_HANDLER): wrong passwords are kept
    for the memory window, and a lockout lasts ``lockout_seconds(failures)`` from the last one."""

    def get_user_attempts(self, request, credentials=None):
        since = _attempt_time(request) - timedelta(hours=settings.LOGIN_FAILURE_MEMORY_HOURS)
        return [
            attempts.filter(attempt_time__gte=since) for attempts in self.filter_user_attempts(request, credentials)
        ]

    def clean_expired_user_attempts(self, request=None, credentials=None) -> int:
        since = timezone.now() - timedelta(hours=settings.LOGIN_FAILURE_MEMORY_HOURS)
        count, _ = AccessAttempt.objects.filter(attempt_time__lt=since).delete()
        return count

    def _counted(self, request, credentials=None) -> list[tuple[int, QuerySet]]:
        """(limit, the recent attempts it counts): the request's address at
        ``LOGIN_ADDRESS_FAILURE_LIMIT`` (higher: a hall's officials may share one address), its
        username at ``AXES_FAILURE_LIMIT``."""
        from axes.helpers import get_client_username

        since = _attempt_time(request) - timedelta(hours=settings.LOGIN_FAILURE_MEMORY_HOURS)
        recent = AccessAttempt.objects.filter(attempt_time__gte=since)
        return [
            (settings.LOGIN_ADDRESS_FAILURE_LIMIT, recent.filter(ip_address=request.axes_ip_address)),
            (settings.AXES_FAILURE_LIMIT, recent.filter(username=get_client_username(request, credentials))),
        ]

    def get_failures(self, request, credentials=None) -> int:
        """What axes compares with AXES_FAILURE_LIMIT: each count moved by its own limit."""
        worst = 0
        for limit, attempts in self._counted(request, credentials):
            failures = attempts.aggregate(failures=Sum("failures_since_start"))["failures"] or 0
            if failures:
                worst = max(worst, failures - limit + settings.AXES_FAILURE_LIMIT)
        return worst

    def seconds_left(self, request, credentials=None) -> int:
        """The longest lockout the request meets (by its address, by its username), in seconds
        from now; 0 when it is not locked out."""
        now = _attempt_time(request)
        left = 0
        for limit, attempts in self._counted(request, credentials):
            seen = attempts.aggregate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
            if seen["failures"] and seen["last"]:
                until = seen["last"] + timedelta(seconds=lockout_seconds(seen["failures"], limit))
                left = max(left, int((until - now).total_seconds() + 0.999))
        return left

    def is_locked(self, request, credentials=None) -> bool:
        return self.seconds_left(request, credentials) > 0

    def reset_user_attempts(self, request, credentials=None) -> int:
        """A success forgets the username's wrong passwords (from every address), not the other
        usernames guessed at from this address."""
        from axes.helpers import get_client_username

        username = get_client_username(request, credentials)
        count, _ = AccessAttempt.objects.filter(username=username).delete()
        return count


def cool_off(request=None) -> timedelta:
    """AXES_COOLOFF_TIME: the time left of the request's lockout (the first lockout's length when
    there is none, which is what axes falls back on)."""
    if request is not None:
        left = BackoffHandler().seconds_left(request, getattr(request, "axes_credentials", None))
        if left > 0:
            return timedelta(seconds=left)
    return timedelta(seconds=settings.LOGIN_LOCKOUT_SECONDS)


class LoginThrottleBackend(AxesStandaloneBackend):
    """axes' check on every authentication that carries a request (the login page, the admin's,
    the API's basic authentication). A call without one (``manage.py shell``, Django's test
    client ``login()``) is no guess over the network: it is left to the next backend."""

    def authenticate(self, request=None, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def lockout_response(request, original_response=None, credentials=None):
    """A locked-out login, on every door (the login page, the admin's, the API's basic
    authentication): 429 with Retry-After and a message that says for how long; the login page
    again on pages, the API's error shape under /api/ (AXES_LOCKOUT_CALLABLE)."""
    import math

    from django.contrib.auth.forms import AuthenticationForm
    from django.http import HttpResponse, JsonResponse
    from django.shortcuts import render
    from django.utils.translation import ngettext

    seconds = max(1, int(cool_off(request).total_seconds()))
    minutes = math.ceil(seconds / 60)
    message = ngettext(
        "Too many wrong passwords from this address or for this username: try again in %(minutes)d minute, "
        "or ask an administrator to unlock it.",
        "Too many wrong passwords from this address or for this username: try again in %(minutes)d minutes, "
        "or ask an administrator to unlock it.",
        minutes,
    ) % {"minutes": minutes}
    response: HttpResponse
    if request.path_info.startswith("/api/"):
        response = JsonResponse({"detail": [message]}, status=429)
    else:
        context = {"form": AuthenticationForm(request), "locked_out": message, "next": request.POST.get("next", "")}
        response = render(request, "registration/login.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response


class BasicAuthentication(DrfBasicAuthentication):
    """DRF's basic authentication, with Django's request handed to the backends, so a lockout
    seen by axes is the request's, and AxesMiddleware answers it 429 (not DRF's 403)."""

    def authenticate_credentials(self, userid, password, request=None):
        return super().authenticate_credentials(userid, password, getattr(request, "_request", request))


class BasicAuthenticationScheme(OpenApiAuthenticationExtension):
    """The schema names the basic authentication above as DRF's own (HTTP basic), so the
    schema generator knows it and `check --deploy` stays clean."""

    target_class = "config.login_throttle.BasicAuthentication"
    name = "basicAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "basic"}
