"""The rulings list's filters, one set for the rulings page and the API: each value checked, a
wrong one named with its reason (a 400 on both) and left out of the filtering."""

from django_filters import rest_framework as filters

from core.api_contract import WholeNumberFilter
from rulings import selectors
from rulings.models import Ruling


class RulingFilter(filters.FilterSet):
    """The rulings list's filters (as the rulings page's), each checked: a wrong one is a 400."""

    tournament = WholeNumberFilter()
    session = WholeNumberFilter()
    board = WholeNumberFilter(help_text="A board's number")
    director = WholeNumberFilter(help_text="The director's user id")
    law = filters.CharFilter(help_text="A law number, or its start: 12, 12C, 12C1")
    kind = filters.ChoiceFilter(choices=Ruling.Kind.choices)
    state = filters.ChoiceFilter(choices=list(Ruling.State.choices) + [(selectors.AWAITING_RESULT, "awaiting result")])

    class Meta:
        model = Ruling
        fields: list[str] = []

    def filter_queryset(self, queryset):
        values = {name: value for name, value in self.form.cleaned_data.items() if value not in (None, "")}
        if not values:
            return queryset
        # the narrowed list keeps what the caller prefetches (the API its penalties and extensions,
        # the page nothing), so a filter adds no query
        lookups = queryset._prefetch_related_lookups
        return selectors.filtered_rulings(self.request.user, **values).prefetch_related(*lookups)
