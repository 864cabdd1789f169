"""Issue #19: every task shared one queue, so 50 double-dummy jobs delayed the standings. Each
kind of work has its queue now, and a worker started without -Q (the dev Procfile's, the
tests') consumes all of them."""

from pathlib import Path

import pytest
from celery import current_app

from config.celery import app

ROOT = Path(__file__).resolve().parents[2]


def queue_of(task_name):
    return app.amqp.router.route({}, task_name)["queue"].name


@pytest.mark.parametrize(
    "task, queue",
    [
        ("scoring.tasks.recalculate_board", "standings"),
        ("scoring.tasks.sweep_recalculations", "standings"),
        ("rulings.tasks.solve_deal", "double_dummy"),
        ("rulings.tasks.solve_trick_ruling", "double_dummy"),
        ("national.tasks.print_casebook", "casebooks"),
        ("appeals.tasks.send_decision_mail", "mail"),
        ("scoring.tasks.import_results", "imports"),
        ("rulings.tasks.finalise_rulings", "default"),
    ],
)
def test_each_kind_of_work_goes_to_its_own_queue(task, queue):
    assert queue_of(task) == queue


def test_every_registered_task_has_a_queue_a_worker_consumes():
    app.loader.import_default_modules()
    consumed = set(app.amqp.queues)
    for name in current_app.tasks:
        if not name.startswith("celery."):
            assert queue_of(name) in consumed, name


def test_the_dev_procfile_worker_consumes_every_queue():
    worker = next(line for line in (ROOT / "Procfile.dev").read_text().splitlines() if line.startswith("worker:"))
    # No -Q: the worker consumes every queue in CELERY_TASK_QUEUES.
    assert " -Q" not in worker and "--queues" not in worker
    assert set(app.amqp.queues) == {"standings", "default", "double_dummy", "casebooks", "mail", "imports"}


def test_beat_runs_once_as_a_process_of_its_own_in_every_procfile():
    """Issue #41: a SIGKILLed `worker --beat` left its embedded beat running, two beats after the
    restart; beat is its own process, which the process runner stops and starts alone."""
    for name in ("Procfile.dev", "Procfile.hall"):
        lines = (ROOT / name).read_text().splitlines()
        assert not [line for line in lines if "--beat" in line or " -B" in line], name
        beats = [line for line in lines if line.startswith("beat:")]
        assert len(beats) == 1 and "celery -A config beat" in beats[0], name
