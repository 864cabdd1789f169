"""Pages of the appeal workflow: the director's windows and cases, lodging, the case file with
its timeline and the steps each role may take, and the printable appeal form.

Every step calls one service; a refusal is shown on the case page with the Laws' reason."""

import datetime
from typing import cast

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from appeals import conflicts, lifecycle, my_cases, notice_board, notifications, reading, selectors, services, stake
from appeals.forms import DecisionForm
from appeals.models import (
    Appeal,
    AppealPart,
    AppealRequest,
    Body,
    BodyMember,
    Concurrence,
    Filing,
    FurtherAppeal,
    Hearing,
    Outcome,
    Stage,
)
from core import live, policy, roles, steps
from core.i18n import rank_preference
from rulings import selectors as rulings_selectors
from rulings.models import Penalty, Ruling
from scoring import selectors as scoring_selectors
from scoring.models import Player, Tournament


def desk_version(request):
    """The desk's and "waiting for you"'s live version (core/live.py): every tournament the
    reader may read."""
    return scoring_selectors.tournaments_version(request.user)


@login_required
@live.live(desk_version)
def appeal_home(request):
    """The director's live list of appeal windows and open cases; a member's queue; a player's cases."""
    now = timezone.now()
    tournaments = [
        t for t in scoring_selectors.visible_tournaments(request.user) if policy.may(request.user, "lodge", t)
    ]
    return render(
        request,
        "appeals/home.html",
        {
            "now": now,
            "windows": [(t, selectors.appeal_windows(tournament=t, now=now)) for t in tournaments],
            "open_cases": [(t, selectors.open_cases_by_state(tournament=t)) for t in tournaments],
            "queue": selectors.member_queue(request.user),
            "requests": my_cases.open_requests(tournaments),
            "notices": notifications.waiting_for(request.user),
            "mine": selectors.visible_appeals(request.user).order_by("-lodged_at")[:100],
        },
    )


@login_required
@live.live(
    lambda request, pk: scoring_selectors.record_version(request.user, Tournament.objects.all(), pk, "pk"),
    shared=lambda request, pk: scoring_selectors.audience(request.user, Tournament.objects.all(), pk, "pk"),
    period=notice_board.SHARED_SECONDS,
)
def notice_board_page(request, pk):
    """The hall's notice board of a tournament, for a large screen, live (appeals/notice_board.py)."""
    tournament = get_object_or_404(scoring_selectors.visible_tournaments(request.user), pk=pk)
    hall = policy.may(request.user, "write_record", tournament)  # its officials hand the screen's address out
    return render(
        request,
        "appeals/notice_board.html",
        {
            "board": notice_board.notice_board(tournament),
            "tournament": tournament,
            "hall_token": notice_board.hall_token(tournament) if hall else None,
        },
    )


def hall_screen_page(request, token):
    """The hall's screen: the notice board and the standings, without a login and without any
    user's controls, reloading itself (appeals/notice_board.py, ``hall_screen``)."""
    found = notice_board.hall_tournament(token)
    if found.tournament is None:
        raise Http404
    tournament = found.tournament
    if found.revoked:  # the chief director revoked this address: refused, saying so and what to do
        response = render(request, "appeals/hall_revoked.html", {"tournament": tournament}, status=410)
        response["X-Robots-Tag"] = "noindex"
        response["Cache-Control"] = "no-store"
        return response
    response = render(
        request,
        "appeals/hall_screen.html",
        {
            "hall": notice_board.hall_screen(tournament),
            "tournament": tournament,
            "refresh": notice_board.HALL_REFRESH_SECONDS,
        },
    )
    response["X-Robots-Tag"] = "noindex"
    response["Cache-Control"] = "no-store"
    return response


class LodgeForm(forms.Form):
    origin = forms.ChoiceField(
        label=gettext_lazy("Origin"), choices=Appeal.Origin.choices, initial=Appeal.Origin.PLAYER
    )
    player = forms.ModelChoiceField(label=gettext_lazy("Lodged by"), queryset=Player.objects.none(), required=False)
    grounds = forms.CharField(
        label=gettext_lazy("Grounds, in the appellants' words"), widget=forms.Textarea(attrs={"rows": 4})
    )
    about = forms.ChoiceField(
        label=gettext_lazy("The appeal is about"),
        initial="judgement",
        required=False,
        choices=[
            ("judgement", gettext_lazy("judgement (facts, bridge judgement): the body decides")),
            ("law", gettext_lazy("law or regulation alone: the director in charge decides (Law 93B1)")),
            ("both", gettext_lazy("both: the director in charge decides the law part first")),
        ],
    )
    law_question = forms.CharField(
        label=gettext_lazy("A part solely about law or regulation (if any)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, ruling, **kwargs):
        super().__init__(*args, **kwargs)
        result = ruling.given_result
        ids = set(result.ns.members.values_list("pk", flat=True)) | set(result.ew.members.values_list("pk", flat=True))
        ids |= {c for c in (result.ns.captain_id, result.ew.captain_id) if c}
        cast(forms.ModelChoiceField, self.fields["player"]).queryset = Player.objects.filter(pk__in=ids).order_by(
            "last_name"
        )


@login_required
def lodge(request, ruling_pk):
    ruling = get_object_or_404(rulings_selectors.visible_rulings(request.user), pk=ruling_pk)
    if not policy.may(request.user, "lodge", ruling.tournament):
        return refused(request, _("An appeal is lodged through a director of the tournament (Law 92C)."))
    if request.method == "POST" and request.POST.get("action") == "extend":
        return _extend(request, ruling)
    if request.method == "POST" and request.POST.get("action") in ("from_request", "decline_request"):
        return _answer_request(request, ruling)
    form = LodgeForm(request.POST or None, ruling=ruling)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            appeal = services.lodge_appeal(
                ruling=ruling,
                by=request.user,
                grounds=data["grounds"],
                player=data["player"],
                origin=data["origin"],
                parts=lodged_parts(data),
                language=_filer_language(request),
            )
        except ValidationError as error:
            _form_errors(form, error)
        except PermissionDenied as error:
            return refused(request, str(error))
        else:
            return redirect("appeals:appeal", appeal.pk)
    board = ruling.given_result.board
    return render(
        request,
        "appeals/lodge.html",
        {
            "form": form,
            "ruling": ruling,
            "board": board,
            "session": board.session,
            "event": board.session.event,
            "tournament": board.session.event.tournament,
            "deadline": ruling.appeal_deadline(),
            # The extension form where the chief director may use it: his step (appeals/steps.py),
            # and the authority allows it (92B).
            "steps": steps.available(request.user, ruling, "ruling"),
            "extension_allowed": services.extension_allowed(board.session.event.tournament),
            "requests": ruling.appeal_requests.filter(state=AppealRequest.State.OPEN).select_related(
                "player", "filing"
            ),
            "late": not ruling.appeal_open(),
            "filer_languages": settings.LANGUAGES,
            "table_players": cast(forms.ModelChoiceField, form.fields["player"]).queryset,
        },
    )


def _filer_language(request):
    """The language the filer wrote in (the desk says which; a player's own page is in theirs):
    their acknowledgement is given in it (issue #44)."""
    return request.POST.get("language") or translation.get_language()


def _answer_request(request, ruling):
    """A director lodges a player's request to appeal, or declines it with a reason."""
    appeal_request = get_object_or_404(AppealRequest, ruling=ruling, pk=request.POST.get("request"))
    try:
        if request.POST["action"] == "from_request":
            appeal = services.lodge_requested(request=appeal_request, by=request.user)
            return redirect("appeals:appeal", appeal.pk)
        services.decline_request(request=appeal_request, by=request.user, reason=request.POST.get("reason", ""))
    except PermissionDenied as error:
        return refused(request, str(error))
    except ValidationError as error:
        show_errors(request, error)
    else:
        messages.success(request, _("Recorded."))
    return redirect("appeals:appeal-lodge", ruling.pk)


@login_required
@live.live(desk_version)
def my_page(request):
    """A player's or captain's own rulings and appeals, the state of each, the live countdown of
    their open appeal windows, and a request to appeal that a director turns into an appeal."""
    return render(
        request,
        "appeals/mine.html",
        {
            "rows": my_cases.my_rulings(request.user),
            "appeals": my_cases.my_appeals(request.user),
            "abouts": AppealRequest.About.choices,
            "notices": notifications.waiting_for(request.user),
        },
    )


@login_required
def request_appeal(request, ruling_pk):
    """A player asks to appeal a ruling of their table (a POST from their page)."""
    if request.method != "POST":
        return redirect("appeals:appeals-mine")
    ruling = get_object_or_404(rulings_selectors.visible_rulings(request.user), pk=ruling_pk)
    player = next((p for p in my_cases.players_of(request.user) if selectors.side_of(p, ruling)), None)
    try:
        services.request_appeal(
            ruling=ruling,
            player=player,
            by=request.user,
            grounds=request.POST.get("grounds", ""),
            about=request.POST.get("about") or AppealRequest.About.JUDGEMENT,
            language=translation.get_language(),
        )
    except PermissionDenied as error:
        return refused(request, str(error))
    except ValidationError as error:
        show_errors(request, error)
    else:
        filing = Filing.objects.filter(request__ruling=ruling, filer=player).order_by("-number").first()
        said = _("Your request is with the director, who lodges the appeal (Law 92C).")
        messages.success(request, f"{said} {filing.acknowledgement()}" if filing else said)
    return redirect("appeals:appeals-mine")


def lodged_parts(data):
    """The parts of an appeal from the lodging form: judgement, law alone, or both (93A/93B)."""
    grounds, law = data["grounds"], data["law_question"].strip()
    about = data.get("about") or "judgement"
    if about == "law":
        return [{"kind": AppealPart.Kind.LAW, "question": law or grounds}]
    parts = [{"kind": AppealPart.Kind.JUDGEMENT, "question": grounds}]
    if about == "both" or law:
        parts.append({"kind": AppealPart.Kind.LAW, "question": law or grounds})
    return parts


def refused(request, reason):
    """A step the person may not take: a page saying why (403)."""
    return render(request, "appeals/refused.html", {"reason": reason}, status=403)


def _extend(request, ruling):
    """The chief director extends the appeal period of a ruling, with a reason."""
    try:
        services.extend_deadline(
            ruling=ruling,
            by=request.user,
            until=_local_datetime(request.POST.get("until"), ruling.tournament, "until"),
            reason=request.POST.get("reason", ""),
        )
    except PermissionDenied as error:
        return refused(request, str(error))
    except ValidationError as error:
        show_errors(request, error)
    else:
        messages.success(request, _("Recorded."))
    return redirect("appeals:appeal-lodge", ruling.pk)


def _form_errors(form, error):
    for field, messages_ in error.message_dict.items():
        for message in messages_:
            form.add_error(
                field if field in form.fields else None,
                message if field in form.fields or field == "__all__" else f"{field}: {message}",
            )


def case_for(request, pk):
    """The case if the reader sees it (404 otherwise)."""
    try:
        return selectors.visible_appeals(request.user).get(pk=pk)
    except Appeal.DoesNotExist:
        raise Http404 from None


def _rendered_for(tournament, *args, **kwargs):
    """``render``, with the case's stored texts (its timeline) naming bodies in the terms of the
    tournament's authority (appeals/terms.py)."""
    with reading.reading_for(tournament):
        return render(*args, **kwargs)


def appeal_version(request, pk):
    """The case page's live version (core/live.py): its tournament's, if the reader may read it."""
    return scoring_selectors.record_version(
        request.user, selectors.visible_appeals(request.user), pk, "ruling__board__session__event__tournament"
    )


@login_required
@live.live(appeal_version)
def appeal_detail(request, pk):
    """The whole case file (deal, auction, facts, laws, scores, statements, timeline) and the
    forms of the steps the reader may take now. The services decide who may take each step."""
    if request.method == "POST":  # each step posts to its own door (appeals/step_views.py)
        return HttpResponseNotAllowed(["GET"])
    appeal = case_for(request, pk)
    from rulings.views import ruling_diagram

    tournament = appeal.tournament
    user = request.user
    body = appeal.body()
    seat = BodyMember.objects.filter(body=body, user=user, recused_at__isnull=True).first() if body else None
    further_body = appeal.body(Stage.FURTHER)
    # The reader's seat on the further body, for what they declared; whether they sit on it is
    # the policy's answer in the template ({% may "seat" further_body %}).
    further_seat = BodyMember.objects.filter(body=further_body, user=user).first() if further_body else None
    ruling = Ruling.objects.select_related(
        "result__board__session__event__tournament", "result__ns", "result__ew", "director"
    ).get(pk=appeal.ruling_id)
    board = ruling.given_result.board
    offered = steps.available(user, appeal, "case")  # the steps the reader may take now (appeals/steps.py)
    parts = list(appeal.parts.all())
    law_waiting = [p for p in parts if p.kind == AppealPart.Kind.LAW and not p.outcome]
    further = FurtherAppeal.objects.filter(appeal=appeal).first()
    return _rendered_for(
        tournament,
        request,
        "appeals/appeal_detail.html",
        {
            "appeal": appeal,
            "ruling": ruling,
            "board": board,
            "session": board.session,
            "event": board.session.event,
            "tournament": tournament,
            "body": body,
            "seat": seat,
            "result": ruling.result,
            "diagram": ruling_diagram(ruling),
            "card_ranks": rank_preference(tournament),
            "members": body.members.select_related("user").order_by("-is_chair", "pk") if body else [],
            "hearings": appeal.hearings.select_related("body").prefetch_related("attendance__player"),
            "parts": parts,
            "law_waiting": law_waiting,
            "deposits": appeal.deposits.all(),
            "concurrences": selectors.concurrences(appeal),
            "missing": selectors.concurrence_missing(appeal),
            "timeline": selectors.timeline(appeal),
            "filing": selectors.filing_of(appeal),
            "memos": appeal.filings.filter(kind=Filing.Kind.MEMO).select_related("filer", "received_by"),
            "recommendations": appeal.recommendations.all(),
            "steps": offered,
            "further": further,
            "further_seat": further_seat,
            "further_body": further_body,
            # The authority's national officers, who form its body and may sit on it.
            "national_candidates": get_user_model().objects.filter(auditing__authority=tournament.authority).distinct()
            if further is not None
            else [],
            # A referral is the director's when the policy lets the reader refer as one, the body's otherwise.
            "refers_as": "director" if policy.may(user, "further_appeal", tournament) else "body",
            # What the case does to the match and the standings, kept from its body until it decides.
            "effect": stake.for_reader(user, appeal),
            **_steps_offered(appeal, ruling, body, parts, further, offered),
        },
    )


def _steps_offered(appeal, ruling, body, parts, further, offered):
    """What the case page needs for the forms of the steps the reader may take now (``offered``:
    core.steps.available; each posts to its own door, appeals/step_views.py): choices, blank
    decision forms, and what the case's data adds (a seat still free, a law part to take on)."""
    tournament = appeal.tournament
    regulated_further = services.setting(tournament, "further_appeal")
    return {
        "candidates": get_user_model()
        .objects.filter(
            officiating__tournament=tournament, officiating__role__in=[roles.APPEALS_MEMBER, roles.CHIEF_DIRECTOR]
        )
        .distinct(),
        # Each with the conflicts that bar them and the chief director's own-seat warning.
        "seat_candidates": conflicts.candidates(appeal, body) if "appoint" in offered else [],
        "vacant_seats": lifecycle.vacant_seats(appeal, body) if "appoint" in offered and body is not None else 0,
        "body_kinds": Body.Kind.choices,
        "modes": Hearing.Mode.choices,
        "outcomes": Outcome.choices,
        "hows": Concurrence.How.choices,
        "decision_form": DecisionForm(prefix="decide"),
        # Law 90 penalties a varied or overturned decision may cancel (Law 91 stays the director's).
        "procedural_penalties": [
            p for p in ruling.penalties.all() if p.kind == Penalty.Kind.PROCEDURAL and p.cancelled_at is None
        ],
        "law_form": DecisionForm(prefix="law"),
        "further_form": DecisionForm(prefix="further"),
        "respond_form": DecisionForm(prefix="respond"),
        "needed": selectors.concurrence_awaited(appeal),  # not those who agreed already
        "table_players": [*ruling.result.ns.members.all(), *ruling.result.ew.members.all()],
        # Where 93B3 forbids overruling, the body is offered the recommendation form instead.
        "recommend_only": "recommend" in offered
        and body is not None
        and not body.is_director_in_charge
        and (
            ruling.kind == Ruling.Kind.DISCIPLINARY_PENALTY
            or not any(p.kind == AppealPart.Kind.JUDGEMENT for p in parts)
        ),
        "law_to_body": [
            p
            for p in parts
            if p.kind == AppealPart.Kind.LAW
            and p.outcome
            and not p.to_body
            and body is not None
            and not body.is_director_in_charge
        ]
        if "law_to_body" in offered and services.setting(tournament, "appeals_body") != "none"
        else [],
        "further_open": "further" in offered and regulated_further != "none",
        "refer_open": "refer_further" in offered and regulated_further != "none",
        "deposit_due": services.deposit_due(appeal) if appeal.origin == Appeal.Origin.PLAYER else None,
        "overdue": appeal.decision_overdue(),
        # The hearing fixed for later: votes and the decision wait for it, or the body sits early.
        "hearing_waits": _hearing_waits(appeal),
    }


def _hearing_waits(appeal):
    hearing = appeal.hearing() if appeal.state == Appeal.State.SCHEDULED else None
    return hearing if hearing is not None and not hearing.begun() else None


def show_errors(request, error):
    """A refusal's messages on the next page, each naming its field."""
    for field, texts in error.message_dict.items() if hasattr(error, "error_dict") else [("", error.messages)]:
        for text in texts:
            messages.error(request, f"{field}: {text}" if field and field != "__all__" else text)


def _local_datetime(text, tournament, field="starts_at"):
    try:
        moment = datetime.datetime.fromisoformat(text or "")
    except ValueError:
        raise ValidationError(
            {
                field: _("Give the date and time of the hearing.")
                if field == "starts_at"
                else _("Give the date and time.")
            }
        ) from None
    return moment.replace(tzinfo=tournament.zone) if moment.tzinfo is None else moment


@login_required
def appeal_form(request, pk):
    """The appeal form as national bodies print it: deal, auction, facts, ruling, grounds,
    decision and signatures."""
    appeal = case_for(request, pk)
    from rulings.views import ruling_diagram

    ruling = Ruling.objects.select_related("result__board__session__event__tournament").get(pk=appeal.ruling_id)
    board = ruling.given_result.board
    body = appeal.body()
    return _rendered_for(
        appeal.tournament,
        request,
        "appeals/appeal_form.html",
        {
            "appeal": appeal,
            "ruling": ruling,
            "board": board,
            "session": board.session,
            "event": board.session.event,
            "tournament": board.session.event.tournament,
            "diagram": ruling_diagram(ruling),
            "body": body,
            "card_ranks": rank_preference(board.session.event.tournament),
            "members": body.members.select_related("user") if body else [],
            "concurrences": selectors.concurrences(appeal),
            "deposits": appeal.deposits.all(),
        },
    )
