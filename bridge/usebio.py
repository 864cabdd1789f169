"""Read and write USEBIO 1.2, the XML results standard of the English Bridge Union (EBUScore,
ScoreBridge, Bridgewebs, RealBridge...).

``parse_usebio(data)`` reads an event's boards, travellers and hand records into a
:class:`bridge.interchange.SessionFile`, or raises :class:`UsebioError` naming the element
(``board 3, traveller line 2: CONTRACT: ...``). The file is untrusted: it is parsed with
defusedxml, which refuses entity declarations (no "billion laughs", no external entities).
``write_usebio(...)`` writes a scored event back.

Plain Python, no Django.
"""

from __future__ import annotations

import dataclasses
import datetime
import itertools
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from bridge.deals import DealError, parse_deal, parse_seat, parse_vulnerability
from bridge.engine.contract import ContractError, board_dealer, board_vulnerability, ns_score, parse_contract
from bridge.interchange import (
    BoardIn,
    Notice,
    ResultIn,
    SessionFile,
    direction_of,
    fewer_played_printed,
    read_artificial,
    read_scoring,
)
from bridge.messages import Message, MessageError, _

__all__ = ["MatchOut", "ParticipantOut", "UsebioError", "parse_usebio", "write_usebio"]

_SCORING = {
    "MATCH_POINTS": "matchpoints",
    "MATCHPOINTS": "matchpoints",
    "MP_PAIRS": "matchpoints",
    "IMPS": "imps",
    "TEAMS": "imps",
    "SWISS_TEAMS": "imps",
    "TEAMS_OF_FOUR": "imps",
    "KO_TEAMS": "imps",
    "BUTLER": "butler",
    "BUTLER_PAIRS": "butler",
    "CROSS_IMPS": "cross_imps",
    "CROSS_IMP": "cross_imps",
    "IMP_PAIRS": "cross_imps",
    "INDIVIDUAL": "matchpoints",
    "BAM": "bam",
    "BAM_TEAMS": "bam",
}
_SEATS = {"N": "N", "NORTH": "N", "E": "E", "EAST": "E", "S": "S", "SOUTH": "S", "W": "W", "WEST": "W"}


class UsebioError(MessageError):
    """A USEBIO file refused; ``str()`` names the element and the field at fault."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(Message("%(where)s: %(message)s", where=where, message=message))
        self.where = where
        self.message = message


def _text(element: ElementTree.Element, *names: str) -> str | None:
    for name in names:
        child = element.find(name)
        if child is not None and child.text is not None and child.text.strip():
            return child.text.strip()
    return None


def parse_usebio(data: bytes | str) -> SessionFile:
    """The boards, results and names of a USEBIO file: its bytes as they are (the XML declaration
    says their encoding), or text."""
    if isinstance(data, str):
        data = re.sub(r"^\s*<\?xml[^>]*\?>", "", data).encode("utf-8")
    try:
        root = fromstring(data, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:
        raise UsebioError(
            _("the file"), _("it declares XML entities, which a results file never needs: refused for safety")
        ) from None
    except ElementTree.ParseError as error:
        line, column = getattr(error, "position", (0, 0))
        raise UsebioError(
            _("line %(line)s, column %(column)s", line=line, column=column), _("this is not well-formed XML")
        ) from None
    except LookupError:
        raise UsebioError(_("the file"), _("the XML declaration names an encoding that does not exist")) from None
    except (ValueError, RecursionError):
        raise UsebioError(_("the file"), _("this is not well-formed XML")) from None
    if root.tag.upper() != "USEBIO":
        raise UsebioError(
            _("the file"),
            _("the root element is <%(tag)s>, not <USEBIO>: this is not a USEBIO file", tag=root.tag[:40]),
        )
    event = root if root.find("EVENT") is None else root.find("EVENT")
    session = SessionFile(format="USEBIO")
    kind = (_text(event, "BOARD_SCORING_METHOD") or event.get("EVENT_TYPE") or "").upper()
    session.scoring = _SCORING.get(kind) or read_scoring(kind)
    session.teams = "TEAM" in (event.get("EVENT_TYPE") or "").upper()
    # The program that wrote the file, for its Butler rounding (bridge.interchange).
    session.generator = " ".join(
        (root.findtext(f".//{name}") or "").strip() for name in ("PROGRAM_NAME", "PROGRAM_VERSION")
    ).strip()
    if "INDIVIDUAL" in (event.get("EVENT_TYPE") or "").upper():
        # The record keeps one contestant at N-S and one at E-W: an individual movement's four
        # players at a table have no place in it (the PBN reader refuses PlayerId_North tables too).
        raise UsebioError(
            "EVENT_TYPE",
            _(
                "'%(type)s' is an individual event: its results cannot be recorded, as this system records each "
                "result between one contestant at N-S and one at E-W",
                type=event.get("EVENT_TYPE"),
            ),
        )
    matches = list(event.iter("MATCH"))
    session.teams = session.teams or bool(matches)
    # A team's PAIRs (pairs numbered within their team) and a MATCH's TEAM (a number) name no contestant.
    inner = {id(e) for team in event.iter("TEAM") for e in team.iter("PAIR")}
    inner |= {id(e) for match in matches for e in match.iter("TEAM")}
    scopes = _section_scopes(event)
    for scope, section in scopes:
        _participants(scope, section, inner, session)
    hands: dict[int, BoardIn] = {}
    # The hand records: under EVENT in some files, beside it (Compscore, the DTD's order) in others.
    for handset in root.iter("HANDSET"):
        for index, board in enumerate(handset.findall("BOARD"), 1):
            read = _hand_record(board, index)
            hands[read.number] = read
    seen: dict[tuple[str, int], BoardIn] = {}
    in_matches = {id(b) for match in matches for b in match.iter("BOARD")}
    printed: list[tuple[str, list[tuple[int, Fraction, Fraction]]]] = []
    for scope, section in scopes:
        _travellers(scope, section, hands, seen, in_matches, session, printed)
    # The method for boards played fewer times, as the program's printed matchpoints show it:
    # the file's form, over what its program's version is known to do (bridge.interchange).
    if fewer_played := fewer_played_printed(printed):
        session.method["fewer_played"] = fewer_played
    _matches(matches, hands, seen, session)
    placed = {number for _section, number in seen}
    for number, record in hands.items():
        if number not in placed:
            record.where = _("hand record of board %(board)s", board=number)
            session.boards.append(record)
    session.boards.sort(key=lambda b: b.number)
    return session


def _section_scopes(event: ElementTree.Element) -> list[tuple[ElementTree.Element, str]]:
    """[(element, section)]: each SECTION of the event that holds boards or pairs, named by its
    SECTION_ID (attribute or element), SECTION_LETTER or SECTION_NAME, else A, B, ... in order;
    or the event itself, section "", when it has fewer than two (one section's numbers tell)."""
    sections = [
        element
        for element in event.iter("SECTION")
        if element.find(".//BOARD") is not None or element.find(".//PAIR") is not None
    ]
    if len(sections) < 2:
        return [(event, "")]
    scopes, names = [], set()
    for index, element in enumerate(sections):
        name = (
            element.get("SECTION_ID")
            or element.get("SECTION_LETTER")
            or _text(element, "SECTION_ID", "SECTION_LETTER", "SECTION_NAME")
            or chr(ord("A") + index % 26) * (1 + index // 26)
        ).strip()[:10]
        if name in names:
            raise UsebioError(
                _("section %(n)s", n=index + 1), _("SECTION_ID: section %(section)s is given twice", section=name)
            )
        names.add(name)
        scopes.append((element, name))
    return scopes


def _participants(scope: ElementTree.Element, section: str, inner: set[int], session: SessionFile) -> None:
    """The names of the pairs and teams in ``scope`` (the event, or one of its sections)."""
    for tag in ("PAIR", "TEAM"):
        for entry in scope.iter(tag):
            if id(entry) in inner:
                continue
            number_text = _text(entry, f"{tag}_NUMBER") or entry.get(f"{tag}_ID")
            if tag == "TEAM":
                name = _text(entry, "TEAM_NAME") or entry.get("TEAM_NAME") or ""
            else:
                name = " - ".join(p for p in (_text(player, "PLAYER_NAME") for player in entry.findall("PLAYER")) if p)
            key = _pair_key(number_text or "")
            if not (key and name):
                continue
            # A Mitchell's pairs carry their DIRECTION (NS / EW), and Compscore's numbers
            # their direction too (1NS, 1EW).
            direction = direction_of(_text(entry, "DIRECTION")) or key[1]
            if direction and tag == "PAIR":
                session.names[(section, direction, key[0])] = name
                # A pair that sat both ways in a Howell is listed once, where it sat first.
                if section:
                    session.names.setdefault((section, "", key[0]), name)
                else:
                    session.names.setdefault(key[0], name)
            elif section:
                session.names[(section, "", key[0])] = name
            else:
                session.names[key[0]] = name


def _travellers(
    scope: ElementTree.Element,
    section: str,
    hands: dict[int, BoardIn],
    seen: dict[tuple[str, int], BoardIn],
    in_matches: set[int],
    session: SessionFile,
    printed: list[tuple[str, list[tuple[int, Fraction, Fraction]]]],
) -> None:
    """The BOARDs of ``scope`` (the event, or its section ``section``) and their traveller lines;
    a board number is given once in each section. ``printed`` gathers each matchpoint board's
    played lines with the matchpoints the program printed (its N-S score, N-S's and E-W's)."""
    prefix = _("section %(section)s, ", section=section) if section else ""
    for index, board in enumerate(scope.iter("BOARD"), 1):
        if board.find("TRAVELLER_LINE") is None or id(board) in in_matches:
            continue
        number = _number(board, "BOARD_NUMBER", prefix + _("board element %(n)s", n=index))
        assert number is not None  # required: _number refuses a missing BOARD_NUMBER
        where = prefix + _("board %(board)s", board=number)
        hand = hands.get(number)
        record = (
            dataclasses.replace(hand, section=section)
            if hand is not None
            else BoardIn(
                number=number,
                line=index,
                dealer=board_dealer(number),
                vulnerability=board_vulnerability(number),
                section=section,
            )
        )
        record.line, record.where = index, where
        if (section, number) in seen:
            raise UsebioError(where, _("BOARD_NUMBER: board %(board)s is given twice", board=number))
        seen[(section, number)] = record
        session.boards.append(record)
        lines: list[tuple[ElementTree.Element, ResultIn]] = []
        for row, line in enumerate(board.findall("TRAVELLER_LINE"), 1):
            line_where = prefix + _("board %(board)s, traveller line %(row)s", board=number, row=row)
            result = _traveller_line(line, record, line_where, session, section=section)
            if result is not None:
                result.section = section
                session.results.append(result)
                lines.append((line, result))
        if session.scoring == "matchpoints":
            _awarded_matchpoints(lines, session)
            shown = [(_ns_score(line), _points(line)) for line, result in lines if result.kind == "played"]
            if lines and len(shown) == len(lines) and all(s is not None and p is not None for s, p in shown):
                printed.append((section, [(s, *p) for s, p in shown if s is not None and p is not None]))


def _matches(
    matches: list[ElementTree.Element],
    hands: dict[int, BoardIn],
    seen: dict[tuple[str, int], BoardIn],
    session: SessionFile,
) -> None:
    """A team event's MATCH elements: TEAM (the home team) against OPPOSING_TEAM in ROUND_NUMBER,
    each BOARD's traveller lines one per room, DIRECTION saying where the home team sat (NS: the
    open room, EW: the closed room). The result is between the two teams; the pair numbers the
    line gives (pairs within their team) are not kept."""
    in_round: dict[int, int] = {}
    for index, match in enumerate(matches, 1):
        where = _("match %(n)s", n=index)
        home = _number(match, "TEAM", where)
        away = _number(match, "OPPOSING_TEAM", where)
        round_number = _number(match, "ROUND_NUMBER", where, required=False) or 1
        if home == away:
            raise UsebioError(where, _("OPPOSING_TEAM: team %(team)s cannot play itself", team=home))
        in_round[round_number] = in_round.get(round_number, 0) + 1
        boards_here: set[int] = set()
        for board in match.findall("BOARD"):
            number = _number(board, "BOARD_NUMBER", where)
            assert number is not None  # required: _number refuses a missing BOARD_NUMBER
            board_where = _("match %(n)s, board %(board)s", n=index, board=number)
            if number in boards_here:
                raise UsebioError(board_where, _("BOARD_NUMBER: board %(board)s is given twice", board=number))
            boards_here.add(number)
            record = seen.get(("", number))
            if record is None:
                record = hands.get(number) or BoardIn(
                    number=number, line=index, dealer=board_dealer(number), vulnerability=board_vulnerability(number)
                )
                record.line, record.where = index, _("board %(board)s", board=number)
                seen[("", number)] = record
                session.boards.append(record)
            rooms: set[str] = set()
            for row, line in enumerate(board.findall("TRAVELLER_LINE"), 1):
                line_where = _("match %(n)s, board %(board)s, traveller line %(row)s", n=index, board=number, row=row)
                direction = (_text(line, "DIRECTION") or "").upper().replace("-", "")
                if direction not in {"NS", "EW"}:
                    if direction:
                        raise UsebioError(
                            line_where,
                            _(
                                "DIRECTION: '%(value)s' is not where the home team sat: write NS or EW",
                                value=direction[:20],
                            ),
                        )
                    direction = "NS" if row == 1 else "EW"  # no DIRECTION: the open room first
                room = "open" if direction == "NS" else "closed"
                if room in rooms:
                    raise UsebioError(
                        line_where,
                        _(
                            "DIRECTION: the home team sits %(direction)s at two tables of one board",
                            direction=direction,
                        ),
                    )
                rooms.add(room)
                result = _traveller_line(line, record, line_where, session, team=True)
                if result is None:
                    continue
                result.room, result.home, result.away = room, home, away
                result.ns, result.ew = (home, away) if room == "open" else (away, home)
                result.round = result.round or round_number
                # The match's number: the line's TABLE, else the match's place in its round.
                result.table = _number(line, "TABLE", line_where, required=False) or in_round[round_number]
                session.results.append(result)


def _awarded_matchpoints(read: list[tuple[ElementTree.Element, ResultIn]], session: SessionFile) -> None:
    """An artificial score the program awarded otherwise than its code says: Compscore writes
    ``A5050`` on a line the director scored 23 and 11 matchpoints of 40 (the percentages he
    gave each side). When the board's played lines each share the top (2 per comparison:
    twice the lines less one) and an artificial line's NS_MATCH_POINTS / EW_MATCH_POINTS are
    not its code's percentages of that top, the matchpoints awarded are the score: recorded as
    those percentages, with a warning."""
    top = Fraction(2 * (len(read) - 1))
    if top <= 0:
        return
    for line, result in read:
        if result.kind == "played" and _points(line) is not None and sum(_points(line) or ()) != top:
            return  # not Compscore's scale: the codes stand
    for line, result in read:
        points = _points(line)
        if result.kind != "artificial" or points is None or not result.score:
            continue
        stated = tuple(_percent_of(result.score.get(side, "")) for side in ("ns", "ew"))
        awarded = tuple(p * 100 / top for p in points)
        if stated == awarded or not all(0 <= a <= 100 for a in awarded):
            continue
        result.score = {side: f"{_decimal(a)}%" for side, a in zip(("ns", "ew"), awarded, strict=True)}
        session.warnings.append(
            Message(
                "%(where)s: %(message)s",
                where=result.where,
                message=_(
                    "SCORE %(code)s was scored %(ns)s and %(ew)s matchpoints of %(top)s: recorded as "
                    "%(ns_percent)s%% and %(ew_percent)s%%, as the program awarded it",
                    code=result.code,
                    ns=_decimal(points[0]),
                    ew=_decimal(points[1]),
                    top=_decimal(top),
                    ns_percent=_decimal(awarded[0]),
                    ew_percent=_decimal(awarded[1]),
                ),
            )
        )


def _ns_score(line: ElementTree.Element) -> int | None:
    """A played line's N-S score as the file writes it (SCORE, or NS_SCORE / EW_SCORE)."""
    ns, ew = _text(line, "SCORE", "NS_SCORE"), _text(line, "EW_SCORE")
    for text, sign in ((ns, 1), (ew, -1)):
        if text and re.fullmatch(r"-?\d{1,5}", text):
            return sign * int(text)
    return 0 if (_text(line, "CONTRACT") or "").upper() in {"PASS", "AP", "P", "PASSED"} else None


def _points(line: ElementTree.Element) -> tuple[Fraction, Fraction] | None:
    texts = (_text(line, "NS_MATCH_POINTS"), _text(line, "EW_MATCH_POINTS"))
    if not all(t and re.fullmatch(r"\d{1,4}(\.\d{1,4})?", t) for t in texts):
        return None
    return Fraction(str(texts[0])), Fraction(str(texts[1]))


def _percent_of(text: str) -> Fraction | None:
    match = re.fullmatch(r"(\d{1,3}(?:\.\d+)?)%", text)
    return Fraction(match[1]) if match else None


def _decimal(value: Fraction) -> str:
    """``Fraction(115, 2)`` -> ``57.5``: up to four decimals, no trailing zeros."""
    text = f"{Decimal(value.numerator) / Decimal(value.denominator):.4f}".rstrip("0").rstrip(".")
    return text


def _number(element: ElementTree.Element, name: str, where: str, required: bool = True, side: str = "") -> int | None:
    """The number in element ``name``; with ``side`` ("NS"/"EW"), a pair number that may carry
    its direction as Compscore writes a Mitchell's pairs (``1NS``, ``1EW``)."""
    text = _text(element, name)
    if text is None:
        if required:
            raise UsebioError(where, _("%(field)s: the element is missing or empty", field=name))
        return None
    if side:
        match = re.fullmatch(r"(\d{1,6})\s*(NS|EW|N-S|E-W)?", text.upper())
        if match and match[2] and match[2].replace("-", "") != side:
            raise UsebioError(
                where,
                _("%(field)s: '%(value)s' is a pair of the other direction", field=name, value=text[:40]),
            )
        text = match[1] if match else text
    if not re.fullmatch(r"\d{1,6}", text) or int(text) < 1:
        raise UsebioError(where, _("%(field)s: '%(value)s' is not a number", field=name, value=text[:40]))
    return int(text)


def _pair_key(text: str) -> tuple[int, str] | None:
    """``7`` -> (7, ""); Compscore's ``7NS`` -> (7, "NS"); None for anything else."""
    match = re.fullmatch(r"(\d{1,6})\s*(NS|EW|N-S|E-W)?", text.strip().upper())
    return (int(match[1]), (match[2] or "").replace("-", "")) if match else None


def _lead(text: str | None) -> str:
    """The opening lead as ``SQ``: USEBIO files write ``SQ``, ``S10`` or (Compscore) ``QS``; an
    unreadable lead is left out (the result does not need it)."""
    card = (text or "").strip().upper().replace("10", "T")
    if re.fullmatch(r"[SHDC][AKQJT2-9]", card):
        return card
    if re.fullmatch(r"[AKQJT2-9][SHDC]", card):
        return card[1] + card[0]
    return ""


def _void(suit: str) -> str:
    """A suit's cards; EBUScore writes an empty suit (a void) as "-"."""
    return "" if suit in ("-", "\u2014", "\u2013") else suit


def _hand_record(board: ElementTree.Element, index: int) -> BoardIn:
    number = _number(board, "BOARD_NUMBER", _("hand record %(n)s", n=index))
    assert number is not None  # required: _number refuses a missing BOARD_NUMBER
    where = _("hand record of board %(board)s", board=number)
    record = BoardIn(number=number, line=index)
    try:
        dealer = _text(board, "DEALER")
        record.dealer = _SEATS.get(dealer.upper()) if dealer else board_dealer(number)
        if record.dealer is None:
            raise DealError("dealer", _("'%(text)s' is not a seat: write N, E, S or W", text=(dealer or "")[:20]))
        vulnerable = _text(board, "VULNERABILITY", "VULNERABLE")
        record.vulnerability = (
            parse_vulnerability(vulnerable.replace("-", "") if len(vulnerable) == 3 else vulnerable)
            if vulnerable
            else board_vulnerability(number)
        )
    except DealError as error:
        raise UsebioError(where, error.message) from None
    hands: dict[str, str] = {}
    for hand in board.findall("HAND"):
        seat = _SEATS.get((_text(hand, "DIRECTION") or "").upper())
        if seat is None:
            raise UsebioError(where, _("HAND: DIRECTION must be N, E, S or W"))
        suits = [
            _void((_text(hand, suit) or "").replace("10", "T").replace(" ", ""))
            for suit in ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")
        ]
        hands[seat] = ".".join(suits)
    if hands:
        if set(hands) != {"N", "E", "S", "W"}:
            raise UsebioError(where, _("HAND: the hand record needs the four hands N, E, S and W"))
        text = "N:" + " ".join(hands[seat] for seat in "NESW")
        try:
            record.deal = parse_deal(text).to_pbn()
        except DealError as error:
            raise UsebioError(where, error.message) from None
    return record


def _traveller_line(
    line: ElementTree.Element, board: BoardIn, where: str, session: SessionFile, team: bool = False, section: str = ""
) -> ResultIn | None:
    result = ResultIn(board=board.number, line=board.line, where=where)
    if not team:  # a team match's lines number the pairs within their teams: the match names the teams
        result.ns = _number(line, "NS_PAIR_NUMBER", where, side="NS")
        result.ew = _number(line, "EW_PAIR_NUMBER", where, side="EW")
        if re.search(r"[A-Z]", (_text(line, "NS_PAIR_NUMBER") or "").upper()):
            session.mitchell.add(section)  # Compscore's 1NS / 1EW: the pairs are numbered per direction
        result.table = _number(line, "TABLE", where, required=False)
    result.round = _number(line, "ROUND", where, required=False)
    contract = _text(line, "CONTRACT")
    score = _text(line, "SCORE", "NS_SCORE")
    ew_score = _text(line, "EW_SCORE")
    if contract is None or not (contract[0].isdigit() or contract.upper() in {"PASS", "AP", "P", "PASSED"}):
        texts = (score or contract, ew_score)
        if all(t is None for t in texts):
            raise UsebioError(where, _("CONTRACT: the line has neither a contract nor a score"))
        try:
            result.kind, result.score = read_artificial(*texts)
        except ValueError as error:
            raise UsebioError(where, Message("%(field)s: %(message)s", field="SCORE", message=error.args[0])) from None
        result.code = score or contract or ""
        if result.kind == "bye":
            session.warnings.append(
                Notice(
                    board.line,
                    Message("%(where)s: %(message)s", where=where, message=_("a sit-out has no result to record")),
                )
            )
            return None
        return result
    try:
        result.contract = str(
            parse_contract(contract.replace("**", "XX").replace("*", "X").upper().replace("PASSED", "PASS"))
        )
    except ContractError as error:
        raise UsebioError(where, Message("%(field)s: %(message)s", field="CONTRACT", message=error.message)) from None
    if result.contract == "PASS":
        return result
    declarer = _text(line, "PLAYED_BY", "DECLARER")
    try:
        result.declarer = parse_seat(_SEATS.get((declarer or "").upper(), declarer or ""), "declarer")
    except DealError as error:
        raise UsebioError(where, Message("%(field)s: %(message)s", field="PLAYED_BY", message=error.message)) from None
    tricks = _text(line, "TRICKS")
    if tricks is None or not re.fullmatch(r"\d{1,2}", tricks) or int(tricks) > 13:
        raise UsebioError(
            where, _("TRICKS: '%(value)s' is not a number of tricks: declarer takes 0 to 13", value=(tricks or "")[:20])
        )
    result.tricks = int(tricks)
    result.lead = _lead(_text(line, "LEAD"))
    if score is not None and re.fullmatch(r"[+-]?\d{1,5}", score):
        want = ns_score(result.contract, result.declarer, result.tricks, board.vulnerability)
        if int(score) != want:
            raise UsebioError(
                where,
                _(
                    "SCORE %(value)s does not match %(contract)s by %(declarer)s making %(n)s "
                    "tricks: Law 77 gives %(want)s",
                    value=score,
                    contract=result.contract,
                    declarer=result.declarer,
                    n=result.tricks,
                    want=want,
                ),
            )
    return result


# --- Writing ---------------------------------------------------------------------------------


@dataclass
class ParticipantOut:
    """A pair in a written file's PARTICIPANTS: its number (with its DIRECTION in a Mitchell),
    its players as (name, national id), and its result in the session when it has one."""

    number: int
    direction: str = ""  # "NS" / "EW" in a Mitchell, where each direction numbers its pairs
    players: list[tuple[str, str]] = field(default_factory=list)
    total: str | None = None
    percentage: str | None = None
    place: str | None = None
    team_name: str = ""  # a team's name, in a team event
    section: str = ""  # the section it played in, when the session has more than one


@dataclass
class MatchOut:
    """A team match as a USEBIO MATCH: ``home`` (TEAM) against ``away`` (OPPOSING_TEAM) in
    ``round``, their victory points when scored, and per board the two rooms' results (each a
    ResultIn whose ``room`` is "open" or "closed", ``ns``/``ew`` the teams sitting there) with
    the board's IMPs to the home and the away team."""

    round: int
    home: int
    away: int
    table: int | None = None  # the match's number (its tables in the record: 2n-1 open, 2n closed)
    home_vp: str | None = None
    away_vp: str | None = None
    boards: list[tuple[int, list[ResultIn], tuple[str, str] | None]] = field(default_factory=list)


def _pair_number(number: object, direction: str) -> str:
    return f"{number}{direction}"  # Compscore's 1NS / 1EW in a Mitchell; plain 1 in a Howell


def write_usebio(
    *,
    event_name: str,
    scoring: str,
    boards: Iterable[tuple[BoardIn, list[ResultIn], Mapping[int, tuple[object, object]]]],  # points as written
    names: Mapping[int, str] | None = None,
    participants: Iterable[ParticipantOut] | None = None,
    club: str = "",
    date: datetime.date | None = None,
    venue: str = "",
    mitchell: bool = False,
    program: str = "Bridge rulings and appeals",
    matches: Iterable[MatchOut] | None = None,
    event_type: str = "",
) -> bytes:
    """A USEBIO 1.2 document (bytes, UTF-8) for one event, in the element order of the USEBIO
    1.2 DTD as the programs that declare it write it (Compscore's files in tests/fixtures).

    ``scoring``: "matchpoints", "imps", "butler" or "cross_imps"; ``boards``: a list of
    ``(BoardIn, [ResultIn...], {result id: (ns points, ew points)})``; ``participants`` every
    pair (or ``names``: contestant number -> players joined by " - "); ``mitchell``: pairs are
    numbered per direction and written 1NS / 1EW. Artificial scores are written as their codes
    (A6040, AVE+...), as USEBIO does.

    A team event gives ``matches`` (and ``event_type``, e.g. SWISS_TEAMS): its PARTICIPANTS are
    TEAMs, and its results are written in MATCH elements (TEAM, OPPOSING_TEAM, their victory
    points as TEAM_SCORE / OPPOSING_TEAM_SCORE), each traveller line saying by DIRECTION where
    the home team sat and giving the board's IMPs to the pairs at N-S and E-W, as EBUScore
    writes a team event; ``boards`` then only gives the hand records.
    """
    method = {"matchpoints": "MATCH_POINTS", "imps": "IMPS", "butler": "BUTLER", "cross_imps": "CROSS_IMPS"}
    matches = list(matches) if matches is not None else None
    event_type = event_type or ("MP_PAIRS" if scoring == "matchpoints" else "IMP_PAIRS")
    if participants is None:
        participants = [
            ParticipantOut(number=int(number), players=[(p, "") for p in (name or "").split(" - ")])
            for number, name in sorted((names or {}).items())
        ]
    root = ElementTree.Element("USEBIO", Version="1.2")
    ElementTree.SubElement(ElementTree.SubElement(root, "CLUB"), "CLUB_NAME").text = club
    event = ElementTree.SubElement(root, "EVENT", EVENT_TYPE=event_type)
    ElementTree.SubElement(event, "EVENT_DESCRIPTION").text = event_name
    ElementTree.SubElement(event, "PROGRAM_NAME").text = program
    if date is not None:
        ElementTree.SubElement(event, "DATE").text = date.strftime("%d/%m/%Y")
    ElementTree.SubElement(event, "VENUE").text = venue
    ElementTree.SubElement(event, "BOARD_SCORING_METHOD").text = method.get(scoring, "MATCH_POINTS")
    if matches is not None:
        ElementTree.SubElement(event, "MATCH_SCORING_METHOD").text = "VPS"
    participants = list(participants)
    boards = list(boards)
    # Two sections or more (each numbering its own boards and tables): a SECTION each, with its
    # pairs and its boards' traveller lines, as the programs write them and read them back.
    sections = sorted(
        ({entry.section for entry in participants} | {r.section for _b, results, _p in boards for r in results}) - {""}
    )
    scopes = [(event, "")] if matches is not None or len(sections) < 2 else []
    for name in sections if not scopes else ():
        scopes.append((ElementTree.SubElement(event, "SECTION", SECTION_ID=name), name))
    for scope, section in scopes:
        _write_participants(
            scope, [e for e in participants if not section or e.section == section], event_type, matches is not None
        )
    handset = ElementTree.Element("HANDSET")  # after EVENT, as the DTD orders them
    for board, _results, _points in boards:
        if not board.deal:
            continue
        record = ElementTree.SubElement(handset, "BOARD")
        ElementTree.SubElement(record, "BOARD_NUMBER").text = str(board.number)
        ElementTree.SubElement(record, "DEALER").text = board.dealer
        vulnerability = board.vulnerability or ""
        ElementTree.SubElement(record, "VULNERABILITY").text = {"None": "-", "All": "Both"}.get(
            vulnerability, vulnerability
        )
        deal = parse_deal(board.deal)
        for seat in "NESW":
            hand = ElementTree.SubElement(record, "HAND")
            ElementTree.SubElement(hand, "DIRECTION").text = seat
            held = deal.hands[seat] or {}
            for suit, label in zip("SHDC", ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")):
                ElementTree.SubElement(hand, label).text = held.get(suit, "")
    tag = "MATCH_POINTS" if scoring == "matchpoints" else "IMPS"
    if matches is None:
        for (scope, section), (board, results, points) in itertools.product(scopes, boards):
            lines = [(index, r) for index, r in enumerate(results) if not section or r.section == section]
            if section and not lines:
                continue
            element = ElementTree.SubElement(scope, "BOARD", EVENT_TYPE=event_type)
            ElementTree.SubElement(element, "BOARD_NUMBER").text = str(board.number)
            for index, result in lines:
                line = ElementTree.SubElement(element, "TRAVELLER_LINE")
                seats: tuple[tuple[str, object], ...] = (
                    ("ROUND", result.round),
                    ("TABLE", result.table),
                    ("NS_PAIR_NUMBER", _pair_number(result.ns, "NS") if mitchell else result.ns),
                    ("EW_PAIR_NUMBER", _pair_number(result.ew, "EW") if mitchell else result.ew),
                )
                for seat_tag, given in seats:
                    if given is not None:
                        ElementTree.SubElement(line, seat_tag).text = str(given)
                _write_play(line, result, board.vulnerability)
                if index in points:
                    ns, ew = points[index]
                    ElementTree.SubElement(line, f"NS_{tag}").text = str(ns)
                    ElementTree.SubElement(line, f"EW_{tag}").text = str(ew)
    vulnerable = {board.number: board.vulnerability for board, _results, _points in boards}
    for match in matches or []:
        element = ElementTree.SubElement(event, "MATCH")
        ElementTree.SubElement(element, "ROUND_NUMBER").text = str(match.round)
        ElementTree.SubElement(element, "TEAM").text = str(match.home)
        ElementTree.SubElement(element, "OPPOSING_TEAM").text = str(match.away)
        if match.home_vp is not None and match.away_vp is not None:
            ElementTree.SubElement(element, "TEAM_SCORE").text = match.home_vp
            ElementTree.SubElement(element, "OPPOSING_TEAM_SCORE").text = match.away_vp
        for number, results, imps in match.boards:
            board_element = ElementTree.SubElement(element, "BOARD")
            ElementTree.SubElement(board_element, "BOARD_NUMBER").text = str(number)
            for result in sorted(results, key=lambda r: r.room != "open"):
                line = ElementTree.SubElement(board_element, "TRAVELLER_LINE")
                ElementTree.SubElement(line, "DIRECTION").text = "NS" if result.room == "open" else "EW"
                if match.table is not None:
                    ElementTree.SubElement(line, "TABLE").text = str(match.table)
                ElementTree.SubElement(line, "NS_PAIR_NUMBER").text = str(result.ns)
                ElementTree.SubElement(line, "EW_PAIR_NUMBER").text = str(result.ew)
                _write_play(line, result, vulnerable.get(number))
                if imps is not None:
                    ns, ew = imps if result.room == "open" else imps[::-1]
                    ElementTree.SubElement(line, "NS_IMPS").text = ns
                    ElementTree.SubElement(line, "EW_IMPS").text = ew
    if len(handset):
        root.append(handset)
    ElementTree.indent(root)
    return bytes(
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        + b'<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">\n'
        + ElementTree.tostring(root, encoding="utf-8", xml_declaration=False)
        + b"\n"
    )


def _write_participants(
    scope: ElementTree.Element, participants: list[ParticipantOut], event_type: str, teams: bool
) -> None:
    """The PARTICIPANTS of ``scope`` (the event, or one of its sections)."""
    listed = ElementTree.SubElement(scope, "PARTICIPANTS", EVENT_TYPE=event_type)
    for entry in participants:
        if teams:
            pair = ElementTree.SubElement(listed, "TEAM", TEAM_ID=str(entry.number))
            ElementTree.SubElement(pair, "TEAM_NAME").text = entry.team_name
        else:
            pair = ElementTree.SubElement(listed, "PAIR")
            ElementTree.SubElement(pair, "PAIR_NUMBER").text = _pair_number(entry.number, entry.direction)
        if entry.direction:
            ElementTree.SubElement(pair, "DIRECTION").text = entry.direction
        for tag, value in (("TOTAL_SCORE", entry.total), ("PERCENTAGE", entry.percentage), ("PLACE", entry.place)):
            if value is not None:
                ElementTree.SubElement(pair, tag).text = str(value)
        for name, national_id in entry.players:
            player = ElementTree.SubElement(pair, "PLAYER")
            ElementTree.SubElement(player, "PLAYER_NAME").text = name
            if national_id:
                ElementTree.SubElement(player, "NATIONAL_ID_NUMBER").text = national_id


def _write_play(line: ElementTree.Element, result: ResultIn, vulnerability: str | None) -> None:
    """A traveller line's contract, declarer, lead, tricks and N-S score, or its artificial code."""
    if result.kind == "played":
        ElementTree.SubElement(line, "CONTRACT").text = result.contract.replace("XX", "**").replace("X", "*")
        if result.contract != "PASS":
            ElementTree.SubElement(line, "PLAYED_BY").text = result.declarer
            ElementTree.SubElement(line, "LEAD").text = result.lead or ""
            ElementTree.SubElement(line, "TRICKS").text = str(result.tricks)
            score = ns_score(result.contract, result.declarer, result.tricks, vulnerability)
        else:
            score = 0
        ElementTree.SubElement(line, "SCORE").text = str(score)
    else:
        ElementTree.SubElement(line, "SCORE").text = result.code or "NP"
