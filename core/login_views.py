"""The locked-out logins page (core/logins.py): a chief director or a superuser reads who is
locked out and unlocks them."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from core import logins


@login_required
def locked_logins(request):
    """GET: the usernames and addresses locked out now; POST (kind, value): unlock one."""
    if request.method == "POST":
        kind, value = request.POST.get("kind", ""), request.POST.get("value", "")
        try:
            forgotten = logins.unlock(by=request.user, kind=kind, value=value)
        except ValidationError as error:
            for reason in error.messages:  # each names what it asks for
                messages.error(request, reason)
        else:
            if forgotten:
                messages.success(request, _("%(who)s is unlocked: it may log in at once.") % {"who": value.strip()})
            else:
                messages.info(request, _("%(who)s was not locked out.") % {"who": value.strip()})
        return redirect("scoring:locked-logins")
    return render(request, "scoring/locked_logins.html", {"lockouts": logins.locked_out(request.user)})
