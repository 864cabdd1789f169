"""Thin Celery tasks for rulings; each calls a service and is safe to run twice."""

from celery import shared_task

from rulings import services


@shared_task
def solve_deal(ruling_id):
    """Double-dummy tricks and par for the ruling's deal, for the director's judgement."""
    return services.record_double_dummy(ruling_id)


@shared_task
def finalise_rulings():
    return services.finalise_rulings()
