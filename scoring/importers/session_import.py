"""Bring a scoring program's PBN export into an event: its boards, deals and table results.

All or nothing: any fault in the file, or any result the record refuses, rolls the whole
import back and is reported with the line of the file it came from.
"""

import re
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from scoring import services
from scoring.i18n import translate
from bridge.pbn import PbnError, parse_pbn
from scoring.models import Board, Contestant, Session

_ARTIFICIAL_RE = re.compile(r"^A(?P<ns>\d{2})(?P<ew>\d{2})?$", re.I)


class ImportRefused(Exception):
    """The file was refused; ``str()`` says where and why, e.g. ``line 42: Deal: ...``, in the
    active language (the reader's on a page; the settings' LANGUAGE_CODE in a command)."""


@dataclass
class ImportSummary:
    session: Session
    boards: int = 0
    results: int = 0
    contestants_created: list = field(default_factory=list)
    artificial: list = field(default_factory=list)


def import_pbn(*, event, text, session_number=None, by=None):
    """Import ``text`` (a PBN 2.1 file) into ``event``, into session ``session_number``
    (created if missing; a new session after the last one by default)."""
    try:
        games = parse_pbn(text)
    except PbnError as error:
        raise ImportRefused(translate(error)) from None
    if not games:
        raise ImportRefused(_line(1, _("the file holds no boards.")))
    try:
        with transaction.atomic():
            return _import(event, games, session_number, by)
    except _RowRefused as refusal:
        raise ImportRefused(str(refusal)) from None


class _RowRefused(Exception):
    pass


def _line(line, detail):
    """``line 42: ...``, as the PBN reader names a line (bridge/pbn.py)."""
    return _("line %(line)s: %(message)s") % {"line": line, "message": detail}


def _refuse(line, error):
    if isinstance(error, ValidationError) and hasattr(error, "error_dict"):
        detail = "; ".join(f"{name}: {' '.join(messages)}" for name, messages in error.message_dict.items())
    else:
        detail = " ".join(getattr(error, "messages", [str(error)]))
    raise _RowRefused(_line(line, detail))


def _import(event, games, session_number, by):
    if session_number is None:
        last = event.sessions.order_by("-number").first()
        session_number = last.number + 1 if last else 1
    session = event.sessions.filter(number=session_number).first()
    if session is None:
        session = services.create_session(event=event, number=session_number)
    section = session.sections.order_by("name").first()
    if section is None:
        section = services.create_session_section(session=session, name="A")
    summary = ImportSummary(session=session)
    names = _names(games)
    contestants = {c.number: c for c in Contestant.objects.filter(event=event)}
    tables, rounds = {}, {}
    for game in games:
        if Board.objects.filter(session=session, number=game.board).exists():
            raise _RowRefused(_line(game.line, _("board %(board)s is already in %(session)s of this event.") % {
                "board": game.board, "session": session}))
        try:
            board = services.create_board(session=session, number=game.board, dealer=game.dealer,
                                          vulnerability=game.vulnerability,
                                          deal=game.deal.to_pbn() if game.deal and game.deal.complete else "")
        except ValidationError as error:
            _refuse(game.line, error)
        summary.boards += 1
        for row in game.score_rows:
            ns = _contestant(event, contestants, row, "PairId_NS", names, summary)
            ew = _contestant(event, contestants, row, "PairId_EW", names, summary)
            table = _number(row, "Table", default=None)
            round_number = _number(row, "Round", default=1)
            if table not in tables:
                tables[table] = services.add_table(section=section, number=table)
            if round_number not in rounds:
                rounds[round_number] = services.add_round(session=session, number=round_number)
            try:
                _record(board, rounds[round_number], tables[table], ns, ew, row, summary, by)
            except ValidationError as error:
                _refuse(row.line, error)
            summary.results += 1
    return summary


def _record(board, round_, table, ns, ew, row, summary, by):
    if not row.artificial:
        return services.record_result(board=board, round=round_, table=table, ns=ns, ew=ew,
                                      contract=row.contract or "", declarer=row.declarer or "", tricks=row.tricks,
                                      lead=row.get("Lead") or "")
    # Programs write artificial scores as A60 / A40 in the two score columns, or A6040 in one.
    # They are kept as the fixed percentages the program scored (the file cannot say whether
    # the session rule applied); anything else (Bye, ...) is recorded as not played.
    result = services.record_result(board=board, round=round_, table=table, ns=ns, ew=ew, not_played=True)
    codes = [_ARTIFICIAL_RE.match((row.get(column) or "").strip()) for column in ("Score_NS", "Score_EW")]
    if codes[0]:
        ns_percent = int(codes[0]["ns"])
        if codes[0]["ew"]:
            ew_percent = int(codes[0]["ew"])
        elif codes[1]:
            ew_percent = int(codes[1]["ns"])
        else:
            ew_percent = 100 - ns_percent
        services.set_effective_score(
            result=result, kind="artificial", score={"ns": f"{ns_percent}%", "ew": f"{ew_percent}%"},
            reason=f"Imported from the scoring program's export as A{ns_percent}{ew_percent}",
            cause_type="import", by=by, outside_agency=ns_percent + ew_percent > 100)
        summary.artificial.append(f"board {board.number}, table {table.number}: A{ns_percent}{ew_percent}")
    else:
        summary.artificial.append(f"board {board.number}, table {table.number}: {row.artificial} (not played)")
    return result


def _number(row, column, default):
    value = row.get(column)
    if value in (None, ""):
        if default is None:
            raise _RowRefused(_line(row.line, "%s: %s" % (column, _("the column is missing or empty."))))
        return default
    try:
        return int(value)
    except ValueError:
        raise _RowRefused(_line(row.line, "%s: %s" % (column, _("'%(value)s' is not a number.") % {
            "value": value}))) from None


def _contestant(event, contestants, row, column, names, summary):
    number = _number(row, column, default=None)
    if number not in contestants:
        contestants[number] = services.enter_contestant(event=event, number=number, members=[],
                                                        name=names.get(number, ""))
        summary.contestants_created.append(number)
    return contestants[number]


def _names(games):
    """Pair names from a TotalScoreTable, where the program wrote one."""
    names = {}
    for game in games:
        for row in game.total_score_rows:
            pair, name = row.get("PairId"), row.get("Names")
            if pair and name and pair.isdigit():
                names[int(pair)] = name.strip('"')
    return names
