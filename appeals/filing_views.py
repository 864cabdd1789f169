"""Pages of the filings received (issue #44): the tournament's register for its directors, and a
player's memo, filed from the player's own page or handed in at the desk. The body's word on a
late appeal is a step of the case page (appeals/step_views.py, ``validity``)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _

from appeals import my_cases, selectors, services
from appeals.views import refused, show_errors
from core import policy
from rulings import selectors as rulings_selectors
from scoring import selectors as scoring_selectors
from scoring.models import Player


@login_required
def register(request, tournament_pk):
    """Every filing received at the tournament, in the order received: its number, when and by
    whom it was received, who filed it, and its validity as the body decided it."""
    tournament = get_object_or_404(scoring_selectors.visible_tournaments(request.user), pk=tournament_pk)
    if not policy.may(request.user, "filings", tournament):
        return refused(request, _("Only a director of the tournament reads the register of filings."))
    return render(
        request,
        "appeals/filings.html",
        {"tournament": tournament, "filings": selectors.filings(tournament), "languages": settings.LANGUAGES},
    )


@login_required
def memo(request, ruling_pk):
    """A player's memo on a ruling (a POST): from their own page, or received by a director at the
    desk (who names the player and the language they wrote in)."""
    if request.method != "POST":
        return redirect("appeals:appeals-mine")
    ruling = get_object_or_404(rulings_selectors.visible_rulings(request.user), pk=ruling_pk)
    back = request.POST.get("next") or ""
    player = next((p for p in my_cases.players_of(request.user) if selectors.side_of(p, ruling)), None)
    if request.POST.get("player") and policy.may(request.user, "lodge", ruling.tournament):
        player = get_object_or_404(Player, pk=request.POST["player"])  # received at the desk
    try:
        filing = services.file_memo(
            ruling=ruling,
            player=player,
            by=request.user,
            text=request.POST.get("text", ""),
            language=request.POST.get("language") or translation.get_language(),
        )
    except PermissionDenied as error:
        return refused(request, str(error))
    except ValidationError as error:
        show_errors(request, error)
    else:
        messages.success(request, filing.acknowledgement())
    if back == "lodge":
        return redirect("appeals:appeal-lodge", ruling.pk)
    return redirect("appeals:appeals-mine")
