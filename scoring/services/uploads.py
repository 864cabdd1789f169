"""A club's upload to a field, held until its flags are answered (issue #44; the checks and
their rule: scoring/field_uploads.py).

``upload_to_field`` takes a club's results by number (board, round, table, N-S and E-W pair,
contract, declarer, tricks, and the N-S score the club's program gave), refuses at the door what
could never be recorded (as ``record_results`` refuses it: nothing is kept), checks the rest
against the field and keeps it held with its flags, or joins it at once when nothing is flagged.
``confirm_upload_flag`` and ``correct_upload_row`` answer a flag (the field's chief director:
core.policy "confirm_upload"); the answer to the last open flag joins the upload: its rows are
recorded as the field's results (``record_results``), and only then reach its matchpoints.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import services as audit
from core import policy
from scoring.field_uploads import check_rows, field_name
from scoring.models import Board, Contestant, FieldUpload, Round, Session, Table, UploadFlag
from scoring.services.results import ResultsRefused, record_results

NUMBERS = ("board", "round", "table", "ns", "ew")


class _DryRun(Exception):
    pass


def _whole(value: Any) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | str) or not str(value).lstrip("+-").isdigit():
        raise ValueError(value)
    return int(value)


def _clean_row(row: Any) -> dict[str, Any]:
    """One row as kept: the numbers as numbers, the contract's words as given (checked at the door)."""
    if not isinstance(row, dict):
        raise ValueError(row)
    cleaned: dict[str, Any] = {name: _whole(row.get(name)) for name in NUMBERS}
    if None in cleaned.values():
        raise ValueError(row)
    cleaned["section"] = str(row.get("section") or "")
    cleaned["not_played"] = bool(row.get("not_played"))
    cleaned["contract"] = "" if cleaned["not_played"] else str(row.get("contract") or "").strip().upper()
    cleaned["declarer"] = "" if cleaned["not_played"] else str(row.get("declarer") or "").strip().upper()
    cleaned["tricks"] = None if cleaned["not_played"] else _whole(row.get("tricks"))
    cleaned["lead"] = str(row.get("lead") or "").strip().upper()
    cleaned["score_ns"] = None if cleaned["not_played"] else _whole(row.get("score_ns"))
    if cleaned["contract"] in ("P", "PASS", "PASSED OUT"):
        cleaned.update(contract="PASS", declarer="", tricks=None)
    return cleaned


def _clean_rows(rows: Any) -> list[dict[str, Any]]:
    if not isinstance(rows, list) or not rows:
        raise ValidationError({"results": _("Send the club's results: at least one row.")})
    cleaned, problems = [], []
    for line, row in enumerate(rows, start=1):
        try:
            cleaned.append(_clean_row(row))
        except ValueError:
            problems.append(
                _("line %(line)s: %(message)s")
                % {"line": line, "message": _("board, round, table, ns and ew are numbers; tricks and score_ns too")}
            )
    if problems:
        raise ValidationError({"results": problems})
    return cleaned


def _missing(key: str) -> str:
    if key == "board":
        return _("%(field)s has no board %(number)s")
    if key == "round":
        return _("%(field)s has no round %(number)s")
    if key == "table":
        return _("%(field)s has no table %(number)s")
    return _("%(field)s has no pair %(number)s")


def _resolve(session: Session, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows as ``record_results`` takes them (the records their numbers name), or refused
    naming each line, what it names and the field."""
    boards = {board.number: board for board in Board.objects.filter(session=session)}
    rounds = {round_.number: round_ for round_ in Round.objects.filter(session=session)}
    tables: dict[tuple[str, int], Table] = {}
    for table in Table.objects.filter(section__session=session).select_related("section"):
        tables[(table.section.name, table.number)] = table
        tables.setdefault(("", table.number), table)
    pairs: dict[int, Contestant] = {}
    for contestant in Contestant.objects.filter(event=session.event_id):
        pairs.setdefault(contestant.number, contestant)
    name, resolved, problems = field_name(session), [], []
    for line, row in enumerate(rows, start=1):
        found = {
            "board": boards.get(row["board"]),
            "round": rounds.get(row["round"]),
            "table": tables.get((row["section"], row["table"])),
            "ns": pairs.get(row["ns"]),
            "ew": pairs.get(row["ew"]),
        }
        missing = [key for key, value in found.items() if value is None]
        for key in missing:
            said = _missing(key) % {"field": name, "number": row[key]}
            problems.append(_("line %(line)s: %(message)s") % {"line": line, "message": said})
        if not missing:
            values = {key: row[key] for key in ("contract", "declarer", "tricks", "lead", "not_played")}
            resolved.append(found | values)
    if problems:
        raise ValidationError({"results": problems})
    return resolved


def _at_the_door(session: Session, rows: list[dict[str, Any]], by: Any) -> None:
    """Refuse what could never be recorded, as recording it would (rolled back: nothing written)."""
    resolved = _resolve(session, rows)
    try:
        with transaction.atomic():
            record_results(rows=resolved, by=by)
            raise _DryRun
    except _DryRun:
        pass
    except ResultsRefused as refused:
        name = field_name(session)
        raise ValidationError({"results": [f"{name}: {message}" for message in refused.messages]}) from None


def _flags(upload: FieldUpload, rows: list[dict[str, Any]], only: set[tuple[int, str]] | None = None) -> None:
    found = check_rows(upload.session, upload.club, rows)
    UploadFlag.objects.bulk_create(
        UploadFlag(upload=upload, row=f.row, board=f.board, table=f.table, code=f.code, params=f.params)
        for f in found
        if only is None or (f.row, f.code) in only
    )


def _join(upload: FieldUpload, by: Any) -> None:
    """The upload's rows recorded as the field's results: from now they count in its matchpoints."""
    record_results(rows=_resolve(upload.session, upload.rows), by=by)
    upload.state, upload.joined_at = FieldUpload.State.JOINED, timezone.now()
    upload.save(update_fields=["state", "joined_at"])
    audit.record(
        action="field_upload.joined",
        obj=upload,
        actor=policy.person(by),
        after={"club": upload.club, "results": len(upload.rows)},
        tournament=upload.session.event.tournament_id,
    )


@transaction.atomic
def upload_to_field(*, session: Session, club: str, rows: Any, by: Any) -> FieldUpload:
    """Receive ``club``'s results for ``session``'s field: held with a flag for each check a row
    fails, or joined at once when none does. Refused, with nothing kept, for a row that could
    never be recorded (naming its line, the field and why)."""
    policy.require(by, "import", session.event.tournament)
    club = (club or "").strip()
    if not club:
        raise ValidationError({"club": _("Name the club whose results these are.")})
    cleaned = _clean_rows(rows)
    _at_the_door(session, cleaned, by)
    upload = FieldUpload.objects.create(session=session, club=club[:200], rows=cleaned, uploaded_by=policy.person(by))
    _flags(upload, cleaned)
    flags = list(upload.flags.all())
    audit.record(
        action="field_upload.received",
        obj=upload,
        actor=policy.person(by),
        after={"club": upload.club, "results": len(cleaned), "flags": [[f.board, f.table, f.code] for f in flags]},
        tournament=session.event.tournament_id,
    )
    if not flags:
        _join(upload, by)
    return upload


def _answerable(flag: UploadFlag, by: Any) -> FieldUpload:
    """The flag's upload, locked, once ``by`` may answer it and it is open (else refused, naming the field)."""
    upload = FieldUpload.objects.select_for_update().select_related("session__event__tournament").get(pk=flag.upload_id)
    name = field_name(upload.session)
    try:
        policy.require(by, "confirm_upload", upload.session.event.tournament)
    except PermissionDenied as refused:
        raise PermissionDenied(f"{name}: {refused}") from None
    flag.refresh_from_db()
    if upload.state == FieldUpload.State.JOINED or flag.answer:
        raise ValidationError(
            {
                "flag": _("%(club)s's upload to %(field)s: this flag is answered already.")
                % {"club": upload.club, "field": name}
            }
        )
    return upload


def _answer(flag: UploadFlag, answer: str, by: Any, note: str = "") -> None:
    flag.answer, flag.answered_by, flag.answered_at = answer, policy.person(by), timezone.now()
    flag.note = (note or "").strip()[:200]
    flag.save(update_fields=["answer", "answered_by", "answered_at", "note"])


def _finish(upload: FieldUpload, by: Any) -> FieldUpload:
    if not upload.flags.filter(answer=UploadFlag.Answer.OPEN).exists():
        _join(upload, by)
    return upload


@transaction.atomic
def confirm_upload_flag(*, flag: UploadFlag, by: Any, note: str = "") -> FieldUpload:
    """The flagged row stands as the club sent it (its contract's score is the one recorded);
    the last flag answered joins the upload to the field."""
    upload = _answerable(flag, by)
    _answer(flag, UploadFlag.Answer.CONFIRMED, by, note)
    audit.record(
        action="field_upload.flag_confirmed",
        obj=upload,
        actor=policy.person(by),
        after={"club": upload.club, "board": flag.board, "table": flag.table, "code": flag.code, "note": flag.note},
        tournament=upload.session.event.tournament_id,
    )
    return _finish(upload, by)


@transaction.atomic
def correct_upload_row(
    *, flag: UploadFlag, by: Any, contract: str, declarer: str = "", tricks: Any = None, score_ns: Any = None
) -> FieldUpload:
    """The flagged row corrected (its contract, declarer, tricks and the N-S score sent) and the
    upload checked again: the row's open flags and any that no longer hold are answered
    "corrected", a check the corrected row still fails is flagged again."""
    upload = _answerable(flag, by)
    rows = [dict(row) for row in upload.rows]
    before = rows[flag.row]
    fields = {"contract": contract, "declarer": declarer, "tricks": tricks, "score_ns": score_ns}
    try:
        rows[flag.row] = _clean_row({**before, **fields, "not_played": False})
    except ValueError:
        raise ValidationError({"tricks": _("Tricks: a whole number from 0 to 13.")}) from None
    _at_the_door(upload.session, rows, by)
    upload.rows = rows
    upload.save(update_fields=["rows"])
    now = {(found.row, found.code) for found in check_rows(upload.session, upload.club, rows)}
    kept = set()
    for other in upload.flags.exclude(answer=UploadFlag.Answer.CORRECTED):
        if other.answer == UploadFlag.Answer.OPEN and (other.row == flag.row or (other.row, other.code) not in now):
            _answer(other, UploadFlag.Answer.CORRECTED, by)
        elif other.row != flag.row:
            kept.add((other.row, other.code))
    _flags(upload, rows, only=now - kept)
    audit.record(
        action="field_upload.row_corrected",
        obj=upload,
        actor=policy.person(by),
        before={"board": flag.board, "table": flag.table, "row": before},
        after={"board": flag.board, "table": flag.table, "row": rows[flag.row]},
        tournament=upload.session.event.tournament_id,
    )
    return _finish(upload, by)
