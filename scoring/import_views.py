"""The results-file upload of an event: a scorer or director uploads a PBN or USEBIO file, sees a
preview (boards, results, contestants; every warning and refusal with its line and field) and
confirms; only then is anything written, all or nothing (scoring/importers/session_import.py).

Between preview and confirmation the file waits under VAR_DIR/imports, named by a random token
and kept for its uploader and event only."""

import json
import secrets
import time

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils.translation import gettext as _

from core import policy
from scoring import selectors
from scoring.importers.session_import import ImportRefused, check_size, import_file
from scoring.views import visible_event

PENDING_SECONDS = 24 * 3600


def _pending_dir():
    folder = settings.VAR_DIR / "imports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _forget_old():
    for path in _pending_dir().glob("*"):
        try:
            if time.time() - path.stat().st_mtime > PENDING_SECONDS:
                path.unlink()
        except OSError:
            pass


def _keep(data, user, event, session_number, name, replace=False):
    _forget_old()
    token = secrets.token_hex(16)
    folder = _pending_dir()
    (folder / f"{token}.bin").write_bytes(data)
    (folder / f"{token}.json").write_text(
        json.dumps({"user": user.pk, "event": event.pk, "session": session_number, "name": name, "replace": replace})
    )
    return token


def _take(token, user, event):
    """The waiting file of ``token`` if it is this user's for this event, else None."""
    if not token or not all(c in "0123456789abcdef" for c in token) or len(token) != 32:
        return None
    folder = _pending_dir()
    try:
        meta = json.loads((folder / f"{token}.json").read_text())
        data = (folder / f"{token}.bin").read_bytes()
    except (OSError, ValueError):
        return None
    if meta.get("user") != user.pk or meta.get("event") != event.pk:
        return None
    return data, meta


def _drop(token):
    for suffix in (".bin", ".json"):
        (_pending_dir() / f"{token}{suffix}").unlink(missing_ok=True)


def _read_upload(upload):
    """The bytes of an uploaded file, refused over the limit (never cut short)."""
    check_size(upload.size)
    return upload.read()


@login_required
def event_import(request, pk):
    event = visible_event(request, pk)
    policy.require(request.user, "import", event.tournament)
    context = {
        "event": event,
        "tournament": event.tournament,
        "limit": settings.INTERCHANGE_MAX_FILE_BYTES,
        "session_number": "",
        "replace": False,
    }
    if request.method != "POST":
        return render(request, "scoring/event_import.html", context)
    number_text = (request.POST.get("session") or "").strip()
    session_number = None
    if number_text:
        if not number_text.isdigit() or not 1 <= int(number_text) <= 999:
            context["refusals"] = [
                _("Session: '%(value)s' is not a session number (1 to 999).") % {"value": number_text[:20]}
            ]
            return render(request, "scoring/event_import.html", context)
        session_number = int(number_text)
    context["session_number"] = number_text
    replace = context["replace"] = request.POST.get("replace") == "on"
    if request.POST.get("action") == "cancel":
        return _cancel(request, event, context)
    confirm = request.POST.get("action") == "import"
    try:
        if confirm:
            pending = _take(request.POST.get("token", ""), request.user, event)
            if pending is None:
                context["refusals"] = [_("The preview has expired or belongs to someone else: upload the file again.")]
                return render(request, "scoring/event_import.html", context)
            data, meta = pending
            session_number, context["name"] = meta["session"], meta["name"]
            replace = context["replace"] = bool(meta.get("replace"))
        else:
            upload = request.FILES.get("file")
            if upload is None:
                context["refusals"] = [_("File: choose the file your scoring program exported (PBN or USEBIO).")]
                return render(request, "scoring/event_import.html", context)
            data, context["name"] = _read_upload(upload), upload.name[:200]
        summary = import_file(
            event=event,
            data=data,
            session_number=session_number,
            by=request.user,
            dry_run=not confirm,
            replace=replace,
            skip_faulty=confirm,  # the director saw the rows left out in the preview and confirms
        )
    except ImportRefused as refusal:
        context["refusals"], context["warnings"] = refusal.refusals, refusal.warnings
        return render(request, "scoring/event_import.html", context)
    context["summary"] = summary
    if confirm:
        _drop(request.POST["token"])
        context["imported"] = True
    else:
        context["token"] = _keep(data, request.user, event, session_number, context["name"], replace)
    return render(request, "scoring/event_import.html", context)


def _cancel(request, event, context):
    """Cancel on the preview: the waiting file is removed now, not a day later."""
    token = request.POST.get("token", "")
    if _take(token, request.user, event) is None:
        context["refusals"] = [_("The preview has expired or belongs to someone else: upload the file again.")]
    else:
        _drop(token)
        context["cancelled"] = True
    return render(request, "scoring/event_import.html", context)


@login_required
def session_export(request, pk, fmt):
    """The session as a PBN (export format) or USEBIO file, for whoever reads the record."""
    from django.http import Http404, HttpResponse
    from django.shortcuts import get_object_or_404
    from django.utils.text import slugify

    from scoring.importers.export import pbn_bytes, session_pbn, session_usebio
    from scoring.models import Session

    session = get_object_or_404(
        Session.objects.select_related("event__tournament").filter(
            event__tournament__in=selectors.visible_tournaments(request.user)
        ),
        pk=pk,
    )
    name = slugify(f"{session.event.name}-{session}") or "session"
    if fmt == "pbn":
        data, charset = pbn_bytes(session_pbn(session))
        response = HttpResponse(data, content_type=f"application/x-pbn; charset={charset.lower()}")
        response["Content-Disposition"] = f'attachment; filename="{name}.pbn"'
    elif fmt == "usebio":
        response = HttpResponse(session_usebio(session), content_type="application/xml; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}.xml"'
    else:
        raise Http404
    return response
