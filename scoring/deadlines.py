"""A session's two clocks: the Law 79C correction period and the Law 92B appeal period both
run from when its official score was made available, for as long as the tournament's
regulations say. The one place they are computed: ``Session.appeal_deadline()`` and
``correction_deadline()`` (and a ruling's, which are its session's) and
``scoring.selectors.session_clocks`` (many sessions at once) call ``deadline``."""

import datetime

# Each clock and the setting (scoring/authority_settings.py) that says how long it runs, in minutes.
PERIODS = {"appeal": "appeal_period_minutes", "correction": "correction_period_minutes"}


def deadline(official_score_at, regulations, period):
    """When a session's ``period`` ("appeal" or "correction") ends: ``official_score_at`` (the
    latest posting of its official score) plus the minutes its tournament's ``regulations``
    give; None while the official score is not posted, for the clock has not started."""
    if official_score_at is None:
        return None
    return official_score_at + datetime.timedelta(minutes=regulations[PERIODS[period]])
