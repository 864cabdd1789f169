"""The competition record: who plays, what was dealt, what happened at each table.

Constraints live here (the database refuses what can never be right); the checks a user
should read as a sentence live in ``clean()`` and in the services, which call ``full_clean()``.
"""

import re
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from bridge.engine.contract import ContractError, ns_score, parse_contract
from core import reader
from core.texts import shown
from scoring import authority_settings
from scoring.deadlines import deadline
from scoring.event_passes import EventPass  # noqa: F401  (its model, registered with the app)
from scoring.identity import ContestantIdentity
from scoring.kinds import EventKind, PenaltyUnit
from scoring.score_check_marks import FieldUpload, ScoreCheckAccepted, UploadFlag  # noqa: F401  (models)

SEAT_CHOICES = [("N", _("North")), ("E", _("East")), ("S", _("South")), ("W", _("West"))]
VULNERABILITY_CHOICES = [
    ("None", pgettext_lazy("vulnerability", "None")),
    ("NS", _("N-S")),
    ("EW", _("E-W")),
    ("All", pgettext_lazy("vulnerability", "All")),
]


def validate_time_zone(value):
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("'%(value)s' is not a time zone (write e.g. Europe/London)."), params={"value": value})


class RegulatingAuthority(models.Model):
    """A national body (or other regulating authority) whose regulations a tournament follows."""

    name = models.CharField(_("name"), max_length=200, unique=True)
    code = models.SlugField(_("code"), max_length=20, unique=True)
    country = models.CharField(_("country"), max_length=100, blank=True)
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES, default="en")
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC", validators=[validate_time_zone])

    class Meta:
        verbose_name = _("regulating authority")
        verbose_name_plural = _("regulating authorities")
        ordering = ["name"]

    def __str__(self):
        return self.name

    def settings_on(self, day=None):
        """Every setting as in force on ``day`` (today by default): the latest value dated on
        or before that day, else the default."""
        day = day or timezone.localdate()
        values = authority_settings.defaults()
        for setting in self.settings.filter(effective_from__lte=day).order_by("effective_from", "pk"):
            values[setting.key] = setting.value
        return values


class AuthoritySetting(models.Model):
    """One value of one regulation, in force from a date until a later value replaces it."""

    authority = models.ForeignKey(
        RegulatingAuthority, on_delete=models.CASCADE, related_name="settings", verbose_name=_("regulating authority")
    )
    key = models.CharField(
        _("setting"), max_length=50, choices=[(spec.key, spec.label) for spec in authority_settings.SPECS.values()]
    )
    # Blank allowed here; whether this setting may be empty is its spec's to say (clean()).
    value = models.JSONField(_("value"), blank=True)
    effective_from = models.DateField(_("applies from"))
    note = models.CharField(_("source or note"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("regulation setting")
        verbose_name_plural = _("regulation settings")
        ordering = ["authority", "key", "-effective_from"]
        constraints = [
            models.UniqueConstraint(
                fields=["authority", "key", "effective_from"], name="one_value_per_setting_and_date"
            ),
        ]

    def __str__(self):
        return f"{self.authority}: {self.key} = {self.value} ({self.effective_from})"

    def clean(self):
        authority = self.authority if self.authority_id else None
        self.value = authority_settings.clean_value(self.key, self.value, authority)


class Tournament(models.Model):
    authority = models.ForeignKey(
        RegulatingAuthority,
        on_delete=models.PROTECT,
        related_name="tournaments",
        verbose_name=_("regulating authority"),
    )
    name = models.CharField(_("name"), max_length=200)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    start_date = models.DateField(_("first day"))
    end_date = models.DateField(_("last day"))
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        blank=True,
        validators=[validate_time_zone],
        help_text=_("Leave empty to use the regulating authority's."),
    )
    kept_regulations = models.JSONField(_("regulations kept from before a correction"), default=dict, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gte=models.F("start_date")), name="tournament_ends_after_it_starts"
            ),
        ]

    def __str__(self):
        return self.name

    @property
    def zone(self):
        return zoneinfo.ZoneInfo(self.time_zone or self.authority.time_zone)

    def regulations(self):
        """The authority's settings in force on the first day, over them what a correction left it."""
        return self.authority.settings_on(self.start_date) | (self.kept_regulations or {})

    def clean(self):
        if self.start_date and self.end_date and self.end_date < self.start_date:
            raise ValidationError({"end_date": _("The last day is before the first day.")})


class TournamentOfficial(models.Model):
    """A user's role at one tournament: what they may see and do there."""

    class Role(models.TextChoices):
        DIRECTOR = "director", _("Director")
        CHIEF_DIRECTOR = "chief_director", _("Chief director")
        SCORER = "scorer", _("Scorer")
        APPEALS_MEMBER = "appeals_member", _("Appeals member")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="officials")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="officiating")
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)

    class Meta:
        verbose_name = _("tournament official")
        verbose_name_plural = _("tournament officials")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user", "role"], name="one_role_once_per_tournament"),
        ]

    def __str__(self):
        return f"{self.user} ({self.get_role_display()}, {self.tournament})"


class AuditorAssignment(models.Model):
    """A national auditor reads everything of the tournaments under one regulating authority."""

    authority = models.ForeignKey(RegulatingAuthority, on_delete=models.CASCADE, related_name="auditors")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="auditing")

    class Meta:
        verbose_name = _("national auditor")
        verbose_name_plural = _("national auditors")
        constraints = [models.UniqueConstraint(fields=["authority", "user"], name="one_auditor_assignment")]

    def __str__(self):
        return f"{self.user} ({self.authority})"


class VictoryPointScale(models.Model):
    """A regulating authority's own discrete VP scale (its 25-VP scale, say), entered as data
    from the publication it comes from: ``tables`` in the engine's format (bridge.engine.vp,
    ``parse_scale``). Chosen by the name "<authority code>:<name>" (``choice``) for the
    authority's ``vp_scale`` setting or an event's own; written only by
    ``services.add_vp_scale``, never changed (a corrected scale is a new one)."""

    authority = models.ForeignKey(
        RegulatingAuthority, on_delete=models.PROTECT, related_name="vp_scales", verbose_name=_("regulating authority")
    )
    name = models.SlugField(_("name"), max_length=40)
    source = models.TextField(_("source"))
    max_vp = models.DecimalField(_("most VPs"), max_digits=6, decimal_places=2)
    tables = models.JSONField(_("tables"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("victory-point scale")
        verbose_name_plural = _("victory-point scales")
        ordering = ["authority", "name"]
        constraints = [models.UniqueConstraint(fields=["authority", "name"], name="vp_scale_name_per_authority")]

    def __str__(self):
        return self.choice

    @property
    def choice(self):
        return f"{self.authority.code}:{self.name}"


class Event(models.Model):
    Kind = EventKind

    TEAM_KINDS = {Kind.TEAMS_ROUND_ROBIN, Kind.TEAMS_SWISS, Kind.KNOCKOUT_TEAMS}

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="events", verbose_name=_("tournament")
    )
    name = models.CharField(_("name"), max_length=200)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    # The event's own victory-point scale (services.set_event_vp_scale); empty: the authority's.
    vp_scale = models.CharField(_("victory-point scale"), max_length=70, blank=True)
    scoring_method = models.JSONField(_("scoring method of the program"), default=dict, blank=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["tournament", "name"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="event_name_unique")]

    def __str__(self):
        return f"{self.tournament}: {self.name}"

    @property
    def is_teams(self):
        return self.kind in self.TEAM_KINDS

    @property
    def scored_in_vps(self):
        return self.kind in authority_settings.VP_EVENT_KINDS

    def regulations(self):
        """The tournament's regulations under the program's ``scoring_method`` and the event's VP scale: ask here."""
        regs = {**self.tournament.regulations(), **(self.scoring_method or {})}
        if self.vp_scale:
            regs["vp_scale"] = self.vp_scale
        return regs

    @property
    def contestant_kind(self):
        if self.is_teams:
            return Contestant.Kind.TEAM
        if self.kind == self.Kind.INDIVIDUAL:
            return Contestant.Kind.INDIVIDUAL
        return Contestant.Kind.PAIR


class Session(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="sessions", verbose_name=_("event"))
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=100, blank=True)
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    is_last = models.BooleanField(_("last session of the event"), default=False)

    class Meta:
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="session_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="session_number_positive"),
        ]

    def __str__(self):
        return self.name or _("Session %(number)s") % {"number": self.number}

    @property
    def official_score_at(self):
        """When the official score was last made available (the Law 79C, 92B clocks start); None before."""
        posting = self.score_postings.filter(checkable=True).order_by("-posted_at").first()
        return posting.posted_at if posting else None

    def appeal_deadline(self):
        return self._deadline("appeal")

    def correction_deadline(self):
        return self._deadline("correction")

    def _deadline(self, period):
        posted = self.official_score_at  # the regulations are read only once the clock runs
        return None if posted is None else deadline(posted, self.event.tournament.regulations(), period)


class OfficialScorePosting(models.Model):
    """Each time a session's official score was made available for inspection."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="score_postings")
    posted_at = models.DateTimeField(_("made available at"))
    posted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    note = models.CharField(_("note"), max_length=300, blank=True)
    shows = models.CharField(_("visible to every player"), max_length=20, default="full_travellers")
    checkable = models.BooleanField(_("made available for checking"), default=True)  # scoring.deadlines

    class Meta:
        verbose_name = _("official score posting")
        verbose_name_plural = _("official score postings")
        ordering = ["session", "posted_at"]


class Section(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="sections")
    name = models.CharField(_("name"), max_length=20)

    class Meta:
        verbose_name = _("section")
        verbose_name_plural = _("sections")
        ordering = ["session", "name"]
        constraints = [models.UniqueConstraint(fields=["session", "name"], name="section_name_unique")]

    def __str__(self):
        return self.name


class Round(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self):
        return _("Round %(number)s") % {"number": self.number}


class Table(models.Model):
    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("number"))

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["section", "number"]
        constraints = [
            models.UniqueConstraint(fields=["section", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self):
        return _("Table %(number)s") % {"number": self.number}


class Player(models.Model):
    authority = models.ForeignKey(
        RegulatingAuthority, on_delete=models.PROTECT, related_name="players", verbose_name=_("national body")
    )
    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100)
    membership_number = models.CharField(_("membership number"), max_length=30)
    club = models.CharField(_("club"), max_length=200, blank=True)
    masterpoint_rank = models.CharField(_("masterpoint rank"), max_length=100, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="player"
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["last_name", "first_name"]
        constraints = [
            models.UniqueConstraint(fields=["authority", "membership_number"], name="membership_number_unique"),
        ]

    def __str__(self):
        return f"{self.first_name} {self.last_name}"


class Contestant(ContestantIdentity):
    """A pair, a team or an individual entered in one event (section, direction: scoring/identity.py)."""

    class Kind(models.TextChoices):
        PAIR = "pair", _("Pair")
        TEAM = "team", _("Team")
        INDIVIDUAL = "individual", _("Individual")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="contestants")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    number = models.PositiveIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=200, blank=True)
    members = models.ManyToManyField(Player, related_name="entries", verbose_name=_("members"))
    captain = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="captaincies", verbose_name=_("captain")
    )

    class Meta:
        verbose_name = _("contestant")
        verbose_name_plural = _("contestants")
        ordering = ["event", "section", "number", "-direction"]
        constraints = [
            models.UniqueConstraint(fields=["event", "section", "direction", "number"], name="contestant_identity"),
            models.CheckConstraint(condition=Q(captain__isnull=True) | Q(kind="team"), name="only_teams_have_captains"),
            models.CheckConstraint(condition=Q(direction__in=["", "NS", "EW"]), name="contestant_direction_known"),
        ]

    def __str__(self):
        return f"{self.label} {self.name}" if self.name else self.label


class Board(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField(_("number"))
    dealer = models.CharField(_("dealer"), max_length=1, choices=SEAT_CHOICES)
    vulnerability = models.CharField(_("vulnerability"), max_length=4, choices=VULNERABILITY_CHOICES)
    deal = models.CharField(
        _("deal (PBN)"),
        max_length=80,
        blank=True,
        help_text=_("N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"),
    )
    # Every change to a result of the board bumps score_version; the recalculation records the
    # version it computed in scored_version. A task that finds them equal has nothing to do.
    score_version = models.PositiveIntegerField(default=0, editable=False)
    scored_version = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        verbose_name = _("board")
        verbose_name_plural = _("boards")
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="board_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="board_number_positive"),
            models.CheckConstraint(condition=Q(dealer__in=["N", "E", "S", "W"]), name="board_dealer_is_a_seat"),
            models.CheckConstraint(
                condition=Q(vulnerability__in=["None", "NS", "EW", "All"]), name="board_vulnerability_known"
            ),
        ]

    def __str__(self):
        return _("Board %(number)s") % {"number": self.number}

    def clean(self):
        if self.deal:
            from bridge.deals import DealError, parse_deal
            from core.i18n import translate

            try:
                self.deal = parse_deal(self.deal).to_pbn()
            except DealError as error:
                raise ValidationError({"deal": translate(error)}) from None


class Match(models.Model):
    """A team match: home and away meet at two tables, the open and the closed room."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    home = models.ForeignKey(Contestant, on_delete=models.PROTECT, related_name="home_matches")
    away = models.ForeignKey(Contestant, on_delete=models.PROTECT, related_name="away_matches")
    open_room = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="open_room_matches")
    closed_room = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="closed_room_matches")

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["round", "open_room"]
        constraints = [
            models.CheckConstraint(condition=~Q(home=models.F("away")), name="match_between_two_teams"),
            models.CheckConstraint(condition=~Q(open_room=models.F("closed_room")), name="match_has_two_rooms"),
            models.UniqueConstraint(fields=["round", "open_room"], name="one_match_per_open_room"),
            models.UniqueConstraint(fields=["round", "closed_room"], name="one_match_per_closed_room"),
        ]

    def __str__(self):
        return f"{self.home} - {self.away}"


class MatchPenalty(models.Model):
    """A procedural penalty (Law 90) against one team in one match: in VPs, taken off the team's
    VPs after the conversion, or in IMPs, taken off the team's IMP margin before it (the
    authority's ``team_penalty_units`` says which). It is never given to the opponents. A
    withdrawn penalty stays in the record and counts no more."""

    Unit = PenaltyUnit

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="penalties", verbose_name=_("match"))
    team = models.ForeignKey(
        Contestant, on_delete=models.PROTECT, related_name="match_penalties", verbose_name=_("team")
    )
    amount = models.DecimalField(_("amount"), max_digits=6, decimal_places=2)
    unit = models.CharField(_("unit"), max_length=4, choices=Unit.choices)
    offence = models.CharField(_("offence"), max_length=300)
    given_at = models.DateTimeField(_("given at"), default=timezone.now)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    withdrawal_reason = models.CharField(_("reason for the withdrawal"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("match penalty")
        verbose_name_plural = _("match penalties")
        ordering = ["given_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="match_penalty_above_zero"),
        ]

    def __str__(self):
        return f"{self.team}: -{reader.number(self.amount)} {self.get_unit_display()} ({self.offence})"


_LEAD_RE = re.compile(r"^[SHDC](?:[AKQJT98765432]|10)$")


class Result(models.Model):
    """What happened when one board was played at one table in one round."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="results", verbose_name=_("board"))
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="results", verbose_name=_("round"))
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="results", verbose_name=_("table"))
    ns = models.ForeignKey(Contestant, on_delete=models.PROTECT, related_name="results_as_ns", verbose_name=_("N-S"))
    ew = models.ForeignKey(Contestant, on_delete=models.PROTECT, related_name="results_as_ew", verbose_name=_("E-W"))
    not_played = models.BooleanField(_("not played"), default=False)
    contract = models.CharField(_("contract"), max_length=6, blank=True)
    declarer = models.CharField(_("declarer"), max_length=1, choices=SEAT_CHOICES, blank=True)
    tricks = models.PositiveSmallIntegerField(_("tricks"), null=True, blank=True)
    lead = models.CharField(_("opening lead"), max_length=3, blank=True)
    score_ns = models.IntegerField(_("N-S score"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("result")
        verbose_name_plural = _("results")
        ordering = ["board", "table"]
        constraints = [
            models.UniqueConstraint(fields=["board", "table"], name="board_once_per_table"),
            models.UniqueConstraint(fields=["board", "ns"], name="board_once_per_ns_contestant"),
            models.UniqueConstraint(fields=["board", "ew"], name="board_once_per_ew_contestant"),
            models.CheckConstraint(condition=~Q(ns=models.F("ew")), name="result_between_two_contestants"),
            models.CheckConstraint(condition=Q(tricks__isnull=True) | Q(tricks__lte=13), name="tricks_at_most_13"),
            models.CheckConstraint(condition=Q(declarer__in=["", "N", "E", "S", "W"]), name="declarer_is_a_seat"),
            models.CheckConstraint(
                condition=Q(not_played=True, contract="", score_ns__isnull=True)
                | Q(not_played=False, score_ns__isnull=False),
                name="played_results_have_a_score",
            ),
        ]

    def __str__(self):
        return f"{self.board} {self.table}: {self.contract_display}"

    @property
    def contract_display(self):
        if self.not_played:
            return _("not played")
        if self.contract == "PASS":
            return _("passed out")
        return f"{self.contract} {self.declarer} {self.result_display}"

    @property
    def result_display(self):
        if self.tricks is None or not self.contract or self.contract == "PASS":
            return ""
        needed = parse_contract(self.contract).level + 6
        over = self.tricks - needed
        return "=" if over == 0 else f"{over:+d}"

    def full_clean(self, exclude=None, validate_unique=True, validate_constraints=True):
        # Constraints are checked once the fields make sense: a refused trick count is reported so, not as no score.
        super().full_clean(exclude, validate_unique, validate_constraints=False)
        if validate_constraints:
            self.validate_constraints(exclude)

    def clean(self):
        errors: dict[str, object] = {}
        if self.ns_id and self.ns_id == self.ew_id:
            errors["ew"] = _("The same contestant cannot sit both N-S and E-W.")
        if self.board_id and self.round_id and self.board.session_id != self.round.session_id:
            errors["round"] = _("The round belongs to another session than the board.")
        if self.board_id and self.table_id and self.board.session_id != self.table.section.session_id:
            errors["table"] = _("The table belongs to another session than the board.")
        for field in ("ns", "ew"):
            contestant = getattr(self, field, None) if getattr(self, f"{field}_id") else None
            if contestant and self.board_id and contestant.event_id != self.board.session.event_id:
                errors[field] = _("Contestant %(c)s is not entered in this event.") % {"c": contestant}
        if self.lead and not _LEAD_RE.match(self.lead.upper()):
            errors["lead"] = _("'%(lead)s' is not a card: write the suit then the rank, e.g. SQ or H10.") % {
                "lead": self.lead
            }
        if self.not_played:
            if self.contract or self.declarer or self.tricks is not None:
                errors["contract"] = _("A board marked not played has no contract, declarer or tricks.")
            self.score_ns = None
        else:
            self._score_contract(errors)
        if errors:
            raise ValidationError(errors)

    def _score_contract(self, errors):
        try:
            contract = parse_contract(self.contract)
        except ContractError as error:
            from core.i18n import translate

            errors["contract"] = translate(error.message)
            return
        self.contract = str(contract)
        if contract.passed_out:
            if self.declarer or self.tricks is not None:
                errors["declarer"] = _("A passed-out board has no declarer and no tricks.")
            self.declarer, self.tricks, self.score_ns = "", None, 0
            return
        if self.declarer not in {"N", "E", "S", "W"}:
            errors["declarer"] = _("'%(d)s' is not at the table: the declarer is N, E, S or W.") % {"d": self.declarer}
            return
        if self.tricks is None or not 0 <= self.tricks <= 13:
            errors["tricks"] = _("%(t)s tricks: declarer takes 0 to 13 tricks.") % {"t": self.tricks}
            return
        if self.board_id:
            self.score_ns = ns_score(contract, self.declarer, self.tricks, self.board.vulnerability)


class Adjustment(models.TextChoices):
    TABLE = "table", _("table result")
    ASSIGNED = "assigned", _("assigned adjusted score")
    WEIGHTED = "weighted", _("weighted score")
    SPLIT = "split", _("split score")
    ARTIFICIAL = "artificial", _("artificial adjusted score")
    REDRESS = "redress", _("redress after a serious error")
    IMPS = "imps", _("adjusted score in IMPs (Law 86D)")


class EffectiveScore(models.Model):
    """What a result counts for beyond its table score: an adjusted score of any kind, in the engine's JSON
    form (``{"ns": ..., "ew": ...}``; docs/scoring.md), and any procedural penalties. One per result at most."""

    result = models.OneToOneField(Result, on_delete=models.CASCADE, related_name="effective")
    kind = models.CharField(_("kind"), max_length=12, choices=Adjustment.choices)
    score = models.JSONField(_("score"), null=True, blank=True)
    penalty = models.JSONField(
        _("procedural penalties"), null=True, blank=True, help_text=_('{"ns": 1.5, "ew": 0}, in the event\'s units')
    )
    outside_agency = models.BooleanField(_("outside agency caused the problem"), default=False)
    description = models.CharField(_("description"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("effective score")
        verbose_name_plural = _("effective scores")


class ScoreChange(models.Model):
    """Every change to a result's effective score, its cause, and (once scored) what it did to each side's board score."""

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="score_changes")
    changed_at = models.DateTimeField(_("changed at"), default=timezone.now)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    old_kind = models.CharField(max_length=12, choices=Adjustment.choices)
    old_value = models.JSONField(null=True)
    old_description = models.CharField(max_length=300)
    new_kind = models.CharField(max_length=12, choices=Adjustment.choices)
    new_value = models.JSONField(null=True)
    new_description = models.CharField(max_length=300)
    reason = models.TextField(_("reason"))
    cause_type = models.CharField(_("cause"), max_length=30, blank=True, help_text=_("ruling, decision, correction"))
    cause_id = models.PositiveBigIntegerField(null=True, blank=True)
    cause_label = models.CharField(max_length=100, blank=True)
    board_version = models.PositiveIntegerField()
    ns_before = models.DecimalField(max_digits=12, decimal_places=4, null=True)
    ew_before = models.DecimalField(max_digits=12, decimal_places=4, null=True)
    ns_after = models.DecimalField(max_digits=12, decimal_places=4, null=True)
    ew_after = models.DecimalField(max_digits=12, decimal_places=4, null=True)

    class Meta:
        verbose_name = _("score change")
        verbose_name_plural = _("score changes")
        ordering = ["changed_at", "pk"]
        indexes = [models.Index(fields=["cause_type", "cause_id"])]

    @property
    def reason_text(self):
        """The reason in the reader's language where a service wrote it (a person's words as written)."""
        return shown(self.reason, "score_reason")

    def explain(self, side="NS", unit=None):
        """The change in words, for one side: "Board 14: 4S N = +420 replaced by weighted 60%
        +420 / 40% -50 by ruling 17, 12.5 -> 9.3 MP"."""
        from scoring.texts import explain_change

        return explain_change(self, side, unit, html=False)

    def explain_html(self, side="NS", unit=None):
        """:meth:`explain` as safe HTML for a page: every score, contract, percentage and the
        scores before and after isolated left to right, so a right-to-left sentence keeps them
        in order (the plain text is for CSV and the API)."""
        from scoring.texts import explain_change

        return explain_change(self, side, unit, html=True)


class RecalculationRequest(models.Model):
    """Written in the same transaction as the change that makes a board's scores stale, so a
    broker that is down loses nothing: the sweep re-enqueues whatever no worker finished."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="recalculation_requests")
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["finished_at", "enqueued_at"])]


class BoardScore(models.Model):
    """A result's score on its board for each direction: matchpoints in pairs events, IMPs in
    IMP pairs events. Written only by the recalculation, never by hand."""

    result = models.OneToOneField(Result, on_delete=models.CASCADE, related_name="board_score")
    ns = models.DecimalField(max_digits=12, decimal_places=4, null=True)
    ew = models.DecimalField(max_digits=12, decimal_places=4, null=True)
    ns_exact = models.CharField(max_length=40, blank=True)
    ew_exact = models.CharField(max_length=40, blank=True)
    ns_percent = models.DecimalField(max_digits=7, decimal_places=3, null=True)
    ew_percent = models.DecimalField(max_digits=7, decimal_places=3, null=True)
    top = models.DecimalField(max_digits=12, decimal_places=4, null=True)
    # What the session rule (Law 12C2c) needs: the kind of score each side had (real, fixed,
    # AVE+, AVE, AVE-), its matchpoints before any procedural penalty, and the penalty.
    ns_kind = models.CharField(max_length=5, default="real")
    ew_kind = models.CharField(max_length=5, default="real")
    ns_raw = models.CharField(max_length=40, blank=True)
    ew_raw = models.CharField(max_length=40, blank=True)
    ns_penalty = models.CharField(max_length=40, blank=True)
    ew_penalty = models.CharField(max_length=40, blank=True)
    board_version = models.PositiveIntegerField(default=0)


class MatchScore(models.Model):
    """A team match's IMPs and victory points; ``boards`` keeps each board's IMPs."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="score")
    home_imps = models.DecimalField(max_digits=10, decimal_places=4)
    away_imps = models.DecimalField(max_digits=10, decimal_places=4)
    # Empty when the event's VP scale has no table for the match's number of boards
    # (``unscaled_boards``): the match counts for no VPs until the scale is changed.
    home_vp = models.DecimalField(max_digits=7, decimal_places=2, null=True)
    away_vp = models.DecimalField(max_digits=7, decimal_places=2, null=True)
    unscaled_boards = models.PositiveSmallIntegerField(null=True, blank=True)
    boards = models.JSONField(default=list)
    # The match penalties in force (MatchPenalty): the IMPs come off the team's margin before
    # the conversion, the VPs off its VPs after; home_vp and away_vp are net of both.
    home_imp_penalty = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    away_imp_penalty = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    home_vp_penalty = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    away_vp_penalty = models.DecimalField(max_digits=8, decimal_places=2, default=0)


class Standing(models.Model):
    """A contestant's total and place, in a session or (``session`` empty) the whole event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, null=True, blank=True, related_name="standings")
    contestant = models.ForeignKey(Contestant, on_delete=models.CASCADE, related_name="standings")
    total = models.DecimalField(max_digits=12, decimal_places=4)
    total_exact = models.CharField(max_length=60, blank=True)
    top = models.DecimalField(max_digits=12, decimal_places=4, null=True)
    percent = models.DecimalField(max_digits=7, decimal_places=3, null=True)
    # In a Mitchell movement the N-S and the E-W pairs are two fields, ranked apart.
    field = models.CharField(
        max_length=2, blank=True, choices=[("", _("one field")), ("NS", _("N-S")), ("EW", _("E-W"))]
    )
    position = models.PositiveIntegerField()
    place = models.CharField(max_length=10)
    boards = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["event", "session", "field", "position", "contestant__number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "session", "contestant"], name="one_standing_per_window"),
            models.UniqueConstraint(
                fields=["event", "contestant"], condition=Q(session__isnull=True), name="one_event_standing"
            ),
        ]
