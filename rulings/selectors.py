"""Reads of rulings, limited to what the reader may see."""

from django.db.models import Q

from rulings.models import Ruling
from scoring import roles
from scoring.models import TournamentOfficial


def visible_rulings(user):
    """Officials and auditors see every ruling of their tournaments; a player only the rulings
    at tables where they played."""
    if not user.is_authenticated:
        return Ruling.objects.none()
    qs = Ruling.objects.select_related("result__board__session__event__tournament", "result__table",
                                       "result__ns", "result__ew", "director")
    if user.is_superuser:
        return qs
    staff = Q(result__board__session__event__tournament__officials__user=user) | Q(
        result__board__session__event__tournament__authority__auditors__user=user)
    played = Q(result__ns__members__user=user) | Q(result__ew__members__user=user)
    ids = Ruling.objects.filter(staff | played).values("pk")
    return qs.filter(pk__in=ids)


def can_rule(user, tournament):
    """Directors and chief directors of the tournament record and give rulings."""
    if user.is_superuser:
        return True
    return TournamentOfficial.objects.filter(
        user=user, tournament=tournament, role__in=[roles.DIRECTOR, roles.CHIEF_DIRECTOR]).exists()


def filtered_rulings(user, *, tournament=None, session=None, board=None, director=None, law=None, kind=None,
                     state=None):
    qs = visible_rulings(user)
    if tournament:
        qs = qs.filter(result__board__session__event__tournament_id=tournament)
    if session:
        qs = qs.filter(result__board__session_id=session)
    if board:
        qs = qs.filter(result__board__number=board)
    if director:
        qs = qs.filter(director_id=director)
    if law:
        qs = qs.filter(citations__law__number__istartswith=law.upper().replace("LAW", "").strip()).distinct()
    if kind:
        qs = qs.filter(kind=kind)
    if state:
        qs = qs.filter(state=state)
    return qs.prefetch_related("citations__law").order_by("-created_at")


def ruling_detail(pk, user):
    return (visible_rulings(user).prefetch_related("citations__law", "citations__regulation", "penalties",
                                                   "revisions__changed_by")
            .select_related("result__round", "result__board__session__event__tournament__authority").get(pk=pk))


