"""Regulating authorities over HTTP, under /api/v1/authorities/: the superuser creates one,
choosing a preset (scoring/presets) whose dated settings it starts with; the superuser and the
authority's national auditors read it, with each setting's value, source, date and difference
from the preset. ``/api/v1/authorities/presets/`` lists the presets to choose from."""

from typing import cast

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from core import policy
from scoring import presets, services
from scoring.authority_views import settings_rows
from scoring.models import RegulatingAuthority
from scoring.selectors import readable_authorities


class AuthoritySerializer(serializers.ModelSerializer):
    preset = serializers.ChoiceField(
        choices=[""],
        write_only=True,
        required=False,
        allow_blank=True,
        default="",
        help_text="a preset's code (GET /api/v1/authorities/presets/); empty: none",
    )
    settings = serializers.SerializerMethodField()

    class Meta:
        model = RegulatingAuthority
        fields = ["id", "name", "code", "country", "language", "time_zone", "preset", "settings"]
        # The service refuses a name or code already taken, or an unknown time zone (409, by field).
        validators: list[object] = []
        extra_kwargs: dict[str, dict[str, list[object]]] = {
            "name": {"validators": []},
            "code": {"validators": []},
            "time_zone": {"validators": []},
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        cast(serializers.ChoiceField, self.fields["preset"]).choices = [""] + presets.available()  # the files now

    def to_representation(self, authority):
        data = super().to_representation(authority)
        data["preset"] = authority.settings_on().get("preset", "")  # the preset in force today
        return data

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_settings(self, authority):
        _preset, rows = settings_rows(authority)
        return {
            row.key: {
                "value": row.value,
                "applies_from": row.effective_from,
                "source": row.source,
                "preset_value": row.preset_value,
                "differs_from_preset": row.differs,
                "unconfirmed": row.unconfirmed,
                "status": row.status,
            }
            for row in rows
        }


class PresetSerializer(serializers.Serializer):
    code = serializers.CharField()
    name = serializers.CharField()
    country = serializers.CharField()
    caveat = serializers.CharField()


class AuthorityViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet
):
    serializer_class = AuthoritySerializer
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema generator asks with no user
            return RegulatingAuthority.objects.none()
        return readable_authorities(self.request.user).order_by("name")

    def create(self, request, *args, **kwargs):
        policy.require(request.user, "setup", None)  # before the data is read: the service asks again
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        authority = services.create_authority_with_preset(**serializer.validated_data, by=request.user)
        return Response(self.get_serializer(authority).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=PresetSerializer(many=True))
    @action(detail=False, methods=["get"], serializer_class=PresetSerializer, pagination_class=None)
    def presets(self, request):
        """The presets a new authority may start from."""
        return Response(PresetSerializer([presets.load(code) for code in presets.available()], many=True).data)
