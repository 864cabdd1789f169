"""Thin Celery tasks of the national body; each is safe to run twice."""

from celery import shared_task

from config.task_retry import RETRY_ON_TRANSIENT_ERRORS
from national import precedents, printing


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY_ON_TRANSIENT_ERRORS)
def index_casebook(casebook_id):
    """Index the cases of a casebook just published or made final as precedents."""
    return precedents.index_casebook(casebook_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY_ON_TRANSIENT_ERRORS)
def print_casebook(print_id):
    """Print a casebook to PDF (queue ``casebooks``: a burst never delays standings)."""
    return printing.print_casebook(print_id)
