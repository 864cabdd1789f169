"""Every filing received (issue #44): a request to appeal, an appeal, a player's memo each gets a
number, the time it was received and who received it, and an acknowledgement for the filer with
the next deadline, in the language they filed in. Nothing is turned away at the desk: a filing
that comes after the appeal period (Law 92B) is received like any other, and the body hearing the
case, never the desk, records whether it is valid and why (the sailing judges' manual: never
reject a protest, even a late one; number it, time it and initial it on receipt).

The Law 92B period itself is ``appeal_period`` here, the one place lodging and requests ask.
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from appeals import lifecycle, selectors
from appeals.lifecycle import Step
from appeals.models import Appeal, AppealRequest, DeadlineExtension, Filing
from appeals.services.common import (
    Action,
    advance,
    log_step,
    refuse,
    require_sitting,
    require_text,
    save_checked,
    settle_ruling,
)
from appeals.texts import moment_param
from audit import services as audit
from core import dispatch, policy, texts
from core.retry import atomic_with_retry
from rulings.models import Ruling
from scoring.models import Tournament

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from scoring.models import Player


@dataclass(frozen=True)
class Period:
    """The Law 92B period of a ruling at a moment: its deadline (None before the official score
    is posted), the extension in force after it (if any), and whether that moment is late."""

    deadline: datetime.datetime | None
    extension: DeadlineExtension | None
    late: bool


def appeal_period(ruling: Ruling, now: datetime.datetime) -> Period:
    """The period that applies at ``now``: the Law 92B deadline, or a later extension the chief
    director granted. Late only when both have passed."""
    deadline = ruling.appeal_deadline()
    if deadline is None or now <= deadline:
        return Period(deadline, None, False)
    extension = ruling.appeal_extensions.filter(until__gte=now).order_by("-until").first()
    return Period(deadline, extension, extension is None)


def _language(language: str | None) -> str:
    codes = [code for code, _name in settings.LANGUAGES]
    chosen = (language or translation.get_language() or settings.LANGUAGE_CODE).split("-")[0]
    if chosen not in codes:
        refuse(
            "language", _("'%(l)s' is not a language of this system: %(all)s.") % {"l": chosen, "all": ", ".join(codes)}
        )
    return chosen


def _next(ruling: Ruling, kind: str, period: Period, appeal: Appeal | None) -> dict[str, Any]:
    """What comes next for the filer, and by when (the acknowledgement's last sentence)."""
    tournament = ruling.tournament
    if appeal is not None and appeal.hear_at_once:
        return {"next_what": "at_once"}
    if appeal is not None and appeal.decide_by:
        return {"next_what": "decide_by", "next": moment_param(appeal.decide_by, tournament)}
    if not period.late and kind != Filing.Kind.APPEAL:
        limit = ruling.appeal_limit()
        if limit is not None:
            return {"next_what": "period", "next": moment_param(limit, tournament)}
    if kind == Filing.Kind.REQUEST:
        return {"next_what": "lodge"}
    return {}


def receive(
    *,
    ruling: Ruling,
    kind: str,
    filer: Player,
    by: User,
    text: str,
    now: datetime.datetime,
    period: Period | None = None,
    appeal: Appeal | None = None,
    request: AppealRequest | None = None,
    language: str | None = None,
) -> Filing:
    """Number, time and record one filing received by ``by`` (a director at the desk, or the
    player on their own page), with its acknowledgement. Called inside the step that takes it."""
    tournament = ruling.tournament
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # numbers are given one at a time
    last = Filing.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"]
    if kind == Filing.Kind.MEMO:
        validity = Filing.Validity.NO_PERIOD
    else:
        period = period or appeal_period(ruling, now)
        if period.deadline is None and not period.late:
            validity = Filing.Validity.NO_PERIOD
        else:
            validity = Filing.Validity.PENDING if period.late else Filing.Validity.IN_TIME
    period = period or appeal_period(ruling, now)
    number = (last or 0) + 1
    params: dict[str, Any] = {
        "n": number,
        "kind": kind,
        "at": moment_param(now, tournament),
        "by": by.get_full_name() or by.get_username(),
        **_next(ruling, kind, period, appeal),
    }
    if validity == Filing.Validity.PENDING and period.deadline is not None:
        params["ended"] = moment_param(ruling.appeal_limit() or period.deadline, tournament)
    filing = save_checked(
        Filing(
            tournament=tournament,
            number=number,
            kind=kind,
            ruling=ruling,
            appeal=appeal,
            request=request,
            filer=filer,
            text=text,
            received_at=now,
            received_by=by,
            deadline=period.deadline,
            validity=validity,
            language=_language(language),
            acknowledgement_code="appeals.acknowledgement",
            acknowledgement_params=params,
        )
    )
    audit.record(
        action="filing.received",
        obj=filing,
        actor=by,
        tournament=tournament.pk,
        before={},
        after={"number": number, "kind": kind, "validity": validity, "at": now.isoformat()},
        summary=texts.text("appeals.audit_filing", n=number, kind=kind, validity=validity),
    )
    # The filer's copy by e-mail once the filing is kept (issue #44: acknowledged at once, not
    # only at the desk); by name (core/dispatch.py): the tasks module is above the services.
    transaction.on_commit(lambda: _mail_acknowledgement(filing.pk))
    return filing


def _mail_acknowledgement(filing_id: int) -> None:
    """Queue the filer's e-mail copy; a broker that does not answer costs the copy, never the
    filing (it is kept, and its acknowledgement is on the filer's page)."""
    try:
        dispatch.send("appeals.tasks.send_filing_acknowledgement", filing_id)
    except Exception:  # noqa: BLE001 - any broker failure: the filing stands
        log.warning("Broker unreachable: the e-mail acknowledgement of filing %s not sent.", filing_id, exc_info=True)


def attach(filing: Filing, appeal: Appeal) -> Filing:
    """The appeal a director lodged from a received request: the filing (its number, time and
    validity) follows the case. Its acknowledgement stays as it was given."""
    filing.appeal = appeal
    filing.save(update_fields=["appeal"])
    return filing


@atomic_with_retry
def file_memo(
    *,
    ruling: Ruling,
    player: Player | None,
    by: User,
    text: str,
    language: str | None = None,
    now: datetime.datetime | None = None,
) -> Filing:
    """A player's memo on a ruling or its appeal (what they saw, a correction of the facts),
    handed to a director at the desk or sent from the player's own page: received, numbered and
    timed like every filing, whenever it comes."""
    now = now or timezone.now()
    ruling = Ruling.objects.select_related("result__board__session__event__tournament").get(pk=ruling.pk)
    policy.require(by, "file_memo", ruling)
    if player is None:
        refuse("player", _("Say which player of the table files the memo."))
    if selectors.side_of(player, ruling) is None:
        refuse("player", _("%(p)s did not play at the table of %(r)s.") % {"p": player, "r": ruling})
    if player.user_id != by.pk:
        policy.require(by, "receive_memo", ruling.tournament)
    text = require_text("text", text, _("Write the memo: what the player wants the director or the body to know."))
    appeal = next((a for a in ruling.appeals.order_by("-lodged_at") if a.is_open), None)
    filing = receive(
        ruling=ruling, kind=Filing.Kind.MEMO, filer=player, by=by, text=text, now=now, appeal=appeal, language=language
    )
    if appeal is not None:
        log_step(appeal, Action.MEMO, by=by, at=now, note=texts.text("appeals.memo_received", n=filing.number))
    return filing


@atomic_with_retry
def record_validity(
    *, filing: Filing, by: User, valid: bool, reason: str, now: datetime.datetime | None = None
) -> Filing:
    """The body hearing the case decides whether an appeal received after the period is valid,
    with its reason: valid, the case goes on to its hearing and decision; not valid, the case
    ends unheard (the ruling stands) and the reason is on the record for the players."""
    now = now or timezone.now()
    filing = Filing.objects.select_for_update(of=("self",)).select_related("appeal").get(pk=filing.pk)
    appeal = filing.appeal
    if appeal is None:
        refuse(
            "filing",
            _("%(f)s has not been lodged as an appeal yet: a director lodges it, and the body then decides.")
            % {"f": filing},
        )
    appeal = Appeal.objects.select_for_update(of=("self",)).get(pk=appeal.pk)
    body = appeal.body()
    if body is None:
        refuse("body", _("No body has been formed to hear this case: the body decides whether it is valid."))
    require_sitting(body, by, "validity", _("decides whether a late appeal is valid"))
    if filing.validity != Filing.Validity.PENDING:
        refuse("validity", _("%(f)s was not received late, or its validity is already decided.") % {"f": filing})
    reason = require_text("reason", reason, _("Say why: the players read the body's reason."))
    lifecycle.require_constituted(body)
    if not valid:
        lifecycle.APPEAL.target(appeal.state, Step.FIND_OUT_OF_TIME, appeal.number)
        lifecycle.check(appeal, Step.FIND_OUT_OF_TIME)
    filing.validity = Filing.Validity.VALID if valid else Filing.Validity.INVALID
    filing.validity_reason, filing.validity_by, filing.validity_at = reason, by, now
    save_checked(filing)
    note = texts.text("appeals.validity", n=filing.number, valid=valid, reason=reason)
    if valid:
        log_step(appeal, Action.VALIDITY, by=by, at=now, note=note)
    else:
        advance(appeal, Step.FIND_OUT_OF_TIME, action=Action.VALIDITY, by=by, at=now, note=note)
        settle_ruling(appeal.ruling)
    return filing
