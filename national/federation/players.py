"""Received players and the desk's decision that two are one person (issue #41).

A player received from an organiser's instance is that instance's record: where the desk already
holds its membership number (for another instance's player, or one of its own), it is stored as
a row of its own with the number kept apart as ``<instance>~<number>`` (receive.py), and a later
version from the instance updates that row only. Nothing matches players by their number.

A national auditor of the players' regulating authority may decide, at the desk, that such a
player and another of the same number (another instance's, or the desk's own) are one person:
``match`` (a ``PlayerMatch``, with who, when and why, and the audit entry ``player.matched``),
undone by another decision, ``unmatch`` (``player.unmatched``). A decision writes no field of
either player: both rows stay as their instances sent them, and the next push from either
updates its own row alone, the match standing.

What a match means for reads: the desk's reads that count or find people count the matched
players as one person (``person_of``, ``persons``): the players page's count, and a match's
players are shown together. A player matched onward is matched to one that is not (no chains):
the person is the player matched to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce
from operator import or_
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import services as audit
from core import policy
from national.federation.models import Origin, PlayerMatch, ReceivedRecord
from national.lifecycle import PLAYER_MATCH
from scoring.models import Player

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

SHOWN = 100  # the players kept apart a page lists at most (the first by name)


# --- Reads ---------------------------------------------------------------------------------------


def readable(user: User | AnonymousUser) -> QuerySet[Player]:
    """The players of the bodies ``user`` audits (every player for a superuser)."""
    return policy.visible(user, "national_records", Player.objects.all(), scope=policy.BY_AUTHORITY)


def origins_of(pks: Any) -> dict[int, Origin]:
    """The instance each of the players ``pks`` was received from (none: the desk's own)."""
    records = ReceivedRecord.objects.filter(model="scoring.player", local_pk__in=pks).select_related("origin")
    return {record.local_pk: record.origin for record in records}


def number_of(player: Player, origin: Origin | None) -> str:
    """The membership number as its instance holds it (``<instance>~`` taken off)."""
    if origin is not None:
        return player.membership_number.removeprefix(f"{origin.slug}~")
    return player.membership_number


def is_apart(player: Player, origin: Origin | None) -> bool:
    """Received with its number kept apart: another player held the number when it arrived."""
    return origin is not None and player.membership_number.startswith(f"{origin.slug}~")


def open_match(player: Player) -> PlayerMatch | None:
    return PlayerMatch.objects.filter(player=player, state=PlayerMatch.State.MATCHED).select_related("same_as").first()


def person_of(pks: Any) -> dict[int, int]:
    """{player: the person it is}: the player it is matched to, or itself."""
    pks = list(pks)
    matched = dict(
        PlayerMatch.objects.filter(player__in=pks, state=PlayerMatch.State.MATCHED).values_list("player", "same_as")
    )
    return {pk: matched.get(pk, pk) for pk in pks}


def persons(players: QuerySet[Player]) -> int:
    """How many people ``players`` are, the matched ones counted once."""
    return len(set(person_of(players.values_list("pk", flat=True)).values()))


@dataclass
class Candidate:
    player: Player
    origin: Origin | None  # None: the desk's own
    chosen: bool = False  # the one the kept-apart player is matched to


@dataclass
class Apart:
    """A received player kept apart, and the players of its number."""

    player: Player
    origin: Origin
    number: str
    candidates: list[Candidate] = field(default_factory=list)
    match: PlayerMatch | None = None
    undone: list[PlayerMatch] = field(default_factory=list)
    steps: dict[str, Any] = field(default_factory=dict)  # the steps the reader may take on it (the page's)


def kept_apart(user: User | AnonymousUser) -> tuple[list[Apart], int]:
    """The received players kept apart that ``user`` reads (the first ``SHOWN`` by name), each
    with the other players of its number, its match and the matches undone; and how many in all."""
    suspects = readable(user).filter(membership_number__contains="~").select_related("authority")
    origins = origins_of(suspects.values("pk"))
    apart = [player for player in suspects if is_apart(player, origins.get(player.pk))]
    rows = [Apart(player, origins[player.pk], number_of(player, origins[player.pk])) for player in apart[:SHOWN]]
    if not rows:
        return [], len(apart)
    numbers = {row.number for row in rows}
    near = reduce(
        or_, [Q(membership_number__endswith=f"~{number}") for number in numbers], Q(membership_number__in=numbers)
    )
    pool = list(readable(user).filter(near, authority__in={row.player.authority_id for row in rows}))
    pool_origins = origins_of([player.pk for player in pool])
    matches: dict[int, list[PlayerMatch]] = {}
    for match in PlayerMatch.objects.filter(player__in=[row.player.pk for row in rows]).select_related(
        "matched_by", "unmatched_by"
    ):
        matches.setdefault(match.player_id, []).append(match)
    for row in rows:
        for match in matches.get(row.player.pk, []):
            if match.state == PlayerMatch.State.MATCHED:
                row.match = match
            else:
                row.undone.append(match)
        for other in pool:
            origin = pool_origins.get(other.pk)
            if (
                other.pk != row.player.pk
                and other.authority_id == row.player.authority_id
                and number_of(other, origin) == row.number
            ):
                chosen = row.match is not None and row.match.same_as_id == other.pk
                row.candidates.append(Candidate(other, origin, chosen))
    return rows, len(apart)


# --- Decisions -----------------------------------------------------------------------------------


def _where(origin: Origin | None) -> str:
    return origin.name if origin is not None else "the desk's own"


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Say why: the decision is kept with its reason.")})
    return reason


@transaction.atomic
def match(*, player: Player, same_as: Player, reason: str, by: Any) -> PlayerMatch:
    """Decide that ``player`` (received, its number kept apart) and ``same_as`` (another
    instance's player of that number, or the desk's own) are one person. Writes neither player."""
    policy.require(by, "match_players", player.authority)
    reason = _reason(reason)
    player = Player.objects.select_for_update().get(pk=player.pk)  # one decision on a player at a time
    origins = origins_of([player.pk, same_as.pk])
    origin = origins.get(player.pk)
    if origin is None or not is_apart(player, origin):
        raise ValidationError(
            {
                "player": _("%(player)s was not kept apart from another player: there is nothing to match.")
                % {"player": player}
            }
        )
    number = number_of(player, origin)
    already = open_match(player)
    if already is not None:
        raise ValidationError(
            {
                "player": _("%(player)s is matched to %(other)s already: unmatch them first.")
                % {"player": player, "other": already.same_as}
            }
        )
    if (
        same_as.pk == player.pk
        or same_as.authority_id != player.authority_id
        or number_of(same_as, origins.get(same_as.pk)) != number
    ):
        raise ValidationError(
            {
                "same_as": _("%(other)s does not hold the membership number %(number)s of %(player)s.")
                % {"other": same_as, "number": number, "player": player}
            }
        )
    onward = open_match(same_as)
    if onward is not None:
        raise ValidationError(
            {
                "same_as": _("%(other)s is matched to %(person)s: match %(player)s to %(person)s.")
                % {"other": same_as, "person": onward.same_as, "player": player}
            }
        )
    if PlayerMatch.objects.filter(same_as=player, state=PlayerMatch.State.MATCHED).exists():
        raise ValidationError(
            {
                "player": _("Other players are matched to %(player)s: match them to its person first.")
                % {"player": player}
            }
        )
    actor = policy.person(by)
    decision = PlayerMatch(player=player, same_as=same_as, reason=reason, matched_by=actor)
    decision.full_clean()
    decision.save()
    other_origin = origins.get(same_as.pk)
    audit.record(
        action="player.matched",
        obj=decision,
        after={
            "player": player.pk,
            "origin": origin.slug,
            "same_as": same_as.pk,
            "same_as_origin": other_origin.slug if other_origin is not None else None,
            "membership_number": number,
            "reason": reason,
        },
        actor=actor,
        summary=(
            f"Player {player} ({origin.name}, {number}) matched to {same_as} ({_where(other_origin)}, {number}) "
            f"as one person: {reason}"
        )[:300],
    )
    return decision


@transaction.atomic
def unmatch(*, player: Player, reason: str, by: Any) -> PlayerMatch:
    """Undo ``player``'s match: they are two people again to the desk's reads. The decision
    undone is kept, with who undid it, when and why."""
    policy.require(by, "match_players", player.authority)
    reason = _reason(reason)
    decision = (
        PlayerMatch.objects.select_for_update()
        .filter(player=player, state=PlayerMatch.State.MATCHED)
        .select_related("same_as")
        .first()
    )
    if decision is None:
        raise ValidationError({"player": _("%(player)s is not matched to anyone.") % {"player": player}})
    PLAYER_MATCH.move(decision, "unmatch")
    actor = policy.person(by)
    decision.unmatched_by, decision.unmatched_at, decision.unmatch_reason = actor, timezone.now(), reason
    decision.full_clean()
    decision.save()
    origins = origins_of([player.pk, decision.same_as_id])
    audit.record(
        action="player.unmatched",
        obj=decision,
        before={"state": PlayerMatch.State.MATCHED, "same_as": decision.same_as_id},
        after={"state": decision.state, "reason": reason},
        actor=actor,
        summary=(
            f"Player {player} ({_where(origins.get(player.pk))}) no longer matched to {decision.same_as} "
            f"({_where(origins.get(decision.same_as_id))}): {reason}"
        )[:300],
    )
    return decision
