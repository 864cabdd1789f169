"""An event's scoring method: the one its scoring program used, recorded from the program's
file at import and kept by every recalculation (``Event.scoring_method`` stands over the
regulating authority's settings in ``Event.regulations()``); changed or cleared by the
tournament's chief director or scorer."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from audit import services as audit
from core import policy, texts
from scoring import recalculation
from scoring.authority_settings import clean_value
from scoring.models import Board, Event
from scoring.services.common import full_save

# The settings a scoring program's method may hold for an event (how it scores, not who hears
# appeals): the ones a results file can tell.
METHOD_KEYS = (
    "artificial_scores",
    "butler_drop",
    "butler_rounding",
    "cross_imps",
    "fewer_played",
    "matchpoint_scale",
    "percent_rounding",
    "ranking",
    "rounding",
    "totals",
)


def set_event_scoring_method(*, event: Event, method: dict[str, object], by: Any, source: str = "") -> Event:
    """Record ``method`` ({setting: value}, keys from METHOD_KEYS; empty: score by the
    regulations) as ``event``'s scoring method, ``source`` naming the program it came from: the
    tournament's chief director or scorer changes or clears it. Audited; every board of the
    event is marked for recalculation."""
    event = Event.objects.select_related("tournament__authority").get(pk=event.pk)
    policy.require(by, "choose_scoring_method", event.tournament)
    return _record(event, method, by=by, source=source)


def record_program_method(*, event: Event, method: dict[str, object], by: Any, source: str) -> Event:
    """Record the scoring method of the program whose results file is being imported into
    ``event`` (``source`` names the program), as :func:`set_event_scoring_method` records one:
    taken by whoever imports the file (the import's rule: a director, chief director or scorer
    of the tournament, or the import command as the system). Audited; the boards marked."""
    event = Event.objects.select_related("tournament__authority").get(pk=event.pk)
    policy.require(by, "import", event.tournament)
    return _record(event, method, by=by, source=source)


def _record(event: Event, method: dict[str, object], *, by: Any, source: str) -> Event:
    errors = {}
    clean: dict[str, object] = {}
    for key, value in method.items():
        if key not in METHOD_KEYS:
            errors[key] = _("'%(key)s' is not part of a scoring method: one of %(keys)s.") % {
                "key": key,
                "keys": ", ".join(METHOD_KEYS),
            }
            continue
        try:
            clean[key] = clean_value(key, value, event.tournament.authority)
        except ValidationError as error:
            errors[key] = "; ".join(error.messages)
    if errors:
        raise ValidationError(errors)
    before = dict(event.scoring_method or {})
    if clean == before:
        return event
    event.scoring_method = clean
    full_save(event)
    audit.record(
        action="event.scoring_method_set",
        obj=event,
        actor=policy.person(by),
        tournament=event.tournament_id,
        before={"scoring_method": before},
        after={"scoring_method": clean, "source": source},
        summary=texts.text(
            "scoring.event_scoring_method",
            event=event.name,
            method=", ".join(f"{k} {v}" for k, v in sorted(clean.items())) or "-",
        ),
    )
    boards = list(Board.objects.filter(session__event=event).order_by("pk").values_list("pk", flat=True))
    if boards:
        recalculation.mark_boards_dirty(boards, {pk: event.pk for pk in boards})
    return event
