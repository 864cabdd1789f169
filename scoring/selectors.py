"""Reads of the competition record that need joins or that depend on who is asking."""

from django.db.models import Count, Prefetch, Q

from scoring import roles
from scoring.models import (
    Board,
    Contestant,
    Event,
    Match,
    Result,
    Session,
    Tournament,
    TournamentOfficial,
)


def visible_tournaments(user):
    """The tournaments ``user`` may read: those they officiate at, those under a body they
    audit, and those they play in. Nothing for anyone else."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    qs = Tournament.objects.select_related("authority")
    if user.is_superuser:
        return qs
    ids = (
        Tournament.objects.filter(
            Q(officials__user=user) | Q(authority__auditors__user=user) | Q(events__contestants__members__user=user)
        )
        .values("pk")
    )
    return qs.filter(pk__in=ids)


def writable_tournaments(user):
    """The tournaments whose record ``user`` may change: directors, chief directors and scorers
    of that tournament."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(
        pk__in=TournamentOfficial.objects.filter(user=user, role__in=roles.RECORD_WRITERS).values("tournament")
    )


def can_write(user, tournament):
    return writable_tournaments(user).filter(pk=tournament.pk).exists()


def sees_private_details(user, tournament):
    """Membership numbers and other personal data: officials and auditors, not players."""
    if user.is_superuser:
        return True
    return (
        tournament.officials.filter(user=user).exists()
        or tournament.authority.auditors.filter(user=user).exists()
    )


def tournament_events(tournament):
    return tournament.events.annotate(
        session_count=Count("sessions", distinct=True), contestant_count=Count("contestants", distinct=True)
    ).order_by("name")


def event_sessions(event):
    return event.sessions.annotate(board_count=Count("boards", distinct=True)).prefetch_related("score_postings")


def event_contestants(event):
    return (
        Contestant.objects.filter(event=event)
        .select_related("captain")
        .prefetch_related("members")
        .order_by("number")
    )


def session_boards(session):
    return Board.objects.filter(session=session).annotate(result_count=Count("results")).order_by("number")


def traveller(board):
    """Every result of a board, with the contestants and where they sat, in table order."""
    return (
        Result.objects.filter(board=board)
        .select_related("ns", "ew", "table__section", "round")
        .order_by("table__section__name", "table__number")
    )


def session_matches(session):
    return (
        Match.objects.filter(round__session=session)
        .select_related("home", "away", "open_room", "closed_room", "round")
        .order_by("round__number", "open_room__number")
    )


def session_with_context(pk):
    return Session.objects.select_related("event__tournament__authority").get(pk=pk)


def tournament_tree(pk):
    return Tournament.objects.select_related("authority").prefetch_related(
        Prefetch("events", queryset=Event.objects.order_by("name"))
    ).get(pk=pk)
