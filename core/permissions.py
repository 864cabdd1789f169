"""The API's default permission (config/settings.py REST_FRAMEWORK): the competition record is read by
every logged-in role and written by those the policy lets write it (core/policy.py "write_record")."""

from rest_framework import permissions

from core import policy, roles


def tournament_of(obj):
    """The tournament a record belongs to, by walking up the competition record."""
    for path in (
        "tournament",
        "event.tournament",
        "session.event.tournament",
        "board.session.event.tournament",
        "round.session.event.tournament",
    ):
        target = obj
        try:
            for part in path.split("."):
                target = getattr(target, part)
        except AttributeError:
            continue
        return target
    raise LookupError(f"{obj!r} belongs to no tournament")


class CompetitionRecordPermission(permissions.BasePermission):
    """Read for every logged-in role (within what the queryset shows them); write for the
    directors, chief directors and scorers of the tournament concerned."""

    message = policy.rule("write_record").refusal  # the policy's words

    def has_permission(self, request, view):
        user = request.user
        if not user or not user.is_authenticated:
            return False
        if request.method in permissions.SAFE_METHODS:
            return True
        return user.is_superuser or bool(roles.roles_of(user) & policy.who_may("write_record"))

    def has_object_permission(self, request, view, obj):
        if request.method in permissions.SAFE_METHODS:
            return True
        return policy.may(request.user, "write_record", tournament_of(obj))
