"""A regulating authority's settings from a preset (``scoring.presets``): created with one, or
one applied to an authority later."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import services as audit
from core import policy, texts
from scoring.models import AuthoritySetting, RegulatingAuthority
from scoring.services.record import create_authority, set_authority_setting, write_setting

if TYPE_CHECKING:
    from scoring.presets import Entry, Preset


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
def create_authority_with_preset(*, name: str, code: str, preset: str, by: Any, **fields: Any) -> RegulatingAuthority:
    """A regulating authority that starts with a preset's dated settings (``preset`` a code of
    scoring/presets, e.g. "ebu"); an empty ``preset`` leaves it on the Laws' defaults. The one
    road for the admin's add form, the API and ``create_authority --preset``: audited."""
    policy.require(by, "setup", None)
    chosen = _preset(preset) if preset else None
    authority = create_authority(name=name, code=code, by=by, **fields)
    audit.record(
        action="authority.created",
        obj=authority,
        actor=policy.person(by),
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
def apply_preset(*, authority: RegulatingAuthority, preset: str, by: Any) -> list[AuthoritySetting]:
    """Write each dated value of the preset that ``authority`` has no value for on that date, with
    its source as the note, and record the preset from its first date. A value already recorded
    for a setting and date is left as it is: applying a later edition of a preset adds its new
    dated values without rewriting history, nor the body's own changes. Returns what was written."""
    policy.require(by, "settings", authority)
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
                by=by,
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
                by=by,
            )
        )
    audit.record(
        action="authority.preset_applied",
        obj=authority,
        actor=policy.person(by),
        after={"preset": chosen.code, "written": [[s.key, s.effective_from.isoformat()] for s in written]},
        summary=texts.text("scoring.preset", authority=str(authority), code=chosen.code, n=len(written)),
    )
    return written


# --- Corrections of a preset reaching an authority created under an older version ----------------

CORRECTION_KINDS = ("added", "corrected", "withdrawn")


@dataclass(frozen=True)
class Correction:
    """One dated value the authority's preset now gives otherwise than the authority holds it:
    ``added`` (the preset has a value the authority lacks), ``corrected`` (a value the preset
    wrote, now another value or source) or ``withdrawn`` (a value the preset wrote that it no
    longer gives). ``entry`` is the preset's value now, with its source; None when withdrawn."""

    kind: str
    key: str
    effective_from: datetime.date
    before: Any
    before_note: str
    entry: Entry | None

    @property
    def ident(self) -> str:
        return f"{self.key}@{self.effective_from.isoformat()}"

    @property
    def after(self) -> Any:
        return self.entry.value if self.entry is not None else None


def _written_by(note: str, code: str) -> bool:
    """Whether a setting's note is one the preset ``code`` wrote (any version of it), not the
    body's own."""
    from scoring import presets

    return presets.status_of_note(note) != "" and str(note).startswith((f"Preset {code}:", f"Preset {code},"))


def authority_preset_code(authority: RegulatingAuthority) -> str:
    """The preset the authority's regulations started from, as its ``preset`` setting says today."""
    return str(authority.settings_on().get("preset") or "")


def preset_corrections(*, authority: RegulatingAuthority) -> list[Correction]:
    """What updating ``authority`` from its preset would change, setting by setting in the
    settings' order: each value added, corrected or withdrawn, with the preset's source. A value
    the body recorded itself is never among them."""
    from scoring import authority_settings

    code = authority_preset_code(authority)
    if not code:
        return []
    chosen = _preset(code)
    recorded = {(s.key, s.effective_from): s for s in authority.settings.exclude(key="preset")}
    found = []
    for entry in chosen.entries:
        setting = recorded.get((entry.key, entry.effective_from))
        if setting is None:
            found.append(Correction("added", entry.key, entry.effective_from, None, "", entry))
        elif _written_by(setting.note, code) and (
            setting.value != entry.value or setting.note != entry.note(chosen.code)
        ):
            found.append(Correction("corrected", entry.key, entry.effective_from, setting.value, setting.note, entry))
    given = {(e.key, e.effective_from) for e in chosen.entries}
    for (key, day), setting in recorded.items():
        if (key, day) not in given and _written_by(setting.note, code):
            found.append(Correction("withdrawn", key, day, setting.value, setting.note, None))
    order = list(authority_settings.SPECS)
    return sorted(found, key=lambda c: (order.index(c.key), c.effective_from))


@transaction.atomic
def apply_preset_corrections(
    *, authority: RegulatingAuthority, chosen: list[str], by: Any, today: datetime.date | None = None
) -> list[Correction]:
    """Apply the corrections the national body confirmed (``chosen``: their ``ident``), audited.
    A tournament already held (started on or before ``today``) keeps each regulation the
    corrections would change for it (``Tournament.kept_regulations``): a correction never
    rewrites what a past tournament used; later ones take the corrected values."""
    policy.require(by, "confirm_corrections", authority)
    RegulatingAuthority.objects.select_for_update().get(pk=authority.pk)
    available = {c.ident: c for c in preset_corrections(authority=authority)}
    if not chosen:
        raise ValidationError({"corrections": _("Choose at least one correction to apply.")})
    unknown = [ident for ident in chosen if ident not in available]
    if unknown:
        raise ValidationError(
            {
                "corrections": _("%(which)s: not a correction the preset now brings (already applied?).")
                % {"which": ", ".join(unknown)}
            }
        )
    picked = [available[ident] for ident in dict.fromkeys(chosen)]
    today = today or timezone.localdate()
    held = list(authority.tournaments.filter(start_date__lte=today).order_by("start_date", "pk"))
    used = {t.pk: t.regulations() for t in held}
    code = authority_preset_code(authority)
    for correction in picked:
        if correction.entry is None:
            AuthoritySetting.objects.filter(
                authority=authority, key=correction.key, effective_from=correction.effective_from
            ).delete()
        else:
            write_setting(
                authority=authority,
                key=correction.key,
                value=correction.entry.value,
                effective_from=correction.effective_from,
                note=correction.entry.note(code),
            )
    kept = {}
    for tournament in held:
        now_used = tournament.regulations()
        changed = {key: value for key, value in used[tournament.pk].items() if now_used.get(key) != value}
        if changed:
            tournament.kept_regulations = {**(tournament.kept_regulations or {}), **changed}
            tournament.save(update_fields=["kept_regulations"])
            kept[str(tournament.pk)] = sorted(changed)
    audit.record(
        action="authority.preset_corrected",
        obj=authority,
        actor=policy.person(by),
        before={c.ident: c.before for c in picked},
        after={
            "preset": code,
            "applied_on": today.isoformat(),
            "corrections": {c.ident: {"kind": c.kind, "value": c.after} for c in picked},
            "kept_by_tournaments": kept,
        },
        summary=texts.text("scoring.preset_corrected", authority=str(authority), code=code, n=len(picked)),
    )
    return picked
