"""The director's page for an irregular call or card (issue #28): what happened, the options the
Laws of the edition in force offer, and the one chosen. Thin: rulings/services/irregularities.py
does the work."""

from typing import cast

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from bridge.irregularities import comparable_law
from core.i18n import rank_preference
from rulings import services
from rulings.models import Ruling
from rulings.revoke_views import form_errors, ruling_to_work_on
from scoring.models import SEAT_CHOICES

KIND_CHOICES = [
    ("insufficient_bid", gettext_lazy("Insufficient bid (Law 27)")),
    ("out_of_rotation", gettext_lazy("Call out of rotation (Laws 29-32)")),
    ("change_of_call", gettext_lazy("Change of call (Law 25)")),
    ("inadmissible_call", gettext_lazy("Inadmissible call (Laws 35-39)")),
    ("lead_out_of_turn", gettext_lazy("Lead out of turn (Laws 53-56)")),
    ("exposed_card", gettext_lazy("Card exposed by a defender (Laws 49-50)")),
    ("premature_play", gettext_lazy("Premature lead or play by a defender (Law 57)")),
    ("penalty_card_not_played", gettext_lazy("Penalty card not played when it had to be (Law 52)")),
]
FACTS = (
    "call_number",
    "inserted",
    "seat",
    "attention_by",
    "artificial",
    "comparable",
    "trick",
    "card",
    "dummy_seen",
    "deliberate",
    "declarer_played",
    "unintended",
    "pause_for_thought",
    "partner_called",
    "auction_ended",
    "inadmissible",
    "lho_called",
    "later_calls",
)
INADMISSIBLE = [
    ("", "—"),
    ("double", gettext_lazy("A double or redouble Law 19 does not allow (Law 36)")),
    ("required_pass", gettext_lazy("A call by a player who had to pass (Law 37)")),
    ("above_seven", gettext_lazy("A bid above the seven level (Law 38)")),
    ("after_auction", gettext_lazy("A call after the auction ended (Law 39)")),
]


TRICKS = [("", "—"), *((n, str(n)) for n in range(1, 14))]


class IrregularityForm(forms.Form):
    """What happened, tapped (issue #39): the kind, the seats and the option are radio buttons
    (their words are tapped); the call's place, the call and the card are set by tapping the
    auction, the bidding box and the hand diagram (static/js/irregularity-form.js), the typed
    fields behind them staying as the page without scripts."""

    kind = forms.ChoiceField(label=gettext_lazy("What happened"), choices=KIND_CHOICES, widget=forms.RadioSelect)
    call_number = forms.IntegerField(
        label=gettext_lazy("Call number in the auction"),
        min_value=1,
        max_value=60,
        required=False,
        help_text=gettext_lazy("The irregular call, or the call it came before when it is entered below."),
    )
    inserted = forms.CharField(
        label=gettext_lazy("The irregular call, when the auction attached leaves it out"), max_length=4, required=False
    )
    trick = forms.IntegerField(
        label=gettext_lazy("Trick"), min_value=1, max_value=13, required=False, widget=forms.Select(choices=TRICKS)
    )
    card = forms.CharField(label=gettext_lazy("Card led or exposed"), max_length=3, required=False)
    seat = forms.ChoiceField(
        label=gettext_lazy("Offender"), choices=SEAT_CHOICES, required=False, widget=forms.RadioSelect
    )
    attention_by = forms.ChoiceField(
        label=gettext_lazy("Attention drawn by"), choices=SEAT_CHOICES, required=False, widget=forms.RadioSelect
    )
    artificial = forms.BooleanField(label=gettext_lazy("The call was artificial"), required=False)
    comparable = forms.BooleanField(
        label=gettext_lazy("The replacement is a comparable call (Law 23A)"), required=False
    )
    dummy_seen = forms.BooleanField(
        label=gettext_lazy("Declarer could have seen dummy's cards (Law 54C)"), required=False
    )
    deliberate = forms.BooleanField(label=gettext_lazy("Exposed through deliberate play (Law 50B)"), required=False)
    declarer_played = forms.BooleanField(
        label=gettext_lazy("Declarer had played from his hand or dummy after it (Law 52B1b)"), required=False
    )
    # Law 25: the call changed is the call number above; the call after it is the second call.
    unintended = forms.BooleanField(
        label=gettext_lazy("The first call was unintended (Law 25A)"),
        required=False,
    )
    pause_for_thought = forms.BooleanField(
        label=gettext_lazy("He paused for thought before changing it"), required=False
    )
    partner_called = forms.BooleanField(label=gettext_lazy("His partner had called since"), required=False)
    auction_ended = forms.BooleanField(label=gettext_lazy("The auction period had ended"), required=False)
    inadmissible = forms.ChoiceField(label=gettext_lazy("Inadmissible call"), choices=INADMISSIBLE, required=False)
    lho_called = forms.BooleanField(
        label=gettext_lazy("The offender's left-hand opponent called before the director ruled"), required=False
    )
    later_calls = forms.IntegerField(
        label=gettext_lazy("Calls made after it before the director ruled (Laws 36A, 38)"),
        min_value=0,
        max_value=40,
        required=False,
    )
    chosen = forms.CharField(required=False, widget=forms.HiddenInput)
    lead_option = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, edition="2017", **kwargs):
        """The director's judgement that a replacement is comparable, asked in the words of the
        edition's paragraph that reads it (``bridge.irregularities.comparable_law``: 2017 23A,
        2007 27B1b); not asked in 1997, whose Laws have no such paragraph."""
        super().__init__(*args, **kwargs)
        law = comparable_law(edition)
        if not law:
            del self.fields["comparable"]
        elif law != "23A":
            self.fields["comparable"].label = gettext(
                "The replacement has the same or a more precise meaning as the insufficient bid (Law %(law)s)"
            ) % {"law": law}

    def facts(self):
        return {
            name: self.cleaned_data.get(name) for name in FACTS if self.cleaned_data.get(name) not in (None, "", False)
        }


class AuctionForm(forms.Form):
    """The auction entered or put right on the bidding box (the typed field without scripts)."""

    auction_calls = forms.CharField(
        label=gettext_lazy("The auction, the dealer's call first"),
        max_length=400,
        help_text=gettext_lazy("The calls that stand, e.g. 1S P 4S P P P."),
    )


class TempoForm(forms.Form):
    """How long a call took, where the time comes from and its ± (issue #44, bridge.tempo): the
    call chosen from the auction's list, the rest typed or chosen; every refusal names its field."""

    tempo_call = forms.TypedChoiceField(
        label=gettext_lazy("Call"),
        coerce=int,
        error_messages={"invalid_choice": gettext_lazy("Call: choose the timed call from the list.")},
    )
    tempo_seconds = forms.IntegerField(
        label=gettext_lazy("Seconds the call took"),
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages={"invalid": gettext_lazy("Seconds: write the call's time as a whole number, e.g. 22.")},
    )
    tempo_uncertainty = forms.IntegerField(
        label=gettext_lazy("Uncertainty (± seconds)"),
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages={"invalid": gettext_lazy("Uncertainty: write it as whole seconds (the ± of the time), e.g. 1.")},
    )
    tempo_source = forms.ChoiceField(
        label=gettext_lazy("Source of the time"),
        required=False,
        error_messages={"invalid_choice": gettext_lazy("Source: choose where the time comes from in the list.")},
    )

    def __init__(self, *args, auction=None, **kwargs):
        from bridge.deals import SEAT_WORDS
        from bridge.diagrams import call_seats, call_text
        from bridge.tempo import TEMPO_SOURCES
        from core.i18n import translate

        super().__init__(*args, **kwargs)
        calls = []
        if auction is not None:
            seats = call_seats(auction)
            calls = [
                (n, f"{n} · {translate(SEAT_WORDS[seats[n - 1]])} {call_text(call.call)}")
                for n, call in enumerate(auction.calls, start=1)
            ]
        cast(forms.ChoiceField, self.fields["tempo_call"]).choices = calls
        cast(forms.ChoiceField, self.fields["tempo_source"]).choices = [("", "—")] + [
            (key, translate(words)) for key, words in TEMPO_SOURCES.items()
        ]


def _tempo(request, ruling, tempo_form):
    """Record the time the form gives; True when done, else the refusal is on the form's fields."""
    if not tempo_form.is_valid():
        return False
    data = tempo_form.cleaned_data
    try:
        services.record_call_tempo(
            ruling=ruling,
            by=request.user,
            call_number=data["tempo_call"],
            seconds=data["tempo_seconds"],
            source=data["tempo_source"],
            uncertainty=data["tempo_uncertainty"],
        )
    except ValidationError as error:
        form_errors(tempo_form, error)
        return False
    return True


@login_required
def irregularity_page(request, pk):
    from bridge.auction import Auction

    ruling = ruling_to_work_on(request, pk)
    action = request.POST.get("action") if request.method == "POST" else None
    auction_form = AuctionForm(
        request.POST if action == "auction" else None, initial={"auction_calls": _legal_calls(ruling)}
    )
    tempo_form = TempoForm(
        request.POST if action == "tempo" else None,
        auction=Auction.from_dict(ruling.auction) if ruling.auction else None,
    )
    if action == "auction":
        if auction_form.is_valid():
            try:
                services.enter_auction(
                    ruling=ruling, by=request.user, calls=auction_form.cleaned_data["auction_calls"].split()
                )
                return redirect("rulings:ruling-irregularity", ruling.pk)
            except ValidationError as error:
                form_errors(auction_form, error)
        action = None
    if action == "tempo":
        if _tempo(request, ruling, tempo_form):
            return redirect(f"{reverse('rulings:ruling-irregularity', args=[ruling.pk])}#tempo-entry")
        action = None
    form = IrregularityForm(request.POST if action else None, edition=services.edition_in_force(ruling.tournament))
    options, lead_options = [], []
    if action and form.is_valid():
        kind, facts = form.cleaned_data["kind"], form.facts()
        try:
            if action == "record":
                services.record_irregularity(
                    ruling=ruling,
                    by=request.user,
                    kind=kind,
                    facts=facts,
                    chosen=request.POST.get("chosen", ""),
                    lead_option=request.POST.get("lead_option", ""),
                )
                return redirect("rulings:ruling", ruling.pk)
            options = [_shown(option) for option in services.irregularity_options(ruling, kind=kind, facts=facts)]
            lead_options = [_shown(option) for option in _lead_options(ruling, options, facts)]
        except ValidationError as error:
            form_errors(form, error)
    return render(
        request,
        "rulings/irregularity_form.html",
        {
            "ruling": ruling,
            "board": ruling.board,
            "table": ruling.table,
            "form": form,
            "auction_form": auction_form,
            "tempo_form": tempo_form,
            "auction_notes": _notes(ruling),
            "tapped_fields": TAPPED,
            "options": options,
            "lead_options": lead_options,
            "detected": services.detected_irregularities(ruling),
            "chosen": request.POST.get("chosen", "") if action else "",
            "edition": services.edition_in_force(ruling.tournament),
            "card_ranks": rank_preference(ruling.tournament),
            "editable": ruling.state == Ruling.State.DRAFT,
            **tap_targets(ruling, rank_preference(ruling.tournament)),
        },
    )


def _notes(ruling):
    """The auction's notes (alerts, times with their source, remarks) in the reader's language."""
    from bridge.auction import Auction
    from bridge.diagrams import auction_notes
    from core.i18n import translate

    if not ruling.auction:
        return []
    return [dict(note, text=translate(note["text"])) for note in auction_notes(Auction.from_dict(ruling.auction))]


def _lead_options(ruling, options, facts):
    if not (any(option.get("penalty_card") == "major" for option in options) and facts.get("card")):
        return []
    from bridge.play_irregularities import penalty_card_lead_options
    from core.i18n import translate

    try:
        return [
            dict(c.to_dict(), text=translate(c.rectification.text))
            for c in penalty_card_lead_options(services.edition_in_force(ruling.tournament), [facts["card"]])
        ]
    except ValueError:
        return []


STRAINS = ("C", "D", "H", "S", "NT")
# The fields the page lays out itself (tapped, or the typed field behind a tap).
TAPPED = ("kind", "call_number", "inserted", "trick", "card", "seat", "attention_by")


def _legal_calls(ruling):
    from bridge.auction import Auction

    return " ".join(call.call for call in Auction.from_dict(ruling.auction).legal_calls()) if ruling.auction else ""


def _shown(option):
    """An option with what its key names in symbols (``27B1a:2D`` -> 2♦, ``prohibit:H,S`` ->
    ♥, ♠): the page shows the law, the symbols and the words, never the key."""
    from bridge.diagrams import call_text
    from core.i18n import suit_symbol

    named = str(option.get("key") or "").partition(":")[2]
    if named[:1].isdigit():
        named = call_text(named)
    elif named:
        named = ", ".join(suit_symbol(part) for part in named.split(",") if part)
    return dict(option, named=named)


def tap_targets(ruling, card_ranks):
    """What the director taps on the irregularity page (issue #39): the auction's calls, each
    with its number (``call_number``) and seat; the bidding box's calls (``inserted``, and the
    auction entered or put right, ``auction_calls``); and the hand diagram's cards (``card``
    and ``seat``). Symbols and the reader's words, never a code to type."""
    from bridge.auction import Auction
    from bridge.deals import DealError, parse_deal
    from bridge.diagrams import auction_rows, call_text
    from core.i18n import CALL_WORDS, display_card, rank_letters
    from scoring.texts import auction_words

    auction = Auction.from_dict(ruling.auction) if ruling.auction else None
    rows = auction_words(auction_rows(auction)) if auction else []
    number = 0
    for row in rows:
        for cell in row:
            if cell["call"]:
                number += 1
                cell["number"] = number
    try:
        deal = parse_deal(ruling.deal_pbn()) if ruling.deal_pbn() else None
    except DealError:
        deal = None
    letters = rank_letters(card_ranks)
    hands = []
    if deal is not None:
        for seat, label in SEAT_CHOICES:
            suits = [
                (suit, [(suit + rank, display_card(suit + rank, letters)[1:]) for rank in ranks if rank != "-"])
                for suit, ranks in deal.suits(seat)
            ]
            hands.append({"seat": seat, "label": label, "suits": suits})
    levels = [[(f"{level}{strain}", call_text(f"{level}{strain}")) for strain in STRAINS] for level in range(1, 8)]
    words = [(call, CALL_WORDS[call]) for call in ("Pass", "X", "XX")]
    return {
        "tap_rows": rows,
        "tap_hands": hands,
        "box_levels": levels,
        "box_words": words,
    }
