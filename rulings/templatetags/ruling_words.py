"""``{% load ruling_words %}``: ``{{ ruling.rectification|ruling_words }}`` shows the words a
service wrote into a ruling (a revoke's transfer, a claim's tricks: rulings/texts.py) in the
reader's language, and whatever the director wrote as written."""

from django import template

from rulings.texts import ruling_words as _ruling_words

register = template.Library()


@register.filter
def ruling_words(value):
    return _ruling_words(value)


@register.simple_tag
def irregularity_lines(ruling):
    """``{% irregularity_lines ruling as lines %}``: each irregularity in the reader's words
    (rulings/irregularity_words.py)."""
    from rulings.irregularity_words import irregularity_lines as lines

    return lines(ruling)


@register.filter
def stored_words(stored):
    """``{{ item.rectification|stored_words }}``: a stored rectification in the reader's language."""
    from rulings.irregularity_words import stored_words as words

    return words(stored)
