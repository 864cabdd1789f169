"""A session's two clocks: the Law 79C correction period and the Law 92B appeal period both
run from when its official score was made available, for as long as the tournament's
regulations say. The one place they are computed: ``Session.appeal_deadline()`` and
``correction_deadline()`` (and a ruling's, which are its session's) and
``scoring.selectors.session_clocks`` (many sessions at once) call ``deadline``.

Posting the official score again (a corrected score made available, on the session's page or
through the API: ``scoring.services.post_official_scores``) restarts both clocks from the new
posting, for the players may inspect the score anew (Laws 79C1, 92B: the periods run "after the
official score has been made available"): ``official_score_at`` is always the latest posting, and
every deadline shown (a ruling's countdown, the appeal windows) follows it. An appeal already
lodged keeps the deadline it was lodged under."""

import datetime

from django.utils.translation import gettext_lazy

# What a posting let every player of the session see, least to most (issue #44), and the one
# question whether that makes the official score "made available for checking" (Laws 79C, 92B):
# the regulations' ``checking_requires`` says what must be visible. ``services.post_official_scores``
# asks it once, as the posting is made, and keeps the answer on the posting (``checkable``); the
# clocks (``Session.official_score_at``, ``scoring.selectors.session_clocks``) run from the latest
# posting that counts, so posting again (with as much visible) restarts them.
CHECKING_LEVELS = ("own_results", "full_travellers", "hand_records")
SHOWS = {
    "own_results": gettext_lazy("each player's own results"),
    "full_travellers": gettext_lazy("the full travellers and standings"),
    "hand_records": gettext_lazy("the full travellers, the standings and the hand records"),
}


def counts_for_checking(shows, regulations):
    """Whether a posting that let every player see ``shows`` (a ``CHECKING_LEVELS`` value) makes
    the official score available for checking under ``regulations`` (``checking_requires``)."""
    return CHECKING_LEVELS.index(shows) >= CHECKING_LEVELS.index(regulations["checking_requires"])


# Each clock and the setting (scoring/authority_settings.py) that says how long it runs, in minutes.
PERIODS = {"appeal": "appeal_period_minutes", "correction": "correction_period_minutes"}


def deadline(official_score_at, regulations, period):
    """When a session's ``period`` ("appeal" or "correction") ends: ``official_score_at`` (the
    latest posting of its official score) plus the minutes its tournament's ``regulations``
    give; None while the official score is not posted, for the clock has not started."""
    if official_score_at is None:
        return None
    return official_score_at + datetime.timedelta(minutes=regulations[PERIODS[period]])


# What each act after the official score is, the law that gives it its period (by edition where
# the editions number it differently: "" is every other edition), and the clock.
ACTS = {
    "result_correction": (
        "correction",
        {"1997": gettext_lazy("The correction period (Law 79C)"), "": gettext_lazy("The correction period (Law 79C1)")},
        gettext_lazy("this table result is not corrected any more"),
    ),
    "ruling_correction": (
        "correction",
        {"1997": gettext_lazy("The correction period (Law 79C)"), "": gettext_lazy("The correction period (Law 79C1)")},
        gettext_lazy("this ruling is not corrected any more"),
    ),
    "concession": (
        "correction",
        {"": gettext_lazy("The correction period (Laws 69B, 71)")},
        gettext_lazy("a concession or an acquiescence is no longer cancelled or withdrawn"),
    ),
    "ruling_request": (
        "appeal",
        {"": gettext_lazy("The period for requesting a ruling (Laws 92B, 81C6)")},
        gettext_lazy("no ruling is asked for on this session any more"),
    ),
}
# The acts Law 79C2 (2007, 2017) may still allow after the correction period: an error in
# computing or recording a score.
LATE_ACTS = ("result_correction", "ruling_correction")
LATE_LAW = "79C2"


def late_route_open(tournament):
    """Whether ``tournament``'s regulations allow the Law 79C2 route: a correction after the
    correction period. The 1997 Laws have no 79C2; in 2007 and 2017 it is the regulating
    authority's to allow (the ``late_corrections_allowed`` setting)."""
    regulations = tournament.regulations()
    return regulations["laws_edition"] != "1997" and bool(regulations.get("late_corrections_allowed"))


def clean_late_correction(late):
    """The Law 79C2 statement as stored: the director's and the tournament organiser's, each
    satisfied beyond reasonable doubt that the record is wrong. Raise ValidationError naming what
    is missing."""
    from django.core.exceptions import ValidationError
    from django.utils.translation import gettext as _

    late = {key: str((late or {}).get(key) or "").strip() for key in ("director", "organiser", "statement")}
    missing = [key for key, value in late.items() if not value]
    if missing:
        raise ValidationError(
            {
                f"late_{key}": _(
                    "Law 79C2: name the director and the tournament organiser and record their statement "
                    "that both are satisfied beyond reasonable doubt that the record is wrong."
                )
                for key in missing
            }
        )
    return {**late, "law": LATE_LAW}


def check_in_period(session, act, now=None, field="__all__", late=None):
    """Refuse ``act`` (a key of ``ACTS``) on ``session`` once its period after the official
    score has ended, naming the law (of the tournament's edition) and the deadline in the
    tournament's zone (with its abbreviation). Before the official score is posted the clock has
    not started: allowed (None). After it, a score correction (``LATE_ACTS``) may still take the
    Law 79C2 route where the regulations allow it, with ``late`` the director's and organiser's
    statement (``clean_late_correction``): then the statement as stored is returned."""
    from django.core.exceptions import ValidationError
    from django.utils import timezone
    from django.utils.translation import gettext as _

    from core import reader

    period, whats, consequence = ACTS[act]
    ends = session._deadline(period)
    if ends is None or (now or timezone.now()) <= ends:
        return None
    tournament = session.event.tournament
    late_open = act in LATE_ACTS and late_route_open(tournament)
    if late_open and late:
        return clean_late_correction(late)
    edition = tournament.regulations()["laws_edition"]
    message = _("%(what)s ended at %(deadline)s; %(consequence)s.") % {
        "what": whats.get(edition, whats[""]),
        "deadline": reader.event_time(ends, tournament),
        "consequence": consequence,
    }
    if late_open:
        message += " " + _(
            "The regulations allow a later correction (Law 79C2) when the director and the tournament "
            "organiser are both satisfied beyond reasonable doubt that the record is wrong: record their statement."
        )
    elif act in LATE_ACTS and late:
        message += " " + (
            _("The 1997 Laws have no later correction (Law 79C2 is of 2007 and 2017).")
            if edition == "1997"
            else _("The regulations do not allow a correction after the correction period (Law 79C2).")
        )
    raise ValidationError({field: message})


def decide_by(session, lodged_at, regulations):
    """When a case lodged at ``lodged_at`` on a ruling of ``session`` must be decided, and whether
    it is heard at once (a case of the event's last session). The authority's dated
    ``decision_period_minutes`` gives the time after lodging; where it is empty (the Laws set
    none, the system's rule) a case of an earlier session is decided before the event's next
    session starts (None if that start is not known) and one of the last session has no time
    but "at once"."""
    minutes = regulations.get("decision_period_minutes", "")
    if minutes not in ("", None):
        return lodged_at + datetime.timedelta(minutes=int(minutes)), session.is_last
    if session.is_last:
        return None, True
    following = session.event.sessions.filter(number__gt=session.number).order_by("number").first()
    return (following.starts_at if following else None), False
