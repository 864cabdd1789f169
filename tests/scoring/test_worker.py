"""The recalculation through a real Celery worker process, on the configured broker (the
filesystem broker by default, Redis or RabbitMQ when CELERY_BROKER_URL says so) and the test
database (a file for SQLite, so the worker can open it)."""

import datetime
import threading
from decimal import Decimal

import pytest
from django.db import connection, transaction
from kombu import Connection

from config.celery import app
from scoring import recalculation, services
from scoring.models import BoardScore, RecalculationRequest, Standing
from tests.conftest import build_pairs_tournament, record_seven_tables, settled, unfinished_tasks, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def field(drained_worker):
    record = build_pairs_tournament(tables=7)
    board = record.boards[0]
    with transaction.atomic():  # one task for the board, not seven
        record.results = record_seven_tables(record)
    wait_for(lambda: settled(board))
    return record


def standing_of(record, pair):
    return Standing.objects.get(event=record.event, session=None, contestant=pair)


def test_the_worker_connected_to_the_broker(worker):
    assert "Connected to" in worker.read_text()


def test_an_adjusted_score_reaches_the_standings(field):
    x_pair = field.pairs[6]
    assert standing_of(field, x_pair).total == Decimal("8")
    with transaction.atomic():
        services.set_effective_score(
            result=field.results[6],
            kind="weighted",
            score={"ns": [[420, "0.5"], [450, "0.3"], [-50, "0.2"]]},
            reason="Law 16B",
            cause_label="ruling 17",
        )
    wait_for(lambda: settled(field.boards[0]))
    assert standing_of(field, x_pair).total.quantize(Decimal("0.1")) == Decimal("7.5")
    assert standing_of(field, field.pairs[0]).total.quantize(Decimal("0.1")) == Decimal("11.7")


def test_two_concurrent_changes_to_one_board_both_land(field):
    changes = [(field.results[6], 450), (field.results[5], 170)]
    barrier = threading.Barrier(2)
    errors = []

    def change(result, points):
        try:
            barrier.wait(timeout=10)
            with transaction.atomic():
                services.set_effective_score(result=result, kind="assigned", score={"ns": points}, reason="concurrent")
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=change, args=c) for c in changes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    wait_for(lambda: settled(field.boards[0]))
    # As if made one after the other: +450 twice, +420 twice, +170 twice, +140.
    scores = [BoardScore.objects.get(result=r).ns for r in field.results]
    assert scores == [Decimal(v) for v in ("11", "7", "7", "3", "0", "3", "11")]


def _reset_producers():
    app._pool = None
    app.amqp._producer_pool = None


def test_a_change_made_while_the_broker_is_down_lands_after_the_sweep(field, drained_worker, monkeypatch):
    # No task is left to score this board and hide what is tested: the earlier tests' were
    # finished at their end (drained_worker), and the field's own are waited for here.
    wait_for(lambda: not unfinished_tasks(drained_worker), what="the field's tasks")
    # The web process loses its broker: its connections now go to a port where nothing listens.
    monkeypatch.setattr(
        app,
        "connection_for_write",
        lambda *args, **kwargs: Connection(
            "redis://127.0.0.1:1/0", transport_options={"max_retries": 1, "interval_start": 0}
        ),
    )
    _reset_producers()
    try:
        with transaction.atomic():
            services.set_effective_score(
                result=field.results[6], kind="assigned", score={"ns": -50}, reason="while the broker was down"
            )
    finally:
        monkeypatch.undo()
        _reset_producers()
    board = field.boards[0]
    board.refresh_from_db()
    assert board.scored_version < board.score_version  # saved, not yet scored
    assert RecalculationRequest.objects.filter(board=board, finished_at__isnull=True, enqueued_at=None).exists()
    # The broker is back; the periodic sweep sends what no worker took.
    assert recalculation.sweep(older_than=datetime.timedelta(0)) == 1
    wait_for(lambda: settled(board))
    # -50 twice, below everything else: each beats nothing and ties the other.
    assert BoardScore.objects.get(result=field.results[6]).ns == Decimal("1")
