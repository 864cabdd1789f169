"""The appeals app's stored texts (see core/texts.py): the notes of a case's timeline and the
notifications, each a code with its values, shown in the reader's language.

Adding one: a code here with its message (named placeholders; ``formats`` for a value shown by
its label or as a moment), ``texts.text("appeals.<code>", ...)`` where the service writes it, the
translations in every .po file, and a test that writes it in English and reads it in Hebrew or
Greek (tests/appeals/test_stored_texts.py).
"""

from zoneinfo import ZoneInfo

from django.utils.translation import gettext_lazy as _

from appeals.models import AppealEvent, Body, Concurrence, Deposit, Filing, FurtherAppeal, Hearing, Outcome
from appeals.terms import body_kind
from core import reader
from core.texts import Template, label, register, register_actions
from rulings.models import SIDE_CHOICES
from scoring.texts import score_words

# A message of only values and punctuation joins parts the same way in every language: it is
# not marked for translation.


def moment(value):
    """``{"at": ISO 8601, "zone": "Europe/London"}`` as the players read it, in that zone (as
    appeals.selectors.local_time reads a moment at a tournament)."""
    import datetime

    return reader.isolated(reader.event_time(datetime.datetime.fromisoformat(value["at"]), ZoneInfo(value["zone"])))


def moment_param(at, tournament):
    return {"at": at.isoformat(), "zone": tournament.zone.key}


def _lodged(values):
    text = _("%(side)s (%(c)s) appeal %(r)s; lodged by %(p)s.") % values
    if values.get("no_clock"):
        text += " " + _("The official score was not posted: the appeal clock had not started.")
    if values.get("until"):
        text += " " + _("Late, within the extension to %(until)s: %(reason)s") % values
    if values.get("late"):
        text += " " + _("Received after the appeal period: the body decides whether it is valid.")
    return text


def _acknowledgement(values):
    """The acknowledgement a filer gets: the number, when and by whom it was received, a late
    filing's word that it is not turned away, and what comes next (issue #44)."""
    text = _("Filing %(n)s (%(kind)s) received at %(at)s by %(by)s.") % values
    if values.get("ended"):
        text += (
            " "
            + _(
                "It came after the appeal period ended at %(ended)s (Law 92B). It is not turned away: the "
                "appeals body decides whether it is valid, and records why."
            )
            % values
        )
    following = {
        "period": _("Next deadline: the appeal period ends at %(next)s."),
        "decide_by": _("Next deadline: the case is to be decided by %(next)s."),
        "at_once": _("Next: the case is heard at once (the event's last session)."),
        "lodge": _("Next: a director lodges the appeal with the appeals body (Law 92C)."),
    }.get(values.get("next_what", ""))
    if following:
        text += " " + following % values
    return text


def _validity(values):
    if values["valid"]:
        return _("Filing %(n)s, received late, is valid (the body): %(reason)s") % values
    return _("Filing %(n)s, received late, is not valid (the body): %(reason)s. The case is not heard.") % values


SIDE = label(SIDE_CHOICES)
OUTCOME = label(Outcome)
KIND = body_kind(label(Body.Kind))
FILING_KIND = label(Filing.Kind, lower=True)  # the authority's own word where it renamed the body

TEXTS = {
    # Things the notes name.
    "ruling": Template(_("Ruling %(number)s"), name=True),
    "appeal": Template(_("Appeal %(number)s"), name=True),
    # The timeline.
    "lodged": Template(compose=_lodged, formats={"side": SIDE, "until": moment}),
    "referred": Template(_("%(r)s referred by the director (Law 83)."), nested={"r": "appeals.ruling"}),
    "concurrence": Template("%(p)s: %(how)s", formats={"how": label(Concurrence.How, lower=True)}),
    "statement_grounds": Template(_("grounds")),
    "statement_respondents": Template(_("respondents' statement")),
    "statements_unlocked": Template(_("statements unlocked: %(reason)s")),
    "deposit_received": Template("%(amount)s %(currency)s (%(state)s)", formats={"state": label(Deposit.State)}),
    "withdrawal_requested": Template(_("%(p)s asks to withdraw. %(reason)s The body may still hear the case.")),
    "body_formed": Template(_("%(kind)s of %(n)s"), formats={"kind": KIND}),
    "member_appointed": Template("%(member)s, %(kind)s", formats={"kind": body_kind(label(Body.Kind, lower=True))}),
    "chair_appointed": Template(
        _("%(member)s (chair), %(kind)s"), formats={"kind": body_kind(label(Body.Kind, lower=True))}
    ),
    "chief_seated": Template(
        _("%(member)s, %(kind)s: the chief director sits on the body (warned, Law 93B)"),
        formats={"kind": body_kind(label(Body.Kind, lower=True))},
    ),
    "constituted": Template("%(kind)s: %(names)s", formats={"kind": KIND}),
    "no_conflict": Template(_("%(member)s: no conflict")),
    "hearing": Template("%(when)s, %(mode)s", formats={"when": moment, "mode": label(Hearing.Mode, lower=True)}),
    "hearing_at": Template(
        "%(when)s, %(mode)s, %(place)s", formats={"when": moment, "mode": label(Hearing.Mode, lower=True)}
    ),
    "sat_early": Template(_("The body sat before %(fixed)s: %(reason)s"), formats={"fixed": moment}),
    "decision_time_extended": Template(
        _("To be decided by %(until)s instead of %(before)s: %(reason)s"), formats={"until": moment, "before": moment}
    ),
    "decision_time_set": Template(_("To be decided by %(until)s: %(reason)s"), formats={"until": moment}),
    "attendance": Template(_("%(p)s for %(side)s"), formats={"side": SIDE}),
    "vote": Template("%(member)s: %(vote)s", formats={"vote": label(Outcome, lower=True)}),
    "vote_dissent": Template(_("%(member)s: %(vote)s (dissent)"), formats={"vote": label(Outcome, lower=True)}),
    "law_part_decided": Template("%(question)s: %(outcome)s", formats={"outcome": OUTCOME}),
    "decided_on_law": Template(_("decided by the director in charge on law")),
    "decided": Template(compose=lambda values: values["outcome"], formats={"outcome": OUTCOME}),
    "decided_score": Template(
        "%(outcome)s: %(score)s", formats={"outcome": OUTCOME, "score": lambda text: reader.isolated(score_words(text))}
    ),
    "without_merit": Template("%(reasons)s (%(sanctions)s)"),
    "no_sanction": Template(_("no sanction")),
    "deposit_kept": Template(_("deposit of %(a)s %(c)s kept")),
    "no_deposit": Template(_("no deposit was held")),
    "merit_penalty": Template(_("procedural penalty of %(p)s on %(side)s"), formats={"side": SIDE}),
    "merit_warning": Template(_("warning recorded against %(names)s")),
    "recommendation_accepted": Template(_("accepted: %(response)s")),
    "recommendation_declined": Template(_("declined: %(response)s")),
    "further_lodged_binding": Template(
        _("%(origin)s, binding: %(grounds)s"), formats={"origin": label(FurtherAppeal.Origin)}
    ),
    "further_lodged_advisory": Template(
        _("%(origin)s, advisory only: %(grounds)s"), formats={"origin": label(FurtherAppeal.Origin)}
    ),
    "further_decided_advisory": Template(_("%(outcome)s (advisory)"), formats={"outcome": OUTCOME}),
    # Notifications.
    "notice_sits": Template(
        _("Appeal %(n)s: you sit on it (%(body)s); the hearing is fixed next."), formats={"body": KIND}
    ),
    "notice_heard": Template(_("Appeal %(n)s is heard at %(when)s."), formats={"when": moment}),
    "notice_recommendation": Template(
        _("Appeal %(n)s: the body recommends a change; your answer is awaited (Law 93B3).")
    ),
    "notice_decided": Template(_("Appeal %(n)s is decided: %(outcome)s."), formats={"outcome": OUTCOME}),
    "notice_due": Template(
        _("Appeal %(n)s must be decided by %(when)s: less than an hour is left."), formats={"when": moment}
    ),
    # Why a decision changed a score (ScoreChange.reason).
    "without_merit_reason": Template(_("Appeal without merit: %(r)s"), kind="score_reason"),
    "recommendation_reason": Template(
        _("Recommendation of the appeals body accepted (Law 93B3): %(r)s"), kind="score_reason"
    ),
    # The audit trail's summaries.
    "audit_step": Template(
        "%(appeal)s: %(action)s", formats={"action": label(AppealEvent.Action)}, nested={"appeal": "appeals.appeal"}
    ),
    "audit_request": Template(_("%(p)s asks to appeal %(r)s"), nested={"r": "appeals.ruling"}),
    "audit_request_declined": Template(_("request to appeal %(r)s declined"), nested={"r": "appeals.ruling"}),
    # Filings received (issue #44).
    "acknowledgement": Template(
        compose=_acknowledgement,
        formats={"kind": FILING_KIND, "at": moment, "ended": moment, "next": moment},
    ),
    "validity": Template(compose=_validity),
    "memo_received": Template(_("Filing %(n)s, a player's memo")),
    "audit_filing": Template(
        _("filing %(n)s received (%(kind)s): %(validity)s"),
        formats={"kind": FILING_KIND, "validity": label(Filing.Validity, lower=True)},
    ),
    # The chief director revokes the hall screen's address (appeals.services.hall).
    "hall_address_revoked": Template(_("%(tournament)s: the hall screen's address revoked, a new one issued")),
}

register("appeals", TEXTS)


# The labels of this app's audit actions (core.texts.action_label: the national desk's trail).
AUDIT_ACTIONS = {
    **{f"appeal.{value}": name for value, name in AppealEvent.Action.choices},  # a case's steps
    "ruling.appeal_period_extended": _("Time to appeal extended"),
    "appeal_request.made": _("Request to appeal made"),
    "appeal_request.declined": _("Request to appeal declined"),
    "filing.received": _("Filing received"),
    "hall_address.revoked": _("Hall screen's address revoked"),
}
register_actions(AUDIT_ACTIONS)
