"""Appeals over HTTP: one endpoint per step of the workflow, the same services and refusals as
the pages, errors as JSON naming the field."""

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from django.utils.module_loading import import_string
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from appeals import lifecycle, selectors, services
from appeals.filing_api import FilingSerializer
from appeals.inputs import (
    LodgeInput,
    NoInput,
)
from appeals.models import (
    Appeal,
    AppealEvent,
    AppealPart,
    BodyMember,
    Deposit,
    Filing,
    Hearing,
    Outcome,
    Recommendation,
)
from appeals.models import Body as AppealsBody
from core import policy, steps
from core.api_contract import Conflict, IdField
from rulings import selectors as rulings_selectors
from scoring.models import Player


class AppealEventSerializer(serializers.ModelSerializer):
    by: serializers.StringRelatedField = serializers.StringRelatedField(allow_null=True)
    # In the caller's language (appeals/texts.py); a person's own words as written.
    note = serializers.CharField(source="text", read_only=True)

    class Meta:
        model = AppealEvent
        fields = ["at", "action", "by", "note"]


class AppealPartSerializer(serializers.ModelSerializer):
    class Meta:
        model = AppealPart
        fields = ["id", "kind", "question", "outcome"]


class BodySeatSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    user = serializers.IntegerField()
    chair = serializers.BooleanField()
    declared = serializers.BooleanField()
    recused = serializers.BooleanField()
    vote = serializers.ChoiceField(choices=Outcome.choices, allow_blank=True)


class AppealBodySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=AppealsBody.Kind.choices)
    size = serializers.IntegerField()
    constituted = serializers.BooleanField()
    members = BodySeatSerializer(many=True)


class AppealSerializer(serializers.ModelSerializer):
    """An appeal as the API shows it. In a list (selectors.for_api) its timeline, parts, body
    and concurrences come prefetched, so the list costs the same few queries however long."""

    timeline = serializers.SerializerMethodField()
    concurrence_missing = serializers.SerializerMethodField()
    parts = serializers.SerializerMethodField()
    body = serializers.SerializerMethodField()

    class Meta:
        model = Appeal
        fields = [
            "id",
            "number",
            "ruling",
            "origin",
            "side",
            "appellant",
            "lodged_by",
            "lodged_at",
            "deadline",
            "decide_by",
            "hear_at_once",
            "state",
            "grounds",
            "respondents_statement",
            "statements_locked_at",
            "withdrawal_requested_at",
            "outcome",
            "reasons",
            "score_kind",
            "score",
            "score_description",
            "decided_at",
            "without_merit",
            "without_merit_reasons",
            "sanction",
            "parts",
            "body",
            "concurrence_missing",
            "timeline",
        ]

    @extend_schema_field(AppealEventSerializer(many=True))
    def get_timeline(self, appeal):
        events = getattr(appeal, "api_timeline", None)
        return AppealEventSerializer(selectors.timeline(appeal) if events is None else events, many=True).data

    def get_concurrence_missing(self, appeal) -> list[str]:
        return selectors.concurrence_missing(appeal)

    @extend_schema_field(AppealPartSerializer(many=True))
    def get_parts(self, appeal):
        return AppealPartSerializer(appeal.parts.all(), many=True).data

    @extend_schema_field(AppealBodySerializer(allow_null=True))
    def get_body(self, appeal):
        bodies = getattr(appeal, "api_event_bodies", None)
        body = appeal.body() if bodies is None else (bodies[0] if bodies else None)
        if body is None:
            return None
        return {
            "kind": body.kind,
            "size": body.size,
            "constituted": selectors.is_constituted(body),
            "members": [
                {
                    "id": m.pk,
                    "user": m.user_id,
                    "chair": m.is_chair,
                    "declared": bool(m.declared_at),
                    "recused": bool(m.recused_at),
                    "vote": m.vote,
                }
                for m in body.members.all()
            ],
        }


class AppealDetailSerializer(AppealSerializer):
    """One appeal, with the steps the caller may take on it now (core.steps.available: the
    case page's forms are the same steps), by their names in the registry (appeals/steps.py)."""

    steps = serializers.SerializerMethodField()
    # Every filing of the case (its request to appeal, the appeal, the players' memos), as the
    # case page shows them: whoever reads the case reads them (issue #44).
    filings = serializers.SerializerMethodField()

    class Meta(AppealSerializer.Meta):
        fields = [*AppealSerializer.Meta.fields, "filings", "steps"]

    @extend_schema_field(FilingSerializer(many=True))
    def get_filings(self, appeal):
        return FilingSerializer(selectors.filings_of_case(appeal), many=True).data

    def get_steps(self, appeal) -> list[str]:
        return sorted(steps.available(self.context["request"].user, appeal, "case"))


# Each endpoint's input, one definition with the case page's (appeals/inputs.py), read from the
# registry of steps (appeals/steps.py): the action named by the step's API route.
STEP_INPUTS = {
    "create": import_string(steps.step("ruling", "lodge").input),
    **{
        step.api.removeprefix("appeal-").replace("-", "_"): import_string(step.input)
        for step in steps.steps_on("case")
        if step.api
    },
}


class AppealFilter(filters.FilterSet):
    state = filters.ChoiceFilter(choices=Appeal.State.choices)

    class Meta:
        model = Appeal
        fields: list[str] = []


@extend_schema_view(
    create=extend_schema(request=LodgeInput, responses={201: AppealSerializer}),
    **{
        step: extend_schema(request=None if serializer is NoInput else serializer, responses=AppealSerializer)
        for step, serializer in STEP_INPUTS.items()
        if step != "create"
    },
)
class AppealViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = AppealSerializer
    permission_classes = [IsAuthenticated]

    queryset = Appeal.objects.none()  # for the schema; the real one depends on who asks
    filterset_class = AppealFilter

    def get_serializer_class(self):
        return AppealDetailSerializer if self.action == "retrieve" else AppealSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Appeal.objects.none()
        return selectors.for_api(selectors.visible_appeals(self.request.user).order_by("-lodged_at", "-pk"))

    def get_object(self):
        """The case if the caller sees it (404 otherwise). Who may take a step is the service's to
        decide: a person it refuses gets 403 with the reason (DRF turns Django's PermissionDenied
        into 403), as on the page."""
        return super().get_object()

    def _data(self):
        data = STEP_INPUTS[self.action](data=self.request.data)
        data.is_valid(raise_exception=True)
        return data.validated_data

    def _done(self, appeal):
        return Response(AppealSerializer(Appeal.objects.get(pk=appeal.pk)).data)

    def create(self, request):
        """Lodge an appeal (a director records it, Law 92C)."""
        data = self._data()
        ruling = get_object_or_404(rulings_selectors.visible_rulings(request.user), pk=data.get("ruling"))
        player = Player.objects.filter(pk=data.get("player")).first() if data.get("player") else None
        parts = [{"kind": AppealPart.Kind.JUDGEMENT, "question": data.get("grounds", "")}]
        if data["law_question"].strip():
            parts.append({"kind": AppealPart.Kind.LAW, "question": data["law_question"]})
        appeal = services.lodge_appeal(
            ruling=ruling,
            by=request.user,
            grounds=data.get("grounds", ""),
            player=player,
            origin=data["origin"],
            parts=parts,
        )
        return Response(AppealSerializer(appeal).data, status=status.HTTP_201_CREATED)

    def _member(self, appeal):
        user = self.request.user
        member = (
            BodyMember.objects.filter(body__appeal=appeal, user=user, recused_at__isnull=True).first()
            if user.is_authenticated
            else None
        )
        if member is None:
            policy.refuse("seat")
        return member

    @action(detail=True, methods=["post"])
    def concurrence(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        services.record_concurrence(
            appeal=appeal,
            player=get_object_or_404(Player, pk=data.get("player")),
            how=data.get("how"),
            by=request.user,
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"])
    def deposit(self, request, pk=None):
        appeal = self.get_object()
        services.record_deposit(appeal=appeal, by=request.user)
        return self._done(appeal)

    @action(detail=True, methods=["post"], url_path="return-deposit")
    def return_deposit(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        services.return_deposit(
            deposit=get_object_or_404(Deposit, appeal=appeal, pk=data.get("deposit")),
            by=request.user,
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"])
    def constitute(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        users = get_user_model().objects
        services.constitute_body(
            appeal=appeal,
            by=request.user,
            kind=data["kind"] or None,
            members=list(users.filter(pk__in=data["members"])),
            chair=users.filter(pk=data["chair"]).first() if data["chair"] else None,
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"])
    def appoint(self, request, pk=None):
        """The chief director fills a seat of the body formed already: one never filled, or one a
        member stepped down from (the case page's "Appoint" step)."""
        appeal, data = self.get_object(), self._data()
        user = get_object_or_404(get_user_model(), pk=data["member"])
        services.appoint_to_case(appeal=appeal, user=user, by=request.user, chair=data["chair"])
        return self._done(appeal)

    @action(detail=True, methods=["post"])
    def declare(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        services.declare_conflict(member=self._member(appeal), by=request.user, conflict=data["conflict"])
        return self._done(appeal)

    @action(detail=True, methods=["post"])
    def recuse(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        services.recuse(member=self._member(appeal), by=request.user, reason=data["reason"])
        return self._done(appeal)

    @action(detail=True, methods=["post"], url_path="extend-decision")
    def extend_decision(self, request, pk=None):
        """The chief director gives the case more time to be decided, with a reason."""
        appeal, data = self.get_object(), self._data()
        services.extend_decision_time(appeal=appeal, by=request.user, until=data["until"], reason=data["reason"])
        return self._done(appeal)

    @action(detail=True, methods=["post"])
    def schedule(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        if "starts_at" not in data:
            raise DRFValidationError({"starts_at": ["Give the date and time of the hearing."]})
        services.schedule_hearing(
            appeal=appeal,
            by=request.user,
            starts_at=data["starts_at"],
            mode=data["mode"],
            place=data["place"],
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"], url_path="sit-early")
    def sit_early(self, request, pk=None):
        """The body sits before the hearing's time, with the reason in the record."""
        appeal, data = self.get_object(), self._data()
        lifecycle.require_hearing(appeal)  # refused in words when none is fixed
        services.sit_early(hearing=appeal.hearing(), by=request.user, reason=data["reason"])
        return self._done(appeal)

    @action(detail=True, methods=["post"])
    def vote(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        services.record_vote(
            member=self._member(appeal), by=request.user, outcome=data.get("outcome"), dissent=data["dissent"]
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"], url_path="decide-law-part")
    def decide_law_part(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        part = get_object_or_404(AppealPart, appeal=appeal, pk=data.get("part"))
        services.decide_law_part(
            part=part,
            by=request.user,
            outcome=data.get("outcome"),
            reasons=data["reasons"],
            score_kind=data["score_kind"],
            ns=data["ns"],
            ew=data["ew"],
            cancel_penalties=data["cancel_penalties"],
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"])
    def decide(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        services.decide_appeal(
            appeal=appeal,
            by=request.user,
            outcome=data.get("outcome"),
            reasons=data["reasons"],
            score_kind=data["score_kind"],
            ns=data["ns"],
            ew=data["ew"],
            cancel_penalties=data["cancel_penalties"],
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"], url_path="without-merit")
    def without_merit(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        services.find_without_merit(appeal=appeal, by=request.user, reasons=data["reasons"])
        return self._done(appeal)

    @action(detail=True, methods=["post"])
    def withdrawal(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        services.request_withdrawal(
            appeal=appeal,
            player=get_object_or_404(Player, pk=data.get("player")),
            by=request.user,
            reason=data["reason"],
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"])
    def recommendation(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        services.record_recommendation(appeal=appeal, by=request.user, about=data.get("about"), text=data["text"])
        return self._done(appeal)

    @action(detail=True, methods=["post"], url_path="further-appeal")
    def further_appeal(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        player = Player.objects.filter(pk=data.get("player")).first() if data.get("player") else None
        services.lodge_further_appeal(
            appeal=appeal,
            by=request.user,
            grounds=data.get("grounds", ""),
            player=player,
            **({"origin": data["origin"]} if "origin" in request.data else {}),
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"])
    def statements(self, request, pk=None):
        """The appellants' grounds and the respondents' statement, until they are locked."""
        appeal, data = self.get_object(), self._data()
        services.record_statement(
            appeal=appeal,
            by=request.user,
            grounds=data.get("grounds"),
            respondents_statement=data.get("respondents_statement"),
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"], url_path="lock-statements")
    def lock_statements(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        services.lock_statements(
            appeal=appeal,
            by=request.user,
            agreed_by=list(Player.objects.filter(pk__in=data["agreed_by"])),
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"])
    def validity(self, request, pk=None):
        """The body's word on an appeal received late (issue #44): valid or not, and why."""
        appeal, data = self.get_object(), self._data()
        services.record_validity(
            filing=get_object_or_404(Filing, appeal=appeal, pk=data.get("filing")),
            by=request.user,
            valid=data["valid"] == "yes",
            reason=data["reason"],
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"], url_path="forfeit-deposit")
    def forfeit_deposit(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        services.forfeit_deposit(
            deposit=get_object_or_404(Deposit, appeal=appeal, pk=data.get("deposit")),
            by=request.user,
            reason=data["reason"],
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"], url_path="accept-withdrawal")
    def accept_withdrawal(self, request, pk=None):
        appeal = self.get_object()
        services.accept_withdrawal(appeal=appeal, by=request.user)
        return self._done(appeal)

    @action(detail=True, methods=["post"])
    def attendance(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        services.record_attendance(
            hearing=get_object_or_404(Hearing, appeal=appeal, pk=data.get("hearing")),
            player=get_object_or_404(Player, pk=data.get("player")),
            by=request.user,
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"], url_path="hearing-notes")
    def hearing_notes(self, request, pk=None):
        """The ruling director's account and the scribe's notes."""
        appeal, data = self.get_object(), self._data()
        services.record_hearing_notes(
            hearing=get_object_or_404(Hearing, appeal=appeal, pk=data.get("hearing")),
            by=request.user,
            director_account=data.get("director_account"),
            director_present=data.get("director_present"),
            notes=data.get("notes"),
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"], url_path="appeal-law-decision")
    def appeal_law_decision(self, request, pk=None):
        """Take the director in charge's decision on a point of law to the body (Law 93B1)."""
        appeal, data = self.get_object(), self._data()
        services.appeal_law_decision(
            part=get_object_or_404(AppealPart, appeal=appeal, pk=data.get("part")),
            by=request.user,
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"], url_path="respond-to-recommendation")
    def respond_to_recommendation(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        recommendation = get_object_or_404(Recommendation, appeal=appeal, pk=data.get("recommendation"))
        if "accepted" not in data:
            raise DRFValidationError({"accepted": ["Say whether the director accepts the recommendation."]})
        services.respond_to_recommendation(
            recommendation=recommendation,
            by=request.user,
            accepted=data["accepted"],
            response=data["response"],
            score_kind=data["score_kind"],
            ns=data["ns"],
            ew=data["ew"],
        )
        return self._done(appeal)

    @action(detail=True, methods=["post"], url_path="decide-further-appeal")
    def decide_further_appeal(self, request, pk=None):
        appeal, data = self.get_object(), self._data()
        if not hasattr(appeal, "further"):
            raise Conflict({"further": ["No further appeal was lodged against this decision."]})
        services.decide_further_appeal(
            further_appeal=appeal.further,
            by=request.user,
            outcome=data.get("outcome"),
            reasons=data["reasons"],
            score_kind=data["score_kind"],
            ns=data["ns"],
            ew=data["ew"],
        )
        return self._done(appeal)


class DeadlineExtensionSerializer(serializers.Serializer):
    ruling = IdField()
    until = serializers.DateTimeField()
    reason = serializers.CharField()


class DeadlineExtensionViewSet(viewsets.GenericViewSet):
    """The chief director lets a ruling be appealed after the appeal period, with a reason."""

    permission_classes = [IsAuthenticated]
    serializer_class = DeadlineExtensionSerializer

    def create(self, request):
        data = DeadlineExtensionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ruling = get_object_or_404(rulings_selectors.visible_rulings(request.user), pk=data.validated_data["ruling"])
        extension = services.extend_deadline(
            ruling=ruling,
            by=request.user,
            until=data.validated_data["until"],
            reason=data.validated_data["reason"],
        )
        return Response(
            {"ruling": ruling.pk, "until": extension.until, "reason": extension.reason}, status=status.HTTP_201_CREATED
        )
