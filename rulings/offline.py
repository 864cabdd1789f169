"""What a director's phone keeps for offline use (issue #31): the read side of a tournament, as
the addresses of its pages, which the phone's service worker caches when the director opens the
tournament (static/js/offline.js, static/js/sw.js; docs/operations.md, "What works offline")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.templatetags.static import static
from django.urls import reverse

from core import policy
from rulings.models import Ruling
from rulings.services import edition_in_force
from scoring.models import Board, Event, Session

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    from scoring.models import Tournament

# The files every offline page needs (the service worker also keeps what it serves).
STATIC_FILES = ("css/site.css", "js/offline.js", "js/drafts.js", "js/irregularity-form.js")


def bundle_urls(user: User | AnonymousUser, tournament: Tournament) -> list[str]:
    """The pages of ``tournament`` a phone keeps: the tournament, its events, sessions and boards
    (each board's deal and traveller), the law catalogue of the edition in force, and, for a
    director, the rulings they made there (each with its deal and auction) and the drafts page."""
    urls = [reverse("scoring:tournament", args=[tournament.pk])]
    events = Event.objects.filter(tournament=tournament).order_by("pk")
    urls += [reverse("scoring:event", args=[pk]) for pk in events.values_list("pk", flat=True)]
    sessions = Session.objects.filter(event__tournament=tournament).order_by("pk")
    urls += [reverse("scoring:session", args=[pk]) for pk in sessions.values_list("pk", flat=True)]
    boards = Board.objects.filter(session__event__tournament=tournament).order_by("session_id", "number")
    urls += [reverse("scoring:board", args=[pk]) for pk in boards.values_list("pk", flat=True)]
    urls.append(reverse("rulings:law-catalogue", args=[edition_in_force(tournament)]))
    if user.is_authenticated and policy.may(user, "ruling", tournament):
        own = Ruling.objects.filter(board__session__event__tournament=tournament, director=user).order_by("number")
        urls += [reverse("rulings:ruling", args=[pk]) for pk in own.values_list("pk", flat=True)]
        urls.append(reverse("rulings:ruling-drafts"))
    urls.append(reverse("offline-fallback"))
    urls += [static(name) for name in STATIC_FILES]
    return urls
