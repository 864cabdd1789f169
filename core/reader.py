"""What a reader sees of times, the same on every page.

Times: one policy. Every moment is shown in the tournament's time zone (the event's: a tournament
has one zone, its own or its regulating authority's), followed by the zone's name, in the date
format of the reader's language (Django's localisation: ``DATETIME_FORMAT`` and
``SHORT_DATETIME_FORMAT`` of each language, with English's, Icelandic's and Greek's from config/formats/).
A deadline also says how long is left. The API keeps UTC ISO 8601.

    event_time(moment, tournament)               -> "21:30 on 1 May 2026 (Europe/London)"  (en)
                                                  -> "1 במאי 2026 21:30 (Asia/Jerusalem)"   (he)
    event_time(moment, tournament, short=True)   -> "1 May 2026 21:30 (Europe/London)"
    remaining(deadline)                          -> "2 hours, 5 minutes left" / "closed"

Numbers: one policy too. A Decimal a reader sees (a penalty, a weight, a percentage, matchpoints)
is written plainly, never in exponent form ("1E+1"), with at most two decimals, none that end
in 0, and the decimal mark of the reader's language (Django's number format; templates use the
``number`` filter of core/templatetags/reader.py, or ``|floatformat:"-2"`` for a column):

    number(Decimal("10.00"))                     -> "10"       (never "1E+1")
    number(Decimal("33.333"))                    -> "33.33"    (en), "33,33" (nl, el, uk, is)
    number(Decimal("2.50"))                      -> "2.5"

Templates use the library in core/templatetags/reader.py. A regulating authority's own terms
(a national name for its appeals committee) are appeals/terms.py's.
"""

import datetime
import math
import zoneinfo
from decimal import ROUND_HALF_UP, Decimal

from django.utils import formats, timezone
from django.utils.translation import get_language_bidi, gettext, ngettext


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
    language, with the zone's abbreviation or offset and its name. Empty for None."""
    if moment is None:
        return ""
    zone = zone_of(where)
    there = local(moment, zone)
    text = formats.date_format(there, "SHORT_DATETIME_FORMAT" if short else "DATETIME_FORMAT")
    # The zone's abbreviation (or offset) says which 01:20 on the night the clocks go back.
    return f"{text} {zone_abbreviation(there)} ({zone_name(zone)})"


def iso(moment, milliseconds=False):
    """``moment`` as ISO 8601 with its offset ("2026-05-01T21:30:00+01:00"), as a browser's
    ``Date.parse`` reads it (a naive moment is taken to be in UTC)."""
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, datetime.UTC)
    return moment.isoformat(timespec="milliseconds" if milliseconds else "seconds")


def zone_abbreviation(there):
    """ "BST", "GMT", "CET" for a moment in its zone; its UTC offset ("+03:00") where the zone
    has no letters for it."""
    name = there.tzname() or ""
    if name.isalpha():
        return name
    offset = there.strftime("%z")
    return f"{offset[:3]}:{offset[3:]}" if offset else "UTC"


def number(value, decimals=2):
    """``value`` (a Decimal, int, float or numeric string) as a reader reads it: plain digits, at
    most ``decimals`` decimals and none when it is whole, the decimal mark of the active
    language; "" for None."""
    if value is None or value == "":
        return ""
    rounded = Decimal(str(value)).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP).normalize()
    exponent = rounded.as_tuple().exponent
    places = max(0, -exponent) if isinstance(exponent, int) else 0  # a finite Decimal has an int exponent
    return formats.number_format(rounded.quantize(Decimal(1).scaleb(-places)), places)


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


def isolated(text):
    """``text`` (a time, a score) to stand inside a sentence written as plain text: in a
    right-to-left language isolated left to right (U+2066 ... U+2069), as ``<bdi dir="ltr">`` and
    ``<time dir="ltr">`` are on a page, else its signs, brackets and zone's name part (issue #42)."""
    return f"\u2066{text}\u2069" if text and get_language_bidi() else text
