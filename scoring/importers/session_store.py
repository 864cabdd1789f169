"""Storing a results file that was read into an event (the second half of
:mod:`scoring.importers.session_import`, which reads the file and runs this in one transaction):
the file checked against the event (its kind of scoring, its contestants, what is already in
it), the scoring method its program used recorded with the event, and its boards, sessions,
sections, tables, rounds, matches, contestants and table results written through the scoring
services. :class:`Importer` collects every refusal (up to ``MAX_REFUSALS``) and warning in the
:class:`ImportSummary` it returns; the caller rolls back when there are refusals."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from bridge.deals import DealError, parse_deal
from bridge.interchange import Identity, method_of, name_of, scoring_label, unplayed
from core import policy, texts
from core.i18n import translate
from scoring import services
from scoring.models import Board, Contestant, Event, Match, Result, Round, Session
from scoring.services.common import in_words

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from bridge.interchange import BoardIn, ResultIn, SessionFile
    from scoring.models import Table

MAX_REFUSALS = 50

# What each kind of event accepts from a file's [Scoring] (or USEBIO's scoring method).
_ACCEPTS: dict[str, set[str]] = {
    Event.Kind.MP_PAIRS: {"matchpoints"},
    Event.Kind.INDIVIDUAL: {"matchpoints"},
    Event.Kind.IMP_PAIRS_BUTLER: {"butler", "imps"},
    Event.Kind.IMP_PAIRS_CROSS: {"cross_imps", "imps"},
    Event.Kind.TEAMS_ROUND_ROBIN: {"imps"},
    Event.Kind.TEAMS_SWISS: {"imps"},
    Event.Kind.KNOCKOUT_TEAMS: {"imps"},
}
_AVERAGES = {"60%": "AVE+", "50%": "AVE", "40%": "AVE-"}


@dataclass
class ImportSummary:
    """What an import did (or, for a preview, would do)."""

    session: Session | None  # None when the file is refused before a session is chosen
    format: str = ""
    boards: int = 0
    results: int = 0
    contestants_created: list[Identity] = field(default_factory=list)  # as the file numbers them
    artificial: list = field(default_factory=list)
    not_played: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    board_numbers: list = field(default_factory=list)
    dry_run: bool = False
    digest: str = ""
    refusals: list[str] = field(default_factory=list)
    replaced: dict | None = None  # a replace: what the session held before ({"boards": n, "results": m})
    left_out: int = 0  # the file's table results that could not be placed (the warnings say why)


def _line(line: int | None, detail: str) -> str:
    return _("line %(line)s: %(message)s") % {"line": line, "message": detail}


def _where(item: BoardIn | ResultIn, detail: str) -> str:
    if getattr(item, "where", ""):
        return f"{translate(item.where)}: {detail}"
    return _line(item.line, detail)


_detail = in_words


def _joins(board: Board, item: BoardIn, played: bool, brings: bool) -> bool:
    """Whether a file's board completes the same board already in the session, in either order:
    the same dealer, vulnerability and (where both have one) deal, and one of the two brings the
    deal, the other the results."""
    if (item.dealer and item.dealer != board.dealer) or (
        item.vulnerability and item.vulnerability != board.vulnerability
    ):
        return False
    if board.deal and item.deal and _deal_key(board.deal) != _deal_key(item.deal):
        return False
    if played and brings:
        return False
    return (brings and not played and bool(board.deal or not item.deal)) or (
        bool(item.deal) and not board.deal and not brings
    )


def _deal_key(deal: str) -> str:
    """A deal as one text whatever seat it was written from (N:... and E:... alike)."""
    try:
        hands = parse_deal(deal).hands
    except DealError:
        return deal
    return " ".join(".".join((hands[seat] or {}).get(suit, "") for suit in "SHDC") for seat in "NESW")


class Importer:
    def __init__(self, event: Event, parsed: SessionFile, session_number: int | None, by: User | None) -> None:
        self.event, self.parsed, self.session_number, self.by = event, parsed, session_number, by
        self.actor = by if by is not None else policy.SYSTEM  # who writes the record
        self.refusals: list[str] = []
        self.warnings = [translate(w) for w in parsed.warnings]
        # Boards already in the session that the file completes: a hand record's deals for the
        # results a Bridgemate file brought, or the results for a hand record's boards.
        self.joined: dict[int, Board] = {}

    def refuse(self, text: str) -> None:
        if len(self.refusals) < MAX_REFUSALS:
            self.refusals.append(text)

    def run(self) -> ImportSummary:
        event, parsed, by = self.event, self.parsed, self.actor
        self.check_file()
        if self.refusals:
            return self.summary(None)
        session = self.session()
        summary = self.summary(session)
        if self.refusals:
            return summary
        self.record_method()
        sections = {s.name: s for s in session.sections.all()}
        default = (
            sections.get("A")
            or next(iter(sections.values()), None)
            or services.create_session_section(session=session, name="A", by=by)
        )
        boards = self.place_boards(session, summary)
        contestants = {Identity(c.number, c.section, c.direction): c for c in Contestant.objects.filter(event=event)}
        by_name = {c.name.strip().lower(): c for c in contestants.values() if c.name.strip()}
        tables, rounds, matches = {}, {}, set()
        placed_by_pair = False
        rows: list[_Row] = []  # recorded together once every row is placed (issue #33)
        refused: list[tuple[int, str]] = []  # by the row's place in the file
        for position, item in enumerate(parsed.results):
            board = boards.get(item.board)
            if board is None:
                continue
            try:
                ns, ew = self.sides(item, contestants, by_name, summary)
                section = default
                if item.section:
                    if item.section not in sections:
                        sections[item.section] = services.create_session_section(
                            session=session, name=item.section, by=by
                        )
                    section = sections[item.section]
                number = item.table
                if number is None:
                    number, placed_by_pair = ns.number, True
                if event.is_teams:
                    number = 2 * number - 1 if item.room == "open" else 2 * number
                key = (section.pk, number)
                if key not in tables:
                    tables[key] = services.add_table(section=section, number=number, by=by)
                round_number = item.round or 1
                if round_number not in rounds:
                    rounds[round_number] = services.add_round(session=session, number=round_number, by=by)
                if event.is_teams:
                    home, away = (ns, ew) if item.room == "open" else (ew, ns)
                    match_key = (round_number, home.pk, away.pk)
                    if (
                        match_key not in matches
                        and not Match.objects.filter(round=rounds[round_number], home=home, away=away).exists()
                    ):
                        open_number = number if item.room == "open" else number - 1
                        open_room = tables.get((section.pk, open_number)) or services.add_table(
                            section=section, number=open_number, by=by
                        )
                        closed_room = tables.get((section.pk, open_number + 1)) or services.add_table(
                            section=section, number=open_number + 1, by=by
                        )
                        services.create_match(
                            round=rounds[round_number],
                            home=home,
                            away=away,
                            open_room=open_room,
                            closed_room=closed_room,
                            by=by,
                        )
                    matches.add(match_key)
                rows.append(_Row(position, item, board, rounds[round_number], tables[key], ns, ew, self.score(item)))
            except ValidationError as error:
                refused.append((position, _where(item, _detail(error))))
            except _RowRefused as refusal:
                refused.append((position, _where(item, str(refusal))))
        for _position, text in sorted(refused + self.record(rows, summary), key=lambda pair: pair[0]):
            self.refuse(text)
        for number in unplayed(parsed, {i.number for i in contestants}) if rows and not event.is_teams else ():
            self.numbered(Identity(number), "", contestants, summary)  # listed in the totals, no board played
        if placed_by_pair:
            self.warnings.append(
                _("The file gives no table numbers: each result is placed at the table of its N-S pair's number.")
            )
        return summary

    def place_boards(self, session: Session, summary: ImportSummary) -> dict[int, Board]:
        """The file's boards in the session, by number: created, or joined where the session
        already holds the board the file completes."""
        boards: dict[int, Board] = {}
        for board_in in self.parsed.boards:
            if board_in.number in boards:
                continue
            joined = self.joined.get(board_in.number)
            if joined is not None:
                if board_in.deal and not joined.deal:
                    joined = services.update_board(board=joined, deal=board_in.deal, by=self.actor)
                boards[board_in.number] = joined
                summary.boards += 1
                summary.board_numbers.append(board_in.number)
                continue
            try:
                boards[board_in.number] = services.create_board(
                    session=session,
                    number=board_in.number,
                    dealer=board_in.dealer,
                    vulnerability=board_in.vulnerability,
                    deal=board_in.deal,
                    by=self.actor,
                )
                summary.boards += 1
                summary.board_numbers.append(board_in.number)
            except ValidationError as error:
                self.refuse(_where(board_in, _detail(error)))
        return boards

    def summary(self, session: Session | None) -> ImportSummary:
        summary = ImportSummary(session=session, format=self.parsed.format, left_out=self.parsed.left_out)
        summary.refusals, summary.warnings = self.refusals, self.warnings
        return summary

    def check_file(self) -> None:
        event, parsed = self.event, self.parsed
        if parsed.individual:
            first = next((r for r in parsed.results), None)
            self.refuse(
                _where(
                    first,
                    _(
                        "ScoreTable: an individual table (PlayerId_North, ...) cannot be recorded: "
                        "this system records each result between one contestant at N-S and one "
                        "at E-W."
                    ),
                )
                if first
                else _("An individual table (PlayerId_North, ...) cannot be recorded.")
            )
            return
        if parsed.scoring and parsed.scoring not in _ACCEPTS.get(event.kind, set()):
            where = _line(parsed.scoring_line, "Scoring: %s") if parsed.scoring_line else "Scoring: %s"
            self.refuse(
                where
                % (
                    _(
                        "the file is scored in %(scoring)s, but %(event)s is %(kind)s: import it into an "
                        "event scored that way, or have the program export it as such."
                    )
                    % {
                        "scoring": translate(scoring_label(parsed.scoring)),
                        "event": event.name,
                        "kind": event.get_kind_display(),
                    }
                )
            )
        if parsed.teams and not event.is_teams:
            self.refuse(
                _("The file holds team results (rooms Open and Closed), but %(event)s is %(kind)s.")
                % {"event": event.name, "kind": event.get_kind_display()}
            )
        if event.is_teams:
            for item in parsed.results:
                if not item.room:
                    self.refuse(_where(item, _("Room: a team event's result needs its room (Open or Closed).")))
        if not parsed.boards:
            self.refuse(_line(1, _("the file holds no boards.")))
        first_of: dict[int, BoardIn] = {}
        for board_in in parsed.boards:
            earlier = first_of.setdefault(board_in.number, board_in)
            if earlier is not board_in and earlier.deal and board_in.deal and earlier.deal != board_in.deal:
                self.refuse(
                    _where(
                        board_in,
                        _(
                            "Deal: board %(board)s has one deal in section %(first)s and another in section %(second)s: a "
                            "session keeps one deal per board number, so import each section as a session of its own."
                        )
                        % {
                            "board": board_in.number,
                            "first": earlier.section or "-",
                            "second": board_in.section or "-",
                        },
                    )
                )

    def record_method(self) -> None:
        """The scoring method the file's program used (bridge.interchange.method_of: its Butler
        rounding and trimming, cross-IMPs as a sum): recorded with the event, where it stands
        over the regulations, so a ruling's recalculation gives what the program would print."""
        method = method_of(self.parsed)
        if not method:
            return
        event = self.event
        merged = {**(event.scoring_method or {}), **method}
        in_force = event.regulations()
        if merged == (event.scoring_method or {}):
            return
        services.record_program_method(event=event, method=merged, by=self.actor, source=self.parsed.generator)
        event.refresh_from_db(fields=["scoring_method"])
        changed = {k: v for k, v in method.items() if in_force.get(k) != v}
        if changed:
            self.warnings.append(
                _(
                    "Scoring method: %(program)s scores %(method)s, where the regulations here say %(ours)s: recorded "
                    "as this event's scoring method, so its standings are the program's. The event's page shows it "
                    "and can change it."
                )
                % {
                    "program": self.parsed.generator or self.parsed.format,
                    "method": ", ".join(f"{key} {value}" for key, value in sorted(changed.items())),
                    "ours": ", ".join(f"{key} {in_force.get(key)}" for key in sorted(changed)),
                }
            )

    def session(self) -> Session:
        event = self.event
        # A file without results (a hand record) is known again by its boards and deals.
        signature = self.signature() or self.hand_signature()
        if self.session_number is None:
            for session in event.sessions.all():
                if signature and self.existing_signature(session) == signature:
                    self.refuse_again(session)
                    return session
            last = event.sessions.order_by("-number").first()
            number = last.number + 1 if last else 1
        else:
            number = self.session_number
        numbered = event.sessions.filter(number=number).first()
        if numbered is None:
            return services.create_session(event=event, number=number, by=self.actor)
        if signature and self.existing_signature(numbered) == signature:
            self.refuse_again(numbered)
            return numbered
        existing = {b.number: b for b in Board.objects.filter(session=numbered)}
        played = set(Result.objects.filter(board__session=numbered).values_list("board__number", flat=True))
        brought = {r.board for r in self.parsed.results}
        taken = set(existing)
        for item in self.parsed.boards:
            board = existing.get(item.number)
            if board is not None and _joins(board, item, item.number in played, item.number in brought):
                self.joined.setdefault(item.number, board)
                continue
            if item.number in taken:
                self.refuse(
                    _where(
                        item,
                        _("board %(board)s is already in %(session)s of this event.")
                        % {"board": item.number, "session": numbered},
                    )
                )
                taken.discard(item.number)
        return numbered

    def signature(self) -> list[tuple[int, str, str, str, str, int]]:
        return sorted(
            (
                r.board,
                str(r.ns_id or Identity(r.ns or 0)),
                str(r.ew_id or Identity(r.ew or 0)),
                r.contract,
                r.declarer,
                r.tricks if r.tricks is not None else -1,
            )
            for r in self.parsed.results
            if r.ns is not None
        )

    def refuse_again(self, session: Session) -> None:
        names = {"session": session, "event": self.event.name}
        if self.parsed.results:
            self.refuse(
                _("This file is already imported: %(session)s of %(event)s holds the same boards and results.") % names
            )
        else:
            self.refuse(
                _("This hand record is already imported: %(session)s of %(event)s holds the same boards and deals.")
                % names
            )

    def hand_signature(self) -> list[tuple[int, str]]:
        return sorted((b.number, _deal_key(b.deal)) for b in self.parsed.boards if b.deal)

    def existing_signature(self, session: Session) -> list:
        if not self.parsed.results:
            deals = Board.objects.filter(session=session).exclude(deal="").values_list("number", "deal")
            return sorted((number, _deal_key(deal)) for number, deal in deals)
        rows = Result.objects.filter(board__session=session).select_related("board", "ns", "ew")
        return sorted(
            (
                r.board.number,
                str(Identity(r.ns.number, r.ns.section, r.ns.direction)),
                str(Identity(r.ew.number, r.ew.section, r.ew.direction)),
                r.contract,
                r.declarer,
                r.tricks if r.tricks is not None else -1,
            )
            for r in rows
        )

    def sides(
        self,
        item: ResultIn,
        contestants: dict[Identity, Contestant],
        by_name: dict[str, Contestant],
        summary: ImportSummary,
    ) -> tuple[Contestant, Contestant]:
        if item.ns is None and item.home_name:
            home = self.named(item.home_name, contestants, by_name, summary)
            away = self.named(item.away_name, contestants, by_name, summary)
            return (home, away) if item.room == "open" else (away, home)
        if item.ns is None and item.ns_name:
            return (
                self.named(item.ns_name, contestants, by_name, summary),
                self.named(item.ew_name, contestants, by_name, summary),
            )
        ns = item.ns_id or Identity(item.ns or 0)
        ew = item.ew_id or Identity(item.ew or 0)
        return (
            self.numbered(ns, item.section, contestants, summary),
            self.numbered(ew, item.section, contestants, summary),
        )

    def numbered(
        self, identity: Identity, section: str, contestants: dict[Identity, Contestant], summary: ImportSummary
    ) -> Contestant:
        """The contestant the file numbers so: found by section, direction and number, or
        entered (with the file's name for it)."""
        if identity not in contestants:
            contestants[identity] = services.enter_contestant(
                event=self.event,
                number=identity.number,
                section=identity.section,
                direction=identity.direction,
                members=[],
                name=name_of(self.parsed, identity, section),
                by=self.actor,
            )
            summary.contestants_created.append(identity)
        return contestants[identity]

    def named(
        self,
        name: str,
        contestants: dict[Identity, Contestant],
        by_name: dict[str, Contestant],
        summary: ImportSummary,
    ) -> Contestant:
        key = name.strip().lower()
        if key not in by_name:
            number = max((i.number for i in contestants if not i.section and not i.direction), default=0) + 1
            contestants[Identity(number)] = by_name[key] = services.enter_contestant(
                event=self.event, number=number, members=[], name=name.strip(), by=self.actor
            )
            summary.contestants_created.append(Identity(number))
        return by_name[key]

    def record(self, rows: list[_Row], summary: ImportSummary) -> list[tuple[int, str]]:
        """Record the file's table results at once; each refusal with its row's place in the file."""
        try:
            results = services.record_results(
                rows=[
                    {"board": row.board, "round": row.round, "table": row.table, "ns": row.ns, "ew": row.ew}
                    | (
                        {
                            "contract": row.item.contract,
                            "declarer": row.item.declarer,
                            "tricks": row.item.tricks,
                            "lead": row.item.lead,
                        }
                        if row.item.kind == "played"
                        else {"not_played": True}
                    )
                    for row in rows
                ],
                by=self.actor,
            )
        except services.ResultsRefused as refusal:
            return [(rows[index].position, _where(rows[index].item, _detail(error))) for index, error in refusal.rows]
        summary.results += len(results)
        for row, result in zip(rows, results, strict=True):
            if row.item.kind != "played":
                self.not_played(row, result, summary)
        return []

    def not_played(self, row: _Row, result: Result, summary: ImportSummary) -> None:
        """A result the file gives as not played, or with an artificial score (``row.score``)."""
        item, board, table = row.item, row.board, row.table
        label = _("board %(board)s, table %(table)s") % {"board": board.number, "table": table.number}
        if item.kind == "not_played":
            summary.not_played.append(f"{label}: {item.code or 'NP'}")
            self.warnings.append(
                _where(
                    item,
                    _("%(label)s: recorded as not played (%(code)s), with no score: give it an adjusted score.")
                    % {"label": label, "code": item.code or "NP"},
                )
            )
            return
        score = row.score or {}
        total = sum(_as_percent(v) for v in score.values())
        code = _code(item)
        services.set_effective_score(
            result=result,
            kind="artificial",
            score=score,
            reason=texts.text("scoring.import_reason", format=self.parsed.format, code=code).english(),
            cause_type="import",
            by=self.by,
            outside_agency=total > 100,
        )
        summary.artificial.append(f"{label}: {code}")

    def score(self, item: ResultIn) -> dict[str, str] | None:
        """An artificial score as the event records it (at IMPs 60/50/40 % as average plus, average
        and average minus), or None for any other row."""
        if item.kind in ("played", "not_played"):
            return None
        score = dict(item.score or {})  # an artificial score: never None here
        if not self.event.kind == Event.Kind.MP_PAIRS and self.event.kind != Event.Kind.INDIVIDUAL:
            for side, value in score.items():
                if value.endswith("%"):
                    if value not in _AVERAGES:
                        raise _RowRefused(
                            _(
                                "%(code)s: a stated percentage has no meaning at IMPs; only 60/50/40 "
                                "(average plus, average, average minus) can be imported."
                            )
                            % {"code": item.code}
                        )
                    score[side] = _AVERAGES[value]
        return score


def _code(item: ResultIn) -> str:
    """A60 in one column and A40 in the other read back as A6040; other codes as written."""
    assert item.score is not None  # for mypy: only an artificial score has a code
    ns, ew = item.score["ns"], item.score["ew"]
    if ns.endswith("%") and ew.endswith("%") and ns[:-1].isdigit() and ew[:-1].isdigit():
        return f"A{ns[:-1]}{ew[:-1]}"
    return item.code or f"{ns} / {ew}"


def _as_percent(value: str) -> float:
    if value.endswith("%"):
        return float(value[:-1])
    return {"AVE+": 60, "AVE": 50, "AVE-": 40}.get(value, 50)


class _RowRefused(Exception):
    pass


class _Row(NamedTuple):
    """A file's table result placed: its board, round, table and sides found or made."""

    position: int  # its place among the file's results
    item: ResultIn
    board: Board
    round: Round
    table: Table
    ns: Contestant
    ew: Contestant
    score: dict[str, str] | None  # an artificial score, as recorded


__all__ = ["MAX_REFUSALS", "ImportSummary", "Importer"]
