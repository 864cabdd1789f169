"""The test suite's settings: the project's own as a developer's machine runs them. DEBUG is off
unless DJANGO_DEBUG=1 (issue #41), and a developer's machine has no DJANGO_SECRET_KEY, so the
suite sets the variable first, as ``make run`` does; the commands, workers and servers a test
starts inherit it (those that run as production set DJANGO_DEBUG=0 themselves). pytest-django
switches DEBUG off during each test all the same."""

import os
import sys

os.environ.setdefault("DJANGO_DEBUG", "1")

from config.settings import *  # noqa: E402, F403

if "pytest" in sys.modules:
    # The real hasher is slow on purpose (about half a second of CPU a password); the suite
    # makes hundreds of users, in the records a module or a process builds once too (the demo's
    # logins), before any test's own settings apply (tests/conftest.py sets it for each test
    # as well). Only the test process: a worker, a server or a command a test starts keeps the
    # project's hashers, as before.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
