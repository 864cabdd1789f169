"""The competition record over HTTP, under /api/v1/.

Reads are scoped to the tournaments the caller may see; writes go through the services, so
the API refuses exactly what the web and the admin refuse, naming the field.
"""

from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response

from core import live, policy
from core.api_contract import LARGEST_ID, WholeNumberFilter
from core.api_fields import WholePrimaryKeyRelatedField
from core.permissions import tournament_of
from scoring import import_api, selectors, services, vp_scales
from scoring.models import (
    Adjustment,
    Board,
    BoardScore,
    Contestant,
    Event,
    MatchScore,
    OfficialScorePosting,
    Player,
    Result,
    ScoreChange,
    Session,
    Standing,
    Tournament,
)

SIDE_CHOICES = [("NS", "N-S"), ("EW", "E-W")]  # rulings.models.SIDE_CHOICES (scoring imports no upper app)


class TournamentSerializer(serializers.ModelSerializer):
    authority: serializers.StringRelatedField = serializers.StringRelatedField()

    class Meta:
        model = Tournament
        fields = ["id", "name", "authority", "venue", "start_date", "end_date", "time_zone"]


class VPScaleSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="wbf2013-20, wbf2013-30, acbl-20, acbl-30 or a body's own (<code>:<name>)")
    source = serializers.CharField(help_text="where the scale's numbers come from")  # type: ignore[assignment]  # a field named as Field.source
    chosen_by_event = serializers.BooleanField(help_text="false: the regulating authority's vp_scale setting")


class EventSerializer(serializers.ModelSerializer):
    vp_scale = serializers.SerializerMethodField(
        help_text="the victory-point scale in force (team events scored in VPs; null otherwise)"
    )

    class Meta:
        model = Event
        fields = ["id", "tournament", "name", "kind", "vp_scale"]

    @extend_schema_field(VPScaleSerializer(allow_null=True))
    def get_vp_scale(self, event):
        if not event.scored_in_vps:
            return None
        # Events of one tournament with the same choice share the answer: a list reads each once.
        known = self.context.setdefault("vp_scales", {})
        key = (event.tournament_id, event.vp_scale)
        if key not in known:
            known[key] = vp_scales.in_force(event)
        return known[key]


class ClockListSerializer(serializers.ListSerializer):
    """Reads the clocks of every session in the list at once (scoring.selectors.session_clocks),
    so a list costs the same few queries however long it is."""

    def to_representation(self, data):
        rows = list(data.all() if hasattr(data, "all") else data)
        child: Any = self.child  # the row's serializer, which names each row's session (session_of)
        self.context.setdefault("session_clocks", {}).update(
            selectors.session_clocks([child.session_of(row) for row in rows])
        )
        return super().to_representation(rows)


def clock(serializer, session, name):
    """One of ``session``'s clocks (official_score_at, appeal_deadline, correction_deadline,
    recalculation_pending), from the list's batch or read for this one session."""
    clocks = serializer.context.setdefault("session_clocks", {})
    if session.pk not in clocks:
        clocks.update(selectors.session_clocks([session]))
    return clocks[session.pk][name]


class SessionSerializer(serializers.ModelSerializer):
    official_score_at = serializers.SerializerMethodField()
    appeal_deadline = serializers.SerializerMethodField()
    correction_deadline = serializers.SerializerMethodField()
    recalculation_pending = serializers.SerializerMethodField()

    class Meta:
        model = Session
        fields = [
            "id",
            "event",
            "number",
            "name",
            "starts_at",
            "is_last",
            "official_score_at",
            "appeal_deadline",
            "correction_deadline",
            "recalculation_pending",
        ]
        list_serializer_class = ClockListSerializer

    @staticmethod
    def session_of(session):
        return session

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_official_score_at(self, session):
        return _datetime(clock(self, session, "official_score_at"))

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_appeal_deadline(self, session):
        return _datetime(clock(self, session, "appeal_deadline"))

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_correction_deadline(self, session):
        return _datetime(clock(self, session, "correction_deadline"))

    def get_recalculation_pending(self, session) -> bool:
        return clock(self, session, "recalculation_pending")


def _datetime(value):
    return serializers.DateTimeField().to_representation(value) if value else None


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "first_name", "last_name", "club", "membership_number"]


class PublicPlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "first_name", "last_name", "club"]


class MemberSerializer(PlayerSerializer):
    """A member as the schema documents it: the membership number only for officials and
    auditors (PlayerSerializer), absent for players (PublicPlayerSerializer)."""

    membership_number = serializers.CharField(required=False)


class ContestantSerializer(serializers.ModelSerializer):
    members = serializers.SerializerMethodField()
    label = serializers.CharField(read_only=True)  # type: ignore[assignment]  # a field named as Field.label
    captain: serializers.PrimaryKeyRelatedField = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)

    class Meta:
        model = Contestant
        fields = ["id", "event", "kind", "number", "section", "direction", "label", "name", "captain", "members"]

    @extend_schema_field(MemberSerializer(many=True))
    def get_members(self, contestant):
        # Membership numbers are for officials and auditors, not for other players.
        cache = self.context.setdefault("private_by_tournament", {})
        tournament = contestant.event.tournament
        if tournament.pk not in cache:
            cache[tournament.pk] = selectors.sees_private_details(self.context["request"].user, tournament)
        serializer = PlayerSerializer if cache[tournament.pk] else PublicPlayerSerializer
        return serializer(contestant.members.all(), many=True).data


class BoardSerializer(serializers.ModelSerializer):
    serializer_related_field = WholePrimaryKeyRelatedField  # 1.5 is no id (issue #41)

    class Meta:
        model = Board
        fields = ["id", "session", "number", "dealer", "vulnerability", "deal"]
        extra_kwargs = {"dealer": {"required": False}, "vulnerability": {"required": False}}
        validators: list[object] = []  # the service says which board number clashes, in words

    def validate_session(self, session):
        _require_write(self, session)
        return session

    def create(self, data):
        return services.create_board(**data, by=self.context["request"].user)

    def update(self, board, data):
        data.pop("session", None)
        return services.update_board(board=board, **data, by=self.context["request"].user)


class TricksField(serializers.IntegerField):
    """0 to 13, documented so; a number outside is a 400 in the record's own words."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.min_value, self.max_value = 0, 13  # for the schema; checked below

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if not 0 <= value <= 13:
            raise serializers.ValidationError(_("%(t)s tricks: declarer takes 0 to 13 tricks.") % {"t": value})
        return value


class ResultSerializer(serializers.ModelSerializer):
    serializer_related_field = WholePrimaryKeyRelatedField  # 1.5 is no id (issue #41)
    contract = serializers.CharField(required=False, allow_blank=True, max_length=10)
    tricks = TricksField(required=False, allow_null=True)

    class Meta:
        model = Result
        fields = [
            "id",
            "board",
            "round",
            "table",
            "ns",
            "ew",
            "not_played",
            "contract",
            "declarer",
            "tricks",
            "lead",
            "score_ns",
        ]
        read_only_fields = ["score_ns"]
        validators: list[object] = []

    def validate_board(self, board):
        _require_write(self, board.session)
        return board

    def create(self, data):
        return services.record_result(**data, by=self.context["request"].user)

    def update(self, result, data):
        for fixed in ("board", "round", "table", "ns", "ew"):
            data.pop(fixed, None)
        return services.correct_result(result=result, **data, by=self.context["request"].user)


class OfficialScorePostingSerializer(serializers.ModelSerializer):
    serializer_related_field = WholePrimaryKeyRelatedField  # 1.5 is no id (issue #41)

    class Meta:
        model = OfficialScorePosting
        fields = ["id", "session", "posted_at", "note"]
        extra_kwargs = {"posted_at": {"required": False}}

    def validate_session(self, session):
        _require_write(self, session)
        return session

    def create(self, data):
        return services.post_official_scores(
            session=data["session"],
            by=self.context["request"].user,
            at=data.get("posted_at"),
            note=data.get("note", ""),
        )


class BoardScoreSerializer(serializers.ModelSerializer):
    class Meta:
        model = BoardScore
        fields = ["ns", "ew", "ns_exact", "ew_exact", "ns_percent", "ew_percent", "top", "ns_kind", "ew_kind"]


class EffectiveScoreInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Adjustment.choices)
    score = serializers.JSONField(required=False, allow_null=True)
    penalty = serializers.JSONField(required=False, allow_null=True)
    outside_agency = serializers.BooleanField(required=False, default=False)
    reason = serializers.CharField()
    description = serializers.CharField(required=False, allow_blank=True, default="")


class EffectiveSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Adjustment.choices)
    score = serializers.JSONField(allow_null=True)
    penalty = serializers.JSONField(allow_null=True)
    description = serializers.CharField(allow_blank=True)


class TravellerRowSerializer(serializers.ModelSerializer):
    board_score = serializers.SerializerMethodField()
    effective = serializers.SerializerMethodField()

    class Meta:
        model = Result
        fields = [
            "id",
            "table",
            "round",
            "ns",
            "ew",
            "not_played",
            "contract",
            "declarer",
            "tricks",
            "lead",
            "score_ns",
            "effective",
            "board_score",
        ]

    @extend_schema_field(BoardScoreSerializer(allow_null=True))
    def get_board_score(self, result):
        # One serializer for the whole traveller (the list's), not one built per row.
        if not _present(result, "board_score"):
            return None
        fields = self.context.setdefault("board_score_fields", BoardScoreSerializer().fields)
        return {
            name: field.to_representation(getattr(result.board_score, name))
            if getattr(result.board_score, name) is not None
            else None
            for name, field in fields.items()
        }

    @extend_schema_field(EffectiveSerializer(allow_null=True))
    def get_effective(self, result):
        if not _present(result, "effective"):
            return None
        e = result.effective
        return {"kind": e.kind, "score": e.score, "penalty": e.penalty, "description": e.description}


class FrequencyRowSerializer(serializers.Serializer):
    score = serializers.IntegerField(help_text="N-S points")
    count = serializers.CharField(help_text="The weight of the results with this score, as a fraction")


class FrequencySerializer(serializers.Serializer):
    NS = FrequencyRowSerializer(many=True)
    EW = FrequencyRowSerializer(many=True)


class TravellerSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    dealer = serializers.CharField()
    vulnerability = serializers.CharField()
    recalculation_pending = serializers.BooleanField()
    results = TravellerRowSerializer(many=True)
    frequency = FrequencySerializer()


class ScorecardRowSerializer(serializers.Serializer):
    board = serializers.IntegerField()
    session = serializers.IntegerField()
    result = serializers.IntegerField()
    direction = serializers.ChoiceField(choices=SIDE_CHOICES)
    opponent = serializers.IntegerField()
    contract = serializers.CharField(allow_blank=True)
    declarer = serializers.CharField(allow_blank=True)
    tricks = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    score = serializers.DecimalField(max_digits=12, decimal_places=4, allow_null=True)
    percent = serializers.DecimalField(max_digits=7, decimal_places=3, allow_null=True)
    adjusted = serializers.CharField(allow_null=True)


def _present(obj, relation):
    try:
        return getattr(obj, relation) is not None
    except Exception:  # noqa: BLE001 - a missing one-to-one raises its own DoesNotExist
        return False


class ScoreChangeSerializer(serializers.ModelSerializer):
    board = serializers.IntegerField(source="result.board.number")
    explanation = serializers.SerializerMethodField()

    class Meta:
        model = ScoreChange
        fields = [
            "id",
            "result",
            "board",
            "changed_at",
            "changed_by",
            "old_kind",
            "old_value",
            "old_description",
            "new_kind",
            "new_value",
            "new_description",
            "reason",
            "cause_type",
            "cause_id",
            "cause_label",
            "ns_before",
            "ns_after",
            "ew_before",
            "ew_after",
            "explanation",
        ]

    def get_explanation(self, change) -> str:
        contestant = self.context.get("contestant")
        side = "EW" if contestant is not None and change.result.ew_id == contestant.pk else "NS"
        return change.explain(side, self.context.get("unit"))


class StandingSerializer(serializers.ModelSerializer):
    contestant_number = serializers.IntegerField(source="contestant.number")
    contestant_label = serializers.CharField(source="contestant.label")
    contestant_name = serializers.CharField(source="contestant.name")

    class Meta:
        model = Standing
        fields = [
            "contestant",
            "contestant_number",
            "contestant_label",
            "contestant_name",
            "session",
            "field",
            "place",
            "position",
            "total",
            "total_exact",
            "top",
            "percent",
            "boards",
        ]


class MatchScoreSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="match.round.number")
    home = serializers.IntegerField(source="match.home_id")
    away = serializers.IntegerField(source="match.away_id")

    class Meta:
        model = MatchScore
        fields = [
            "match",
            "round",
            "home",
            "away",
            "home_imps",
            "away_imps",
            "home_vp",
            "away_vp",
            # Set when the VP scale has no table for the match's boards: home_vp and away_vp are null.
            "unscaled_boards",
            "boards",
            # The match penalties in force (/api/v1/match-penalties/): home_vp and away_vp are net of them.
            "home_imp_penalty",
            "away_imp_penalty",
            "home_vp_penalty",
            "away_vp_penalty",
        ]


class StandingsResponseSerializer(serializers.Serializer):
    recalculation_pending = serializers.BooleanField()
    standings = StandingSerializer(many=True)


def _require_write(serializer, session):
    policy.require(serializer.context["request"].user, "write_record", session.event.tournament)


class ScopedViewSet(viewsets.GenericViewSet):
    """Limits every query to what the caller may see; others' records answer 404."""

    scope = "tournament"

    def get_queryset(self):
        visible = selectors.visible_tournaments(self.request.user)
        if self.queryset is None:  # every viewset of the API names its rows
            raise ImproperlyConfigured(f"{type(self).__name__} names no queryset")
        return self.queryset.filter(**{f"{self.scope}__in": visible})


class TournamentViewSet(ScopedViewSet, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    queryset = Tournament.objects.select_related("authority")
    serializer_class = TournamentSerializer
    scope = "pk"

    def get_queryset(self):
        return selectors.visible_tournaments(self.request.user)


class StandingsQuerySerializer(serializers.Serializer):
    session = serializers.IntegerField(
        required=False, min_value=1, max_value=LARGEST_ID, help_text="A session's number: its standings"
    )


class EventFilter(filters.FilterSet):
    tournament = WholeNumberFilter(field_name="tournament_id")

    class Meta:
        model = Event
        fields = ["tournament", "kind"]


class EventViewSet(ScopedViewSet, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    queryset = Event.objects.select_related("tournament__authority").order_by("pk")
    serializer_class = EventSerializer
    filterset_class = EventFilter

    @extend_schema(parameters=[StandingsQuerySerializer], responses=StandingsResponseSerializer)
    @action(detail=True, filter_backends=[], pagination_class=None)
    @live.conditional(lambda request, pk=None: selectors.event_version(request.user, pk))
    def standings(self, request, pk=None):
        """The event's standings, or a session's with ``?session=<number>``."""
        event = self.get_object()
        query = _query(StandingsQuerySerializer, request)
        session = None
        if query.get("session"):
            session = get_object_or_404(event.sessions, number=query["session"])
        sessions = [session] if session else list(event.sessions.all())
        return Response(
            {
                "recalculation_pending": bool(selectors.recalculation_pending(sessions)),
                "standings": StandingSerializer(selectors.standings(event, session), many=True).data,
            }
        )

    @extend_schema(
        request={"multipart/form-data": import_api.ImportInputSerializer},
        responses={200: import_api.ImportSummarySerializer, 201: import_api.ImportSummarySerializer},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="import",
        url_name="import",
        filter_backends=[],
        pagination_class=None,
        parser_classes=[MultiPartParser],
    )
    def import_results(self, request, pk=None):
        """Import a scoring program's results file (PBN, USEBIO, Bridgemate .BWS) into the event, as
        the event's upload page does: with ``dry_run`` a preview (200, nothing written), else the
        import (201), all or nothing; ``replace`` swaps a session's results for the file's. A refusal
        (409) names each line or element and field under ``file`` (``session`` when the session to
        replace is at fault), with the file's ``warnings``."""
        event = self.get_object()
        return import_api.import_upload(request, event)

    @extend_schema(responses=MatchScoreSerializer(many=True))
    @action(detail=True, filter_backends=[], pagination_class=None)
    def matches(self, request, pk=None):
        event = self.get_object()
        scores = MatchScore.objects.filter(match__round__session__event=event).select_related("match__round")
        return Response(MatchScoreSerializer(scores.order_by("match__round__number", "match_id"), many=True).data)


def _query(serializer_class, request):
    """The query parameters an action reads, checked by ``serializer_class`` (400 naming each)."""
    query = serializer_class(data=request.query_params)
    query.is_valid(raise_exception=True)
    return query.validated_data


class SessionFilter(filters.FilterSet):
    event = WholeNumberFilter(field_name="event_id")

    class Meta:
        model = Session
        fields = ["event"]


class SessionViewSet(ScopedViewSet, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    queryset = Session.objects.select_related("event__tournament__authority").order_by("pk")
    serializer_class = SessionSerializer
    scope = "event__tournament"
    filterset_class = SessionFilter


class ContestantFilter(filters.FilterSet):
    event = WholeNumberFilter(field_name="event_id")

    class Meta:
        model = Contestant
        fields = ["event"]


class ContestantViewSet(ScopedViewSet, mixins.ListModelMixin, mixins.RetrieveModelMixin):
    queryset = Contestant.objects.select_related("event__tournament").prefetch_related("members").order_by("pk")
    serializer_class = ContestantSerializer
    scope = "event__tournament"
    filterset_class = ContestantFilter

    @extend_schema(responses=ScorecardRowSerializer(many=True))
    @action(detail=True, filter_backends=[], pagination_class=None)
    def scorecard(self, request, pk=None):
        """Every board the contestant played, with its board score."""
        contestant = self.get_object()
        rows = [
            {
                "board": row["result"].board.number,
                "session": row["result"].board.session.number,
                "result": row["result"].pk,
                "direction": row["side"],
                "opponent": row["opponent"].pk,
                "contract": row["result"].contract,
                "declarer": row["result"].declarer,
                "tricks": row["result"].tricks,
                "points": row["points"],
                "score": row["score"],
                "percent": row["percent"],
                "adjusted": row["effective"].description if row["effective"] else None,
            }
            for row in selectors.scorecard(contestant)
        ]
        return Response(ScorecardRowSerializer(rows, many=True).data)

    @extend_schema(responses=ScoreChangeSerializer(many=True))
    @action(detail=True, url_path="score-changes", filter_backends=[], pagination_class=None)
    def score_changes(self, request, pk=None):
        """Why this contestant's scores changed, oldest first, explained from its side."""
        contestant = self.get_object()
        changes = [change for change, _side, _unit in selectors.score_changes(contestant)]
        context = {"contestant": contestant, "unit": selectors.score_unit(contestant.event)}
        return Response(ScoreChangeSerializer(changes, many=True, context=context).data)


class BoardFilter(filters.FilterSet):
    session = WholeNumberFilter(field_name="session_id")

    class Meta:
        model = Board
        fields = ["session", "number"]

    number = WholeNumberFilter()


class BoardViewSet(
    ScopedViewSet, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, mixins.UpdateModelMixin
):
    queryset = Board.objects.order_by("session", "number")
    serializer_class = BoardSerializer
    scope = "session__event__tournament"
    filterset_class = BoardFilter

    @extend_schema(responses=TravellerSerializer)
    @action(detail=True, filter_backends=[], pagination_class=None)
    @live.conditional(lambda request, pk=None: selectors.board_version(request.user, pk))
    def traveller(self, request, pk=None):
        """Every result with its effective score and board score, and the frequency tables per
        direction (N-S points, weight) that the matchpoints were made from."""
        board = self.get_object()
        results = list(selectors.traveller(board))
        tables = selectors.frequency_tables(results)
        return Response(
            TravellerSerializer(
                {
                    "board": board.number,
                    "dealer": board.dealer,
                    "vulnerability": board.vulnerability,
                    "recalculation_pending": board.scored_version < board.score_version,
                    "results": results,
                    "frequency": {
                        side: [{"score": points, "count": str(weight)} for points, weight in rows]
                        for side, rows in tables.items()
                    },
                }
            ).data
        )


class ResultFilter(filters.FilterSet):
    board = WholeNumberFilter(field_name="board_id")

    class Meta:
        model = Result
        fields = ["board"]


class ResultViewSet(
    ScopedViewSet, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, mixins.UpdateModelMixin
):
    queryset = Result.objects.order_by("board", "table")
    serializer_class = ResultSerializer
    scope = "board__session__event__tournament"
    filterset_class = ResultFilter

    @extend_schema(request=EffectiveScoreInputSerializer, responses={201: ScoreChangeSerializer})
    @action(detail=True, methods=["post"], url_path="effective-score", filter_backends=[])
    def effective_score(self, request, pk=None):
        """Set what the result counts for (an adjusted score of any kind, or back to the table
        result), with a reason; the change is logged and the recalculation scheduled."""
        result = self.get_object()
        policy.require(request.user, "write_record", result.board.session.event.tournament)
        data = EffectiveScoreInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        change = services.set_effective_score(result=result, by=request.user, **data.validated_data)
        context = {"unit": selectors.score_unit(result.board.session.event)}
        return Response(ScoreChangeSerializer(change, context=context).data, status=status.HTTP_201_CREATED)


class OfficialScorePostingViewSet(ScopedViewSet, mixins.ListModelMixin, mixins.CreateModelMixin):
    queryset = OfficialScorePosting.objects.order_by("posted_at")
    serializer_class = OfficialScorePostingSerializer
    scope = "session__event__tournament"


__all__ = ["tournament_of"]
