"""Every write to the competition record.

Each service validates as a user would be told (``ValidationError`` naming the field), writes
in one transaction, and leaves nothing half-written when it refuses.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any, TypeVar

from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import services as audit
from audit import texts
from audit.hints import Choice
from bridge.engine.scores import EngineInputError, Weighted, parse_result
from bridge.engine.vp import parse_scale, scale_from_csv, victory_points
from scoring import recalculation, roles
from scoring.i18n import translate
from scoring.models import (
    Adjustment,
    AuditorAssignment,
    AuthoritySetting,
    Board,
    BoardScore,
    Contestant,
    EffectiveScore,
    Event,
    Match,
    MatchPenalty,
    MatchScore,
    OfficialScorePosting,
    Player,
    RegulatingAuthority,
    Result,
    Round,
    ScoreChange,
    Section,
    Session,
    Table,
    Tournament,
    TournamentOfficial,
    VictoryPointScale,
)
from scoring.retry import atomic_with_retry
from scoring.texts import session_param

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.db.models import Model

    from bridge.engine.scores import Entry
    from scoring.presets import Preset

_M = TypeVar("_M", bound="Model")  # a model instance, returned as given

RESULT_FIELDS = (
    "board",
    "round",
    "table",
    "ns",
    "ew",
    "not_played",
    "contract",
    "declarer",
    "tricks",
    "lead",
    "score_ns",
)


def _save(instance: _M) -> _M:
    instance.full_clean()
    instance.save()
    return instance


def _update(instance: _M, fields: dict[str, Any]) -> _M:
    for name, value in fields.items():
        setattr(instance, name, value)
    return _save(instance)


@transaction.atomic
def create_authority(*, name: str, code: str, **fields: Any) -> RegulatingAuthority:
    return _save(RegulatingAuthority(name=name, code=code, **fields))


@transaction.atomic
def set_authority_setting(
    *, authority: RegulatingAuthority, key: str, value: Any, effective_from: datetime.date, note: str = ""
) -> AuthoritySetting:
    """Record a regulation's value from a date on; the same date again replaces the value."""
    setting = AuthoritySetting.objects.filter(authority=authority, key=key, effective_from=effective_from).first()
    setting = setting or AuthoritySetting(authority=authority, key=key, effective_from=effective_from)
    setting.value, setting.note = value, note
    return _save(setting)


@transaction.atomic
def create_tournament(
    *, authority: RegulatingAuthority, name: str, start_date: datetime.date, end_date: datetime.date, **fields: Any
) -> Tournament:
    return _save(Tournament(authority=authority, name=name, start_date=start_date, end_date=end_date, **fields))


def ensure_role_groups() -> dict[str, Group]:
    return {name: Group.objects.get_or_create(name=name)[0] for name in roles.ROLES}


@transaction.atomic
def grant_role(*, user: User, role: str) -> None:
    if role not in roles.ROLES:
        raise ValidationError({"role": _("'%(role)s' is not a role.") % {"role": role}})
    user.groups.add(Group.objects.get_or_create(name=role)[0])
    user.__dict__.pop("_role_names", None)


@transaction.atomic
def appoint_official(*, tournament: Tournament, user: User, role: str) -> TournamentOfficial:
    """Give ``user`` a role at ``tournament`` (and the matching group)."""
    official, _created = TournamentOfficial.objects.get_or_create(tournament=tournament, user=user, role=role)
    grant_role(user=user, role=role)
    return official


@transaction.atomic
def appoint_auditor(*, authority: RegulatingAuthority, user: User) -> AuditorAssignment:
    assignment, _created = AuditorAssignment.objects.get_or_create(authority=authority, user=user)
    grant_role(user=user, role=roles.NATIONAL_AUDITOR)
    return assignment


@transaction.atomic
def create_event(*, tournament: Tournament, name: str, kind: Choice) -> Event:
    return _save(Event(tournament=tournament, name=name, kind=kind))


@transaction.atomic
def create_session(
    *,
    event: Event,
    number: int,
    name: str = "",
    starts_at: datetime.datetime | None = None,
    is_last: bool = False,
    sections: Iterable[str] = ("A",),
) -> Session:
    session = _save(Session(event=event, number=number, name=name, starts_at=starts_at, is_last=is_last))
    for section_name in sections:
        _save(Section(session=session, name=section_name))
    return session


@transaction.atomic
def add_rounds(*, session: Session, count: int) -> list[Round]:
    return [Round.objects.get_or_create(session=session, number=n)[0] for n in range(1, count + 1)]


@transaction.atomic
def add_tables(*, section: Section, count: int) -> list[Table]:
    return [Table.objects.get_or_create(section=section, number=n)[0] for n in range(1, count + 1)]


@transaction.atomic
def add_table(*, section: Section, number: int) -> Table:
    return Table.objects.get_or_create(section=section, number=number)[0]


@transaction.atomic
def add_round(*, session: Session, number: int) -> Round:
    return Round.objects.get_or_create(session=session, number=number)[0]


@transaction.atomic
def create_session_section(*, session: Session, name: str) -> Section:
    return _save(Section(session=session, name=name))


@transaction.atomic
def register_player(
    *, authority: RegulatingAuthority, first_name: str, last_name: str, membership_number: str, **fields: Any
) -> Player:
    return _save(
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
    *, event: Event, number: int, members: Iterable[Player], name: str = "", captain: Player | None = None
) -> Contestant:
    """Enter a pair, team or individual. A pair has two members, an individual one, a team four
    to six. No members at all means "not yet known" (an import from a scoring program that
    gives only pair numbers); the members can be added later."""
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
    contestant = _save(Contestant(event=event, kind=kind, number=number, name=name, captain=captain))
    contestant.members.set(members)
    return contestant


@transaction.atomic
def create_board(
    *, session: Session, number: int, dealer: str | None = None, vulnerability: str | None = None, deal: str = ""
) -> Board:
    """A board; dealer and vulnerability default to the 16-board cycle of its number."""
    from bridge.engine.contract import board_dealer, board_vulnerability

    return _save(
        Board(
            session=session,
            number=number,
            dealer=dealer or board_dealer(number),
            vulnerability=vulnerability or board_vulnerability(number),
            deal=deal,
        )
    )


@transaction.atomic
def update_board(*, board: Board, **fields: Any) -> Board:
    return _update(board, fields)


@transaction.atomic
def create_match(*, round: Round, home: Contestant, away: Contestant, open_room: Table, closed_room: Table) -> Match:
    if home.event_id != away.event_id or not home.event.is_teams:
        raise ValidationError({"away": _("A match is between two teams of the same team event.")})
    return _save(Match(round=round, home=home, away=away, open_room=open_room, closed_room=closed_room))


@atomic_with_retry
def record_result(
    *,
    board: Board,
    round: Round,
    table: Table,
    ns: Contestant,
    ew: Contestant,
    contract: str = "",
    declarer: str = "",
    tricks: int | None = None,
    lead: str = "",
    not_played: bool = False,
) -> Result:
    """Record the table result of one board; the Law 77 score is computed from it."""
    recalculation.lock_board(board.pk)  # the board before its results, as everywhere
    result = Result(
        board=board,
        round=round,
        table=table,
        ns=ns,
        ew=ew,
        contract=contract or "",
        declarer=declarer or "",
        tricks=tricks,
        lead=(lead or "").upper(),
        not_played=not_played,
    )
    _check_not_recorded(result)
    _save(result)
    recalculation.mark_board_dirty(board)
    audit.record(
        action="result.recorded",
        obj=result,
        after=audit.snapshot(result, RESULT_FIELDS),
        tournament=board.session.event.tournament_id,
        summary=texts.text("scoring.result", board=board.number, table=table.number, what=str(result.contract_display)),
    )
    return result


@atomic_with_retry
def correct_result(*, result: Result, **fields: Any) -> Result:
    """Change a recorded table result (a Law 79 correction)."""
    fields.setdefault("declarer", fields.get("declarer", result.declarer) or "")
    if "lead" in fields:
        fields["lead"] = (fields["lead"] or "").upper()
    recalculation.lock_board(result.board_id)  # the board before its results, as everywhere
    result = recalculation.lock_result(result.pk)
    before = audit.snapshot(result, RESULT_FIELDS)
    seats = (result.ns_id, result.ew_id)
    _update(result, fields)
    if (result.ns_id, result.ew_id) != seats:
        # Its board score was another pair's: without it the recalculation totals the event
        # from scratch instead of moving the old pair's totals.
        BoardScore.objects.filter(result=result).delete()
    recalculation.mark_board_dirty(result.board)
    audit.record(
        action="result.corrected",
        obj=result,
        before=before,
        after=audit.snapshot(result, RESULT_FIELDS),
        tournament=result.board.session.event.tournament_id,
        summary=texts.text(
            "scoring.result", board=result.board.number, table=result.table.number, what=str(result.contract_display)
        ),
    )
    return result


def _check_not_recorded(result: Result) -> None:
    """Say in words which constraint a second result for the same board would break."""
    clashes = Result.objects.filter(board=result.board)
    if clashes.filter(table=result.table).exists():
        raise ValidationError(
            {
                "table": _("Board %(b)s already has a result at table %(t)s.")
                % {"b": result.board.number, "t": result.table.number}
            }
        )
    # A team plays each board twice, once in each direction; a pair or an individual once.
    teams = result.board.session.event.is_teams
    for field, label in (("ns", "N-S"), ("ew", "E-W")):
        contestant = getattr(result, field)
        other = "ew" if field == "ns" else "ns"
        if clashes.filter(**{field: contestant}).exists() or (
            not teams and clashes.filter(**{other: contestant}).exists()
        ):
            raise ValidationError(
                {
                    field: _("%(c)s has already played board %(b)s (%(side)s).")
                    % {"c": contestant, "b": result.board.number, "side": label}
                }
            )


@transaction.atomic
def post_official_scores(
    *, session: Session, by: User | None = None, at: datetime.datetime | None = None, note: str = ""
) -> OfficialScorePosting:
    """Make the session's official score available: this starts the Law 79C and 92B clocks."""
    posting = _save(OfficialScorePosting(session=session, posted_by=by, posted_at=at or timezone.now(), note=note))
    audit.record(
        action="session.official_score_posted",
        obj=session,
        actor=by,
        after={"posted_at": posting.posted_at.isoformat(), "note": note},
        tournament=session.event.tournament_id,
        summary=texts.text("scoring.session_posted", event=session.event.name, session=session_param(session)),
    )
    return posting


def describe_score(kind: Choice, score: dict[str, Any] | None, result: Result) -> str:
    """A score in the words a scorer uses: "+420", "weighted 60% +420 / 40% -50", "AVE+ / AVE-"."""
    if kind == Adjustment.TABLE or score is None:
        if result.not_played:
            return _("not played")
        return f"{result.contract_display} {result.score_ns:+d}" if result.contract != "PASS" else _("passed out")

    def one(value: Any) -> str:
        if isinstance(value, list):
            return "weighted " + " / ".join(f"{_percent(w)} {int(p):+d}" for p, w in value)
        if isinstance(value, dict):
            return (
                "redress (table {table:+d}, normal play {normal_play:+d}, without the infraction "
                "{without_infraction:+d})".format(**{k: int(v) for k, v in value.items() if k != "non_offending"})
            )
        if isinstance(value, int):
            return f"{value:+d}"
        return str(value)

    ns, ew = score.get("ns"), score.get("ew")
    if ew is None or ew == ns:
        return one(ns)
    return f"N-S {one(ns)}, E-W {one(ew)}"


def _percent(weight: Any) -> str:
    from bridge.engine.rounding import exact_str, to_fraction

    value = to_fraction(weight) * 100
    return f"{exact_str(value) if value.denominator != 1 else value.numerator}%"


def validate_effective_score(
    *, result: Result, score: dict[str, Any] | None, penalty: dict[str, Any] | None = None, outside_agency: bool = False
) -> Entry:
    """Check an adjusted score against the engine and the regulating authority's settings;
    raise ValidationError on ``score`` saying what is allowed."""
    regs = result.board.session.event.tournament.regulations()
    authority = result.board.session.event.tournament.authority
    data = {"id": result.pk, **(score or {"ns": result.score_ns})}
    if penalty:
        data["penalty"] = penalty
    if outside_agency:
        data["outside_agency"] = True
    try:
        entry = parse_result(
            data,
            where=_("board %(board)s, table %(table)s") % {"board": result.board.number, "table": result.table.number},
            max_components=regs["weighted_max_components"],
            weight_decimals=regs["weight_decimals"],
        )
    except EngineInputError as error:
        raise ValidationError({"score": translate(error)}) from None
    if not regs["weighted_scores_allowed"] and any(isinstance(entry.raw(side), Weighted) for side in ("NS", "EW")):
        raise ValidationError(
            {
                "score": _(
                    "%(body)s does not allow weighted scores: assign one result to each side, the most favourable "
                    "likely result to the non-offenders and the most unfavourable probable one to the offenders "
                    "(Law 12C1e)."
                )
                % {"body": authority}
            }
        )
    return entry


@atomic_with_retry
def set_effective_score(
    *,
    result: Result,
    kind: Choice,
    score: dict[str, Any] | None = None,
    reason: str,
    penalty: dict[str, Any] | None = None,
    outside_agency: bool = False,
    cause_type: str = "",
    cause_id: int | None = None,
    cause_label: str = "",
    by: User | None = None,
    description: str = "",
) -> ScoreChange:
    """Set what ``result`` counts for: its table result (``kind="table"``, no score) or an
    adjusted score in the engine's form (``{"ns": ..., "ew": ...}``), with a reason and an
    optional cause (a ruling or decision). Logs the change and schedules the recalculation."""
    if kind not in Adjustment.values:
        raise ValidationError({"kind": _("'%(kind)s' is not a kind of score.") % {"kind": kind}})
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say why the score changes: the players will ask.")})
    recalculation.lock_board(result.board_id)  # the board before its results, as everywhere
    result = recalculation.lock_result(result.pk, related=("board__session__event__tournament__authority", "table"))
    if kind == Adjustment.TABLE:
        score = None
    elif not score:
        raise ValidationError({"score": _("An adjusted score needs a score for N-S (and E-W if it differs).")})
    if kind != Adjustment.TABLE or penalty:
        validate_effective_score(result=result, score=score, penalty=penalty, outside_agency=outside_agency)
    elif result.not_played:
        raise ValidationError({"kind": _("This board was not played: give it an adjusted score.")})
    current = EffectiveScore.objects.filter(result=result).first()
    old_kind = current.kind if current else Adjustment.TABLE
    old_value = current.score if current else None
    old_description = current.description if current else describe_score(Adjustment.TABLE, None, result)
    new_description = description or describe_score(kind, score, result)
    if kind == Adjustment.TABLE and not penalty:
        if current:
            current.delete()
    else:
        current = current or EffectiveScore(result=result)
        current.kind, current.score, current.penalty = kind, score, penalty
        current.outside_agency, current.description = outside_agency, new_description
        _save(current)
    board_score = BoardScore.objects.filter(result=result).first()
    version = recalculation.mark_board_dirty(result.board)
    audit.record(
        action="score.adjusted" if kind != Adjustment.TABLE else "score.table_result_restored",
        obj=result,
        actor=by,
        tournament=result.board.session.event.tournament_id,
        before={"kind": old_kind, "score": old_value, "description": old_description},
        after={
            "kind": kind,
            "score": score,
            "penalty": penalty,
            "description": new_description,
            "reason": reason.strip(),
            "cause": cause_label or cause_type,
        },
        summary=texts.text(
            "scoring.result", board=result.board.number, table=result.table.number, what=str(new_description)
        ),
    )
    return ScoreChange.objects.create(
        result=result,
        changed_by=by,
        old_kind=old_kind,
        old_value=old_value,
        old_description=old_description,
        new_kind=kind,
        new_value=score,
        new_description=new_description,
        reason=reason.strip(),
        cause_type=cause_type,
        cause_id=cause_id,
        cause_label=cause_label,
        board_version=version,
        ns_before=board_score.ns if board_score else None,
        ew_before=board_score.ew if board_score else None,
    )


# --- Regulating-authority presets (scoring/presets) --------------------------------------------


def _preset(code: str) -> Preset:
    from scoring import presets

    if code not in presets.available():
        raise ValidationError(
            {
                "preset": _("'%(code)s' is not a preset: one of %(choices)s.")
                % {"code": code, "choices": ", ".join(presets.available())}
            }
        )
    return presets.load(code)


@transaction.atomic
def create_authority_with_preset(
    *, name: str, code: str, preset: str, by: User | None = None, **fields: Any
) -> RegulatingAuthority:
    """A regulating authority that starts with a preset's dated settings (``preset`` a code of
    scoring/presets, e.g. "ebu"); an empty ``preset`` leaves it on the Laws' defaults. The one
    road for the admin's add form, the API and ``create_authority --preset``: audited."""
    chosen = _preset(preset) if preset else None
    authority = create_authority(name=name, code=code, **fields)
    audit.record(
        action="authority.created",
        obj=authority,
        actor=by,
        after={
            "name": authority.name,
            "code": authority.code,
            "country": authority.country,
            "language": authority.language,
            "time_zone": authority.time_zone,
            "preset": chosen.code if chosen else "",
        },
        summary=texts.text("scoring.created_preset", authority=str(authority), code=chosen.code)
        if chosen
        else texts.text("scoring.created", authority=str(authority)),
    )
    if chosen is not None:
        apply_preset(authority=authority, preset=chosen.code, by=by)
    return authority


@transaction.atomic
def apply_preset(*, authority: RegulatingAuthority, preset: str, by: User | None = None) -> list[AuthoritySetting]:
    """Write each dated value of the preset that ``authority`` has no value for on that date, with
    its source as the note, and record the preset from its first date. A value already recorded
    for a setting and date is left as it is: applying a later edition of a preset adds its new
    dated values without rewriting history, nor the body's own changes. Returns what was written."""
    chosen = _preset(preset)
    RegulatingAuthority.objects.select_for_update().get(pk=authority.pk)
    recorded = set(authority.settings.values_list("key", "effective_from"))
    written = []
    if ("preset", chosen.first_date) not in recorded:
        written.append(
            set_authority_setting(
                authority=authority,
                key="preset",
                value=chosen.code,
                effective_from=chosen.first_date,
                note=f"Preset {chosen.code}: {chosen.name}",
            )
        )
    for entry in chosen.entries:
        if (entry.key, entry.effective_from) in recorded:
            continue
        written.append(
            set_authority_setting(
                authority=authority,
                key=entry.key,
                value=entry.value,
                effective_from=entry.effective_from,
                note=entry.note(chosen.code),
            )
        )
    audit.record(
        action="authority.preset_applied",
        obj=authority,
        actor=by,
        after={"preset": chosen.code, "written": [[s.key, s.effective_from.isoformat()] for s in written]},
        summary=texts.text("scoring.preset", authority=str(authority), code=chosen.code, n=len(written)),
    )
    return written


# --- Penalties against a team in a match (Law 90) -----------------------------------------------

# What each value of the authority's ``team_penalty_units`` setting allows.
TEAM_PENALTY_UNITS = {"vps": ("vps",), "imps": ("imps",), "vps_or_imps": ("vps", "imps")}


def check_match_penalty_unit(event: Event, unit: str) -> None:
    """Refuse (on field ``unit``) a unit the event's match penalties cannot take: a knockout match
    takes IMPs only; otherwise the authority's ``team_penalty_units`` says which."""
    if unit not in MatchPenalty.Unit.values:
        raise ValidationError({"unit": _("'%(unit)s' is not a unit: VPs or IMPs.") % {"unit": unit}})
    if unit == MatchPenalty.Unit.VPS and event.kind == Event.Kind.KNOCKOUT_TEAMS:
        raise ValidationError({"unit": _("A knockout match is decided on IMPs: give the penalty in IMPs.")})
    allowed = TEAM_PENALTY_UNITS[event.tournament.regulations()["team_penalty_units"]]
    if event.kind != Event.Kind.KNOCKOUT_TEAMS and unit not in allowed:
        raise ValidationError(
            {
                "unit": _("%(body)s gives a team's penalties in a match in %(allowed)s, not in %(unit)s.")
                % {
                    "body": event.tournament.authority,
                    "allowed": " / ".join(str(MatchPenalty.Unit(u).label) for u in allowed),
                    "unit": MatchPenalty.Unit(unit).label,
                }
            }
        )


@transaction.atomic
def add_match_penalty(
    *, match: Match, team: Contestant, amount: Decimal | int | str, unit: str, offence: str, by: User | None = None
) -> MatchPenalty:
    """A procedural penalty against ``team`` in ``match``: ``amount`` VPs (off its VPs) or IMPs
    (off its IMP margin before the conversion), in a unit the authority's ``team_penalty_units``
    allows; a knockout match, scored without VPs, takes IMPs only. Audited; the event's
    standings are recalculated."""
    match = Match.objects.select_related("round__session__event__tournament__authority", "home", "away").get(
        pk=match.pk
    )
    event = match.round.session.event
    if not event.is_teams:
        raise ValidationError({"match": _("Penalties against a team in a match are for team events.")})
    if getattr(team, "pk", None) not in (match.home_id, match.away_id):
        raise ValidationError(
            {"team": _("%(team)s does not play in the match %(match)s.") % {"team": team, "match": match}}
        )
    check_match_penalty_unit(event, unit)
    try:
        value = Decimal(str(amount).strip())
    except InvalidOperation:
        value = None
    if value is None or not value.is_finite() or value <= 0 or value != value.quantize(Decimal("0.01")):
        raise ValidationError(
            {
                "amount": _("'%(amount)s' is not a penalty: a number above 0, with at most two decimals.")
                % {"amount": amount}
            }
        )
    if not (offence or "").strip():
        raise ValidationError({"offence": _("Say what the penalty is for: the team will ask.")})
    penalty = _save(MatchPenalty(match=match, team=team, amount=value, unit=unit, offence=offence.strip(), given_by=by))
    audit.record(
        action="match.penalty_added",
        obj=match,
        actor=by,
        tournament=event.tournament_id,
        after={"penalty": penalty.pk, "team": team.pk, "amount": str(value), "unit": unit, "offence": penalty.offence},
        summary=texts.text("scoring.match_penalty", **_penalty_words(match, penalty)),
    )
    _rescore_match(match)
    return penalty


def add_table_penalty(
    *, result: Result, side: str, amount: Decimal | int | str, unit: str, offence: str, by: User | None = None
) -> MatchPenalty:
    """A Law 90 penalty given at a table (with a ruling) against the team sitting ``side`` ("NS"
    or "EW"), taken off the match that table was part of in the result's round: the one way a
    ruling's penalty in VPs reaches a match (``add_match_penalty``'s checks apply)."""
    match = (
        Match.objects.filter(round_id=result.round_id)
        .filter(Q(open_room_id=result.table_id) | Q(closed_room_id=result.table_id))
        .first()
    )
    if match is None:
        raise ValidationError(
            {
                "unit": _(
                    "A penalty in %(unit)s is taken off a team's match: board %(board)s, table %(table)s is in no "
                    "match."
                )
                % {"unit": unit, "board": result.board.number, "table": result.table.number}
            }
        )
    team = result.ns if side.upper() == "NS" else result.ew
    return add_match_penalty(match=match, team=team, amount=amount, unit=unit, offence=offence, by=by)


def _penalty_words(match: Match, penalty: MatchPenalty) -> dict[str, Any]:
    return {
        "round": match.round.number,
        "match": str(match),
        "team": str(penalty.team),
        "amount": f"{penalty.amount.normalize():f}",
        "unit": penalty.unit,
        "offence": penalty.offence,
    }


@transaction.atomic
def withdraw_match_penalty(*, penalty: MatchPenalty, reason: str, by: User | None = None) -> MatchPenalty:
    """Withdraw a penalty given in error (it stays in the record, counted no more); audited and
    recalculated."""
    penalty = MatchPenalty.objects.select_for_update().select_related("match__round__session__event").get(pk=penalty.pk)
    if penalty.withdrawn_at is not None:
        raise ValidationError({"penalty": _("This penalty was already withdrawn.")})
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say why the penalty is withdrawn: the teams will ask.")})
    penalty.withdrawn_at, penalty.withdrawn_by, penalty.withdrawal_reason = timezone.now(), by, reason.strip()
    _save(penalty)
    match = penalty.match
    audit.record(
        action="match.penalty_withdrawn",
        obj=match,
        actor=by,
        tournament=match.round.session.event.tournament_id,
        before={"penalty": penalty.pk, "amount": str(penalty.amount), "unit": penalty.unit},
        after={"reason": penalty.withdrawal_reason},
        summary=texts.text("scoring.match_penalty_withdrawn", **_penalty_words(match, penalty)),
    )
    _rescore_match(match)
    return penalty


def _rescore_match(match: Match) -> int | None:
    """The match's standings through the pipeline: its first board is marked as changed, so a
    worker (or the sweep, if the broker is down) recalculates the event."""
    board = Board.objects.filter(results__round=match.round, results__table=match.open_room).order_by("number").first()
    if board is None:
        return None  # nothing played yet: the penalty counts once the boards are scored
    recalculation.lock_board(board.pk)
    return recalculation.mark_board_dirty(board)


# --- Victory-point scales: a body's own, and an event's choice (issue #15) ------------------------

VP_SCALE_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


def _number_text(value: Any) -> str:
    return f"{Decimal(str(value)).normalize():f}"


@transaction.atomic
def add_vp_scale(
    *,
    authority: RegulatingAuthority,
    name: str,
    source: str,
    max_vp: Any,
    text: str = "",
    tables: dict[str, Any] | None = None,
    by: User | None = None,
) -> VictoryPointScale:
    """Record a regulating authority's own discrete VP scale (its 25-VP scale, say) from its
    source: the bands as CSV ``text``, one a line (``boards,imps_from,winner_vp,loser_vp``), or
    ``tables`` in the engine's format. The engine checks every table (bridge.engine.vp.
    parse_scale); the scale becomes a choice, "<code>:<name>", for the body's ``vp_scale``
    setting and its events. Only a superuser, who records the body's regulations, may; audited."""
    if by is None or not by.is_superuser:
        raise PermissionDenied(_("Only a superuser records a regulating authority's regulations and its scales."))
    name = (name or "").strip().lower()
    errors = {}
    if not VP_SCALE_NAME.fullmatch(name):
        errors["name"] = _("'%(name)s' is not a scale's name: up to 40 letters, digits and hyphens (e.g. vp25).") % {
            "name": name
        }
    elif VictoryPointScale.objects.filter(authority=authority, name=name).exists():
        errors["name"] = _("%(body)s already has a scale named %(name)s.") % {"body": authority, "name": name}
    if not (source or "").strip():
        errors["source"] = _("Say where the numbers come from: the publication, with its date or edition.")
    if errors:
        raise ValidationError(errors)
    choice = f"{authority.code}:{name}"
    try:
        if tables is None:
            _scale, data = scale_from_csv(text or "", name=choice, max_vp=max_vp, source=source)
            tables = data["tables"]  # type: ignore[assignment]
        else:
            parse_scale({"name": choice, "max_vp": max_vp, "tables": tables})
    except EngineInputError as error:
        raise ValidationError({"max_vp" if error.field == "max_vp" else "tables": translate(error)}) from None
    assert tables is not None
    stored = {
        str(key).replace(" ", ""): [[_number_text(value) for value in row] for row in rows]
        for key, rows in tables.items()
    }
    scale = _save(
        VictoryPointScale(
            authority=authority,
            name=name,
            source=source.strip(),
            max_vp=Decimal(str(max_vp).strip()),
            tables=stored,
            created_by=by,
        )
    )
    audit.record(
        action="authority.vp_scale_added",
        obj=scale,
        actor=by,
        after={"scale": choice, "source": scale.source, "max_vp": _number_text(scale.max_vp), "tables": stored},
        summary=texts.text("scoring.vp_scale_added", authority=str(authority), scale=choice),
    )
    return scale


@transaction.atomic
def set_event_vp_scale(*, event: Event, scale: str, by: User | None = None) -> Event:
    """Choose the victory-point scale of a team event scored in VPs (round robin or Swiss): one
    of the shipped scales or the regulating authority's own, or empty for the authority's
    ``vp_scale`` setting. Only the tournament's chief director or scorer, or a superuser, may.
    Audited; the event's matches and standings are recalculated with it."""
    from scoring import selectors, vp_scales

    event = Event.objects.select_related("tournament__authority").get(pk=event.pk)
    tournament = event.tournament
    if by is None or not selectors.can_choose_vp_scale(by, tournament):
        raise PermissionDenied(
            _("Only the tournament's chief director or scorer chooses an event's victory-point scale.")
        )
    if not event.scored_in_vps:
        raise ValidationError(
            {
                "vp_scale": _(
                    "%(event)s is not scored in victory points: only a round robin or Swiss teams event chooses a "
                    "scale."
                )
                % {"event": event.name}
            }
        )
    scale = (scale or "").strip()
    allowed = vp_scales.choices(tournament.authority)
    authority_scale = tournament.regulations()["vp_scale"]
    if scale and scale not in allowed:
        raise ValidationError(
            {
                "vp_scale": _(
                    "'%(scale)s' is not a victory-point scale: one of %(choices)s, or empty for the regulating "
                    "authority's (%(default)s)."
                )
                % {"scale": scale, "choices": ", ".join(allowed), "default": authority_scale}
            }
        )
    in_force = scale or authority_scale
    engine_scale = vp_scales.engine_scale(tournament.authority, in_force)
    for boards in sorted(
        {len(b) for b in MatchScore.objects.filter(match__round__session__event=event).values_list("boards", flat=True)}
    ):
        try:
            victory_points(0, boards, engine_scale)
        except EngineInputError:
            raise ValidationError(
                {
                    "vp_scale": _("The %(scale)s scale has no table for %(n)s boards, and this event has such matches.")
                    % {"scale": in_force, "n": boards}
                }
            ) from None
    before = event.vp_scale
    if scale == before:
        return event
    event.vp_scale = scale
    _save(event)
    audit.record(
        action="event.vp_scale_set",
        obj=event,
        actor=by,
        tournament=tournament.pk,
        before={"vp_scale": before},
        after={"vp_scale": scale, "in_force": in_force},
        summary=texts.text("scoring.event_vp_scale", event=event.name, scale=in_force),
    )
    _rescore_event(event)
    return event


def _rescore_event(event: Event) -> int | None:
    """The event's matches and standings through the pipeline: one board marked as changed is
    enough, since a team event's standings are recomputed from every match."""
    board = Board.objects.filter(session__event=event).order_by("pk").first()
    if board is None:
        return None
    recalculation.lock_board(board.pk)
    return recalculation.mark_board_dirty(board)
