"""The filings received (issue #44) over HTTP: each as a case's detail shows it (appeals/api.py,
``filings``), and a player's memo filed through the same service as the memo page
(appeals/filing_views.py). Who reads a filing is who reads its case; who files a memo is the
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
from appeals.inputs import MemoInput
from appeals.models import Filing
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
