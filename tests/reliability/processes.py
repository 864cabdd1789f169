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
        if self.beat:  # as the dev Procfile runs it: beat inside the worker
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
