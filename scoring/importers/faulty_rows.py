"""A PBN file's faulty result rows left out (issue #40): one mistyped contract on 1 of 192 lines
no longer loses the other 191. Each row refused is left out by the reader, the file read once;
the rows left out, with their reasons, wait for the director's confirmation (session_import)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from bridge.interchange import Notice, SessionFile
from bridge.pbn import PbnError, parse_pbn, session_from_pbn
from core.i18n import translate

# At most this many faulty result rows are left out of a file; past it the file is refused whole,
# as one with its results in another form.
FAULTY_ROWS = 50


def pbn_without_faulty_rows(text: str, warnings: list[Notice]) -> SessionFile:
    """The session of a PBN text, its faulty result rows left out: a row of a ScoreTable that is
    refused (a mistyped contract, a score Law 77 does not give) is left out of its table by the
    reader, so one bad line of 192 does not lose the other 191, and the file is read once
    however many rows are faulty (before, it was read again for each). Each row left out is
    kept in ``SessionFile.faulty`` with its reason; the import needs the director's confirmation
    for them. A refusal the reader raises on a result row all the same is still read past by
    commenting the row out and reading the file again (a backstop: none is known)."""
    lines = text.splitlines()
    faulty: list[str] = []
    while True:
        warnings.clear()
        errors: list[PbnError] = []
        try:
            games = parse_pbn("\n".join(lines) if faulty else text, warnings, errors)
            if not games:
                raise PbnError(1, _("the file holds no boards."))
            parsed = session_from_pbn(games, warnings, errors)
        except PbnError as error:
            row = error.line
            if row is None or len(faulty) + len(errors) >= FAULTY_ROWS or not _is_result_row(lines, row):
                raise
            faulty.append(translate(error))
            lines[row - 1] = "%" + lines[row - 1]  # a % line is skipped: the line numbers stay
            continue
        errors.sort(key=lambda error: error.line or 0)
        if len(faulty) + len(errors) > FAULTY_ROWS:
            raise errors[FAULTY_ROWS - len(faulty)]
        parsed.faulty = faulty + [translate(error) for error in errors]
        parsed.left_out += len(parsed.faulty)
        return parsed


def _is_result_row(lines: list[str], number: int) -> bool:
    """Whether line ``number`` (from 1) is a row of a ScoreTable: a line of section data under
    the table's tag, not a tag, comment or blank line."""
    if not 1 <= number <= len(lines):
        return False
    line = lines[number - 1].lstrip()
    if not line or line[0] in "[%{;":
        return False
    for above in range(number - 2, -1, -1):
        text = lines[above].lstrip()
        if not text:
            return False  # a blank line ends a game: not inside a table
        if text.startswith("["):
            return text.startswith("[ScoreTable ")
    return False


def confirmation(parsed: SessionFile) -> str:
    """What the director confirms: the file's faulty rows are left out, the rest imported."""
    return _(
        "%(n)s result rows of the file are faulty (listed above) and are left out: the other results are "
        "imported without them once you confirm (Import on the preview page; skip_faulty with the API; "
        "--skip-faulty with import_pbn)."
    ) % {"n": len(parsed.faulty)}


def warn(parsed: SessionFile) -> None:
    """The preview's (and the confirmed import's) warnings: each row left out, and what it means."""
    if parsed.faulty:
        parsed.warnings[:0] = [*(_("%(row)s: left out") % {"row": row} for row in parsed.faulty), confirmation(parsed)]
