"""Issue #26: the appeal (Law 92B) and correction (Law 79C) deadlines are computed in one place
(scoring.deadlines), which the session, its rulings and the pages' and API's clocks all use."""

import ast
import datetime
from pathlib import Path

from core import policy
from scoring import services
from scoring.models import Session
from scoring.selectors import session_clocks

ROOT = Path(__file__).resolve().parents[2]
APPS = ("audit", "scoring", "rulings", "appeals", "national", "config")


def test_the_session_and_the_clocks_of_many_sessions_give_the_same_deadlines(record):
    # Two periods of different lengths, so that a clock read from the other setting shows.
    services.set_authority_setting(
        authority=record.authority,
        key="correction_period_minutes",
        value=45,
        effective_from=datetime.date(2020, 1, 1),
        by=policy.SYSTEM,
    )
    session = Session.objects.get(pk=record.session.pk)
    assert (session.appeal_deadline(), session.correction_deadline()) == (None, None)
    assert session_clocks([session])[session.pk]["appeal_deadline"] is None
    assert session_clocks([session])[session.pk]["correction_deadline"] is None
    posted = datetime.datetime(2026, 5, 1, 21, 40, tzinfo=datetime.UTC)
    services.post_official_scores(session=session, at=posted, by=policy.SYSTEM)
    session = Session.objects.get(pk=session.pk)
    clocks = session_clocks([session])[session.pk]
    assert session.appeal_deadline() == clocks["appeal_deadline"] == posted + datetime.timedelta(minutes=30)
    assert session.correction_deadline() == clocks["correction_deadline"] == posted + datetime.timedelta(minutes=45)


def test_the_periods_are_read_in_one_place():
    """Only scoring/deadlines.py reads how long the appeal and correction periods run (their
    settings are defined in scoring/authority_settings.py and required of every preset)."""
    readers = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and node.value in (
                    "appeal_period_minutes",
                    "correction_period_minutes",
                ):
                    readers.add(path.relative_to(ROOT).as_posix())
    # Where the settings are defined (and a preset's required keys named) is not a reader.
    defined = {"scoring/authority_settings.py", "scoring/presets/__init__.py"}
    assert readers - defined == {"scoring/deadlines.py"}
