"""The director's ruling form: the common cases in under a minute, on a phone."""

from django import forms
from django.utils.translation import gettext_lazy as _

from rulings.models import Penalty, Ruling
from scoring.models import SEAT_CHOICES

SEATS = [("", "—"), *SEAT_CHOICES]
ARTIFICIAL = [("AVE+", _("Average plus")), ("AVE", _("Average")), ("AVE-", _("Average minus"))]
WEIGHT_ROWS = 5


class RulingForm(forms.Form):
    kind = forms.ChoiceField(label=_("Kind of ruling"), choices=Ruling.Kind.choices)
    called_by = forms.ChoiceField(label=_("Called by"), choices=SEATS, required=False)
    facts = forms.CharField(label=_("Facts"), widget=forms.Textarea(attrs={"rows": 3}), required=False)
    laws = forms.CharField(label=_("Laws"), help_text=_("e.g. 16B1a, 12C1c"), required=False,
                           widget=forms.TextInput(attrs={"autocapitalize": "characters", "list": "law-list"}))
    ruling_text = forms.CharField(label=_("Ruling"), widget=forms.Textarea(attrs={"rows": 2}), required=False)
    reasoning = forms.CharField(label=_("Reasoning"), widget=forms.Textarea(attrs={"rows": 3}), required=False)
    outcome = forms.ChoiceField(label=_("Outcome"), choices=Ruling.Outcome.choices, widget=forms.RadioSelect,
                                initial=Ruling.Outcome.RESULT_STANDS)
    offending_side = forms.ChoiceField(label=_("Offending side"), required=False,
                                       choices=[("", "—"), ("NS", _("N-S")), ("EW", _("E-W"))])
    score_kind = forms.ChoiceField(label=_("Adjusted score"), required=False,
                                   choices=[("", "—"), *Ruling.ScoreKind.choices])
    # Assigned (and split: a second result for E-W)
    contract = forms.CharField(label=_("Contract"), required=False, max_length=6)
    declarer = forms.ChoiceField(label=_("Declarer"), choices=SEATS, required=False)
    tricks = forms.IntegerField(label=_("Tricks"), required=False, min_value=0, max_value=13)
    ew_contract = forms.CharField(label=_("E-W contract"), required=False, max_length=6)
    ew_declarer = forms.ChoiceField(label=_("E-W declarer"), choices=SEATS, required=False)
    ew_tricks = forms.IntegerField(label=_("E-W tricks"), required=False, min_value=0, max_value=13)
    # Artificial
    ns_artificial = forms.ChoiceField(label=_("N-S"), choices=ARTIFICIAL, required=False)
    ew_artificial = forms.ChoiceField(label=_("E-W"), choices=ARTIFICIAL, required=False)
    # Procedural penalty
    penalty_side = forms.ChoiceField(label=_("Penalty on"), required=False,
                                     choices=[("", "—"), ("NS", _("N-S")), ("EW", _("E-W"))])
    penalty_amount = forms.DecimalField(label=_("Amount"), required=False, min_value=0, decimal_places=2)
    penalty_unit = forms.ChoiceField(label=_("Unit"), required=False, choices=[
        (Penalty.Unit.PERCENT_OF_TOP, _("percent of a top")), (Penalty.Unit.MATCHPOINTS, _("matchpoints")),
        (Penalty.Unit.IMPS, _("IMPs"))])
    penalty_offence = forms.CharField(label=_("Offence"), required=False, max_length=300)
    # Deal and auction
    deal_source = forms.CharField(label=_("Deal and auction (BBO link, LIN or PBN)"), required=False,
                                  widget=forms.Textarea(attrs={"rows": 2, "spellcheck": "false"}))
    deal_file = forms.FileField(label=_("or a PBN or LIN file"), required=False)

    def clean(self):
        data = super().clean()
        upload = data.get("deal_file")
        if upload and not data.get("deal_source"):
            raw = upload.read(200_000)
            try:
                data["deal_source"] = raw.decode("utf-8")
            except UnicodeDecodeError:
                data["deal_source"] = raw.decode("latin-1")  # older programs write Latin-1
        return data

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for i in range(1, WEIGHT_ROWS + 1):
            self.fields[f"w{i}_contract"] = forms.CharField(required=False, max_length=6, label=_("Contract"))
            self.fields[f"w{i}_declarer"] = forms.ChoiceField(choices=SEATS, required=False, label=_("Declarer"))
            self.fields[f"w{i}_tricks"] = forms.IntegerField(required=False, min_value=0, max_value=13,
                                                             label=_("Tricks"))
            self.fields[f"w{i}_weight"] = forms.CharField(required=False, max_length=10, label=_("Weight"),
                                                          widget=forms.TextInput(attrs={"inputmode": "decimal"}))

    def weight_rows(self):
        """The bound fields of each weighted row, for the template."""
        return [[self[f"w{i}_{part}"] for part in ("contract", "declarer", "tricks", "weight")]
                for i in range(1, WEIGHT_ROWS + 1)]

    def weighted_input(self):
        rows = []
        for i in range(1, WEIGHT_ROWS + 1):
            data = {part: self.cleaned_data.get(f"w{i}_{part}") for part in ("contract", "declarer", "tricks",
                                                                              "weight")}
            if any(v not in (None, "") for v in data.values()):
                rows.append(data)
        return rows

    def score_input(self):
        """(ns, ew) in the form rulings.services.build_adjusted_score takes."""
        kind, data = self.cleaned_data.get("score_kind"), self.cleaned_data
        if kind == Ruling.ScoreKind.WEIGHTED:
            return self.weighted_input(), None
        if kind == Ruling.ScoreKind.ARTIFICIAL:
            return data.get("ns_artificial"), data.get("ew_artificial")
        ns = {"contract": data.get("contract"), "declarer": data.get("declarer"), "tricks": data.get("tricks")}
        ew = None
        if data.get("ew_contract"):
            ew = {"contract": data["ew_contract"], "declarer": data.get("ew_declarer"), "tricks": data.get("ew_tricks")}
        return ns, ew
