"""Who a contestant is as the scoring program numbers it (issue #29): the fields and label that
scoring.models.Contestant takes from :class:`ContestantIdentity`.

A number, within a section when each section numbers its own (ACBL's A, B, ..., AA), and within
a direction in a Mitchell, where N-S pair 1 and E-W pair 1 are two pairs. Both empty when the
number alone tells (a Howell, teams, pairs numbered across sections). The import reads them from
the file (bridge.interchange.identify); docs/formats.md, "Who a contestant is".
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class ContestantIdentity(models.Model):
    class Direction(models.TextChoices):
        NS = "NS", _("N-S")
        EW = "EW", _("E-W")

    section = models.CharField(_("section"), max_length=20, blank=True, default="")
    direction = models.CharField(_("direction"), max_length=2, blank=True, default="", choices=Direction.choices)

    class Meta:
        abstract = True

    @property
    def label(self) -> str:
        """The contestant as the scoring program and the players know it: ``7``, ``B7``,
        ``A3 N-S``, ``3 E-W``."""
        text = f"{self.section}{getattr(self, 'number', '')}"
        if self.direction:
            text += f" {self.Direction(self.direction).label}"
        return text
