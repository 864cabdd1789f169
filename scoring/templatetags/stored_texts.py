"""``{% load stored_texts %}``: ``{{ ruling.score_description|score_words }}`` shows a score's words
as services wrote them ("weighted 60% +420 / 40% -50", "N-S AVE+, E-W AVE-") in the reader's
language (scoring.texts.score_words; docs/translations.md, "Stored texts"), and
``score_html`` the same with each score isolated left to right (scoring.texts.score_html)."""

from django import template

from scoring.texts import score_html as _score_html
from scoring.texts import score_words as _score_words

register = template.Library()


@register.filter
def score_words(value):
    return _score_words(value)


@register.filter
def score_html(value):
    return _score_html(value)
