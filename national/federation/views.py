"""The pages of publishing (issue #32).

- ``/national/federation/``: the national body's desk of received tournaments: each organiser's
  instance with its key and the last tree head received and verified, each tournament received
  with where it came from, the tokens (issued, revoked), and a form to register an instance and
  issue its token (the token is shown once).
- ``/national/federation/<origin>/heads/``: the auditor's page of an organiser's tree heads
  witnessed (issue #41): the last ones received, each fork or rollback with both heads.
- ``/national/federation/outbox/``: the organiser's end: what was sent, when, and what is waiting.
- ``/national/federation/proof/<ruling>/``: the origin's inclusion proofs of a received case's
  audit entries, as JSON, each checked again against the signed head it came with.
"""

from __future__ import annotations

from typing import cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Max, Q
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from audit import merkle
from core import policy
from national import selectors
from national.federation import carried, heads, push, receive, verify
from national.federation.models import (
    OrganiserToken,
    Origin,
    Push,
    ReceivedEntry,
    ReceivedHead,
    ReceivedRecord,
    ReceivedTournament,
)
from national.views import national_reader_required
from scoring import selectors as scoring_selectors
from scoring.models import Tournament


class OriginForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Organiser"), max_length=200)
    slug = forms.SlugField(label=gettext_lazy("Short name"), max_length=40)
    authority: forms.ModelChoiceField = forms.ModelChoiceField(label=gettext_lazy("National body"), queryset=None)
    public_key = forms.CharField(
        label=gettext_lazy("Public key of its audit trail (PEM)"),
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy("On the organiser's instance: manage.py federation_target --public-key"),
    )

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        authorities = scoring_selectors.readable_authorities(user).order_by("name")
        cast(forms.ModelChoiceField, self.fields["authority"]).queryset = authorities

    def clean_public_key(self):
        value = self.cleaned_data["public_key"]
        try:
            receive.key_id_of(value)
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None
        return value


def _origins(user):
    origins = Origin.objects.select_related("authority").prefetch_related("tokens").order_by("name")
    return policy.visible(user, "national_records", origins, scope=policy.BY_AUTHORITY)


@national_reader_required
def received(request):
    form = OriginForm(user=request.user)
    token = None
    if request.method == "POST":
        form = OriginForm(request.POST, user=request.user)
        if form.is_valid():
            data = form.cleaned_data
            origin = receive.register_origin(
                name=data["name"],
                slug=data["slug"],
                authority=data["authority"],
                public_key=data["public_key"],
                by=request.user,
            )
            token = receive.issue_token(origin, by=request.user)
            form = OriginForm(user=request.user)
    origins = list(_origins(request.user))
    for origin in origins:
        origin.last_head = receive.last_head(origin)
        origin.alarms = heads.alarms(origin)
    tournaments = (
        ReceivedTournament.objects.filter(tournament__in=selectors.audited_tournaments(request.user))
        .select_related("tournament", "origin", "head")
        .annotate(
            records=Count("tournament__received_records", distinct=True),
            changed=Count(
                "tournament__received_records", filter=Q(tournament__received_records__version__gt=1), distinct=True
            ),
        )
        .order_by("-received_at")
    )
    return render(
        request,
        "national/federation.html",
        {"origins": origins, "tournaments": tournaments, "form": form, "token": token},
    )


@national_reader_required
@require_POST
def revoke(request, pk):
    token = get_object_or_404(OrganiserToken.objects.select_related("origin__authority"), pk=pk)
    receive.revoke_token(token, by=request.user)
    return redirect("national:federation")


@login_required
def outbox(request):
    tournaments = [
        t for t in Tournament.objects.order_by("-start_date", "name") if policy.may(request.user, "publish", t)
    ]
    if not tournaments:
        policy.refuse("publish")
    allowed = {t.pk for t in tournaments}
    pushes = Push.objects.filter(tournament__in=allowed).select_related("tournament", "target").defer("bundle")[:50]
    waiting = [row for row in push.waiting() if row["tournament"].pk in allowed]
    delivered = dict(
        Push.objects.filter(tournament__in=allowed, state=Push.State.DELIVERED)
        .values("tournament")
        .annotate(at=Max("sent_at"))
        .values_list("tournament", "at")
    )
    return render(
        request,
        "national/outbox.html",
        {
            "target": push.PublishTarget.objects.order_by("-pk").first(),
            "pushes": pushes,
            "waiting": waiting,
            "tournaments": tournaments,
            "delivered": delivered,
            "carried": carried.downloads(tournaments),
        },
    )


@login_required
@require_POST
def publish(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    try:
        push.publish(tournament, by=request.user)  # refuses anyone the policy does
    except push.TargetMissing:
        # a setup step missing, not a refusal of who acts: the outbox says what to run
        messages.error(request, _("No national body to publish to: run manage.py federation_target."))
    return redirect("national:federation-outbox")


@national_reader_required
def case_proof(request, pk):
    """The inclusion proofs of a received ruling's entries and its appeals'."""
    record = ReceivedRecord.objects.filter(model="rulings.ruling", local_pk=pk).select_related("origin").first()
    if record is None or not selectors.scoped_rulings(request.user).filter(pk=pk).exists():
        raise Http404(_("This ruling was not received from an organiser's instance."))
    appeals = ReceivedRecord.objects.filter(
        origin=record.origin,
        model="appeals.appeal",
        local_pk__in=selectors.scoped_appeals(request.user).filter(ruling_id=pk).values("pk"),
    ).values_list("origin_pk", flat=True)
    wanted = Q(content__object_type="rulings.ruling", content__object_id=str(record.origin_pk)) | Q(
        content__object_type="appeals.appeal", content__object_id__in=[str(a) for a in appeals]
    )
    entries = ReceivedEntry.objects.filter(wanted, origin=record.origin).select_related("head").order_by("sequence")
    proofs = []
    for entry in entries:
        head = entry.head
        holds = verify.entry_hash(entry.content) == entry.hash and merkle.verify_inclusion(
            entry.sequence - 1,
            head.tree_size,
            merkle.leaf_hash(bytes.fromhex(entry.hash)),
            [bytes.fromhex(node) for node in entry.proof],
            bytes.fromhex(head.root_hash),
        )
        proofs.append(
            {
                "sequence": entry.sequence,
                "action": entry.content["action"],
                "entry_hash": entry.hash,
                "leaf_index": entry.sequence - 1,
                "inclusion_proof": entry.proof,
                "head": head.as_dict(),
                "verified": holds,
            }
        )
    return JsonResponse(
        {"origin": record.origin.name, "key_id": record.origin.key_id, "ruling": record.origin_pk, "entries": proofs},
        json_dumps_params={"indent": 2},
    )


HEADS_SHOWN = 100


@national_reader_required
def origin_heads(request, pk):
    """An organiser's tree heads witnessed here and its alarms (issue #41)."""
    origin = get_object_or_404(_origins(request.user), pk=pk)
    received = list(ReceivedHead.objects.filter(origin=origin).order_by("-tree_size")[:HEADS_SHOWN])
    return render(
        request,
        "national/federation_heads.html",
        {
            "origin": origin,
            "received": received,
            "count": ReceivedHead.objects.filter(origin=origin).count(),
            "alarms": heads.alarms(origin),
            "shown": HEADS_SHOWN,
        },
    )
