"""Thin Celery tasks over the recalculation pipeline; each is safe to run twice."""

from celery import shared_task

from config.task_retry import RETRY_ON_TRANSIENT_ERRORS
from scoring import recalculation


@shared_task(acks_late=True, reject_on_worker_lost=True, **RETRY_ON_TRANSIENT_ERRORS)
def recalculate_board(board_id):
    return recalculation.recalculate_board(board_id)


@shared_task(**RETRY_ON_TRANSIENT_ERRORS)
def sweep_recalculations():
    """Re-enqueue recalculations that no worker finished (the broker was down, a worker died)."""
    return recalculation.sweep()
