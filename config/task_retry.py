"""What every task of the project does when the database or the broker blinks (issue #30).

A task that meets a lost database connection (OperationalError, InterfaceError: PostgreSQL
restarted, a connection terminated) or a broker it cannot reach while sending follow-up work
(kombu's OperationalError) is retried by Celery itself, after growing pauses (1 s, 2 s, 4 s...,
at most ``retry_backoff_max``, with jitter), instead of failing and waiting for the sweep.
Every task is safe to run twice (each says so). ``config/celery.py`` closes the broken
connection around each task, so the retry starts on a new one.
"""

from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerOperationalError

TRANSIENT_ERRORS = (OperationalError, InterfaceError, BrokerOperationalError)

RETRY_ON_TRANSIENT_ERRORS = {
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": 1,
    "retry_backoff_max": 300,
    "retry_jitter": True,
    "max_retries": 12,  # about half an hour in all, then the sweep (recalculations) or beat's next run
}
