"""The test suite's settings: the project's own as a developer's machine runs them. DEBUG is off
unless DJANGO_DEBUG=1 (issue #41), and a developer's machine has no DJANGO_SECRET_KEY, so the
suite sets the variable first, as ``make run`` does; the commands, workers and servers a test
starts inherit it (those that run as production set DJANGO_DEBUG=0 themselves). pytest-django
switches DEBUG off during each test all the same."""

import os

os.environ.setdefault("DJANGO_DEBUG", "1")

from config.settings import *  # noqa: E402, F403
