"""``{% load reader %}``: times, deadlines and left-to-right fragments,
written the same way on every page (scoring/reader.py says the policy).

    {{ ruling.given_at|event_time:tournament }}    <time ... dir="ltr">1 May 2026 21:30 (Europe/London)</time>
    {{ appeal.deadline|deadline:tournament }}      ... the same, then "2 hours, 5 minutes left"
    {{ score_description|ltr }}                    <bdi dir="ltr">40% 4S N = / 60% 4S N -1</bdi>
"""

from django import template
from django.utils.html import format_html

from scoring import reader

register = template.Library()


def _time_element(moment, where):
    return format_html(
        '<time datetime="{}" data-zone="{}" dir="ltr">{}</time>',
        reader.local(moment, where).isoformat(),
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
    return format_html('{} · <span class="remaining">{}</span>', _time_element(moment, where), reader.remaining(moment))


@register.filter
def ltr(value):
    """A fragment whose characters must stay left to right (a score, a contract, a law number,
    seat letters) isolated from a right-to-left sentence around it. Empty stays empty."""
    if value is None or value == "":
        return ""
    return format_html('<bdi dir="ltr">{}</bdi>', value)


@register.filter(name="remaining")
def remaining_filter(moment):
    """The time left until ``moment`` in words ("2 hours, 5 minutes left"), or "closed"."""
    if not moment:
        return ""
    return reader.remaining(moment)
