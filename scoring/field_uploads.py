"""The checks a club's upload to a field passes before it joins (issue #44, item 2, "checks
before anything is final"): what simultaneous-pairs organisers check by hand in every club's
upload, run on the upload's rows against the board and the field's joined results.

A field is a session whose results several clubs (or the sessions of a multi-session field)
upload: ``services.upload_to_field`` keeps the upload's rows on a ``FieldUpload``, held, with a
flag (``UploadFlag``) for each check a row fails; the rows are recorded as the field's results,
and so count in its matchpoints and standings, only once every flag is confirmed or corrected
by the field's chief director (``services.confirm_upload_flag``, ``services.correct_upload_row``);
an upload with no flag joins at once. The field a row is checked against is the session's
results: the joined uploads only (a held upload's rows are not results).

The checks, each on the board and table of one row:

- ``impossible_score``: the N-S score the club sent is one no contract, declarer and number of
  tricks gives at the board's vulnerability (``bridge.engine.contract.possible_ns_scores``, the
  Law 77 table); a score not ending in 0 is one of them, said so;
- ``vulnerability``: the score sent is a possible one but not what the row's contract and
  tricks make at the board's vulnerability (scored at another vulnerability, or typed wrong);
- ``passed_out_club``: every table of the club (at least ``CLUB_MIN``) passed the board out
  while the field bid it (at least one of its tables);
- ``club_at_one_end``: on a board the field played at least ``FIELD_END_MIN`` times, every N-S
  score of the club (at least ``CLUB_END_MIN`` tables) beats ``END`` (95 %) of the field's N-S
  scores, or every one is beaten by 95 % of them: the club's results all in the field's top or
  bottom 5 % (a board scored the wrong way round, N-S for E-W);
- ``far_from_field``: on a board the field played at least ``FIELD_MIN`` times, the row's N-S
  score (its contract's) lies more than ``MARGIN`` points outside the field's range (below its
  lowest N-S score or above its highest): a score no table of the field came near, with the
  board's double-dummy par beside it where the deal is known (``score_checks.board_par``).

A row's score checked by the last two is the one it would join with: its contract's Law 77
score (a result's score is never typed: ``Result.clean``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q
from django.utils.translation import gettext as _

from bridge.engine.contract import ContractError, ns_score, parse_contract, possible_ns_scores
from scoring.models import Board, FieldUpload, Result, Session, UploadFlag
from scoring.score_checks import board_par, par_words

FIELD_MIN = 8  # the field's played results on a board before its range says anything
MARGIN = 200  # points outside the field's range that make a score far from it
CLUB_MIN = 2  # tables of a club that passed a board out before it is flagged
END = 0.95  # the share of the field a club's every score beats (or is beaten by): its top or bottom 5 %
FIELD_END_MIN = 20  # the field's played results on a board before its top and bottom 5 % say anything
CLUB_END_MIN = 3  # the club's played results on the board before they all sit at one end


def field_name(session: Session) -> str:
    """A field as the refusals name it: its event and session ("Simultaneous, Session 1")."""
    return f"{session.event.name}, {session}"


@dataclass(frozen=True)
class Found:
    """One check failed: the row (its index in the upload), its board and table by number."""

    row: int
    board: int
    table: int
    code: str
    params: dict[str, Any]


def _signed(value: int) -> str:
    return f"{value:+d}"


def message(code: str, params: dict[str, Any]) -> str:
    """What a flag says, in the reader's language."""
    if code == "impossible_score" and params.get("not_zero"):
        return _("N-S %(score)s does not end in 0: no contract scores it") % params
    if code == "impossible_score":
        return _("N-S %(score)s: no contract and result scores it at this vulnerability (%(vulnerability)s)") % {
            **params,
            "vulnerability": dict(Board._meta.get_field("vulnerability").choices or [])[params["vulnerability"]],
        }
    if code == "vulnerability":
        return _("N-S %(recorded)s recorded; %(contract)s makes N-S %(expected)s at this vulnerability") % params
    if code == "passed_out_club":
        return _("every table of %(club)s passed this board out; the field bid it at %(bid)s of %(tables)s tables") % (
            params
        )
    if code == "club_at_one_end" and params["top"]:
        return (
            _(
                "every N-S score of %(club)s on this board (%(tables)s tables) beats 95 in 100 of the field's "
                "%(field)s: N-S and E-W the wrong way round?"
            )
            % params
        )
    if code == "club_at_one_end":
        return (
            _(
                "every N-S score of %(club)s on this board (%(tables)s tables) is beaten by 95 in 100 of the field's "
                "%(field)s: N-S and E-W the wrong way round?"
            )
            % params
        )
    return _("N-S %(score)s is %(by)s points outside the field's range (%(low)s to %(high)s at %(tables)s tables)") % (
        params
    )


def par_of(params: dict[str, Any]) -> str:
    """The board's double-dummy par beside a score far from the field, in words ("" where the deal
    is not known)."""
    return par_words(params.get("par"))


def row_score(row: dict[str, Any], vulnerability: str) -> int | None:
    """The N-S score a row joins with (its contract's), or None for a board not played."""
    if row.get("not_played"):
        return None
    try:
        return ns_score(
            parse_contract(row.get("contract")), row.get("declarer") or None, row.get("tricks"), vulnerability
        )
    except ContractError:
        return None


def _score_flag(index: int, row: dict[str, Any], board: Board) -> Found | None:
    sent, joins = row.get("score_ns"), row_score(row, board.vulnerability)
    if sent is None or joins is None:
        return None
    where = (index, board.number, row["table"])
    if sent % 10 or sent not in possible_ns_scores(board.vulnerability):
        params = {"score": _signed(sent), "vulnerability": board.vulnerability, "not_zero": bool(sent % 10)}
        return Found(*where, "impossible_score", params)
    if sent != joins:
        shown = Result(contract=row["contract"], declarer=row.get("declarer") or "", tricks=row.get("tricks"))
        params = {"recorded": _signed(sent), "contract": str(shown.contract_display), "expected": _signed(joins)}
        return Found(*where, "vulnerability", params)
    return None


def _field_scores(session: Session) -> dict[int, list[int]]:
    """The field's played N-S scores by board number (its joined results)."""
    scores: dict[int, list[int]] = defaultdict(list)
    played = Result.objects.filter(board__session=session, not_played=False, score_ns__isnull=False)
    for number, score in played.values_list("board__number", "score_ns").order_by():
        scores[number].append(int(score or 0))
    return scores


def _club_at_one_end(
    club: str, number: int, played: list[tuple[int, dict[str, Any], int]], scores: list[int]
) -> list[Found]:
    """The club's every score on the board above (or below) ``END`` of the field's: one flag."""
    if len(scores) < FIELD_END_MIN or len(played) < CLUB_END_MIN:
        return []
    club_scores, needed = [score for _index, _row, score in played], END * len(scores)
    above = all(sum(other < score for other in scores) >= needed for score in club_scores)
    below = all(sum(other > score for other in scores) >= needed for score in club_scores)
    if not (above or below):
        return []
    first = played[0]
    params = {"club": club, "tables": len(played), "field": len(scores), "top": above}
    return [Found(first[0], number, first[1]["table"], "club_at_one_end", params)]


def check_rows(session: Session, club: str, rows: list[dict[str, Any]]) -> list[Found]:
    """Every check the rows of ``club``'s upload fail against ``session``'s field, by board and table."""
    boards = {board.number: board for board in Board.objects.filter(session=session)}
    field = _field_scores(session)
    found: list[Found] = []
    by_board: dict[int, list[tuple[int, dict[str, Any], int]]] = defaultdict(list)
    for index, row in enumerate(rows):
        board = boards[row["board"]]
        if flag := _score_flag(index, row, board):
            found.append(flag)
        score = row_score(row, board.vulnerability)
        if score is not None:
            by_board[board.number].append((index, row, score))
    for number, played in by_board.items():
        scores = field.get(number, [])
        passed = [index for index, row, _score in played if parse_contract(row["contract"]).passed_out]
        bid = sum(1 for score in scores if score != 0)
        if len(played) >= CLUB_MIN and len(passed) == len(played) and bid:
            first = played[0]
            params = {"club": club, "bid": bid, "tables": len(scores)}
            found.append(Found(first[0], number, first[1]["table"], "passed_out_club", params))
        found += _club_at_one_end(club, number, played, scores)
        if len(scores) < FIELD_MIN:
            continue
        low, high = min(scores), max(scores)
        par: list[dict | None] = []  # the board's double-dummy par, solved once, where a score is far
        for index, row, score in played:
            outside = low - score if score < low else score - high
            if outside > MARGIN:
                par = par or [board_par(boards[number])]
                params = {"score": _signed(score), "by": outside, "low": _signed(low), "high": _signed(high)}
                params |= {"tables": len(scores), "par": par[0]}
                found.append(Found(index, number, row["table"], "far_from_field", params))
    return sorted(found, key=lambda flag: (flag.board, flag.table, flag.code))


def session_uploads(session: Session) -> list[FieldUpload]:
    """The uploads to ``session``'s field, oldest first, each with its open flags counted (``open_flags``)."""
    open_ = Count("flags", filter=Q(flags__answer=UploadFlag.Answer.OPEN))
    return list(FieldUpload.objects.filter(session=session).annotate(open_flags=open_))
