"""Login throttling: django-axes, for every login that comes over the network.

After ``AXES_FAILURE_LIMIT`` wrong passwords for one username from one address, that pair is
locked out for ``AXES_COOLOFF_TIME`` (HTTP 429), and a success resets the count. The attempts
are kept in the database (SQLite or PostgreSQL alike), so every web process shares them.
"""

from axes.backends import AxesStandaloneBackend
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BasicAuthentication as DrfBasicAuthentication


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

    from axes.helpers import get_cool_off
    from django.contrib.auth.forms import AuthenticationForm
    from django.http import JsonResponse
    from django.shortcuts import render
    from django.utils.translation import ngettext

    cool_off = get_cool_off(request)
    seconds = max(1, int(cool_off.total_seconds())) if cool_off else 3600
    minutes = math.ceil(seconds / 60)
    message = ngettext(
        "Too many wrong passwords for this username from this address: try again in %(minutes)d minute, "
        "or ask an administrator to unlock it.",
        "Too many wrong passwords for this username from this address: try again in %(minutes)d minutes, "
        "or ask an administrator to unlock it.",
        minutes,
    ) % {"minutes": minutes}
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
