"""``{% load precedents %}{% precedents_for ruling %}``: the published cases most like a ruling,
one line each, for the ruling's page and the committee's case file; where none is alike enough
(``national.likeness.FLOOR``), a reader of the body's casebooks is told so plainly."""

from django import template

from national import precedent_selectors

register = template.Library()


@register.inclusion_tag("national/_precedents.html", takes_context=True)
def precedents_for(context, ruling):
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or ruling is None or not user.is_authenticated:
        return {"suggestions": [], "none_alike": False}
    suggestions = precedent_selectors.similar_cases(ruling, user=user)
    if not suggestions:
        return {"suggestions": [], "none_alike": precedent_selectors.may_read_precedents(ruling, user)}
    cases = [s.case for s in suggestions]
    listed = precedent_selectors.listing(user, cases)
    return {
        "suggestions": [(s, link, others) for s, (_case, link, others) in zip(suggestions, listed, strict=True)],
        "none_alike": False,
    }
