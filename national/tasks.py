"""Thin Celery tasks of the national body; each is safe to run twice."""

from celery import shared_task
from django.conf import settings

from config.task_retry import RETRY_ON_TRANSIENT_ERRORS, TRANSIENT_ERRORS
from core import policy
from national import precedents, printing
from national.federation import push
from national.federation.models import Push
from national.federation.push import Interrupted

# Seconds before the first retry of a push cut on the way (then doubling, at most 10 minutes).
FEDERATION_RETRY_BACKOFF = int(getattr(settings, "FEDERATION_RETRY_BACKOFF", 2))


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY_ON_TRANSIENT_ERRORS)
def index_casebook(casebook_id):
    """Index the cases of a casebook just published or made final as precedents."""
    return precedents.index_casebook(casebook_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY_ON_TRANSIENT_ERRORS)
def print_casebook(print_id):
    """Print a casebook to PDF (queue ``casebooks``: a burst never delays standings)."""
    return printing.print_casebook(print_id, by=policy.SYSTEM)


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(Interrupted, *TRANSIENT_ERRORS),
    retry_backoff=FEDERATION_RETRY_BACKOFF,
    retry_backoff_max=600,
    retry_jitter=True,
    max_retries=15,
)
def push_tournament(self, push_id):
    """Push a tournament's bundle to the national body (national/federation/push.py): resumes
    from the parts the national body holds, so running it twice sends nothing twice. When the
    last retry is interrupted too, the push stops saying so (``push.give_up``) instead of
    reading "sending" for ever."""
    try:
        return push.run(push_id, by=policy.SYSTEM)
    except (Interrupted, *TRANSIENT_ERRORS):
        if self.request.retries < self.max_retries:
            raise
        push.give_up(push_id, by=policy.SYSTEM)
        return Push.State.STOPPED


@shared_task(**RETRY_ON_TRANSIENT_ERRORS)
def purge_stale_uploads():
    """Delete the parts of bundles never committed within FEDERATION_UPLOAD_HOURS (docs/operations.md)."""
    from national.federation import receive

    return receive.purge_stale_uploads(by=policy.SYSTEM)


@shared_task(**RETRY_ON_TRANSIENT_ERRORS)
def push_heads():
    """Send the national body the tree heads signed since its last one (national/federation/heads.py);
    a connection lost is kept with the target and beat sends again in FEDERATION_HEADS_SECONDS."""
    from national.federation import heads

    try:
        return heads.send(by=policy.SYSTEM)
    except Interrupted:
        return None
