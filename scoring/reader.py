"""What a reader sees of times and of a regulating authority's own words, the same on every page.

Times: one policy. Every moment is shown in the tournament's time zone (the event's: a tournament
has one zone, its own or its regulating authority's), followed by the zone's name, in the date
format of the reader's language (Django's localisation: ``DATETIME_FORMAT`` and
``SHORT_DATETIME_FORMAT`` of each language, with English's and Icelandic's from config/formats/).
A deadline also says how long is left. The API keeps UTC ISO 8601.

    event_time(moment, tournament)               -> "21:30 on 1 May 2026 (Europe/London)"  (en)
                                                  -> "1 במאי 2026 21:30 (Asia/Jerusalem)"   (he)
    event_time(moment, tournament, short=True)   -> "1 May 2026 21:30 (Europe/London)"
    remaining(deadline)                          -> "2 hours, 5 minutes left" / "closed"

Terms: a regulating authority may name things its own way (a national name for the appeals
committee, say): the dated setting ``terms`` (scoring/authority_settings.py) maps a term's key to
its text per language; :func:`term` gives the authority's text in the reader's language, else
the default. Templates use the library in scoring/templatetags/reader.py.
"""

import datetime
import math
import zoneinfo

from django.utils import formats, timezone
from django.utils.translation import get_language, gettext, gettext_lazy, ngettext

# The terms an authority may rename, with the default each one replaces. The appeals bodies'
# keys are appeals.models.Body.Kind's values (scoring cannot import appeals: the layers).
TERMS = {
    "committee": gettext_lazy("Appeals committee"),
    "referee": gettext_lazy("Single referee"),
    "reviewer": gettext_lazy("Reviewer (process and reasonableness only)"),
    "director_panel": gettext_lazy("Panel of directors"),
    "director_in_charge": gettext_lazy("Director in charge (Law 93A)"),
    "national": gettext_lazy("Regulating authority's appeals body (Law 93C)"),
    "director": gettext_lazy("Director"),
    "chief_director": gettext_lazy("Chief director"),
}


def zone_of(where):
    """The time zone of ``where``: a tournament (its ``zone``), a regulating authority (its
    ``time_zone``), a zone, or a zone's name; None means the active zone."""
    if where is None:
        return timezone.get_current_timezone()
    if isinstance(where, datetime.tzinfo):
        return where
    if isinstance(where, str):
        return zoneinfo.ZoneInfo(where)
    zone = getattr(where, "zone", None)
    if isinstance(zone, datetime.tzinfo):
        return zone
    return zoneinfo.ZoneInfo(where.time_zone)


def zone_name(zone):
    return getattr(zone, "key", None) or str(zone)


def local(moment, where):
    """``moment`` in the zone of ``where``; a naive moment is taken to be in UTC."""
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, datetime.UTC)
    return moment.astimezone(zone_of(where))


def event_time(moment, where, short=False):
    """``moment`` as the reader reads it: in the zone of ``where``, in the format of the active
    language, with the zone's name. Empty for None."""
    if moment is None:
        return ""
    zone = zone_of(where)
    text = formats.date_format(local(moment, zone), "SHORT_DATETIME_FORMAT" if short else "DATETIME_FORMAT")
    return f"{text} ({zone_name(zone)})"


def remaining(deadline, now=None):
    """How long is left until ``deadline``, in words of the active language: "2 hours, 5
    minutes left", or "closed" once it has passed."""
    now = now or timezone.now()
    if deadline <= now:
        return gettext("closed")
    # Our own words rather than Django's timeuntil: its Greek and Icelandic catalogues leave the
    # units untranslated ("2 hours" on a Greek page). Minutes are rounded up: "1 minute" to the
    # last second.
    minutes = math.ceil((deadline - now).total_seconds() / 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    units = [
        (days, ngettext("%(n)s day", "%(n)s days", days)),
        (hours, ngettext("%(n)s hour", "%(n)s hours", hours)),
        (minutes, ngettext("%(n)s minute", "%(n)s minutes", minutes)),
    ]
    parts = [text % {"n": n} for n, text in units if n][:2]
    return gettext("%(time)s left") % {"time": ", ".join(parts)}


def term(authority, key, default=None):
    """The regulating authority's own word for ``key`` (one of :data:`TERMS`) in the active
    language, from its setting ``terms`` in force today; else ``default``, else the project's
    word. ``authority`` may be a tournament (its authority's words as on its first day)."""
    fallback = default if default is not None else TERMS.get(key, key)
    if authority is None:
        return str(fallback)
    if hasattr(authority, "regulations"):
        terms = authority.regulations().get("terms") or {}
    else:
        terms = authority.settings_on().get("terms") or {}
    words = terms.get(key) or {}
    language = (get_language() or "en").split("-")[0]
    return words.get(language) or str(fallback)
