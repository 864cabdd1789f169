"""The desk's page of received players kept apart (issue #41, national/federation/players.py).

- ``/national/federation/players/``: each received player whose membership number another
  player held when it arrived (its instance, name and number), the players of that number, and
  the form of the step the reader may take on it (``core.steps.available``): match it to one of
  them, or undo its match, with a reason.
- ``/national/federation/players/<player>/match/`` and ``.../unmatch/`` (POST): the decisions,
  taken by the services (which ask the policy), back to the player on the page.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from core import steps
from national.federation import players
from national.views import national_reader_required


class MatchForm(forms.Form):
    same_as = forms.IntegerField(label=gettext_lazy("The same person as"))
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))


class UnmatchForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))


@national_reader_required
def kept_apart(request):
    rows, count = players.kept_apart(request.user)
    for row in rows:
        row.steps = steps.available(request.user, row.player, "player")
    readable = players.readable(request.user)
    return render(
        request,
        "national/federation_players.html",
        {
            "rows": rows,
            "count": count,
            "shown": players.SHOWN,
            "total": readable.count(),
            "persons": players.persons(readable),
        },
    )


def _back(player):
    return redirect(reverse("national:federation-players") + f"#player-{player.pk}")


def _said(error: ValidationError) -> str:
    return " ".join(error.messages)


@require_POST
@national_reader_required
def match(request, pk):
    player = get_object_or_404(players.readable(request.user), pk=pk)
    form = MatchForm(request.POST)
    same_as = None
    if form.is_valid():
        same_as = players.readable(request.user).filter(pk=form.cleaned_data["same_as"]).first()
    if same_as is None:
        messages.error(request, _("Choose the player of the same number, and say why they are one person."))
        return _back(player)
    try:
        players.match(player=player, same_as=same_as, reason=form.cleaned_data["reason"], by=request.user)
    except ValidationError as error:
        messages.error(request, _said(error))
    else:
        messages.success(
            request, _("Matched: %(player)s and %(other)s are one person.") % {"player": player, "other": same_as}
        )
    return _back(player)


@require_POST
@national_reader_required
def unmatch(request, pk):
    player = get_object_or_404(players.readable(request.user), pk=pk)
    form = UnmatchForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say why the match is undone."))
        return _back(player)
    try:
        players.unmatch(player=player, reason=form.cleaned_data["reason"], by=request.user)
    except ValidationError as error:
        messages.error(request, _said(error))
    else:
        messages.success(request, _("Unmatched: %(player)s is a person of its own again.") % {"player": player})
    return _back(player)
