"""Pages of the appeal workflow: the director's windows and cases, lodging, the case file with
its timeline and the steps each role may take, and the printable appeal form.

Every step calls one service; a refusal is shown on the case page with the Laws' reason."""

import datetime

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from appeals import selectors, services
from appeals.models import Appeal, AppealPart, Body, BodyMember, Concurrence, FurtherAppeal, Hearing, Outcome
from rulings import selectors as rulings_selectors
from rulings.forms import RulingForm
from rulings.models import Ruling
from scoring import roles
from scoring import selectors as scoring_selectors
from scoring.i18n import rank_preference
from scoring.models import Player, TournamentOfficial


def visible_appeals(user):
    """Officials and auditors of the tournament see every case; an appeals member only the cases
    they sit on; a player the cases of their own table."""
    qs = Appeal.objects.select_related("ruling__result__board__session__event__tournament", "appellant",
                                       "ruling__result__table", "ruling__result__ns", "ruling__result__ew")
    if user.is_superuser:
        return qs
    tournament = "ruling__result__board__session__event__tournament"
    staff = Q(**{f"{tournament}__officials__user": user,
                 f"{tournament}__officials__role__in": [roles.DIRECTOR, roles.CHIEF_DIRECTOR, roles.SCORER]})
    auditor = Q(**{f"{tournament}__authority__auditors__user": user})
    sitting = Q(pk__in=selectors.cases_for_member(user).values("pk"))
    played = Q(ruling__result__ns__members__user=user) | Q(ruling__result__ew__members__user=user) | Q(
        ruling__result__ns__captain__user=user) | Q(ruling__result__ew__captain__user=user)
    return qs.filter(pk__in=Appeal.objects.filter(staff | auditor | sitting | played).values("pk"))


def _is_director(user, tournament):
    return rulings_selectors.can_rule(user, tournament)


def _is_chief(user, tournament):
    return user.is_superuser or TournamentOfficial.objects.filter(
        user=user, tournament=tournament, role=roles.CHIEF_DIRECTOR).exists()


@login_required
def appeal_home(request):
    """The director's live list of appeal windows and open cases; a member's queue; a player's cases."""
    now = timezone.now()
    tournaments = [t for t in scoring_selectors.visible_tournaments(request.user) if _is_director(request.user, t)]
    return render(request, "appeals/home.html", {
        "now": now,
        "windows": [(t, selectors.appeal_windows(tournament=t, now=now)) for t in tournaments],
        "open_cases": [(t, selectors.open_cases_by_state(tournament=t)) for t in tournaments],
        "queue": selectors.member_queue(request.user),
        "mine": visible_appeals(request.user).order_by("-lodged_at")[:100],
    })


class LodgeForm(forms.Form):
    origin = forms.ChoiceField(label=gettext_lazy("Origin"), choices=Appeal.Origin.choices,
                               initial=Appeal.Origin.PLAYER)
    player = forms.ModelChoiceField(label=gettext_lazy("Lodged by"), queryset=Player.objects.none(), required=False)
    grounds = forms.CharField(label=gettext_lazy("Grounds, in the appellants' words"),
                              widget=forms.Textarea(attrs={"rows": 4}))
    law_question = forms.CharField(label=gettext_lazy("A part solely about law or regulation (if any)"),
                                   required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, ruling, **kwargs):
        super().__init__(*args, **kwargs)
        result = ruling.result
        ids = set(result.ns.members.values_list("pk", flat=True)) | set(result.ew.members.values_list("pk", flat=True))
        ids |= {c for c in (result.ns.captain_id, result.ew.captain_id) if c}
        self.fields["player"].queryset = Player.objects.filter(pk__in=ids).order_by("last_name")


@login_required
def lodge(request, ruling_pk):
    ruling = get_object_or_404(rulings_selectors.visible_rulings(request.user), pk=ruling_pk)
    if not _is_director(request.user, ruling.tournament):
        raise PermissionDenied(_("An appeal is lodged through a director of the tournament (Law 92C)."))
    form = LodgeForm(request.POST or None, ruling=ruling)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        parts = [{"kind": AppealPart.Kind.JUDGEMENT, "question": data["grounds"]}]
        if data["law_question"].strip():
            parts.append({"kind": AppealPart.Kind.LAW, "question": data["law_question"]})
        try:
            appeal = services.lodge_appeal(ruling=ruling, by=request.user, grounds=data["grounds"],
                                           player=data["player"], origin=data["origin"], parts=parts)
        except ValidationError as error:
            _form_errors(form, error)
        else:
            return redirect("appeal", appeal.pk)
    board = ruling.result.board
    return render(request, "appeals/lodge.html", {
        "form": form, "ruling": ruling, "board": board, "session": board.session, "event": board.session.event,
        "tournament": board.session.event.tournament, "deadline": ruling.appeal_deadline(),
    })


def _form_errors(form, error):
    for field, messages_ in error.message_dict.items():
        for message in messages_:
            form.add_error(field if field in form.fields else None,
                           message if field in form.fields or field == "__all__" else f"{field}: {message}")


def _case(request, pk):
    try:
        return visible_appeals(request.user).get(pk=pk)
    except Appeal.DoesNotExist:
        raise Http404 from None


class DecisionForm(RulingForm):
    """The decision: uphold, vary or overturn, and the adjusted score in the same form as a ruling's."""

    decision = forms.ChoiceField(label=gettext_lazy("Decision"), choices=Outcome.choices, widget=forms.RadioSelect)
    reasons = forms.CharField(label=gettext_lazy("Reasons"), widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("kind", "called_by", "facts", "laws", "ruling_text", "reasoning", "outcome", "offending_side",
                     "penalty_side", "penalty_amount", "penalty_unit", "penalty_offence", "deal_source",
                     "deal_file"):
            del self.fields[name]


@login_required
def appeal_detail(request, pk):
    appeal = _case(request, pk)
    tournament = appeal.tournament
    user = request.user
    if request.method == "POST":
        return _act(request, appeal)
    body = appeal.body()
    seat = BodyMember.objects.filter(body=body, user=user, recused_at__isnull=True).first() if body else None
    board = appeal.ruling.result.board
    return render(request, "appeals/appeal_detail.html", {
        "appeal": appeal, "ruling": appeal.ruling, "board": board, "session": board.session,
        "event": board.session.event, "tournament": tournament, "body": body, "seat": seat,
        "members": body.members.select_related("user").order_by("-is_chair", "pk") if body else [],
        "hearings": appeal.hearings.select_related("body").prefetch_related("attendance__player"),
        "parts": appeal.parts.all(), "deposits": appeal.deposits.all(),
        "concurrences": selectors.concurrences(appeal), "missing": selectors.concurrence_missing(appeal),
        "timeline": selectors.timeline(appeal), "recommendations": appeal.recommendations.all(),
        "is_director": _is_director(user, tournament), "is_chief": _is_chief(user, tournament),
        "candidates": get_user_model().objects.filter(
            officiating__tournament=tournament, officiating__role__in=[roles.APPEALS_MEMBER,
                                                                         roles.CHIEF_DIRECTOR]).distinct(),
        "body_kinds": Body.Kind.choices, "modes": Hearing.Mode.choices, "outcomes": Outcome.choices,
        "hows": Concurrence.How.choices, "decision_form": DecisionForm(),
        "needed": [p for p in selectors.concurrence_needed(appeal) if p is not None],
        "table_players": [*appeal.ruling.result.ns.members.all(), *appeal.ruling.result.ew.members.all()],
        "records_hearing": _is_director(user, tournament) or seat is not None,
        "further_open": (appeal.state == Appeal.State.DECIDED and _is_director(user, tournament)
                         and services.setting(tournament, "further_appeal") != "none"
                         and not FurtherAppeal.objects.filter(appeal=appeal).exists()),
        "deposit_due": services.deposit_due(appeal) if appeal.origin == Appeal.Origin.PLAYER else None,
    })


def _act(request, appeal):
    """One step of the case, named by the submit button's ``action``."""
    action, data, user = request.POST.get("action", ""), request.POST, request.user
    tournament = appeal.tournament
    director_steps = {"concurrence", "deposit", "constitute", "schedule", "withdrawal", "further"}
    if action in director_steps and not _is_director(user, tournament):
        raise PermissionDenied(_("Only a director of this tournament records this step."))
    # The hearing's record: a director, or a member sitting on the case (its scribe).
    if action in ("attendance", "hearing_notes") and not (
            _is_director(user, tournament) or _sits_on(user, appeal)):
        raise PermissionDenied(_("Only a director or a member sitting on this case records the hearing."))
    try:
        if action == "concurrence":
            services.record_concurrence(appeal=appeal, player=get_object_or_404(Player, pk=data.get("player")),
                                        how=data.get("how"), by=user)
        elif action == "deposit":
            services.record_deposit(appeal=appeal, by=user)
        elif action == "constitute":
            members = list(get_user_model().objects.filter(pk__in=data.getlist("members")))
            # The form's "—" (no chair, as for a referee) posts an empty value.
            chair = get_user_model().objects.filter(pk=data["chair"]).first() if data.get("chair") else None
            services.constitute_body(appeal=appeal, by=user, kind=data.get("kind") or None, members=members,
                                     chair=chair)
        elif action == "schedule":
            starts = _local_datetime(data.get("starts_at"), tournament)
            services.schedule_hearing(appeal=appeal, by=user, starts_at=starts, mode=data.get("mode"),
                                      place=data.get("place", ""))
        elif action in ("declare", "recuse"):
            member = get_object_or_404(BodyMember, body__appeal=appeal, user=user, recused_at__isnull=True)
            if action == "declare":
                services.declare_conflict(member=member, conflict=data.get("conflict", ""))
            else:
                services.recuse(member=member, reason=data.get("reason", ""))
        elif action == "vote":
            member = get_object_or_404(BodyMember, body__appeal=appeal, user=user, recused_at__isnull=True)
            services.record_vote(member=member, outcome=data.get("outcome"), dissent=data.get("dissent", ""))
        elif action == "decide":
            form = DecisionForm(data)
            if not form.is_valid():
                raise ValidationError({name: [str(e) for e in errors] for name, errors in form.errors.items()})
            ns, ew = form.score_input()
            kind = form.cleaned_data.get("score_kind") or ""
            services.decide_appeal(appeal=appeal, by=user, outcome=form.cleaned_data["decision"],
                                   reasons=form.cleaned_data["reasons"], score_kind=kind,
                                   ns=ns if kind else None, ew=ew if kind else None)
        elif action == "without_merit":
            services.find_without_merit(appeal=appeal, by=user, reasons=data.get("reasons", ""))
        elif action == "withdrawal":
            services.request_withdrawal(appeal=appeal, player=get_object_or_404(Player, pk=data.get("player")),
                                        by=user, reason=data.get("reason", ""))
        elif action == "recommend":
            services.record_recommendation(appeal=appeal, by=user, about=data.get("about"), text=data.get("text", ""))
        elif action == "attendance":
            player = get_object_or_404(Player, pk=data.get("player"))
            services.record_attendance(hearing=_hearing(appeal), player=player, by=user)
        elif action == "hearing_notes":
            services.record_hearing_notes(hearing=_hearing(appeal), by=user,
                                          director_present=data.get("director_present") == "on",
                                          director_account=data.get("director_account", ""),
                                          notes=data.get("notes", ""))
        elif action == "respond":
            recommendation = get_object_or_404(appeal.recommendations, pk=data.get("recommendation"))
            services.respond_to_recommendation(recommendation=recommendation, by=user,
                                               accepted=data.get("accepted") == "yes",
                                               response=data.get("response", ""))
        elif action == "further":
            services.lodge_further_appeal(appeal=appeal, by=user, grounds=data.get("grounds", ""),
                                          player=get_object_or_404(Player, pk=data.get("player")))
        else:
            raise ValidationError({"action": _("'%(a)s' is not a step of an appeal.") % {"a": action}})
    except ValidationError as error:
        for field, texts in (error.message_dict.items() if hasattr(error, "error_dict") else [("", error.messages)]):
            for text in texts:
                messages.error(request, f"{field}: {text}" if field and field != "__all__" else text)
    else:
        messages.success(request, _("Recorded."))
    return redirect("appeal", appeal.pk)


def _sits_on(user, appeal):
    return BodyMember.objects.filter(body__appeal=appeal, user=user, recused_at__isnull=True).exists()


def _hearing(appeal):
    """The case's latest hearing; refused by name when none is scheduled."""
    hearing = appeal.hearings.order_by("-starts_at", "-pk").first()
    if hearing is None:
        raise ValidationError({"hearing": _("No hearing is scheduled for this case yet.")})
    return hearing


def _local_datetime(text, tournament):
    try:
        moment = datetime.datetime.fromisoformat(text or "")
    except ValueError:
        raise ValidationError({"starts_at": _("Give the date and time of the hearing.")}) from None
    return moment.replace(tzinfo=tournament.zone) if moment.tzinfo is None else moment


@login_required
def appeal_form(request, pk):
    """The appeal form as national bodies print it: deal, auction, facts, ruling, grounds,
    decision and signatures."""
    appeal = _case(request, pk)
    from rulings.views import _diagram

    ruling = Ruling.objects.select_related("result__board__session__event__tournament").get(pk=appeal.ruling_id)
    board = ruling.result.board
    body = appeal.body()
    return render(request, "appeals/appeal_form.html", {
        "appeal": appeal, "ruling": ruling, "board": board, "session": board.session, "event": board.session.event,
        "tournament": board.session.event.tournament, "diagram": _diagram(ruling), "body": body,
        "card_ranks": rank_preference(board.session.event.tournament),
        "members": body.members.select_related("user") if body else [],
        "concurrences": selectors.concurrences(appeal), "deposits": appeal.deposits.all(),
    })
