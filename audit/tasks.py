"""The audit trail's regular work, run by beat (config/settings.py): the whole trail verified
against every signed head (each write signs its own, audit/sealing.py)."""

import logging

from celery import shared_task

from audit import services
from audit.signing import SigningKeyMissing
from config.task_retry import RETRY_ON_TRANSIENT_ERRORS

log = logging.getLogger(__name__)


@shared_task(**RETRY_ON_TRANSIENT_ERRORS)
def verify_trail():
    """The whole trail, as ``manage.py verify_audit``; a break is logged as an error."""
    try:
        check = services.verify_chain()
    except SigningKeyMissing as missing:
        log.error("The audit trail could not be verified: %s", missing)
        return None
    if not check.intact:
        log.error("The audit trail is broken: %s", _broken(check))
        return None
    return check.checked


def _broken(check):
    where = f"entry {check.broken.sequence}" if check.broken is not None else "the end of the trail"
    return f"at {where}: {check.reason}"
