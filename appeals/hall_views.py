"""The hall screen's address, for the tournament's officials: the address to open on the room's
screen and, for the chief director, "Revoke this address" (appeals.services.revoke_hall_address),
after which the old address is refused and the new one is shown here and on the notice board."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from appeals import notice_board, services
from appeals.models import HallAddress
from appeals.views import refused
from core import policy
from scoring import selectors as scoring_selectors


@login_required
def hall_address(request, pk):
    """GET: the address in force (the officials who hand it out); POST: the chief director revokes it."""
    tournament = get_object_or_404(scoring_selectors.visible_tournaments(request.user), pk=pk)
    if not policy.may(request.user, "write_record", tournament):
        return refused(request, _("Only the tournament's directors and scorers are given the hall screen's address."))
    if request.method == "POST":
        try:
            services.revoke_hall_address(tournament=tournament, by=request.user)
        except PermissionDenied as error:
            return refused(request, str(error))
        messages.success(
            request, _("The old address of the hall screen is refused from now on; open the new one below.")
        )
        return redirect("appeals:hall-address", pk=tournament.pk)
    return render(
        request,
        "appeals/hall_address.html",
        {
            "tournament": tournament,
            "hall_token": notice_board.hall_token(tournament),
            "address": HallAddress.objects.filter(tournament=tournament).select_related("revoked_by").first(),
        },
    )
