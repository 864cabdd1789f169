"""The audit trail's regular work, run by beat (config/settings.py): a signed tree head over the
entries written since the last one, and the whole trail verified against every head."""

import logging

from celery import shared_task

from audit import services
from audit.signing import SigningKeyMissing
from config.task_retry import RETRY_ON_TRANSIENT_ERRORS

log = logging.getLogger(__name__)


@shared_task(**RETRY_ON_TRANSIENT_ERRORS)
def sign_tree_head():
    """Sign a head over the entries written since the last one; a trail that fails the check is
    logged as an error and not signed."""
    try:
        result = services.sign_tree_head()
    except SigningKeyMissing as missing:
        log.error("The audit trail's tree head was not signed: %s", missing)
        return None
    if isinstance(result, services.ChainCheck):
        if not result.intact:
            log.error("The audit trail's tree head was not signed: %s", _broken(result))
        return None
    return result.tree_size


@shared_task(**RETRY_ON_TRANSIENT_ERRORS)
def verify_trail():
    """The whole trail, as ``manage.py verify_audit``; a break is logged as an error."""
    try:
        check = services.verify_chain()
    except SigningKeyMissing as missing:
        log.error("The audit trail was verified but no head signed: %s", missing)
        return None
    if not check.intact:
        log.error("The audit trail is broken: %s", _broken(check))
        return None
    return check.checked


def _broken(check):
    where = f"entry {check.broken.sequence}" if check.broken is not None else "the end of the trail"
    return f"at {where}: {check.reason}"
