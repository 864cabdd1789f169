"""The director's pages for a revoke or defective trick and for a claim: the facts (read from the
play or entered), the edition's transfer or the claim's double-dummy aid, and the confirmation
that gives the ruling. Thin: the services in rulings/revokes.py do the work."""

from typing import cast

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from bridge.revokes import (
    ESTABLISHED_BY,
    REVOKE_LAWS,
    DefectiveTrickFacts,
    RevokeError,
    RevokeFacts,
    defective_trick_transfer,
    establishment_laws,
    exemptions,
    revoke_transfer,
)
from core import policy
from core.i18n import rank_preference, translate
from rulings import revokes, selectors, services
from rulings.models import Ruling, TrickRuling
from scoring.models import SEAT_CHOICES

SEATS = [("", "—"), *SEAT_CHOICES]


def _edition_fields(form, edition):
    """The paragraphs of the edition's revoke table on the form: 63A's ways of establishment are
    its rows, and the box of 64B7 is there only where the edition has the paragraph (1997 has
    none: each side's revoke is rectified on its own), the 2017 63A4 among the ways of
    establishment only in 2017, and the box of the 1997 63B (attention drawn in
    violation of Law 61B) only in 1997."""
    if edition and "64B7" not in exemptions(edition):
        form.fields.pop("both_sides_revoked", None)
    if edition and "attention_illegally_drawn" not in REVOKE_LAWS[edition]:
        form.fields.pop("attention_illegally_drawn", None)
    if edition:
        field = cast(forms.ChoiceField, form.fields["established_by"])
        blank = cast(list, field.choices)[:1]
        field.choices = [*blank, *((law, law) for law in establishment_laws(edition))]


class RevokeFromPlayForm(forms.Form):
    revoke = forms.TypedChoiceField(label=gettext_lazy("Revoke"), coerce=int, choices=())
    established_by = forms.ChoiceField(
        label=gettext_lazy("Established (Law 63A)"),
        required=False,
        choices=[("", gettext_lazy("as the play shows")), *((law, law) for law in ESTABLISHED_BY)],
    )
    faced_card = forms.BooleanField(label=gettext_lazy("64B3: failure to play a faced card"), required=False)
    subsequent_same_suit = forms.BooleanField(
        label=gettext_lazy("64B2: a second revoke in the same suit by the same player"), required=False
    )
    noticed_after_next_call = forms.BooleanField(
        label=gettext_lazy("64B4: first noticed after the non-offending side called on the next board"), required=False
    )
    noticed_after_round = forms.BooleanField(
        label=gettext_lazy("64B5: first noticed after the round ended"), required=False
    )
    both_sides_revoked = forms.BooleanField(
        label=gettext_lazy("64B7: both sides revoked on this board"), required=False
    )
    as_if_established = forms.BooleanField(
        label=gettext_lazy(
            "Corrected, but dummy was the first to ask declarer about it: rectified as if established (43B2b)"
        ),
        required=False,
    )
    attention_illegally_drawn = forms.BooleanField(
        label=gettext_lazy(
            "Corrected, but attention was drawn to it in violation of Law 61B: rectified as if established (63B)"
        ),
        required=False,
    )

    def __init__(self, *args, found=(), edition="", **kwargs):
        super().__init__(*args, **kwargs)
        _edition_fields(self, edition)
        cast(forms.ChoiceField, self.fields["revoke"]).choices = [
            (
                i,
                _("%(seat)s, trick %(trick)s: %(card)s on a %(suit)s lead")
                % {"seat": dict(SEAT_CHOICES)[r.seat], "trick": r.trick, "card": r.card, "suit": r.suit_led},
            )
            for i, r in enumerate(found)
        ]


class RevokeEnteredForm(forms.Form):
    trick = forms.IntegerField(label=gettext_lazy("Revoke trick"), min_value=1, max_value=12)
    offender = forms.ChoiceField(label=gettext_lazy("Offender"), choices=SEATS)
    established_by = forms.ChoiceField(
        label=gettext_lazy("Established (Law 63A)"),
        required=False,
        choices=[("", gettext_lazy("not established")), *((law, law) for law in ESTABLISHED_BY)],
    )
    offender_won_revoke_trick = forms.BooleanField(
        label=gettext_lazy("The offender won the revoke trick"), required=False
    )
    offending_side_won_revoke_trick = forms.BooleanField(
        label=gettext_lazy("The offending side won the revoke trick"), required=False
    )
    offending_side_tricks_after = forms.IntegerField(
        label=gettext_lazy("Tricks the offending side won after it"), min_value=0, max_value=12
    )
    offender_won_with_legal_card = forms.BooleanField(
        label=gettext_lazy("The offender later won a trick with a card he could have played to the revoke trick"),
        required=False,
    )
    faced_card = RevokeFromPlayForm.base_fields["faced_card"]
    subsequent_same_suit = RevokeFromPlayForm.base_fields["subsequent_same_suit"]
    noticed_after_next_call = RevokeFromPlayForm.base_fields["noticed_after_next_call"]
    noticed_after_round = RevokeFromPlayForm.base_fields["noticed_after_round"]
    both_sides_revoked = RevokeFromPlayForm.base_fields["both_sides_revoked"]
    as_if_established = RevokeFromPlayForm.base_fields["as_if_established"]
    attention_illegally_drawn = RevokeFromPlayForm.base_fields["attention_illegally_drawn"]

    def __init__(self, *args, edition="", **kwargs):
        super().__init__(*args, **kwargs)
        _edition_fields(self, edition)

    def facts(self):
        data = dict(self.cleaned_data)
        established_by = data.pop("established_by")
        return {**data, "established": bool(established_by), "established_by": established_by}


class DefectiveTrickForm(forms.Form):
    trick = forms.IntegerField(label=gettext_lazy("Defective trick"), min_value=1, max_value=13)
    offender = forms.ChoiceField(label=gettext_lazy("Offender"), choices=SEATS)
    could_follow = forms.BooleanField(label=gettext_lazy("He held a card of the suit led"), required=False)
    offending_side_won_from_then = forms.BooleanField(
        label=gettext_lazy("The offending side won that trick or a later one"), required=False
    )
    too_many_cards = forms.BooleanField(label=gettext_lazy("Too many cards played to the trick (67B2)"), required=False)
    before_next_trick = forms.BooleanField(
        label=gettext_lazy("Attention drawn before both sides played to the next trick (67A)"), required=False
    )


class EquityForm(forms.Form):
    equity_tricks = forms.IntegerField(
        label=capfirst(gettext_lazy("further tricks for equity (Law 64C)")),
        min_value=0,
        max_value=13,
        initial=0,
        required=False,
    )
    equity_reason = forms.CharField(
        label=capfirst(gettext_lazy("why the transfer does not restore equity")),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class ClaimForm(forms.Form):
    basis = forms.ChoiceField(
        label=gettext_lazy("The director rules on"),
        widget=forms.RadioSelect,
        initial="70",
        required=False,
        choices=[
            ("70", gettext_lazy("a contested claim or concession (Law 70)")),
            ("71", gettext_lazy("a concession cancelled (Law 71)")),
            ("69B", gettext_lazy("an acquiescence withdrawn (Law 69B)")),
            (
                "68B2",
                gettext_lazy("a defender's concession his partner objected to at once: none was made (Law 68B2)"),
            ),
        ],
    )
    acquiesced_by = forms.ChoiceField(
        label=gettext_lazy("The acquiescence was established (Law 69A)"),
        required=False,
        choices=[
            ("", "—"),
            ("next_board", gettext_lazy("when his side called on a later board")),
            ("round_end", gettext_lazy("when the round ended")),
        ],
    )
    claimer = forms.ChoiceField(label=gettext_lazy("Claimer"), choices=SEATS)
    statement = forms.CharField(label=gettext_lazy("Claim statement"), widget=forms.Textarea(attrs={"rows": 2}))
    trump_mentioned = forms.BooleanField(
        label=gettext_lazy("The statement mentioned the trumps the opponents still held (70C)"), required=False
    )
    trump_cannot_win = forms.BooleanField(
        label=gettext_lazy("No trick could be lost to that trump by any normal play (70C3): Law 70C does not apply"),
        required=False,
    )
    new_line = forms.BooleanField(
        label=gettext_lazy("The claimer now proposes a line his statement did not contain (70D)"), required=False
    )
    unstated_line = forms.BooleanField(
        label=gettext_lazy("The line needs a finesse or a drop the statement did not mention (70E)"), required=False
    )
    partner_choice = forms.BooleanField(
        label=gettext_lazy("A defender's claim depends on his partner choosing one play among normal ones (70D2)"),
        required=False,
    )
    played_after = forms.CharField(
        label=gettext_lazy("Cards played after the claim, as evidence (70D3)"), required=False, max_length=200
    )
    order_unstated = forms.BooleanField(
        label=gettext_lazy("The statement did not say in which order a suit is played (70E2)"), required=False
    )
    trick = forms.IntegerField(
        label=gettext_lazy("Trick of the claim"),
        min_value=1,
        max_value=13,
        required=False,
        help_text=gettext_lazy("Leave empty to take it from the play record."),
    )
    remaining = forms.CharField(
        label=gettext_lazy("Without a play record: the cards left (PBN)"),
        required=False,
        max_length=80,
        help_text="N:AK9..T7. QJ82.T.. T73..A8. 54..96.7",
    )
    leader = forms.ChoiceField(label=gettext_lazy("On lead"), choices=SEATS, required=False)
    declarer_won = forms.IntegerField(
        label=gettext_lazy("Tricks declarer had won"), min_value=0, max_value=12, required=False
    )


class AwardForm(forms.Form):
    awarded_tricks = forms.IntegerField(label=gettext_lazy("Tricks awarded to declarer"), min_value=0, max_value=13)
    normal_line = forms.CharField(
        label=capfirst(gettext_lazy("the line judged normal (Laws 70, 71)")), widget=forms.Textarea(attrs={"rows": 2})
    )


def ruling_to_work_on(request, pk):
    """The ruling ``pk`` for a director to work on: 404 unless the reader sees it, 403 unless the
    policy lets them rule at its tournament."""
    try:
        ruling = selectors.ruling_detail(pk, request.user)
    except Ruling.DoesNotExist:
        raise Http404 from None
    policy.require(request.user, "ruling", ruling)
    return ruling


def form_errors(form, error):
    """A service's refusal (ValidationError) as the form's errors, each on its field."""
    for field, messages in error.message_dict.items():
        for message in messages:
            form.add_error(field if field in form.fields else None, message)


def _transfer_words(item):
    """The stored transfer's reason in the reader's language (computed again from the facts)."""
    try:
        if item.kind == TrickRuling.Kind.REVOKE:
            return translate(revoke_transfer(item.edition, RevokeFacts.from_dict(item.facts)).reason)
        if item.kind == TrickRuling.Kind.DEFECTIVE_TRICK:
            return translate(defective_trick_transfer(item.edition, DefectiveTrickFacts(**item.facts)).reason)
    except (RevokeError, TypeError):
        pass
    return item.reason


def _context(request, ruling, **extra):
    item = revokes.trick_ruling(ruling)
    result = ruling.result
    return {
        "ruling": ruling,
        "board": ruling.board,
        "table": ruling.table,
        "result": result,
        "item": item,
        "reason": _transfer_words(item) if item else "",
        "card_ranks": rank_preference(ruling.tournament),
        "editable": ruling.state == Ruling.State.DRAFT,
        **extra,
    }


def _run(form, write):
    """Run a service call; the refusals on ``form``. True when it succeeded."""
    try:
        write()
    except ValidationError as error:
        form_errors(form, error)
        return False
    return True


@login_required
def revoke_page(request, pk):
    ruling = ruling_to_work_on(request, pk)
    try:
        record = revokes.play_record(ruling)
    except ValidationError:
        record = None
    found = record.revokes() if record is not None else []
    action = request.POST.get("action") if request.method == "POST" else None
    data = request.POST if request.method == "POST" else None
    edition = services.edition_in_force(ruling.tournament)
    from_play = RevokeFromPlayForm(data if action == "from_play" else None, found=found, edition=edition, prefix="play")
    entered = RevokeEnteredForm(data if action == "entered" else None, edition=edition, prefix="entered")
    defective = DefectiveTrickForm(data if action == "defective" else None, prefix="defective")
    equity = EquityForm(data if action == "confirm" else None, prefix="confirm")
    if action == "from_play" and from_play.is_valid():
        values = dict(from_play.cleaned_data)
        index, established_by = values.pop("revoke"), values.pop("established_by")
        if _run(
            from_play,
            lambda: revokes.record_revoke(
                ruling=ruling, by=request.user, revoke=index, exemptions=values, established_by=established_by or None
            ),
        ):
            return redirect("rulings:ruling-revoke", ruling.pk)
    elif action == "entered" and entered.is_valid():
        if _run(entered, lambda: revokes.record_revoke(ruling=ruling, by=request.user, facts=entered.facts())):
            return redirect("rulings:ruling-revoke", ruling.pk)
    elif action == "defective" and defective.is_valid():
        if _run(
            defective, lambda: revokes.record_defective_trick(ruling=ruling, by=request.user, **defective.cleaned_data)
        ):
            return redirect("rulings:ruling-revoke", ruling.pk)
    elif action == "confirm" and equity.is_valid():
        if _run(
            equity,
            lambda: revokes.confirm(
                ruling=ruling,
                by=request.user,
                equity_tricks=equity.cleaned_data["equity_tricks"] or 0,
                equity_reason=equity.cleaned_data["equity_reason"],
            ),
        ):
            return redirect("rulings:ruling", ruling.pk)
    return render(
        request,
        "rulings/revoke_form.html",
        _context(
            request,
            ruling,
            found=found,
            from_play=from_play,
            entered=entered,
            defective=defective,
            equity=equity,
            record=record,
        ),
    )


@login_required
def claim_page(request, pk):
    ruling = ruling_to_work_on(request, pk)
    action = request.POST.get("action") if request.method == "POST" else None
    data = request.POST if request.method == "POST" else None
    claim = ClaimForm(data if action == "claim" else None, prefix="claim")
    award = AwardForm(data if action == "confirm" else None, prefix="confirm")
    if action == "claim" and claim.is_valid():
        if _run(claim, lambda: revokes.record_claim(ruling=ruling, by=request.user, **claim.cleaned_data)):
            return redirect("rulings:ruling-claim", ruling.pk)
    elif action == "confirm" and award.is_valid():
        if _run(award, lambda: revokes.confirm(ruling=ruling, by=request.user, **award.cleaned_data)):
            return redirect("rulings:ruling", ruling.pk)
    context = _context(request, ruling, claim=claim, award=award)
    item = context["item"]
    if item is not None and item.kind == TrickRuling.Kind.CLAIM and item.guide:
        context["hands"] = {
            # Spades first, as a hand is written: PostgreSQL's jsonb keeps its keys in its own order.
            seat: [(suit, item.guide["remaining"][seat].get(suit, "")) for suit in "SHDC"]
            for seat in "NESW"
        }
        context["deemed"] = revokes.deemed_orders(item)
    return render(request, "rulings/claim_form.html", context)
