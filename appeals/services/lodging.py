"""Lodging (Law 92A-C), the extension of the appeal period, concurrence (92D), statements,
deposits and withdrawal."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

import appeals.services.filings as filings
from appeals import lifecycle, selectors
from appeals.lifecycle import Step
from appeals.models import (
    Appeal,
    AppealPart,
    AppealRequest,
    Concurrence,
    DeadlineExtension,
    Deposit,
    Filing,
    FurtherAppeal,
    Stage,
)
from appeals.selectors import deposit_due
from appeals.services.common import (
    Action,
    advance,
    locked,
    log_step,
    refuse,
    require_chief,
    require_director,
    require_open,
    require_sitting,
    require_text,
    ruling_name,
    save_checked,
    setting,
    settle_ruling,
)
from appeals.texts import moment_param
from audit import services as audit
from audit.hints import Choice
from core import policy, texts
from core.retry import atomic_with_retry
from rulings import lifecycle as ruling_lifecycle
from rulings.models import Ruling
from scoring import deadlines
from scoring.models import Tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from scoring.models import Contestant, Player

# --- Lodging ---------------------------------------------------------------------------------


def _parts(parts: list[dict[str, Any]] | None, grounds: str) -> list[tuple[Choice, str]]:
    parts = parts or [{"kind": AppealPart.Kind.JUDGEMENT, "question": grounds}]
    cleaned = []
    for index, part in enumerate(parts, start=1):
        kind, question = part.get("kind"), (part.get("question") or "").strip()
        if kind not in AppealPart.Kind.values:
            refuse(
                f"parts[{index}]",
                _("'%(k)s' is not a kind of part: law (law or regulation) or judgement.") % {"k": kind},
            )
        if not question:
            refuse(f"parts[{index}]", _("Say what the part asks."))
        cleaned.append((kind, question))
    return cleaned


def _require_appealable(ruling: Ruling) -> None:
    """A ruling given at the table, not already changed on appeal."""
    if ruling.state == Ruling.State.DRAFT:
        refuse(
            "ruling",
            _("%(r)s has not been given yet: only a ruling given at the table can be appealed.") % {"r": ruling},
        )
    if ruling.state == Ruling.State.CHANGED_BY_APPEAL:
        refuse(
            "ruling",
            _(
                "%(r)s has already been changed on appeal: what remains is a further appeal to the "
                "regulating authority (Law 93C)."
            )
            % {"r": ruling},
        )


def _appellants(ruling: Ruling, player: Player, now: datetime.datetime) -> tuple[str, Contestant, filings.Period]:
    """A player's appeal (Law 92A): their side at the table, the contestant appealing, and the
    appeal period at ``now`` (late or not: a late appeal is received, and its body decides
    whether it is valid). Refused when the side has already appealed."""
    tournament = ruling.tournament
    side, result = selectors.side_of(player, ruling), ruling.given_result
    if side is None:
        refuse(
            "player",
            _(
                "%(p)s did not play at this table: only N-S (%(ns)s) or E-W (%(ew)s), or their "
                "captains, may appeal this ruling (Law 92A)."
            )
            % {"p": player, "ns": result.ns, "ew": result.ew},
        )
    earlier = Appeal.objects.filter(ruling=ruling, side=side, origin=Appeal.Origin.PLAYER).first()
    if earlier:
        refuse(
            "side",
            _("%(side)s has already appealed %(r)s (appeal %(n)s, lodged at %(when)s).")
            % {
                "side": "N-S" if side == "NS" else "E-W",
                "r": ruling,
                "n": earlier.number,
                "when": selectors.local_time(earlier.lodged_at, tournament),
            },
        )
    appellant = result.ns if side == "NS" else result.ew
    return side, appellant, filings.appeal_period(ruling, now)


@atomic_with_retry
def lodge_appeal(
    *,
    ruling: Ruling,
    by: User,
    grounds: str,
    player: Player | None = None,
    origin: Choice = Appeal.Origin.PLAYER,
    parts: list[dict[str, Any]] | None = None,
    now: datetime.datetime | None = None,
    filing: Filing | None = None,
    language: str | None = None,
) -> Appeal:
    """Record an appeal against ``ruling``, lodged by ``player`` (a member or the captain of the
    N-S or E-W contestant at the ruling's table) through the director ``by`` (Law 92C); or, with
    ``origin="director"``, the director's own referral (Law 83), which needs no player, no
    concurrence and no deposit and has no deadline.

    ``parts`` is a list of ``{"kind": "law" | "judgement", "question": ...}``; by default one
    judgement part in the appellants' words. The ruling goes under appeal.

    A player's appeal is a filing (appeals/services/filings.py): numbered, timed and
    acknowledged in ``language``, or, lodged from a request, the request's ``filing``. After the
    appeal period it is still received: its body decides whether it is valid.
    """
    now = now or timezone.now()
    ruling = (
        Ruling.objects.select_for_update(of=("self",))
        .select_related("result__board__session__event__tournament__authority", "result__ns", "result__ew")
        .get(pk=ruling.pk)
    )
    tournament = ruling.tournament
    require_director(by, "lodge", tournament, _("an appeal is lodged through a director of the tournament (Law 92C)."))
    _require_appealable(ruling)
    grounds = require_text("grounds", grounds, _("Write the grounds of the appeal in the appellants' words."))
    cleaned_parts = _parts(parts, grounds)
    if origin == Appeal.Origin.PLAYER:
        if player is None:
            refuse("player", _("Say which player lodges the appeal."))
        # A request's filing was received when the player made it: it is in time or late from then.
        side, appellant, period = _appellants(ruling, player, filing.received_at if filing else now)
    elif origin == Appeal.Origin.DIRECTOR:
        player, side, appellant = None, "", None
        period = filings.Period(ruling.appeal_deadline(), None, False)
        earlier = Appeal.objects.filter(ruling=ruling, origin=Appeal.Origin.DIRECTOR).first()
        if earlier:
            refuse(
                "origin",
                _("The director has already referred %(r)s (appeal %(n)s).") % {"r": ruling, "n": earlier.number},
            )
    else:
        refuse("origin", _("An appeal comes from a player or is referred by the director."))
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # numbers are given one at a time
    last = Appeal.objects.filter(ruling__result__board__session__event__tournament=tournament).aggregate(
        n=Max("number")
    )["n"]
    decide_by, at_once = deadlines.decide_by(ruling.session, now, tournament.regulations())
    appeal = save_checked(
        Appeal(
            ruling=ruling,
            number=(last or 0) + 1,
            state=lifecycle.APPEAL.target(lifecycle.START, Step.LODGE),
            origin=origin,
            side=side,
            appellant=appellant,
            lodged_by=player,
            recorded_by=by,
            lodged_at=now,
            deadline=period.deadline,
            extension=period.extension,
            decide_by=decide_by,
            hear_at_once=at_once,
            grounds=grounds,
        )
    )
    for kind, question in cleaned_parts:
        save_checked(AppealPart(appeal=appeal, kind=kind, question=question))
    if player is not None:
        _received(appeal, player, by=by, now=now, period=period, filing=filing, language=language)
    if player is not None and player in selectors.concurrence_needed(appeal):
        Concurrence.objects.create(
            appeal=appeal, player=player, how=Concurrence.How.LODGED, recorded_by=by, recorded_at=now
        )
    ruling_lifecycle.RULING.move(ruling, ruling_lifecycle.Step.APPEAL)
    fields = ["state", "updated_at"]
    if origin == Appeal.Origin.DIRECTOR:
        ruling.appeal_notice, ruling.appeal_notice_at = Ruling.AppealNotice.REFERRED, now
        fields += ["appeal_notice", "appeal_notice_at"]
    ruling.save(update_fields=fields)
    if origin == Appeal.Origin.DIRECTOR:
        note = texts.text("appeals.referred", r=ruling_name(ruling))
        log_step(appeal, Action.REFERRED, by=by, at=now, note=note)
    else:
        log_step(appeal, Action.LODGED, by=by, at=now, note=_lodged_note(appeal, period))
    return appeal


def _received(
    appeal: Appeal,
    player: Player,
    *,
    by: User,
    now: datetime.datetime,
    period: filings.Period,
    filing: Filing | None,
    language: str | None,
) -> Filing:
    """A player's appeal is a filing: the request's it was lodged from, or one received now."""
    if filing is not None:
        return filings.attach(filing, appeal)
    return filings.receive(
        ruling=appeal.ruling,
        kind=Filing.Kind.APPEAL,
        filer=player,
        by=by,
        text=appeal.grounds,
        now=now,
        period=period,
        appeal=appeal,
        language=language,
    )


def _lodged_note(appeal: Appeal, period: filings.Period) -> texts.Coded:
    """The timeline's note of a player's appeal: who appeals, and when it came in the period."""
    ruling = appeal.ruling
    values: dict[str, Any] = {
        "side": appeal.side,
        "c": str(appeal.appellant),
        "r": ruling_name(ruling),
        "p": str(appeal.lodged_by),
    }
    if period.deadline is None:
        values["no_clock"] = True
    if period.extension:
        values.update(until=moment_param(period.extension.until, ruling.tournament), reason=period.extension.reason)
    if period.late:
        values["late"] = True
    return texts.text("appeals.lodged", **values)


def extension_allowed(tournament: Tournament) -> bool:
    """The regulating authority's setting in force at the tournament: Law 92B gives it the appeal
    period, so whether the director in charge may extend it after it has run is its to say."""
    return setting(tournament, "appeal_period_extension") == "director_in_charge"


@atomic_with_retry
def extend_deadline(
    *, ruling: Ruling, by: User, until: datetime.datetime, reason: str, now: datetime.datetime | None = None
) -> DeadlineExtension:
    """The chief director lets ``ruling`` be appealed until ``until`` (an aware datetime), after
    the Law 92B period has run, for a stated reason, where the authority's setting
    ``appeal_period_extension`` allows it."""
    now = now or timezone.now()
    tournament = ruling.tournament
    require_chief(by, "extend_period", tournament, _("extends the appeal period"))
    if not extension_allowed(tournament):
        refuse(
            "until",
            _(
                "The regulations of %(body)s do not allow the appeal period to be extended (Law 92B gives the "
                "period to the regulating authority)."
            )
            % {"body": tournament.authority},
        )
    reason = require_text("reason", reason, _("Say why the appeal period is extended."))
    if until is None or timezone.is_naive(until):
        refuse("until", _("Give the time the extension ends, with its time zone."))
    deadline = ruling.appeal_deadline()
    if deadline is None:
        refuse(
            "until",
            _(
                "The official score of %(s)s has not been posted: the appeal period has not started, "
                "so there is nothing to extend."
            )
            % {"s": ruling.session},
        )
    if until <= deadline:
        refuse(
            "until",
            _("The appeal period already runs until %(when)s: an extension ends later.")
            % {"when": selectors.local_time(deadline, tournament)},
        )
    extension = save_checked(
        DeadlineExtension(ruling=ruling, until=until, reason=reason, granted_by=by, granted_at=now)
    )
    audit.record(
        action="ruling.appeal_period_extended",
        obj=ruling,
        actor=by,
        tournament=tournament.pk,
        before={"deadline": deadline.isoformat()},
        after={"until": until.isoformat(), "reason": reason},
        summary=f"{ruling}: the appeal period extended until {until.isoformat()} ({reason})"[:300],
    )
    return extension


@atomic_with_retry
def record_concurrence(
    *, appeal: Appeal, player: Player, how: Choice, by: User, now: datetime.datetime | None = None
) -> Concurrence:
    """Record that ``player`` agrees to the appeal (Law 92D): ``how`` is "in_person",
    "in_writing", or "deemed" for an absent partner where the regulations deem agreement."""
    now = now or timezone.now()
    appeal = locked(appeal)
    require_director(by, "concurrence", appeal.tournament, _("a director records the players' concurrence (Law 92D)."))
    require_open(appeal)
    if how not in (Concurrence.How.IN_PERSON, Concurrence.How.IN_WRITING, Concurrence.How.DEEMED):
        refuse("how", _("Say how the player agreed: in person, in writing, or deemed (absent)."))
    needed = selectors.concurrence_needed(appeal)
    if not needed:
        refuse(
            "player",
            _("No concurrence is needed: %(why)s.")
            % {
                "why": _("the director referred the case")
                if appeal.origin == Appeal.Origin.DIRECTOR
                else _("in an individual event nobody else concurs")
            },
        )
    if player not in needed:
        appellant = appeal.appellant  # someone's concurrence is needed: a player's appeal
        if appellant is not None and appellant.kind == "team":
            refuse(
                "player",
                _("In a team event the captain concurs (Law 92D): %(captain)s, not %(p)s.")
                % {"captain": appellant.captain or _("no captain is recorded"), "p": player},
            )
        refuse("player", _("%(p)s is not a member of %(c)s, the appellants.") % {"p": player, "c": appellant})
    if how == Concurrence.How.DEEMED and not setting(appeal.tournament, "absent_partner_deemed_to_agree"):
        refuse(
            "how",
            _(
                "%(body)s's regulations do not deem an absent partner to agree: %(p)s must agree, or the "
                "appeal cannot be heard."
            )
            % {"body": appeal.tournament.authority, "p": player},
        )
    earlier = appeal.concurrences.filter(player=player).first()
    if earlier:
        refuse(
            "player",
            _("%(p)s's concurrence is already recorded (%(how)s).")
            % {"p": player, "how": earlier.get_how_display().lower()},
        )
    concurrence = save_checked(Concurrence(appeal=appeal, player=player, how=how, recorded_by=by, recorded_at=now))
    log_step(
        appeal,
        Action.CONCURRENCE,
        by=by,
        at=now,
        note=texts.text("appeals.concurrence", p=str(player), how=concurrence.how),
    )
    return concurrence


@atomic_with_retry
def record_statement(
    *,
    appeal: Appeal,
    by: User,
    grounds: str | None = None,
    respondents_statement: str | None = None,
    now: datetime.datetime | None = None,
) -> Appeal:
    """Replace the appellants' grounds and/or the respondents' statement, until they are locked."""
    now = now or timezone.now()
    appeal = locked(appeal)
    require_director(by, "statements", appeal.tournament, _("a director records and locks the statements."))
    if appeal.statements_locked_at:
        field = "grounds" if grounds is not None else "respondents_statement"
        refuse(
            field,
            _("Both sides agreed the statements, and they were locked at %(when)s: they cannot change.")
            % {"when": selectors.local_time(appeal.statements_locked_at, appeal.tournament)},
        )
    if grounds is not None:
        appeal.grounds = require_text("grounds", grounds, _("The grounds cannot be empty."))
    if respondents_statement is not None:
        appeal.respondents_statement = respondents_statement.strip()
    save_checked(appeal)
    log_step(
        appeal,
        Action.STATEMENT,
        by=by,
        at=now,
        note=texts.text("appeals.statement_grounds" if grounds is not None else "appeals.statement_respondents"),
    )
    return appeal


@atomic_with_retry
def lock_statements(
    *, appeal: Appeal, by: User, agreed_by: Iterable[Player], now: datetime.datetime | None = None
) -> Appeal:
    """Lock the statements once a player (or captain) of each side at the table agrees them."""
    now = now or timezone.now()
    appeal = locked(appeal)
    require_director(by, "statements", appeal.tournament, _("a director records and locks the statements."))
    if appeal.statements_locked_at:
        refuse("statements", _("The statements are already locked."))
    sides = {selectors.side_of(player, appeal.ruling) for player in agreed_by}
    if not {"NS", "EW"} <= sides:
        refuse("agreed_by", _("Both sides agree the statements: a player or the captain of N-S and of E-W."))
    appeal.statements_locked_at = now
    appeal.save(update_fields=["statements_locked_at"])
    appeal.statements_agreed_by.set(agreed_by)
    log_step(appeal, Action.STATEMENTS_LOCKED, by=by, at=now, note=", ".join(str(p) for p in agreed_by))
    return appeal


@atomic_with_retry
def unlock_statements(*, appeal: Appeal, by: User, reason: str, now: datetime.datetime | None = None) -> Appeal:
    """The director in charge unlocks agreed statements, for a stated reason (a side's statement
    turned out to be wrong, say); both sides then agree them again."""
    now = now or timezone.now()
    appeal = locked(appeal)
    require_chief(by, "unlock_statements", appeal.tournament, _("unlocks agreed statements"))
    require_open(appeal)
    if not appeal.statements_locked_at:
        refuse("statements", _("The statements are not locked."))
    reason = require_text("reason", reason, _("Say why the statements are unlocked."))
    appeal.statements_locked_at = None
    appeal.save(update_fields=["statements_locked_at"])
    appeal.statements_agreed_by.clear()
    log_step(appeal, Action.STATEMENT, by=by, at=now, note=texts.text("appeals.statements_unlocked", reason=reason))
    return appeal


# --- Deposits ---------------------------------------------------------------------------------


@atomic_with_retry
def record_deposit(
    *, appeal: Appeal, by: User, stage: Choice = Stage.EVENT, now: datetime.datetime | None = None
) -> Deposit:
    """Record the deposit the regulations ask for (the amount for the event's kind), received by ``by``."""
    now = now or timezone.now()
    appeal = locked(appeal)
    _require_deposit_handler(by, appeal, stage)
    due = deposit_due(appeal, stage)
    if due is None:
        if appeal.origin == Appeal.Origin.DIRECTOR and stage == Stage.EVENT:
            why = _("the director referred the case")
        else:
            what = appeal.event.get_kind_display() if stage == Stage.EVENT else _("further appeal")
            why = _("%(body)s's regulations set none for this %(what)s") % {
                "body": appeal.tournament.authority,
                "what": what,
            }
        refuse("amount", _("No deposit is asked: %(why)s.") % {"why": why})
    if appeal.deposits.filter(stage=stage).exists():
        refuse("amount", _("The deposit was already received."))
    deposit = save_checked(
        Deposit(appeal=appeal, stage=stage, amount=due[0], currency=due[1], received_by=by, received_at=now)
    )
    log_step(
        appeal,
        Action.DEPOSIT_RECEIVED,
        by=by,
        at=now,
        note=texts.text(
            "appeals.deposit_received", amount=str(deposit.amount), currency=deposit.currency, state=deposit.state
        ),
    )
    return deposit


def _require_deposit_handler(by: User, appeal: Appeal, stage: Choice) -> None:
    """A director of the tournament handles a deposit; a further appeal's, also the regulating
    authority's national officer."""
    if stage == Stage.FURTHER and policy.may(by, "national_body", appeal.tournament):
        return
    require_director(by, "deposit", appeal.tournament, _("a director of the tournament handles the deposit."))


def _held(deposit: Deposit) -> Deposit:
    deposit = Deposit.objects.select_for_update(of=("self",)).select_related("appeal").get(pk=deposit.pk)
    if deposit.state != Deposit.State.HELD:
        refuse("state", _("This deposit was already %(state)s.") % {"state": deposit.get_state_display().lower()})
    return deposit


@atomic_with_retry
def return_deposit(*, deposit: Deposit, by: User, now: datetime.datetime | None = None) -> Deposit:
    """Give the deposit back once the case it was lodged for is over."""
    now = now or timezone.now()
    deposit = _held(deposit)
    appeal = deposit.appeal
    _require_deposit_handler(by, appeal, deposit.stage)
    if deposit.stage == Stage.EVENT and appeal.is_open:
        refuse("state", _("The deposit is held until the appeal is decided or withdrawn."))
    if deposit.stage == Stage.FURTHER and appeal.further.state != FurtherAppeal.State.DECIDED:
        refuse("state", _("The deposit is held until the further appeal is decided."))
    lifecycle.DEPOSIT_STATES.move(deposit, "return")
    deposit.settled_by, deposit.settled_at = by, now
    save_checked(deposit)
    log_step(appeal, Action.DEPOSIT_RETURNED, by=by, at=now, note=str(deposit.amount) + " " + deposit.currency)
    return deposit


@atomic_with_retry
def forfeit_deposit(*, deposit: Deposit, by: User, reason: str, now: datetime.datetime | None = None) -> Deposit:
    """Keep the deposit: at the event only when the appeal was found without merit (Law 92A)."""
    now = now or timezone.now()
    _require_deposit_handler(by, deposit.appeal, deposit.stage)
    return forfeit(deposit, by=by, reason=reason, now=now)


def forfeit(deposit: Deposit, *, by: User, reason: str, now: datetime.datetime) -> Deposit:
    """Keep a held deposit; ``find_without_merit`` calls it for the body that found the appeal
    without merit."""
    deposit = _held(deposit)
    reason = require_text("reason", reason, _("Say why the deposit is kept."))
    if deposit.stage == Stage.EVENT and not deposit.appeal.without_merit:
        refuse("state", _("A deposit is kept only when the appeal is found without merit (Law 92A)."))
    if deposit.stage == Stage.FURTHER and deposit.appeal.further.state != FurtherAppeal.State.DECIDED:
        refuse("state", _("The deposit is held until the further appeal is decided."))
    lifecycle.DEPOSIT_STATES.move(deposit, "forfeit")
    deposit.settled_by, deposit.settled_at, deposit.note = by, now, reason
    save_checked(deposit)
    log_step(
        deposit.appeal, Action.DEPOSIT_FORFEITED, by=by, at=now, note=f"{deposit.amount} {deposit.currency}: {reason}"
    )
    return deposit


# --- Withdrawal ---------------------------------------------------------------------------------


@atomic_with_retry
def request_withdrawal(
    *, appeal: Appeal, player: Player, by: User, reason: str = "", now: datetime.datetime | None = None
) -> Appeal:
    """The appellants ask to withdraw; the case stays open, as the body may still hear it."""
    now = now or timezone.now()
    appeal = locked(appeal)
    require_director(by, "withdrawal", appeal.tournament, _("a director records the appellants' request to withdraw."))
    require_open(appeal)
    appellant = appeal.appellant
    if appeal.origin == Appeal.Origin.DIRECTOR or appellant is None:
        refuse("player", _("The director referred this case: the players cannot withdraw it."))
    if not selectors.plays_for(player, appellant):
        refuse("player", _("Only the appellants (%(c)s) can ask to withdraw their appeal.") % {"c": appellant})
    if appeal.withdrawal_requested_at:
        refuse("player", _("Withdrawal was already asked for."))
    appeal.withdrawal_requested_at, appeal.withdrawal_requested_by = now, player
    appeal.withdrawal_reason = (reason or "").strip()
    save_checked(appeal)
    log_step(
        appeal,
        Action.WITHDRAWAL_REQUESTED,
        by=by,
        at=now,
        note=texts.text("appeals.withdrawal_requested", p=str(player), reason=appeal.withdrawal_reason),
    )
    return appeal


@atomic_with_retry
def accept_withdrawal(*, appeal: Appeal, by: User, now: datetime.datetime | None = None) -> Appeal:
    """The body (or, before one sits, the director in charge) lets the appellants withdraw."""
    now = now or timezone.now()
    appeal = locked(appeal)
    require_open(appeal)
    lifecycle.check(appeal, Step.WITHDRAW)
    body = appeal.body()
    if body is not None and body.sitting().exists():
        require_sitting(body, by, "decision", _("lets the appellants withdraw"))
    else:
        require_chief(by, "withdraw_unheard", appeal.tournament, _("lets the appellants withdraw before a body sits"))
    advance(appeal, Step.WITHDRAW, action=Action.WITHDRAWN, by=by, at=now)
    settle_ruling(appeal.ruling)
    return appeal


# --- A player's request to appeal ------------------------------------------------------------------


@atomic_with_retry
def request_appeal(
    *,
    ruling: Ruling,
    player: Player,
    by: User,
    grounds: str,
    about: Choice = AppealRequest.About.JUDGEMENT,
    now: datetime.datetime | None = None,
    language: str | None = None,
) -> AppealRequest:
    """``player`` (the user ``by`` in person) asks to appeal a ruling of their table; a director
    then lodges it (Law 92C) or, if it came in time, declines it, saying why. The request is a
    filing, numbered, timed and acknowledged in ``language``; one received after the appeal
    period is lodged all the same, and the body decides whether it is valid."""
    now = now or timezone.now()
    ruling = Ruling.objects.select_for_update(of=("self",)).get(pk=ruling.pk)
    if (
        player is None
        or player.user_id != by.pk
        or not policy.may(by, "request_appeal", ruling)
        or selectors.side_of(player, ruling) is None
    ):
        policy.refuse("request_appeal", by, ruling)
    if ruling.state not in (Ruling.State.GIVEN, Ruling.State.FINAL, Ruling.State.UNDER_APPEAL):
        refuse(
            "ruling",
            _("%(r)s cannot be appealed now (%(state)s).") % {"r": ruling, "state": ruling.get_state_display().lower()},
        )
    if about not in AppealRequest.About.values:
        refuse("about", _("Say whether the appeal is about judgement, law or regulation, or both."))
    grounds = require_text("grounds", grounds, _("Write the grounds of the appeal in the appellants' words."))
    period = filings.appeal_period(ruling, now)
    if AppealRequest.objects.filter(ruling=ruling, player=player, state=AppealRequest.State.OPEN).exists():
        refuse("ruling", _("Your request to appeal %(r)s is already with the director.") % {"r": ruling})
    lodged = selectors.side_appeal(ruling, selectors.side_of(player, ruling))
    if lodged is not None:
        refuse("ruling", _("Your side's appeal against %(r)s is lodged already: %(a)s.") % {"r": ruling, "a": lodged})
    request = save_checked(AppealRequest(ruling=ruling, player=player, grounds=grounds, about=about, requested_at=now))
    filings.receive(
        ruling=ruling,
        kind=Filing.Kind.REQUEST,
        filer=player,
        by=by,
        text=grounds,
        now=now,
        period=period,
        request=request,
        language=language,
    )
    audit.record(
        action="appeal_request.made",
        obj=request,
        actor=by,
        tournament=ruling.tournament.pk,
        before={},
        after={"ruling": ruling.pk, "player": player.pk, "at": now.isoformat()},
        summary=texts.text("appeals.audit_request", p=str(player), r=ruling_name(ruling)),
    )
    return request


def request_parts(request: AppealRequest) -> list[dict[str, Any]]:
    """The parts of an appeal lodged from a request: judgement, law alone, or both (93A/93B)."""
    if request.about == AppealRequest.About.LAW:
        return [{"kind": AppealPart.Kind.LAW, "question": request.grounds}]
    parts = [{"kind": AppealPart.Kind.JUDGEMENT, "question": request.grounds}]
    if request.about == AppealRequest.About.BOTH:
        parts.append({"kind": AppealPart.Kind.LAW, "question": request.grounds})
    return parts


@atomic_with_retry
def lodge_requested(*, request: AppealRequest, by: User, now: datetime.datetime | None = None) -> Appeal:
    """A director turns a player's request into a lodged appeal (Law 92C)."""
    now = now or timezone.now()
    request = (
        AppealRequest.objects.select_for_update(of=("self",)).select_related("ruling", "player").get(pk=request.pk)
    )
    require_director(
        by, "lodge", request.ruling.tournament, _("an appeal is lodged through a director of the tournament (Law 92C).")
    )
    if request.state != AppealRequest.State.OPEN:
        refuse("request", _("This request was already %(state)s.") % {"state": request.get_state_display()})
    appeal = lodge_appeal(
        ruling=request.ruling,
        by=by,
        grounds=request.grounds,
        player=request.player,
        parts=request_parts(request),
        now=now,
        filing=Filing.objects.filter(request=request).first(),
    )
    request.state, request.appeal, request.handled_by, request.handled_at = AppealRequest.State.LODGED, appeal, by, now
    save_checked(request)
    return appeal


@atomic_with_retry
def decline_request(
    *, request: AppealRequest, by: User, reason: str, now: datetime.datetime | None = None
) -> AppealRequest:
    """A director declines a player's request to appeal, saying why (the player reads it)."""
    now = now or timezone.now()
    request = AppealRequest.objects.select_for_update(of=("self",)).select_related("ruling").get(pk=request.pk)
    require_director(by, "lodge", request.ruling.tournament, _("a director answers a request to appeal."))
    if request.state != AppealRequest.State.OPEN:
        refuse("request", _("This request was already %(state)s.") % {"state": request.get_state_display()})
    filing = Filing.objects.filter(request=request).first()
    if filing is not None and filing.validity == Filing.Validity.PENDING:
        refuse(
            "request",
            _(
                "%(f)s came after the appeal period: the desk does not turn it away. Lodge it; the appeals "
                "body decides whether it is valid."
            )
            % {"f": filing},
        )
    request.note = require_text("reason", reason, _("Say why the request is declined: the player reads it."))
    request.state, request.handled_by, request.handled_at = AppealRequest.State.DECLINED, by, now
    save_checked(request)
    audit.record(
        action="appeal_request.declined",
        obj=request,
        actor=by,
        tournament=request.ruling.tournament.pk,
        before={"state": "open"},
        after={"state": "declined", "note": request.note},
        summary=texts.text("appeals.audit_request_declined", r=ruling_name(request.ruling)),
    )
    return request
