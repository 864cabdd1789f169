"""A ruling drafted on a phone with no network, sent when the network returns (issue #31):
``POST /api/v1/ruling-drafts/`` with the draft's id as its ``Idempotency-Key``.

The body is what the phone saved: the board and table as the director said them (``session``,
``board``, ``table``, ``section``, ``round``), the ruling form's fields (``form``: the same
names and checks as the ruling form), ``give`` ("Give ruling" was pressed), ``device_time`` (the
phone's clock when the director saved it) and ``acknowledge_others`` (the director has read
another director's ruling at that table and sends theirs as a further ruling). Answers 201 with
the ruling; 400 naming the form's fields; 403 to whoever does not rule in that tournament; 409
with the server's words when the record refuses it (the period ended by the server's clock,
another director ruled at that table, the table's result changed since the
director saw it: ``seen_result``). The phone keeps the draft and shows the words.
"""

import datetime

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from core import policy
from core.api_contract import Conflict
from rulings import selectors, services
from rulings.api import RulingSerializer
from rulings.forms import RulingForm
from rulings.models import Ruling
from rulings.services.offline import TableRuled
from scoring.models import Result


class DraftFormSerializer(serializers.Serializer):
    """The ruling form's fields as the phone saved them (the form's names; any other field of
    the ruling form may be given too, as text, and is checked as the form checks it: a refusal
    is a 409 naming the field)."""

    kind = serializers.ChoiceField(choices=Ruling.Kind.choices)
    outcome = serializers.ChoiceField(choices=Ruling.Outcome.choices, required=False)

    def to_internal_value(self, data):
        checked = super().to_internal_value(data)
        rest = {key: value for key, value in data.items() if key not in checked and isinstance(value, str)}
        return {**rest, **checked}


# The largest number a board, table or round can have (their PositiveSmallIntegerField) and the
# largest id: a number beyond is refused naming its field (issue #41, tests/test_api_fuzz.py),
# never looked up.
SMALL, BIG = 32767, 2**63 - 1


# The schema says what the field takes (a date and time with its offset, or nothing), so a client
# and the contract's checks know a word or "30 February" is refused, as validate_device_time does.
@extend_schema_field({"anyOf": [{"type": "string", "format": "date-time"}, {"type": "string", "maxLength": 0}]})
class DeviceTimeField(serializers.CharField):
    pass


class DraftInputSerializer(serializers.Serializer):
    session = serializers.IntegerField(min_value=1, max_value=BIG)
    board = serializers.IntegerField(min_value=1, max_value=SMALL)
    table = serializers.IntegerField(min_value=1, max_value=SMALL)
    section = serializers.CharField(required=False, allow_blank=True, default="")
    round = serializers.IntegerField(min_value=1, max_value=SMALL, required=False, allow_null=True, default=None)
    form = DraftFormSerializer()
    give = serializers.BooleanField(required=False, default=False)
    device_time = DeviceTimeField(
        required=False, allow_blank=True, default="", help_text="the phone's time, ISO 8601 with its offset"
    )
    acknowledge_others = serializers.BooleanField(required=False, default=False)
    seen_result = serializers.CharField(
        required=False, allow_blank=True, default="", help_text="the table's result as the board's page showed it"
    )

    def validate_device_time(self, value: str) -> datetime.datetime | None:
        """The phone's time, or None if it sent none; a day or month that does not exist, words
        ("yesterday") or a time that is no moment in UTC (year 1 at +14:00) is a 400 naming the
        field, never a 500 nor a time silently dropped (issue #41)."""
        if not value:
            return None
        try:
            parsed = parse_datetime(value)
        except ValueError:
            raise serializers.ValidationError(
                _("This date or time does not exist (%(value)s).") % {"value": value}
            ) from None
        if parsed is None:
            raise serializers.ValidationError(
                _("Give the phone's time as an ISO 8601 date and time, such as 2026-04-19T16:05:00+02:00.")
            )
        try:
            parsed.astimezone(datetime.UTC)
        except (OverflowError, ValueError):
            raise serializers.ValidationError(
                _("This time is out of range: it is no moment between the years 1 and 9999 in UTC.")
            ) from None
        return parsed


class SentDraftSerializer(RulingSerializer):
    url = serializers.SerializerMethodField()

    class Meta(RulingSerializer.Meta):
        fields = [*RulingSerializer.Meta.fields, "url"]

    def get_url(self, ruling) -> str:
        from django.urls import reverse

        return reverse("rulings:ruling", args=[ruling.pk])


def _errors(form):
    return {field: [str(message) for message in messages] for field, messages in form.errors.items()}


def _where(user, data):
    """(session, board, table, round, result) from the numbers the director gave."""
    sessions = selectors.sessions_for_rulings(user)
    if not sessions.exists():
        policy.refuse("ruling")
    session = sessions.filter(pk=data["session"]).first()
    if session is None:
        raise NotFound({"session": [_("There is no such session.")]})
    board, table, round = selectors.find_table(
        session=session,
        board=data["board"],
        table=data["table"],
        section=data["section"],
        round=data["round"],
    )
    policy.require(user, "ruling", session.event.tournament)
    result = Result.objects.filter(board=board, table=table).select_related("round", "ns", "ew").first()
    return session, board, table, round, result


class RulingDraftView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=DraftInputSerializer, responses={201: SentDraftSerializer})
    def post(self, request):
        data = DraftInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        try:
            session, board, table, round, result = _where(request.user, values)
        except DjangoPermissionDenied as error:
            raise PermissionDenied(str(error)) from None
        device_time = values["device_time"]
        timezone.activate(session.event.tournament.zone)  # the form's times are the tournament's
        try:
            players = [*result.ns.members.all(), *result.ew.members.all()] if result else []
            form = RulingForm(values["form"], players=players)
            if not form.is_valid():  # well-formed, but the form refuses it: as the services' refusals
                raise Conflict(_errors(form))
            ruling = _rule(
                request,
                board=board,
                table=table,
                round=round,
                result=result,
                device_time=device_time,
                acknowledge_others=values["acknowledge_others"],
                seen_result=values["seen_result"],
                give=values["give"],
                **form.decision(),
            )
        finally:
            timezone.deactivate()
        if isinstance(ruling, Response):
            return ruling
        return Response(SentDraftSerializer(ruling).data, status=status.HTTP_201_CREATED)


def _rule(request, **values):
    """The ruling; or, when another director has ruled at the table, the 409 naming it, with a
    ``Link`` to the first one's page (the drafts page's "merge into it")."""
    from django.urls import reverse

    try:
        return services.rule_from_phone(director=request.user, **values)
    except TableRuled as ruled:
        first = reverse("rulings:ruling", args=[ruled.others[0].pk])
        return Response(
            ruled.message_dict, status=status.HTTP_409_CONFLICT, headers={"Link": f'<{first}>; rel="related"'}
        )
