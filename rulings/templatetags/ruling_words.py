"""``{% load ruling_words %}``: ``{{ ruling.rectification|ruling_words }}`` shows the words a
service wrote into a ruling (a revoke's transfer, a claim's tricks: rulings/texts.py) in the
reader's language, and whatever the director wrote as written."""

from django import template

from rulings.texts import ruling_words as _ruling_words

register = template.Library()


@register.filter
def ruling_words(value):
    return _ruling_words(value)
