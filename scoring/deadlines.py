"""A session's two clocks: the Law 79C correction period and the Law 92B appeal period both
run from when its official score was made available, for as long as the tournament's
regulations say. The one place they are computed: ``Session.appeal_deadline()`` and
``correction_deadline()`` (and a ruling's, which are its session's) and
``scoring.selectors.session_clocks`` (many sessions at once) call ``deadline``."""

import datetime

from django.utils.translation import gettext_lazy as _l

# Each clock and the setting (scoring/authority_settings.py) that says how long it runs, in minutes.
PERIODS = {"appeal": "appeal_period_minutes", "correction": "correction_period_minutes"}


def deadline(official_score_at, regulations, period):
    """When a session's ``period`` ("appeal" or "correction") ends: ``official_score_at`` (the
    latest posting of its official score) plus the minutes its tournament's ``regulations``
    give; None while the official score is not posted, for the clock has not started."""
    if official_score_at is None:
        return None
    return official_score_at + datetime.timedelta(minutes=regulations[PERIODS[period]])


# What each act after the official score is, the law that gives it its period, and the clock.
ACTS = {
    "result_correction": (
        "correction",
        _l("The correction period (Law 79C1)"),
        _l("this table result is not corrected any more"),
    ),
    "concession": (
        "correction",
        _l("The correction period (Laws 69B, 71)"),
        _l("a concession or an acquiescence is no longer cancelled or withdrawn"),
    ),
    "ruling_request": (
        "appeal",
        _l("The period for requesting a ruling (Laws 92B, 81C6)"),
        _l("no ruling is asked for on this session any more"),
    ),
}


def check_in_period(session, act, now=None, field="__all__"):
    """Refuse ``act`` (a key of ``ACTS``) on ``session`` once its period after the official
    score has ended, naming the law and the deadline in the tournament's zone (with its
    abbreviation). Before the official score is posted the clock has not started: allowed."""
    from django.core.exceptions import ValidationError
    from django.utils import timezone
    from django.utils.translation import gettext as _

    from scoring import reader

    period, what, consequence = ACTS[act]
    ends = session._deadline(period)
    if ends is None or (now or timezone.now()) <= ends:
        return
    tournament = session.event.tournament
    raise ValidationError(
        {
            field: _("%(what)s ended at %(deadline)s; %(consequence)s.")
            % {"what": what, "deadline": reader.event_time(ends, tournament), "consequence": consequence}
        }
    )
