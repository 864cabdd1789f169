"""``{% load setting_sources %}{% setting_source tournament "appeal_period_minutes" %}``: where a
page uses a regulation's value (the appeal period on the appeal page, the deposit, the VP scale on
the event page), the value's source, the words it rests on and their confidence (read in the
text, a secondary source, assumed), as the settings page shows them (issue #43), folded so that a
phone shows one line until it is opened. The value is the tournament's: the authority's in force
on its first day, or the one a correction left it (``Tournament.kept_regulations``)."""

from django import template

from scoring.authority_views import settings_rows, show

register = template.Library()


@register.inclusion_tag("scoring/_setting_source.html")
def setting_source(tournament, key):
    if tournament is None:
        return {"row": None}
    _preset, rows = settings_rows(tournament.authority, day=tournament.start_date)
    row = next((row for row in rows if row.key == key), None)
    kept = tournament.kept_regulations or {}
    if row is not None and key in kept:
        # A value kept from before a correction: what the tournament uses, without the corrected
        # value's source.
        return {"row": row, "kept": True, "shown": show(kept[key])}
    return {"row": row, "kept": False, "shown": row.shown if row else ""}
