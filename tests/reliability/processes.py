"""A Redis server and Celery workers of a test's own, to stop, kill and restart at will."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from kombu import Connection

from config.celery import app
from tests.conftest import ROOT, _database_url

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisServer:
    """redis-server on a port of its own, without persistence: stopping it loses its queue, as
    a crashed broker would."""

    def __init__(self, directory):
        if not os.path.exists(REDIS_SERVER):
            pytest.skip("redis-server is not installed")
        self.port = free_port()
        self.directory = Path(directory)
        self.process = None

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.process = subprocess.Popen(
            [
                REDIS_SERVER,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.directory),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"redis-server did not start on port {self.port}")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.process = None


# The server script itself, not Debian's /usr/sbin wrapper: run as root, that wrapper switches
# to the rabbitmq user, who cannot write to the test's folders.
RABBITMQ_SERVER = next(
    (
        path
        for path in ("/usr/lib/rabbitmq/bin/rabbitmq-server", shutil.which("rabbitmq-server"))
        if path and os.path.exists(path)
    ),
    "/usr/sbin/rabbitmq-server",
)


class RabbitMQServer:
    """rabbitmq-server as a node of its own: its own name, AMQP and distribution ports, data,
    logs, configuration and Erlang cookie, so the machine's RabbitMQ (port 5672) is never
    touched. Stopping it closes every connection, as a broker restart would."""

    def __init__(self, directory):
        if not os.path.exists(RABBITMQ_SERVER):
            pytest.skip("rabbitmq-server is not installed: the RabbitMQ round runs where it is (CI)")
        self.port = free_port()
        self.dist_port = free_port()
        self.directory = Path(directory) / f"rabbitmq-{self.port}"
        for sub in ("mnesia", "log"):
            (self.directory / sub).mkdir(parents=True, exist_ok=True)
        (self.directory / "rabbitmq.conf").write_text(
            f"listeners.tcp.local = 127.0.0.1:{self.port}\nloopback_users.guest = true\n"
        )
        (self.directory / "enabled_plugins").write_text("[].\n")  # no management listener on 15672
        (self.directory / "rabbitmq-env.conf").write_text("")  # not /etc/rabbitmq's (the system node's name)
        self.process = None

    @property
    def url(self):
        return f"amqp://guest:guest@127.0.0.1:{self.port}//"

    def environment(self):
        return dict(
            os.environ,
            HOME=str(self.directory),  # its own .erlang.cookie
            RABBITMQ_NODENAME=f"rulings_test_{self.port}@localhost",
            RABBITMQ_NODE_IP_ADDRESS="127.0.0.1",
            RABBITMQ_NODE_PORT=str(self.port),
            RABBITMQ_DIST_PORT=str(self.dist_port),
            RABBITMQ_CONF_ENV_FILE=str(self.directory / "rabbitmq-env.conf"),
            RABBITMQ_CONFIG_FILE=str(self.directory / "rabbitmq"),
            RABBITMQ_ENABLED_PLUGINS_FILE=str(self.directory / "enabled_plugins"),
            RABBITMQ_MNESIA_BASE=str(self.directory / "mnesia"),
            RABBITMQ_LOG_BASE=str(self.directory / "log"),
            RABBITMQ_PID_FILE=str(self.directory / "rabbitmq.pid"),
            ERL_EPMD_ADDRESS="127.0.0.1",
        )

    def start(self):
        self.process = subprocess.Popen(
            [RABBITMQ_SERVER],
            env=self.environment(),
            cwd=self.directory,
            stdout=(self.directory / "stdout.log").open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 120  # Erlang boots slowly on a busy machine
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"rabbitmq-server exited:\n{self.log()}")
            try:
                with Connection(self.url, connect_timeout=2) as connection:
                    connection.ensure_connection(max_retries=1)
                    return
            except Exception:  # noqa: BLE001 - not accepting AMQP connections yet
                time.sleep(0.5)
        raise AssertionError(f"rabbitmq-server did not start on port {self.port}:\n{self.log()}")

    def log(self):
        path = self.directory / "stdout.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def stop(self):
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # a clean shutdown: connections closed
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=20)
        self.process = None


class Worker:
    """``celery worker`` on the test database and a broker of the test's choosing."""

    def __init__(self, broker_url, log_dir, django_db_blocker, beat=False):
        with django_db_blocker.unblock():
            self.database_url = _database_url()
        self.broker_url = broker_url
        self.log_dir = Path(log_dir)
        self.process = None
        self.starts = 0
        self.beat = beat

    def start(self):
        self.starts += 1
        self.log_path = self.log_dir / f"worker-{self.starts}.log"
        env = dict(
            os.environ,
            DATABASE_URL=self.database_url,
            CELERY_BROKER_URL=self.broker_url,
            # Beat's sweep every second, for requests older than two: a deployment's 30 and 60, faster.
            RECALCULATION_SWEEP_SECONDS="1",
            RECALCULATION_SWEEP_AFTER_SECONDS="2",
        )
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--loglevel=INFO",
            "--concurrency=2",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            f"--logfile={self.log_path}",
        ]
        # Beat inside the worker, for the tests' own one-process worker: no Procfile runs it so
        # (each runs beat as a process of its own, issue #41), and kill() ends the whole group.
        if self.beat:
            command += ["--beat", f"--schedule={self.log_dir / 'celerybeat-schedule'}"]
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + 60
        while "ready." not in self.log():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the worker did not start:\n{self.log()}")
            time.sleep(0.2)

    def log(self):
        return self.log_path.read_text() if self.log_path.exists() else ""

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def kill(self):
        """SIGKILL to the worker and its pool processes: no shutdown, no acknowledgement."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=20)

    def stop(self):
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=20)


def send_tasks_to(broker_url):
    """Point this (web) process's task sending at ``broker_url``; returns an undo."""
    saved = (
        app.conf.broker_url,
        app.conf.broker_write_url,
        app.conf.broker_transport_options,
        app.conf.broker_transport,
    )

    def reset():
        app._pool = None
        app.amqp._producer_pool = None

    app.conf.broker_url = app.conf.broker_write_url = broker_url
    # The web process's options for a network broker (settings: fail fast, the sweep resends).
    app.conf.broker_transport_options = settings.NETWORK_BROKER_TRANSPORT_OPTIONS
    app.conf.broker_transport = None  # the URL's (the embedded broker's transport is a class of ours)
    reset()

    def undo():
        (
            app.conf.broker_url,
            app.conf.broker_write_url,
            app.conf.broker_transport_options,
            app.conf.broker_transport,
        ) = saved
        reset()

    return undo


def uses_filesystem_broker():
    return settings.CELERY_BROKER_URL.startswith("filesystem://")


class WebServer:
    """gunicorn serving the project on the test database, DEBUG off, as production runs it:
    ``workers`` processes of ``threads`` threads, on a port of its own."""

    def __init__(self, log_dir, django_db_blocker, workers=2, threads=4, env=None):
        with django_db_blocker.unblock():
            self.database_url = _database_url()
        self.env = env or {}
        self.log_path = Path(log_dir) / "gunicorn.log"
        self.port = free_port()
        self.workers, self.threads = workers, threads
        self.process = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        env = dict(
            os.environ,
            DATABASE_URL=self.database_url,
            DJANGO_DEBUG="0",
            DJANGO_SECRET_KEY="reliability-test-key-" + "x" * 40,
            DJANGO_ALLOWED_HOSTS="127.0.0.1",
            DJANGO_SECURE_SSL_REDIRECT="0",
            **self.env,
        )
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            f"--bind=127.0.0.1:{self.port}",
            f"--workers={self.workers}",
            f"--threads={self.threads}",
            "--timeout=60",
            f"--error-logfile={self.log_path}",
        ]
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"gunicorn did not start:\n{self.log()}") from None
                time.sleep(0.2)

    def log(self):
        return self.log_path.read_text() if self.log_path.exists() else ""

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=20)
