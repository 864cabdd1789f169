"""
The catalogue of the Laws of Duplicate Bridge, 1997, 2007 and 2017 editions.

Every law (1 to 93) of each edition with its sub-sections, each with a title in English, Hebrew,
Ukrainian, Icelandic, Greek and Dutch (2007, 2017) or in English and Dutch (1997). The Hebrew
2007 and the Dutch 1997 chapter VI titles are the published texts' own; the others are the
project's translations of the English (``translations/<language>.json``), listed per entry
under ``translated``, to be reviewed by a native-speaking director.
The structure is per edition: the same citation can mean different things in different
editions (1997 artificial adjusted scores are in 12C1, 2007 ones in 12C2) or exist in only one.

Citations are written law number, section letter, item number, sub-item letter: ``12C1c``,
``92B``, ``64A2``. The few numbered items that hang directly under a law are written with a
dot: ``71.1``. Items numbered with roman numerals (``12C1e(i)``, ``40B2(a)(ii)``) are not
catalogued: a citation of one is read as a citation of its parent (``12C1e``, ``40B2a``).

How the data was made
---------------------
The data lives in ``data/laws_<edition>.json`` and is plain data; this package reads nothing
else. ``extract_seeds.py`` writes it from:

* the English source, ``data/source/titles_en_<edition>.json``, written by hand: the structure
  of each edition and its English titles (the format is described in ``extract_seeds.py``).
  The 2007 structure was checked against the Hebrew translation of the 2007 Laws, and the 1997
  structure of Laws 41-71 against the Dutch text of chapter VI. The rest of 1997 and all of 2017
  come from the compiler's knowledge of the English texts: 2017 has every section and numbered
  item of the 2007 structure except where the 2017 Laws changed it (see
  ``tests/rulings/test_law_catalogue.py``), the rest of 1997 mostly the letter level only.
* The seed texts (not shipped): the Hebrew 2007 Laws give the Hebrew law titles and section
  headings, the Dutch 1997 chapter VI the Dutch headings at every level. Misprinted section
  letters in the Hebrew text are corrected by their order; headings are matched to entries by
  number. Without the seeds, ``extract_seeds.py`` keeps the seed titles the data files have.
* The translation tables, ``translations/<language>.json``: every other title.

Where the Laws print a heading, the English title is that heading; where they print none (most
numbered items since 2007) it is a short description of the item. An entry is ``verified`` when
its title was checked against a source text or is known to the compiler with confidence; when
the compiler was not sure, the entry carries the law's own title and ``verified`` is false.
"""

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from bridge.messages import _

EDITIONS = ("1997", "2007", "2017")
LAW_COUNT = 93
DATA_DIR = Path(__file__).resolve().parent / "data"

_CITATION = re.compile(
    r"""
    (?:laws?|l)?[\s.]*                        # "Law", "L", "law."
    (?P<law>\d{1,3})[\s.]*
    (?:\(\s*(?P<section_p>[a-n])\s*\)|(?P<section>[a-n]))?[\s.]*
    (?:\(\s*(?P<item_p>\d{1,2})\s*\)|(?P<item>\d{1,2}))?[\s.]*
    (?:\(\s*(?P<sub_p>[a-z])\s*\)|(?P<sub>[a-z]))?[\s.]*
    (?:\(\s*(?P<roman>[ivx]+)\s*\)[\s.]*)?      # "(ii)": not catalogued, the parent is cited
    """,
    re.IGNORECASE | re.VERBOSE,
)
_CANONICAL = re.compile(r"(\d+)([A-N]?)(?:\.?(\d+))?([a-z]?)")


def _canonical(number: str) -> re.Match[str]:
    """The parts of a citation already in its canonical form (``normalise_citation``'s)."""
    match = _CANONICAL.fullmatch(number)
    if match is None:
        raise ValueError(f"{number!r} is not a citation in its canonical form (normalise_citation)")
    return match


class CitationError(ValueError):
    """A citation that is not well formed or names no law or sub-section of the edition.
    ``text`` is the message, a :class:`bridge.messages.Message` (English as a ``str``;
    ``core.i18n.translate`` shows it in the reader's language)."""

    def __init__(self, text):
        super().__init__(text)
        self.text = text


@dataclass(frozen=True)
class LawEntry:
    """One law or sub-section of one edition: ``number`` is the canonical citation."""

    edition: str
    number: str
    law: int
    parent: str | None
    titles: dict = field(hash=False, compare=False)
    verified: bool
    # Languages whose title the project translated from the English (not from a published text).
    translated: tuple = field(default=(), hash=False, compare=False)

    def title(self, language="en"):
        """The title in ``language``, or the English title when there is none."""
        return self.titles.get(language) or self.titles["en"]

    def __str__(self):
        return f"Law {self.number} ({self.edition}): {self.title()}"


def normalise_citation(text):
    """
    Return the canonical form of a citation: "Law 12 C 1 (c)", "L12C1c" and "12c1c" all give
    "12C1c"; "Law 92 b" gives "92B"; "71(1)" gives "71.1"; "40B2(a)(ii)" gives "40B2a" (items
    numbered with roman numerals are not catalogued). Raise CitationError if ``text`` is not a
    law citation.
    """
    match = _CITATION.fullmatch(text.strip()) if isinstance(text, str) else None
    if not match:
        raise CitationError(
            _("%(text)s is not a law citation: write the law number and sub-section, e.g. 12C1c", text=repr(text))
        )
    section = (match["section"] or match["section_p"] or "").upper()
    item = match["item"] or match["item_p"] or ""
    sub = (match["sub"] or match["sub_p"] or "").lower()
    if (sub and not item) or (match["roman"] and not sub):
        raise CitationError(
            _("%(text)s is not a law citation: write the law number and sub-section, e.g. 12C1c", text=repr(text))
        )
    separator = "." if item and not section else ""
    return f"{int(match['law'])}{section}{separator}{item}{sub}"


def parent_of(number):
    """The canonical citation one level up ("12C1c" -> "12C1" -> "12C" -> "12"), or None."""
    law, section, item, sub = _canonical(number).groups()
    if sub:
        return f"{law}{section}{'' if section else '.'}{item}"
    if item:
        return f"{law}{section}" if section else law
    if section:
        return law
    return None


@cache
def _entries(edition):
    if edition not in EDITIONS:
        raise ValueError(f"There is no {edition} edition in the catalogue: it has {', '.join(EDITIONS)}")
    rows = json.loads((DATA_DIR / f"laws_{edition}.json").read_text(encoding="utf-8"))
    return tuple(LawEntry(edition=edition, **dict(row, translated=tuple(row.get("translated", ())))) for row in rows)


@cache
def _index(edition):
    return {entry.number: entry for entry in _entries(edition)}


@cache
def _children(edition):
    kids: dict[str, list[LawEntry]] = {}
    for entry in _entries(edition):
        kids.setdefault(entry.parent, []).append(entry)
    return kids


def load(edition):
    """Every entry of ``edition`` ("1997", "2007" or "2017"), laws and sub-sections in order."""
    return list(_entries(edition))


def validate_citation(edition, text):
    """
    Return the entry ``text`` cites in ``edition``. Raise CitationError with a message for the
    director when the citation is malformed or names nothing in that edition.
    """
    if edition not in EDITIONS:
        raise CitationError(
            _(
                "There is no %(edition)s edition of the Laws: the catalogue has %(editions)s",
                edition=edition,
                editions=", ".join(EDITIONS),
            )
        )
    number = normalise_citation(text)
    index = _index(edition)
    if number in index:
        return index[number]
    law = int(_canonical(number)[1])
    if not 1 <= law <= LAW_COUNT:
        raise CitationError(_("Law %(law)s does not exist: the Laws have %(count)s laws", law=law, count=LAW_COUNT))
    ancestor = parent_of(number)
    while ancestor not in index:
        ancestor = parent_of(ancestor)
    kids = _children(edition).get(ancestor, [])
    # Whole sentences, one per case: a translator cannot build "has no sub-sections" from parts.
    if not kids:
        message = _(
            "Law %(number)s does not exist in the %(edition)s Laws: Law %(ancestor)s has no sub-sections",
            number=number,
            edition=edition,
            ancestor=ancestor,
        )
    elif len(kids) == 1:
        message = _(
            "Law %(number)s does not exist in the %(edition)s Laws: the only sub-section of Law "
            "%(ancestor)s is %(only)s",
            number=number,
            edition=edition,
            ancestor=ancestor,
            only=kids[0].number,
        )
    else:
        message = _(
            "Law %(number)s does not exist in the %(edition)s Laws: the sub-sections of Law %(ancestor)s "
            "run from %(first)s to %(last)s",
            number=number,
            edition=edition,
            ancestor=ancestor,
            first=kids[0].number,
            last=kids[-1].number,
        )
    raise CitationError(message)


def title(edition, number, language="en"):
    """The title of ``number`` in ``edition`` in ``language``, falling back to English."""
    return validate_citation(edition, number).title(language)


def children(edition, number):
    """The sub-sections directly under ``number`` in ``edition`` (empty for the lowest level)."""
    entry = validate_citation(edition, number)
    return list(_children(edition).get(entry.number, []))
