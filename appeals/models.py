"""Appeals against director rulings (Laws 92 and 93) and the further appeal (93C).

The database refuses what can never be right (a side appealing one ruling twice, a committee of
an even number, a member sitting twice on one body); the refusals a committee should read as a
sentence are in ``appeals.services``. Every step of a case is also logged as an ``AppealEvent``.
"""

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from appeals.reading import reading_for
from core.texts import render
from rulings.models import SIDE_CHOICES, Ruling
from scoring.models import Contestant, Player

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

OUTCOME_RANK = {"uphold": 0, "vary": 1, "overturn": 2}


class Outcome(models.TextChoices):
    UPHOLD = "uphold", _("Ruling upheld")
    VARY = "vary", _("Ruling varied")
    OVERTURN = "overturn", _("Ruling overturned")


class Appeal(models.Model):
    """One side's appeal against one ruling (or the director's referral of it, Law 83)."""

    class Origin(models.TextChoices):
        PLAYER = "player", _("Appeal by a contestant (Law 92A)")
        DIRECTOR = "director", _("Referral by the director (Law 83)")

    class State(models.TextChoices):
        LODGED = "lodged", _("Lodged with the director")
        CONSTITUTED = "constituted", _("Body constituted")
        SCHEDULED = "scheduled", _("Hearing scheduled")
        DECIDED = "decided", _("Decided")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        OUT_OF_TIME = "out_of_time", _("Not heard: lodged out of time (the body's decision)")

    OPEN_STATES = (State.LODGED, State.CONSTITUTED, State.SCHEDULED)

    ruling = models.ForeignKey(Ruling, on_delete=models.PROTECT, related_name="appeals", verbose_name=_("ruling"))
    number = models.PositiveIntegerField(_("number"), editable=False, help_text=_("Numbered per tournament."))
    origin = models.CharField(_("origin"), max_length=10, choices=Origin.choices, default=Origin.PLAYER)
    side = models.CharField(_("appealing side"), max_length=2, choices=SIDE_CHOICES, blank=True)
    appellant = models.ForeignKey(
        Contestant,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="appeals_made",
        verbose_name=_("appellant"),
    )
    lodged_by = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="appeals_lodged",
        verbose_name=_("lodged by (player)"),
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("recorded by (director)")
    )
    lodged_at = models.DateTimeField(_("lodged at"))
    deadline = models.DateTimeField(
        _("appeal deadline"),
        null=True,
        blank=True,
        help_text=_("Empty: the official score was not posted, the clock had not started."),
    )
    extension = models.ForeignKey(
        "DeadlineExtension",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="appeals",
        verbose_name=_("deadline extension used"),
    )
    decide_by = models.DateTimeField(
        _("to be decided by"), null=True, blank=True, help_text=_("The start of the event's next session.")
    )
    hear_at_once = models.BooleanField(_("heard at once (last session)"), default=False)
    state = models.CharField(_("state"), max_length=12, choices=State.choices, default=State.LODGED)
    grounds = models.TextField(_("grounds (appellants' words)"))
    respondents_statement = models.TextField(_("respondents' statement"), blank=True)
    statements_locked_at = models.DateTimeField(_("statements agreed and locked at"), null=True, blank=True)
    statements_agreed_by = models.ManyToManyField(
        Player, blank=True, related_name="+", verbose_name=_("statements agreed by")
    )
    withdrawal_requested_at = models.DateTimeField(_("withdrawal requested at"), null=True, blank=True)
    withdrawal_requested_by = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    withdrawal_reason = models.TextField(_("reason for withdrawing"), blank=True)
    outcome = models.CharField(_("decision"), max_length=10, choices=Outcome.choices, blank=True)
    reasons = models.TextField(_("reasons for the decision"), blank=True)
    score_kind = models.CharField(_("adjusted score"), max_length=12, choices=Ruling.ScoreKind.choices, blank=True)
    score = models.JSONField(_("adjusted score (engine form)"), null=True, blank=True)
    score_description = models.CharField(_("adjusted score in words"), max_length=300, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    without_merit = models.BooleanField(_("found without merit (Law 92A)"), default=False)
    without_merit_reasons = models.TextField(_("why without merit"), blank=True)
    sanction = models.CharField(_("sanction applied"), max_length=20, blank=True)
    # What the case did to the match and the standings as they stood when the body decided
    # (appeals/stake.py): kept from the body until then, recorded with its decision.
    effect_at_decision = models.JSONField(_("effect on the match and standings when decided"), null=True, blank=True)

    class Meta:
        verbose_name = _("appeal")
        verbose_name_plural = _("appeals")
        ordering = ["-lodged_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["ruling", "side"], condition=Q(origin="player"), name="one_appeal_per_ruling_and_side"
            ),
            models.UniqueConstraint(fields=["ruling"], condition=Q(origin="director"), name="one_referral_per_ruling"),
            models.CheckConstraint(
                condition=Q(origin="director") | (~Q(side="") & Q(appellant__isnull=False)),
                name="a_players_appeal_has_a_side",
            ),
            models.CheckConstraint(
                condition=Q(outcome="") | Q(state="decided"), name="only_decided_appeals_have_an_outcome"
            ),
            models.CheckConstraint(
                condition=Q(without_merit=False) | Q(outcome="uphold", origin="player"),
                name="only_upheld_appeals_lack_merit",
            ),
        ]

    def __str__(self):
        return _("Appeal %(number)s") % {"number": self.number}

    @property
    def tournament(self):
        return self.ruling.given_result.board.session.event.tournament

    @property
    def event(self):
        return self.ruling.given_result.board.session.event

    @property
    def is_open(self):
        return self.state in self.OPEN_STATES

    def body(self, stage="event"):
        return self.bodies.filter(stage=stage).first()

    def hearing(self):
        """The hearing the case waits for: the last one fixed (a later one replaces it)."""
        return self.hearings.order_by("-scheduled_at", "-pk").first()

    def decision_overdue(self, now=None):
        """The case is still open and its time to decide (``decide_by``) has passed: the chief
        director extends it, or the case is referred to the regulating authority (Law 93C)."""
        return self.is_open and self.decide_by is not None and self.decide_by <= (now or timezone.now())


class AppealPart(models.Model):
    """A question the appeal raises. With an appeals body (93B), a part solely about law or
    regulation is decided by the director in charge, the rest by the body; with none (93A) the
    director in charge decides everything."""

    class Kind(models.TextChoices):
        LAW = "law", _("Law or regulation (director in charge, Law 93B1)")
        JUDGEMENT = "judgement", _("Facts or judgement (appeals body)")

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="parts")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    question = models.TextField(_("question"))
    outcome = models.CharField(_("decision"), max_length=10, choices=Outcome.choices, blank=True)
    reasons = models.TextField(_("reasons"), blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    to_body = models.BooleanField(_("director's decision appealed to the body"), default=False)

    class Meta:
        verbose_name = _("part of an appeal")
        verbose_name_plural = _("parts of appeals")
        ordering = ["appeal", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(to_body=False) | Q(kind="law"), name="only_law_parts_go_up_to_the_body")
        ]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.question[:60]}"


class Concurrence(models.Model):
    """One player's agreement to the appeal (Law 92D)."""

    class How(models.TextChoices):
        LODGED = "lodged", _("Lodged the appeal")
        IN_PERSON = "in_person", _("Agreed in person")
        IN_WRITING = "in_writing", _("Agreed in writing or by message")
        DEEMED = "deemed", _("Absent, deemed to agree by regulation")

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="concurrences")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    how = models.CharField(_("how"), max_length=10, choices=How.choices)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        verbose_name = _("concurrence")
        verbose_name_plural = _("concurrences")
        ordering = ["appeal", "recorded_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["appeal", "player"], name="one_concurrence_per_player")]


class DeadlineExtension(models.Model):
    """The chief director lets a ruling be appealed after the appeal period, with a reason."""

    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, related_name="appeal_extensions")
    until = models.DateTimeField(_("appeals accepted until"))
    reason = models.TextField(_("reason"))
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    granted_at = models.DateTimeField()

    class Meta:
        verbose_name = _("deadline extension")
        verbose_name_plural = _("deadline extensions")
        ordering = ["ruling", "-until"]


class Stage(models.TextChoices):
    EVENT = "event", _("At the event (Law 93A/B)")
    FURTHER = "further", _("Further appeal to the regulating authority (Law 93C)")


class Deposit(models.Model):
    """Money the appellants lodge with an appeal; returned unless the appeal lacks merit."""

    class State(models.TextChoices):
        HELD = "held", _("Held")
        RETURNED = "returned", _("Returned")
        FORFEITED = "forfeited", _("Forfeited")

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="deposits")
    stage = models.CharField(_("stage"), max_length=10, choices=Stage.choices, default=Stage.EVENT)
    amount = models.DecimalField(_("amount"), max_digits=10, decimal_places=2)
    currency = models.CharField(_("currency"), max_length=3)
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.HELD)
    received_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    received_at = models.DateTimeField()
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    settled_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("deposit")
        verbose_name_plural = _("deposits")
        constraints = [
            models.UniqueConstraint(fields=["appeal", "stage"], name="one_deposit_per_stage"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="deposit_is_positive"),
        ]

    def __str__(self):
        return f"{self.amount} {self.currency} ({self.get_state_display()})"


class Body(models.Model):
    """Who hears a case: a committee, a single referee, a reviewer, a panel of directors, the
    director in charge alone (93A), or the regulating authority's body (93C)."""

    class Kind(models.TextChoices):
        COMMITTEE = "committee", _("Appeals committee")
        REFEREE = "referee", _("Single referee")
        REVIEWER = "reviewer", _("Reviewer (process and reasonableness only)")
        DIRECTOR_PANEL = "director_panel", _("Panel of directors")
        DIRECTOR_IN_CHARGE = "director_in_charge", _("Director in charge (Law 93A)")
        NATIONAL = "national", _("Regulating authority's appeals body (Law 93C)")

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="bodies")
    stage = models.CharField(_("stage"), max_length=10, choices=Stage.choices, default=Stage.EVENT)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    size = models.PositiveSmallIntegerField(_("members"))
    constituted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        verbose_name = _("appeals body")
        verbose_name_plural = _("appeals bodies")
        constraints = [
            models.UniqueConstraint(fields=["appeal", "stage"], name="one_body_per_stage"),
            models.CheckConstraint(condition=Q(size__in=[1, 3, 5, 7, 9]), name="a_body_has_an_odd_size"),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} ({self.appeal})"

    @property
    def is_director_in_charge(self):
        return self.kind == self.Kind.DIRECTOR_IN_CHARGE

    def sitting(self):
        """The members who sit: appointed and not recused."""
        return self.members.filter(recused_at__isnull=True)

    def missing(self):
        """Why the body cannot yet sit, in words; empty when it is constituted."""
        sitting = list(self.sitting().select_related("user"))
        reasons: list[str | StrPromise] = []
        if len(sitting) != self.size:
            reasons.append(_("%(n)s of %(size)s members appointed") % {"n": len(sitting), "size": self.size})
        for member in sitting:
            if member.declared_at is None:
                reasons.append(_("%(m)s has not declared any conflict of interest") % {"m": member})
            elif member.conflict:
                reasons.append(
                    _("%(m)s declared a conflict (%(c)s) and must recuse") % {"m": member, "c": member.conflict}
                )
        if self.size > 1 and not any(m.is_chair for m in sitting):
            reasons.append(_("no chair"))
        return [str(reason) for reason in reasons]

    @property
    def is_constituted(self):
        return not self.missing()


class BodyMember(models.Model):
    body = models.ForeignKey(Body, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="appeal_seats")
    is_chair = models.BooleanField(_("chair"), default=False)
    appointed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    appointed_at = models.DateTimeField()
    declared_at = models.DateTimeField(_("declared interests at"), null=True, blank=True)
    conflict = models.TextField(_("conflict declared"), blank=True, help_text=_("Empty: none."))
    recused_at = models.DateTimeField(_("recused at"), null=True, blank=True)
    recusal_reason = models.TextField(_("reason for recusal"), blank=True)
    vote = models.CharField(_("vote"), max_length=10, choices=Outcome.choices, blank=True)
    dissent = models.TextField(_("dissent"), blank=True)
    voted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("body member")
        verbose_name_plural = _("body members")
        ordering = ["body", "-is_chair", "appointed_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["body", "user"], name="a_member_sits_once"),
            models.UniqueConstraint(
                fields=["body"], condition=Q(is_chair=True, recused_at__isnull=True), name="one_sitting_chair"
            ),
            models.CheckConstraint(
                condition=Q(vote="") | Q(recused_at__isnull=True, conflict=""),
                name="only_sitting_members_without_conflict_vote",
            ),
        ]

    def __str__(self):
        return self.user.get_full_name() or self.user.get_username()


class Hearing(models.Model):
    class Mode(models.TextChoices):
        IN_PERSON = "in_person", _("In person")
        PHONE = "phone", _("By telephone")
        VIDEO = "video", _("By video")
        WRITTEN = "written", _("In writing")

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="hearings")
    body = models.ForeignKey(Body, on_delete=models.PROTECT, related_name="hearings")
    starts_at = models.DateTimeField(_("starts at"))
    mode = models.CharField(_("mode"), max_length=10, choices=Mode.choices, default=Mode.IN_PERSON)
    place = models.CharField(_("place or link"), max_length=200, blank=True)
    scheduled_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    scheduled_at = models.DateTimeField()
    director_present = models.BooleanField(_("ruling director present"), default=False)
    director_account = models.TextField(_("the ruling director's account"), blank=True)
    scribe = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("scribe"),
    )
    notes = models.TextField(_("scribe's notes"), blank=True)
    # The body sits before the time fixed (every side present, say): when, and why, in the record.
    sat_early_at = models.DateTimeField(_("sat early at"), null=True, blank=True)
    early_reason = models.TextField(_("why the body sat early"), blank=True)

    class Meta:
        verbose_name = _("hearing")
        verbose_name_plural = _("hearings")
        ordering = ["appeal", "starts_at"]

    def begun(self, now=None):
        """The body sits: the time fixed has come, or it sat early with a recorded reason."""
        return self.sat_early_at is not None or self.starts_at <= (now or timezone.now())


class Attendance(models.Model):
    hearing = models.ForeignKey(Hearing, on_delete=models.CASCADE, related_name="attendance")
    side = models.CharField(_("side"), max_length=2, choices=SIDE_CHOICES)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("attendance")
        verbose_name_plural = _("attendance")
        constraints = [models.UniqueConstraint(fields=["hearing", "player"], name="attends_once")]


class Recommendation(models.Model):
    """Where the body may not overrule the director in charge (law or regulation, Law 91), it
    recommends a change (Law 93B3); the director answers."""

    class About(models.TextChoices):
        LAW = "law", _("Law or regulation")
        DISCIPLINARY = "disciplinary", _("Disciplinary powers (Law 91)")

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="recommendations")
    about = models.CharField(_("about"), max_length=12, choices=About.choices)
    text = models.TextField(_("recommendation"))
    recommended_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recommended_at = models.DateTimeField()
    accepted = models.BooleanField(_("accepted"), null=True, blank=True)
    response = models.TextField(_("director's response"), blank=True)
    responded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    responded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("recommendation to the director")
        verbose_name_plural = _("recommendations to the director")
        ordering = ["appeal", "recommended_at"]


class AppealRequest(models.Model):
    """A player's request to appeal a ruling of their table, made on their own page. Players do
    not lodge: Law 92 has appeals made through the director, who turns the request into a lodged
    appeal (or declines it, saying why)."""

    class State(models.TextChoices):
        OPEN = "open", _("waiting for a director")
        LODGED = "lodged", _("lodged")
        DECLINED = "declined", _("declined")

    class About(models.TextChoices):
        JUDGEMENT = "judgement", _("judgement")
        LAW = "law", _("law or regulation")
        BOTH = "both", _("both")

    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, related_name="appeal_requests")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="appeal_requests")
    grounds = models.TextField(_("grounds"))
    about = models.CharField(_("about"), max_length=10, choices=About.choices, default=About.JUDGEMENT)
    requested_at = models.DateTimeField()
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.OPEN)
    appeal = models.ForeignKey("Appeal", on_delete=models.SET_NULL, null=True, blank=True, related_name="requests")
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    handled_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(_("note"), blank=True)

    class Meta:
        verbose_name = _("request to appeal")
        verbose_name_plural = _("requests to appeal")
        ordering = ["-requested_at"]


class Filing(models.Model):
    """Every paper a player hands in about a case (a request to appeal, an appeal, a memo),
    received, numbered and timed, never turned away at the desk: whether a late one is valid is
    for the body hearing the case to decide, with its reason (the sailing judges' practice, asked
    for by issue #44). The acknowledgement the filer gets is a stored text (appeals/texts.py),
    read in the language they filed in."""

    class Kind(models.TextChoices):
        REQUEST = "request", _("Request to appeal")
        APPEAL = "appeal", _("Appeal")
        MEMO = "memo", _("Player's memo")

    class Validity(models.TextChoices):
        IN_TIME = "in_time", _("In time")
        PENDING = "pending", _("Late: the body decides whether it is valid")
        VALID = "valid", _("Valid: the body's decision")
        INVALID = "invalid", _("Not valid: the body's decision")
        NO_PERIOD = "no_period", _("No time limit applies")

    tournament = models.ForeignKey(
        "scoring.Tournament", on_delete=models.PROTECT, related_name="filings", verbose_name=_("tournament")
    )
    number = models.PositiveIntegerField(_("number"), help_text=_("Numbered per tournament, in the order received."))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    ruling = models.ForeignKey(Ruling, on_delete=models.PROTECT, related_name="filings", verbose_name=_("ruling"))
    appeal = models.ForeignKey(
        Appeal, on_delete=models.SET_NULL, null=True, blank=True, related_name="filings", verbose_name=_("appeal")
    )
    request = models.OneToOneField(
        AppealRequest, on_delete=models.SET_NULL, null=True, blank=True, related_name="filing"
    )
    filer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="filings", verbose_name=_("filed by"))
    text = models.TextField(_("text (the filer's words)"))
    received_at = models.DateTimeField(_("received at"))
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("received by")
    )
    deadline = models.DateTimeField(_("deadline at receipt"), null=True, blank=True)
    validity = models.CharField(_("validity"), max_length=10, choices=Validity.choices)
    validity_reason = models.TextField(_("the body's reason"), blank=True)
    validity_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    validity_at = models.DateTimeField(null=True, blank=True)
    language = models.CharField(_("the filer's language"), max_length=10, choices=settings.LANGUAGES)
    acknowledgement_code = models.CharField(max_length=60)
    acknowledgement_params = models.JSONField(default=dict)
    # When the filer's copy of the acknowledgement was e-mailed (appeals.tasks), once.
    mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("filing")
        verbose_name_plural = _("filings")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_number_per_filing"),
            models.CheckConstraint(
                condition=Q(validity__in=["valid", "invalid"]) | Q(validity_reason=""),
                name="only_the_body_gives_a_reason_for_validity",
            ),
        ]

    def __str__(self):
        return _("Filing %(number)s") % {"number": self.number}

    @property
    def is_late(self):
        return self.validity in (self.Validity.PENDING, self.Validity.VALID, self.Validity.INVALID)

    def acknowledgement(self, language=None):
        """The acknowledgement in ``language`` (by default the one the filer filed in)."""
        from django.utils import translation

        with translation.override(language or self.language), reading_for(self.tournament):
            return render(self.acknowledgement_code, self.acknowledgement_params)

    @property
    def acknowledgement_read(self):
        """The acknowledgement in the reader's language, as a page shows it: the filer was given
        it in theirs (``language``), and the code and values say it in any."""
        from django.utils import translation

        return self.acknowledgement(translation.get_language())


class MeritWarning(models.Model):
    """An "appeal without merit" warning recorded against one player (ACBL's AWMW)."""

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="warnings")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="appeal_warnings")
    recorded_at = models.DateTimeField()

    class Meta:
        verbose_name = _("appeal-without-merit warning")
        verbose_name_plural = _("appeal-without-merit warnings")
        constraints = [models.UniqueConstraint(fields=["appeal", "player"], name="one_warning_per_appeal")]


class FurtherAppeal(models.Model):
    """An appeal (or a referral) to the regulating authority after the event's decision (93C)."""

    class Origin(models.TextChoices):
        PLAYER = "player", _("Appeal by a contestant")
        DIRECTOR = "director", _("Referral by the director")
        BODY = "body", _("Referral by the appeals body")

    class State(models.TextChoices):
        LODGED = "lodged", _("Lodged")
        DECIDED = "decided", _("Decided")

    appeal = models.OneToOneField(Appeal, on_delete=models.PROTECT, related_name="further")
    origin = models.CharField(_("origin"), max_length=10, choices=Origin.choices)
    side = models.CharField(_("side"), max_length=2, choices=SIDE_CHOICES, blank=True)
    lodged_by = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    lodged_at = models.DateTimeField()
    deadline = models.DateTimeField(null=True, blank=True)
    grounds = models.TextField(_("grounds"))
    binding = models.BooleanField(_("binding (not advisory)"))
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.LODGED)
    outcome = models.CharField(_("decision"), max_length=10, choices=Outcome.choices, blank=True)
    reasons = models.TextField(_("reasons"), blank=True)
    score_kind = models.CharField(max_length=12, choices=Ruling.ScoreKind.choices, blank=True)
    score = models.JSONField(null=True, blank=True)
    score_description = models.CharField(max_length=300, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("further appeal")
        verbose_name_plural = _("further appeals")
        constraints = [
            models.CheckConstraint(
                condition=~Q(origin="player") | ~Q(side=""), name="a_players_further_appeal_has_a_side"
            ),
        ]


class AppealEvent(models.Model):
    """One step of a case: what happened, who did it, when, and the state it left."""

    class Action(models.TextChoices):
        LODGED = "lodged", _("Appeal lodged")
        REFERRED = "referred", _("Referred by the director")
        CONCURRENCE = "concurrence", _("Concurrence recorded")
        STATEMENT = "statement", _("Statement recorded")
        STATEMENTS_LOCKED = "statements_locked", _("Statements agreed and locked")
        DEPOSIT_RECEIVED = "deposit_received", _("Deposit received")
        DEPOSIT_RETURNED = "deposit_returned", _("Deposit returned")
        DEPOSIT_FORFEITED = "deposit_forfeited", _("Deposit forfeited")
        WITHDRAWAL_REQUESTED = "withdrawal_requested", _("Withdrawal requested")
        WITHDRAWN = "withdrawn", _("Withdrawal accepted")
        VALIDITY = "validity", _("Validity of a late appeal decided by the body")
        MEMO = "memo", _("Player's memo received")
        BODY_CREATED = "body_created", _("Body formed")
        MEMBER_APPOINTED = "member_appointed", _("Member appointed")
        INTERESTS_DECLARED = "interests_declared", _("Interests declared")
        RECUSED = "recused", _("Member recused")
        CONSTITUTED = "constituted", _("Body constituted")
        HEARING_SCHEDULED = "hearing_scheduled", _("Hearing scheduled")
        SAT_EARLY = "sat_early", _("The body sat early")
        DECISION_TIME_EXTENDED = "decision_time_extended", _("Time to decide extended")
        ATTENDANCE = "attendance", _("Attendance recorded")
        HEARING_NOTES = "hearing_notes", _("Hearing record")
        VOTE = "vote", _("Vote recorded")
        LAW_PART_DECIDED = "law_part_decided", _("Law part decided by the director in charge")
        LAW_PART_TO_BODY = "law_part_to_body", _("Director's decision on law appealed to the body")
        DECIDED = "decided", _("Decided")
        WITHOUT_MERIT = "without_merit", _("Found without merit")
        RECOMMENDATION = "recommendation", _("Recommendation to the director")
        RECOMMENDATION_ANSWERED = "recommendation_answered", _("Director answered a recommendation")
        FURTHER_LODGED = "further_lodged", _("Further appeal lodged")
        FURTHER_DECIDED = "further_decided", _("Further appeal decided")

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="events")
    at = models.DateTimeField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    action = models.CharField(_("step"), max_length=30, choices=Action.choices)
    from_state = models.CharField(max_length=12, blank=True)
    to_state = models.CharField(max_length=12, blank=True)
    # As written (English for a coded note, a person's words otherwise), and what the note says
    # as a code and its values (appeals/texts.py), shown in the reader's language.
    note = models.TextField(blank=True)
    note_code = models.CharField(max_length=60, blank=True)
    note_params = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("appeal step")
        verbose_name_plural = _("appeal steps")
        ordering = ["appeal", "at", "pk"]

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()}"

    @property
    def text(self):
        """The note in the reader's language (a person's own words as written)."""
        return render(self.note_code, self.note_params, self.note)


class Notification(models.Model):
    """Something waiting for a person on a case (a body formed, a hearing fixed, a recommendation
    to answer, a decision published): listed on their appeals pages and e-mailed after the step
    commits, by a Celery task that retries while the mail server is down."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="appeal_notifications")
    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="notifications")
    text = models.TextField(_("text"))  # in English; code and params say it in any language
    code = models.CharField(max_length=60, blank=True)
    params = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField()
    mailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-pk"]

    @property
    def shown(self):
        """The notification in the reader's language, the body named in its authority's words."""
        with reading_for(self.appeal.tournament):
            return render(self.code, self.params, self.text)


class AuthorityTerm(models.Model):
    """A regulating authority's own word for a term, in one language: the national name of its
    appeals committee, say ("Commissie van Beroep"). Pages show it in place of the project's
    word through ``appeals.terms.term``; a language without one keeps the project's word."""

    authority = models.ForeignKey(
        "scoring.RegulatingAuthority",
        on_delete=models.CASCADE,
        related_name="terms",
        verbose_name=_("regulating authority"),
    )
    key = models.CharField(_("term"), max_length=30)
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES)
    text = models.CharField(_("text"), max_length=100)

    class Meta:
        verbose_name = _("authority's term")
        verbose_name_plural = _("authority's terms")
        ordering = ["authority", "key", "language"]
        constraints = [
            models.UniqueConstraint(fields=["authority", "key", "language"], name="one_text_per_term_and_language"),
        ]

    def __str__(self):
        return f"{self.authority}: {self.key} ({self.language}) = {self.text}"


class HallAddress(models.Model):
    """The address of a tournament's hall screen (``/hall/<token>/``, appeals/notice_board.py):
    its token is signed with the tournament and ``generation``. The chief director revokes an
    address handed out (``services.revoke_hall_address``): the generation moves on, the old
    address is refused with a message and the notice board gives the new one. A tournament with
    no row has its first address (generation 0)."""

    tournament = models.OneToOneField("scoring.Tournament", on_delete=models.CASCADE, related_name="hall_address")
    generation = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    def __str__(self):
        return f"{self.tournament}: hall address {self.generation}"
