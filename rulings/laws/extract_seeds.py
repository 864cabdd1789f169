"""
Write ``data/laws_<edition>.json`` from the English source of the catalogue
(``data/source/titles_en_<edition>.json``, edited by hand), the titles from the seed texts (the
Hebrew 2007 Laws give Hebrew titles, the Dutch 1997 chapter VI Dutch ones) and the project's
translations of the English titles (``translations/<language>.json``) for every title no seed
gives.

The English source
------------------
One file per edition: a JSON list with one entry a line, laws and sub-sections in order, each
after its parent::

    {"number": "12C1c", "title": "Weighted assigned adjusted score"},
    {"number": "12C2b", "title": null},
    {"number": "15", "title": "Play of Wrong Board", "verified": false},

* ``number`` is the citation in the catalogue's canonical form (see
  ``rulings.laws.normalise_citation``): ``12``, ``12C``, ``12C1``, ``12C1c``, and ``71.1`` for
  the few numbered sub-sections that hang directly under a law.
* ``title`` is the heading where the Laws print one, else a short description of the content.
  ``null`` marks a sub-section the compiler is not sure of (its content, or that this edition
  still has it): the catalogue gives it the law's own title and marks it ``"verified": false``.
* ``"verified": false`` on a law (never on a sub-section) marks the compiler's best title for the
  law, not checked.

Running it
----------
Without the seeds (they are not part of the project), after editing the English source::

    python -m rulings.laws.extract_seeds

rebuilds every data file from the English source, keeping the seed titles the data files already
have (every title not listed under ``translated``); a new entry takes its titles from the
translation tables, which must then have its English title. Beside a copy of the seed texts::

    python -m rulings.laws.extract_seeds --seeds /path/to/seeds

reads the seed titles afresh. After editing only a translation table, ``--translations-only``
refills the translated titles of the data files.

It prints what it corrected in the seeds and where their structure differs from the English
source, so that a change to either can be reviewed before the data is committed.
"""

import argparse
import json
import re
import sys
from pathlib import Path

from rulings.laws import DATA_DIR, EDITIONS, LAW_COUNT, normalise_citation, parent_of

SOURCE_DIR = DATA_DIR / "source"

HEBREW_VALUES = dict(zip("אבגדהוזחטיכל", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 30]))

# Where the Hebrew text numbers a provision differently from the English text: the seed's
# number (after its letters are put back in order) and the English one, or None to drop it.
# Law 35 lists its four calls as 1-4 (A-D in English); Law 27 is laid out differently from the
# English 27B1-B4: only the sections that match one English section keep their heading.
HEBREW_RENUMBER = {
    "35.1": "35A",
    "35.2": "35B",
    "35.3": "35C",
    "35.4": "35D",
    "27C": None,
    "27D": None,
    "27E": "27C",
    "27F": "27B4",
}
# Section lines where the Hebrew text runs the heading into the first sentence.
HEBREW_HEADINGS = {
    "13A": "מנהל התחרות סבור שניתן לשחק כרגיל",
    "13B": "תוצאה מתוקנת ועונש אפשרי",
    "13C": "המשחק הסתיים",
    "13D": "לא בוצעה קריאה",
    "39B": "היריב משמאל קורא לפני תיקון, מגן קורא פאס או צד הכרוז קורא קריאה כלשהי",
    "39C": "פעולה אחרת של מגן",
    "52A": "מגן לא משחק קלף עונשין כמתחייב",
    "53A": "התייחסות להובלה שלא בתור כחוקית",
    "53B": "מגן לא-נכון משחק קלף אחרי הובלה חריגה של הכרוז",
    "53C": "הובלה תקינה בוצעה אחרי הובלה חריגה",
    "57A": "משחק או הובלה ללקיחה הבאה בטרם עת",
    "57B": "שותפו של המפר אינו יכול לשחק כפי שנדרש",
}


def read_english(edition):
    """[(number, title or None, verified)] from ``data/source/titles_en_<edition>.json``,
    checked: canonical and unique numbers, each after its parent, every law titled."""
    path = SOURCE_DIR / f"titles_en_{edition}.json"
    rows, seen = [], set()
    for entry in json.loads(path.read_text(encoding="utf-8")):
        number, title = entry.get("number"), entry.get("title")
        if set(entry) - {"number", "title", "verified"} or not isinstance(number, str):
            raise ValueError(f"{path.name}: bad entry {entry!r}")
        if title is not None and (not isinstance(title, str) or not title.strip()):
            raise ValueError(f"{path.name}: {number} has an empty title (write null)")
        doubtful = entry.get("verified", True) is not True
        if normalise_citation(number) != number or number in seen:
            raise ValueError(f"{path.name}: bad or repeated number {number!r}")
        parent = parent_of(number)
        if parent is not None and parent not in seen:
            raise ValueError(f"{path.name}: {number} comes before its parent {parent}")
        if doubtful and (parent is not None or entry["verified"] is not False):
            raise ValueError(f'{path.name}: {number}: only a law may be marked "verified": false')
        if parent is None and title is None:
            raise ValueError(f"{path.name}: law {number} has no title")
        seen.add(number)
        rows.append((number, title and title.strip(), title is not None and not doubtful))
    return rows


def _heading(text):
    text = text.strip(" #*\t")
    return text if text and len(text) <= 100 and text[-1] not in ".:;" else None


def _next_letter(previous, upper):
    if previous is None:
        return "A" if upper else "a"
    return chr(ord(previous) + 1)


def parse_hebrew(path, log):
    """{number: Hebrew heading or None} for every law and sub-section of the Hebrew 2007 text."""
    law_line = re.compile(r"^[#*\s]*(?:חוק (\d+)|(\d+) חוק)\**\s*$")
    section_line = re.compile(r"^[#*\s-]*([א-ת])\.\s*(.*)$")
    item_line = re.compile(r"^[#*\s-]*(\d+)\.\s*(.*)$")
    sub_line = re.compile(r"^[#*\s-]*\(([א-ת]{1,2})\)")
    lines = path.read_text(encoding="utf-8").splitlines()
    found, law = {}, None
    for i, line in enumerate(lines):
        if match := law_line.match(line):
            law, section, item, sub = str(int(match[1] or match[2])), None, None, None
            found[law] = next(text for text in lines[i + 1 :] if text.strip()).strip(" #*\t")
            continue
        if law is None:
            continue
        if match := section_line.match(line):
            got = chr(ord("A") + HEBREW_VALUES[match[1]] - 1)
            want = _next_letter(section, upper=True)
            if got != want:
                log.append(f"he: {law}{got} ({match[2][:40]}) read as {law}{want}")
            section, item, sub = want, None, None
            number = law + section
            head = HEBREW_HEADINGS.get(number)
            if head and not match[2].startswith(head):
                raise ValueError(f"he: the heading of {number} has changed")
            found[number] = head or _heading(match[2])
            if found[number] is None:
                log.append(f"he: no heading found for {number}")
            continue
        if match := item_line.match(line):
            item, sub = match[1], None
            found[f"{law}{section}{item}" if section else f"{law}.{item}"] = None
            line = match[2]  # "1. (a) ..." opens item 1 and its sub-item (a)
        if item is not None and (match := sub_line.match(line)):
            base = f"{law}{section}{item}" if section else f"{law}.{item}"
            got = chr(ord("a") + sum(HEBREW_VALUES[c] for c in match[1]) - 1)
            want = _next_letter(sub, upper=False)
            if got != want:
                log.append(f"he: {base}{got} read as {base}{want}")
            sub = want
            found[base + sub] = None
    return _renumber(found, HEBREW_RENUMBER, log)


def _renumber(found, renumber, log):
    result = {}
    for number, heading in found.items():
        target, node = number, number
        while node is not None:
            if node in renumber:
                new = renumber[node]
                target = None if new is None else new + number[len(node) :]
                break
            node = parent_of(node)
        if target is None:
            log.append(f"he: {number} has no English counterpart, dropped")
        elif target != number:
            log.append(f"he: {number} is {target} in the English text")
        if target is not None:
            result[target] = heading
    return result


def parse_dutch(path, log):
    """{number: Dutch heading or None} for chapter VI (Laws 41-71) of the Dutch 1997 text."""
    law_line = re.compile(r"^ARTIKEL (\d+) (.+)$")
    section_line = re.compile(r"^([A-Z])\. (.+)$")
    item_line = re.compile(r"^(\d+)\. (.+)$")
    sub_line = re.compile(r"^- \(([a-z])\) (.+)$")
    found, law = {}, None
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if match := law_line.match(line):
            law, section, item, sub = match[1], None, None, None
            found[law] = match[2].strip()
        elif law is None:
            continue
        elif match := section_line.match(line):
            section, item, sub = match[1], None, None
            found[law + section] = _heading(match[2])
        elif match := item_line.match(line):
            item, sub = match[1], None
            found[f"{law}{section or '.'}{item}"] = _heading(match[2])
        elif (match := sub_line.match(line)) and item:
            if sub is not None and match[1] <= sub:
                log.append(f"nl: {law}{section}{item}({match[1]}) repeated, skipped")
                continue
            sub = match[1]
            found[f"{law}{section}{item}{sub}"] = _heading(match[2])
    return found


def find_seeds(directory):
    """The Hebrew and Dutch seed files in ``directory``, recognised by their content."""
    hebrew = dutch = None
    for path in sorted(Path(directory).glob("*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace")[:3000]
        if "חוקי משחק" in text:
            hebrew = path
        elif "ARTIKEL 41" in text:
            dutch = path
    if not (hebrew and dutch):
        raise SystemExit(f"the Hebrew 2007 and Dutch 1997 seed texts are not both in {directory}")
    return hebrew, dutch


def _law_of(number: str) -> int:
    """The law a citation of the catalogue belongs to: 12 of "12C1c"."""
    digits = re.match(r"\d+", number)
    if digits is None:
        raise ValueError(f"{number!r} does not start with a law's number")
    return int(digits[0])


def build(edition, seeds, seed_laws, log):
    """The rows of ``data/laws_<edition>.json``: the English source with the titles of
    ``seeds`` ({language: {number: title or None}}); ``seed_laws`` are the laws the seeds cover,
    where an entry missing from them is reported."""
    rows, english = [], read_english(edition)
    numbers = {number for number, _, _ in english}
    law_titles = {number: title for number, title, _ in english if parent_of(number) is None}
    missing = [str(n) for n in range(1, LAW_COUNT + 1) if str(n) not in law_titles]
    if missing:
        raise ValueError(f"{edition}: laws {', '.join(missing)} are missing")
    for number, title, verified in english:
        law = _law_of(number)
        titles = {"en": title or law_titles[str(law)]}
        for language, seed_titles in seeds.items():
            if seed_titles.get(number):
                titles[language] = seed_titles[number]
        rows.append({"number": number, "law": law, "parent": parent_of(number), "titles": titles, "verified": verified})
    for language, seed_titles in seeds.items():
        for number in seed_titles:
            if number not in numbers:
                log.append(f"{edition}: the {language} seed has {number}, the English source has not")
        for number in numbers:
            if _law_of(number) in seed_laws and number not in seed_titles:
                log.append(f"{edition}: {number} is not in the {language} seed")
    return rows


def seed_titles_in_data(edition):
    """{language: {number: title}} of the titles the data file of ``edition`` has from the seed
    texts: every title but the English one and those listed under ``translated``."""
    path = DATA_DIR / f"laws_{edition}.json"
    found: dict[str, dict[str, str]] = {}
    for row in json.loads(path.read_text(encoding="utf-8")):
        for language, text in row["titles"].items():
            if language != "en" and language not in row.get("translated", ()):
                found.setdefault(language, {})[row["number"]] = text
    return found


TRANSLATIONS_DIR = Path(__file__).resolve().parent / "translations"
# The languages each edition is given in: titles from a seed text where one has them, the
# project's translation of the English title (``translations/<language>.json``) otherwise.
LANGUAGES = {"1997": ("nl",), "2007": ("he", "uk", "is", "el", "nl"), "2017": ("he", "uk", "is", "el", "nl")}


def add_translations(edition, rows):
    """Fill each row's missing titles from the translation tables; a row records the languages
    so filled under ``translated``. A title from a seed text is never replaced."""
    tables = {
        language: json.loads((TRANSLATIONS_DIR / f"{language}.json").read_text(encoding="utf-8"))
        for language in LANGUAGES[edition]
    }
    for row in rows:
        translated = set(row.get("translated", ()))
        for language, table in tables.items():
            if language in row["titles"] and language not in translated:
                continue  # from a published text
            text = table.get(row["titles"]["en"])
            if not text:
                raise ValueError(
                    f"{edition} {row['number']}: no {language} translation of "
                    f"'{row['titles']['en']}' in translations/{language}.json"
                )
            row["titles"][language] = text
            translated.add(language)
        if translated:
            row["translated"] = sorted(translated)
    return rows


def write(edition, rows):
    lines = [json.dumps(row, ensure_ascii=False) for row in rows]
    path = DATA_DIR / f"laws_{edition}.json"
    path.write_text("[\n" + ",\n".join(lines) + "\n]\n", encoding="utf-8")
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument(
        "--seeds",
        type=Path,
        help="directory holding the seed texts; without it the seed titles are kept from the current data files",
    )
    parser.add_argument(
        "--translations-only",
        action="store_true",
        help="only refill the translated titles of the data files (no seeds needed)",
    )
    args = parser.parse_args(argv)
    if args.translations_only:
        for edition in EDITIONS:
            path = DATA_DIR / f"laws_{edition}.json"
            rows = add_translations(edition, json.loads(path.read_text(encoding="utf-8")))
            write(edition, rows)
            print(f"{path.name}: {sum(bool(r.get('translated')) for r in rows)} entries with translated titles")
        return
    log: list[str] = []
    if args.seeds:
        hebrew, dutch = find_seeds(args.seeds)
        seeds = {
            "1997": ({"nl": parse_dutch(dutch, log)}, range(41, 72)),
            "2007": ({"he": parse_hebrew(hebrew, log)}, range(1, LAW_COUNT + 1)),
            "2017": ({}, ()),
        }
    else:
        seeds = {edition: (seed_titles_in_data(edition), ()) for edition in EDITIONS}
    DATA_DIR.mkdir(exist_ok=True)
    for edition in EDITIONS:
        rows = add_translations(edition, build(edition, *seeds[edition], log))
        path = write(edition, rows)
        print(
            f"{path.name}: {len(rows)} entries, {sum(r['verified'] for r in rows)} verified, "
            f"{sum(len(r['titles']) - 1 - len(r.get('translated', ())) for r in rows)} titles "
            f"from the seed texts"
        )
    print("\n".join(log), file=sys.stderr)


if __name__ == "__main__":
    main()
