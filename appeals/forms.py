"""The case page's Django forms: what only the page shows. A step's input itself is defined
once, in appeals/inputs.py, for the page and the API alike."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from appeals.models import Outcome
from rulings.forms import RulingForm


class DecisionForm(RulingForm):
    """The decision: uphold, vary or overturn, and the adjusted score in the same form as a ruling's."""

    decision = forms.ChoiceField(  # type: ignore[assignment]  # a field named as RulingForm.decision()
        label=gettext_lazy("Decision"), choices=Outcome.choices, widget=forms.RadioSelect
    )
    reasons = forms.CharField(label=gettext_lazy("Reasons"), widget=forms.Textarea(attrs={"rows": 3}))

    def decided(self):
        """(outcome, reasons with the law cited, score_kind, ns, ew) for a decision service."""
        data = self.cleaned_data
        kind = data.get("score_kind") or ""
        ns, ew = self.score_input()
        reasons = data["reasons"]
        if data.get("laws", "").strip():
            reasons = _("Law %(laws)s: %(reasons)s") % {"laws": data["laws"].strip(), "reasons": reasons}
        return data["decision"], reasons, kind, ns if kind else None, ew if kind else None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["laws"].label = gettext_lazy("Law cited")
        for name in (
            "kind",
            "called_by",
            "facts",
            "ruling_text",
            "reasoning",
            "outcome",
            "offending_side",
            "penalty_side",
            "penalty_amount",
            "penalty_unit",
            "penalty_offence",
            "deal_source",
            "deal_file",
        ):
            del self.fields[name]

    def read(self, *, score_only=False):
        """The step's input from the form, as appeals/inputs.py reads it: ``outcome``, ``reasons``
        (with the law cited), ``score_kind``, ``ns`` and ``ew``; with ``score_only`` the adjusted
        score alone (an answer to a recommendation). A ``ValidationError`` names each field wrong."""
        if score_only:
            self.fields["decision"].required = self.fields["reasons"].required = False
        if not self.is_valid():
            raise ValidationError({name: [str(e) for e in errors] for name, errors in self.errors.items()})
        kind = self.cleaned_data.get("score_kind") or ""
        ns, ew = self.score_input()
        score = {"score_kind": kind, "ns": ns if kind else None, "ew": ew if kind else None}
        if score_only:
            return score
        outcome, reasons, *_score = self.decided()
        return {"outcome": outcome, "reasons": reasons, **score}
