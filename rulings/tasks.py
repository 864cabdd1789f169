"""Thin Celery tasks for rulings; each calls a service and is safe to run twice."""

from celery import shared_task

from config.task_retry import RETRY_ON_TRANSIENT_ERRORS
from core import policy
from rulings import revokes, services


@shared_task(**RETRY_ON_TRANSIENT_ERRORS)
def solve_deal(ruling_id):
    """Double-dummy tricks and par for the ruling's deal, for the director's judgement."""
    return services.record_double_dummy(ruling_id, by=policy.SYSTEM)


@shared_task(**RETRY_ON_TRANSIENT_ERRORS)
def finalise_rulings():
    return services.finalise_rulings(by=policy.SYSTEM)


@shared_task(**RETRY_ON_TRANSIENT_ERRORS)
def solve_trick_ruling(trick_ruling_id):
    """The double-dummy guide of a revoke or claim worked out from the play (docs/revokes.md)."""
    return revokes.solve_guide(trick_ruling_id, by=policy.SYSTEM)
