"""Regulating-authority presets: a body's regulations as data, one YAML file per body here.

A preset gives, for each setting it covers (``COVERED``), one or more dated values, each with
its source and a status: ``confirmed`` (the value is the source's), ``by-regulation`` (the source
leaves it to the body's regulations, or its text is blank: the Laws' default is kept until the
body sets it) or ``not-given`` (the source says nothing: the Laws' or the system's default is
kept). Choosing a preset writes its dated values through ``scoring.services.apply_preset``;
nothing here touches the database. How a body adds its own preset: docs/operations.md.
"""

import datetime
import functools
from dataclasses import dataclass
from pathlib import Path

import yaml
from django.core.exceptions import ValidationError

from scoring import authority_settings

DIRECTORY = Path(__file__).resolve().parent
STATUSES = ("confirmed", "by-regulation", "not-given")
# What every preset states, even where its source is silent (then it says so).
COVERED = (
    "laws_edition",
    "appeal_period_minutes",
    "appeals_body",
    "appeals_committee_size",
    "deposits",
    "without_merit_sanction",
    "without_merit_penalty",
    "further_appeal",
    "further_appeal_deposit",
    "weighted_scores_allowed",
    "weighted_max_components",
    "weight_decimals",
    "average_plus_percent",
    "average_minus_percent",
    "average_plus_imps",
    "average_minus_imps",
    "matchpoint_scale",
    "casebook_names",
    "vp_scale",
)
NOTE_LENGTH = 300  # AuthoritySetting.note


class PresetError(ValueError):
    """A preset file that cannot be used: the message names the file, the setting and the reason."""


@dataclass(frozen=True)
class Entry:
    key: str
    effective_from: datetime.date
    value: object
    status: str
    source: str

    @property
    def confirmed(self):
        return self.status == "confirmed"

    def note(self, preset_code):
        """The source as an AuthoritySetting's note: "Preset ebu: ...", or "Preset ebu, unconfirmed
        (by regulation): ..." (so a reader of the setting alone knows)."""
        head = f"Preset {preset_code}" if self.confirmed else f"Preset {preset_code}, unconfirmed ({self.status})"
        text = f"{head}: {self.source}"
        return text if len(text) <= NOTE_LENGTH else text[: NOTE_LENGTH - 3] + "..."


@dataclass(frozen=True)
class Preset:
    code: str
    name: str
    country: str
    caveat: str
    entries: tuple

    def entries_for(self, key):
        return sorted((e for e in self.entries if e.key == key), key=lambda e: e.effective_from)

    def entry_on(self, key, day):
        """The entry in force on ``day`` for ``key`` (the latest dated on or before it), or None."""
        found = [e for e in self.entries_for(key) if e.effective_from <= day]
        return found[-1] if found else None

    def values_on(self, day):
        """Every setting as the preset has it on ``day``: its entries, else the defaults."""
        values = authority_settings.defaults()
        for key in {e.key for e in self.entries}:
            entry = self.entry_on(key, day)
            if entry is not None:
                values[key] = entry.value
        return values

    @property
    def first_date(self):
        return min(e.effective_from for e in self.entries)


def available():
    """The codes of the presets shipped here, "laws" (the Laws' defaults) first."""
    codes = sorted(path.stem for path in DIRECTORY.glob("*.yaml"))
    return sorted(codes, key=lambda code: code != "laws")


@functools.cache
def load(code):
    if code not in available():
        raise PresetError(f"'{code}' is not a preset: one of {', '.join(available())}")
    return read(DIRECTORY / f"{code}.yaml")


def read(path):
    """Read and check one preset file; raise PresetError naming what is wrong."""
    path = Path(path)
    where = path.name
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise PresetError(f"{where}: cannot be read as YAML: {error}") from None
    if not isinstance(data, dict):
        raise PresetError(f"{where}: must be a mapping with code, name, country, caveat and settings")
    unknown = set(data) - {"code", "name", "country", "caveat", "settings"}
    if unknown:
        raise PresetError(f"{where}: unknown fields {', '.join(sorted(unknown))}")
    code = data.get("code")
    if code != path.stem:
        raise PresetError(f"{where}: code must be the file's name ('{path.stem}'), not {code!r}")
    if not isinstance(data.get("name"), str) or not data["name"].strip():
        raise PresetError(f"{where}: name: give the body's name")
    settings = data.get("settings")
    if not isinstance(settings, dict):
        raise PresetError(f"{where}: settings: a mapping of setting to its dated values")
    missing = [key for key in COVERED if key not in settings]
    if missing:
        raise PresetError(
            f"{where}: settings: every preset states {', '.join(missing)} (with status "
            f"by-regulation or not-given where its source is silent)"
        )
    entries = []
    for key, values in settings.items():
        if key not in authority_settings.SPECS or key == "preset":
            raise PresetError(f"{where}: settings.{key}: not a setting")
        if not isinstance(values, list) or not values:
            raise PresetError(f"{where}: settings.{key}: a list of dated values")
        seen = set()
        for index, item in enumerate(values, start=1):
            entries.append(_entry(f"{where}: settings.{key}[{index}]", key, item, seen))
    return Preset(
        code=code,
        name=data["name"].strip(),
        country=str(data.get("country") or ""),
        caveat=str(data.get("caveat") or "").strip(),
        entries=tuple(entries),
    )


def _entry(where, key, item, seen):
    if not isinstance(item, dict) or set(item) - {"from", "value", "status", "source"}:
        raise PresetError(f"{where}: must be {{from, value, status, source}}")
    day = item.get("from")
    if not isinstance(day, datetime.date) or isinstance(day, datetime.datetime):
        raise PresetError(f"{where}: from: a date written YYYY-MM-DD, not {day!r}")
    if day in seen:
        raise PresetError(f"{where}: from: {day} is given twice")
    seen.add(day)
    if "value" not in item:
        raise PresetError(f"{where}: value: missing")
    try:
        authority_settings.validate_setting(key, item["value"])
    except ValidationError as error:
        raise PresetError(f"{where}: value: {'; '.join(error.messages)}") from None
    if item.get("status") not in STATUSES:
        raise PresetError(f"{where}: status: one of {', '.join(STATUSES)}, not {item.get('status')!r}")
    source = str(item.get("source") or "").strip()
    if not source:
        raise PresetError(f"{where}: source: say where the value comes from (or that the source is silent)")
    return Entry(key=key, effective_from=day, value=item["value"], status=item["status"], source=source)
