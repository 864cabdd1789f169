"""Director rulings (Laws 81-91): the record an appeals body or a national body can judge
months later without asking anyone."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.models import SEAT_CHOICES, RegulatingAuthority, Result

SIDE_CHOICES = [("NS", _("N-S")), ("EW", _("E-W"))]


class LawEntry(models.Model):
    """One law or sub-section of one edition of the Laws, with its titles."""

    edition = models.CharField(_("edition"), max_length=4, choices=[("1997", "1997"), ("2007", "2007"),
                                                                     ("2017", "2017")])
    number = models.CharField(_("citation"), max_length=12, help_text=_("e.g. 12C1c"))
    law = models.PositiveSmallIntegerField(_("law"))
    parent = models.CharField(_("parent"), max_length=12, blank=True)
    title = models.CharField(_("title (English)"), max_length=200)
    titles = models.JSONField(_("titles by language"), default=dict)
    verified = models.BooleanField(_("checked against the printed text"), default=False)

    class Meta:
        verbose_name = _("law")
        verbose_name_plural = _("law catalogue")
        ordering = ["edition", "law", "number"]
        constraints = [models.UniqueConstraint(fields=["edition", "number"], name="law_once_per_edition")]

    def __str__(self):
        return f"{_('Law')} {self.number} ({self.edition}): {self.title_in()}"

    def title_in(self, language=None):
        from django.utils.translation import get_language

        language = (language or get_language() or "en")[:2]
        return self.titles.get(language) or self.title


class RegulationClause(models.Model):
    """A clause of a regulating authority's own regulations that a ruling may cite (e.g. the
    Ukrainian rules' "Правило 40")."""

    authority = models.ForeignKey(RegulatingAuthority, on_delete=models.CASCADE, related_name="regulation_clauses")
    document = models.CharField(_("regulation"), max_length=200)
    clause = models.CharField(_("clause"), max_length=30)
    text = models.TextField(_("text"), blank=True)

    class Meta:
        verbose_name = _("regulation clause")
        verbose_name_plural = _("regulation clauses")
        constraints = [models.UniqueConstraint(fields=["authority", "document", "clause"],
                                               name="regulation_clause_unique")]

    def __str__(self):
        return f"{self.document} {self.clause}"


class Ruling(models.Model):
    class Kind(models.TextChoices):
        LAW_APPLIED = "law_applied", _("Facts agreed, law applied (Law 84)")
        FACTS_DISPUTED = "facts_disputed", _("Facts disputed (Law 85)")
        ADJUSTED_SCORE = "adjusted_score", _("Adjusted score (Law 12)")
        UNAUTHORISED_INFORMATION = "ui", _("Unauthorised information (Laws 16, 73)")
        MISINFORMATION = "mi", _("Misinformation (Laws 20, 21, 40, 75)")
        REVOKE = "revoke", _("Revoke (Laws 61-64)")
        CLAIM = "claim", _("Claim or concession (Laws 68-71)")
        FOULED_BOARD = "fouled_board", _("Fouled board (Law 87)")
        DIRECTORS_ERROR = "directors_error", _("Director's error (Law 82C)")
        PROCEDURAL_PENALTY = "procedural_penalty", _("Procedural penalty (Law 90)")
        DISCIPLINARY_PENALTY = "disciplinary_penalty", _("Disciplinary penalty (Law 91)")

    class State(models.TextChoices):
        DRAFT = "draft", _("Draft")
        GIVEN = "given", _("Given at the table")
        FINAL = "final", _("Final (appeal period passed)")
        UNDER_APPEAL = "under_appeal", _("Under appeal")
        CHANGED_BY_APPEAL = "changed_by_appeal", _("Changed by an appeal decision")

    class Outcome(models.TextChoices):
        RESULT_STANDS = "result_stands", _("Result stands")
        RECTIFICATION = "rectification", _("Rectification applied")
        ADJUSTED = "adjusted", _("Adjusted score")

    class ScoreKind(models.TextChoices):
        ASSIGNED = "assigned", _("Assigned adjusted score")
        WEIGHTED = "weighted", _("Weighted score (Law 12C1c)")
        SPLIT = "split", _("Split score")
        ARTIFICIAL = "artificial", _("Artificial adjusted score (Law 12C2)")
        REDRESS = "redress", _("Redress after a serious error (Law 12C1b)")

    class AppealNotice(models.TextChoices):
        NOT_YET = "", _("Not yet")
        GIVEN = "given", _("Players told of the right to appeal (Law 83)")
        REFERRED = "referred", _("Referred to the appeals body by the director (Law 83)")

    result = models.ForeignKey(Result, on_delete=models.PROTECT, related_name="rulings", verbose_name=_("result"))
    number = models.PositiveIntegerField(_("number"), editable=False,
                                         help_text=_("Numbered per tournament, in the order rulings are made."))
    kind = models.CharField(_("kind of ruling"), max_length=24, choices=Kind.choices)
    state = models.CharField(_("state"), max_length=20, choices=State.choices, default=State.DRAFT)
    called_by = models.CharField(_("director called by"), max_length=1, choices=SEAT_CHOICES, blank=True)
    called_at = models.DateTimeField(_("director called at"), null=True, blank=True)
    screens = models.BooleanField(_("screens in use"), default=False)
    bidding_boxes = models.BooleanField(_("bidding boxes in use"), default=True)
    tray_delay_seconds = models.PositiveSmallIntegerField(_("tray delay (seconds)"), null=True, blank=True)
    noticed_by = models.CharField(_("delay noticed by"), max_length=2, choices=SIDE_CHOICES, blank=True)
    facts_agreed = models.BooleanField(_("facts agreed by both sides"), default=True)
    facts = models.TextField(_("facts"), blank=True)
    statement_ns = models.TextField(_("N-S statement"), blank=True)
    statement_ew = models.TextField(_("E-W statement"), blank=True)
    facts_found = models.TextField(_("facts as found by the director"), blank=True)
    facts_not_established = models.BooleanField(_("facts not established"), default=False)
    ruling_text = models.TextField(_("ruling"), blank=True)
    reasoning = models.TextField(_("reasoning"), blank=True)
    director = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rulings",
                                 verbose_name=_("director"))
    colleagues_consulted = models.CharField(_("colleagues consulted"), max_length=300, blank=True)
    poll = models.JSONField(_("poll of players"), null=True, blank=True,
                            help_text=_('{"players": 5, "level": "expert", "choices": ["pass", "pass", "3S"]}'))
    appeal_notice = models.CharField(_("right to appeal"), max_length=10, choices=AppealNotice.choices, blank=True)
    appeal_notice_at = models.DateTimeField(_("told of the right to appeal at"), null=True, blank=True)
    outcome = models.CharField(_("outcome"), max_length=16, choices=Outcome.choices, blank=True)
    rectification = models.TextField(_("rectification"), blank=True)
    offending_side = models.CharField(_("offending side"), max_length=2, choices=SIDE_CHOICES, blank=True)
    score_kind = models.CharField(_("adjusted score"), max_length=12, choices=ScoreKind.choices, blank=True)
    score = models.JSONField(_("adjusted score (engine form)"), null=True, blank=True)
    score_description = models.CharField(_("adjusted score in words"), max_length=300, blank=True)
    deal = models.CharField(_("deal (PBN)"), max_length=80, blank=True,
                            help_text=_("Empty: the board's deal."))
    auction = models.JSONField(_("auction, lead, play and claim"), null=True, blank=True)
    seating = models.JSONField(_("who sat where"), null=True, blank=True,
                               help_text=_('Player ids by seat: {"N": 12, "E": 14, "S": 13, "W": 15}. '
                                           "Casebooks use it to say North rather than a N-S player."))
    double_dummy = models.JSONField(_("double-dummy tricks and par"), null=True, blank=True, editable=False)
    double_dummy_error = models.CharField(_("why the solver could not take the deal"), max_length=300,
                                          blank=True, editable=False)
    created_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    given_at = models.DateTimeField(_("given at"), null=True, blank=True)
    updated_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(outcome="adjusted") | Q(score__isnull=True),
                                   name="only_adjusted_rulings_carry_a_score"),
            models.CheckConstraint(condition=Q(tray_delay_seconds__isnull=True) | Q(screens=True),
                                   name="tray_delay_only_with_screens"),
        ]

    def __str__(self):
        return _("Ruling %(number)s") % {"number": self.number}

    @property
    def board(self):
        return self.result.board

    @property
    def session(self):
        return self.result.board.session

    @property
    def tournament(self):
        return self.result.board.session.event.tournament

    def deal_pbn(self):
        return self.deal or self.result.board.deal

    def clean(self):
        super().clean()
        if self.seating:
            self._check_seating()

    def _check_seating(self):
        """Each seat holds a member of the contestant sitting on that side of this table."""
        if not isinstance(self.seating, dict) or set(self.seating) - set("NESW"):
            raise ValidationError({"seating": _('must look like {"N": 12, "E": 14, "S": 13, "W": 15} (player ids)')})
        sides = {"N": self.result.ns, "S": self.result.ns, "E": self.result.ew, "W": self.result.ew}
        for seat, player in self.seating.items():
            contestant = sides[seat]
            if not contestant.members.filter(pk=player).exists():
                raise ValidationError({"seating": _("player %(player)s is not a member of %(contestant)s, "
                                                    "who sat %(side)s") % {
                    "player": player, "contestant": contestant,
                    "side": _("North-South") if seat in "NS" else _("East-West")}})
        if len(set(self.seating.values())) != len(self.seating):
            raise ValidationError({"seating": _("one player is given two seats")})

    def correction_deadline(self):
        return self.session.correction_deadline()

    def appeal_deadline(self):
        return self.session.appeal_deadline()


class RulingCitation(models.Model):
    """A law (of the edition in force) or a regulation clause that a ruling relies on."""

    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, related_name="citations")
    law = models.ForeignKey(LawEntry, on_delete=models.PROTECT, null=True, blank=True, related_name="citations")
    regulation = models.ForeignKey(RegulationClause, on_delete=models.PROTECT, null=True, blank=True,
                                   related_name="citations")

    class Meta:
        verbose_name = _("citation")
        verbose_name_plural = _("citations")
        constraints = [
            models.CheckConstraint(condition=Q(law__isnull=False, regulation__isnull=True)
                                   | Q(law__isnull=True, regulation__isnull=False),
                                   name="citation_is_a_law_or_a_regulation"),
            models.UniqueConstraint(fields=["ruling", "law"], name="law_cited_once"),
        ]

    def __str__(self):
        return str(self.law or self.regulation)


class Penalty(models.Model):
    """A procedural (Law 90) or disciplinary (Law 91) penalty given with a ruling."""

    class Kind(models.TextChoices):
        PROCEDURAL = "procedural", _("Procedural penalty (Law 90)")
        DISCIPLINARY = "disciplinary", _("Disciplinary penalty (Law 91)")

    class Unit(models.TextChoices):
        MATCHPOINTS = "mp", _("matchpoints")
        PERCENT_OF_TOP = "pct", _("percent of a top")
        IMPS = "imps", _("IMPs")
        VPS = "vps", _("VPs")
        SUSPENSION = "suspension", _("suspension from the session")
        DISQUALIFICATION = "disqualification", _("disqualification")

    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, related_name="penalties")
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    side = models.CharField(_("side"), max_length=2, choices=SIDE_CHOICES)
    amount = models.DecimalField(_("amount"), max_digits=8, decimal_places=2, null=True, blank=True)
    unit = models.CharField(_("unit"), max_length=16, choices=Unit.choices)
    offence = models.CharField(_("offence"), max_length=300)

    class Meta:
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")

    def __str__(self):
        amount = f"{self.amount.normalize()} " if self.amount is not None else ""
        return f"{self.get_kind_display()}: {amount}{self.get_unit_display()} ({self.side})"


class RulingRevision(models.Model):
    """A change to a ruling after it was given: what it was, what it became, who, why."""

    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, related_name="revisions")
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField(_("reason"))
    before = models.JSONField()
    after = models.JSONField()

    class Meta:
        ordering = ["changed_at", "pk"]
