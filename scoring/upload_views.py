"""A club's upload to a field on a phone (issue #44; scoring/field_uploads.py): its rows' flags,
each with its board, table and reason, confirmed with one tap or corrected by the field's chief
director; read by whoever writes the tournament's record."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from core import policy
from scoring import field_uploads, selectors, services
from scoring.models import FieldUpload, UploadFlag


def _upload(request, pk):
    upload = get_object_or_404(
        FieldUpload.objects.select_related("session__event__tournament__authority").filter(
            session__event__tournament__in=selectors.visible_tournaments(request.user)
        ),
        pk=pk,
    )
    if not policy.may(request.user, "write_record", upload.session.event.tournament):
        policy.refuse("write_record")
    return upload


@login_required
def field_upload(request, pk, errors=None, status=200):
    upload = _upload(request, pk)
    flags = list(upload.flags.all())
    for flag in flags:
        flag.words = field_uploads.message(flag.code, flag.params)
        flag.par = field_uploads.par_of(flag.params)
        flag.sent = upload.rows[flag.row] if flag.row < len(upload.rows) else {}
    return render(
        request,
        "scoring/field_upload.html",
        {
            "upload": upload,
            "session": upload.session,
            "event": upload.session.event,
            "tournament": upload.session.event.tournament,
            "flags": flags,
            "open": [flag for flag in flags if flag.answer == UploadFlag.Answer.OPEN],
            "errors": errors or {},
        },
        status=status,
    )


def _flag(request, upload):
    return get_object_or_404(UploadFlag, upload=upload, pk=request.POST.get("flag") or 0)


def _answered(upload):
    if upload.state == FieldUpload.State.JOINED:
        return _("Every flag is answered: the upload has joined the field.")
    return _("Answered: the upload waits for its other flags.")


@login_required
def confirm_flag(request, pk):
    """One tap: the flagged row stands (services.confirm_upload_flag)."""
    if request.method != "POST":
        return redirect("scoring:field-upload", pk)
    upload = _upload(request, pk)
    try:
        upload = services.confirm_upload_flag(
            flag=_flag(request, upload), by=request.user, note=request.POST.get("note", "")
        )
    except ValidationError as error:
        return field_upload(request, pk, errors=error.message_dict, status=400)
    messages.success(request, _answered(upload))
    return redirect("scoring:field-upload", pk)


@login_required
def correct_flag(request, pk):
    """The flagged row corrected and checked again (services.correct_upload_row)."""
    if request.method != "POST":
        return redirect("scoring:field-upload", pk)
    upload = _upload(request, pk)
    posted = request.POST
    try:
        upload = services.correct_upload_row(
            flag=_flag(request, upload),
            by=request.user,
            contract=posted.get("contract", ""),
            declarer=posted.get("declarer", ""),
            tricks=posted.get("tricks", "").strip() or None,
            score_ns=posted.get("score_ns", "").strip() or None,
        )
    except ValidationError as error:
        return field_upload(request, pk, errors=error.message_dict, status=400)
    messages.success(request, _answered(upload))
    return redirect("scoring:field-upload", pk)
