"""``{% waiting_for_me %}``: what waits for the reader in the appeals (``Notification`` rows), as
the appeals pages and the site's home page show it. A template tag, so the home page (drawn by
``scoring``, below ``appeals``) shows it without importing this app."""

from django import template

from appeals import notifications

register = template.Library()


@register.inclusion_tag("appeals/_waiting_for_you.html", takes_context=True)
def waiting_for_me(context, notices=None):
    user = context.get("user") or getattr(context.get("request"), "user", None)
    if notices is None:
        notices = notifications.waiting_for(user) if user is not None and user.is_authenticated else []
    return {"notices": notices}
