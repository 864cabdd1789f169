"""A scorer's "accepted" on a flag of the score checks (issue #44; scoring/score_checks.py): the
result was looked at and stands as recorded. Its own module, as models.py imports it (its model)."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ScoreCheckAccepted(models.Model):
    """One flag (``code``) on one result, looked at and accepted; a correction of the result
    answers a flag by making it go away instead."""

    result = models.ForeignKey("scoring.Result", on_delete=models.CASCADE, related_name="accepted_checks")
    code = models.CharField(_("check"), max_length=30)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    accepted_at = models.DateTimeField(_("accepted at"), default=timezone.now)
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        app_label = "scoring"
        verbose_name = _("accepted score check")
        verbose_name_plural = _("accepted score checks")
        constraints = [models.UniqueConstraint(fields=["result", "code"], name="score_check_accepted_once")]

    def __str__(self):
        return f"{self.result_id}: {self.code}"


class FieldUpload(models.Model):
    """A club's session uploaded into a field (a simultaneous pairs, or any field of several
    sessions' or clubs' results: scoring/field_uploads.py). Its rows wait here, checked against
    the field, until every flag is confirmed or corrected; then they are recorded as the field's
    results (joined) and only then count in its matchpoints and standings."""

    class State(models.TextChoices):
        HELD = "held", _("held")
        JOINED = "joined", _("joined")

    session = models.ForeignKey("scoring.Session", on_delete=models.CASCADE, related_name="field_uploads")
    club = models.CharField(_("club"), max_length=200)
    rows = models.JSONField(_("results"), default=list)  # as sent, by number: board, round, table, ns, ew ...
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.HELD)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    uploaded_at = models.DateTimeField(_("uploaded at"), default=timezone.now)
    joined_at = models.DateTimeField(_("joined at"), null=True, blank=True)

    class Meta:
        app_label = "scoring"
        verbose_name = _("club upload")
        verbose_name_plural = _("club uploads")
        ordering = ["session", "uploaded_at", "pk"]

    def __str__(self):
        return f"{self.club} ({self.get_state_display()})"


class UploadFlag(models.Model):
    """One check an upload's row failed (scoring/field_uploads.py, ``CHECKS``): its board and
    table by number, the check's code and what its message says (``params``); answered by the
    field's chief director: confirmed (the row stands) or corrected (the row changed)."""

    class Answer(models.TextChoices):
        OPEN = "", _("open")
        CONFIRMED = "confirmed", _("confirmed")
        CORRECTED = "corrected", _("corrected")

    upload = models.ForeignKey(FieldUpload, on_delete=models.CASCADE, related_name="flags")
    row = models.PositiveIntegerField(_("row"))
    board = models.PositiveSmallIntegerField(_("board"))
    table = models.PositiveSmallIntegerField(_("table"))
    code = models.CharField(_("check"), max_length=30)
    params = models.JSONField(default=dict)
    answer = models.CharField(_("answer"), max_length=10, choices=Answer.choices, default=Answer.OPEN, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        app_label = "scoring"
        verbose_name = _("upload flag")
        verbose_name_plural = _("upload flags")
        ordering = ["upload", "board", "table", "code", "pk"]

    def __str__(self):
        return f"{self.upload_id}: board {self.board}, table {self.table}: {self.code}"
