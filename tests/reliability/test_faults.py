"""Issue #19: the worker survives its broker going away and being killed.

Each test runs a broker and a worker of its own (the test stops and kills them), on the test
database: on SQLite as on PostgreSQL. The broker is a Redis server, and for the outage also a
RabbitMQ node of the test's own (skipped where rabbitmq-server is not installed). A burst of
changes runs across the fault; at the end nothing is lost: every request is finished and the standings equal a from-scratch recompute."""

import time

import pytest
from django.db import transaction

from core import policy
from scoring import services
from scoring.models import EventPass
from tests.conftest import build_pairs_tournament, record_seven_tables, settled, wait_for
from tests.reliability.conftest import assert_as_recomputed_from_scratch
from tests.reliability.processes import RabbitMQServer, RedisServer, Worker, send_tasks_to

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SCORES = [420, 450, -50, 170, 140, 110, 620, -100]


BROKERS = {"redis": RedisServer, "rabbitmq": RabbitMQServer}


@pytest.fixture
def broker(request, tmp_path):
    server = BROKERS[getattr(request, "param", "redis")](tmp_path)
    server.start()
    undo = send_tasks_to(server.url)
    yield server
    undo()
    server.stop()


@pytest.fixture
def own_worker(broker, tmp_path, django_db_blocker):
    worker = Worker(broker.url, tmp_path, django_db_blocker, beat=True)
    worker.start()
    yield worker
    worker.stop()


@pytest.fixture
def idle_worker(broker, tmp_path, django_db_blocker):
    """A worker the test starts when it is ready for it."""
    worker = Worker(broker.url, tmp_path, django_db_blocker, beat=True)
    yield worker
    worker.stop()


def build_field(boards=4):
    """Seven tables, ``boards`` boards, every result recorded (one task per board)."""
    record = build_pairs_tournament(tables=7)
    for number in range(3, boards + 1):
        record.boards.append(services.create_board(session=record.session, number=number, by=policy.SYSTEM))
    record.results = []
    with transaction.atomic():
        for board in record.boards:
            record.results += record_seven_tables(record, board)
    return record


def change(record, n):
    result = record.results[n % len(record.results)]
    services.set_effective_score(
        result=result, kind="assigned", score={"ns": SCORES[n % len(SCORES)]}, reason=f"change {n}"
    )


def all_settled(record):
    return all(settled(board) for board in record.boards)


@pytest.mark.parametrize("broker", ["redis", "rabbitmq"], indirect=True)
def test_the_worker_survives_a_broker_outage_and_resumes_by_itself(broker, own_worker):
    record = build_field()
    wait_for(lambda: all_settled(record), what="the first scoring")
    for n in range(10):
        change(record, n)
    broker.stop()
    for n in range(10, 20):  # saved while the broker is down; their tasks cannot be sent
        change(record, n)
    time.sleep(6)  # the worker's connection is gone for a while; it must keep trying, not exit
    assert own_worker.alive(), own_worker.log()
    broker.start()  # Redis comes back empty (whatever it held is lost); RabbitMQ keeps its durable queues
    for n in range(20, 30):
        change(record, n)
    wait_for(
        lambda: "Connected to" in own_worker.log().split("Trying to re-establish")[-1],
        timeout=60,
        what="the worker's reconnection",
    )
    # It would have tried again for ever: Celery's default gives up after 100 attempts and exits.
    assert "Trying again" in own_worker.log() and "/100)" not in own_worker.log()
    assert "(1/None)" in own_worker.log()
    assert own_worker.alive()
    # Nobody sweeps by hand: the worker's own beat resends what the outage lost.
    wait_for(lambda: all_settled(record), timeout=60, what="the recalculation after the outage")
    assert own_worker.starts == 1
    assert_as_recomputed_from_scratch(record.event)


def test_a_worker_killed_mid_task_loses_nothing_once_restarted(broker, idle_worker):
    own_worker = idle_worker
    record = build_field(boards=8)
    # The test holds the event's pass row, so the worker that takes the task waits inside it
    # (the pass is fast enough to finish before a poll of the log would see it start); it is
    # killed there, mid-task, with every board still to score.
    with transaction.atomic():
        list(EventPass.objects.select_for_update().filter(event=record.event))
        EventPass.objects.filter(event=record.event).update(queued=True)  # SQLite: the write lock
        own_worker.start()
        wait_for(lambda: "recalculate_board" in own_worker.log(), timeout=60, what="the first task")
        own_worker.kill()
    # Killed mid-task: the task was taken and had not ended. The database cannot say so: this
    # process's session worker (tests/conftest.py ``worker``, on the same test database) may take a
    # late task of an earlier test for a board of the same number (SQLite ids restart after a
    # flush) and score this event the moment the lock is let go, as any other worker would.
    log = own_worker.log()
    assert "recalculate_board" in log and " succeeded " not in log and " raised " not in log, log
    for n in range(10):  # changes go on while no worker runs
        change(record, n)
    own_worker.start()  # its beat's sweep resends what the killed worker had taken but not finished
    wait_for(lambda: all_settled(record), timeout=60, what="the recalculation after the restart")
    assert_as_recomputed_from_scratch(record.event)
