"""``{% load paging %}``: links between the pages of a long list (templates/_pager.html).

<a href="{% page_link 3 %}">      ?tournament=4&amp;law=16B&amp;page=3
"""

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def page_link(context, number):
    """This page's query string with ``page`` set to ``number``: every filter and search term
    the reader chose stays in the link."""
    query = context["request"].GET.copy()
    query["page"] = number
    return "?" + query.urlencode()
