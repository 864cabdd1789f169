"""A regulating authority's settings page: every value in force, its source and the date it
applies from, the difference from the authority's preset, and which values are unconfirmed.
Read by the superuser and the authority's national auditors; to anyone else it does not exist."""

import json
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core import policy
from scoring import authority_settings, presets, services, vp_scales
from scoring.selectors import readable_authorities


@dataclass
class SettingRow:
    key: str
    label: str
    value: object
    effective_from: object = None  # None: nothing recorded, the default applies
    source: str = ""
    preset_value: object = None
    differs: bool = False
    unconfirmed: bool = False
    # Which the value in force is: "confirmed", "assumed" or "default" (a preset's value, as its
    # note says), "recorded" (the body's own, with its source), "" (nothing recorded).
    status: str = ""
    # The preset's stored source of the value in force, where the value is the preset's: the
    # words it rests on and their confidence ("text", "secondary", "assumed"), so that the
    # reader sees them though the page that published them moved.
    quote: str = ""
    confidence: str = ""
    history: list = field(default_factory=list)  # (effective_from, value, note), latest first

    @property
    def shown(self):
        return show(self.value)

    @property
    def preset_shown(self):
        return show(self.preset_value)


def show(value):
    """A setting's value as a reader sees it: yes/no, "none" for an empty mapping or text."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value in ({}, "", None):
        return _("none")
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


def settings_rows(authority, day=None):
    """The authority's preset in force on ``day`` (or None) and one row per setting."""
    day = day or timezone.localdate()
    by_key: dict[str, list[Any]] = {}
    for setting in authority.settings.order_by("key", "effective_from", "pk"):
        by_key.setdefault(setting.key, []).append(setting)
    in_force = {key: [s for s in values if s.effective_from <= day] for key, values in by_key.items()}
    preset_setting = (in_force.get("preset") or [None])[-1]
    preset = presets.load(preset_setting.value) if preset_setting and preset_setting.value else None
    preset_values = preset.values_on(day) if preset else {}
    rows = []
    for key, spec in authority_settings.SPECS.items():
        if key == "preset":
            continue
        current = (in_force.get(key) or [None])[-1]
        row = SettingRow(
            key=key,
            label=str(spec.label),
            value=current.value if current else spec.default,
            history=[(s.effective_from, show(s.value), s.note) for s in reversed(by_key.get(key, []))],
        )
        if current is not None:
            row.effective_from, row.source = current.effective_from, current.note
            row.status = presets.status_of_note(current.note) or "recorded"
        else:
            row.source = _("Not recorded: the Laws' or the system's default.")
        if preset is not None:
            row.preset_value = preset_values[key]
            row.differs = row.value != row.preset_value
            entry = preset.entry_on(key, day)
            if current is None and entry is not None and entry.value == row.value:
                # A preset's empty value ("no deposit") applied before settings could hold one
                # was not recorded: the default applies, and it is the preset's, with its source.
                row.effective_from, row.source, row.unconfirmed, row.status = (
                    entry.effective_from,
                    entry.note(preset.code),
                    not entry.confirmed,
                    entry.status,
                )
                row.quote, row.confidence = entry.quote, entry.confidence
            elif current is not None:
                entry = next((e for e in preset.entries_for(key) if e.effective_from == current.effective_from), None)
                if entry is not None and entry.value == current.value and entry.note(preset.code) == current.note:
                    row.unconfirmed = not entry.confirmed  # the preset's value, not yet confirmed
                    row.quote, row.confidence = entry.quote, entry.confidence
                else:
                    row.unconfirmed = False
        rows.append(row)
    return preset, rows


@login_required
def authority_settings_page(request, pk):
    """The settings, then the body's own victory-point scales; the superuser, who records the
    body's regulations, adds a scale here (``services.add_vp_scale``)."""
    authority = get_object_or_404(readable_authorities(request.user), pk=pk)
    can_add_scale = policy.may(request.user, "settings", authority)
    errors, posted = {}, {}
    if request.method == "POST":
        if not can_add_scale:
            policy.refuse("settings")
        posted = request.POST
        try:
            scale = services.add_vp_scale(
                authority=authority,
                name=posted.get("name", ""),
                source=posted.get("source", ""),
                max_vp=posted.get("max_vp", ""),
                text=posted.get("table", ""),
                by=request.user,
            )
            messages.success(
                request,
                _("The scale %(scale)s is recorded: the body's setting and its events may choose it.")
                % {"scale": scale.choice},
            )
            return redirect("scoring:authority-settings", authority.pk)
        except ValidationError as error:
            errors = error.message_dict
    day = timezone.localdate()
    preset, rows = settings_rows(authority, day)
    return render(
        request,
        "scoring/authority_settings.html",
        {
            "authority": authority,
            "day": day,
            "preset": preset,
            "rows": rows,
            "unconfirmed": [row for row in rows if row.unconfirmed],
            "differing": [row for row in rows if row.differs],
            "vp_scales": vp_scales.own_scales(authority).order_by("name"),
            "errors": errors,
            "posted": posted,
            "corrections": services.preset_corrections(authority=authority),
        },
    )


@login_required
def authority_corrections_page(request, pk):
    """What updating the authority from its preset would change (added, corrected, withdrawn,
    each with the preset's source); the national body confirms the ones to apply
    (``services.apply_preset_corrections``: audited, past tournaments keep what they used)."""
    authority = get_object_or_404(readable_authorities(request.user), pk=pk)
    errors = {}
    if request.method == "POST":
        try:
            applied = services.apply_preset_corrections(
                authority=authority, chosen=request.POST.getlist("correction"), by=request.user
            )
            messages.success(
                request,
                ngettext(
                    "%(n)s correction applied; tournaments already held keep what they used.",
                    "%(n)s corrections applied; tournaments already held keep what they used.",
                    len(applied),
                )
                % {"n": len(applied)},
            )
            return redirect("scoring:authority-corrections", authority.pk)
        except ValidationError as error:
            errors = error.message_dict
    corrections = services.preset_corrections(authority=authority)
    labels = {key: str(spec.label) for key, spec in authority_settings.SPECS.items()}
    rows = [
        {
            "correction": c,
            "label": labels[c.key],
            "before": show(c.before) if c.kind != "added" else "",
            "after": show(c.after) if c.entry is not None else "",
        }
        for c in corrections
    ]
    return render(
        request,
        "scoring/authority_corrections.html",
        {
            "authority": authority,
            "preset": presets.load(services.authority_preset_code(authority)) if corrections else None,
            "rows": rows,
            "errors": errors,
        },
    )
