"""Bring a scoring program's results file into an event: its boards, deals and table results.

``import_file(event=..., data=bytes)`` reads PBN 2.1, USEBIO 1.2 or a Bridgemate server file
(.BWS), told apart by content, checks the file against the event (its kind of scoring, its
contestants, what is already in it) and records everything through the scoring services in one
transaction, as who imports it (a command: core.policy.SYSTEM): all or nothing.
``dry_run=True`` does the same and rolls it back: the preview a director confirms shows
exactly what the import will do. ``replace=True`` swaps an imported session's results for the
file's, all or nothing: refused while a ruling refers to the session's boards, tables or results
(the refusal names each ruling). A refusal (:class:`ImportRefused`) names each line (or
element) and field at fault; warnings name what was read past.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext as _

from audit import services as audit
from bridge.bridgemate import read_bws
from bridge.interchange import decode, identify
from bridge.lin import looks_like_lin, looks_like_vugraph, session_from_lin, session_from_vugraph
from bridge.messages import MessageError
from bridge.pbn import generator_of
from bridge.usebio import parse_usebio
from core import texts
from core.i18n import translate
from scoring.importers import faulty_rows
from scoring.importers.file_kind import not_results_text
from scoring.importers.session_store import Importer, ImportSummary
from scoring.models import Board, Event, Match, Result, Round, Section
from scoring.texts import session_param

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.db.models import Model

    from bridge.interchange import Notice, SessionFile


class ImportRefused(Exception):
    """The file was refused; ``str()`` says where and why, e.g. ``line 42: Deal: ...``, in the
    active language (the reader's on a page; the settings' LANGUAGE_CODE in a command).
    ``refusals`` lists every reason found (up to 50), ``warnings`` what was read past;
    ``field`` is the request's field at fault (``file``, or ``session`` for a replace)."""

    def __init__(self, refusals: Iterable[str], warnings: Iterable[str] = (), field: str = "file") -> None:
        self.refusals = list(refusals)
        self.warnings = list(warnings)
        self.field = field
        super().__init__("; ".join(self.refusals))


class _Rollback(Exception):
    pass


def check_size(size: int) -> None:
    """Refuse a file over INTERCHANGE_MAX_FILE_BYTES, naming its size and the limit."""
    limit = settings.INTERCHANGE_MAX_FILE_BYTES
    if size > limit:
        raise ImportRefused(
            [
                _(
                    "The file is %(size)s bytes; the limit is %(limit)s bytes "
                    "(INTERCHANGE_MAX_FILE_BYTES). Nothing was read."
                )
                % {"size": size, "limit": limit}
            ]
        )


def read_file(data: bytes) -> SessionFile:
    """The :class:`bridge.interchange.SessionFile` of a PBN or USEBIO file's bytes."""
    check_size(len(data))
    if data[4:19] in (b"Standard Jet DB", b"Standard ACE DB"):
        try:
            return read_bws(data)  # a Bridgemate server file (Microsoft Access)
        except MessageError as error:
            raise ImportRefused([translate(error)]) from None
    if reason := not_results_text(data):  # not text a reader here takes: what it is (file_kind)
        raise ImportRefused([reason])
    text = decode(data)
    warnings: list[Notice] = []
    try:
        if text.lstrip().startswith("<"):
            return parse_usebio(data.removeprefix(b"\xef\xbb\xbf").lstrip())
        if looks_like_lin(text):  # BBO's LIN: hand records and results by players' names; a vugraph match
            return session_from_vugraph(text) if looks_like_vugraph(text) else session_from_lin(text)
        parsed = faulty_rows.pbn_without_faulty_rows(text, warnings)
        # [Generator], else the META comment with its version, else [Application] (Ruter writes both).
        parsed.generator = parsed.generator or generator_of(text) or parsed.application
        return parsed
    except MessageError as error:
        raise ImportRefused([translate(error)], [translate(w) for w in warnings]) from None
    except RecursionError:
        raise ImportRefused([_("The file is nested too deeply to read.")]) from None


def import_file(
    *,
    event: Event,
    data: bytes,
    session_number: int | None = None,
    by: User | None = None,
    dry_run: bool = False,
    replace: bool = False,
    skip_faulty: bool = False,
) -> ImportSummary:
    """Import a results file (bytes) into ``event``, into session ``session_number`` (created if
    missing; a new session after the last one by default). With ``replace``, the session
    ``session_number`` must exist and its boards and results are swapped for the file's.
    Returns an ImportSummary; raises ImportRefused with every reason, having written nothing."""
    parsed = read_file(data)
    if parsed.faulty and not (dry_run or skip_faulty):  # the director confirms the rows left out
        raise ImportRefused([*parsed.faulty, faulty_rows.confirmation(parsed)], [translate(w) for w in parsed.warnings])
    faulty_rows.warn(parsed)
    identify(parsed)
    digest = hashlib.sha256(data).hexdigest()
    summary = None
    replaced = None
    try:
        with transaction.atomic():
            if replace:
                try:
                    replaced = _clear_for_replace(event, session_number)
                except ImportRefused as refusal:
                    refusal.warnings = [translate(w) for w in parsed.warnings]
                    raise
            summary = Importer(event, parsed, session_number, by).run()
            summary.digest, summary.replaced = digest, replaced
            if summary.refusals:
                raise _Rollback
            after = {"format": parsed.format, "sha256": digest, "boards": summary.boards, "results": summary.results}
            if summary.left_out:
                after["left_out"] = summary.left_out  # the trail says what the file held and was not placed
            if replaced is None:
                audit.record(
                    action="session.imported",
                    obj=summary.session,
                    actor=by,
                    tournament=event.tournament_id,
                    after=after,
                    summary=texts.text(
                        "scoring.imported",
                        event=event.name,
                        session=session_param(summary.session),
                        format=parsed.format,
                        boards=summary.boards,
                        results=summary.results,
                    ),
                )
            else:
                audit.record(
                    action="session.replaced",
                    obj=summary.session,
                    actor=by,
                    tournament=event.tournament_id,
                    before=replaced,
                    after=after,
                    summary=texts.text(
                        "scoring.replaced",
                        event=event.name,
                        session=session_param(summary.session),
                        format=parsed.format,
                        boards=summary.boards,
                        results=summary.results,
                        old_boards=replaced["boards"],
                        old_results=replaced["results"],
                    ),
                )
            if dry_run:
                summary.dry_run = True
                raise _Rollback
    except _Rollback:
        assert summary is not None  # for mypy: rolled back only once there is a summary
        if summary.refusals:
            raise ImportRefused(summary.refusals, summary.warnings) from None
    assert summary is not None  # for mypy: set when nothing was raised
    return summary


def _clear_for_replace(event: Event, session_number: int | None) -> dict[str, int]:
    """Empty session ``session_number`` of ``event`` for a replace: its matches, results, rounds,
    tables and boards go (their scores and change log with them; contestants, the session and
    its official-score postings stay). Returns what it held. Refused, naming each, while rulings
    refer to them: a ruling is about a board at a table and its result, and a replace would take
    them from under it (the director corrects those results one by one instead)."""
    if session_number is None:
        raise ImportRefused([_("Session: give the number of the session to replace.")], field="session")
    session = event.sessions.filter(number=session_number).first()
    if session is None:
        raise ImportRefused(
            [
                _("Session: %(event)s has no session %(number)s, so there is nothing to replace.")
                % {"event": event.name, "number": session_number}
            ],
            field="session",
        )
    before = {
        "boards": Board.objects.filter(session=session).count(),
        "results": Result.objects.filter(board__session=session).count(),
    }
    try:
        with transaction.atomic():
            Match.objects.filter(round__session=session).delete()
            Result.objects.filter(board__session=session).delete()
            Round.objects.filter(session=session).delete()
            Section.objects.filter(session=session).delete()
            Board.objects.filter(session=session).delete()
    except ProtectedError as error:
        blockers = sorted({_blocker(obj) for obj in error.protected_objects})
        raise ImportRefused(
            [
                _(
                    "%(what)s refers to %(session)s of %(event)s: a replace would take its board, table or result from "
                    "under it. Correct those results one by one instead, or import the file as another session."
                )
                % {"what": what, "session": session, "event": event.name}
                for what in blockers
            ],
            field="session",
        ) from None
    return before


def _blocker(obj: Model) -> str:
    """``Ruling 7 (board 3, table 2)``: what protects a record from a replace, and where."""
    board, table = getattr(obj, "board", None), getattr(obj, "table", None)
    if board is not None and table is not None:
        return _("%(what)s (board %(board)s, table %(table)s)") % {
            "what": obj,
            "board": board.number,
            "table": table.number,
        }
    return str(obj)


__all__ = ["ImportRefused", "ImportSummary", "check_size", "import_file", "read_file"]
