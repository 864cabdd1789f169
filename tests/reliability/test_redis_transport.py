"""Issue #19: a worker's Redis channel outlives its connection when the broker goes away.

When Redis drops the connection, Celery's consumer first collects the connection (which
forgets the transport's client) and then closes it; a task that finishes during the outage
acknowledges its message on that old channel. kombu 5.7.0's Redis channel then needs a new
connection pool, looks up the host on a client that is gone, and raises AttributeError:
not a connection error, so the worker stopped with "Unrecoverable error". The project's
transport (config/redis_broker.py) turns it into the connection error it is: the close and
the acknowledgement are given up and logged, and the worker reconnects."""

import logging
import socket

import pytest
from kombu import Connection, Exchange, Queue

from config.celery import app  # noqa: F401 - registers the project's Redis transport
from tests.reliability.processes import RedisServer


@pytest.fixture
def redis_server(tmp_path):
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


def delivered_message(redis_server):
    """A worker's state when Redis goes away: a message taken and not yet acknowledged (a
    running task's), and two channels each waiting in BRPOP (the task consumer's and another)."""
    connection = Connection(redis_server.url)
    standings = Queue("standings", Exchange("standings"), routing_key="standings")
    other = Queue("default", Exchange("default"), routing_key="default")
    channel = connection.default_channel
    standings(channel).declare()
    connection.Producer(channel).publish({"board": 1}, exchange=standings.exchange, routing_key="standings")
    message = standings(channel).get(no_ack=False)
    assert message is not None
    connection.Consumer(standings, channel=channel, callbacks=[]).consume()
    connection.Consumer(other, channel=connection.channel(), callbacks=[]).consume()
    with pytest.raises(socket.timeout):
        connection.drain_events(timeout=0.3)
    return connection, message


def lose_the_broker(connection, redis_server):
    """What the consumer does when Redis goes away (celery's on_connection_error_after_connected):
    collect the connection, ignoring whatever that raises, then close it, ignoring connection
    errors only (kombu's ignore_errors)."""
    redis_server.stop()
    try:
        connection.collect(socket_timeout=1)
    except Exception:  # noqa: BLE001 - as the consumer does
        pass
    try:
        connection.close()
    except connection.connection_errors:
        pass


def test_the_project_uses_its_own_redis_transport(redis_server):
    from config.redis_broker import Transport

    assert isinstance(Connection(redis_server.url).transport, Transport)
    assert isinstance(Connection(redis_server.url.replace("redis://", "rediss://")).transport, Transport)


def test_closing_a_connection_whose_broker_went_away_raises_only_connection_errors(redis_server):
    connection, _ = delivered_message(redis_server)
    lose_the_broker(connection, redis_server)  # kombu 5.7.0's own transport: AttributeError


def test_a_task_finished_during_the_outage_is_acknowledged_with_a_logged_error(redis_server, caplog):
    connection, message = delivered_message(redis_server)
    errors = connection.connection_errors
    lose_the_broker(connection, redis_server)
    # How Celery acknowledges a finished task: a connection error is logged, anything else
    # escapes into the worker's event loop and stops the worker.
    with caplog.at_level(logging.CRITICAL):
        message.ack_log_error(logging.getLogger("celery.worker"), errors)
    assert f"Couldn't ack {message.delivery_tag!r}" in caplog.text
    assert "the connection to the broker is closed" in caplog.text
