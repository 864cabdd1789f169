"""`make run`'s first minutes (issue #42, item 10): the worker logs the line the README names and
no "No hostname was supplied" warning, and Ctrl-C stops the server, the worker and beat with no
ERROR and exit code 0 (config/procfile.py; honcho killed the worker's pool under its feet, which
logged "ERROR/MainProcess] Process 'ForkPoolWorker-2' ... exited with 'signal 15 (SIGTERM)'", and
exited 130, or 143 on SIGTERM, so make said "Error 143")."""

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from config.celery import app
from tests.conftest import ROOT, _database_url
from tests.reliability.processes import uses_filesystem_broker

README_LINE = re.search(r"The worker's log line\s+`(Connected to [^`]+)`", (ROOT / "README.md").read_text()).group(1)
STEADY = (
    f"{sys.executable} -c 'import signal, sys, time; "
    'signal.signal(signal.SIGTERM, lambda *a: (print("stopping cleanly", flush=True), sys.exit(0))); '
    'print("up", flush=True); time.sleep(120)\''
)


@pytest.mark.skipif(not uses_filesystem_broker(), reason="the embedded broker's line")
def test_the_embedded_broker_names_its_host_and_the_readme_its_line(caplog):
    connection = app.connection_for_write()
    with caplog.at_level("WARNING", logger="kombu.connection"):
        uri = connection.as_uri()
        connection.info()
    assert README_LINE == f"Connected to {uri}" == "Connected to filesystem://:**@localhost//"
    assert [record.getMessage() for record in caplog.records] == []


def start(procfile, output, env=None):
    return subprocess.Popen(
        [sys.executable, "-m", "config.procfile", str(procfile)],
        cwd=ROOT,
        env=env,
        stdout=output.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, as a terminal's foreground job is
    )


def wait_until(condition, what, timeout=90):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} within {timeout} s")
        time.sleep(0.2)


def ctrl_c(runner):
    """What the terminal does on Ctrl-C: SIGINT to the foreground process group."""
    os.killpg(runner.pid, signal.SIGINT)
    return runner.wait(timeout=60)


def test_ctrl_c_stops_every_process_cleanly_and_exits_0(tmp_path):
    procfile = tmp_path / "Procfile"
    procfile.write_text(f"one: {STEADY}\ntwo: {STEADY}\n")
    output = tmp_path / "out.log"
    runner = start(procfile, output)
    wait_until(lambda: output.read_text().count("| up") == 2, "start")
    assert ctrl_c(runner) == 0
    lines = output.read_text().splitlines()
    assert {"one    | stopping cleanly", "two    | stopping cleanly"} <= set(lines)
    assert lines[-1] == "system | stopped"


def test_a_process_that_ends_by_itself_stops_the_others_with_its_code(tmp_path):
    procfile = tmp_path / "Procfile"
    procfile.write_text(f"steady: {STEADY}\nfails: {sys.executable} -c 'import time; time.sleep(1); exit(3)'\n")
    output = tmp_path / "out.log"
    assert start(procfile, output).wait(timeout=60) == 3
    lines = output.read_text().splitlines()
    assert "system | fails ended (exit code 3): stopping the others" in lines
    assert "steady | stopping cleanly" in lines


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(url):
    try:
        urllib.request.urlopen(url, timeout=5)
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
    return True


@pytest.mark.worker
def test_make_run_s_processes_start_without_a_warning_and_stop_on_ctrl_c_without_an_error(
    django_db_setup, django_db_blocker, tmp_path
):
    port = free_port()
    with django_db_blocker.unblock():
        database = _database_url()
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(port), DATABASE_URL=database)
    env["BRIDGECASES_VAR_DIR"] = str(tmp_path / "var")  # a broker of its own
    output = tmp_path / "run.log"
    runner = start(ROOT / "Procfile.dev", output, env)
    try:
        wait_until(lambda: answers(f"http://127.0.0.1:{port}/"), "answer from the web server")
        wait_until(lambda: re.search(r"celery@\S+ ready\.", output.read_text()), "ready worker")
        wait_until(lambda: "beat: Starting..." in output.read_text(), "beat")
        assert ctrl_c(runner) == 0
    finally:
        if runner.poll() is None:
            os.killpg(runner.pid, signal.SIGKILL)
    log = output.read_text()
    if uses_filesystem_broker():
        assert f"] {README_LINE}\n" in log
    assert "No hostname was supplied" not in log
    assert [line for line in log.splitlines() if "ERROR" in line or "Traceback" in line] == []
    assert log.splitlines()[-1] == "system | stopped"
