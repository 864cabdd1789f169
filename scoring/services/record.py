"""The competition record set up: regulating authorities and their dated settings, tournaments and
who works there, events, sessions, sections, rounds, tables, players, contestants, boards and
matches."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from audit.hints import Choice
from core import policy, renders, roles
from scoring.models import (
    AuditorAssignment,
    AuthoritySetting,
    Board,
    Contestant,
    Event,
    Match,
    Player,
    RegulatingAuthority,
    Round,
    Section,
    Session,
    Table,
    Tournament,
    TournamentOfficial,
)
from scoring.services.common import full_save, full_update

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@transaction.atomic
def create_authority(*, name: str, code: str, by: Any, **fields: Any) -> RegulatingAuthority:
    policy.require(by, "setup", None)
    return full_save(RegulatingAuthority(name=name, code=code, **fields))


@transaction.atomic
def set_authority_setting(
    *, authority: RegulatingAuthority, key: str, value: Any, effective_from: datetime.date, note: str = "", by: Any
) -> AuthoritySetting:
    """Record a regulation's value from a date on; the same date again replaces the value. Only
    the superuser (or a command) records an authority's regulations (core.policy, "settings")."""
    policy.require(by, "settings", authority)
    return write_setting(authority=authority, key=key, value=value, effective_from=effective_from, note=note)


def write_setting(
    *, authority: RegulatingAuthority, key: str, value: Any, effective_from: datetime.date, note: str = ""
) -> AuthoritySetting:
    """A step of :func:`set_authority_setting` and of the corrections an auditor confirms
    (``apply_preset_corrections``), which ask the policy for their own action."""
    setting = AuthoritySetting.objects.filter(authority=authority, key=key, effective_from=effective_from).first()
    setting = setting or AuthoritySetting(authority=authority, key=key, effective_from=effective_from)
    setting.value, setting.note = value, note
    renders.restamp(f"authority:{authority.pk}")  # the live version does not count regulations
    return full_save(setting)


@transaction.atomic
def create_tournament(
    *,
    authority: RegulatingAuthority,
    name: str,
    start_date: datetime.date,
    end_date: datetime.date,
    by: Any,
    **fields: Any,
) -> Tournament:
    policy.require(by, "setup", authority)
    return full_save(Tournament(authority=authority, name=name, start_date=start_date, end_date=end_date, **fields))


def ensure_role_groups(*, by: Any) -> dict[str, Group]:
    policy.require(by, "setup", None)
    return {name: Group.objects.get_or_create(name=name)[0] for name in roles.ROLES}


@transaction.atomic
def grant_role(*, user: User, role: str, by: Any) -> None:
    policy.require(by, "setup", None)
    if role not in roles.ROLES:
        raise ValidationError({"role": _("'%(role)s' is not a role.") % {"role": role}})
    user.groups.add(Group.objects.get_or_create(name=role)[0])
    user.__dict__.pop("_role_names", None)


@transaction.atomic
def appoint_official(*, tournament: Tournament, user: User, role: str, by: Any) -> TournamentOfficial:
    """Give ``user`` a role at ``tournament`` (and the matching group)."""
    policy.require(by, "setup", tournament)
    official, _created = TournamentOfficial.objects.get_or_create(tournament=tournament, user=user, role=role)
    grant_role(user=user, role=role, by=by)
    return official


@transaction.atomic
def appoint_auditor(*, authority: RegulatingAuthority, user: User, by: Any) -> AuditorAssignment:
    policy.require(by, "setup", authority)
    assignment, _created = AuditorAssignment.objects.get_or_create(authority=authority, user=user)
    grant_role(user=user, role=roles.NATIONAL_AUDITOR, by=by)
    return assignment


@transaction.atomic
def create_event(*, tournament: Tournament, name: str, kind: Choice, by: Any) -> Event:
    policy.require(by, "write_record", tournament)
    return full_save(Event(tournament=tournament, name=name, kind=kind))


@transaction.atomic
def create_session(
    *,
    event: Event,
    number: int,
    name: str = "",
    starts_at: datetime.datetime | None = None,
    is_last: bool = False,
    sections: Iterable[str] = ("A",),
    by: Any,
) -> Session:
    policy.require(by, "write_record", event.tournament)
    session = full_save(Session(event=event, number=number, name=name, starts_at=starts_at, is_last=is_last))
    for section_name in sections:
        full_save(Section(session=session, name=section_name))
    return session


@transaction.atomic
def add_rounds(*, session: Session, count: int, by: Any) -> list[Round]:
    policy.require(by, "write_record", session.event.tournament)
    return [Round.objects.get_or_create(session=session, number=n)[0] for n in range(1, count + 1)]


@transaction.atomic
def add_tables(*, section: Section, count: int, by: Any) -> list[Table]:
    policy.require(by, "write_record", section.session.event.tournament)
    return [Table.objects.get_or_create(section=section, number=n)[0] for n in range(1, count + 1)]


@transaction.atomic
def add_table(*, section: Section, number: int, by: Any) -> Table:
    policy.require(by, "write_record", section.session.event.tournament)
    return Table.objects.get_or_create(section=section, number=number)[0]


@transaction.atomic
def add_round(*, session: Session, number: int, by: Any) -> Round:
    policy.require(by, "write_record", session.event.tournament)
    return Round.objects.get_or_create(session=session, number=number)[0]


@transaction.atomic
def create_session_section(*, session: Session, name: str, by: Any) -> Section:
    policy.require(by, "write_record", session.event.tournament)
    return full_save(Section(session=session, name=name))


@transaction.atomic
def register_player(
    *,
    authority: RegulatingAuthority,
    first_name: str,
    last_name: str,
    membership_number: str,
    by: Any,
    **fields: Any,
) -> Player:
    policy.require(by, "setup", authority)
    return full_save(
        Player(
            authority=authority,
            first_name=first_name,
            last_name=last_name,
            membership_number=membership_number,
            **fields,
        )
    )


@transaction.atomic
def enter_contestant(
    *,
    event: Event,
    number: int,
    members: Iterable[Player],
    name: str = "",
    captain: Player | None = None,
    section: str = "",
    direction: str = "",
    by: Any,
) -> Contestant:
    """Enter a pair, team or individual. A pair has two members, an individual one, a team four
    to six. No members at all means "not yet known" (an import from a scoring program that
    gives only pair numbers); the members can be added later. ``section`` and ``direction``
    complete the number where the scoring program numbers per section or per direction (a
    Mitchell's N-S pair 1 and E-W pair 1 are two pairs)."""
    policy.require(by, "write_record", event.tournament)
    kind = event.contestant_kind
    members = list(members)
    expected = {Contestant.Kind.PAIR: (2, 2), Contestant.Kind.INDIVIDUAL: (1, 1), Contestant.Kind.TEAM: (4, 6)}
    low, high = expected[kind]
    if members and not low <= len(members) <= high:
        size = str(low) if low == high else f"{low}-{high}"
        raise ValidationError(
            {
                "members": _("A %(kind)s has %(size)s members, not %(n)s.")
                % {"kind": Contestant.Kind(kind).label.lower(), "size": size, "n": len(members)}
            }
        )
    if len({m.pk for m in members}) != len(members):
        raise ValidationError({"members": _("A player is listed twice.")})
    if captain is not None and kind != Contestant.Kind.TEAM:
        raise ValidationError({"captain": _("Only a team has a captain.")})
    already = Player.objects.filter(entries__event=event, pk__in=[m.pk for m in members]).first()
    if already:
        raise ValidationError({"members": _("%(p)s is already entered in this event.") % {"p": already}})
    contestant = full_save(
        Contestant(
            event=event,
            kind=kind,
            number=number,
            name=name,
            captain=captain,
            section=section,
            direction=direction,
        )
    )
    contestant.members.set(members)
    return contestant


@transaction.atomic
def create_board(
    *,
    session: Session,
    number: int,
    dealer: str | None = None,
    vulnerability: str | None = None,
    deal: str = "",
    by: Any,
) -> Board:
    """A board; dealer and vulnerability default to the 16-board cycle of its number."""
    policy.require(by, "write_record", session.event.tournament)
    from bridge.engine.contract import board_dealer, board_vulnerability

    return full_save(
        Board(
            session=session,
            number=number,
            dealer=dealer or board_dealer(number),
            vulnerability=vulnerability or board_vulnerability(number),
            deal=deal,
        )
    )


@transaction.atomic
def update_board(*, board: Board, by: Any, **fields: Any) -> Board:
    policy.require(by, "write_record", board.session.event.tournament)
    return full_update(board, fields)


@transaction.atomic
def create_match(
    *, round: Round, home: Contestant, away: Contestant, open_room: Table, closed_room: Table, by: Any
) -> Match:
    policy.require(by, "write_record", round.session.event.tournament)
    if home.event_id != away.event_id or not home.event.is_teams:
        raise ValidationError({"away": _("A match is between two teams of the same team event.")})
    return full_save(Match(round=round, home=home, away=away, open_room=open_room, closed_room=closed_room))
