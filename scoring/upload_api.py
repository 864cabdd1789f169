"""A club's upload to a field through the API (issue #44; scoring/field_uploads.py, the services
in scoring/services/uploads.py): ``POST /api/v1/field-uploads/`` sends a club's results to a session,
held with their flags or joined at once; ``GET /api/v1/field-uploads/{id}/`` reads an upload and
its flags; ``POST .../confirm/`` and ``.../correct/`` answer a flag (the chief director), as the
upload's page does. A refusal is a 409 naming the field (``results``, ``flag``, ``tricks``) or a
403 naming the simultaneous field and the rule."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404
from rest_framework.response import Response

from core import policy
from core.api_contract import LARGEST_ID
from core.api_fields import WholePrimaryKeyRelatedField
from scoring import field_uploads, services
from scoring.api import ScopedViewSet
from scoring.models import FieldUpload, Session, UploadFlag


class UploadFlagSerializer(serializers.ModelSerializer):
    message = serializers.SerializerMethodField(help_text="What the check found, in the caller's language")
    par = serializers.SerializerMethodField(help_text="The board's double-dummy par beside a score far from the field")

    class Meta:
        model = UploadFlag
        fields = ["id", "board", "table", "code", "message", "par", "answer", "answered_at", "note"]

    def get_message(self, flag: UploadFlag) -> str:
        return field_uploads.message(flag.code, flag.params)

    def get_par(self, flag: UploadFlag) -> str:
        return field_uploads.par_of(flag.params)


class FieldUploadSerializer(serializers.ModelSerializer):
    flags = UploadFlagSerializer(many=True, read_only=True)

    class Meta:
        model = FieldUpload
        fields = ["id", "session", "club", "state", "uploaded_at", "joined_at", "flags"]


class UploadRowSerializer(serializers.Serializer):
    board = serializers.IntegerField(min_value=1, max_value=32767)
    round = serializers.IntegerField(min_value=1, max_value=32767)
    table = serializers.IntegerField(min_value=1, max_value=32767)
    section = serializers.CharField(max_length=20, required=False, allow_blank=True, default="")
    ns = serializers.IntegerField(min_value=1, max_value=LARGEST_ID, help_text="The N-S pair's number")
    ew = serializers.IntegerField(min_value=1, max_value=LARGEST_ID, help_text="The E-W pair's number")
    contract = serializers.CharField(max_length=10, required=False, allow_blank=True, default="")
    declarer = serializers.CharField(max_length=1, required=False, allow_blank=True, default="")
    tricks = serializers.IntegerField(min_value=0, max_value=13, required=False, allow_null=True, default=None)
    lead = serializers.CharField(max_length=3, required=False, allow_blank=True, default="")
    not_played = serializers.BooleanField(required=False, default=False)
    score_ns = serializers.IntegerField(
        min_value=-10000, max_value=10000, required=False, allow_null=True, default=None,
        help_text="The N-S score the club's program gave: checked against the vulnerability and the contract",
    )  # fmt: skip


class UploadInputSerializer(serializers.Serializer):
    session = WholePrimaryKeyRelatedField(queryset=Session.objects.select_related("event__tournament"))
    club = serializers.CharField(max_length=200, trim_whitespace=False)
    results = serializers.ListField(child=UploadRowSerializer(), min_length=1, max_length=5000)


class ConfirmInputSerializer(serializers.Serializer):
    flag = serializers.IntegerField(min_value=1, max_value=LARGEST_ID)
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class CorrectInputSerializer(serializers.Serializer):
    flag = serializers.IntegerField(min_value=1, max_value=LARGEST_ID)
    contract = serializers.CharField(max_length=10, trim_whitespace=False)
    declarer = serializers.CharField(max_length=1, required=False, allow_blank=True, default="")
    tricks = serializers.IntegerField(min_value=0, max_value=13, required=False, allow_null=True, default=None)
    score_ns = serializers.IntegerField(
        min_value=-10000, max_value=10000, required=False, allow_null=True, default=None
    )


def _input(serializer_class, request):
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return data.validated_data


class FieldUploadViewSet(ScopedViewSet, mixins.RetrieveModelMixin):
    queryset = FieldUpload.objects.select_related("session__event__tournament").prefetch_related("flags")
    serializer_class = FieldUploadSerializer
    scope = "session__event__tournament"

    def get_object(self):
        found = super().get_object()
        policy.require(self.request.user, "write_record", found.session.event.tournament)
        return found

    @extend_schema(request=UploadInputSerializer, responses={201: FieldUploadSerializer})
    def create(self, request):
        """A club's results to a session's field (services.upload_to_field): held with their flags,
        or joined at once when none is flagged."""
        values = _input(UploadInputSerializer, request)
        session = values["session"]
        made = services.upload_to_field(session=session, club=values["club"], rows=values["results"], by=request.user)
        return Response(FieldUploadSerializer(made).data, status=status.HTTP_201_CREATED)

    def _answer(self, request, serializer_class, service):
        found = self.get_object()
        values = _input(serializer_class, request)
        flag = get_object_or_404(UploadFlag, upload=found, pk=values.pop("flag"))
        answered = service(flag=flag, by=request.user, **values)
        answered = FieldUpload.objects.prefetch_related("flags").get(pk=answered.pk)
        return Response(FieldUploadSerializer(answered).data)

    @extend_schema(request=ConfirmInputSerializer, responses=FieldUploadSerializer)
    @action(detail=True, methods=["post"], filter_backends=[])
    def confirm(self, request, pk=None):
        """Confirm a flag: the row stands (the chief director); the last answer joins the upload."""
        return self._answer(request, ConfirmInputSerializer, services.confirm_upload_flag)

    @extend_schema(request=CorrectInputSerializer, responses=FieldUploadSerializer)
    @action(detail=True, methods=["post"], filter_backends=[])
    def correct(self, request, pk=None):
        """Correct a flagged row (contract, declarer, tricks, the N-S score sent); checked again."""
        return self._answer(request, CorrectInputSerializer, services.correct_upload_row)
