"""Director rulings (Laws 81-91): the record an appeals body or a national body can judge
months later without asking anyone."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core import reader
from rulings.poll_data import validate_poll
from scoring.models import SEAT_CHOICES, Board, Player, RegulatingAuthority, Result, Round, Table

SIDE_CHOICES = [("NS", _("N-S")), ("EW", _("E-W"))]


UNREAD = object()  # a deadline the caller has not read (None: read, and the clock has not started)


class LawEntry(models.Model):
    """One law or sub-section of one edition of the Laws, with its titles."""

    edition = models.CharField(
        _("edition"), max_length=4, choices=[("1997", "1997"), ("2007", "2007"), ("2017", "2017")]
    )
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
        constraints = [
            models.UniqueConstraint(fields=["authority", "document", "clause"], name="regulation_clause_unique")
        ]

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
        SUPERSEDED = "superseded", _("Superseded by a correction")

    class CorrectionBasis(models.TextChoices):
        DIRECTORS_ERROR = "82C", _("The ruling was incorrect (Law 82C)")
        SCORE_CORRECTION = "79C", _("Score correction within the correction period (Law 79C)")

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
        IMPS = "imps", _("The board's result in IMPs, in a team match (Law 86D)")

    class ScoreCheck(models.TextChoices):
        NOT_ASKED = "not_asked", _("No second director's check asked")
        AWAITING = "awaiting", _("Awaiting a second director's check")
        CONFIRMED = "confirmed", _("Confirmed by a second director")

    class AppealNotice(models.TextChoices):
        NOT_YET = "", _("Not yet")
        GIVEN = "given", _("Players told of the right to appeal (Law 83)")
        REFERRED = "referred", _("Referred to the appeals body by the director (Law 83)")

    # A ruling opens on a board and a table, often during the auction or the play; the table's
    # result is attached when it is recorded (the ruling is listed as awaiting it until then).
    board = models.ForeignKey(Board, on_delete=models.PROTECT, related_name="rulings", verbose_name=_("board"))
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rulings", verbose_name=_("table"))
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, related_name="rulings", verbose_name=_("round"), null=True, blank=True
    )
    result = models.ForeignKey(
        Result, on_delete=models.PROTECT, related_name="rulings", verbose_name=_("result"), null=True, blank=True
    )
    supersedes = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="superseded_by",
        verbose_name=_("corrects ruling"),
    )
    correction_basis = models.CharField(
        _("why the earlier ruling is corrected"), max_length=3, blank=True, choices=CorrectionBasis.choices
    )
    correction_reason = models.TextField(_("reason for the correction"), blank=True)
    # One ruling per table unless a director says otherwise (issue #41): recorded beside another
    # director's ruling at the table, the director having chosen so knowing of it.
    further_ruling = models.BooleanField(_("a further ruling on this table"), default=False, editable=False)
    # Law 79C2 (2007, 2017): a score corrected after the correction period, where the regulations
    # allow it: the director, the tournament organiser and their statement that both are
    # satisfied beyond reasonable doubt that the record is wrong (scoring.deadlines).
    late_correction = models.JSONField(
        _("correction after the correction period (Law 79C2)"), null=True, blank=True, editable=False
    )
    number = models.PositiveIntegerField(
        _("number"), editable=False, help_text=_("Numbered per tournament, in the order rulings are made.")
    )
    # Where the authority asks for it (setting second_director_check), an adjusted score reaches
    # the standings only once a second director confirms it (rulings/services/checking.py).
    score_check = models.CharField(
        _("second director's check"), max_length=10, choices=ScoreCheck.choices, default=ScoreCheck.NOT_ASKED
    )
    score_entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    score_checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    score_checked_at = models.DateTimeField(_("adjusted score confirmed at"), null=True, blank=True)
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
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rulings", verbose_name=_("director")
    )
    colleagues_consulted = models.CharField(_("colleagues consulted"), max_length=300, blank=True)
    poll = models.JSONField(
        _("poll of players"),
        null=True,
        blank=True,
        help_text=_(
            "Law 16B1a: the question, the players polled and the action each chose; the count is worked out from them."
        ),
        validators=[validate_poll],  # each pollee's action, alternatives and level (issue #44)
    )
    appeal_notice = models.CharField(_("right to appeal"), max_length=10, choices=AppealNotice.choices, blank=True)
    appeal_notice_at = models.DateTimeField(_("told of the right to appeal at"), null=True, blank=True)
    outcome = models.CharField(_("outcome"), max_length=16, choices=Outcome.choices, blank=True)
    rectification = models.TextField(_("rectification"), blank=True)
    offending_side = models.CharField(_("offending side"), max_length=2, choices=SIDE_CHOICES, blank=True)
    score_kind = models.CharField(_("adjusted score"), max_length=12, choices=ScoreKind.choices, blank=True)
    score = models.JSONField(_("adjusted score (engine form)"), null=True, blank=True)
    score_description = models.CharField(_("adjusted score in words"), max_length=300, blank=True)
    deal = models.CharField(_("deal (PBN)"), max_length=80, blank=True, help_text=_("Empty: the board's deal."))
    auction = models.JSONField(_("auction, lead, play and claim"), null=True, blank=True)
    deal_override = models.TextField(_("why an imported deal that differs from the board was accepted"), blank=True)
    # Issue #28: the irregularity in the auction or the play the ruling is about (the irregular
    # call or card is also kept in ``auction``), the options the Laws of the edition in force
    # offered, and the one chosen (rulings/irregularities.py, docs/irregularities.md).
    irregularity = models.JSONField(
        _("irregularity in the auction or play, and the option chosen"), null=True, blank=True, editable=False
    )
    # Every irregularity of the table, in the order they happened (issue #39): each as
    # ``irregularity`` stores it, with its ``position`` (["auction", call] or ["play", trick, order]);
    # ``irregularity`` is the one recorded last.
    irregularities = models.JSONField(
        _("the irregularities of the table, in order"), default=list, blank=True, editable=False
    )
    # Law 16 as it happened (issue #28): the source of the unauthorised information, agreed or
    # found, the action chosen, the logical alternatives with the poll's counts, what was
    # demonstrably suggested, the finding and the weighted score proposed from the poll
    # (rulings/services/unauthorised.py, bridge/unauthorised.py).
    unauthorised_information = models.JSONField(
        _("unauthorised information (Law 16)"), null=True, blank=True, editable=False
    )
    irregularity_law = models.CharField(_("law applied to the irregularity"), max_length=16, blank=True, editable=False)
    seating = models.JSONField(
        _("who sat where"),
        null=True,
        blank=True,
        help_text=_(
            'Player ids by seat: {"N": 12, "E": 14, "S": 13, "W": 15}. '
            "Casebooks use it to say North rather than a N-S player."
        ),
    )
    double_dummy = models.JSONField(_("double-dummy tricks and par"), null=True, blank=True, editable=False)
    double_dummy_error = models.CharField(
        _("why the solver could not take the deal"), max_length=300, blank=True, editable=False
    )
    created_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    given_at = models.DateTimeField(_("given at"), null=True, blank=True)
    updated_at = models.DateTimeField(_("changed at"), auto_now=True)
    # A ruling drafted on a phone with no network (issue #31): the time the phone's clock said
    # when the director saved it, and the time the server received it. The server's clock
    # decides every deadline; the phone's is kept and shown.
    device_time = models.DateTimeField(_("time on the director's phone"), null=True, blank=True, editable=False)
    received_at = models.DateTimeField(_("received by the server at"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(outcome="adjusted") | Q(score__isnull=True), name="only_adjusted_rulings_carry_a_score"
            ),
            models.CheckConstraint(
                condition=Q(tray_delay_seconds__isnull=True) | Q(screens=True), name="tray_delay_only_with_screens"
            ),
        ]

    def __str__(self):
        return _("Ruling %(number)s") % {"number": self.number}

    @property
    def irregularity_list(self):
        """Every irregularity of the table in the order they happened (one recorded before the
        ruling kept them all: that one)."""
        return self.irregularities or ([self.irregularity] if self.irregularity else [])

    @property
    def session(self):
        return self.board.session

    @property
    def tournament(self):
        return self.board.session.event.tournament

    @property
    def awaiting_result(self):
        return self.result_id is None

    @property
    def given_result(self) -> Result:
        """The table's result the ruling is on, for a step only a given ruling takes (appealing
        it, scoring it, penalising a side): a ruling is given once its result is entered, so one
        still awaiting it is refused, naming the table and the board."""
        if self.result is None:
            raise ValidationError(
                {
                    "result": _(
                        "Table %(table)s has no result for board %(board)s yet: the ruling is given once "
                        "the result is entered (it waits for it in the list of rulings)."
                    )
                    % {"table": self.table.number, "board": self.board.number}
                }
            )
        return self.result

    def deal_pbn(self):
        return self.deal or self.board.deal

    def clean(self):
        super().clean()
        errors = {}
        if self.board_id and self.table_id and self.table.section.session_id != self.board.session_id:
            errors["table"] = _("Table %(t)s does not play in the session of board %(b)s.") % {
                "t": self.table.number,
                "b": self.board.number,
            }
        if self.board_id and self.round is not None and self.round.session_id != self.board.session_id:
            errors["round"] = _("Round %(r)s is not a round of the session of board %(b)s.") % {
                "r": self.round.number,
                "b": self.board.number,
            }
        if self.result is not None and (self.result.board_id != self.board_id or self.result.table_id != self.table_id):
            errors["result"] = _("The result is not the one of board %(b)s at table %(t)s.") % {
                "b": self.board.number,
                "t": self.table.number,
            }
        if errors:
            raise ValidationError(errors)
        if self.seating:
            if self.result is None:
                raise ValidationError({"seating": _("Who sat where is recorded once the table's result is.")})
            self._check_seating(self.result)

    def _check_seating(self, result):
        """Each seat holds a member of the contestant sitting on that side of this table."""
        if not isinstance(self.seating, dict) or set(self.seating) - set("NESW"):
            raise ValidationError({"seating": _('must look like {"N": 12, "E": 14, "S": 13, "W": 15} (player ids)')})
        sides = {"N": result.ns, "S": result.ns, "E": result.ew, "W": result.ew}
        for seat, player in self.seating.items():
            contestant = sides[seat]
            if not contestant.members.filter(pk=player).exists():
                raise ValidationError(
                    {
                        "seating": _("player %(player)s is not a member of %(contestant)s, who sat %(side)s")
                        % {
                            "player": player,
                            "contestant": contestant,
                            "side": _("North-South") if seat in "NS" else _("East-West"),
                        }
                    }
                )
        if len(set(self.seating.values())) != len(self.seating):
            raise ValidationError({"seating": _("one player is given two seats")})

    def correction_deadline(self):
        return self.session.correction_deadline()

    def appeal_deadline(self):
        return self.session.appeal_deadline()

    # States in which a ruling may be appealed while its window is open (Law 92B).
    APPEALABLE_STATES = ("given", "final", "under_appeal")

    def appeal_limit(self, deadline=UNREAD):
        """The last moment the ruling may be appealed: its session's deadline (``deadline`` when the
        caller has read it already) or the chief director's latest extension (appeals'
        ``DeadlineExtension``, reached through its reverse relation), whichever is later; None while
        the clock has not started."""
        deadline = self.appeal_deadline() if deadline is UNREAD else deadline
        extension = max((e.until for e in self.appeal_extensions.all()), default=None)
        return max((d for d in (deadline, extension) if d), default=None)

    def appeal_open(self, now=None, deadline=UNREAD):
        """Whether the ruling may still be appealed: the one answer every page and the API give
        (the ruling's and the player's pages, the lodging page, the services)."""
        from django.utils import timezone

        if self.state not in self.APPEALABLE_STATES:
            return False
        limit = self.appeal_limit(deadline)
        return limit is None or (now or timezone.now()) <= limit

    @property
    def unauthorised_finding(self):
        """The Law 16 finding in the reader's language ("3S was demonstrably suggested over
        Pass ..."): read from its English template and values, not from the words stored in the
        language of the director who recorded it."""
        from django.utils.translation import gettext

        finding = (self.unauthorised_information or {}).get("finding") or {}
        template, params = finding.get("text_template"), finding.get("text_params") or {}
        if not template:
            return finding.get("text", "")
        try:
            return gettext(template) % params
        except (KeyError, TypeError, ValueError):
            return finding.get("text", "")

    def shown_state(self, now=None, deadline=UNREAD):
        """The state as a reader is told it, never contradicting the clock: "Final (appeal period
        passed)" only once the period has passed, "Given at the table" while it runs (the official
        score posted again reopens it; the worker's ``finalise_rulings`` catches up within a minute)."""
        if self.state in (self.State.GIVEN, self.State.FINAL):
            return (self.State.GIVEN if self.appeal_open(now, deadline) else self.State.FINAL).label
        return self.get_state_display()


class RulingCitation(models.Model):
    """A law (of the edition in force) or a regulation clause that a ruling relies on."""

    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, related_name="citations")
    law = models.ForeignKey(LawEntry, on_delete=models.PROTECT, null=True, blank=True, related_name="citations")
    regulation = models.ForeignKey(
        RegulationClause, on_delete=models.PROTECT, null=True, blank=True, related_name="citations"
    )

    class Meta:
        verbose_name = _("citation")
        verbose_name_plural = _("citations")
        constraints = [
            models.CheckConstraint(
                condition=Q(law__isnull=False, regulation__isnull=True) | Q(law__isnull=True, regulation__isnull=False),
                name="citation_is_a_law_or_a_regulation",
            ),
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
        WARNING = "warning", _("warning")
        FINE = "fine", _("fine")
        LESSER = "lesser", _("a lesser measure the regulations name")

    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, related_name="penalties")
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    side = models.CharField(_("side"), max_length=2, choices=SIDE_CHOICES)
    amount = models.DecimalField(_("amount"), max_digits=8, decimal_places=2, null=True, blank=True)
    unit = models.CharField(_("unit"), max_length=16, choices=Unit.choices)
    offence = models.CharField(_("offence"), max_length=300)
    # Law 91, a lesser measure: its name as the regulations in force named it when it was given.
    measure = models.CharField(_("measure as the regulations name it"), max_length=100, blank=True)
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="penalties",
        verbose_name=_("player"),
        help_text=_("The player a Law 91 penalty is given to."),
    )
    # A Law 90 penalty in VPs comes off the team's match, not the board: the MatchPenalty that
    # carries it while the ruling is in force (scoring.services.add_match_penalty).
    match_penalty = models.OneToOneField(
        "scoring.MatchPenalty",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ruling_penalty",
        verbose_name=_("match penalty"),
    )
    cancelled_at = models.DateTimeField(_("cancelled at"), null=True, blank=True)
    cancellation_reason = models.CharField(_("reason for the cancellation"), max_length=300, blank=True)
    # Law 91B: a disqualification stands only with the tournament organiser's approval (1997: the
    # sponsoring organisation's): who approved it and when. A ruling with a disqualification not
    # approved is not given (rulings.services.giving.give_ruling).
    approved_by = models.CharField(_("approved by the tournament organiser"), max_length=100, blank=True)
    approved_at = models.DateTimeField(_("approved at"), null=True, blank=True)

    class Meta:
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")

    def __str__(self):
        """In the reader's words: "Procedural penalty (Law 90): 10 percent of a top (N-S)", the
        amount a plain number in the reader's format (core.reader.number), the side named."""
        amount = f"{reader.number(self.amount)} " if self.amount is not None else ""
        unit = self.measure if self.unit == self.Unit.LESSER and self.measure else self.get_unit_display()
        return f"{self.get_kind_display()}: {amount}{unit} ({self.get_side_display()})"


def attachment_path(instance, filename):
    return f"rulings/{instance.ruling_id}/{filename}"


class RulingAttachment(models.Model):
    """A photo of the table, a system card, a screenshot: an image or a PDF, kept through
    Django's storage API (local files, or S3-compatible storage in a deployment)."""

    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, related_name="attachments")
    file = models.FileField(_("file"), upload_to=attachment_path, max_length=300)
    name = models.CharField(_("name"), max_length=200)
    content_type = models.CharField(_("type"), max_length=50)
    size = models.PositiveIntegerField(_("size (bytes)"))
    description = models.CharField(_("what it shows"), max_length=200, blank=True)
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    uploaded_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)

    class Meta:
        verbose_name = _("attachment")
        verbose_name_plural = _("attachments")
        ordering = ["uploaded_at", "pk"]

    def __str__(self):
        return self.name


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


class TrickRuling(models.Model):
    """The play side of a revoke (Laws 61-64), a defective trick (Law 67) or a claim (Laws
    68-71): the facts (read from the play record or entered), the edition's trick transfer
    and the law sub-section naming it, or the claim's position and double-dummy aid; and the
    director's confirmation. rulings/revokes.py computes and writes it (docs/revokes.md)."""

    class Kind(models.TextChoices):
        REVOKE = "revoke", _("Revoke (Laws 61-64)")
        DEFECTIVE_TRICK = "defective_trick", _("Defective trick (Law 67)")
        CLAIM = "claim", _("Claim or concession (Laws 68-71)")

    ruling = models.OneToOneField(Ruling, on_delete=models.CASCADE, related_name="trick_ruling")
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    edition = models.CharField(_("edition"), max_length=4)
    facts = models.JSONField(_("facts"), default=dict)
    from_play = models.BooleanField(_("read from the play record"), default=False)
    table_tricks = models.PositiveSmallIntegerField(_("declarer's tricks at the table"), null=True, blank=True)
    transfer = models.PositiveSmallIntegerField(_("tricks transferred"), default=0)
    law = models.CharField(_("law applied"), max_length=12, blank=True)
    reason = models.CharField(_("why"), max_length=400, blank=True)
    equity_tricks = models.PositiveSmallIntegerField(_("further tricks for equity (Law 64C)"), default=0)
    equity_reason = models.TextField(_("why the transfer does not restore equity"), blank=True)
    guide = models.JSONField(_("double-dummy guide"), null=True, blank=True)
    result_tricks = models.PositiveSmallIntegerField(_("declarer's tricks after the ruling"), null=True, blank=True)
    normal_line = models.TextField(_("the line judged normal (Laws 70, 71)"), blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(table_tricks__isnull=True) | Q(table_tricks__lte=13),
                name="trick_ruling_table_tricks_at_most_13",
            ),
            models.CheckConstraint(
                condition=Q(result_tricks__isnull=True) | Q(result_tricks__lte=13),
                name="trick_ruling_result_tricks_at_most_13",
            ),
        ]

    def __str__(self):
        return f"{self.ruling} {self.kind} {self.law}"
