"""Login throttling: django-axes, for every login that comes over the network.

After ``AXES_FAILURE_LIMIT`` wrong passwords for one username from one address, that pair is
locked out for ``AXES_COOLOFF_TIME`` (HTTP 429), and a success resets the count. The attempts
are kept in the database (SQLite or PostgreSQL alike), so every web process shares them.
"""

from axes.backends import AxesStandaloneBackend


class LoginThrottleBackend(AxesStandaloneBackend):
    """axes' check on every authentication that carries a request (the login page, the admin's,
    the API's basic authentication). A call without one (``manage.py shell``, Django's test
    client ``login()``) is no guess over the network: it is left to the next backend."""

    def authenticate(self, request=None, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
