"""The steps of an appeal, each declared once (core/steps.py): on the case page (``on="case"``:
its door ``appeals:case-<name>``, its API action ``appeal-<name>``), and the steps a ruling's
pages offer towards an appeal (lodging, a player's request, the appeal period's extension).

Who may take each is the policy's (``actions``); the states the page offers it in are the
appeal's (``record="appeal"``) or its further appeal's (``record="further"``), read from the
tables of appeals/lifecycle.py where the step moves one. What only the page's data decides
(a concurrence still missing, a deposit due, a seat still free) stays with the page.
"""

from appeals.models import Appeal, FurtherAppeal, Stage
from core import steps
from core.steps import ANY, START, Step

State = Appeal.State
OPEN = tuple(Appeal.OPEN_STATES)
CLOSED = tuple(state for state in State.values if state not in OPEN)
SERVICES, INPUTS = "appeals.services", "appeals.inputs"


def _further_state(appeal: Appeal):
    """The case's further appeal's state; START when none is lodged."""
    return FurtherAppeal.objects.filter(appeal=appeal).values_list("state", flat=True).first()


def _further_body(appeal: Appeal):
    """The regulating authority's body for the case's further appeal (None before it is formed)."""
    return appeal.body(Stage.FURTHER)


steps.kind("appeal", "appeals.lifecycle.APPEAL", lambda appeal: appeal.state)
steps.kind("further", "appeals.lifecycle.FURTHER", _further_state)
steps.kind("deposit", "appeals.lifecycle.DEPOSIT_STATES", lambda deposit: deposit.state)


def case(name: str, actions: tuple[str, ...], service: str, what: str, input: str = "", **options) -> Step:
    """A step of the case page: its door and API action named after it."""
    door = options.pop("door", f"appeals:case-{name.replace('_', '-')}")
    api = options.pop("api", f"appeal-{name.replace('_', '-')}")
    return Step(
        name,
        "case",
        options.pop("record", "appeal"),
        actions,
        f"{SERVICES}.{service}",
        what,
        input=f"{INPUTS}.{input}" if input else "",
        door=door,
        api=api,
        **options,
    )


steps.declare(
    # Lodging, concurrence, statements, deposits, withdrawal.
    case(
        "concurrence",
        ("concurrence",),
        "record_concurrence",
        "record a player's concurrence",
        "ConcurrenceInput",
        states=OPEN,
        audit="appeal.concurrence",
    ),
    case(
        "deposit",
        ("deposit",),
        "record_deposit",
        "record the deposit received",
        "NoInput",
        states=OPEN,
        audit="appeal.deposit_received",
    ),
    case(
        "return_deposit",
        ("deposit",),
        "return_deposit",
        "return a deposit once the case is over",
        "DepositInput",
        moves=("return",),
        moves_on="deposit",
        states=CLOSED,
        audit="appeal.deposit_returned",
    ),
    case(
        "forfeit_deposit",
        ("deposit",),
        "forfeit_deposit",
        "keep a deposit (Law 92A)",
        "ForfeitInput",
        moves=("forfeit",),
        moves_on="deposit",
        states=CLOSED,
        audit="appeal.deposit_forfeited",
    ),
    case(
        "statements",
        ("statements",),
        "record_statement",
        "record the statements",
        "StatementsInput",
        states=OPEN,
        audit="appeal.statement",
    ),
    case(
        "lock_statements",
        ("statements",),
        "lock_statements",
        "lock the agreed statements",
        "LockStatementsInput",
        states=OPEN,
        audit="appeal.statements_locked",
    ),
    case(
        "unlock_statements",
        ("unlock_statements",),
        "unlock_statements",
        "unlock agreed statements",
        "ReasonInput",
        states=OPEN,
        api="",
        audit="appeal.statement",
    ),
    case(
        "withdrawal",
        ("withdrawal",),
        "request_withdrawal",
        "record a request to withdraw",
        "WithdrawalInput",
        states=OPEN,
        audit="appeal.withdrawal_requested",
    ),
    case(
        "accept_withdrawal",
        ("decision", "withdraw_unheard"),
        "accept_withdrawal",
        "accept the withdrawal",
        "NoInput",
        moves=("withdraw",),
        audit="appeal.withdrawn",
    ),
    case(
        "validity",
        ("validity",),
        "record_validity",
        "decide whether an appeal received late is valid",
        "ValidityInput",
        moves=("find_out_of_time",),  # when it is not: a valid one stays where it is
        states=OPEN,
        also=("seat",),
        audit="appeal.validity",
    ),
    # The body and the hearing.
    case(
        "constitute",
        ("body",),
        "constitute_body",
        "form the body",
        "ConstituteInput",
        moves=("constitute",),
        audit="appeal.body_created",
    ),
    case(
        "appoint",
        ("body",),
        "appoint_to_case",
        "fill a free seat of the body",
        "AppointInput",
        states=ANY,
        audit="appeal.member_appointed",
    ),
    case(
        "declare",
        ("seat",),
        "declare_conflict",
        "declare one's interests",
        "DeclareInput",
        states=ANY,
        audit="appeal.interests_declared",
    ),
    case("recuse", ("seat",), "recuse", "step down from the body", "ReasonInput", states=ANY, audit="appeal.recused"),
    case(
        "schedule",
        ("hearing",),
        "schedule_hearing",
        "schedule the hearing",
        "ScheduleInput",
        moves=("schedule",),
        states=(State.CONSTITUTED,),
        audit="appeal.hearing_scheduled",
    ),
    case(
        "sit_early",
        ("hearing_record",),
        "sit_early",
        "sit before the hearing's time",
        "ReasonInput",
        states=ANY,
        audit="appeal.sat_early",
    ),
    case(
        "extend_decision",
        ("extend_decision",),
        "extend_decision_time",
        "give the case more time to be decided",
        "ExtendDecisionInput",
        states=ANY,
        audit="appeal.decision_time_extended",
    ),
    case(
        "attendance",
        ("hearing_record",),
        "record_attendance",
        "record who attended the hearing",
        "AttendanceInput",
        states=(State.SCHEDULED,),
        audit="appeal.attendance",
    ),
    case(
        "hearing_notes",
        ("hearing_record",),
        "record_hearing_notes",
        "record the hearing's notes",
        "HearingNotesInput",
        states=ANY,
        audit="appeal.hearing_notes",
    ),
    case("vote", ("seat",), "record_vote", "vote", "VoteInput", states=(State.SCHEDULED,), audit="appeal.vote"),
    # Decisions.
    case(
        "law_part",
        ("law_part",),
        "decide_law_part",
        "decide a part on law (Law 93B1)",
        "LawPartDecisionInput",
        moves=("decide_on_law",),
        api="appeal-decide-law-part",
        audit="appeal.law_part_decided",
    ),
    case(
        "law_to_body",
        ("appeal_law_decision",),
        "appeal_law_decision",
        "take the decision on law to the body",
        "PartInput",
        moves=("law_to_body", "law_to_new_body"),
        states=ANY,
        api="appeal-appeal-law-decision",
        audit="appeal.law_part_to_body",
    ),
    case(
        "decide",
        ("decision",),
        "decide_appeal",
        "decide the appeal",
        "AppealDecisionInput",
        moves=("decide",),
        states=(State.SCHEDULED,),
        also=("seat",),
        audit="appeal.decided",
    ),
    case(
        "without_merit",
        ("decision",),
        "find_without_merit",
        "find the appeal without merit (Law 92A)",
        "WithoutMeritInput",
        states=(State.DECIDED,),
        also=("seat",),
        audit="appeal.without_merit",
    ),
    case(
        "recommend",
        ("recommendation",),
        "record_recommendation",
        "recommend to the director in charge (Law 93B3)",
        "RecommendationInput",
        states=(State.SCHEDULED,),
        also=("seat",),
        api="appeal-recommendation",
        audit="appeal.recommendation",
    ),
    case(
        "respond",
        ("respond",),
        "respond_to_recommendation",
        "answer the body's recommendation",
        "ResponseInput",
        states=ANY,
        api="appeal-respond-to-recommendation",
        audit="appeal.recommendation_answered",
    ),
    # Further appeal (Law 93C).
    case(
        "further",
        ("further_appeal",),
        "lodge_further_appeal",
        "lodge a player's further appeal",
        "FurtherAppealInput",
        record="further",
        moves=("lodge_further",),
        also_in=(("appeal", (State.DECIDED,)),),
        api="appeal-further-appeal",
        audit="appeal.further_lodged",
    ),
    case(
        "refer_further",
        ("further_appeal", "refer_further"),
        "lodge_further_appeal",
        "refer the case to the regulating authority",
        "FurtherAppealInput",
        record="further",
        moves=("lodge_further",),
        also_in=(("appeal", tuple(state for state in State.values if state != State.WITHDRAWN)),),
        api="appeal-further-appeal",
        audit="appeal.further_lodged",
    ),
    case(
        "further_body",
        ("national_body",),
        "constitute_body",
        "form the regulating authority's body",
        "ConstituteInput",
        record="further",
        states=(FurtherAppeal.State.LODGED,),
        api="appeal-constitute",
        audit="appeal.body_created",
    ),
    case(
        "decide_further",
        ("decision",),
        "decide_further_appeal",
        "decide the further appeal",
        "DecisionInput",
        record="further",
        moves=("decide_further",),
        also=("seat",),
        about=_further_body,
        api="appeal-decide-further-appeal",
        audit="appeal.further_decided",
    ),
    # A ruling's pages, towards an appeal.
    Step(
        "lodge",
        "ruling",
        "ruling",
        ("lodge",),
        f"{SERVICES}.lodge_appeal",
        "lodge an appeal (Law 92C)",
        input=f"{INPUTS}.LodgeInput",
        moves=("appeal",),
        door="appeals:appeal-lodge",
        api="appeal-list",
        audit="appeal.lodged",
    ),
    Step(
        "request_appeal",
        "ruling",
        "ruling",
        ("request_appeal",),
        f"{SERVICES}.request_appeal",
        "ask a director to appeal",
        states=ANY,
        door="appeals:appeal-request",
        api="appeal-request-list",
        audit="appeal_request.made",
    ),
    Step(
        "extend_period",
        "ruling",
        "ruling",
        ("extend_period",),
        f"{SERVICES}.extend_deadline",
        "extend the appeal period (Law 92B)",
        states=ANY,
        door="appeals:appeal-lodge",
        api="appeal-extension-list",
        audit="ruling.appeal_period_extended",
    ),
    Step(
        "file_memo",
        "ruling",
        "ruling",
        ("file_memo",),
        f"{SERVICES}.file_memo",
        "file a memo on a ruling, received, numbered and timed (never turned away at the desk)",
        states=ANY,
        door="appeals:memo",
        api="appeal-memo-list",
        audit="filing.received",
    ),
)

__all__ = ["START"]
