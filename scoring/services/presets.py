"""A regulating authority's settings from a preset (``scoring.presets``): created with one, or
one applied to an authority later."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit import services as audit
from core import texts
from scoring.models import AuthoritySetting, RegulatingAuthority
from scoring.services.record import create_authority, set_authority_setting

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from scoring.presets import Preset


def _preset(code: str) -> Preset:
    from scoring import presets

    if code not in presets.available():
        raise ValidationError(
            {
                "preset": _("'%(code)s' is not a preset: one of %(choices)s.")
                % {"code": code, "choices": ", ".join(presets.available())}
            }
        )
    return presets.load(code)


@transaction.atomic
def create_authority_with_preset(
    *, name: str, code: str, preset: str, by: User | None = None, **fields: Any
) -> RegulatingAuthority:
    """A regulating authority that starts with a preset's dated settings (``preset`` a code of
    scoring/presets, e.g. "ebu"); an empty ``preset`` leaves it on the Laws' defaults. The one
    road for the admin's add form, the API and ``create_authority --preset``: audited."""
    chosen = _preset(preset) if preset else None
    authority = create_authority(name=name, code=code, **fields)
    audit.record(
        action="authority.created",
        obj=authority,
        actor=by,
        after={
            "name": authority.name,
            "code": authority.code,
            "country": authority.country,
            "language": authority.language,
            "time_zone": authority.time_zone,
            "preset": chosen.code if chosen else "",
        },
        summary=texts.text("scoring.created_preset", authority=str(authority), code=chosen.code)
        if chosen
        else texts.text("scoring.created", authority=str(authority)),
    )
    if chosen is not None:
        apply_preset(authority=authority, preset=chosen.code, by=by)
    return authority


@transaction.atomic
def apply_preset(*, authority: RegulatingAuthority, preset: str, by: User | None = None) -> list[AuthoritySetting]:
    """Write each dated value of the preset that ``authority`` has no value for on that date, with
    its source as the note, and record the preset from its first date. A value already recorded
    for a setting and date is left as it is: applying a later edition of a preset adds its new
    dated values without rewriting history, nor the body's own changes. Returns what was written."""
    chosen = _preset(preset)
    RegulatingAuthority.objects.select_for_update().get(pk=authority.pk)
    recorded = set(authority.settings.values_list("key", "effective_from"))
    written = []
    if ("preset", chosen.first_date) not in recorded:
        written.append(
            set_authority_setting(
                authority=authority,
                key="preset",
                value=chosen.code,
                effective_from=chosen.first_date,
                note=f"Preset {chosen.code}: {chosen.name}",
            )
        )
    for entry in chosen.entries:
        if (entry.key, entry.effective_from) in recorded:
            continue
        written.append(
            set_authority_setting(
                authority=authority,
                key=entry.key,
                value=entry.value,
                effective_from=entry.effective_from,
                note=entry.note(chosen.code),
            )
        )
    audit.record(
        action="authority.preset_applied",
        obj=authority,
        actor=by,
        after={"preset": chosen.code, "written": [[s.key, s.effective_from.isoformat()] for s in written]},
        summary=texts.text("scoring.preset", authority=str(authority), code=chosen.code, n=len(written)),
    )
    return written
