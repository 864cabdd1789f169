"""The kernel's periodic tasks (beat: config/settings.py CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from config.task_retry import RETRY_ON_TRANSIENT_ERRORS


@shared_task(**RETRY_ON_TRANSIENT_ERRORS)
def purge_idempotency_keys():
    """Delete the API's Idempotency-Keys past IDEMPOTENCY_KEY_HOURS (docs/api.md)."""
    from core.idempotency import purge_expired

    return purge_expired()
