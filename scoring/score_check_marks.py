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
