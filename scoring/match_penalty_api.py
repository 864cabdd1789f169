"""Penalties against a team in a match over HTTP, under /api/v1/match-penalties/: every role
reads those of the tournaments it sees (``?match=`` or ``?event=`` to narrow); a director or
chief director of the tournament gives one (POST) or withdraws it (POST .../withdraw/), through
the same services as the match page."""

from typing import cast

from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from core import policy
from core.api_contract import WholeNumberFilter
from core.api_fields import WholePrimaryKeyRelatedField
from scoring import selectors, services
from scoring.models import Contestant, Match, MatchPenalty


class MatchPenaltySerializer(serializers.ModelSerializer):
    serializer_related_field = WholePrimaryKeyRelatedField  # 1.5 is no id (issue #41)
    match = WholePrimaryKeyRelatedField(queryset=Match.objects.none())
    team = WholePrimaryKeyRelatedField(queryset=Contestant.objects.none())
    amount = serializers.CharField(help_text='a number above 0, at most two decimals: "1", "0.5"')
    unit = serializers.CharField(help_text="vps or imps, as the authority's team_penalty_units allows")
    given_by: serializers.SlugRelatedField = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    withdrawn_by: serializers.SlugRelatedField = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = MatchPenalty
        fields = [
            "id",
            "match",
            "team",
            "amount",
            "unit",
            "offence",
            "given_at",
            "given_by",
            "withdrawn_at",
            "withdrawn_by",
            "withdrawal_reason",
        ]
        read_only_fields = ["given_at", "withdrawn_at", "withdrawal_reason"]
        extra_kwargs = {"offence": {"allow_blank": True}}  # the service says what a blank one needs

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        request = self.context.get("request")
        if request is not None:
            visible = selectors.visible_tournaments(request.user)
            match = cast(serializers.PrimaryKeyRelatedField, self.fields["match"])  # as declared above
            team = cast(serializers.PrimaryKeyRelatedField, self.fields["team"])
            match.queryset = Match.objects.filter(round__session__event__tournament__in=visible)
            team.queryset = Contestant.objects.filter(event__tournament__in=visible)

    def to_representation(self, penalty):
        data = super().to_representation(penalty)
        data["amount"] = format(penalty.amount.normalize(), "f")
        return data


class WithdrawalSerializer(serializers.Serializer):
    reason = serializers.CharField(allow_blank=True, help_text="why the penalty is withdrawn")


class MatchPenaltyFilter(filters.FilterSet):
    match = WholeNumberFilter(field_name="match_id")
    event = WholeNumberFilter(field_name="match__round__session__event_id")

    class Meta:
        model = MatchPenalty
        fields = ["match", "event"]


def _require_director(user, match):
    policy.require(user, "match_penalty", match.round.session.event.tournament)


class MatchPenaltyViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet
):
    serializer_class = MatchPenaltySerializer
    permission_classes = [IsAuthenticated]
    filterset_class = MatchPenaltyFilter

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema generator asks with no user
            return MatchPenalty.objects.none()
        visible = selectors.visible_tournaments(self.request.user)
        return (
            MatchPenalty.objects.filter(match__round__session__event__tournament__in=visible)
            .select_related("team", "given_by", "withdrawn_by")
            .order_by("pk")
        )

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        match = Match.objects.select_related("round__session__event__tournament").get(pk=data["match"].pk)
        _require_director(request.user, match)
        penalty = services.add_match_penalty(
            match=match,
            team=data["team"],
            amount=data["amount"],
            unit=data["unit"],
            offence=data.get("offence", ""),
            by=request.user,
        )
        return Response(self.get_serializer(penalty).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=WithdrawalSerializer, responses=MatchPenaltySerializer)
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        """Withdraw a penalty given in error: it stays in the record and counts no more."""
        penalty = self.get_object()
        match = Match.objects.select_related("round__session__event__tournament").get(pk=penalty.match_id)
        _require_director(request.user, match)
        body = WithdrawalSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        penalty = services.withdraw_match_penalty(
            penalty=penalty, reason=body.validated_data["reason"], by=request.user
        )
        return Response(self.get_serializer(penalty).data)
