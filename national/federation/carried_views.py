"""The pages of a push carried on a file (issue #41, national/federation/carried.py).

- ``/national/federation/outbox/<tournament>/carry/`` (POST): the organiser's chief director
  downloads what a push of the tournament would send, as one file to carry to the national body.
- ``/national/federation/receive/``: the national body's auditor uploads it for an organiser's
  instance; the receiving services of the API run on it (heads, then the bundle) and the page
  says what they answered: stored (on the desk), or refused with the reason.
"""

from __future__ import annotations

from typing import cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from core import policy
from national.federation import bundle as bundles
from national.federation import carried
from national.federation import messages as federation_messages
from national.federation.models import Origin
from national.views import national_reader_required
from scoring.models import Tournament

# The refusals that say the file came from another organiser's instance than the one chosen.
ORIGIN_REFUSALS = frozenset({"head_key"})
# A bundle refused for these is kept as an alarm on the desk (receive.commit, heads.bundle_alarm).
ALARMS = frozenset({"head_fork", "consistency"})


@login_required
@require_POST
def carry(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    try:
        name, data = carried.build(tournament, by=request.user)  # refuses anyone the policy does
    except bundles.BundleRefused as refused:
        messages.error(request, federation_messages.render(refused.code, refused.params))
        return redirect("national:federation-outbox")
    # The file as a stream, a block at a time (issue #41), closed once it is sent.
    return FileResponse(data, as_attachment=True, filename=name, content_type="application/zip")


def receivable(user):
    """The organisers' instances ``user`` may receive a carried push from (``receive``)."""
    origins = Origin.objects.select_related("authority").order_by("name")
    return origins.filter(pk__in=[origin.pk for origin in origins if policy.may(user, "receive", origin.authority)])


class CarriedForm(forms.Form):
    origin: forms.ModelChoiceField = forms.ModelChoiceField(
        label=gettext_lazy("Organiser's instance"), queryset=Origin.objects.none()
    )
    carried = forms.FileField(
        label=gettext_lazy("Carried push file"),
        help_text=gettext_lazy("The .zip file the organiser downloaded from its outbox."),
    )

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["origin"]).queryset = receivable(user)

    def clean_carried(self):
        try:
            return carried.read(self.cleaned_data["carried"])
        except carried.Unreadable as unreadable:
            raise forms.ValidationError(str(unreadable)) from None


def _said(answer):
    """A service's answer in the reader's language."""
    return federation_messages.render(answer.get("reason", ""), answer.get("params")) or str(
        answer.get("error") or answer.get("refused") or answer
    )


def _alarmed(outcome):
    """Whether the refusal was kept as an alarm of the origin's trail (a fork or a rollback)."""
    reason = outcome.answer.get("reason")
    return "alarm" in outcome.answer or (outcome.step == "bundle" and reason in ALARMS)


@national_reader_required
def receive_carried(request):
    form = CarriedForm(user=request.user)
    refused = None
    if request.method == "POST":
        form = CarriedForm(request.POST, request.FILES, user=request.user)
        if form.is_valid():
            origin = form.cleaned_data["origin"]
            outcome = carried.receive(origin, form.cleaned_data["carried"], by=request.user)
            if outcome.stored:
                answer = outcome.answer
                messages.success(
                    request,
                    _(
                        "Received from %(origin)s: %(created)s records new, %(changed)s changed, %(unchanged)s "
                        "unchanged; tree head of %(size)s entries verified."
                    )
                    % {
                        "origin": origin.name,
                        "created": answer["created"],
                        "changed": answer["changed"],
                        "unchanged": answer["unchanged"],
                        "size": answer["tree_size"],
                    },
                )
                return redirect("national:federation")
            refused = outcome
            reason = outcome.answer.get("reason", "")
            form.add_error("origin" if reason in ORIGIN_REFUSALS else "carried", _said(outcome.answer))
    return render(
        request,
        "national/federation_receive.html",
        {"form": form, "refused": refused, "alarm": refused is not None and _alarmed(refused)},
    )
