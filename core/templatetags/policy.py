"""``{% load policy %}``: whether the reader may take a step, asked of the policy in the template
(core.policy.may), so a page shows a step's button by the same rule its service enforces and no
view computes a flag of its own.

{% may "ruling" tournament as can_rule %}{% if can_rule %}<a href="...">Ruling</a>{% endif %}
{% may "unlock_logins" as may_unlock %}        a step for the whole site: no record
"""

from typing import Any

from django import template

from core import policy

register = template.Library()


@register.simple_tag(takes_context=True)
def may(context: template.Context, action: str, obj: Any = None) -> bool:
    """Whether the request's user may take ``action`` on ``obj`` (``policy.may``)."""
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    return policy.may(user, action, obj)
