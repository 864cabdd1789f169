"""What each step of an appeal takes as input: one definition, read by both doors.

The case page (appeals/step_views.py, a form posted by a browser) and the API (appeals/api.py,
a JSON body) validate a step's input with the same serializer from here, then call the same
service: a wrong input is refused by name on both (a 400 naming the field in the API, the
message on the case page), what the service refuses of a well-formed input is a 409 in the API
and the message on the page. Why serializers rather than Django forms: the API's documented
contract (the OpenAPI schema, checked by schemathesis) is made from them, and DRF reads a
browser's form post (lists from repeated fields, an unticked box as false) as well as JSON, with
JSON's types held strictly; a Django form would need a second description for the schema. The
page keeps one Django form, for what only it shows: the adjusted score's fields of the rulings
form (``DecisionForm``), which it turns into the ``score_kind``, ``ns`` and ``ew`` read here.
"""

from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from appeals.models import Appeal, AppealRequest, Concurrence, FurtherAppeal, Hearing, Outcome, Recommendation
from appeals.models import Body as AppealsBody
from core.api_contract import IdField
from rulings.models import Ruling

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

CHOOSE_PLAYER = {
    key: gettext_lazy("Choose the player.") for key in ("required", "invalid", "null", "min_value", "max_value")
}
CHOOSE_FILING = {
    key: gettext_lazy("Say which filing.") for key in ("required", "invalid", "null", "min_value", "max_value")
}
CHOOSE_MEMBER = {
    key: gettext_lazy("Choose who sits.") for key in ("required", "invalid", "null", "min_value", "max_value")
}
GIVE_THE_TIME: "dict[str, str | StrPromise]" = {
    key: gettext_lazy("Give the date and time of the hearing.") for key in ("required", "invalid", "null", "date")
}


def valid(input_class, data):
    """The step's input from ``data`` (a browser's form post or a dict), or a ``ValidationError``
    naming each field, as the services refuse (the case page shows them)."""
    serializer = input_class(data=data)
    if not serializer.is_valid():
        raise ValidationError(
            {field: [str(message) for message in messages] for field, messages in serializer.errors.items()}
        )
    return serializer.validated_data


def _text(**kwargs):
    return serializers.CharField(required=False, allow_blank=True, default="", **kwargs)


class LodgeInput(serializers.Serializer):
    ruling = IdField(help_text="The ruling appealed against")
    player = IdField(required=False, allow_null=True, help_text="The player who lodges it")
    origin = serializers.ChoiceField(choices=Appeal.Origin.choices, required=False, default=Appeal.Origin.PLAYER)
    grounds = _text()
    law_question = _text(help_text="A question of law or regulation (a part the director in charge decides)")


class NoInput(serializers.Serializer):
    """A step that takes no body."""


class ConcurrenceInput(serializers.Serializer):
    player = IdField(error_messages=CHOOSE_PLAYER)
    how = serializers.ChoiceField(choices=Concurrence.How.choices)


class DepositInput(serializers.Serializer):
    deposit = IdField()


class ForfeitInput(DepositInput):
    reason = _text()


class ConstituteInput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=AppealsBody.Kind.choices, allow_blank=True, required=False, default="")
    members = serializers.ListField(child=IdField(), required=False, default=list)
    chair = IdField(required=False, allow_null=True, default=None)


class AppointInput(serializers.Serializer):
    member = IdField(error_messages=CHOOSE_MEMBER, help_text="The user who sits")
    chair = serializers.BooleanField(required=False, default=False)


class DeclareInput(serializers.Serializer):
    conflict = _text()


class ReasonInput(serializers.Serializer):
    reason = _text()


class ScheduleInput(serializers.Serializer):
    starts_at = serializers.DateTimeField(error_messages=GIVE_THE_TIME)
    mode = serializers.ChoiceField(choices=Hearing.Mode.choices, required=False, default=Hearing.Mode.IN_PERSON)
    place = _text()


class ExtendDecisionInput(serializers.Serializer):
    until = serializers.DateTimeField(
        error_messages={
            key: gettext_lazy("Give the date and time by which the case is to be decided.")
            for key in ("required", "invalid", "null", "date")
        },
        help_text="When the case is now to be decided by",
    )
    reason = _text(help_text="Why the case is given more time")


class VoteInput(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=Outcome.choices)
    dissent = _text()


class DecisionInput(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=Outcome.choices)
    reasons = _text()
    score_kind = serializers.ChoiceField(choices=Ruling.ScoreKind.choices, allow_blank=True, required=False, default="")
    ns = serializers.JSONField(required=False, allow_null=True, default=None)
    ew = serializers.JSONField(required=False, allow_null=True, default=None)


class AppealDecisionInput(DecisionInput):
    cancel_penalties = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Cancel the ruling's Law 90 procedural penalties (varied or overturned only)",
    )


class LawPartDecisionInput(AppealDecisionInput):
    part = IdField()


class WithoutMeritInput(serializers.Serializer):
    reasons = _text()


class ValidityInput(serializers.Serializer):
    """The body's word on an appeal received late (issue #44): valid or not, and why."""

    filing = IdField(error_messages=CHOOSE_FILING)
    valid = serializers.ChoiceField(choices=[("yes", gettext_lazy("valid")), ("no", gettext_lazy("not valid"))])
    reason = _text()


class WithdrawalInput(serializers.Serializer):
    player = IdField(error_messages=CHOOSE_PLAYER)
    reason = _text()


class RecommendationInput(serializers.Serializer):
    about = serializers.ChoiceField(choices=Recommendation.About.choices)
    text = _text()


class FurtherAppealInput(serializers.Serializer):
    player = IdField(required=False, allow_null=True)
    grounds = _text()
    origin = serializers.ChoiceField(choices=FurtherAppeal.Origin.choices, required=False)


class StatementsInput(serializers.Serializer):
    grounds = serializers.CharField(required=False, allow_blank=True)
    respondents_statement = serializers.CharField(required=False, allow_blank=True)


class LockStatementsInput(serializers.Serializer):
    agreed_by = serializers.ListField(child=IdField(), required=False, default=list)


class AttendanceInput(serializers.Serializer):
    hearing = IdField()
    player = IdField(error_messages=CHOOSE_PLAYER)


class HearingNotesInput(serializers.Serializer):
    hearing = IdField()
    director_account = serializers.CharField(required=False, allow_blank=True)
    director_present = serializers.BooleanField(required=False)
    notes = serializers.CharField(required=False, allow_blank=True)


class PartInput(serializers.Serializer):
    part = IdField()


class ResponseInput(serializers.Serializer):
    recommendation = IdField()
    accepted = serializers.BooleanField()
    response = _text()
    score_kind = serializers.ChoiceField(
        choices=Ruling.ScoreKind.choices,
        allow_blank=True,
        required=False,
        default="",
        help_text="Accepting with a new adjusted score changes the ruling (Law 93B3)",
    )
    ns = serializers.JSONField(required=False, allow_null=True, default=None)
    ew = serializers.JSONField(required=False, allow_null=True, default=None)


class MemoInput(serializers.Serializer):
    """A player's memo on a ruling (issue #44), as the memo page takes it: a player of the table
    files their own; a director at the desk names the player and the language they wrote in."""

    ruling = IdField(help_text="The ruling the memo is about")
    player = IdField(
        required=False, allow_null=True, help_text="The player who files it (a director at the desk names them)"
    )
    text = _text(help_text="The memo, in the player's words")
    language = serializers.ChoiceField(
        choices=settings.LANGUAGES,
        required=False,
        allow_blank=True,
        default="",
        help_text="The language the player wrote in (by default the caller's)",
    )


class AppealRequestInput(serializers.Serializer):
    """A player's request to appeal a ruling of their table (issue #44), as their page sends it:
    the player is the caller, in person."""

    ruling = IdField(help_text="The ruling the player asks to appeal")
    grounds = _text(help_text="The grounds of the appeal, in the player's words")
    about = serializers.ChoiceField(
        choices=AppealRequest.About.choices,
        required=False,
        default=AppealRequest.About.JUDGEMENT,
        help_text="What the appeal is about: judgement, law or regulation, or both",
    )
