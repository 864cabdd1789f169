"""Rulings over HTTP: the same services and the same validation as the web form; errors are
JSON naming the field."""

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from rulings import selectors, services
from rulings.models import LawEntry, Ruling
from scoring import selectors as scoring_selectors
from scoring.api import call_service as _call
from scoring.models import Result


class LawEntrySerializer(serializers.ModelSerializer):
    class Meta:
        model = LawEntry
        fields = ["edition", "number", "law", "parent", "title", "titles", "verified"]


class RulingSerializer(serializers.ModelSerializer):
    laws = serializers.SerializerMethodField()
    penalties = serializers.SerializerMethodField()
    board = serializers.IntegerField(source="result.board.number", read_only=True)
    session = serializers.IntegerField(source="result.board.session_id", read_only=True)
    appeal_deadline = serializers.SerializerMethodField()
    correction_deadline = serializers.SerializerMethodField()

    class Meta:
        model = Ruling
        fields = ["id", "number", "result", "board", "session", "kind", "state", "called_by", "called_at", "screens",
                  "bidding_boxes", "tray_delay_seconds", "noticed_by", "facts_agreed", "facts", "statement_ns",
                  "statement_ew", "facts_found", "facts_not_established", "ruling_text", "reasoning", "director",
                  "colleagues_consulted", "poll", "appeal_notice", "appeal_notice_at", "outcome", "rectification",
                  "offending_side", "score_kind", "score", "score_description", "deal", "auction", "double_dummy",
                  "double_dummy_error", "laws", "penalties", "given_at", "appeal_deadline", "correction_deadline"]

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_laws(self, ruling):
        return [{"number": c.law.number, "title": c.law.title_in()} for c in ruling.citations.all() if c.law]

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_penalties(self, ruling):
        return [{"kind": p.kind, "side": p.side, "amount": p.amount, "unit": p.unit, "offence": p.offence}
                for p in ruling.penalties.all()]

    @extend_schema_field(OpenApiTypes.DATETIME)
    def get_appeal_deadline(self, ruling):
        deadline = ruling.appeal_deadline()
        return serializers.DateTimeField().to_representation(deadline) if deadline else None

    @extend_schema_field(OpenApiTypes.DATETIME)
    def get_correction_deadline(self, ruling):
        deadline = ruling.correction_deadline()
        return serializers.DateTimeField().to_representation(deadline) if deadline else None


class ScoreInputSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=Ruling.Outcome.choices)
    score_kind = serializers.ChoiceField(choices=[("", "")] + list(Ruling.ScoreKind.choices), required=False,
                                         default="")
    ns = serializers.JSONField(required=False, allow_null=True)
    ew = serializers.JSONField(required=False, allow_null=True)
    offending_side = serializers.ChoiceField(choices=["", "NS", "EW"], required=False, default="")


class RulingInputSerializer(ScoreInputSerializer):
    result = serializers.PrimaryKeyRelatedField(queryset=Result.objects.all())
    kind = serializers.ChoiceField(choices=Ruling.Kind.choices)
    give = serializers.BooleanField(required=False, default=False)
    laws = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    called_by = serializers.ChoiceField(choices=["", "N", "E", "S", "W"], required=False, default="")
    facts = serializers.CharField(required=False, allow_blank=True, default="")
    ruling_text = serializers.CharField(required=False, allow_blank=True, default="")
    reasoning = serializers.CharField(required=False, allow_blank=True, default="")
    screens = serializers.BooleanField(required=False, default=False)
    tray_delay_seconds = serializers.IntegerField(required=False, allow_null=True, min_value=0, default=None)
    deal_source = serializers.CharField(required=False, allow_blank=True, default="",
                                        help_text="A BBO handviewer link, a LIN string or a PBN game.")
    penalty = serializers.JSONField(required=False, allow_null=True, default=None)
    outcome = serializers.ChoiceField(choices=Ruling.Outcome.choices, required=False,
                                      default=Ruling.Outcome.RESULT_STANDS)

    def validate_result(self, result):
        user = self.context["request"].user
        if not scoring_selectors.visible_tournaments(user).filter(pk=result.board.session.event.tournament_id):
            raise serializers.ValidationError(_("There is no such result."))
        if not selectors.can_rule(user, result.board.session.event.tournament):
            raise PermissionDenied(_("Only a director or chief director of this tournament records rulings."))
        return result


class ChangeInputSerializer(ScoreInputSerializer):
    reason = serializers.CharField()
    ruling_text = serializers.CharField(required=False)
    reasoning = serializers.CharField(required=False, allow_blank=True)
    laws = serializers.ListField(child=serializers.CharField(), required=False)
    outcome = serializers.ChoiceField(choices=Ruling.Outcome.choices, required=False)


class RulingViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = RulingSerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        params = {key: self.request.query_params.get(key) or None
                  for key in ("tournament", "session", "board", "director", "law", "kind", "state")}
        return selectors.filtered_rulings(self.request.user, **params).prefetch_related("penalties")

    def create(self, request):
        data = RulingInputSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        values["laws"] = ", ".join(values["laws"])
        ruling = _call(services.rule, director=request.user, **values)
        return Response(RulingSerializer(ruling).data, status=status.HTTP_201_CREATED)

    def _own(self, ruling):
        if not selectors.can_rule(self.request.user, ruling.tournament):
            raise PermissionDenied(_("Only a director or chief director of this tournament changes its rulings."))

    # Named "ruling-api-give": "ruling-give" is the ruling page's button (rulings/urls.py), and
    # a shared name made {% url 'ruling-give' %} send that button to the API.
    @action(detail=True, methods=["post"], url_name="api-give")
    def give(self, request, pk=None):
        ruling = self.get_object()
        self._own(ruling)
        return Response(RulingSerializer(_call(services.give_ruling, ruling=ruling, by=request.user)).data)

    @action(detail=True, methods=["post"])
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
        changed = _call(services.change_ruling, ruling=ruling, by=request.user, **values)
        return Response(RulingSerializer(changed).data)


class LawEntryViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """The law catalogue: ``?edition=2017`` and ``?law=12``."""

    serializer_class = LawEntrySerializer
    permission_classes = [IsAuthenticated]
    pagination_class = None

    def get_queryset(self):
        qs = LawEntry.objects.all()
        if self.request.query_params.get("edition"):
            qs = qs.filter(edition=self.request.query_params["edition"])
        if self.request.query_params.get("law"):
            qs = qs.filter(law=self.request.query_params["law"])
        return qs
