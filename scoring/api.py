"""The competition record over HTTP, under /api/v1/.

Reads are scoped to the tournaments the caller may see; writes go through the services, so
the API refuses exactly what the web and the admin refuse, naming the field.
"""

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import mixins, serializers, viewsets
from rest_framework.exceptions import PermissionDenied
from rest_framework.exceptions import ValidationError as DRFValidationError

from scoring import selectors, services
from scoring.models import Board, Contestant, Event, OfficialScorePosting, Player, Result, Session, Tournament
from scoring.permissions import tournament_of


def _call(service, **kwargs):
    try:
        return service(**kwargs)
    except DjangoValidationError as error:
        raise DRFValidationError(error.message_dict if hasattr(error, "error_dict") else error.messages) from None


class TournamentSerializer(serializers.ModelSerializer):
    authority = serializers.StringRelatedField()

    class Meta:
        model = Tournament
        fields = ["id", "name", "authority", "venue", "start_date", "end_date", "time_zone"]


class EventSerializer(serializers.ModelSerializer):
    class Meta:
        model = Event
        fields = ["id", "tournament", "name", "kind"]


class SessionSerializer(serializers.ModelSerializer):
    official_score_at = serializers.DateTimeField(read_only=True)
    appeal_deadline = serializers.DateTimeField(read_only=True)
    correction_deadline = serializers.DateTimeField(read_only=True)

    class Meta:
        model = Session
        fields = ["id", "event", "number", "name", "starts_at", "is_last", "official_score_at",
                  "appeal_deadline", "correction_deadline"]

    def to_representation(self, instance):
        data = super().to_representation(instance)
        for name in ("appeal_deadline", "correction_deadline"):
            value = getattr(instance, name)()
            data[name] = serializers.DateTimeField().to_representation(value) if value else None
        return data


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "first_name", "last_name", "club", "membership_number"]


class PublicPlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "first_name", "last_name", "club"]


class ContestantSerializer(serializers.ModelSerializer):
    members = serializers.SerializerMethodField()
    captain = serializers.PrimaryKeyRelatedField(read_only=True)

    class Meta:
        model = Contestant
        fields = ["id", "event", "kind", "number", "name", "captain", "members"]

    def get_members(self, contestant):
        # Membership numbers are for officials and auditors, not for other players.
        cache = self.context.setdefault("private_by_tournament", {})
        tournament = contestant.event.tournament
        if tournament.pk not in cache:
            cache[tournament.pk] = selectors.sees_private_details(self.context["request"].user, tournament)
        serializer = PlayerSerializer if cache[tournament.pk] else PublicPlayerSerializer
        return serializer(contestant.members.all(), many=True).data


class BoardSerializer(serializers.ModelSerializer):
    class Meta:
        model = Board
        fields = ["id", "session", "number", "dealer", "vulnerability", "deal"]
        extra_kwargs = {"dealer": {"required": False}, "vulnerability": {"required": False}}
        validators = []  # the service says which board number clashes, in words

    def validate_session(self, session):
        _require_write(self, session)
        return session

    def create(self, data):
        return _call(services.create_board, **data)

    def update(self, board, data):
        data.pop("session", None)
        return _call(services.update_board, board=board, **data)


class ResultSerializer(serializers.ModelSerializer):
    contract = serializers.CharField(required=False, allow_blank=True, max_length=10)

    class Meta:
        model = Result
        fields = ["id", "board", "round", "table", "ns", "ew", "not_played", "contract", "declarer", "tricks",
                  "lead", "score_ns"]
        read_only_fields = ["score_ns"]
        validators = []

    def validate_board(self, board):
        _require_write(self, board.session)
        return board

    def create(self, data):
        return _call(services.record_result, **data)

    def update(self, result, data):
        for fixed in ("board", "round", "table", "ns", "ew"):
            data.pop(fixed, None)
        return _call(services.correct_result, result=result, **data)


class OfficialScorePostingSerializer(serializers.ModelSerializer):
    class Meta:
        model = OfficialScorePosting
        fields = ["id", "session", "posted_at", "note"]
        extra_kwargs = {"posted_at": {"required": False}}

    def validate_session(self, session):
        _require_write(self, session)
        return session

    def create(self, data):
        return _call(services.post_official_scores, session=data["session"], by=self.context["request"].user,
                     at=data.get("posted_at"), note=data.get("note", ""))


def _require_write(serializer, session):
    user = serializer.context["request"].user
    if not selectors.can_write(user, session.event.tournament):
        raise PermissionDenied("Only a director, chief director or scorer of this tournament may change its record.")


class ScopedViewSet(viewsets.GenericViewSet):
    """Limits every query to what the caller may see; others' records answer 404."""

    scope = "tournament"

    def get_queryset(self):
        visible = selectors.visible_tournaments(self.request.user)
        return self.queryset.filter(**{f"{self.scope}__in": visible})


class TournamentViewSet(ScopedViewSet, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    queryset = Tournament.objects.select_related("authority")
    serializer_class = TournamentSerializer
    scope = "pk"

    def get_queryset(self):
        return selectors.visible_tournaments(self.request.user)


class EventViewSet(ScopedViewSet, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    queryset = Event.objects.order_by("pk")
    serializer_class = EventSerializer


class SessionViewSet(ScopedViewSet, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    queryset = Session.objects.select_related("event__tournament__authority").order_by("pk")
    serializer_class = SessionSerializer
    scope = "event__tournament"


class ContestantViewSet(ScopedViewSet, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    queryset = Contestant.objects.select_related("event__tournament").prefetch_related("members").order_by("pk")
    serializer_class = ContestantSerializer
    scope = "event__tournament"

    def get_queryset(self):
        qs = super().get_queryset()
        event = self.request.query_params.get("event")
        return qs.filter(event_id=event) if event else qs


class BoardViewSet(ScopedViewSet, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                   mixins.UpdateModelMixin):
    queryset = Board.objects.order_by("session", "number")
    serializer_class = BoardSerializer
    scope = "session__event__tournament"

    def get_queryset(self):
        qs = super().get_queryset()
        session = self.request.query_params.get("session")
        return qs.filter(session_id=session) if session else qs


class ResultViewSet(ScopedViewSet, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                    mixins.UpdateModelMixin):
    queryset = Result.objects.order_by("board", "table")
    serializer_class = ResultSerializer
    scope = "board__session__event__tournament"

    def get_queryset(self):
        qs = super().get_queryset()
        board = self.request.query_params.get("board")
        return qs.filter(board_id=board) if board else qs


class OfficialScorePostingViewSet(ScopedViewSet, mixins.ListModelMixin, mixins.CreateModelMixin):
    queryset = OfficialScorePosting.objects.order_by("posted_at")
    serializer_class = OfficialScorePostingSerializer
    scope = "session__event__tournament"


__all__ = ["tournament_of"]
