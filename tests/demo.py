"""The small demo (``manage.py load_demo``, four pairs tables, eight boards a session, four teams)
at DEMO_NOW, as the modules and browser journeys that read it load it: built through the command
the first time in a test process on a database in a given state and restored row by row after
that (tests/snapshot.py), instead of dealt, solved, ruled and appealed again by every module and
every browser test that asks for it. The national search and statistics, the precedents, the
walk of every page in every language and four browser modules share it."""

import io
from unittest import mock

from django.core.management import call_command

from tests.conftest import DEMO_NOW
from tests.snapshot import built_once

SMALL = dict(pairs_tables=4, boards_per_session=8, pairs_sessions=2, teams=4, boards_per_match=2, now=DEMO_NOW)


def _load(past_seasons):
    from scoring import demo

    original = demo.load_demo
    arguments = ["--past-seasons"] if past_seasons else []
    with mock.patch.object(demo, "load_demo", lambda **kw: original(**{**SMALL, **kw})):
        call_command("load_demo", *arguments, verbosity=0, stdout=io.StringIO(), stderr=io.StringIO())


def load_small_demo(past_seasons=False):
    """The small demo in the test database (with the two past seasons' casebook when
    ``past_seasons``), as ``load_demo`` [--past-seasons] leaves it."""
    built_once(f"small demo{' with past seasons' if past_seasons else ''}", lambda: _load(past_seasons))
