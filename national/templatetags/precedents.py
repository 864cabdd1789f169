"""``{% load precedents %}{% precedents_for ruling %}``: the published cases most like a ruling,
one line each, for the ruling's page and the committee's case file."""

from django import template

from national import precedent_selectors

register = template.Library()


@register.inclusion_tag("national/_precedents.html", takes_context=True)
def precedents_for(context, ruling):
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or ruling is None or not user.is_authenticated:
        return {"suggestions": []}
    suggestions = precedent_selectors.similar_cases(ruling, user=user)
    cases = [s.case for s in suggestions]
    listed = precedent_selectors.listing(user, cases)
    return {"suggestions": [(s, link, others) for s, (_case, link, others) in zip(suggestions, listed, strict=True)]}
