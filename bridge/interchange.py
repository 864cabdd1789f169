"""What every results file says, whichever program wrote it: boards, table results, names.

The readers (bridge/pbn.py through ``session_from_pbn``, bridge/usebio.py) turn a file into a
:class:`SessionFile`; the importer service (scoring/importers/session_import.py) checks it
against the event and writes it. Plain Python, no Django.

Also here: reading the bytes of an upload (``decode``), and the artificial-score codes that
scoring programs write instead of a score (``read_artificial``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from bridge.messages import Gettext, Message, _

__all__ = [
    "BUTLER_ROUNDING_BY_PROGRAM",
    "BoardIn",
    "Identity",
    "Notice",
    "ResultIn",
    "SessionFile",
    "butler_rounding_of",
    "decode",
    "direction_of",
    "identify",
    "method_of",
    "name_of",
    "read_artificial",
    "read_scoring",
]


@dataclass(frozen=True)
class Notice:
    """A warning about a file that does not stop the import: where, and what."""

    line: int
    message: str

    def __str__(self) -> str:
        return str(_("line %(line)s: %(message)s", line=self.line, message=self.message))

    def render(self, gettext: Gettext | None = None) -> str:
        from bridge.messages import render

        template = gettext("line %(line)s: %(message)s") if gettext else "line %(line)s: %(message)s"
        return str(template % {"line": self.line, "message": render(self.message, gettext)})


@dataclass
class BoardIn:
    number: int
    line: int
    dealer: str | None = None
    vulnerability: str | None = None
    deal: str = ""  # PBN deal string, or "" when the file has none (or only part of one)
    section: str = ""
    where: str = ""  # how to name it when there are no lines ("board 3" in a USEBIO file)


@dataclass(frozen=True)
class Identity:
    """Who a contestant is as the scoring program numbers it: ``number`` within ``section``
    when sections number their own (ACBL's A, B, ..., AA) and within ``direction`` ("NS" or
    "EW") in a Mitchell, where N-S pair 1 and E-W pair 1 are two pairs. Section and direction
    stay empty when the number alone tells (a Howell, teams, pairs numbered across sections)."""

    number: int
    section: str = ""
    direction: str = ""

    def __str__(self) -> str:
        side = {"NS": " N-S", "EW": " E-W"}.get(self.direction, "")
        return f"{self.section}{self.number}{side}"


@dataclass
class ResultIn:
    """One table result. ``kind``: ``played`` (contract, declarer, tricks), ``artificial``
    (``score`` in the engine's form, e.g. {"ns": "60%", "ew": "40%"}), ``not_played`` (the
    program says the board was not played and gives no score)."""

    board: int
    line: int
    ns: int | None = None
    ew: int | None = None
    table: int | None = None
    round: int | None = None
    section: str = ""
    room: str = ""  # "open" / "closed" for team files
    home: int | None = None
    away: int | None = None
    home_name: str = ""  # a team file's HomeTeam / VisitTeam names, when it gives no numbers
    away_name: str = ""
    ns_name: str = ""  # a pair known only by its players' names (BBO, one game per table)
    ew_name: str = ""
    kind: str = "played"
    contract: str = ""
    declarer: str = ""
    tricks: int | None = None
    lead: str = ""
    score: dict[str, str] | None = None
    code: str = ""  # the artificial code as written
    where: str = ""  # how to name it when there are no lines ("board 3, traveller line 2")
    ns_id: Identity | None = None  # filled by identify()
    ew_id: Identity | None = None


@dataclass
class SessionFile:
    """One session's results as a file gives them."""

    format: str
    boards: list[BoardIn] = field(default_factory=list)
    results: list[ResultIn] = field(default_factory=list)
    # contestant number -> name; or (section, direction, number) -> name where the file tells
    # the pairs of a Mitchell apart ("NS"/"EW", "" when it does not say)
    names: dict[int | tuple[str, str, int], str] = field(default_factory=dict)
    mitchell: set[str] = field(default_factory=set)  # sections the file says are Mitchell movements
    scoring: str | None = None  # "matchpoints", "imps", "butler", "cross_imps", or None
    scoring_line: int | None = None
    teams: bool = False
    individual: bool = False
    warnings: list[Notice | Message | str] = field(default_factory=list)
    generator: str = ""  # the program that wrote the file, as its [Generator] tag names it
    application: str = ""  # a PBN file's [Application] tag (Ruter's "Ruter i Norge - Read more at ...")
    # The scoring method the file's form says the program used, as the regulating authority's
    # settings name it (Ruter's IMP;Butler-2: {"butler_drop": "one-each-end-from-3"}).
    method: dict[str, object] = field(default_factory=dict)
    left_out: int = 0  # table results the file holds that cannot be placed (each with its warning)
    faulty: list[str] = field(default_factory=list)  # result rows left out as faulty, each with its reason


# --- Bytes to text ---------------------------------------------------------------------------


def decode(data: bytes) -> str:
    """The text of an uploaded file: UTF-8 (a byte-order mark dropped), else Windows-1252 (the
    older Windows scoring programs), else Latin-1, which decodes any byte. CRLF and CR line
    ends read as LF."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
    return text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")


# --- Artificial score codes ----------------------------------------------------------------

_SYMBOLS = {
    "A+": "AVE+",
    "AVE+": "AVE+",
    "AV+": "AVE+",
    "AVG+": "AVE+",
    "AVEPLUS": "AVE+",
    "A60+": "AVE+",
    "A": "AVE",
    "A=": "AVE",
    "AVE": "AVE",
    "AV": "AVE",
    "AVG": "AVE",
    "AVE=": "AVE",
    "A-": "AVE-",
    "AVE-": "AVE-",
    "AV-": "AVE-",
    "AVG-": "AVE-",
    "AVEMINUS": "AVE-",
}
_OPPOSITE = {"AVE+": "AVE-", "AVE": "AVE", "AVE-": "AVE+"}
NOT_PLAYED = {"NP", "N/P", "NOTPLAYED", "NOT PLAYED", "NOT_PLAYED", "UNPLAYED"}
BYES = {"BYE", "SITOUT", "SIT-OUT", "SIT OUT", "PHANTOM"}
_PAIR_CODE = re.compile(r"^A(\d{2})(\d{2})$")  # A6040: N-S 60 %, E-W 40 %
_ONE_CODE = re.compile(r"^A(\d{2,3})$")  # A60 in one side's column
_PERCENT = re.compile(r"^(\d{1,3}(?:[.,]\d{1,2})?)\s*%$")  # 60% / 57.5%
KNOWN_CODES = "A60, A6040, A+, A, A-, AVE+, AVE, AVE-, 60%, NP"


def _percent(text: str) -> str:
    value = text.replace(",", ".")
    return f"{value.rstrip('0').rstrip('.') if '.' in value else value}%"


def _one(text: str) -> tuple[str, str] | None:
    """One side's code -> (engine value, its complement) or None when not a known code."""
    code = text.strip().upper().replace(" ", "")
    if code in _SYMBOLS:
        return _SYMBOLS[code], _OPPOSITE[_SYMBOLS[code]]
    match = _ONE_CODE.match(code) or _PERCENT.match(code)
    if match:
        value = match[1].replace(",", ".")
        if float(value) > 100:
            return None
        rest = 100 - float(value)
        other = str(int(rest)) if rest == int(rest) else f"{rest:g}"
        return _percent(value), f"{other}%"
    return None


def read_artificial(ns_text: str | None, ew_text: str | None = None) -> tuple[str, dict[str, str] | None]:
    """Read the artificial score a program wrote in the N-S and E-W score columns.

    Returns ``("artificial", {"ns": ..., "ew": ...})`` in the engine's form (stated
    percentages stay percentages: ``A60`` -> ``"60%"``; ``A+`` -> ``"AVE+"``), or
    ``("not_played", None)`` for NP, ``("bye", None)`` for a sit-out; raises ValueError with a
    Message naming the code when the code is unknown. One side's code alone gives the other
    side the complement (A60 -> 40 %, AVE+ -> AVE-), as the programs mean it."""
    texts = [t.strip() for t in (ns_text or "", ew_text or "") if t is not None]
    texts = [t for t in texts if t and t != "-"]
    if not texts:
        raise ValueError(_("no score and no artificial-score code"))
    upper = [t.upper() for t in texts]
    if all(t in NOT_PLAYED for t in upper):
        return "not_played", None
    if any(t in BYES for t in upper):
        return "bye", None
    if len(texts) == 1:
        match = _PAIR_CODE.match(upper[0].replace(" ", ""))
        if match:
            return "artificial", {"ns": f"{int(match[1])}%", "ew": f"{int(match[2])}%"}
    sides: list[tuple[str, str] | None] = []
    for text in (ns_text, ew_text):
        text = (text or "").strip()
        if not text or text == "-":
            sides.append(None)
            continue
        read = _one(text)
        if read is None:
            raise ValueError(
                _(
                    "'%(code)s' is not a score or an artificial-score code this system knows (%(known)s)",
                    code=text,
                    known=KNOWN_CODES,
                )
            )
        sides.append(read)
    ns, ew = sides
    if ns and ew:
        return "artificial", {"ns": ns[0], "ew": ew[0]}
    if ns:
        return "artificial", {"ns": ns[0], "ew": ns[1]}
    assert ew is not None  # texts holds at least one code: one side was read
    return "artificial", {"ns": ew[1], "ew": ew[0]}


# --- The [Scoring] tag and its kin -------------------------------------------------------------

_SCORING = {
    "MP": "matchpoints",
    "MATCHPOINTS": "matchpoints",
    "MATCHPOINT": "matchpoints",
    "MP1": "matchpoints",
    "MP2": "matchpoints",
    "PAIRS": "matchpoints",
    "TOPS": "matchpoints",
    "MATCH_POINTS": "matchpoints",
    "IMP": "imps",
    "IMPS": "imps",
    "TEAMS": "imps",
    "IMPS_TEAMS": "imps",
    "BUTLER": "butler",
    "BUTLERIMP": "butler",
    "BUTLERIMPS": "butler",
    "DATUM": "butler",
    "CROSS": "cross_imps",
    "CROSSIMP": "cross_imps",
    "CROSSIMPS": "cross_imps",
    "CROSS_IMPS": "cross_imps",
    "IMPACROSSTHEFIELD": "cross_imps",
    "IAF": "cross_imps",
    "CROSS-IMPS": "cross_imps",
    "BAM": "bam",
    "BOARDAMATCH": "bam",
    "RUBBER": "rubber",
    "CHICAGO": "rubber",
    "CAVENDISH": "rubber",
}


def read_scoring(text: str | None) -> str | None:
    """``"MP"`` -> ``"matchpoints"``, ``"Butler"`` -> ``"butler"``...; None for "?" or empty;
    the text as written (lower case) for anything else. PBN allows a list separated by ``;``
    (``"IMP;Cross"``): the last known word wins, as it is the more precise. A variant's number
    (Ruter's ``IMP;Butler-2``, ``IMP;Cross2``) is read as its method."""
    if not text or text.strip() in {"?", "-"}:
        return None
    found = None
    for part in re.split(r"[;,]", text):
        key = re.sub(r"[\s-]", "", part).upper()
        key = key.replace("_", "") if key.replace("_", "") in _SCORING else key
        if key not in _SCORING and re.sub(r"\d+$", "", key) in _SCORING:
            key = re.sub(r"\d+$", "", key)  # Ruter's Butler-2, Cross2: the method's variant
        if key in _SCORING:
            found = _SCORING[key]
    return found or text.strip().lower()


def scoring_label(kind: str) -> Message:
    return {
        "matchpoints": _("matchpoints"),
        "imps": _("IMPs"),
        "butler": _("Butler IMPs"),
        "cross_imps": _("cross-IMPs"),
        "bam": _("board-a-match"),
        "rubber": _("rubber or Chicago scoring"),
    }.get(kind, Message("%(kind)s", kind=kind))


# --- The program that wrote a file --------------------------------------------------------------

# How a program rounds a Butler datum that ends in 5, under the names of the regulating
# authority's setting ``butler_rounding`` (half-up, half-down, half-even, half-away). Only the
# programs whose rule is known are listed: Ruter, the Norwegian federation's program, rounds
# halves away from zero, as the Scandinavian programs do; so does the ABF's Compscore (its real
# files: a datum of -445 is -450). A file's [Generator] tag names the
# program; a file that names none, or another program, is not guessed at.
# Ruter ("Ruter i Norge") is Magic Contest's Norwegian edition: its files name their author
# www.brenning.se (Tomas Brenning, Magic Contest's author, whose site lists the program's country
# editions) and carry Magic Contest's version numbers (4.14.2, 2022); a file that names Magic
# Contest is scored as Ruter's are (issue #40).
BUTLER_ROUNDING_BY_PROGRAM = {"ruter": "half-away", "magic": "half-away", "compscore": "half-away"}


# Programs whose cross-IMP rows print the sum over the comparisons, not their mean.
CROSS_IMPS_SUMMED_BY = ("ruter", "magic")
# Programs that rank a Butler or cross-IMP session in one list, pairs that sat one way too.
ONE_LIST_AT_IMPS = ("ruter", "magic")


def butler_rounding_of(generator: str | None) -> str | None:
    """The ``butler_rounding`` of the program a [Generator] value names ("Ruter 3.2.1" ->
    "half-away"), or None when the program's rule is not known."""
    words = re.findall(r"[a-z]+", (generator or "").lower())
    for program, rounding in BUTLER_ROUNDING_BY_PROGRAM.items():
        if program in words:
            return rounding
    return None


# The matchpoint methods of the programs whose method is known, as the real files show
# them (issue #40): ScoreBridge counts a result missing from a board as an average one (the
# "manual method", matchpoints + 1 for each missing result) before 10.24, which scales with
# Neuberg but totals the lines as printed (one decimal, as WBF scoring rounds them); a real
# 10.25.02 file prints averages all the same (the method is ScoreBridge's option), so a USEBIO
# file's own lines decide where they show it (fewer_played_printed, read by bridge.usebio); EBUScore
# prints and ranks percentages to two places; BriAn scores a board on its own top.
MATCHPOINT_METHOD_BY_PROGRAM: dict[str, tuple[tuple[tuple[int, ...], dict[str, object]], ...]] = {
    # program: ((from version, method), ...), the latest version first
    "scorebridge": (
        ((10, 24), {"fewer_played": "neuberg", "totals": "rounded-lines", "rounding": "0.1-half-to-average"}),
        ((), {"fewer_played": "average"}),
    ),
    "ebuscore": (((), {"percent_rounding": "0.01-half-up"}),),
    "brian": (((), {"fewer_played": "own-top"}),),
}


def matchpoint_method_of(generator: str | None) -> dict[str, object]:
    """The matchpoint method of the program a generator names ("ScoreBridge 10.24" -> Neuberg,
    rounded lines), {} for a program whose method is not known."""
    text = (generator or "").lower()
    words = re.findall(r"[a-z]+", text)
    for program, versions in MATCHPOINT_METHOD_BY_PROGRAM.items():
        if program not in words:
            continue
        found = re.search(program + r"\D*?(\d+(?:\.\d+)*)", text)
        version = tuple(int(part) for part in found.group(1).split(".")) if found else ()
        for since, method in versions:
            if version >= since:
                return dict(method)
    return {}


def fewer_played_printed(boards: list[tuple[str, list[tuple[int, Fraction, Fraction]]]]) -> str:
    """The method for boards played fewer times that a file's own printed matchpoints show, or
    "" when they show none. ``boards``: each board's section and its lines (the N-S score and
    the matchpoints printed to N-S and E-W), every line of the board played. A board played
    fewer times than its section's most played one prints, with each missing result counted as
    an average, the board's matchpoints plus one for each missing comparison (2/1 scale), so its
    lines still share the full top; Neuberg scales them to that top. A file whose lines show the
    board's own top (Compscore's travellers) says nothing of its totals' method, nor does one
    whose every line agrees with both methods. ScoreBridge's real 10.25.02 file (issue #40)
    prints an average for each missing result, though its version is past 10.24's Neuberg."""
    most: dict[str, int] = {}
    for section, lines in boards:
        most[section] = max(most.get(section, 0), len(lines))
    found: set[str] = set()
    for section, lines in boards:
        expected, played = most[section], len(lines)
        full = [Fraction(ns) + ew for _score, ns, ew in lines]
        if played >= expected or played < 2 or expected < 2:
            continue
        scale = full[0] / (2 * (expected - 1))
        if any(total != full[0] for total in full) or scale not in (1, Fraction(1, 2)):
            return ""  # the board's own top, or a scale the methods do not give
        fits = {"average", "neuberg"}
        for score, ns, _ew in lines:
            own = sum(2 if score > other else 1 if score == other else 0 for other, _n, _e in lines) - 1
            average = (own + expected - played) * scale
            neuberg = ((own + 1) * Fraction(expected, played) - 1) * scale
            # Neuberg's to the precision printed: whole, one decimal or two.
            near = next((Fraction(1, 2 * 10**d) for d in range(3) if (ns * 10**d).denominator == 1), Fraction(0))
            if average != ns:
                fits.discard("average")
            if abs(neuberg - ns) > near:
                fits.discard("neuberg")
        if len(fits) == 1:
            found |= fits
        elif not fits:
            return ""
    return found.pop() if len(found) == 1 else ""


def method_of(session: SessionFile) -> dict[str, object]:
    """The scoring method the file's program used, as the regulating authority's settings name
    it: what the program is known to do (its Butler rounding) and what the file's form says
    (``session.method``). Empty when the file says nothing the settings can hold."""
    method: dict[str, object] = {}
    if session.scoring in ("matchpoints", None, ""):
        known = matchpoint_method_of(session.generator)
        if session.method.get("fewer_played", known.get("fewer_played")) != known.get("fewer_played"):
            known = {}  # the file's own lines show another method: the program's option, not its version's
        method.update(known)
    rounding = butler_rounding_of(session.generator)
    if rounding and session.scoring == "butler":
        method["butler_rounding"] = rounding
    words = re.findall(r"[a-z]+", (session.generator or "").lower())
    if session.scoring == "cross_imps" and any(p in words for p in CROSS_IMPS_SUMMED_BY):
        method["cross_imps"] = "sum"
    if session.scoring in ("butler", "cross_imps") and any(p in words for p in ONE_LIST_AT_IMPS):
        method["ranking"] = "one-list"
    method.update(session.method)
    return method


# --- Who the contestants are ---------------------------------------------------------------------

# A direction as the programs spell it, in their languages: N-S, NS, N/S, NZ (Dutch), E-W, EW, O-W
# (Dutch, German), E-O (French), Ø-V (Norwegian, Danish), Ö-V (Swedish), and the words.
_NS_SPELLINGS = {"NS", "N", "NZ", "NORTHSOUTH", "NOORDZUID", "NORDSYD", "NORDSUD"}
_EW_SPELLINGS = {"EW", "E", "OW", "EO", "ØV", "ÖV", "OV", "EASTWEST", "OOSTWEST", "ØSTVEST", "ÖSTVÄST", "OSTWEST"}


def direction_of(text: str | None) -> str:
    """The direction NS, EW or "" however a program spells it ("N-S", "Ö-V", "E/W", ...)."""
    letters = re.sub(r"[^A-ZÆØÅÄÖÜ]", "", (text or "").strip().upper())
    if letters in _NS_SPELLINGS:
        return "NS"
    if letters in _EW_SPELLINGS:
        return "EW"
    return ""


def identify(session: SessionFile) -> None:
    """Give each result of a pairs file the :class:`Identity` of its two pairs, as the scoring
    program numbers them (``result.ns_id``, ``result.ew_id``).

    A section is a Mitchell (its pairs numbered per direction) when the file says so
    (``session.mitchell``), when a table has the same number at N-S and E-W, or when one number
    sits N-S on a board and E-W on the same board (a Howell pair plays each board once);
    otherwise one number is one pair (a Howell). The section letter is part of the identity only
    when two sections use the same numbers (ACBL's sections each start at 1); pairs numbered
    across sections keep their numbers alone. Team results keep their team numbers."""
    rows = [r for r in session.results if r.ns is not None and r.ew is not None]
    if session.teams:
        for result in rows:
            result.ns_id, result.ew_id = Identity(result.ns or 0), Identity(result.ew or 0)
        return
    by_section: dict[str, list[ResultIn]] = {}
    for result in rows:
        by_section.setdefault(result.section, []).append(result)
    mitchell = set()
    for section, results in by_section.items():
        sides: dict[int, tuple[set[int], set[int]]] = {}
        for result in results:
            ns, ew = sides.setdefault(result.board, (set(), set()))
            ns.add(result.ns or 0)
            ew.add(result.ew or 0)
        if (
            section in session.mitchell
            or any(r.ns == r.ew for r in results)
            or any(ns & ew for ns, ew in sides.values())
        ):
            mitchell.add(section)
    seen: dict[int, str] = {}
    clash = False
    for section, results in by_section.items():
        for result in results:
            for number in (result.ns or 0, result.ew or 0):
                if seen.setdefault(number, section) != section:
                    clash = True
    for section, results in by_section.items():
        letter = section if clash else ""
        for result in results:
            ns_side, ew_side = ("NS", "EW") if section in mitchell else ("", "")
            result.ns_id = Identity(result.ns or 0, letter, ns_side)
            result.ew_id = Identity(result.ew or 0, letter, ew_side)


def name_of(session: SessionFile, identity: Identity, section: str = "") -> str:
    """The name the file gives a contestant: by section, direction and number where it tells
    them apart, else by number (``section``: the section the contestant played in)."""
    names = session.names
    for key in (
        (section, identity.direction, identity.number),
        ("", identity.direction, identity.number),
    ):
        if key in names:
            return names[key]
    if identity.direction:
        return ""  # a Mitchell's number alone names two pairs: the file does not say which
    return names.get(identity.number, "")


def unplayed(session: SessionFile, numbers: set[int]) -> list[int]:
    """The contestants the file's totals list by number that are not among ``numbers`` (those
    its results name): Ruter lists the pairs that played no board, last with 0.00. The import
    enters them too, so the standings list every pair the program listed (issue #40)."""
    return [number for number in session.names if isinstance(number, int) and number not in numbers]
