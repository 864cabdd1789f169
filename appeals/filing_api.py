"""The filings received (issue #44) over HTTP: each as a case's detail shows it (appeals/api.py,
``filings``), a player's memo filed through the same service as the memo page
(appeals/filing_views.py), and a player's request to appeal through the same service as their
page's "Ask to appeal" (appeals/views.py). Who reads a filing is who reads its case; who files a memo is the
service's to decide (a refusal is 403 with the reason, as on the page)."""

import datetime

from django.shortcuts import get_object_or_404
from django.utils import translation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from appeals import my_cases, selectors, services
from appeals.inputs import AppealRequestInput, MemoInput
from appeals.models import AppealRequest, Filing
from core import policy
from rulings import selectors as rulings_selectors
from scoring.models import Player


def _in_zone(moment: datetime.datetime, filing: Filing) -> str:
    """ISO 8601 with the offset of the tournament's time zone, as the acknowledgement words it."""
    return serializers.DateTimeField(default_timezone=filing.tournament.zone).to_representation(moment)


class FilingSerializer(serializers.ModelSerializer):
    """One filing: its number (per tournament, in the order received), when and by whom it was
    received, the body's word on a late one, and the acknowledgement in the caller's language
    with the next deadline it gives (null when it gives none)."""

    filer: serializers.StringRelatedField = serializers.StringRelatedField()
    received_at = serializers.SerializerMethodField()
    received_by = serializers.SerializerMethodField()
    acknowledgement = serializers.SerializerMethodField()
    next_deadline = serializers.SerializerMethodField()

    class Meta:
        model = Filing
        fields = [
            "number",
            "kind",
            "filer",
            "text",
            "received_at",
            "received_by",
            "validity",
            "validity_reason",
            "language",
            "acknowledgement",
            "next_deadline",
        ]

    @extend_schema_field(OpenApiTypes.DATETIME)
    def get_received_at(self, filing):
        return _in_zone(filing.received_at, filing)

    def get_received_by(self, filing) -> str:
        return filing.received_by.get_full_name() or filing.received_by.get_username()

    def get_acknowledgement(self, filing) -> str:
        return filing.acknowledgement(translation.get_language())

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_next_deadline(self, filing):
        moment = filing.acknowledgement_params.get("next")
        return _in_zone(datetime.datetime.fromisoformat(moment["at"]), filing) if moment else None


class MemoViewSet(viewsets.GenericViewSet):
    """A player's memo on a ruling: received, numbered and timed, with its acknowledgement."""

    permission_classes = [IsAuthenticated]
    serializer_class = FilingSerializer

    @extend_schema(request=MemoInput, responses={201: FilingSerializer})
    def create(self, request):
        data = MemoInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        ruling = get_object_or_404(rulings_selectors.visible_rulings(request.user), pk=values["ruling"])
        # As the memo page: the caller's own player of the table, or the player a director names.
        player = next((p for p in my_cases.players_of(request.user) if selectors.side_of(p, ruling)), None)
        if values.get("player") and policy.may(request.user, "lodge", ruling.tournament):
            player = get_object_or_404(Player, pk=values["player"])
        filing = services.file_memo(
            ruling=ruling,
            player=player,
            by=request.user,
            text=values["text"],
            language=values["language"] or translation.get_language(),
        )
        return Response(FilingSerializer(filing).data, status=status.HTTP_201_CREATED)


class AppealRequestSerializer(serializers.ModelSerializer):
    """A request to appeal as received: its state (open until a director lodges or declines it)
    and its filing, numbered and timed, with the acknowledgement."""

    filing = FilingSerializer(read_only=True)

    class Meta:
        model = AppealRequest
        fields = ["id", "ruling", "about", "grounds", "state", "filing"]


class AppealRequestViewSet(viewsets.GenericViewSet):
    """A player asks the director to appeal a ruling of their table (Law 92C: the director lodges
    it). A request after the appeal period is received all the same; the body decides whether it
    is valid."""

    permission_classes = [IsAuthenticated]
    serializer_class = AppealRequestSerializer

    @extend_schema(request=AppealRequestInput, responses={201: AppealRequestSerializer})
    def create(self, request):
        data = AppealRequestInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        ruling = get_object_or_404(rulings_selectors.visible_rulings(request.user), pk=values["ruling"])
        # As the player's page: the caller's own player of the table (the service refuses anyone else).
        player = next((p for p in my_cases.players_of(request.user) if selectors.side_of(p, ruling)), None)
        asked = services.request_appeal(
            ruling=ruling,
            player=player,
            by=request.user,
            grounds=values["grounds"],
            about=values["about"],
            language=translation.get_language(),
        )
        return Response(AppealRequestSerializer(asked).data, status=status.HTTP_201_CREATED)
