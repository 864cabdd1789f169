"""``{% load my_rulings %}``: the home page's cards of a person's own rulings with their clocks
(issue #42, item 10). Template tags, so the home page (drawn by ``scoring``, below ``rulings``)
shows them without importing this app; what each lists is rulings.selectors', by the policy."""

from django import template

from rulings import selectors

register = template.Library()


def _user(context):
    return context.get("user") or getattr(context.get("request"), "user", None)


@register.inclusion_tag("rulings/_my_open_rulings.html", takes_context=True)
def my_open_rulings(context):
    """A director's card: the rulings they gave or drafted still open, with their clocks."""
    user = _user(context)
    return {"rows": selectors.my_open_rulings(user) if user is not None else []}
