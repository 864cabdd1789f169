"""The national body's full check of the audit trail against every signed tree head; it signs
nothing, every write having signed its own head (the desk itself checks from the last signed
head: audit.services.verify_chain)."""

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from audit.services import verify_chain
from national.views import national_reader_required


@require_POST
@national_reader_required
def verify_trail(request):
    """Every entry from the first, as ``manage.py verify_audit`` does; the outcome is the message
    on the desk."""
    check = verify_chain()
    if check.intact:
        messages.success(
            request, _("The whole audit trail is intact: %(n)s entries verified from the first.") % {"n": check.checked}
        )
    else:
        where = (
            _("The chain breaks at entry %(n)s:") % {"n": check.broken.sequence}
            if check.broken is not None
            else _("The chain is broken:")
        )
        messages.error(
            request,
            _("%(where)s %(reason)s. %(n)s entries before it are intact.")
            % {"where": where, "reason": check.reason, "n": check.checked},
        )
    return redirect("national:national-home")
