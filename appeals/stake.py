"""What a case decides for the match and the standings, and who sees it when (issue #44).

A body that sees which decision wins the match is not the neutral body the WBF Code of Practice
asks for: while a case is open, the members of its body read the case without its effect on the
match and the standings; the director and the scorer see it (the policy's ``see_effect``). When
the body decides, the effect as it stood is recorded on the case (``Appeal.effect_at_decision``,
written by the decision's service) and, from then on, every reader of the case sees it beside
the effect now (the decision's own score change, once the recalculation has run).

``stake(appeal)`` reads the effect now: the score changes at the table (the ruling's, the
decision's), each side's place in the session and the event, and the team match the board is
part of. ``recorded(stake)`` is the same as plain JSON, for the record; ``shown(...)`` reads a
record back for the page.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import Q
from django.utils.translation import gettext as _

from appeals.models import Appeal, Body, FurtherAppeal
from core import policy
from scoring.models import Contestant, Match, MatchScore, Result, ScoreChange, Standing
from scoring.selectors import score_unit

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


@dataclass
class Place:
    """A side's place in a session or in the event: "3" (or "3=") of ``of``, its total and percent."""

    place: str
    of: int
    total: str
    percent: str | None


@dataclass
class Side:
    contestant: Contestant
    direction: str  # "NS" or "EW": where the side sat at the table
    session: Place | None
    event: Place | None


@dataclass
class MatchStake:
    match: Match
    home_imps: str
    away_imps: str
    home_vp: str | None
    away_vp: str | None


@dataclass
class Stake:
    sides: list[Side]
    match: MatchStake | None
    changes: list[ScoreChange] = field(default_factory=list)
    at: str = ""  # for a recorded stake: when the body decided (ISO 8601)
    decided_at: datetime.datetime | None = None


def _sits(user: User | AnonymousUser, appeal: Appeal) -> bool:
    """Whether ``user`` is a member of a body that still decides the case: the event's body while
    the appeal is open, the regulating authority's while its further appeal is."""
    if not user.is_authenticated:
        return False
    stages = []
    if appeal.is_open:
        stages.append("event")
    further = FurtherAppeal.objects.filter(appeal=appeal).values_list("state", flat=True).first()
    if further == FurtherAppeal.State.LODGED:
        stages.append("further")
    return bool(stages) and Body.objects.filter(appeal=appeal, stage__in=stages, members__user=user).exists()


def kept_from(user: User | AnonymousUser, appeal: Appeal) -> bool:
    """Whether the effect is kept from ``user`` now: a member of a body still deciding the case
    (recused or not, the superuser too), or, while the case is open, anyone the policy does not
    let see it (``see_effect``: the tournament's directors and scorers, the authority's
    auditors). Once decided, every reader of the case sees it."""
    if _sits(user, appeal):
        return True
    return appeal.is_open and not policy.may(user, "see_effect", appeal)


def _number(value: Any) -> str | None:
    if value is None:
        return None
    return f"{value.quantize(1) if value == value.to_integral() else value.normalize():f}"


def _place(standing: Standing | None, counts: dict[tuple[Any, str], int]) -> Place | None:
    if standing is None:
        return None
    return Place(
        place=standing.place,
        of=counts.get((standing.session_id, standing.field), 0),
        total=_number(standing.total) or "",
        percent=_number(standing.percent),
    )


def stake(appeal: Appeal) -> Stake:
    """The effect now of the case's table on the match and the standings."""
    result = Result.objects.select_related("ns", "ew", "board__session__event", "table").get(
        pk=appeal.ruling.given_result.pk
    )
    session, event = result.board.session, result.board.session.event
    sides = [(result.ns, "NS"), (result.ew, "EW")]
    standings = {
        (s.contestant_id, s.session_id): s
        for s in Standing.objects.filter(
            Q(session=session) | Q(session__isnull=True), event=event, contestant__in=[c for c, _d in sides]
        )
    }
    fields = {s.field for s in standings.values()}
    counts: dict[tuple[Any, str], int] = {}
    for row in Standing.objects.filter(Q(session=session) | Q(session__isnull=True), event=event, field__in=fields):
        counts[(row.session_id, row.field)] = counts.get((row.session_id, row.field), 0) + 1
    match = (
        Match.objects.filter(Q(open_room=result.table) | Q(closed_room=result.table), round=result.round_id)
        .select_related("home", "away")
        .first()
    )
    match_stake = None
    if match is not None:
        score = MatchScore.objects.filter(match=match).first()
        if score is not None:
            match_stake = MatchStake(
                match,
                _number(score.home_imps) or "",
                _number(score.away_imps) or "",
                _number(score.home_vp),
                _number(score.away_vp),
            )
    return Stake(
        sides=[
            Side(
                contestant,
                direction,
                _place(standings.get((contestant.pk, session.pk)), counts),
                _place(standings.get((contestant.pk, None)), counts),
            )
            for contestant, direction in sides
        ],
        match=match_stake,
        changes=list(ScoreChange.objects.filter(result=result).select_related("result__board")),
    )


def _place_record(place: Place | None) -> dict[str, Any] | None:
    return (
        None
        if place is None
        else {"place": place.place, "of": place.of, "total": place.total, "percent": place.percent}
    )


def recorded(stake_: Stake, at: str) -> dict[str, Any]:
    """The stake as plain JSON, for ``Appeal.effect_at_decision``: the contestants and the match
    by their ids, the places and scores as they stood at ``at``."""
    match = stake_.match
    return {
        "at": at,
        "sides": [
            {
                "contestant": side.contestant.pk,
                "direction": side.direction,
                "session": _place_record(side.session),
                "event": _place_record(side.event),
            }
            for side in stake_.sides
        ],
        "match": None
        if match is None
        else {
            "match": match.match.pk,
            "home_imps": match.home_imps,
            "away_imps": match.away_imps,
            "home_vp": match.home_vp,
            "away_vp": match.away_vp,
        },
    }


def _place_shown(data: dict[str, Any] | None) -> Place | None:
    return None if data is None else Place(data["place"], data["of"], data["total"], data["percent"])


def shown(record: dict[str, Any] | None) -> Stake | None:
    """A recorded stake read back for the page (None when none was recorded)."""
    if not record:
        return None
    contestants = Contestant.objects.in_bulk([side["contestant"] for side in record["sides"]])
    sides = [
        Side(
            contestants[side["contestant"]],
            side["direction"],
            _place_shown(side["session"]),
            _place_shown(side["event"]),
        )
        for side in record["sides"]
        if side["contestant"] in contestants
    ]
    match = None
    data = record.get("match")
    if data is not None:
        found = Match.objects.select_related("home", "away").filter(pk=data["match"]).first()
        if found is not None:
            match = MatchStake(found, data["home_imps"], data["away_imps"], data["home_vp"], data["away_vp"])
    return Stake(sides=sides, match=match, at=record["at"], decided_at=datetime.datetime.fromisoformat(record["at"]))


def for_reader(user: User | AnonymousUser, appeal: Appeal) -> dict[str, Any]:
    """What the case page shows ``user`` of the effect: ``kept`` (a member of the body still
    deciding, or a reader the policy keeps it from), or the effect now (``now``, with each score
    change at the table in words, ``changes``) and as recorded when the body decided
    (``recorded``)."""
    if kept_from(user, appeal):
        return {"kept": True}
    event = appeal.event
    unit = score_unit(event)
    now = stake(appeal)
    return {
        "kept": False,
        "now": now,
        "recorded": shown(appeal.effect_at_decision),
        "changes": [change.explain_html("NS", unit) for change in now.changes],
        "unit": _("VPs") if event.is_teams else unit,
    }
