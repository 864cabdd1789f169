"""The director's page for Law 16 (issue #28): the source of the unauthorised information, the
action chosen, the logical alternatives and the poll, what was demonstrably suggested, the
finding and the weighted score proposed. Thin: rulings/services/unauthorised.py does the work."""

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy

from rulings import selectors, services
from rulings.models import Ruling
from rulings.revoke_views import SEATS, form_errors, ruling_to_work_on

ROWS = 3
SOURCE_CHOICES = [
    ("hesitation", gettext_lazy("Hesitation (a break in tempo)")),
    ("unwonted_speed", gettext_lazy("Unwonted speed")),
    ("remark", gettext_lazy("Remark")),
    ("question", gettext_lazy("Question")),
    ("reply", gettext_lazy("Reply to a question")),
    ("alert", gettext_lazy("Unexpected alert")),
    ("failure_to_alert", gettext_lazy("Failure to alert")),
    ("explanation", gettext_lazy("Explanation")),
    ("emphasis", gettext_lazy("Special emphasis or tone")),
    ("gesture", gettext_lazy("Gesture, movement or mannerism")),
    ("other", gettext_lazy("Other")),
]
LOGICAL = [
    ("", gettext_lazy("as the poll suggests")),
    ("yes", gettext_lazy("a logical alternative")),
    ("no", gettext_lazy("not a logical alternative")),
]


class UnauthorisedForm(forms.Form):
    source_kind = forms.ChoiceField(label=gettext_lazy("Source of the information"), choices=SOURCE_CHOICES)
    source_seat = forms.ChoiceField(label=gettext_lazy("Made available by"), choices=SEATS)
    seconds = forms.IntegerField(
        label=gettext_lazy("How long (seconds)"),
        min_value=0,
        max_value=3600,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    agreed = forms.ChoiceField(
        label=gettext_lazy("That it happened is"),
        widget=forms.RadioSelect,
        initial="agreed",
        choices=[
            ("agreed", gettext_lazy("agreed by both sides")),
            ("found", gettext_lazy("disputed, found by the director (Law 85)")),
            ("not_found", gettext_lazy("disputed, not established (Law 85)")),
        ],
    )
    note = forms.CharField(label=gettext_lazy("What happened"), max_length=300, required=False)
    chosen = forms.CharField(label=gettext_lazy("Action the partner chose"), max_length=40)
    gained = forms.BooleanField(label=gettext_lazy("The offenders gained (the other side was damaged)"), required=False)
    reasoning = forms.CharField(
        label=gettext_lazy("Reasoning"), widget=forms.Textarea(attrs={"rows": 3}), required=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for i in range(1, ROWS + 1):
            self.fields[f"alt{i}_action"] = forms.CharField(
                label=gettext_lazy("Alternative"), max_length=40, required=False
            )
            self.fields[f"alt{i}_chose"] = forms.IntegerField(
                label=gettext_lazy("Polled players who chose it"), min_value=0, required=False
            )
            self.fields[f"alt{i}_considered"] = forms.IntegerField(
                label=gettext_lazy("who would seriously consider it"), min_value=0, required=False
            )
            self.fields[f"alt{i}_suggested"] = forms.BooleanField(
                label=gettext_lazy("The information demonstrably suggested the action chosen over it"),
                required=False,
            )
            self.fields[f"alt{i}_logical"] = forms.ChoiceField(
                label=gettext_lazy("Director's decision"), choices=LOGICAL, required=False
            )
            self.fields[f"alt{i}_contract"] = forms.CharField(
                label=gettext_lazy("Result: contract"), max_length=6, required=False
            )
            self.fields[f"alt{i}_declarer"] = forms.ChoiceField(
                label=gettext_lazy("Declarer"), choices=SEATS, required=False
            )
            self.fields[f"alt{i}_tricks"] = forms.IntegerField(
                label=gettext_lazy("Tricks"), min_value=0, max_value=13, required=False
            )

    PARTS = ("action", "chose", "considered", "suggested", "logical", "contract", "declarer", "tricks")

    def rows(self):
        return [[self[f"alt{i}_{part}"] for part in self.PARTS] for i in range(1, ROWS + 1)]

    def alternatives(self):
        data = self.cleaned_data
        return [{part: data.get(f"alt{i}_{part}") for part in self.PARTS} for i in range(1, ROWS + 1)]


def _initial(ruling):
    record = ruling.unauthorised_information
    if not record:
        return None
    source = record["source"]
    initial = {
        "source_kind": source["kind"],
        "source_seat": source["seat"],
        "seconds": source["seconds"],
        "agreed": "agreed" if source["agreed"] else ("found" if source["found"] else "not_found"),
        "note": source["note"],
        "chosen": record["chosen"],
        "gained": record["gained"],
        "reasoning": record["reasoning"],
    }
    for i, row in enumerate(record["alternatives"][:ROWS], start=1):
        for part in UnauthorisedForm.PARTS:
            value = row.get(part)
            if part == "logical":
                value = "" if value is None else ("yes" if value else "no")
            initial[f"alt{i}_{part}"] = value
    return initial


@login_required
def unauthorised_page(request, pk):
    ruling = ruling_to_work_on(request, pk)
    form = UnauthorisedForm(request.POST or None, initial=_initial(ruling))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.record_unauthorised_information(
                ruling=ruling,
                by=request.user,
                source={
                    "kind": data["source_kind"],
                    "seat": data["source_seat"],
                    "seconds": data["seconds"],
                    "agreed": data["agreed"] == "agreed",
                    "found": data["agreed"] == "found",
                    "note": data["note"],
                },
                chosen=data["chosen"],
                alternatives=form.alternatives(),
                gained=data["gained"],
                reasoning=data["reasoning"],
            )
            return redirect("rulings:ruling-unauthorised", ruling.pk)
        except ValidationError as error:
            form_errors(form, error)
    return render(
        request,
        "rulings/unauthorised_form.html",
        {
            "ruling": ruling,
            "board": ruling.board,
            "table": ruling.table,
            "form": form,
            "record": ruling.unauthorised_information,
            "poll": ruling.poll,
            "poll_finding": selectors.poll_finding(ruling),
            "edition": services.edition_in_force(ruling.tournament),
            "editable": ruling.state == Ruling.State.DRAFT,
        },
    )
