"""A worker keeps its database connection from task to task (issue #15): Celery's Django fixup
no longer closes it around every task; only an obsolete or broken connection is replaced."""

import time

import pytest
from celery.fixups.django import DjangoWorkerFixup
from django.db import connection

from config import celery as celery_config
from scoring.models import Board

pytestmark = pytest.mark.django_db(transaction=True)


def run_task_cycle(fixup, task):
    """What a worker does around one task: the fixup's handlers, then the project's."""
    fixup.on_task_prerun(sender=task)
    celery_config.close_old_database_connections(sender=task)
    Board.objects.count()  # the task's own queries
    fixup.on_task_postrun(sender=task)
    celery_config.close_old_database_connections(sender=task)


def test_a_worker_reuses_its_database_connection_for_the_next_task():
    task = celery_config.app.tasks["scoring.tasks.sweep_recalculations"]
    fixup = DjangoWorkerFixup(celery_config.app)
    connection.ensure_connection()
    opened = connection.connection
    for _ in range(5):
        run_task_cycle(fixup, task)
    assert connection.connection is opened


def test_an_obsolete_connection_is_replaced_before_the_next_task():
    task = celery_config.app.tasks["scoring.tasks.sweep_recalculations"]
    fixup = DjangoWorkerFixup(celery_config.app)
    connection.ensure_connection()
    opened = connection.connection
    connection.close_at = time.monotonic() - 1  # older than CONN_MAX_AGE
    run_task_cycle(fixup, task)
    assert connection.connection is not None and connection.connection is not opened
