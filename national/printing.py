"""Casebook PDFs, printed by a worker (queue ``casebooks``), never inside a web request.

A reader asks for a PDF (``request_print``: an audit entry, then the task once the transaction
commits); the worker claims the request, has Chromium print the book and keeps the file through
Django's storage API (``print_casebook``); the page shows the request's state until the file is
ready or the reason it failed. A final casebook is printed once: later requests get that file.
"""

from __future__ import annotations

import datetime
import logging
from typing import TYPE_CHECKING, Any

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit import services as audit
from audit.hints import Choice
from core import dispatch, policy
from national import pdf
from national.book import render_book
from national.lifecycle import PRINT
from national.models import Casebook, CasebookPrint

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from core.texts import Coded

log = logging.getLogger(__name__)

# A request no worker finished in this time (a worker lost mid-print) may be asked for again.
STALE_AFTER = datetime.timedelta(minutes=10)
TASK = "national.tasks.print_casebook"


def latest(casebook: Casebook) -> CasebookPrint | None:
    """The casebook's most recent print request, or None."""
    return casebook.prints.order_by("-requested_at", "-pk").first()


def _final_copy(casebook: Casebook, job: CasebookPrint | None) -> bool:
    """The final casebook's file: its text never changes, so every copy is this one."""
    return (
        job is not None
        and job.state == CasebookPrint.State.READY
        and casebook.state == Casebook.State.FINAL
        and job.casebook_state == Casebook.State.FINAL
    )


def can_print_again(casebook: Casebook, job: CasebookPrint | None) -> bool:
    """Whether asking for a print now starts a new one (the page offers the button)."""
    return job is None or not (job.in_progress or _final_copy(casebook, job))


def _audit(
    job: CasebookPrint, action: str, summary: str | Coded, by: User | None = None, after: dict[str, Any] | None = None
) -> None:
    audit.record(
        action=f"casebook.{action}",
        obj=job.casebook,
        actor=by,
        summary=summary,
        after={"print": job.pk, "state": job.state, **(after or {})},
    )


def _finish(job: CasebookPrint, step: str, now: datetime.datetime, **fields: Any) -> bool:
    """Close a print request that is still open by ``step`` of its table (``PRINT``); False if
    another run closed it first."""
    closed = PRINT.update(CasebookPrint.objects.filter(pk=job.pk), step, finished_at=now, **fields)
    job.refresh_from_db()
    return bool(closed)


@transaction.atomic
def request_print(*, casebook: Casebook, by: User, now: datetime.datetime | None = None) -> CasebookPrint:
    """Ask a worker to print ``casebook`` as it reads now; the request already on its way (or a
    final casebook's file) if there is one. Returns the print request."""
    policy.require(by, "national_records", casebook, scope=policy.BY_AUTHORITY)
    now = now or timezone.now()
    # One request at a time per casebook: two clicks make one print.
    casebook = Casebook.objects.select_for_update().get(pk=casebook.pk)
    current = latest(casebook)
    if current is not None and current.in_progress:
        if now - current.requested_at < STALE_AFTER:
            return current
        reason = _("No worker finished this print within %(minutes)s minutes; it was asked for again.") % {
            "minutes": int(STALE_AFTER.total_seconds() // 60)
        }
        if _finish(current, "give_up", now, error=reason):
            _audit(current, "print_failed", reason, by=by)
    elif current is not None and _final_copy(casebook, current):
        return current
    job = CasebookPrint.objects.create(
        casebook=casebook, casebook_state=casebook.state, requested_by=by, requested_at=now
    )
    _audit(job, "print_requested", f"{casebook.title}: PDF of the {casebook.get_state_display()} text", by=by)
    job_id = job.pk

    def send() -> None:
        try:
            dispatch.send(TASK, job_id, retry=False)
        except Exception as error:  # noqa: BLE001 - any broker failure is shown on the page
            log.warning("Broker unreachable: casebook print %s not sent.", job_id, exc_info=True)
            with transaction.atomic():
                failed = CasebookPrint.objects.get(pk=job_id)
                reason = _("No worker could be reached to print it (%(error)s). Try again later.") % {"error": error}
                if _finish(failed, "give_up", timezone.now(), error=reason):
                    _audit(failed, "print_failed", reason)

    transaction.on_commit(send)
    return job


def print_casebook(job_id: int, *, by: Any) -> Choice:
    """The worker's part: claim the request, print it, keep the file. Safe to run twice (a
    request already claimed or finished is left alone). Returns the request's state. The
    worker's step (core.policy.SYSTEM)."""
    policy.require(by, "print_casebook", None)
    started = timezone.now()
    claimed = PRINT.update(CasebookPrint.objects.filter(pk=job_id), "claim", started_at=started)
    job = CasebookPrint.objects.select_related("casebook__authority").get(pk=job_id)
    if not claimed:
        return job.state
    casebook = job.casebook
    try:
        body = pdf.html_to_pdf(render_book(casebook))
    except pdf.PdfUnavailable as error:
        reason = str(error)
    except Exception as error:  # noqa: BLE001 - whatever stopped the browser, the reader is told
        log.exception("Casebook %s: printing %s failed.", casebook.pk, job_id)
        reason = _("The browser could not print the casebook: %(error)s") % {"error": error}
    else:
        name = job.file.storage.save(f"casebooks/casebook-{casebook.pk}-{job.pk}.pdf", ContentFile(body))
        with transaction.atomic():
            if _finish(job, "print", timezone.now(), file=name, size=len(body)):
                _audit(job, "printed", f"{casebook.title}: PDF of {len(body)} bytes", after={"file": name})
            else:
                job.file.storage.delete(name)  # another run closed it first: keep its file only
        return job.state
    with transaction.atomic():
        if _finish(job, "fail", timezone.now(), error=reason):
            _audit(job, "print_failed", reason)
    return job.state
