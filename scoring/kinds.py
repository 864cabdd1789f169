"""The kinds of event, apart from the models so that the regulating authority's settings
(``authority_settings``, which the models import) can check a setting keyed by kind of event."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class EventKind(models.TextChoices):
    MP_PAIRS = "mp_pairs", _("Matchpoint pairs")
    IMP_PAIRS_CROSS = "imp_pairs_cross", _("IMP pairs (cross-IMPs)")
    IMP_PAIRS_BUTLER = "imp_pairs_butler", _("IMP pairs (Butler)")
    TEAMS_ROUND_ROBIN = "teams_rr", _("Teams, round robin (IMPs and VPs)")
    TEAMS_SWISS = "teams_swiss", _("Teams, Swiss (IMPs and VPs)")
    KNOCKOUT_TEAMS = "ko_teams", _("Knockout teams")
    INDIVIDUAL = "individual", _("Individual")


class PenaltyUnit(models.TextChoices):
    """What a penalty against a team in a match is counted in (``MatchPenalty.Unit``): here, apart
    from the models, so that the stored texts (scoring/texts.py, which the models read) name it."""

    VPS = "vps", _("VPs")
    IMPS = "imps", _("IMPs")
