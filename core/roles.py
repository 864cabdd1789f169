"""The roles people have in the system, kept as Django groups.

A group says what kind of work a person does; where they may do it is said per tournament
(``TournamentOfficial``), per regulating authority (``AuditorAssignment``) or by the entries a
player has (``Player.user``).
"""

from django.utils.translation import gettext_lazy as _

DIRECTOR = "director"
CHIEF_DIRECTOR = "chief_director"
APPEALS_MEMBER = "appeals_member"
NATIONAL_AUDITOR = "national_auditor"
SCORER = "scorer"
PLAYER = "player"

ROLES = {
    DIRECTOR: _("Director"),
    CHIEF_DIRECTOR: _("Chief director"),
    APPEALS_MEMBER: _("Appeals member"),
    NATIONAL_AUDITOR: _("National auditor"),
    SCORER: _("Scorer"),
    PLAYER: _("Player"),
}

# Officials who may write the competition record of their tournament.
RECORD_WRITERS = {DIRECTOR, CHIEF_DIRECTOR, SCORER}


def roles_of(user):
    if not user.is_authenticated:
        return set()
    if not hasattr(user, "_role_names"):
        user._role_names = set(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
    return user._role_names
