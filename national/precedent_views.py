"""Precedent pages: search the published cases of the reader's national bodies, and read one
published case as the casebook printed it."""

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from appeals.models import Outcome
from national import precedent_selectors
from national.casebooks import TEXT_GROUPS, text_field_labels
from rulings.models import Ruling


class PrecedentSearchForm(forms.Form):
    law = forms.CharField(label=gettext_lazy("Law"), required=False, max_length=12)
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), required=False, choices=[("", ""), *Ruling.Kind.choices])
    outcome = forms.ChoiceField(
        label=gettext_lazy("Outcome"),
        required=False,
        choices=[("", ""), *Outcome.choices, (precedent_selectors.WITHOUT_MERIT, gettext_lazy("Without merit"))],
    )
    year = forms.IntegerField(label=gettext_lazy("Year"), required=False, min_value=1900, max_value=2200)
    q = forms.CharField(label=gettext_lazy("Words"), required=False, max_length=200)
    # The casebook's language: a case translated into the reader's language is found in it.
    language = forms.ChoiceField(
        label=gettext_lazy("Language"), required=False, choices=[("", ""), *settings.LANGUAGES]
    )

    def clean_law(self):
        law = self.cleaned_data["law"].strip()
        if law and not precedent_selectors.law_parts(law):
            raise forms.ValidationError(_("A law is cited by its number, e.g. 16 or 16B1a."))
        return law


@login_required
def precedent_search(request):
    precedent_selectors.require_reader(request.user)
    form = PrecedentSearchForm(request.GET or None)
    cases = []
    if form.is_bound and form.is_valid():
        cases = precedent_selectors.search(request.user, limit=100, **form.cleaned_data)
    elif not form.is_bound:
        cases = precedent_selectors.search(request.user, limit=100)
    rows = precedent_selectors.listing(request.user, precedent_selectors.with_other_languages(request.user, cases))
    return render(request, "national/precedents.html", {"form": form, "rows": rows})


@login_required
def precedent_detail(request, pk):
    precedent_selectors.require_reader(request.user)
    case = get_object_or_404(precedent_selectors.visible_precedents(request.user), pk=pk)
    entry = next((e for e in case.casebook.content["cases"] if e["number"] == case.position), None)
    if entry is None:
        raise PermissionDenied(_("This case is no longer in its casebook."))
    labels = text_field_labels()
    # The facts, the ruling and the decision; the parties' cases and the hearing record stay in
    # the casebook itself, which only the body's auditors read (docs/national.md).
    groups = [
        [(labels[key], entry["texts"].get(key)) for key in keys if entry["texts"].get(key)]
        for group, keys in TEXT_GROUPS.items()
        if group != "appeal"
    ]
    return render(request, "national/precedent.html", {"case": case, "entry": entry, "groups": groups})
