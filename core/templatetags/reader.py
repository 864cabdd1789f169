"""``{% load reader %}``: times, deadlines and left-to-right fragments,
written the same way on every page (core/reader.py says the policy).

    {{ ruling.given_at|event_time:tournament }}    <time ... dir="ltr">1 May 2026 21:30 (Europe/London)</time>
    {{ appeal.deadline|deadline:tournament }}      ... the same, then "2 hours, 5 minutes left",
                                                   counted down in the browser (static/js/countdown.js)
    {{ appeal.deadline|countdown }}                "2 hours, 5 minutes left" alone, counted down
    {% server_now %}                               the server's clock, which the countdowns keep to
    {{ score_description|ltr }}                    <bdi dir="ltr">40% 4S N = / 60% 4S N -1</bdi>
    {{ "3S S +2"|nowrap }}                         the same, kept on one line (a contract and its
                                                   result, "(Law 83)": class "nowrap", static/css)
    {{ penalty.amount|number }}                    10, 33.33 or 33,33: never 1E+1 (reader.number)
    {{ flag.message|signed_ltr }}                  a sentence with each signed number ("+100",
                                                   "-635") in <bdi dir="ltr">: never "100+"
"""

import re

from django import template
from django.utils import timezone
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from core import reader, renders

register = template.Library()


def _time_element(moment, where):
    return format_html(
        '<time datetime="{}" data-zone="{}" dir="ltr">{}</time>',
        reader.iso(reader.local(moment, where)),
        reader.zone_name(reader.zone_of(where)),
        reader.event_time(moment, where, short=True),
    )


@register.filter
def event_time(moment, where=None):
    """A moment in the zone of ``where`` (a tournament, an authority, a zone's name)."""
    if not moment:
        return ""
    return _time_element(moment, where)


@register.filter
def deadline(moment, where=None):
    """A deadline as :func:`event_time`, followed by the time left (or "closed")."""
    if not moment:
        return ""
    return format_html("{} · {}", _time_element(moment, where), countdown(moment))


@register.filter
def decide_by(moment, where=None):
    """A time to decide a case by: as :func:`deadline` while it runs, then marked overdue (the
    countdown says "overdue" at zero, not "closed": the case still waits for its decision)."""
    if not moment:
        return ""
    if moment <= timezone.now():
        return format_html('{} · <strong class="overdue">{}</strong>', _time_element(moment, where), gettext("overdue"))
    return format_html("{} · {}", _time_element(moment, where), countdown(moment, gettext("overdue")))


@register.filter
def countdown(moment, closed=None):
    """The time left until ``moment`` in words, as the server sees it now, marked for
    static/js/countdown.js to count down each second in the reader's language, by the server's
    clock, and to say "closed" at zero. Empty for None."""
    if not moment:
        return ""
    return format_html(
        '<span class="remaining" role="timer" data-deadline="{}" data-left="{}" data-closed="{}">{}</span>',
        reader.iso(moment),
        gettext("%(time)s left"),
        closed or gettext("closed"),
        reader.remaining(moment),
    )


@register.simple_tag(takes_context=True)
def server_now(context):
    """The server's clock as the page is made (ISO 8601 with milliseconds, UTC): the countdowns
    correct the reader's own clock by it (base.html, ``<meta name="server-now">``). A shared
    render's placeholder, filled in as each reader is served (core/renders.py)."""
    if renders.is_shared(context.get("request")):
        return renders.SERVER_NOW
    return reader.iso(timezone.now(), milliseconds=True)


@register.simple_tag(takes_context=True)
def fetched_at(context):
    """The time the page was made (what ``{% now 'c' %}`` says), or a shared render's placeholder."""
    if renders.is_shared(context.get("request")):
        return renders.FETCHED_AT
    return renders.fetched_at()


@register.simple_tag(takes_context=True)
def reader_name(context):
    """The signed-in reader's name (full name, else user name), or a shared render's placeholder."""
    request = context.get("request")
    if renders.is_shared(request):
        return renders.NAME
    user = getattr(request, "user", None) or context.get("user")
    return renders.reader_name(user) if user is not None and user.is_authenticated else ""


@register.filter
def ltr(value):
    """A fragment whose characters must stay left to right (a score, a contract, a law number,
    seat letters) isolated from a right-to-left sentence around it. Empty stays empty."""
    if value is None or value == "":
        return ""
    return format_html('<bdi dir="ltr">{}</bdi>', value)


@register.filter
def nowrap(value):
    """:func:`ltr`, and never broken across lines: a contract with its result ("3S S +2"), a law
    reference with its brackets ("(Law 83)"). Empty stays empty."""
    if value is None or value == "":
        return ""
    return format_html('<bdi dir="ltr" class="nowrap">{}</bdi>', value)


# A signed number standing alone: a score ("N-S +100"), a median ("(median -635)"); not a word's
# hyphen before a number (the Hebrew prefix of "ב-17", "12-14").
SIGNED = re.compile(r"(?<![\w+\-−])([+\-−]\d+(?:[.,]\d+)?)")


@register.filter
def signed_ltr(value):
    """A sentence written as text with each signed number in it isolated left to right."""
    if value is None or value == "":
        return ""
    return mark_safe(SIGNED.sub(r'<bdi dir="ltr">\1</bdi>', str(conditional_escape(value))))  # noqa: S308 - escaped first


@register.filter(name="number")
def number_filter(value):
    """A Decimal a reader sees, plainly in the reader's format (core.reader.number); a value
    that is not a number (a weight written "1/3") as it is."""
    try:
        return reader.number(value)
    except (ArithmeticError, ValueError, TypeError):
        return value


@register.filter(name="remaining")
def remaining_filter(moment):
    """The time left until ``moment`` in words ("2 hours, 5 minutes left"), or "closed"."""
    if not moment:
        return ""
    return reader.remaining(moment)
