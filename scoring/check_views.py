"""The score checks' page of a session (issue #44; scoring/score_checks.py): each flag with its
board, and a one-tap accept or a correction of the result; for whoever writes the record."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from core import policy
from scoring import score_checks, selectors, services
from scoring.models import Result, Session


def _session(request, pk):
    session = get_object_or_404(
        Session.objects.select_related("event__tournament__authority").filter(
            event__tournament__in=selectors.visible_tournaments(request.user)
        ),
        pk=pk,
    )
    if not policy.may(request.user, "write_record", session.event.tournament):
        policy.refuse("write_record")
    return session


@login_required
def session_checks(request, pk, errors=None, status=200):
    session = _session(request, pk)
    return render(
        request,
        "scoring/session_checks.html",
        {
            "session": session,
            "event": session.event,
            "tournament": session.event.tournament,
            "checks": score_checks.session_checks(session),
            "errors": errors or {},
        },
        status=status,
    )


def _result(request, session):
    return get_object_or_404(Result, board__session=session, pk=request.POST.get("result") or 0)


@login_required
def accept_check(request, pk):
    """One tap: the flag looked at, the result stands (services.accept_score_check)."""
    if request.method != "POST":
        return redirect("scoring:session-checks", pk)
    session = _session(request, pk)
    try:
        services.accept_score_check(
            result=_result(request, session), code=request.POST.get("code", ""), by=request.user
        )
    except ValidationError as error:
        return session_checks(request, pk, errors=error.message_dict, status=400)
    messages.success(request, _("Accepted: the result stands as recorded."))
    return redirect("scoring:session-checks", pk)


@login_required
def correct_check(request, pk):
    """The flagged result corrected from the checks' page (services.correct_result, Law 79C)."""
    if request.method != "POST":
        return redirect("scoring:session-checks", pk)
    session = _session(request, pk)
    result = _result(request, session)
    posted = request.POST
    fields = {"contract": posted.get("contract", "").strip(), "declarer": posted.get("declarer", "").strip().upper()}
    tricks = posted.get("tricks", "").strip()
    if fields["contract"].upper() not in ("PASS", "P"):
        if not tricks.isdigit():
            return session_checks(
                request, pk, errors={"tricks": [_("Tricks: a whole number from 0 to 13.")]}, status=400
            )
        fields["tricks"] = int(tricks)
    else:
        fields.update(contract="PASS", declarer="", tricks=None)
    try:
        services.correct_result(result=result, by=request.user, **fields)
    except ValidationError as error:
        return session_checks(request, pk, errors=error.message_dict, status=400)
    messages.success(request, _("The result is corrected; the scores are being recalculated."))
    return redirect("scoring:session-checks", pk)
