"""Reads of rulings, limited to what the reader may see."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet
from django.utils import timezone

from core import policy
from rulings.models import Ruling

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    from scoring.models import Board, Round, Session, Table

AWAITING_RESULT = "awaiting_result"
PER_PAGE = 50  # rows on a page of the rulings list and of the national search


def visible_rulings(user: User | AnonymousUser) -> QuerySet[Ruling]:
    """Officials and auditors see every ruling of their tournaments; a player only the rulings
    at tables where they played (core.policy, "view_ruling")."""
    # Each reason to see a ruling is its own small subquery of ids. One filter joining the
    # officials, the auditors and both sides' members at once (an OR over four many-valued
    # joins) took PostgreSQL 10 to 40 ms to plan (by the load) for 1 to 6 ms to run, on every
    # page and API list of rulings.
    return policy.visible(
        user,
        "view_ruling",
        Ruling.objects.select_related(
            "board__session__event__tournament", "table", "result__table", "result__ns", "result__ew", "director"
        ),
    )


def filtered_rulings(
    user: User | AnonymousUser,
    *,
    tournament: int | str | None = None,
    session: int | str | None = None,
    board: int | str | None = None,
    director: int | str | None = None,
    law: str | None = None,
    kind: str | None = None,
    state: str | None = None,
) -> QuerySet[Ruling]:
    """``state="awaiting_result"`` lists the rulings opened before their table's result and
    still without one (``table_has_result`` tells a result entered since, not yet attached)."""
    from django.db.models import Exists, OuterRef

    from scoring.models import Result

    qs = visible_rulings(user).annotate(
        table_has_result=Exists(Result.objects.filter(board=OuterRef("board"), table=OuterRef("table")))
    )
    if tournament:
        qs = qs.filter(board__session__event__tournament_id=tournament)
    if session:
        qs = qs.filter(board__session_id=session)
    if board:
        qs = qs.filter(board__number=board)
    if director:
        qs = qs.filter(director_id=int(director))
    if law:
        qs = qs.filter(citations__law__number__istartswith=law.upper().replace("LAW", "").strip()).distinct()
    if kind:
        qs = qs.filter(kind=kind)
    if state == AWAITING_RESULT:
        qs = qs.filter(table_has_result=False).exclude(state=Ruling.State.SUPERSEDED)
    elif state:
        qs = qs.filter(state=state)
    # The pk breaks ties of created_at, so a page never repeats or skips a ruling of the one before.
    return qs.prefetch_related("citations__law").order_by("-created_at", "-pk")


def page_of(rulings: QuerySet[Ruling], number: int | str | None, per_page: int = PER_PAGE) -> Page[Ruling]:
    """Page ``number`` of ``rulings`` in their order, as Django's ``Page`` (its ``object_list``
    the rulings, its ``paginator.count`` how many in all): a number past the last page gives the
    last page, one that is not a number (or none) the first. The page's ids are read first,
    then its rows by id: PostgreSQL took 12 ms to plan the list's one query (a dozen tables
    joined) with a LIMIT, 2 ms without, and 1.5 ms for the ids alone (issue #19)."""
    # The paginator counts the ids (``paginator.count``, the page range); the page holds the rulings.
    ids = Paginator(rulings.values_list("pk", flat=True), per_page).get_page(number)
    return Page(rows_of(rulings, list(ids.object_list)), ids.number, cast("Paginator[Ruling]", ids.paginator))


def rows_of(rulings: QuerySet[Ruling], ids: list[int]) -> list[Ruling]:
    """The rulings of ``rulings`` with these ``ids``, in the order of ``ids``."""
    rows = {ruling.pk: ruling for ruling in rulings.filter(pk__in=ids)}
    return [rows[pk] for pk in ids if pk in rows]


def ruling_detail(pk: int | str, user: User | AnonymousUser) -> Ruling:
    rulings = (
        visible_rulings(user)
        # The rounds and the corrections read apart: joined with the rest, the one query had
        # enough tables that PostgreSQL took three times longer to plan it (issue #19).
        .prefetch_related(
            "citations__law",
            "citations__regulation",
            "penalties__player",
            "revisions__changed_by",
            "attachments",
            "round",
            "result__round",
            "supersedes",
            "superseded_by",
        )
        .select_related("board__session__event__tournament__authority")
    )
    # Not .get(): its LIMIT made the query several times slower to plan (see page_of).
    found = rows_of(rulings, [int(pk)])
    if not found:
        raise Ruling.DoesNotExist(f"No ruling {pk} that this reader may see.")
    return found[0]


def rulings_at_table(
    board: Board, table: Table, user: User | AnonymousUser, exclude: Ruling | None = None
) -> QuerySet[Ruling]:
    """The other rulings on this board at this table (the form shows them: a second ruling must
    not silently replace the first's score)."""
    qs = visible_rulings(user).filter(board=board, table=table).order_by("number")
    if exclude is not None:
        qs = qs.exclude(pk=exclude.pk)
    return qs


def correction_chain(ruling: Ruling) -> list[Ruling]:
    """The ruling's versions, earliest first: the rulings it corrects, itself, its corrections."""
    chain = [ruling]
    earlier = ruling.supersedes
    while earlier is not None:
        chain.insert(0, earlier)
        earlier = earlier.supersedes
    later = Ruling.objects.filter(supersedes=ruling).first()
    while later is not None:
        chain.append(later)
        later = Ruling.objects.filter(supersedes=later).first()
    return chain


def sessions_for_rulings(user: User | AnonymousUser) -> QuerySet[Session]:
    """The sessions a user may open rulings in (the jump form's choices)."""
    from scoring.models import Session, Tournament

    return (
        Session.objects.select_related("event__tournament")
        .filter(event__tournament__in=policy.visible(user, "ruling", Tournament.objects.all()))
        .order_by("-event__tournament__start_date", "event__name", "number")
    )


def find_table(
    session: Session, *, board: int | str, table: int | str, section: str = "", round: int | str | None = None
) -> tuple[Board | None, Table | None, Round | None]:
    """(board, table, round) of a session from the numbers a director says; refusals by field."""
    from django.core.exceptions import ValidationError
    from django.utils.translation import gettext as _

    from scoring.models import Board, Round, Table

    errors: dict[str, str] = {}
    found_board = Board.objects.filter(session=session, number=board).first()
    if found_board is None:
        errors["board"] = _("Board %(b)s is not played in %(session)s.") % {"b": board, "session": session}
    at_number = Table.objects.filter(section__session=session, number=table).select_related("section")
    if section:
        at_number = at_number.filter(section__name__iexact=section.strip())
    tables = list(at_number)
    found_table = tables[0] if len(tables) == 1 else None
    if not tables:
        errors["table"] = _("There is no table %(t)s%(in)s in %(session)s.") % {
            "t": table,
            "session": session,
            "in": (" " + _("in section %(s)s") % {"s": section}) if section else "",
        }
    elif len(tables) > 1:
        errors["section"] = _("Table %(t)s is in sections %(sections)s: say which.") % {
            "t": table,
            "sections": ", ".join(t.section.name for t in tables),
        }
    found_round = None
    if round:
        found_round = Round.objects.filter(session=session, number=round).first()
        if found_round is None:
            errors["round"] = _("%(session)s has no round %(r)s.") % {"session": session, "r": round}
    if errors:
        raise ValidationError(errors)
    return found_board, found_table, found_round


# --- A person's own rulings, with their clocks, for the home page (issue #42, item 10) ---------

HOME_ROWS = 50  # rulings a home page card lists at most


@dataclass
class RulingClock:
    """A ruling with its appeal clock: ``state`` as the reader is told it, ``deadline`` the last
    moment it may be appealed (None while the official score is not posted), ``window_open``
    whether it may still be appealed (``Ruling.appeal_open``)."""

    ruling: Ruling
    state: str
    deadline: datetime.datetime | None
    window_open: bool
    # Whether the reader may ask to appeal it now (appeals.selectors.my_tables says, for a player).
    can_request: bool = False

    @property
    def awaiting_check(self) -> bool:
        return self.ruling.score_check == Ruling.ScoreCheck.AWAITING


def with_clocks(rulings: QuerySet[Ruling], now: datetime.datetime | None = None) -> list[RulingClock]:
    """``rulings`` (newest first, at most ``HOME_ROWS``), each with its appeal clock, in a fixed
    number of queries: the sessions' deadlines read at once (scoring's ``session_clocks``), the
    chief director's extensions prefetched."""
    from scoring.selectors import session_clocks

    now = now or timezone.now()
    found = list(
        rulings.select_related("board__session__event__tournament__authority", "table")
        .prefetch_related("appeal_extensions")
        .order_by("-pk")[:HOME_ROWS]
    )
    clocks = session_clocks({ruling.session for ruling in found})
    rows = []
    for ruling in found:
        deadline = clocks[ruling.session.pk]["appeal_deadline"]
        rows.append(
            RulingClock(
                ruling=ruling,
                state=ruling.shown_state(now, deadline),
                deadline=ruling.appeal_limit(deadline),
                window_open=ruling.appeal_open(now, deadline),
            )
        )
    return rows


def rulings_at_my_tables(user: User | AnonymousUser, now: datetime.datetime | None = None) -> list[RulingClock]:
    """The rulings given at ``user``'s own tables (core.policy.own: a player of either side, or
    a side's captain, playing or not), newest first, with their clocks. An official's other
    rulings are not theirs: only the tables of their own sides."""
    if not user.is_authenticated:
        return []
    rulings = policy.own(user, visible_rulings(user)).exclude(state=Ruling.State.DRAFT)
    # the sides' members, the appeals and the requests: whether one may still be asked for, per row
    rulings = rulings.prefetch_related("result__ns__members", "result__ew__members", "appeals", "appeal_requests")
    return with_clocks(rulings, now)


def my_open_rulings(user: User | AnonymousUser, now: datetime.datetime | None = None) -> list[RulingClock]:
    """The rulings ``user`` gave or drafted as director that are still open: drafts, adjusted
    scores awaiting a second director's check, and given rulings whose appeal period runs (or
    has not started), newest first, with their clocks; of those the policy lets them read."""
    if not user.is_authenticated:
        return []
    open_ = Q(state=Ruling.State.DRAFT) | Q(score_check=Ruling.ScoreCheck.AWAITING)
    open_ |= Q(state__in=[Ruling.State.GIVEN, Ruling.State.UNDER_APPEAL])
    rulings = visible_rulings(user).filter(director=user).filter(open_).exclude(state=Ruling.State.SUPERSEDED)
    return [
        row
        for row in with_clocks(rulings, now)
        if row.ruling.state == Ruling.State.DRAFT or row.awaiting_check or row.window_open
    ]


def poll_threshold(ruling: Ruling) -> dict[str, Any]:
    """The authority's ``logical_alternative_threshold`` in force on the ruling's day (the day
    the director was called, else the day it was recorded, in the tournament's zone), over it
    what a correction kept of the tournament's regulations."""
    tournament = ruling.tournament
    moment = ruling.called_at or ruling.created_at or timezone.now()
    day = timezone.localtime(moment, tournament.zone).date()
    value = tournament.authority.settings_on(day)["logical_alternative_threshold"]
    kept = tournament.kept_regulations or {}
    return dict(kept.get("logical_alternative_threshold", value) or {})


def poll_finding(ruling: Ruling, table_action: str | None = None) -> dict[str, Any] | None:
    """The logical alternatives found from the ruling's poll (bridge.polls) by the threshold in
    force on its day, with the weights proposed, where the authority allows weighted scores
    (Law 12C1c, the tournament's setting, as the adjusted score is checked against it), and the
    finding in words in the reader's language; None without a poll. Refusals of a stored poll
    that cannot be read are words too, not an error page. ``table_action``: the action taken at
    the table when the poll does not say (the Law 16 page's, as it is recorded), else the Law 16
    record's."""
    from bridge.call_laws import IrregularityError
    from bridge.polls import Threshold, find
    from core.i18n import translate
    from rulings.poll_data import answers_of

    poll = ruling.poll or {}
    if not poll.get("players"):
        return None
    record = ruling.unauthorised_information or {}
    table_action = str(poll.get("table_action") or table_action or record.get("chosen") or "")
    try:
        finding = find(
            answers_of(poll["players"]),
            Threshold.from_setting(poll_threshold(ruling)),
            table_action,
            weighting_allowed=bool(ruling.tournament.regulations()["weighted_scores_allowed"]),
        )
    except (IrregularityError, ValueError) as error:
        return {"words": [translate(error)], "tallies": [], "weights": [], "table_action": table_action}
    return {
        **finding.to_dict(),
        "table_action": table_action,
        "words": [translate(word) for word in finding.words],
    }


def poll_summary(ruling: Ruling, rewrite: Callable[[str], str] = str) -> dict[str, Any] | None:
    """The poll as a casebook prints it: the question (through ``rewrite``, the casebook's
    anonymiser), the count by action and the finding in words, in the active language (the
    casebook's while it is built); no pollee's name."""
    finding = poll_finding(ruling)
    if finding is None:
        return None
    poll = ruling.poll or {}
    return {
        "question": rewrite(str(poll.get("question") or "")),
        "pollees": len(poll.get("players") or []),
        "count": dict(poll.get("count") or {}),
        "finding": finding,
    }
