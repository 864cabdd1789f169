"""Victory-point scales: a body's own scale added (a formula or a table), and an event's scale
chosen."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit import services as audit
from bridge.engine.scores import EngineInputError
from bridge.engine.vp import parse_scale, scale_from_csv, victory_points
from core import policy, texts
from core.i18n import translate
from scoring import recalculation
from scoring.models import Board, Event, MatchScore, RegulatingAuthority, VictoryPointScale
from scoring.services.common import full_save

if TYPE_CHECKING:
    from django.contrib.auth.models import User


VP_SCALE_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


def _number_text(value: Any) -> str:
    return f"{Decimal(str(value)).normalize():f}"


@transaction.atomic
def add_vp_scale(
    *,
    authority: RegulatingAuthority,
    name: str,
    source: str,
    max_vp: Any,
    text: str = "",
    tables: dict[str, Any] | None = None,
    by: User,
) -> VictoryPointScale:
    """Record a regulating authority's own discrete VP scale (its 25-VP scale, say) from its
    source: the bands as CSV ``text``, one a line (``boards,imps_from,winner_vp,loser_vp``), or
    ``tables`` in the engine's format. The engine checks every table (bridge.engine.vp.
    parse_scale); the scale becomes a choice, "<code>:<name>", for the body's ``vp_scale``
    setting and its events. Only a superuser, who records the body's regulations, may; audited."""
    policy.require(by, "settings", None)
    name = (name or "").strip().lower()
    errors = {}
    if not VP_SCALE_NAME.fullmatch(name):
        errors["name"] = _("'%(name)s' is not a scale's name: up to 40 letters, digits and hyphens (e.g. vp25).") % {
            "name": name
        }
    elif VictoryPointScale.objects.filter(authority=authority, name=name).exists():
        errors["name"] = _("%(body)s already has a scale named %(name)s.") % {"body": authority, "name": name}
    if not (source or "").strip():
        errors["source"] = _("Say where the numbers come from: the publication, with its date or edition.")
    if errors:
        raise ValidationError(errors)
    choice = f"{authority.code}:{name}"
    try:
        if tables is None:
            _scale, data = scale_from_csv(text or "", name=choice, max_vp=max_vp, source=source)
            tables = data["tables"]  # type: ignore[assignment]
        else:
            parse_scale({"name": choice, "max_vp": max_vp, "tables": tables})
    except EngineInputError as error:
        raise ValidationError({"max_vp" if error.field == "max_vp" else "tables": translate(error)}) from None
    assert tables is not None
    stored = {
        str(key).replace(" ", ""): [[_number_text(value) for value in row] for row in rows]
        for key, rows in tables.items()
    }
    scale = full_save(
        VictoryPointScale(
            authority=authority,
            name=name,
            source=source.strip(),
            max_vp=Decimal(str(max_vp).strip()),
            tables=stored,
            created_by=by,
        )
    )
    audit.record(
        action="authority.vp_scale_added",
        obj=scale,
        actor=by,
        after={"scale": choice, "source": scale.source, "max_vp": _number_text(scale.max_vp), "tables": stored},
        summary=texts.text("scoring.vp_scale_added", authority=str(authority), scale=choice),
    )
    return scale


@transaction.atomic
def set_event_vp_scale(*, event: Event, scale: str, by: User) -> Event:
    """Choose the victory-point scale of a team event scored in VPs (round robin or Swiss): one
    of the shipped scales or the regulating authority's own, or empty for the authority's
    ``vp_scale`` setting. Only the tournament's chief director or scorer, or a superuser, may.
    Audited; the event's matches and standings are recalculated with it."""
    from scoring import vp_scales

    event = Event.objects.select_related("tournament__authority").get(pk=event.pk)
    tournament = event.tournament
    policy.require(by, "choose_vp_scale", tournament)
    if not event.scored_in_vps:
        raise ValidationError(
            {
                "vp_scale": _(
                    "%(event)s is not scored in victory points: only a round robin or Swiss teams event chooses a "
                    "scale."
                )
                % {"event": event.name}
            }
        )
    scale = (scale or "").strip()
    allowed = vp_scales.choices(tournament.authority)
    authority_scale = tournament.regulations()["vp_scale"]
    if scale and scale not in allowed:
        raise ValidationError(
            {
                "vp_scale": _(
                    "'%(scale)s' is not a victory-point scale: one of %(choices)s, or empty for the regulating "
                    "authority's (%(default)s)."
                )
                % {"scale": scale, "choices": ", ".join(allowed), "default": authority_scale}
            }
        )
    in_force = scale or authority_scale
    engine_scale = vp_scales.engine_scale(tournament.authority, in_force)
    for boards in sorted(
        {len(b) for b in MatchScore.objects.filter(match__round__session__event=event).values_list("boards", flat=True)}
    ):
        try:
            victory_points(0, boards, engine_scale)
        except EngineInputError:
            raise ValidationError(
                {
                    "vp_scale": _("The %(scale)s scale has no table for %(n)s boards, and this event has such matches.")
                    % {"scale": in_force, "n": boards}
                }
            ) from None
    before = event.vp_scale
    if scale == before:
        return event
    event.vp_scale = scale
    full_save(event)
    audit.record(
        action="event.vp_scale_set",
        obj=event,
        actor=by,
        tournament=tournament.pk,
        before={"vp_scale": before},
        after={"vp_scale": scale, "in_force": in_force},
        summary=texts.text("scoring.event_vp_scale", event=event.name, scale=in_force),
    )
    _rescore_event(event)
    return event


def _rescore_event(event: Event) -> int | None:
    """The event's matches and standings through the pipeline: one board marked as changed is
    enough, since a team event's pass scores again every match whose stored VPs the scale in
    force would not give (scoring.recalculation.teams)."""
    board = Board.objects.filter(session__event=event).order_by("pk").first()
    if board is None:
        return None
    recalculation.lock_board(board.pk)
    return recalculation.mark_board_dirty(board)
