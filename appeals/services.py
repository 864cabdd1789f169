"""Every step of an appeal (Laws 92 and 93), each in one transaction.

A step that cannot be taken is refused with a ``ValidationError`` naming the field, in words a
committee can read at midnight. Every step is logged as an ``AppealEvent`` (who, when, the
state before and after). Times are aware datetimes; ``now`` defaults to the wall clock and is a
parameter so that deadlines can be tested on both sides of the limit.

A decision reaches the scores only through ``scoring.services.set_effective_score`` with the
appeal as the cause (``cause_type="decision"``), in the adjusted-score form that rulings use
(``rulings.services.build_adjusted_score``).
"""

import datetime
from collections import Counter
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from appeals import selectors
from appeals.models import (
    OUTCOME_RANK,
    Appeal,
    AppealEvent,
    AppealPart,
    Attendance,
    Body,
    BodyMember,
    Concurrence,
    DeadlineExtension,
    Deposit,
    FurtherAppeal,
    Hearing,
    MeritWarning,
    Outcome,
    Recommendation,
    Stage,
)
from audit import services as audit
from rulings.models import Ruling
from rulings.services import build_adjusted_score
from scoring import roles
from scoring import services as scoring_services
from scoring.models import Adjustment, AuditorAssignment, EffectiveScore, Player, Tournament, TournamentOfficial

Action = AppealEvent.Action
DIRECTORS = (roles.DIRECTOR, roles.CHIEF_DIRECTOR)


def setting(tournament, key):
    """A regulating-authority setting as in force for the tournament (see scoring.authority_settings)."""
    return tournament.regulations()[key]


# --- Small helpers -----------------------------------------------------------------------

def _refuse(field, message):
    raise ValidationError({field: message})


def _save(instance):
    instance.full_clean()
    instance.save()
    return instance


def _log(appeal, action, *, by, at, note="", state=None, before=None):
    before = before or appeal.state
    if state and state != appeal.state:
        appeal.state = state
        appeal.save(update_fields=["state"])
    event = AppealEvent.objects.create(appeal=appeal, action=action, by=by, at=at, note=note, from_state=before,
                                       to_state=appeal.state)
    # Every step of a case also goes into the tamper-evident trail of the whole system.
    audit.record(action=f"appeal.{action}", obj=appeal, actor=by, tournament=appeal.tournament.pk,
                 before={"state": before}, after={"state": appeal.state, "at": at.isoformat(), "note": note},
                 summary=f"{appeal}: {AppealEvent.Action(action).label}")
    return event


def _lock(appeal):
    return (Appeal.objects.select_for_update(of=("self",))
            .select_related("ruling__result__board__session__event__tournament__authority", "appellant")
            .get(pk=appeal.pk))


def _require_open(appeal):
    if not appeal.is_open:
        _refuse("state", _("Appeal %(n)s is %(state)s: nothing more can be done at the event.") % {
            "n": appeal.number, "state": appeal.get_state_display().lower()})


def _is_official(user, tournament, role_names):
    return user.is_superuser or TournamentOfficial.objects.filter(
        user=user, tournament=tournament, role__in=role_names).exists()


def _require_director(user, tournament, what):
    if not _is_official(user, tournament, DIRECTORS):
        _refuse("by", _("%(user)s is not a director of %(t)s: %(what)s") % {
            "user": user, "t": tournament, "what": what})


def _require_chief(user, tournament, what):
    if not _is_official(user, tournament, (roles.CHIEF_DIRECTOR,)):
        _refuse("by", _("Only the director in charge of %(t)s %(what)s; %(user)s is not.") % {
            "t": tournament, "what": what, "user": user})


def _require_text(field, text, message):
    if not (text or "").strip():
        _refuse(field, message)
    return text.strip()


def _require_sitting(body, user, what):
    if user.is_superuser and not body.members.filter(user=user).exists():
        return
    if not body.sitting().filter(user=user).exists():
        _refuse("by", _("Only a member sitting on the %(body)s %(what)s; %(user)s does not sit on it.") % {
            "body": body.get_kind_display().lower(), "what": what, "user": user})


def _outcome(value):
    if value not in Outcome.values:
        _refuse("outcome", _("'%(v)s' is not a decision: uphold, vary or overturn.") % {"v": value})
    return value


def _check_score_for(outcome, score_kind):
    if outcome == Outcome.UPHOLD and score_kind:
        _refuse("score_kind", _("An upheld ruling keeps its own score: give a score only when the ruling is "
                                "varied or overturned."))


def _settle_ruling(ruling):
    """The ruling's state from its appeals: under appeal while any is open; changed by appeal if
    any decision varied or overturned it; final once decided; given again if all were withdrawn."""
    ruling = Ruling.objects.select_for_update().get(pk=ruling.pk)
    appeals = list(ruling.appeals.all())
    changed = any(a.state == Appeal.State.DECIDED and a.outcome != Outcome.UPHOLD for a in appeals) or \
        FurtherAppeal.objects.filter(appeal__ruling=ruling, binding=True, state=FurtherAppeal.State.DECIDED,
                                     outcome__in=[Outcome.VARY, Outcome.OVERTURN]).exists()
    if any(a.is_open for a in appeals):
        state = Ruling.State.UNDER_APPEAL
    elif changed:
        state = Ruling.State.CHANGED_BY_APPEAL
    elif any(a.state == Appeal.State.DECIDED for a in appeals):
        state = Ruling.State.FINAL
    else:
        state = Ruling.State.GIVEN
    if ruling.state != state:
        ruling.state = state
        ruling.save(update_fields=["state", "updated_at"])
    return ruling


def _apply_score(appeal, *, outcome, score_kind, ns, ew, by, reasons, label):
    """Make the scores say what a decision says; returns (kind, score, description) as stored on
    the decision. An upheld ruling changes nothing; a varied or overturned one takes the adjusted
    score given, or the table result when none is given. Procedural penalties already on the
    result stay (the body cannot undo a Law 91 penalty, and a Law 90 one is not the question)."""
    if outcome == Outcome.UPHOLD:
        return "", None, ""
    result = appeal.ruling.result
    current = EffectiveScore.objects.filter(result=result).first()
    penalty = current.penalty if current else None
    outside_agency = current.outside_agency if current else appeal.ruling.kind == Ruling.Kind.DIRECTORS_ERROR
    if score_kind:
        score, description = build_adjusted_score(result=result, score_kind=score_kind, ns=ns, ew=ew)
        kind = score_kind
    else:
        kind, score, description = Adjustment.TABLE, None, ""
        if current is None:
            return "", None, _("table result")
    change = scoring_services.set_effective_score(
        result=result, kind=kind, score=score, penalty=penalty, outside_agency=outside_agency, reason=reasons,
        cause_type="decision", cause_id=appeal.pk, cause_label=label, by=by, description=description)
    return (score_kind, score, change.new_description)


def _check_votes(body, outcome, *, now):
    """A single member's decision is their vote; a body of several decides by the majority of
    its sitting members, every one of whom must have voted."""
    sitting = list(body.sitting().select_related("user"))
    if body.size == 1:
        member = sitting[0]
        member.vote, member.voted_at = outcome, now
        member.save(update_fields=["vote", "voted_at"])
        return
    missing = [str(m) for m in sitting if not m.vote]
    if missing:
        _refuse("votes", _("Every member votes before the decision is recorded; still to vote: %(names)s.") % {
            "names": ", ".join(missing)})
    counts = Counter(m.vote for m in sitting)
    tally = ", ".join(f"{n} {vote}" for vote, n in counts.most_common())
    majority = [vote for vote, n in counts.items() if 2 * n > len(sitting)]
    if not majority:
        _refuse("votes", _("No majority (%(tally)s): the members vote again.") % {"tally": tally})
    if majority[0] != outcome:
        _refuse("outcome", _("The members voted %(tally)s: the decision is the majority's (%(majority)s).") % {
            "tally": tally, "majority": majority[0]})


# --- Lodging ---------------------------------------------------------------------------------

def _appeal_limit(ruling, now):
    """The deadline that applies now: the Law 92B one, or a later extension. Refuses when both
    have passed, saying when the period ended."""
    deadline = ruling.appeal_deadline()
    if deadline is None or now <= deadline:
        return deadline, None
    extension = ruling.appeal_extensions.filter(until__gte=now).order_by("-until").first()
    if extension:
        return deadline, extension
    tournament = ruling.tournament
    _refuse("deadline", _(
        "Too late: the appeal period for %(session)s of %(event)s ended at %(when)s (Law 92B). Only the chief "
        "director can extend it, with a reason.") % {
        "session": ruling.session, "event": ruling.session.event.name,
        "when": selectors.local_time(deadline, tournament)})


def _decide_by(session):
    """A case from the last session is heard at once; from an earlier one it must be decided
    before the next session starts (None if that start is not known)."""
    if session.is_last:
        return None, True
    following = session.event.sessions.filter(number__gt=session.number).order_by("number").first()
    return (following.starts_at if following else None), False


def _parts(parts, grounds):
    parts = parts or [{"kind": AppealPart.Kind.JUDGEMENT, "question": grounds}]
    cleaned = []
    for index, part in enumerate(parts, start=1):
        kind, question = part.get("kind"), (part.get("question") or "").strip()
        if kind not in AppealPart.Kind.values:
            _refuse(f"parts[{index}]", _("'%(k)s' is not a kind of part: law (law or regulation) or judgement.") % {
                "k": kind})
        if not question:
            _refuse(f"parts[{index}]", _("Say what the part asks."))
        cleaned.append((kind, question))
    return cleaned


@transaction.atomic
def lodge_appeal(*, ruling, by, grounds, player=None, origin=Appeal.Origin.PLAYER, parts=None, now=None):
    """Record an appeal against ``ruling``, lodged by ``player`` (a member or the captain of the
    N-S or E-W contestant at the ruling's table) through the director ``by`` (Law 92C); or, with
    ``origin="director"``, the director's own referral (Law 83), which needs no player, no
    concurrence and no deposit and has no deadline.

    ``parts`` is a list of ``{"kind": "law" | "judgement", "question": ...}``; by default one
    judgement part in the appellants' words. The ruling goes under appeal.
    """
    now = now or timezone.now()
    ruling = (Ruling.objects.select_for_update(of=("self",))
              .select_related("result__board__session__event__tournament__authority", "result__ns", "result__ew")
              .get(pk=ruling.pk))
    tournament = ruling.tournament
    _require_director(by, tournament, _("an appeal is lodged through a director of the tournament (Law 92C)."))
    if ruling.state == Ruling.State.DRAFT:
        _refuse("ruling", _("%(r)s has not been given yet: only a ruling given at the table can be appealed.") % {
            "r": ruling})
    if ruling.state == Ruling.State.CHANGED_BY_APPEAL:
        _refuse("ruling", _("%(r)s has already been changed on appeal: what remains is a further appeal to the "
                            "regulating authority (Law 93C).") % {"r": ruling})
    grounds = _require_text("grounds", grounds, _("Write the grounds of the appeal in the appellants' words."))
    cleaned_parts = _parts(parts, grounds)
    side, appellant, deadline, extension = "", None, ruling.appeal_deadline(), None
    if origin == Appeal.Origin.PLAYER:
        if player is None:
            _refuse("player", _("Say which player lodges the appeal."))
        side = selectors.side_of(player, ruling)
        if side is None:
            _refuse("player", _("%(p)s did not play at this table: only N-S (%(ns)s) or E-W (%(ew)s), or their "
                                "captains, may appeal this ruling (Law 92A).") % {
                "p": player, "ns": ruling.result.ns, "ew": ruling.result.ew})
        earlier = Appeal.objects.filter(ruling=ruling, side=side, origin=Appeal.Origin.PLAYER).first()
        if earlier:
            _refuse("side", _("%(side)s has already appealed %(r)s (appeal %(n)s, lodged at %(when)s).") % {
                "side": "N-S" if side == "NS" else "E-W", "r": ruling, "n": earlier.number,
                "when": selectors.local_time(earlier.lodged_at, tournament)})
        deadline, extension = _appeal_limit(ruling, now)
        appellant = ruling.result.ns if side == "NS" else ruling.result.ew
    elif origin == Appeal.Origin.DIRECTOR:
        player = None
        earlier = Appeal.objects.filter(ruling=ruling, origin=Appeal.Origin.DIRECTOR).first()
        if earlier:
            _refuse("origin", _("The director has already referred %(r)s (appeal %(n)s).") % {
                "r": ruling, "n": earlier.number})
    else:
        _refuse("origin", _("An appeal comes from a player or is referred by the director."))
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # numbers are given one at a time
    last = Appeal.objects.filter(ruling__result__board__session__event__tournament=tournament).aggregate(
        n=Max("number"))["n"]
    decide_by, at_once = _decide_by(ruling.session)
    appeal = _save(Appeal(ruling=ruling, number=(last or 0) + 1, origin=origin, side=side, appellant=appellant,
                          lodged_by=player, recorded_by=by, lodged_at=now, deadline=deadline, extension=extension,
                          decide_by=decide_by, hear_at_once=at_once, grounds=grounds))
    for kind, question in cleaned_parts:
        _save(AppealPart(appeal=appeal, kind=kind, question=question))
    if player is not None and player in selectors.concurrence_needed(appeal):
        Concurrence.objects.create(appeal=appeal, player=player, how=Concurrence.How.LODGED, recorded_by=by,
                                   recorded_at=now)
    ruling.state = Ruling.State.UNDER_APPEAL
    fields = ["state", "updated_at"]
    if origin == Appeal.Origin.DIRECTOR:
        ruling.appeal_notice, ruling.appeal_notice_at = Ruling.AppealNotice.REFERRED, now
        fields += ["appeal_notice", "appeal_notice_at"]
    ruling.save(update_fields=fields)
    if origin == Appeal.Origin.DIRECTOR:
        note = _("%(r)s referred by the director (Law 83).") % {"r": ruling}
        _log(appeal, Action.REFERRED, by=by, at=now, note=note)
    else:
        note = _("%(side)s (%(c)s) appeal %(r)s; lodged by %(p)s.") % {
            "side": "N-S" if side == "NS" else "E-W", "c": appellant, "r": ruling, "p": player}
        if deadline is None:
            note += " " + _("The official score was not posted: the appeal clock had not started.")
        if extension:
            note += " " + _("Late, within the extension to %(until)s: %(reason)s") % {
                "until": selectors.local_time(extension.until, tournament), "reason": extension.reason}
        _log(appeal, Action.LODGED, by=by, at=now, note=note)
    return appeal


@transaction.atomic
def extend_deadline(*, ruling, by, until, reason, now=None):
    """The chief director lets ``ruling`` be appealed until ``until`` (an aware datetime), after
    the Law 92B period has run, for a stated reason."""
    now = now or timezone.now()
    tournament = ruling.tournament
    _require_chief(by, tournament, _("extends the appeal period"))
    reason = _require_text("reason", reason, _("Say why the appeal period is extended."))
    if until is None or timezone.is_naive(until):
        _refuse("until", _("Give the time the extension ends, with its time zone."))
    deadline = ruling.appeal_deadline()
    if deadline is None:
        _refuse("until", _("The official score of %(s)s has not been posted: the appeal period has not started, "
                           "so there is nothing to extend.") % {"s": ruling.session})
    if until <= deadline:
        _refuse("until", _("The appeal period already runs until %(when)s: an extension ends later.") % {
            "when": selectors.local_time(deadline, tournament)})
    return _save(DeadlineExtension(ruling=ruling, until=until, reason=reason, granted_by=by, granted_at=now))


@transaction.atomic
def record_concurrence(*, appeal, player, how, by, now=None):
    """Record that ``player`` agrees to the appeal (Law 92D): ``how`` is "in_person",
    "in_writing", or "deemed" for an absent partner where the regulations deem agreement."""
    now = now or timezone.now()
    appeal = _lock(appeal)
    _require_open(appeal)
    if how not in (Concurrence.How.IN_PERSON, Concurrence.How.IN_WRITING, Concurrence.How.DEEMED):
        _refuse("how", _("Say how the player agreed: in person, in writing, or deemed (absent)."))
    needed = selectors.concurrence_needed(appeal)
    if not needed:
        _refuse("player", _("No concurrence is needed: %(why)s.") % {
            "why": _("the director referred the case") if appeal.origin == Appeal.Origin.DIRECTOR
            else _("in an individual event nobody else concurs")})
    if player not in needed:
        if appeal.appellant.kind == "team":
            _refuse("player", _("In a team event the captain concurs (Law 92D): %(captain)s, not %(p)s.") % {
                "captain": appeal.appellant.captain or _("no captain is recorded"), "p": player})
        _refuse("player", _("%(p)s is not a member of %(c)s, the appellants.") % {"p": player, "c": appeal.appellant})
    if how == Concurrence.How.DEEMED and not setting(appeal.tournament, "absent_partner_deemed_to_agree"):
        _refuse("how", _("%(body)s's regulations do not deem an absent partner to agree: %(p)s must agree, or the "
                         "appeal cannot be heard.") % {"body": appeal.tournament.authority, "p": player})
    earlier = appeal.concurrences.filter(player=player).first()
    if earlier:
        _refuse("player", _("%(p)s's concurrence is already recorded (%(how)s).") % {
            "p": player, "how": earlier.get_how_display().lower()})
    concurrence = _save(Concurrence(appeal=appeal, player=player, how=how, recorded_by=by, recorded_at=now))
    _log(appeal, Action.CONCURRENCE, by=by, at=now, note=f"{player}: {concurrence.get_how_display().lower()}")
    return concurrence


@transaction.atomic
def record_statement(*, appeal, by, grounds=None, respondents_statement=None, now=None):
    """Replace the appellants' grounds and/or the respondents' statement, until they are locked."""
    now = now or timezone.now()
    appeal = _lock(appeal)
    if appeal.statements_locked_at:
        field = "grounds" if grounds is not None else "respondents_statement"
        _refuse(field, _("Both sides agreed the statements, and they were locked at %(when)s: they cannot change.")
                % {"when": selectors.local_time(appeal.statements_locked_at, appeal.tournament)})
    if grounds is not None:
        appeal.grounds = _require_text("grounds", grounds, _("The grounds cannot be empty."))
    if respondents_statement is not None:
        appeal.respondents_statement = respondents_statement.strip()
    _save(appeal)
    _log(appeal, Action.STATEMENT, by=by, at=now,
         note=_("grounds") if grounds is not None else _("respondents' statement"))
    return appeal


@transaction.atomic
def lock_statements(*, appeal, by, agreed_by, now=None):
    """Lock the statements once a player (or captain) of each side at the table agrees them."""
    now = now or timezone.now()
    appeal = _lock(appeal)
    if appeal.statements_locked_at:
        _refuse("statements", _("The statements are already locked."))
    sides = {selectors.side_of(player, appeal.ruling) for player in agreed_by}
    if not {"NS", "EW"} <= sides:
        _refuse("agreed_by", _("Both sides agree the statements: a player or the captain of N-S and of E-W."))
    appeal.statements_locked_at = now
    appeal.save(update_fields=["statements_locked_at"])
    appeal.statements_agreed_by.set(agreed_by)
    _log(appeal, Action.STATEMENTS_LOCKED, by=by, at=now, note=", ".join(str(p) for p in agreed_by))
    return appeal


# --- Deposits ---------------------------------------------------------------------------------

def deposit_due(appeal, stage=Stage.EVENT):
    """(amount, currency) the regulations ask for, or None."""
    tournament = appeal.tournament
    if stage == Stage.EVENT:
        if appeal.origin == Appeal.Origin.DIRECTOR:
            return None
        deposits = setting(tournament, "deposits") or {}
        amount, currency = deposits.get("amounts", {}).get(appeal.event.kind), deposits.get("currency")
    else:
        deposits = setting(tournament, "further_appeal_deposit") or {}
        amount, currency = deposits.get("amount"), deposits.get("currency")
    if not amount or Decimal(str(amount)) <= 0:
        return None
    return Decimal(str(amount)), currency


@transaction.atomic
def record_deposit(*, appeal, by, stage=Stage.EVENT, now=None):
    """Record the deposit the regulations ask for (the amount for the event's kind), received by ``by``."""
    now = now or timezone.now()
    appeal = _lock(appeal)
    due = deposit_due(appeal, stage)
    if due is None:
        if appeal.origin == Appeal.Origin.DIRECTOR and stage == Stage.EVENT:
            why = _("the director referred the case")
        else:
            what = appeal.event.get_kind_display() if stage == Stage.EVENT else _("further appeal")
            why = _("%(body)s's regulations set none for this %(what)s") % {
                "body": appeal.tournament.authority, "what": what}
        _refuse("amount", _("No deposit is asked: %(why)s.") % {"why": why})
    if appeal.deposits.filter(stage=stage).exists():
        _refuse("amount", _("The deposit was already received."))
    deposit = _save(Deposit(appeal=appeal, stage=stage, amount=due[0], currency=due[1], received_by=by,
                            received_at=now))
    _log(appeal, Action.DEPOSIT_RECEIVED, by=by, at=now, note=str(deposit))
    return deposit


def _held(deposit):
    deposit = Deposit.objects.select_for_update(of=("self",)).select_related("appeal").get(pk=deposit.pk)
    if deposit.state != Deposit.State.HELD:
        _refuse("state", _("This deposit was already %(state)s.") % {"state": deposit.get_state_display().lower()})
    return deposit


@transaction.atomic
def return_deposit(*, deposit, by, now=None):
    """Give the deposit back once the case it was lodged for is over."""
    now = now or timezone.now()
    deposit = _held(deposit)
    appeal = deposit.appeal
    if deposit.stage == Stage.EVENT and appeal.is_open:
        _refuse("state", _("The deposit is held until the appeal is decided or withdrawn."))
    if deposit.stage == Stage.FURTHER and appeal.further.state != FurtherAppeal.State.DECIDED:
        _refuse("state", _("The deposit is held until the further appeal is decided."))
    deposit.state, deposit.settled_by, deposit.settled_at = Deposit.State.RETURNED, by, now
    _save(deposit)
    _log(appeal, Action.DEPOSIT_RETURNED, by=by, at=now, note=str(deposit.amount) + " " + deposit.currency)
    return deposit


@transaction.atomic
def forfeit_deposit(*, deposit, by, reason, now=None):
    """Keep the deposit: at the event only when the appeal was found without merit (Law 92A)."""
    now = now or timezone.now()
    deposit = _held(deposit)
    reason = _require_text("reason", reason, _("Say why the deposit is kept."))
    if deposit.stage == Stage.EVENT and not deposit.appeal.without_merit:
        _refuse("state", _("A deposit is kept only when the appeal is found without merit (Law 92A)."))
    if deposit.stage == Stage.FURTHER and deposit.appeal.further.state != FurtherAppeal.State.DECIDED:
        _refuse("state", _("The deposit is held until the further appeal is decided."))
    deposit.state, deposit.settled_by, deposit.settled_at, deposit.note = Deposit.State.FORFEITED, by, now, reason
    _save(deposit)
    _log(deposit.appeal, Action.DEPOSIT_FORFEITED, by=by, at=now, note=f"{deposit.amount} {deposit.currency}: {reason}")
    return deposit


# --- Withdrawal ---------------------------------------------------------------------------------

@transaction.atomic
def request_withdrawal(*, appeal, player, by, reason="", now=None):
    """The appellants ask to withdraw; the case stays open, as the body may still hear it."""
    now = now or timezone.now()
    appeal = _lock(appeal)
    _require_open(appeal)
    if appeal.origin == Appeal.Origin.DIRECTOR:
        _refuse("player", _("The director referred this case: the players cannot withdraw it."))
    if not selectors.plays_for(player, appeal.appellant):
        _refuse("player", _("Only the appellants (%(c)s) can ask to withdraw their appeal.") % {"c": appeal.appellant})
    if appeal.withdrawal_requested_at:
        _refuse("player", _("Withdrawal was already asked for."))
    appeal.withdrawal_requested_at, appeal.withdrawal_requested_by = now, player
    appeal.withdrawal_reason = (reason or "").strip()
    _save(appeal)
    _log(appeal, Action.WITHDRAWAL_REQUESTED, by=by, at=now,
         note=_("%(p)s asks to withdraw. %(reason)s The body may still hear the case.") % {
             "p": player, "reason": appeal.withdrawal_reason})
    return appeal


@transaction.atomic
def accept_withdrawal(*, appeal, by, now=None):
    """The body (or, before one sits, the director in charge) lets the appellants withdraw."""
    now = now or timezone.now()
    appeal = _lock(appeal)
    _require_open(appeal)
    if not appeal.withdrawal_requested_at:
        _refuse("state", _("The appellants have not asked to withdraw."))
    body = appeal.body()
    if body is not None and body.sitting().exists():
        _require_sitting(body, by, _("lets the appellants withdraw"))
    else:
        _require_chief(by, appeal.tournament, _("lets the appellants withdraw before a body sits"))
    _log(appeal, Action.WITHDRAWN, by=by, at=now, state=Appeal.State.WITHDRAWN)
    _settle_ruling(appeal.ruling)
    return appeal


# --- The body ---------------------------------------------------------------------------------

def conflicts_of(user, body):
    """Why ``user`` may not sit on ``body``, in words (empty: no known conflict): the director who
    gave the ruling, a member or captain of either side, anyone on a lower body for the matter."""
    ruling = body.appeal.ruling
    reasons = []
    if user.pk == ruling.director_id and not body.is_director_in_charge:
        reasons.append(_("gave the ruling"))
    player = Player.objects.filter(user=user).first()
    if player is not None:
        for label, contestant in (("N-S", ruling.result.ns), ("E-W", ruling.result.ew)):
            if contestant.captain_id == player.pk:
                reasons.append(_("captains %(c)s (%(side)s)") % {"c": contestant, "side": label})
            elif contestant.members.filter(pk=player.pk).exists():
                reasons.append(_("plays for %(c)s (%(side)s)") % {"c": contestant, "side": label})
    if not body.is_director_in_charge and AppealPart.objects.filter(
            appeal__ruling=ruling, decided_by=user, kind=AppealPart.Kind.LAW).exists():
        reasons.append(_("decided a part of this matter as director in charge"))
    if body.stage == Stage.FURTHER and BodyMember.objects.filter(
            user=user, body__stage=Stage.EVENT, body__appeal__ruling=ruling).exists():
        reasons.append(_("sat on the event's appeals body for this matter"))
    if body.stage == Stage.FURTHER and Appeal.objects.filter(ruling=ruling, decided_by=user).exists():
        reasons.append(_("decided this matter at the event"))
    return reasons


def _body_size(tournament, kind, size):
    if kind == Body.Kind.COMMITTEE:
        expected = setting(tournament, "appeals_committee_size")
        if expected % 2 == 0:
            _refuse("size", _("A committee has an odd number of members; the regulations say %(n)s.") % {"n": expected})
        return expected
    if kind in (Body.Kind.REFEREE, Body.Kind.REVIEWER, Body.Kind.DIRECTOR_IN_CHARGE):
        return 1
    size = size or 3
    if size % 2 == 0 or not 1 <= size <= 9:
        _refuse("size", _("A body has an odd number of members (1 to 9), not %(n)s.") % {"n": size})
    return size


def _mark_constituted(appeal, body, *, by, now):
    if body.stage == Stage.EVENT and appeal.state == Appeal.State.LODGED and body.is_constituted:
        names = ", ".join(str(m) for m in body.sitting())
        _log(appeal, Action.CONSTITUTED, by=by, at=now, state=Appeal.State.CONSTITUTED,
             note=f"{body.get_kind_display()}: {names}")


@transaction.atomic
def constitute_body(*, appeal, by, kind=None, members=(), chair=None, size=None, stage=Stage.EVENT, now=None):
    """Form the body that hears the case and appoint ``members`` (users), ``chair`` among them.

    At the event the chief director forms it: the kind defaults to the regulations' appeals
    body; with none, the director in charge hears the case alone (Law 93A). A further appeal's
    body is the regulating authority's, formed by one of its national officers. A committee has
    the regulations' size; a referee, a reviewer or the director in charge sits alone.
    """
    now = now or timezone.now()
    appeal = _lock(appeal)
    tournament = appeal.tournament
    if stage == Stage.EVENT:
        _require_open(appeal)
        _require_chief(by, tournament, _("forms the body that hears an appeal"))
        regulated = setting(tournament, "appeals_body")
        kind = kind or (Body.Kind.DIRECTOR_IN_CHARGE if regulated == "none" else regulated)
        if regulated == "none" and kind != Body.Kind.DIRECTOR_IN_CHARGE:
            _refuse("kind", _("%(body)s has no appeals body: the director in charge hears every appeal (Law 93A).")
                    % {"body": tournament.authority})
        if kind == Body.Kind.NATIONAL:
            _refuse("kind", _("The regulating authority's body hears only a further appeal (Law 93C)."))
        if kind == Body.Kind.DIRECTOR_IN_CHARGE and not members:
            members = [by]
    else:
        if not hasattr(appeal, "further") or appeal.further.state != FurtherAppeal.State.LODGED:
            _refuse("stage", _("No further appeal is waiting for the regulating authority."))
        if not (by.is_superuser or AuditorAssignment.objects.filter(user=by, authority=tournament.authority).exists()):
            _refuse("by", _("The regulating authority (%(body)s) forms its own appeals body.") % {
                "body": tournament.authority})
        kind = kind or Body.Kind.NATIONAL
        if kind != Body.Kind.NATIONAL:
            _refuse("kind", _("A further appeal is heard by the regulating authority's body."))
    if kind not in Body.Kind.values:
        _refuse("kind", _("'%(k)s' is not a kind of appeals body.") % {"k": kind})
    if appeal.bodies.filter(stage=stage).exists():
        _refuse("kind", _("A body is already formed for this case: appoint or replace its members instead."))
    body = _save(Body(appeal=appeal, stage=stage, kind=kind, size=_body_size(tournament, kind, size),
                      constituted_by=by, created_at=now))
    _log(appeal, Action.BODY_CREATED, by=by, at=now,
         note=_("%(kind)s of %(n)s") % {"kind": body.get_kind_display(), "n": body.size})
    for user in members:
        appoint_member(body=body, user=user, by=by, chair=user == chair, now=now)
    return body


@transaction.atomic
def appoint_member(*, body, user, by, chair=False, now=None):
    """Seat ``user`` on ``body`` after checking for conflicts of interest."""
    now = now or timezone.now()
    body = Body.objects.select_for_update(of=("self",)).select_related("appeal__ruling__result__ns",
                                                          "appeal__ruling__result__ew").get(pk=body.pk)
    appeal = _lock(body.appeal)
    if body.stage == Stage.EVENT:
        _require_open(appeal)
    if body.members.filter(user=user).exists():
        _refuse("user", _("%(u)s is already appointed to this body.") % {"u": user})
    if body.sitting().count() >= body.size:
        _refuse("user", _("The body already has its %(n)s members: one must recuse before another is appointed.")
                % {"n": body.size})
    if chair and body.sitting().filter(is_chair=True).exists():
        _refuse("chair", _("%(c)s already chairs this body.") % {"c": body.sitting().get(is_chair=True)})
    if body.is_director_in_charge:
        _require_chief(user, appeal.tournament, _("hears an appeal alone (Law 93A)"))
    conflicts = conflicts_of(user, body)
    if conflicts:
        _refuse("user", _("%(u)s cannot sit on this case: %(why)s.") % {"u": user, "why": "; ".join(conflicts)})
    member = BodyMember(body=body, user=user, is_chair=chair, appointed_by=by, appointed_at=now)
    if body.is_director_in_charge:
        member.declared_at = now  # the director in charge hears appeals of his own tournament (93A)
    _save(member)
    _log(appeal, Action.MEMBER_APPOINTED, by=by, at=now,
         note=f"{member}{' (' + _('chair') + ')' if chair else ''}, {body.get_kind_display().lower()}")
    _mark_constituted(appeal, body, by=by, now=now)
    return member


@transaction.atomic
def declare_conflict(*, member, conflict="", now=None):
    """``member`` declares their interests before sitting: ``conflict`` in words, or empty for
    none. A member with a conflict cannot vote and should recuse."""
    now = now or timezone.now()
    member = BodyMember.objects.select_for_update(of=("self",)).select_related("body", "user").get(pk=member.pk)
    if member.recused_at:
        _refuse("member", _("%(m)s has recused.") % {"m": member})
    member.declared_at, member.conflict = now, (conflict or "").strip()
    if member.conflict:
        member.vote, member.dissent, member.voted_at = "", "", None
    _save(member)
    appeal = _lock(member.body.appeal)
    _log(appeal, Action.INTERESTS_DECLARED, by=member.user, at=now,
         note="%s: %s" % (member, member.conflict or _("no conflict")))
    _mark_constituted(appeal, member.body, by=member.user, now=now)
    return member


@transaction.atomic
def recuse(*, member, reason, now=None):
    """``member`` stands down from the case; a replacement is appointed with ``appoint_member``."""
    now = now or timezone.now()
    member = BodyMember.objects.select_for_update(of=("self",)).select_related("body", "user").get(pk=member.pk)
    if member.recused_at:
        _refuse("member", _("%(m)s has already recused.") % {"m": member})
    reason = _require_text("reason", reason, _("Say why the member recuses."))
    appeal = _lock(member.body.appeal)
    if member.body.stage == Stage.EVENT and appeal.state == Appeal.State.DECIDED:
        _refuse("member", _("The case is decided: a hidden conflict found now goes to the regulating authority."))
    member.recused_at, member.recusal_reason = now, reason
    member.vote, member.dissent, member.voted_at = "", "", None
    _save(member)
    _log(appeal, Action.RECUSED, by=member.user, at=now, note=f"{member}: {reason}")
    return member


# --- Hearing ---------------------------------------------------------------------------------

def _require_constituted(body):
    if body is None:
        _refuse("body", _("No body has been formed to hear this case."))
    missing = body.missing()
    if missing:
        _refuse("body", _("The %(kind)s is not constituted: %(why)s.") % {
            "kind": body.get_kind_display().lower(), "why": "; ".join(missing)})


def _require_concurrence(appeal):
    missing = selectors.concurrence_missing(appeal)
    if missing:
        _refuse("concurrence", _("The appeal cannot go forward without concurrence (Law 92D): still needed from "
                                 "%(names)s.") % {"names": ", ".join(missing)})


@transaction.atomic
def schedule_hearing(*, appeal, by, starts_at, mode=Hearing.Mode.IN_PERSON, place="", scribe=None, now=None):
    """Fix when and how the body hears the case. A case from a session that is not the last must
    be decided before the next session starts."""
    now = now or timezone.now()
    appeal = _lock(appeal)
    _require_open(appeal)
    body = appeal.body()
    _require_constituted(body)
    _require_concurrence(appeal)
    due = deposit_due(appeal)
    if due and not appeal.deposits.filter(stage=Stage.EVENT).exists():
        _refuse("deposit", _("The deposit of %(amount)s %(currency)s has not been received.") % {
            "amount": due[0], "currency": due[1]})
    if appeal.decide_by and starts_at >= appeal.decide_by:
        tournament = appeal.tournament
        _refuse("starts_at", _("A case from %(s)s must be decided before the next session starts at %(limit)s; "
                               "this hearing would start at %(when)s.") % {
            "s": appeal.ruling.session, "limit": selectors.local_time(appeal.decide_by, tournament),
            "when": selectors.local_time(starts_at, tournament)})
    hearing = _save(Hearing(appeal=appeal, body=body, starts_at=starts_at, mode=mode, place=place,
                            scribe=scribe, scheduled_by=by, scheduled_at=now))
    _log(appeal, Action.HEARING_SCHEDULED, by=by, at=now, state=Appeal.State.SCHEDULED,
         note=f"{selectors.local_time(starts_at, appeal.tournament)}, {hearing.get_mode_display().lower()}"
              f"{', ' + place if place else ''}")
    return hearing


@transaction.atomic
def record_attendance(*, hearing, player, by, now=None):
    """``player`` attended the hearing for their side."""
    now = now or timezone.now()
    appeal = _lock(hearing.appeal)
    side = selectors.side_of(player, appeal.ruling)
    if side is None:
        _refuse("player", _("%(p)s plays for neither side at this table.") % {"p": player})
    if hearing.attendance.filter(player=player).exists():
        _refuse("player", _("%(p)s's attendance is already recorded.") % {"p": player})
    attendance = _save(Attendance(hearing=hearing, player=player, side=side))
    _log(appeal, Action.ATTENDANCE, by=by, at=now,
         note=_("%(p)s for %(side)s") % {"p": player, "side": attendance.get_side_display()})
    return attendance


@transaction.atomic
def record_hearing_notes(*, hearing, by, director_account=None, director_present=None, notes=None, scribe=None,
                         now=None):
    """The ruling director's account and presence, and the scribe's record of the arguments."""
    now = now or timezone.now()
    hearing = Hearing.objects.select_for_update().get(pk=hearing.pk)
    for name, value in (("director_account", director_account), ("director_present", director_present),
                        ("notes", notes), ("scribe", scribe)):
        if value is not None:
            setattr(hearing, name, value)
    _save(hearing)
    _log(_lock(hearing.appeal), Action.HEARING_NOTES, by=by, at=now)
    return hearing


@transaction.atomic
def record_vote(*, member, outcome, dissent="", now=None):
    """``member``'s vote (uphold, vary, overturn), with any dissent in their words."""
    now = now or timezone.now()
    member = BodyMember.objects.select_for_update(of=("self",)).select_related("body", "user").get(pk=member.pk)
    body = member.body
    appeal = _lock(body.appeal)
    if body.stage == Stage.EVENT:
        _require_open(appeal)
        if not appeal.hearings.exists():
            _refuse("state", _("The case has not been heard: schedule the hearing (it may be in writing) first."))
    elif appeal.further.state != FurtherAppeal.State.LODGED:
        _refuse("state", _("The further appeal is already decided."))
    if member.recused_at:
        _refuse("member", _("%(m)s recused and cannot vote.") % {"m": member})
    if member.declared_at is None:
        _refuse("member", _("%(m)s has not declared any conflict of interest: declare first, then vote.") % {
            "m": member})
    if member.conflict:
        _refuse("member", _("%(m)s declared a conflict (%(c)s) and cannot vote: recuse, and appoint a "
                            "replacement.") % {"m": member, "c": member.conflict})
    member.vote, member.dissent, member.voted_at = _outcome(outcome), (dissent or "").strip(), now
    _save(member)
    _log(appeal, Action.VOTE, by=member.user, at=now,
         note=f"{member}: {Outcome(outcome).label.lower()}{' (dissent)' if member.dissent else ''}")
    return member


# --- Decisions ---------------------------------------------------------------------------------

def _close(appeal, *, by, now, reasons, note):
    """Record the appeal's decision: the most far-reaching of its parts' outcomes."""
    outcomes = [appeal.outcome] if appeal.outcome else []
    outcomes += [p.outcome for p in appeal.parts.all() if p.outcome]
    before = appeal.state
    appeal.outcome = max(outcomes, key=OUTCOME_RANK.get)
    appeal.reasons, appeal.decided_by, appeal.decided_at = reasons, by, now
    appeal.state = Appeal.State.DECIDED
    _save(appeal)
    _log(appeal, Action.DECIDED, by=by, at=now, note=note, before=before)
    _settle_ruling(appeal.ruling)
    return appeal


@transaction.atomic
def decide_law_part(*, part, by, outcome, reasons, score_kind="", ns=None, ew=None, now=None):
    """The director in charge decides a part solely about law or regulation (Law 93B1). A score
    given with a varied or overturned ruling applies at once. When every part of the appeal is
    about law, this decides the appeal; the appellants may still take it to the body
    (``appeal_law_decision``)."""
    now = now or timezone.now()
    part = AppealPart.objects.select_for_update().get(pk=part.pk)
    appeal = _lock(part.appeal)
    _require_open(appeal)
    _require_chief(by, appeal.tournament, _("decides a part about law or regulation (Law 93B1)"))
    if part.kind != AppealPart.Kind.LAW:
        _refuse("part", _("This part is about facts or judgement: the body decides it, not the director alone."))
    if part.outcome:
        _refuse("part", _("The director in charge has already decided this part (%(o)s).") % {
            "o": part.get_outcome_display().lower()})
    _require_concurrence(appeal)
    outcome = _outcome(outcome)
    reasons = _require_text("reasons", reasons, _("Give the reasons for the decision."))
    _check_score_for(outcome, score_kind)
    kind, score, description = _apply_score(appeal, outcome=outcome, score_kind=score_kind, ns=ns, ew=ew, by=by,
                                            reasons=reasons, label=f"appeal {appeal.number} decision")
    part.outcome, part.reasons, part.decided_by, part.decided_at = outcome, reasons, by, now
    _save(part)
    if outcome != Outcome.UPHOLD:
        appeal.score_kind, appeal.score, appeal.score_description = kind, score, description
    _log(appeal, Action.LAW_PART_DECIDED, by=by, at=now, note=f"{part.question}: {part.get_outcome_display()}")
    if not appeal.parts.exclude(kind=AppealPart.Kind.LAW).exists() and not appeal.parts.filter(outcome="").exists():
        _close(appeal, by=by, now=now, reasons=reasons, note=_("decided by the director in charge on law"))
    _settle_ruling(appeal.ruling)
    return part


@transaction.atomic
def appeal_law_decision(*, part, by, now=None):
    """The appellants take the director in charge's decision on a law part to the body (93B1).
    The body may uphold it or recommend a change; it may not overrule it (93B3)."""
    now = now or timezone.now()
    part = AppealPart.objects.select_for_update().get(pk=part.pk)
    appeal = _lock(part.appeal)
    if part.kind != AppealPart.Kind.LAW or not part.outcome:
        _refuse("part", _("Only the director in charge's decision on a law part can be taken to the body."))
    if part.to_body:
        _refuse("part", _("This decision is already before the body."))
    if setting(appeal.tournament, "appeals_body") == "none" or (
            appeal.body() is not None and appeal.body().is_director_in_charge):
        _refuse("part", _("There is no appeals body: the director in charge's decision stands (Law 93A)."))
    if appeal.state == Appeal.State.WITHDRAWN or hasattr(appeal, "further"):
        _refuse("state", _("This case can no longer go to the body."))
    part.to_body = True
    _save(part)
    if appeal.state == Appeal.State.DECIDED:
        body = appeal.body()
        appeal.outcome, appeal.reasons, appeal.decided_by, appeal.decided_at = "", "", None, None
        appeal.save()
        state = Appeal.State.CONSTITUTED if body is not None and body.is_constituted else Appeal.State.LODGED
        _log(appeal, Action.LAW_PART_TO_BODY, by=by, at=now, state=state, note=part.question)
    else:
        _log(appeal, Action.LAW_PART_TO_BODY, by=by, at=now, note=part.question)
    _settle_ruling(appeal.ruling)
    return part


@transaction.atomic
def decide_appeal(*, appeal, by, outcome, reasons, score_kind="", ns=None, ew=None, now=None):
    """The body's decision (or, with no appeals body, the director in charge's, Law 93A):
    uphold, vary or overturn the ruling, with reasons. A varied or overturned ruling takes the
    adjusted score given (``score_kind``, ``ns``, ``ew`` as for a ruling) or, without one, the
    table result; it reaches the scores with the appeal as the cause.

    The body cannot overrule the director in charge on law or regulation, nor on a Law 91
    disciplinary decision (93B3): such a decision is refused; record a recommendation instead.
    """
    now = now or timezone.now()
    appeal = _lock(appeal)
    _require_open(appeal)
    outcome = _outcome(outcome)
    reasons = _require_text("reasons", reasons, _("Give the reasons for the decision."))
    body = appeal.body()
    _require_constituted(body)
    _require_sitting(body, by, _("records its decision"))
    _require_concurrence(appeal)
    if not appeal.hearings.exists():
        _refuse("hearing", _("The case has not been heard: schedule the hearing (it may be in writing) first."))
    parts = list(appeal.parts.all())
    if body.is_director_in_charge:
        heard = [p for p in parts if not p.outcome]
    else:
        waiting = [p.question for p in parts if p.kind == AppealPart.Kind.LAW and not p.outcome]
        if waiting:
            _refuse("parts", _("The director in charge first decides the part about law or regulation (Law 93B1): "
                               "%(q)s") % {"q": "; ".join(waiting)})
        heard = [p for p in parts if p.kind == AppealPart.Kind.JUDGEMENT]
        if outcome != Outcome.UPHOLD and appeal.ruling.kind == Ruling.Kind.DISCIPLINARY_PENALTY:
            _refuse("outcome", _("The body cannot overrule the director in charge on the exercise of the "
                                 "disciplinary powers of Law 91 (Law 93B3). Record a recommendation to the director "
                                 "instead."))
        if outcome != Outcome.UPHOLD and not heard:
            _refuse("outcome", _("The body cannot overrule the director in charge on law or regulation (Law 93B3): "
                                 "it may uphold the decision, or record a recommendation to the director."))
    _check_votes(body, outcome, now=now)
    _check_score_for(outcome, score_kind)
    kind, score, description = _apply_score(appeal, outcome=outcome, score_kind=score_kind, ns=ns, ew=ew, by=by,
                                            reasons=reasons, label=f"appeal {appeal.number} decision")
    for part in heard:
        part.outcome, part.reasons, part.decided_by, part.decided_at = outcome, reasons, by, now
        _save(part)
    appeal.outcome = outcome
    if outcome != Outcome.UPHOLD:
        appeal.score_kind, appeal.score, appeal.score_description = kind, score, description
    note = f"{Outcome(outcome).label}" + (f": {description}" if outcome != Outcome.UPHOLD and description else "")
    return _close(appeal, by=by, now=now, reasons=reasons, note=note)


@transaction.atomic
def find_without_merit(*, appeal, by, reasons, penalty=None, now=None):
    """The body finds the appeal without merit (Law 92A), with reasons, and the regulations'
    sanction is applied: the deposit kept, a procedural penalty on the appellants in the event's
    units (``penalty``, e.g. "25%" of a top, or 6 IMPs; the regulations' figure by default), or a
    warning recorded against each appellant."""
    now = now or timezone.now()
    appeal = _lock(appeal)
    if appeal.state != Appeal.State.DECIDED:
        _refuse("state", _("An appeal is found without merit once it is decided."))
    if appeal.origin == Appeal.Origin.DIRECTOR:
        _refuse("origin", _("The director referred this case: there are no appellants to sanction."))
    if appeal.outcome != Outcome.UPHOLD:
        _refuse("outcome", _("The ruling was %(o)s: an appeal that changed it had merit.") % {
            "o": appeal.get_outcome_display().lower().replace("ruling ", "")})
    if appeal.without_merit:
        _refuse("state", _("The appeal was already found without merit."))
    body = appeal.body()
    if body is not None and body.members.filter(user=by).exists():
        _require_sitting(body, by, _("judges the appeal's merit"))
    elif body is None or body.is_director_in_charge or appeal.decided_by_id == by.pk:
        _require_chief(by, appeal.tournament, _("judges the merit of an appeal he decided"))
    else:  # a body decided it: the chief director who did not sit on it is refused, like anyone else
        _require_sitting(body, by, _("judges the appeal's merit"))
    reasons = _require_text("reasons", reasons, _("Give the reasons: the appellants will read them."))
    sanction = setting(appeal.tournament, "without_merit_sanction")
    applied = []
    if sanction in ("deposit", "deposit_and_penalty"):
        deposit = appeal.deposits.filter(stage=Stage.EVENT, state=Deposit.State.HELD).first()
        if deposit:
            appeal.without_merit = True  # forfeit_deposit checks the finding
            appeal.save(update_fields=["without_merit"])
            forfeit_deposit(deposit=deposit, by=by, reason=_("appeal without merit"), now=now)
            applied.append(_("deposit of %(a)s %(c)s kept") % {"a": deposit.amount, "c": deposit.currency})
        else:
            applied.append(_("no deposit was held"))
    if sanction in ("penalty", "deposit_and_penalty"):
        amount = penalty or (setting(appeal.tournament, "without_merit_penalty") or {}).get(appeal.event.kind)
        if not amount:
            _refuse("penalty", _("%(body)s's sanction includes a score penalty: give it in the event's units "
                                 "(e.g. 25%% of a top, or 6 IMPs).") % {"body": appeal.tournament.authority})
        _penalise(appeal, amount, by=by, reasons=reasons)
        applied.append(_("procedural penalty of %(p)s on %(side)s") % {"p": amount, "side": appeal.get_side_display()})
    if sanction == "warning":
        players = selectors.appellant_players(appeal)
        for player in players:
            MeritWarning.objects.create(appeal=appeal, player=player, recorded_at=now)
        applied.append(_("warning recorded against %(names)s") % {"names": ", ".join(str(p) for p in players)})
    appeal.without_merit, appeal.without_merit_reasons, appeal.sanction = True, reasons, sanction
    _save(appeal)
    _log(appeal, Action.WITHOUT_MERIT, by=by, at=now,
         note="%s (%s)" % (reasons, "; ".join(applied) or _("no sanction")))
    return appeal


def _penalise(appeal, amount, *, by, reasons):
    text = str(amount).strip()
    try:
        Decimal(text[:-1] if text.endswith("%") else text)
    except InvalidOperation:
        _refuse("penalty", _("'%(p)s' is not a penalty: a number in the event's units, or a percentage of a top "
                             "such as 25%%.") % {"p": text})
    result = appeal.ruling.result
    current = EffectiveScore.objects.filter(result=result).first()
    penalties = dict(current.penalty or {}) if current else {}
    side = appeal.side.lower()
    if side in penalties:
        _refuse("penalty", _("%(side)s already has a procedural penalty on this board (%(p)s): the engine takes "
                             "one per side; add them up and change the ruling's penalty.") % {
            "side": appeal.get_side_display(), "p": penalties[side]})
    penalties[side] = text
    try:
        scoring_services.set_effective_score(
            result=result, kind=current.kind if current else Adjustment.TABLE, score=current.score if current else None,
            penalty=penalties, outside_agency=current.outside_agency if current else False,
            description=current.description if current else "", reason=_("Appeal without merit: %(r)s") % {
                "r": reasons}, cause_type="decision", cause_id=appeal.pk,
            cause_label=f"appeal {appeal.number} without merit", by=by)
    except ValidationError as error:
        raise ValidationError({"penalty": error.messages}) from None


@transaction.atomic
def record_recommendation(*, appeal, by, about, text, now=None):
    """Where it may not overrule the director in charge (law or regulation, Law 91), the body
    recommends a change (Law 93B3)."""
    now = now or timezone.now()
    appeal = _lock(appeal)
    body = appeal.body()
    if body is None or body.is_director_in_charge:
        _refuse("body", _("Only an appeals body recommends to the director in charge."))
    _require_sitting(body, by, _("recommends to the director in charge"))
    if about not in Recommendation.About.values:
        _refuse("about", _("A recommendation is about law or regulation, or about disciplinary powers (Law 91)."))
    text = _require_text("text", text, _("Write what the body recommends."))
    recommendation = _save(Recommendation(appeal=appeal, about=about, text=text, recommended_by=by,
                                          recommended_at=now))
    _log(appeal, Action.RECOMMENDATION, by=by, at=now, note=text)
    return recommendation


@transaction.atomic
def respond_to_recommendation(*, recommendation, by, accepted, response, now=None):
    """The director in charge accepts or declines a recommendation, in words. Acting on it (a
    changed ruling or decision) goes through the rulings service or ``decide_law_part``."""
    now = now or timezone.now()
    recommendation = Recommendation.objects.select_for_update().get(pk=recommendation.pk)
    appeal = _lock(recommendation.appeal)
    _require_chief(by, appeal.tournament, _("answers the body's recommendation"))
    if recommendation.accepted is not None:
        _refuse("accepted", _("The director already answered this recommendation."))
    recommendation.accepted = bool(accepted)
    recommendation.response = _require_text("response", response, _("Write the director's answer."))
    recommendation.responded_by, recommendation.responded_at = by, now
    _save(recommendation)
    _log(appeal, Action.RECOMMENDATION_ANSWERED, by=by, at=now,
         note="%s: %s" % (_("accepted") if accepted else _("declined"), recommendation.response))
    return recommendation


# --- Further appeal (Law 93C) ---------------------------------------------------------------------

@transaction.atomic
def lodge_further_appeal(*, appeal, by, grounds, origin=FurtherAppeal.Origin.PLAYER, player=None, now=None):
    """Take a decided case to the regulating authority, where it provides a further appeal: by a
    player of either side within the regulations' period after the decision, or as a referral by
    the director or the body. An advisory further appeal never changes scores."""
    now = now or timezone.now()
    appeal = _lock(appeal)
    tournament = appeal.tournament
    mode = setting(tournament, "further_appeal")
    if mode not in ("binding", "advisory"):
        _refuse("appeal", _("%(body)s provides no further appeal (Law 93C): the decision at the event is final.") % {
            "body": tournament.authority})
    if hasattr(appeal, "further"):
        _refuse("appeal", _("This case is already before the regulating authority."))
    grounds = _require_text("grounds", grounds, _("Write the grounds of the further appeal."))
    side, deadline = "", None
    if origin == FurtherAppeal.Origin.PLAYER:
        if appeal.state != Appeal.State.DECIDED:
            _refuse("state", _("A further appeal comes after the appeal at the event is decided (Law 93C)."))
        if player is None or selectors.side_of(player, appeal.ruling) is None:
            _refuse("player", _("Only a player or captain of either side at the table may appeal further."))
        side = selectors.side_of(player, appeal.ruling)
        deadline = appeal.decided_at + datetime.timedelta(
            minutes=setting(tournament, "further_appeal_period_minutes"))
        if now > deadline:
            _refuse("deadline", _("Too late: a further appeal had to be lodged by %(when)s.") % {
                "when": selectors.local_time(deadline, tournament)})
    elif origin == FurtherAppeal.Origin.DIRECTOR:
        _require_director(by, tournament, _("only a director refers a case to the regulating authority."))
        player = None
    elif origin == FurtherAppeal.Origin.BODY:
        body = appeal.body()
        if body is None or body.is_director_in_charge:
            _refuse("origin", _("No appeals body sits on this case."))
        _require_sitting(body, by, _("refers the case to the regulating authority"))
        player = None
    else:
        _refuse("origin", _("A further appeal comes from a player, the director or the body."))
    if appeal.state == Appeal.State.WITHDRAWN:
        _refuse("state", _("The appeal was withdrawn."))
    further = _save(FurtherAppeal(appeal=appeal, origin=origin, side=side, lodged_by=player, recorded_by=by,
                                  lodged_at=now, deadline=deadline, grounds=grounds, binding=mode == "binding"))
    _log(appeal, Action.FURTHER_LODGED, by=by, at=now, note="%s, %s: %s" % (
        further.get_origin_display(), _("binding") if further.binding else _("advisory only"), grounds))
    return further


@transaction.atomic
def decide_further_appeal(*, further_appeal, by, outcome, reasons, score_kind="", ns=None, ew=None, now=None):
    """The regulating authority's body decides. A binding decision that varies or overturns
    changes the scores, with the appeal as the cause; an advisory one is recorded (with any score
    it suggests) and changes nothing."""
    now = now or timezone.now()
    further = FurtherAppeal.objects.select_for_update().get(pk=further_appeal.pk)
    appeal = _lock(further.appeal)
    if further.state != FurtherAppeal.State.LODGED:
        _refuse("state", _("The further appeal is already decided."))
    outcome = _outcome(outcome)
    reasons = _require_text("reasons", reasons, _("Give the reasons for the decision."))
    body = appeal.body(Stage.FURTHER)
    _require_constituted(body)
    _require_sitting(body, by, _("records its decision"))
    _check_votes(body, outcome, now=now)
    _check_score_for(outcome, score_kind)
    if further.binding:
        kind, score, description = _apply_score(appeal, outcome=outcome, score_kind=score_kind, ns=ns, ew=ew, by=by,
                                                reasons=reasons, label=f"appeal {appeal.number} further decision")
    elif score_kind:
        score, description = build_adjusted_score(result=appeal.ruling.result, score_kind=score_kind, ns=ns, ew=ew)
        kind = score_kind
    else:
        kind, score, description = "", None, ""
    further.outcome, further.reasons, further.decided_by, further.decided_at = outcome, reasons, by, now
    further.score_kind, further.score, further.score_description = kind, score, description
    further.state = FurtherAppeal.State.DECIDED
    _save(further)
    label = str(Outcome(outcome).label)
    _log(appeal, Action.FURTHER_DECIDED, by=by, at=now,
         note=label if further.binding else "%s (%s)" % (label, _("advisory")))
    _settle_ruling(appeal.ruling)
    return further
