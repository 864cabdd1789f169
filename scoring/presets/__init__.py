"""Regulating-authority presets: a body's regulations as data, one YAML file per body here.

A preset gives, for every setting the Laws leave to a regulating authority (``COVERED``: every
setting but the preset itself), one or more dated values. Each value says what it rests on:

- ``confirmed``: the value and the date it applies from are the ones its source gives (the date
  the body applied it);
- ``assumed``: the value or its date is inferred; ``reason`` says why;
- ``default``: the Laws' or the system's default is kept on purpose; ``reason`` says why (the
  body's text says nothing, or leaves it to each event). Its value is the default.

And every value has its source, stored here so that a page that moves or changes does not lose
it: the ``document``, its ``edition`` (or date), the ``section`` (the clause), a short ``quote``
of the words it rests on, the ``confidence`` of those words (``text``: read in the document
itself; ``secondary``: as another publication quotes or reports it; ``assumed``: no text found)
and, where it is published, the ``address``. A value's own ``quote`` replaces its source's where
it rests on other words of the same document. A value that names no source rests on the Laws'
own (the "laws" preset's value for that setting on that date), and is assumed: the body's own
text was not found. A value that is ``assumed`` has the confidence ``assumed`` whatever its
source.

A preset also says when its sources were last ``checked``. Choosing a preset writes its dated
values through ``scoring.services.apply_preset``; nothing here touches the database. How a body
adds its own preset: docs/operations.md.
"""

import dataclasses
import datetime
import functools
import re
from dataclasses import dataclass
from pathlib import Path

import yaml
from django.core.exceptions import ValidationError

from scoring import authority_settings

DIRECTORY = authority_settings.PRESETS_DIRECTORY  # the folder of the preset files (this one)
STATUSES = ("confirmed", "assumed", "default")
# Every setting a regulating authority may set: each preset states each one, even where it keeps
# the default (then on purpose, saying why).
COVERED = tuple(key for key in authority_settings.SPECS if key != "preset")
CITATION_FIELDS = ("document", "edition", "section", "quote", "confidence", "address")
REQUIRED_CITATION_FIELDS = ("document", "edition", "section", "quote", "confidence")
CONFIDENCES = ("text", "secondary", "assumed")
QUOTE_LENGTH = 300  # "quote briefly"
LAWS = "laws"  # the preset whose values a body's unsourced value rests on
NOTE_LENGTH = 300  # AuthoritySetting.note
ADDRESS = re.compile(r"^https?://\S+$")


class PresetError(ValueError):
    """A preset file that cannot be used: the message names the file, the setting and the reason."""


@dataclass(frozen=True)
class Citation:
    document: str
    edition: str
    section: str
    quote: str
    confidence: str
    address: str = ""

    def __str__(self):
        text = f"{self.document}, {self.edition}, {self.section}"
        return f"{text}: {self.address}" if self.address else text


@dataclass(frozen=True)
class Entry:
    key: str
    effective_from: datetime.date
    value: object
    status: str
    citation: Citation | None = None
    reason: str = ""
    own_quote: str = ""  # the value's own words of its source, where not the source's usual ones
    # True where the body's preset names no source and the value rests on the Laws' own.
    rests_on_laws: bool = False

    @property
    def confirmed(self):
        return self.status == "confirmed"

    @property
    def quote(self):
        """The words of the source the value rests on."""
        return self.own_quote or (self.citation.quote if self.citation else "")

    @property
    def confidence(self):
        """ "text", "secondary" or "assumed": an assumed value, or one resting on the Laws where
        the body's text was not found, is assumed whatever its source says."""
        if self.status == "assumed" or self.rests_on_laws or self.citation is None:
            return "assumed"
        return self.citation.confidence

    @property
    def source(self):
        """What the value rests on, as a reader reads it: the citation, then the reason."""
        parts = [str(self.citation)] if self.citation else []
        if self.reason:
            parts.append(self.reason)
        return " ".join(part if part.endswith(".") else f"{part}." for part in parts)

    def note(self, preset_code):
        """The source as an AuthoritySetting's note: "Preset ebu, confirmed: <document, edition,
        section: address>. ...", "Preset acbl, assumed: ..." or "Preset abf, default: ...", so that
        a reader of the setting alone knows which it is."""
        if self.confirmed:
            text = f"Preset {preset_code}, confirmed: {self.source}"
        else:
            reason = self.reason if self.reason.endswith(".") else f"{self.reason}."
            text = f"Preset {preset_code}, {self.status}: {reason}"
            if self.citation and not self.rests_on_laws:  # the Laws' own source: on the settings page
                text += f" Source: {self.citation}."
        return text if len(text) <= NOTE_LENGTH else text[: NOTE_LENGTH - 3] + "..."


def status_of_note(note):
    """Which a value recorded from a preset is ("confirmed", "assumed", "default"), read from its
    note; "" for a value the body recorded itself."""
    note = str(note or "")
    match = re.match(r"Preset [\w-]+, (confirmed|assumed|default): ", note)
    if match:
        return match.group(1)
    # Written by a preset before its values named their sources (issue #34): none was checked.
    return "assumed" if re.match(r"Preset [\w-]+(, unconfirmed \([\w-]+\))?: ", note) else ""


@dataclass(frozen=True)
class Preset:
    code: str
    name: str
    country: str
    caveat: str
    checked: datetime.date
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

    def citations(self):
        """Every source the preset cites, once each, in the order of the settings."""
        seen = []
        for entry in self.entries:
            if entry.citation and entry.citation not in seen:
                seen.append(entry.citation)
        return seen


def available():
    """The codes of the presets shipped here, "laws" (the Laws' defaults) first."""
    return authority_settings.preset_codes()


@functools.cache
def load(code):
    if code not in available():
        raise PresetError(f"'{code}' is not a preset: one of {', '.join(available())}")
    return read(authority_settings.PRESETS_DIRECTORY / f"{code}.yaml")


def _date(where, day):
    if not isinstance(day, datetime.date) or isinstance(day, datetime.datetime):
        raise PresetError(f"{where}: a date written YYYY-MM-DD, not {day!r}")
    return day


def read(path):
    """Read and check one preset file; raise PresetError naming what is wrong."""
    path = Path(path)
    where = path.name
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise PresetError(f"{where}: cannot be read as YAML: {error}") from None
    if not isinstance(data, dict):
        raise PresetError(f"{where}: must be a mapping with code, name, country, caveat, checked and settings")
    # "x-..." fields hold YAML anchors (the sources the settings cite), nothing else.
    unknown = {key for key in data if not str(key).startswith("x-")} - {
        "code",
        "name",
        "country",
        "caveat",
        "checked",
        "settings",
    }
    if unknown:
        raise PresetError(f"{where}: unknown fields {', '.join(sorted(unknown))}")
    code = data.get("code")
    if code != path.stem:
        raise PresetError(f"{where}: code must be the file's name ('{path.stem}'), not {code!r}")
    if not isinstance(data.get("name"), str) or not data["name"].strip():
        raise PresetError(f"{where}: name: give the body's name")
    checked = _date(f"{where}: checked (the day the sources were last checked)", data.get("checked"))
    settings = data.get("settings")
    if not isinstance(settings, dict):
        raise PresetError(f"{where}: settings: a mapping of setting to its dated values")
    missing = [key for key in COVERED if key not in settings]
    if missing:
        raise PresetError(
            f"{where}: settings: every preset states {', '.join(missing)} (with status default and "
            f"the reason where it keeps the default on purpose)"
        )
    entries = []
    for key, values in settings.items():
        if key not in authority_settings.SPECS or key == "preset":
            raise PresetError(f"{where}: settings.{key}: not a setting")
        if not isinstance(values, list) or not values:
            raise PresetError(f"{where}: settings.{key}: a list of dated values")
        seen: set[datetime.date] = set()
        for index, item in enumerate(values, start=1):
            entries.append(_entry(f"{where}: settings.{key}[{index}]", key, item, seen))
    if code == LAWS:
        unsourced = [f"{e.key} from {e.effective_from}" for e in entries if e.citation is None]
        if unsourced:
            raise PresetError(
                f"{where}: source: every value of the Laws' preset names its source, with the quote "
                f"(the others rest on it): {', '.join(unsourced)}"
            )
    else:
        entries = [_resting_on_laws(where, entry) for entry in entries]
    return Preset(
        code=code,
        name=data["name"].strip(),
        country=str(data.get("country") or ""),
        caveat=str(data.get("caveat") or "").strip(),
        checked=checked,
        entries=tuple(entries),
    )


def _resting_on_laws(where, entry):
    """A body's value that names no source rests on the Laws' preset's value for the setting on
    its date (the Laws' words), as an assumption: the body's own text was not found."""
    if entry.citation is not None:
        return entry
    laws_entry = load(LAWS).entry_on(entry.key, entry.effective_from)
    if laws_entry is None or laws_entry.citation is None:
        raise PresetError(
            f"{where}: source: the Laws' preset states no source for {entry.key} on {entry.effective_from}: "
            f"name the document, edition, section, quote and confidence"
        )
    return dataclasses.replace(entry, citation=laws_entry.citation, own_quote=laws_entry.own_quote, rests_on_laws=True)


def _citation(where, source):
    if not isinstance(source, dict) or set(source) - set(CITATION_FIELDS):
        raise PresetError(f"{where}: source: a mapping of {', '.join(CITATION_FIELDS)}")
    fields = {name: " ".join(str(source.get(name) or "").split()) for name in CITATION_FIELDS}
    lacking = [name for name in REQUIRED_CITATION_FIELDS if not fields[name]]
    if lacking:
        raise PresetError(
            f"{where}: source: give the {', '.join(lacking)} (every value names the document, its edition "
            f"or date, the section, a short quotation of the words it rests on and their confidence)"
        )
    if fields["confidence"] not in CONFIDENCES:
        raise PresetError(
            f"{where}: source: confidence: one of {', '.join(CONFIDENCES)} (read in the text, in a secondary "
            f"source, or assumed), not {fields['confidence']!r}"
        )
    if len(fields["quote"]) > QUOTE_LENGTH:
        raise PresetError(f"{where}: source: quote: at most {QUOTE_LENGTH} characters (quote briefly)")
    if fields["address"] and not ADDRESS.match(fields["address"]):
        raise PresetError(f"{where}: source: address: where it is published, http(s)://..., not {fields['address']!r}")
    return Citation(**fields)


def _entry(where, key, item, seen):
    if not isinstance(item, dict) or set(item) - {"from", "value", "status", "source", "quote", "reason"}:
        raise PresetError(f"{where}: must be {{from, value, status, source, quote, reason}}")
    day = _date(f"{where}: from", item.get("from"))
    if day in seen:
        raise PresetError(f"{where}: from: {day} is given twice")
    seen.add(day)
    if "value" not in item:
        raise PresetError(f"{where}: value: missing")
    try:
        authority_settings.validate_setting(key, item["value"])
    except ValidationError as error:
        raise PresetError(f"{where}: value: {'; '.join(error.messages)}") from None
    status = item.get("status")
    if status not in STATUSES:
        raise PresetError(f"{where}: status: one of {', '.join(STATUSES)}, not {status!r}")
    reason = " ".join(str(item.get("reason") or "").split())
    citation = None
    if status == "confirmed" and not item.get("source"):
        raise PresetError(
            f"{where}: source: a confirmed value names its source (document, edition, section, quote, "
            f"confidence); without one it is assumed, with the reason"
        )
    if item.get("source"):
        citation = _citation(where, item["source"])
    own_quote = " ".join(str(item.get("quote") or "").split())
    if own_quote and citation is None:
        raise PresetError(f"{where}: quote: the words of which source? Name it (source)")
    if len(own_quote) > QUOTE_LENGTH:
        raise PresetError(f"{where}: quote: at most {QUOTE_LENGTH} characters (quote briefly)")
    if status == "confirmed" and citation is not None and citation.confidence == "assumed":
        raise PresetError(f"{where}: source: confidence: a confirmed value rests on the text or a secondary source")
    if status != "confirmed" and not reason:
        raise PresetError(f"{where}: reason: say why the value is {status}")
    if status == "default":
        default = authority_settings.SPECS[key].default
        if item["value"] != default:
            raise PresetError(f"{where}: value: a default kept on purpose is the default ({default!r})")
    return Entry(
        key=key,
        effective_from=day,
        value=item["value"],
        status=status,
        citation=citation,
        reason=reason,
        own_quote=own_quote,
    )
