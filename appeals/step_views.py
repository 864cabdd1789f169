"""The steps of a case, one door each: every step the case page offers posts to its own URL
(``appeals:case-<step>``, appeals/urls.py), read by a small view with the step's one input
definition (appeals/inputs.py, which the API reads too) and taken by its service.

Who may take a step is the service's to decide: a person it refuses sees a page saying why (403);
a bad input comes back to the case page with the reason, naming the field; a step taken comes
back to the case page with "Recorded.". A GET goes back to the case page.
"""

import functools

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.translation import gettext as _

from appeals import conflicts, inputs, lifecycle, services
from appeals.forms import DecisionForm
from appeals.models import AppealPart, BodyMember, Deposit, Filing, FurtherAppeal, Hearing, Stage
from appeals.views import case_for, refused, show_errors
from core import steps
from scoring.models import Player


def case_step(view):
    """A step's door: a POST by a logged-in reader of the case, ``view(request, appeal)`` calling
    the step's service; refusals and bad inputs as the module says."""

    @login_required
    @functools.wraps(view)
    def door(request, pk):
        if request.method != "POST":
            return redirect("appeals:appeal", pk)
        appeal = case_for(request, pk)
        try:
            view(request, appeal)
        except PermissionDenied as error:
            return refused(request, str(error))
        except ValidationError as error:
            show_errors(request, error)
        else:
            messages.success(request, _("Recorded."))
        return redirect("appeals:appeal", appeal.pk)

    return door


def _player(pk):
    return get_object_or_404(Player, pk=pk)


def _seat(request, appeal):
    """The reader's own seat on the event's body: a member in person acts from it (404 for anyone else)."""
    return get_object_or_404(
        BodyMember, body__appeal=appeal, body__stage=Stage.EVENT, user=request.user, recused_at__isnull=True
    )


def _latest_hearing(appeal):
    """The case's latest hearing, the one the page records; refused by name when none is scheduled."""
    hearing = appeal.hearings.order_by("-starts_at", "-pk").first()
    if hearing is None:
        raise ValidationError({"hearing": _("No hearing is scheduled for this case yet.")})
    return hearing


def _with_hearing(request, appeal):
    """The post, with the latest hearing when it names none."""
    data = request.POST.copy()
    if not data.get("hearing"):
        data["hearing"] = _latest_hearing(appeal).pk
    return data


def _decision(request, prefix, input_class, **extra):
    """A decision's input: the page's decision form (the adjusted score's fields) read into the
    step's input, checked by its one definition."""
    return inputs.valid(input_class, {**DecisionForm(request.POST, prefix=prefix).read(), **extra})


# --- Lodging, concurrence, statements, deposits, withdrawal -----------------------------------------


@case_step
def concurrence(request, appeal):
    data = inputs.valid(inputs.ConcurrenceInput, request.POST)
    services.record_concurrence(appeal=appeal, player=_player(data["player"]), how=data["how"], by=request.user)


@case_step
def statements(request, appeal):
    data = inputs.valid(inputs.StatementsInput, request.POST)
    services.record_statement(
        appeal=appeal,
        by=request.user,
        grounds=data.get("grounds") or None,
        respondents_statement=data.get("respondents_statement"),
    )


@case_step
def lock_statements(request, appeal):
    data = inputs.valid(inputs.LockStatementsInput, request.POST)
    agreed_by = list(Player.objects.filter(pk__in=data["agreed_by"]))
    services.lock_statements(appeal=appeal, by=request.user, agreed_by=agreed_by)


@case_step
def unlock_statements(request, appeal):
    data = inputs.valid(inputs.ReasonInput, request.POST)
    services.unlock_statements(appeal=appeal, by=request.user, reason=data["reason"])


@case_step
def validity(request, appeal):
    data = inputs.valid(inputs.ValidityInput, request.POST)
    filing = get_object_or_404(Filing, appeal=appeal, pk=data["filing"])
    services.record_validity(filing=filing, by=request.user, valid=data["valid"] == "yes", reason=data["reason"])


@case_step
def deposit(request, appeal):
    inputs.valid(inputs.NoInput, request.POST)
    services.record_deposit(appeal=appeal, by=request.user)


@case_step
def return_deposit(request, appeal):
    data = inputs.valid(inputs.DepositInput, request.POST)
    services.return_deposit(deposit=get_object_or_404(Deposit, appeal=appeal, pk=data["deposit"]), by=request.user)


@case_step
def forfeit_deposit(request, appeal):
    data = inputs.valid(inputs.ForfeitInput, request.POST)
    deposit = get_object_or_404(Deposit, appeal=appeal, pk=data["deposit"])
    services.forfeit_deposit(deposit=deposit, by=request.user, reason=data["reason"])


@case_step
def withdrawal(request, appeal):
    data = inputs.valid(inputs.WithdrawalInput, request.POST)
    services.request_withdrawal(appeal=appeal, player=_player(data["player"]), by=request.user, reason=data["reason"])


@case_step
def accept_withdrawal(request, appeal):
    inputs.valid(inputs.NoInput, request.POST)
    services.accept_withdrawal(appeal=appeal, by=request.user)


# --- The body and the hearing ---------------------------------------------------------------------


@case_step
def constitute(request, appeal):
    data = inputs.valid(inputs.ConstituteInput, request.POST)
    users = get_user_model().objects
    services.constitute_body(
        appeal=appeal,
        by=request.user,
        kind=data["kind"] or None,
        members=list(users.filter(pk__in=data["members"])),
        chair=users.filter(pk=data["chair"]).first() if data["chair"] else None,
    )


@case_step
def appoint(request, appeal):
    """The chief director fills a seat of the body formed already (one never filled, or one a
    member stepped down from)."""
    data = inputs.valid(inputs.AppointInput, request.POST)
    user = get_object_or_404(get_user_model(), pk=data["member"])
    member = services.appoint_to_case(appeal=appeal, user=user, by=request.user, chair=data["chair"])
    warning = conflicts.own_seat_warning(user, member.body)
    if warning:
        messages.warning(request, warning)


@case_step
def declare(request, appeal):
    """A member declares from their seat: on the event's body, or on the regulating authority's
    body for the further appeal once that is the one waiting for them."""
    data = inputs.valid(inputs.DeclareInput, request.POST)
    further = BodyMember.objects.filter(
        body__appeal=appeal, body__stage=Stage.FURTHER, user=request.user, recused_at__isnull=True, declared_at=None
    ).first()
    services.declare_conflict(member=further or _seat(request, appeal), by=request.user, conflict=data["conflict"])


@case_step
def recuse(request, appeal):
    data = inputs.valid(inputs.ReasonInput, request.POST)
    services.recuse(member=_seat(request, appeal), by=request.user, reason=data["reason"])


@case_step
def schedule(request, appeal):
    with timezone.override(appeal.tournament.zone):  # the page's time is the tournament's
        data = inputs.valid(inputs.ScheduleInput, request.POST)
    services.schedule_hearing(
        appeal=appeal, by=request.user, starts_at=data["starts_at"], mode=data["mode"], place=data["place"]
    )


@case_step
def extend_decision(request, appeal):
    """The chief director gives the case more time to be decided (its "decide by" has passed)."""
    with timezone.override(appeal.tournament.zone):  # the page's time is the tournament's
        data = inputs.valid(inputs.ExtendDecisionInput, request.POST)
    services.extend_decision_time(appeal=appeal, by=request.user, until=data["until"], reason=data["reason"])


@case_step
def attendance(request, appeal):
    data = inputs.valid(inputs.AttendanceInput, _with_hearing(request, appeal))
    services.record_attendance(
        hearing=get_object_or_404(Hearing, appeal=appeal, pk=data["hearing"]),
        player=_player(data["player"]),
        by=request.user,
    )


@case_step
def hearing_notes(request, appeal):
    data = inputs.valid(inputs.HearingNotesInput, _with_hearing(request, appeal))
    services.record_hearing_notes(
        hearing=get_object_or_404(Hearing, appeal=appeal, pk=data["hearing"]),
        by=request.user,
        director_present=data.get("director_present"),
        director_account=data.get("director_account"),
        notes=data.get("notes"),
    )


@case_step
def sit_early(request, appeal):
    """The body sits before the hearing's time: the reason goes into the record."""
    data = inputs.valid(inputs.ReasonInput, request.POST)
    lifecycle.require_hearing(appeal)  # refused in words when none is fixed
    services.sit_early(hearing=appeal.hearing(), by=request.user, reason=data["reason"])


@case_step
def vote(request, appeal):
    data = inputs.valid(inputs.VoteInput, request.POST)
    services.record_vote(
        member=_seat(request, appeal), by=request.user, outcome=data["outcome"], dissent=data["dissent"]
    )


# --- Decisions --------------------------------------------------------------------------------------


@case_step
def law_part(request, appeal):
    cancel = request.POST.get("cancel_penalties") == "on"
    data = _decision(
        request, "law", inputs.LawPartDecisionInput, part=request.POST.get("part"), cancel_penalties=cancel
    )
    part = get_object_or_404(AppealPart, appeal=appeal, pk=data.pop("part"))
    services.decide_law_part(part=part, by=request.user, **data)


@case_step
def law_to_body(request, appeal):
    data = inputs.valid(inputs.PartInput, request.POST)
    services.appeal_law_decision(part=get_object_or_404(AppealPart, appeal=appeal, pk=data["part"]), by=request.user)


@case_step
def decide(request, appeal):
    cancel = request.POST.get("cancel_penalties") == "on"
    data = _decision(request, "decide", inputs.AppealDecisionInput, cancel_penalties=cancel)
    services.decide_appeal(appeal=appeal, by=request.user, **data)


@case_step
def without_merit(request, appeal):
    data = inputs.valid(inputs.WithoutMeritInput, request.POST)
    services.find_without_merit(appeal=appeal, by=request.user, reasons=data["reasons"])


@case_step
def recommend(request, appeal):
    data = inputs.valid(inputs.RecommendationInput, request.POST)
    services.record_recommendation(appeal=appeal, by=request.user, about=data["about"], text=data["text"])


@case_step
def respond(request, appeal):
    score = DecisionForm(request.POST, prefix="respond").read(score_only=True)
    data = inputs.valid(inputs.ResponseInput, {**request.POST.dict(), **score})
    recommendation = get_object_or_404(appeal.recommendations, pk=data.pop("recommendation"))
    services.respond_to_recommendation(recommendation=recommendation, by=request.user, **data)


# --- Further appeal (Law 93C) -------------------------------------------------------------------------


@case_step
def further(request, appeal):
    """A player's further appeal, lodged through a director."""
    data = inputs.valid(inputs.FurtherAppealInput, request.POST)
    if not data.get("player"):
        raise ValidationError({"player": _("Choose the player.")})
    services.lodge_further_appeal(
        appeal=appeal, by=request.user, grounds=data["grounds"], player=_player(data["player"])
    )


@case_step
def refer_further(request, appeal):
    """The director's or the body's referral to the regulating authority."""
    data = inputs.valid(inputs.FurtherAppealInput, request.POST)
    services.lodge_further_appeal(appeal=appeal, by=request.user, grounds=data["grounds"], origin=data.get("origin"))


@case_step
def further_body(request, appeal):
    """A national officer of the regulating authority forms its body for the further appeal."""
    data = inputs.valid(inputs.ConstituteInput, request.POST)
    users = get_user_model().objects
    services.constitute_body(
        appeal=appeal,
        by=request.user,
        stage=Stage.FURTHER,
        members=list(users.filter(pk__in=data["members"])),
        chair=users.filter(pk=data["chair"]).first() if data["chair"] else None,
        size=max(len(data["members"]), 1),
    )


@case_step
def decide_further(request, appeal):
    data = _decision(request, "further", inputs.DecisionInput)
    services.decide_further_appeal(
        further_appeal=get_object_or_404(FurtherAppeal, appeal=appeal), by=request.user, **data
    )


# (name in the URL, view) of each step of the case in the registry (appeals/steps.py), whose view
# here bears the step's name: appeals/urls.py gives each its URL, named "case-<name>".
STEPS = [(step.door.split(":case-")[1], globals()[step.name]) for step in steps.steps_on("case")]
