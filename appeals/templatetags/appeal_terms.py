"""``{% load appeal_terms %}{% term tournament "committee" body.get_kind_display %}``: the
regulating authority's own word for a term (appeals/terms.py), else the default given, else the
project's word."""

from django import template

from appeals import terms

register = template.Library()


@register.simple_tag(name="term")
def term_tag(where, key, default=None):
    return terms.term(where, key, default)
