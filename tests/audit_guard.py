"""Over the whole test run: no audited record is written outside an audited service (issue #19).

Every save, delete, ``QuerySet.update``, ``bulk_create`` and ``bulk_update`` of an audited model
made by the project's code must be part of a transaction in which ``audit.services.record`` (or
``record_many``) is called too. Judged where the project's code is the entry point (a view, an API call, a task, a
command, a service called by another): a write there in autocommit, or in a transaction that
commits with no audit entry, is an offence, and the test during (or after) which it happened
fails, naming the model, the kind of write and the project's lines that made it. A test's own
writes, a migration's, and the steps a test calls directly to build its records are not judged.

Cost: a stack walk on each ``transaction.atomic`` entry and on each write of an audited model;
nothing for the other models.
"""

import os
import sys
import threading
from pathlib import Path

from django.apps import apps
from django.db import transaction
from django.db.models import QuerySet, signals

import audit.services

# The records whose every change the audit trail holds (docs/operations.md, "what the system
# promises"): results and scores, rulings, appeals and every step of one.
AUDITED = {
    "scoring.Result",
    "scoring.EffectiveScore",
    "scoring.MatchPenalty",
    "rulings.Ruling",
    "rulings.Penalty",
    "rulings.RulingCitation",
    "rulings.RulingAttachment",
    "appeals.Appeal",
    "appeals.AppealPart",
    "appeals.Concurrence",
    "appeals.DeadlineExtension",
    "appeals.Deposit",
    "appeals.Body",
    "appeals.BodyMember",
    "appeals.Hearing",
    "appeals.Recommendation",
    "appeals.AppealRequest",
    "appeals.FurtherAppeal",
}
# Fields derived by a worker, not part of the record (a help for the director): writing only
# these is no change to audit.
DERIVED_FIELDS = {"rulings.Ruling": {"double_dummy", "double_dummy_error"}}

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tuple(f"{ROOT / app}{os.sep}" for app in ("scoring", "rulings", "appeals", "national", "audit", "config"))
TESTS = f"{ROOT / 'tests'}{os.sep}"
# Frames that are not the caller: Django, the standard library's context managers, the retry
# wrapper (a service's transaction is the service's, not core.retry's), this module.
PLUMBING = ("django.", "contextlib", "core.retry", __name__, "functools")

_state = threading.local()
offences = []


def _frames():
    if not hasattr(_state, "frames"):
        _state.frames = []
    return _state.frames


def _caller(depth=1):
    """The file and line of the first frame beyond Django and the plumbing."""
    frame = sys._getframe(depth)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if not name.startswith(PLUMBING):
            return frame.f_code.co_filename, f"{frame.f_code.co_filename}:{frame.f_lineno} ({frame.f_code.co_name})"
        frame = frame.f_back
    return "", "?"


def _project_chain(limit=4):
    """The project's frames that led to a write, innermost first: "file:line (function)" of the
    first, then the functions that called it."""
    frame, chain = sys._getframe(1), []
    while frame is not None and len(chain) < limit:
        if _is_project(frame.f_code.co_filename) and not frame.f_globals.get("__name__", "").startswith(PLUMBING):
            name = frame.f_code.co_name
            chain.append(f"{frame.f_code.co_filename}:{frame.f_lineno} ({name})" if not chain else name)
        frame = frame.f_back
    return " <- ".join(chain)


def _is_project(filename):
    return filename.startswith(PROJECT) and f"{os.sep}migrations{os.sep}" not in filename


class _Frame:
    """One ``transaction.atomic`` block: opened by the project's code ("project"), by a test
    calling a service or opening a transaction itself ("test"), or by the test harness (None)."""

    __slots__ = ("kind", "writes", "audited")

    def __init__(self, kind):
        self.kind, self.writes, self.audited = kind, [], False


_enter, _exit = transaction.Atomic.__enter__, transaction.Atomic.__exit__


def _innermost(frames):
    return next((f for f in reversed(frames) if f.kind), None)


def _atomic_enter(self):
    filename, _site = _caller()
    entered = _enter(self)
    kind = "project" if _is_project(filename) else "test" if filename.startswith(TESTS) else None
    _frames().append(_Frame(kind))
    return entered


def _atomic_exit(self, exc_type, exc_value, traceback):
    try:
        return _exit(self, exc_type, exc_value, traceback)
    finally:
        frames = _frames()
        if frames:
            frame = frames.pop()
            if exc_type is None and frame.kind:
                outer = _innermost(frames)
                if outer is not None:  # one transaction with its caller's: judged when that ends
                    outer.writes += frame.writes
                    outer.audited |= frame.audited
                elif frame.kind == "project" and not frame.audited:
                    # A transaction the project's code opened (a view's, a task's, a service
                    # called by another) committed writes with no audit entry. One a test opened
                    # around a service it calls directly is the test's building of records.
                    offences.extend(frame.writes)


def _audited():
    frame = _innermost(_frames())
    if frame is not None:
        frame.audited = True


def _record(**kwargs):
    _audited()
    return _real_record(**kwargs)


def _record_many(entries):
    entries = list(entries)
    if entries:
        _audited()
    return _real_record_many(entries)


def _wrote(model, what, fields=None):
    label = model._meta.label
    if label not in AUDITED:
        return
    if fields is not None and set(fields) <= DERIVED_FIELDS.get(label, set()):
        return
    filename, _site = _caller()
    if not _is_project(filename):
        return  # a test building its records, a migration, the admin's own plumbing
    offence = f"{label} {what} at {_project_chain()}"
    frame = _innermost(_frames())
    if frame is None:
        offences.append(offence + ", in no transaction")
    else:
        frame.writes.append(offence + ", in a transaction with no audit entry")


def _post_save(sender, instance, created, raw=False, update_fields=None, **kwargs):
    if not raw:
        _wrote(sender, "created" if created else "saved", update_fields)


def _post_delete(sender, instance, **kwargs):
    _wrote(sender, "deleted")


_real_record, _real_record_many = audit.services.record, audit.services.record_many
_update, _bulk_create, _bulk_update = QuerySet.update, QuerySet.bulk_create, QuerySet.bulk_update


def _queryset_update(self, **kwargs):
    _wrote(self.model, "updated (QuerySet.update)", kwargs)
    return _update(self, **kwargs)


def _queryset_bulk_create(self, objs, *args, **kwargs):
    _wrote(self.model, "created (bulk_create)")
    return _bulk_create(self, objs, *args, **kwargs)


def _queryset_bulk_update(self, objs, fields, *args, **kwargs):
    _wrote(self.model, "updated (bulk_update)", fields)
    return _bulk_update(self, objs, fields, *args, **kwargs)


def install():
    transaction.Atomic.__enter__ = _atomic_enter
    transaction.Atomic.__exit__ = _atomic_exit
    audit.services.record, audit.services.record_many = _record, _record_many
    QuerySet.update = _queryset_update
    QuerySet.bulk_create = _queryset_bulk_create
    QuerySet.bulk_update = _queryset_bulk_update
    for label in AUDITED:
        model = apps.get_model(label)
        signals.post_save.connect(_post_save, sender=model, dispatch_uid=f"audit_guard:{label}")
        signals.post_delete.connect(_post_delete, sender=model, dispatch_uid=f"audit_guard:{label}")


def take_offences():
    found, offences[:] = list(offences), []
    return found
