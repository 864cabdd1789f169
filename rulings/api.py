"""Rulings over HTTP: the same services and the same validation as the web form; errors are
JSON naming the field."""

from django.urls import reverse
from django.utils.translation import gettext as _
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from core import policy
from core.api_contract import WholeNumberFilter
from core.api_fields import WholePrimaryKeyRelatedField
from rulings import selectors, services
from rulings.filters import RulingFilter
from rulings.models import SIDE_CHOICES, LawEntry, Penalty, Ruling
from rulings.services.irregularities import KINDS as IRREGULARITY_KINDS
from scoring import selectors as scoring_selectors
from scoring.api import ClockListSerializer, clock
from scoring.models import Result


class LawEntrySerializer(serializers.ModelSerializer):
    class Meta:
        model = LawEntry
        fields = ["edition", "number", "law", "parent", "title", "titles", "verified"]


class CitedLawSerializer(serializers.Serializer):
    number = serializers.CharField()
    title = serializers.CharField()


class PenaltySerializer(serializers.ModelSerializer):
    class Meta:
        model = Penalty
        fields = [
            "kind",
            "side",
            "amount",
            "unit",
            "measure",
            "offence",
            "approved_by",
            "approved_at",
            "cancelled_at",
            "cancellation_reason",
        ]


class RulingSerializer(serializers.ModelSerializer):
    laws = serializers.SerializerMethodField()
    penalties = serializers.SerializerMethodField()
    board = serializers.IntegerField(source="board.number", read_only=True)
    session = serializers.IntegerField(source="board.session_id", read_only=True)
    table = serializers.IntegerField(source="table.number", read_only=True, allow_null=True)
    appeal_deadline = serializers.SerializerMethodField()
    correction_deadline = serializers.SerializerMethodField()
    appeal_open = serializers.SerializerMethodField()

    class Meta:
        model = Ruling
        fields = [
            "id",
            "number",
            "result",
            "board",
            "session",
            "kind",
            "state",
            "called_by",
            "called_at",
            "screens",
            "bidding_boxes",
            "tray_delay_seconds",
            "noticed_by",
            "facts_agreed",
            "facts",
            "statement_ns",
            "statement_ew",
            "facts_found",
            "facts_not_established",
            "ruling_text",
            "reasoning",
            "director",
            "colleagues_consulted",
            "poll",
            "appeal_notice",
            "appeal_notice_at",
            "outcome",
            "rectification",
            "offending_side",
            "score_kind",
            "score",
            "score_description",
            "deal",
            "auction",
            "double_dummy",
            "double_dummy_error",
            "laws",
            "penalties",
            "given_at",
            "appeal_deadline",
            "appeal_open",
            "correction_deadline",
            "table",
            "round",
            "supersedes",
            "correction_basis",
            "further_ruling",
            "correction_reason",
            "deal_override",
            "irregularity",
            "irregularities",
            "irregularity_law",
            "unauthorised_information",
            "late_correction",
            "device_time",
            "received_at",
        ]
        # The deadlines of every ruling in a list are read at once (scoring.selectors.session_clocks).
        list_serializer_class = ClockListSerializer

    @staticmethod
    def session_of(ruling):
        return ruling.board.session

    @extend_schema_field(CitedLawSerializer(many=True))
    def get_laws(self, ruling):
        return [{"number": c.law.number, "title": c.law.title_in()} for c in ruling.citations.all() if c.law]

    @extend_schema_field(PenaltySerializer(many=True))
    def get_penalties(self, ruling):
        return PenaltySerializer(ruling.penalties.all(), many=True).data

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_appeal_deadline(self, ruling):
        deadline = clock(self, ruling.board.session, "appeal_deadline")
        return serializers.DateTimeField().to_representation(deadline) if deadline else None

    @extend_schema_field(serializers.BooleanField())
    def get_appeal_open(self, ruling):
        """Whether the ruling may still be appealed: the answer every page gives (Ruling.appeal_open),
        the chief director's extensions included."""
        return ruling.appeal_open(deadline=clock(self, ruling.board.session, "appeal_deadline"))

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_correction_deadline(self, ruling):
        deadline = clock(self, ruling.board.session, "correction_deadline")
        return serializers.DateTimeField().to_representation(deadline) if deadline else None


class ScoreInputSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=Ruling.Outcome.choices)
    score_kind = serializers.ChoiceField(choices=Ruling.ScoreKind.choices, allow_blank=True, required=False, default="")
    ns = serializers.JSONField(required=False, allow_null=True)
    ew = serializers.JSONField(required=False, allow_null=True)
    offending_side = serializers.ChoiceField(choices=SIDE_CHOICES, allow_blank=True, required=False, default="")


class RulingInputSerializer(ScoreInputSerializer):
    result = WholePrimaryKeyRelatedField(queryset=Result.objects.all())
    kind = serializers.ChoiceField(choices=Ruling.Kind.choices)
    give = serializers.BooleanField(required=False, default=False)
    further_ruling = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Record this ruling beside another director's at the table (without it, 409 naming that one).",
    )
    laws = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    called_by = serializers.ChoiceField(choices=["", "N", "E", "S", "W"], required=False, default="")
    facts = serializers.CharField(required=False, allow_blank=True, default="")
    ruling_text = serializers.CharField(required=False, allow_blank=True, default="")
    reasoning = serializers.CharField(required=False, allow_blank=True, default="")
    screens = serializers.BooleanField(required=False, default=False)
    # The model's PositiveSmallIntegerField: a larger number is refused, named (SQLite sets no bound).
    tray_delay_seconds = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=32767, default=None
    )
    deal_source = serializers.CharField(
        required=False, allow_blank=True, default="", help_text="A BBO handviewer link, a LIN string or a PBN game."
    )
    penalty = serializers.JSONField(required=False, allow_null=True, default=None)
    outcome = serializers.ChoiceField(
        choices=Ruling.Outcome.choices, required=False, default=Ruling.Outcome.RESULT_STANDS
    )

    def validate_result(self, result):
        user = self.context["request"].user
        if not scoring_selectors.visible_tournaments(user).filter(pk=result.board.session.event.tournament_id):
            raise serializers.ValidationError(_("There is no such result."), code="does_not_exist")  # 404
        policy.require(user, "ruling", result.board.session.event.tournament)  # 403 before the body's 400s
        return result


class ChangeInputSerializer(ScoreInputSerializer):
    reason = serializers.CharField()
    ruling_text = serializers.CharField(required=False)
    reasoning = serializers.CharField(required=False, allow_blank=True)
    laws = serializers.ListField(child=serializers.CharField(), required=False)
    outcome = serializers.ChoiceField(choices=Ruling.Outcome.choices, required=False)


class UnauthorisedInputSerializer(serializers.Serializer):
    """Law 16 as it happened (docs/irregularities.md): the ``source`` ({kind, seat, seconds,
    agreed, found, note}), the action ``chosen``, the ``alternatives`` ([{action, chose,
    considered, suggested, logical, contract, declarer, tricks}]), whether the offenders
    ``gained``, the ``reasoning``."""

    source = serializers.DictField()  # type: ignore[assignment]  # a field named as Field.source
    chosen = serializers.CharField()
    alternatives = serializers.ListField(child=serializers.DictField())
    gained = serializers.BooleanField()
    reasoning = serializers.CharField(required=False, allow_blank=True, default="")


class IrregularityInputSerializer(serializers.Serializer):
    """An irregular call or card (docs/irregularities.md): ``kind``, the ``facts`` (``call_number``,
    ``inserted``, ``seat``, ``attention_by``, ``artificial``, ``comparable``, ``rho_call``,
    ``replacement``; or ``trick``, ``seat``, ``card``, ``attention_by``, ``dummy_seen``,
    ``deliberate``), the option ``chosen`` and, after a penalty card, declarer's
    ``lead_option`` (Law 50D2)."""

    kind = serializers.ChoiceField(choices=list(IRREGULARITY_KINDS))
    facts = serializers.DictField()
    chosen = serializers.CharField()
    lead_option = serializers.CharField(required=False, allow_blank=True, default="")


class RulingViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = RulingSerializer
    permission_classes = [IsAuthenticated]

    filterset_class = RulingFilter

    def get_queryset(self):
        # RulingFilter narrows this through selectors.filtered_rulings, with the checked parameters.
        return selectors.filtered_rulings(self.request.user).prefetch_related("penalties", "appeal_extensions")

    def paginate_queryset(self, queryset):
        # The page's ids first, then its rows (selectors.page_of says why).
        ids = super().paginate_queryset(queryset.values_list("pk", flat=True))
        return None if ids is None else selectors.rows_of(queryset, list(ids))

    @extend_schema(request=RulingInputSerializer, responses={201: RulingSerializer})
    def create(self, request):
        data = RulingInputSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        values["laws"] = ", ".join(values["laws"])
        try:
            ruling = services.rule(director=request.user, **values)
        except services.TableRuled as ruled:
            # Another director's ruling at the table: the 409 names it, its page in ``Link``.
            first = reverse("rulings:ruling", args=[ruled.others[0].pk])
            return Response(
                ruled.message_dict, status=status.HTTP_409_CONFLICT, headers={"Link": f'<{first}>; rel="related"'}
            )
        return Response(RulingSerializer(ruling).data, status=status.HTTP_201_CREATED)

    def _own(self, ruling):
        policy.require(self.request.user, "ruling", ruling)  # 403 before the body's 400s

    # Named "ruling-api-give": "ruling-give" is the ruling page's button (rulings/urls.py), and
    # a shared name made {% url 'rulings:ruling-give' %} send that button to the API.
    @extend_schema(request=None, responses=RulingSerializer)
    @action(detail=True, methods=["post"], url_name="api-give", filter_backends=[])
    def give(self, request, pk=None):
        ruling = self.get_object()
        self._own(ruling)
        return Response(RulingSerializer(services.give_ruling(ruling=ruling, by=request.user)).data)

    @extend_schema(request=IrregularityInputSerializer, responses=RulingSerializer)
    # Named "ruling-api-irregularity": "ruling-irregularity" is the director's page (rulings/urls.py).
    @action(detail=True, methods=["post"], url_name="api-irregularity", filter_backends=[])
    def irregularity(self, request, pk=None):
        """Record an irregular call or card on a draft ruling and the option chosen (issue #28)."""
        ruling = self.get_object()
        self._own(ruling)
        data = IrregularityInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        changed = services.record_irregularity(ruling=ruling, by=request.user, **data.validated_data)
        return Response(RulingSerializer(changed).data)

    @extend_schema(request=UnauthorisedInputSerializer, responses=RulingSerializer)
    @action(detail=True, methods=["post"], url_name="api-unauthorised", filter_backends=[])
    def unauthorised(self, request, pk=None):
        """Record Law 16 on a draft ruling: the source, the alternatives, the finding (issue #28)."""
        ruling = self.get_object()
        self._own(ruling)
        data = UnauthorisedInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        changed = services.record_unauthorised_information(ruling=ruling, by=request.user, **data.validated_data)
        return Response(RulingSerializer(changed).data)

    @extend_schema(request=ChangeInputSerializer, responses=RulingSerializer)
    @action(detail=True, methods=["post"], filter_backends=[])
    def change(self, request, pk=None):
        """Change a given ruling: logged with the reason, and the score effect applied again."""
        ruling = self.get_object()
        self._own(ruling)
        data = ChangeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        if "score_kind" in request.data or "outcome" in request.data:
            values.setdefault("outcome", ruling.outcome)
        else:
            for key in ("score_kind", "ns", "ew", "offending_side"):
                values.pop(key, None)
        changed = services.change_ruling(ruling=ruling, by=request.user, **values)
        return Response(RulingSerializer(changed).data)


class LawEntryFilter(filters.FilterSet):
    edition = filters.ChoiceFilter(choices=[("1997", "1997"), ("2007", "2007"), ("2017", "2017")])
    law = WholeNumberFilter(help_text="A law's number: 12")

    class Meta:
        model = LawEntry
        fields: list[str] = []


class LawEntryViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """The law catalogue: ``?edition=2017`` and ``?law=12``."""

    serializer_class = LawEntrySerializer
    permission_classes = [IsAuthenticated]
    pagination_class = None

    filterset_class = LawEntryFilter

    def get_queryset(self):
        return LawEntry.objects.all()
