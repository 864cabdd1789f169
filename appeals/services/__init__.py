"""Every step of an appeal (Laws 92 and 93), each in one transaction.

A step that cannot be taken is refused with a ``ValidationError`` naming the field, in words a
committee can read at midnight. Every step is logged as an ``AppealEvent`` (who, when, the
state before and after). Times are aware datetimes; ``now`` defaults to the wall clock and is a
parameter so that deadlines can be tested on both sides of the limit.

A decision reaches the scores only through ``scoring.services.set_effective_score`` with the
appeal as the cause (``cause_type="decision"``), in the adjusted-score form that rulings use
(``rulings.services.build_adjusted_score``).

The steps live in one module per stage (lodging, body, hearing, decision, further); this package
re-exports them, so ``from appeals import services; services.lodge_appeal(...)`` works as before.
Who may take each step is decided in the service that takes it: a refused person gets
``PermissionDenied`` with the reason (the API answers 403, the page says why).
"""

from appeals.conflicts import conflicts_of
from appeals.services.body import (
    appoint_member,
    appoint_to_case,
    constitute_body,
    declare_conflict,
    recuse,
)
from appeals.services.common import setting
from appeals.services.decision import (
    appeal_law_decision,
    decide_appeal,
    decide_law_part,
    find_without_merit,
    record_recommendation,
    remind_decisions_due,
    respond_to_recommendation,
)
from appeals.services.filings import appeal_period, file_memo, record_validity
from appeals.services.further import decide_further_appeal, lodge_further_appeal
from appeals.services.hall import revoke_hall_address
from appeals.services.hearing import (
    extend_decision_time,
    record_attendance,
    record_hearing_notes,
    record_vote,
    schedule_hearing,
    sit_early,
)
from appeals.services.lodging import (
    accept_withdrawal,
    decline_request,
    deposit_due,
    extend_deadline,
    extension_allowed,
    forfeit_deposit,
    lock_statements,
    lodge_appeal,
    lodge_requested,
    record_concurrence,
    record_deposit,
    record_statement,
    request_appeal,
    request_parts,
    request_withdrawal,
    return_deposit,
    unlock_statements,
)

__all__ = [
    "setting",
    "remind_decisions_due",
    "lodge_appeal",
    "extend_deadline",
    "extend_decision_time",
    "extension_allowed",
    "record_concurrence",
    "record_statement",
    "lock_statements",
    "unlock_statements",
    "request_appeal",
    "lodge_requested",
    "decline_request",
    "request_parts",
    "deposit_due",
    "record_deposit",
    "return_deposit",
    "forfeit_deposit",
    "request_withdrawal",
    "accept_withdrawal",
    "conflicts_of",
    "appoint_to_case",
    "constitute_body",
    "appoint_member",
    "declare_conflict",
    "recuse",
    "schedule_hearing",
    "sit_early",
    "record_attendance",
    "record_hearing_notes",
    "record_vote",
    "decide_law_part",
    "appeal_law_decision",
    "decide_appeal",
    "find_without_merit",
    "record_recommendation",
    "respond_to_recommendation",
    "lodge_further_appeal",
    "revoke_hall_address",
    "decide_further_appeal",
    "appeal_period",
    "file_memo",
    "record_validity",
]
