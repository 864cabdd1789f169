"""The national body's casebooks: its published collections of decided appeals.

A casebook sits above the appeals it collects (``appeals.Appeal``); nothing below this app
knows of it. The tables were ``appeals_casebook`` and ``appeals_casebookcase`` until the
national desk became an app of its own (migrations ``national.0001`` and ``appeals.0004``).
"""

from django.conf import settings
from django.contrib.postgres.search import SearchVectorField
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from appeals.models import Appeal, Outcome


class Casebook(models.Model):
    """A national body's published collection of appeal cases.

    Three states, one way: a ``draft`` is assembled (cases chosen by a search, texts checked for
    surviving names); ``published`` is the first edition, its text frozen in ``content``, open
    for commentary; ``final`` adds the commentary and freezes everything, with a SHA-256
    ``digest`` of the content so a printed copy can be checked against the record."""

    class State(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published without commentary")
        FINAL = "final", _("Final")

    class Names(models.TextChoices):
        SEATS = "seats", _("Seats only")
        MASTERPOINTS = "masterpoints", _("Masterpoint rank instead of names")
        NAMES = "names", _("Names")

    authority = models.ForeignKey(
        "scoring.RegulatingAuthority",
        on_delete=models.PROTECT,
        related_name="casebooks",
        verbose_name=_("national body"),
    )
    title = models.CharField(_("title"), max_length=200)
    introduction = models.TextField(_("introduction"), blank=True)
    filters = models.JSONField(
        _("selected by"), default=dict, blank=True, help_text=_("The search the cases were chosen by.")
    )
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES)
    names = models.CharField(_("players named as"), max_length=12, choices=Names.choices)
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.DRAFT)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(_("compiled at"))
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    finalised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    finalised_at = models.DateTimeField(_("final at"), null=True, blank=True)
    content = models.JSONField(_("published text"), null=True, blank=True, editable=False)
    digest = models.CharField(_("SHA-256 of the final text"), max_length=64, blank=True, editable=False)

    class Meta:
        verbose_name = _("casebook")
        verbose_name_plural = _("casebooks")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state="draft") | Q(content__isnull=False), name="a_published_casebook_has_its_text"
            ),
            models.CheckConstraint(condition=~Q(state="final") | ~Q(digest=""), name="a_final_casebook_has_a_digest"),
        ]

    def __str__(self):
        return self.title


class CasebookPrint(models.Model):
    """One PDF of a casebook, printed by a worker (national/printing.py): asked for on the page,
    then pending, printing, and ready (the file in Django's storage) or failed (with the reason).
    A final casebook is printed once: every later request gets the same file."""

    class State(models.TextChoices):
        PENDING = "pending", _("Waiting for a worker")
        PRINTING = "printing", _("Printing")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Failed")

    casebook = models.ForeignKey(Casebook, on_delete=models.CASCADE, related_name="prints")
    casebook_state = models.CharField(_("casebook printed as"), max_length=10, choices=Casebook.State.choices)
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.PENDING)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(_("asked for at"))
    started_at = models.DateTimeField(_("printing since"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    file = models.FileField(_("PDF"), upload_to="casebooks/", blank=True)
    size = models.PositiveIntegerField(_("size in bytes"), null=True, blank=True)
    error = models.TextField(_("why it failed"), blank=True)

    class Meta:
        verbose_name = _("casebook PDF")
        verbose_name_plural = _("casebook PDFs")
        ordering = ["-requested_at", "-pk"]

    def __str__(self):
        return f"{self.casebook} ({self.get_state_display()})"

    @property
    def in_progress(self):
        return self.state in (self.State.PENDING, self.State.PRINTING)


class CasebookCase(models.Model):
    """One appeal in a casebook, with the editor's redactions and the commentary."""

    casebook = models.ForeignKey(Casebook, on_delete=models.CASCADE, related_name="cases")
    appeal = models.ForeignKey(Appeal, on_delete=models.PROTECT, related_name="casebook_entries")
    position = models.PositiveIntegerField(_("case number"))
    redactions = models.JSONField(
        _("edited texts"),
        default=dict,
        blank=True,
        help_text=_(
            "The published wording of a free-text field, where the editor "
            "had to change it (a name the system could not know)."
        ),
    )
    commentary = models.TextField(_("commentary"), blank=True)
    commentary_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    commentary_at = models.DateTimeField(null=True, blank=True)
    # An expert panel's marks out of 100 (as ACBL casebooks give them): how good the director's
    # ruling was, and how good the appeal's decision was. Statistics compare the two.
    ruling_rating = models.PositiveSmallIntegerField(
        _("expert rating of the ruling"), null=True, blank=True, validators=[MaxValueValidator(100)]
    )
    decision_rating = models.PositiveSmallIntegerField(
        _("expert rating of the decision"), null=True, blank=True, validators=[MaxValueValidator(100)]
    )

    class Meta:
        verbose_name = _("casebook case")
        verbose_name_plural = _("casebook cases")
        ordering = ["casebook", "position"]
        constraints = [
            models.UniqueConstraint(fields=["casebook", "appeal"], name="an_appeal_once_per_casebook"),
            models.UniqueConstraint(fields=["casebook", "position"], name="one_case_per_number"),
        ]

    def __str__(self):
        return _("Case %(number)s") % {"number": self.position}


class PrecedentCase(models.Model):
    """One case of a published casebook, indexed for finding precedents: the laws it cites with
    every law above them, its kind, the decision's outcome, year and language, and its text.

    Built only from the casebook's frozen ``content`` (names hidden as published), by
    ``national.precedents.index_casebook`` when the casebook is published or made final. On
    PostgreSQL ``document`` holds the weighted full-text vector (laws A, words B); on SQLite the
    FTS5 table ``national_precedent_fts`` (rowid = this row's id) does that work."""

    case = models.OneToOneField(CasebookCase, on_delete=models.CASCADE, related_name="precedent")
    casebook = models.ForeignKey(Casebook, on_delete=models.CASCADE, related_name="precedents")
    authority = models.ForeignKey("scoring.RegulatingAuthority", on_delete=models.CASCADE, related_name="+")
    ruling = models.ForeignKey("rulings.Ruling", on_delete=models.CASCADE, related_name="+")
    # The appeal the case reports: one appeal printed in casebooks of several languages is one
    # precedent, listed once in the reader's language (precedent_selectors).
    appeal = models.ForeignKey("appeals.Appeal", on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField(_("case number"))
    cited = models.JSONField(_("laws cited"), default=list)
    # " 16 16B 16B1 16B1A 12 12C 12C1 12C1E ": each citation with its ancestors, upper case,
    # space-delimited so that a law and its sub-sections are found with one ``contains``.
    laws = models.CharField(_("laws with the laws above them"), max_length=500)
    laws_text = models.TextField(_("laws with their titles"), blank=True)
    kind = models.CharField(_("kind"), max_length=30, blank=True)
    outcome = models.CharField(_("outcome"), max_length=12, blank=True)
    without_merit = models.BooleanField(_("without merit"), default=False)
    year = models.PositiveSmallIntegerField(_("year"))
    language = models.CharField(_("language"), max_length=10)
    contract = models.CharField(_("contract"), max_length=12, blank=True)
    # The auction's points of comparison (national.precedents.auction_keys), space-delimited:
    # " OPEN1:1S OPEN2:1S-P AT:TEMPO AT:TEMPO:3H-X ALERT:2C ".
    auction = models.CharField(_("Auction"), max_length=300, blank=True)
    # What a director compares (national.likeness.tokens): the subjects of the laws cited, the
    # citations in the 2017 numbering, the kind of adjusted score and the structure of the facts:
    # " S:ui C:16 C:16B C:16B1 C:16B1A K:WEIGHTED WHO:OTHER RES:ADJUSTED LA:YES ".
    likeness = models.CharField(_("likeness"), max_length=500, blank=True, default=" ")
    # Every word of the laws' titles and the texts once, lower case, space-delimited: the words
    # of a ruling are looked for here, as the start of a word (" hesitat").
    words = models.TextField(_("Words"), blank=True)
    decision = models.CharField(_("decision"), max_length=300)
    title = models.CharField(_("title"), max_length=300)
    text = models.TextField(_("text"), blank=True)
    document = SearchVectorField(null=True, editable=False)

    class Meta:
        verbose_name = _("precedent")
        verbose_name_plural = _("precedents")
        ordering = ["-year", "casebook", "position"]
        indexes = [
            # The search by kind, with the appeal and language that choose one case of an appeal
            # printed in several casebooks. (The suggestions read the likeness column as well:
            # precedent_selectors.similar_cases, issue #34.)
            models.Index(
                fields=[
                    "authority",
                    "kind",
                    "ruling",
                    "contract",
                    "laws",
                    "auction",
                    "year",
                    "casebook",
                    "position",
                    "appeal",
                    "language",
                ],
                name="precedent_likeness_appeal",
            )
        ]

    def __str__(self):
        return self.title

    def outcome_words(self):
        """The decision's outcome in the reader's words, from its code ("Ruling upheld" in
        English, "הפסיקה אושרה" in Hebrew); "" when the case has none."""
        if not self.outcome:
            return ""
        try:
            return str(Outcome(self.outcome).label)
        except ValueError:
            return ""

    def decision_rest(self):
        """The decision line without its outcome (which :meth:`outcome_words` gives in the
        reader's words): the score and the reasons as the casebook published them, in its
        language."""
        text = self.decision
        if self.outcome:
            with translation.override(self.language or "en"):
                label = self.outcome_words()
            if label and text.startswith(label):
                text = text[len(label) :].lstrip(" ·:")
        return text


# Publishing tournaments to the national body (issue #32): models of their own module, loaded
# with the app's.
from national.federation.models import (  # noqa: E402, F401
    HeadAlarm,
    OrganiserToken,
    Origin,
    PlayerMatch,
    PublishTarget,
    Push,
    Receipt,
    ReceivedEntry,
    ReceivedHead,
    ReceivedRecord,
    ReceivedTournament,
    ReceivedVersion,
    Upload,
    UploadPart,
)
