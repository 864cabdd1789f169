"""``{% waiting_for_me %}``: what waits for the reader in the appeals (``Notification`` rows), as
the appeals pages and the site's home page show it. A template tag, so the home page (drawn by
``scoring``, below ``appeals``) shows it without importing this app."""

from django import template

from appeals import notifications, todo

register = template.Library()


@register.inclusion_tag("appeals/_waiting_for_you.html", takes_context=True)
def waiting_for_me(context, notices=None):
    user = context.get("user") or getattr(context.get("request"), "user", None)
    signed_in = user is not None and user.is_authenticated
    if notices is None:
        notices = notifications.waiting_for(user) if signed_in else []
    # Done is gone: a notice of a case no longer open (decided, withdrawn) is not waiting for anyone.
    notices = [n for n in notices if n.appeal.state in n.appeal.OPEN_STATES]
    return {"todo": todo.todo_for(user) if signed_in else [], "notices": notices}


@register.inclusion_tag("appeals/_my_seats.html", takes_context=True)
def cases_i_sit_on(context):
    """The cases the reader sits on (at the event or further), open ones first, for a member's
    card on the home page."""
    from appeals import selectors

    user = context.get("user") or getattr(context.get("request"), "user", None)
    cases = list(selectors.cases_for_member(user)) if user is not None and user.is_authenticated else []
    cases.sort(key=lambda a: (not a.is_open, a.lodged_at))
    return {"cases": cases}


@register.inclusion_tag("appeals/_my_tables.html", takes_context=True)
def my_tables(context):
    """A player's card on the home page: the rulings at their tables with the clock of each
    appeal period still open, and their open appeals with the next deadline of each (issue #42)."""
    from appeals import selectors

    user = context.get("user") or getattr(context.get("request"), "user", None)
    if user is None:
        return {"rows": [], "appeals": []}
    return {"rows": selectors.my_tables(user), "appeals": selectors.my_open_appeals(user)}
