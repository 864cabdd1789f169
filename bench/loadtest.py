"""``make loadtest``: 100 simulated users (bench/locustfile.py) for about a minute against
gunicorn + PostgreSQL + Redis + a Celery worker, all on this machine's loopback.

It creates a throwaway PostgreSQL database with the demo in it, starts gunicorn and a worker,
runs Locust headless, stops everything it started and drops the database. It prints the
requests, the errors and the p95 page time per kind of request, and (unless ``--no-write``)
writes them into docs/performance.md between ``<!-- loadtest:start -->`` and
``<!-- loadtest:end -->``. Exit status 1 if any request failed.

Environment: BENCH_POSTGRES_URL (a server where it may create a database), LOADTEST_REDIS_URL
(default: BENCH_REDIS_URL's server, database 13).
"""

import argparse
import datetime
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import REDIS_URL, ROOT, bench_env, log, server_versions, throwaway_database  # noqa: E402
from bench.run import cpu_model, load_average, memory_gib  # noqa: E402

DOC = ROOT / "docs" / "performance.md"
START, END = "<!-- loadtest:start -->", "<!-- loadtest:end -->"
BIN = Path(sys.executable).parent
LOADTEST_REDIS_URL = os.environ.get("LOADTEST_REDIS_URL", REDIS_URL.rsplit("/", 1)[0] + "/13")
# The demo, smaller (its boards are dealt and solved double dummy as it loads): 6 tables of
# pairs over two sessions of 8 boards, 4 teams; its rulings, appeals and casebook as ever.
DEMO = """
import django; django.setup()
from django.core.management import call_command
from scoring import demo
original = demo.load_demo
demo.load_demo = lambda **kw: original(**{**dict(pairs_tables=6, boards_per_session=8, pairs_sessions=2,
                                               teams=4, boards_per_match=2), **kw})
call_command("load_demo")
"""
# One signed-in session per demo account the simulated users play, written to the file named.
SESSIONS = """
import json, sys, django; django.setup()
from django.contrib.auth import get_user_model
from django.test import Client
sessions = {}
for name in ("director", "appeals", "auditor", "player"):
    client = Client()
    client.force_login(get_user_model().objects.get(username=name), backend="django.contrib.auth.backends.ModelBackend")
    sessions[name] = client.cookies["sessionid"].value
open(sys.argv[1], "w").write(json.dumps(sessions))
"""


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(argv, env, name, logs):
    log(f"   starting {name}")
    out = open(logs / f"{name}.log", "w")  # noqa: SIM115 - closed with the process
    return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def stop(proc):
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def wait_for(url, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            # As through the deployment's TLS proxy: plain HTTP would be redirected to HTTPS.
            with urllib.request.urlopen(urllib.request.Request(url, headers={"X-Forwarded-Proto": "https"}), timeout=5):
                return
        except OSError:
            time.sleep(0.5)
    raise SystemExit(f"the server did not answer {url} within {seconds} s")


def read_stats(prefix):
    return json.loads(Path(f"{prefix}.json").read_text())


def percentile(times, p):
    """Nearest rank over Locust's histogram ({milliseconds: count})."""
    total = sum(times.values())
    rank, seen = max(1, -(-p * total // 100)), 0
    for ms in sorted(times, key=float):
        seen += times[ms]
        if seen >= rank:
            return float(ms)
    return None


def report(entries, users, seconds, load_before):
    """Every request but the setup's (the first page that sets the CSRF cookie)."""
    entries = [e for e in entries if not e["name"].startswith("setup") and e["name"] != "Aggregated"]
    merged = {}
    for entry in entries:
        for ms, count in entry["response_times"].items():
            merged[ms] = merged.get(ms, 0) + count
    requests = sum(e["num_requests"] for e in entries)
    errors = sum(e["num_failures"] for e in entries)
    versions = server_versions()
    lines = [
        f"Machine: {cpu_model()}, {os.cpu_count()} cores, {memory_gib()} memory; PostgreSQL "
        f"{versions['postgres']}, Redis {versions['redis']}. Measured "
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC; load average (1 min) {load_before} "
        f"before the run, {load_average()} after. **The machine was shared with other work while this "
        f"ran (other sessions' tests and benchmarks on its 2 cores), so the times are likely too high.**",
        "",
        f"{users} simulated users for {seconds} s (gunicorn 3 processes x 2 threads, one Celery worker, "
        f"all on the same machine): {requests:,} requests, **{errors} errors**, page time p95 "
        f"{percentile(merged, 95):.0f} ms, median {percentile(merged, 50):.0f} ms.",
        "",
        "| Request | Requests | Errors | Median | p95 |",
        "|---|---:|---:|---:|---:|",
    ]
    for e in sorted(entries, key=lambda e: e["name"]):
        lines.append(
            f"| {e['method']} {e['name']} | {e['num_requests']} | {e['num_failures']} | "
            f"{percentile(e['response_times'], 50):.0f} ms | {percentile(e['response_times'], 95):.0f} ms |"
        )
    return "\n".join(lines), errors


def write_doc(text):
    block = f"{START}\n{text}\n{END}"
    doc = DOC.read_text()
    if START in doc and END in doc:
        head, rest = doc.split(START, 1)
        doc = head + block + rest.split(END, 1)[1]
    else:
        doc = doc.rstrip("\n") + "\n\n## Load test (`make loadtest`)\n\n" + block + "\n"
    DOC.write_text(doc)


def _stop_on_term(signum, frame):
    raise SystemExit(f"stopped by signal {signum}")  # so the finally blocks stop what was started


def main():
    signal.signal(signal.SIGTERM, _stop_on_term)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=100)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--no-write", action="store_true", help="print only; docs/performance.md untouched")
    args = parser.parse_args()
    load_before = load_average()
    logs = Path(tempfile.mkdtemp(prefix="loadtest-"))
    port = free_port()
    with throwaway_database("postgres") as url:
        env = bench_env(
            {
                "DATABASE_URL": url,
                "CELERY_BROKER_URL": LOADTEST_REDIS_URL,
                "BRIDGECASES_VAR_DIR": os.environ["BRIDGECASES_VAR_DIR"],
                "DJANGO_STATIC_ROOT": str(Path(os.environ["BRIDGECASES_VAR_DIR"]) / "static"),
                "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
                # Every simulated user shares one of four accounts: the per-user API rate is
                # for one person, not a hundred.
                "API_USER_RATE": "100000/minute",
                "LOADTEST_SESSIONS": str(logs / "sessions.json"),
            }
        )
        manage = [sys.executable, "manage.py"]
        log("== load test: the demo into a new PostgreSQL database")
        for command in (
            [*manage, "migrate", "--no-input"],
            [*manage, "compile_translations"],
            [*manage, "collectstatic", "--no-input"],
            [sys.executable, "-c", DEMO],
            [sys.executable, "-c", SESSIONS, str(logs / "sessions.json")],
        ):
            started = time.monotonic()
            subprocess.run(command, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
            log(f"   {command[2] if command[1] != '-c' else 'setup'}: {time.monotonic() - started:.0f} s")
        processes = []
        try:
            processes.append(
                start(
                    [
                        str(BIN / "gunicorn"),
                        "config.wsgi",
                        "-b",
                        f"127.0.0.1:{port}",
                        "-w",
                        "3",
                        "--threads",
                        "2",
                        "--timeout",
                        "120",
                        # Longer than a simulated user's pause: an idle connection the server
                        # closes just as the client reuses it is a reset, not the app's error.
                        "--keep-alive",
                        "10",
                    ],  # fmt: skip
                    env,
                    "gunicorn",
                    logs,
                )
            )
            processes.append(
                start(
                    [
                        str(BIN / "celery"),
                        "-A",
                        "config",
                        "worker",
                        "--concurrency=1",
                        "--without-gossip",
                        "--without-mingle",
                        "--loglevel=WARNING",
                    ],  # fmt: skip
                    env,
                    "worker",
                    logs,
                )
            )
            host = f"http://127.0.0.1:{port}"
            wait_for(f"{host}/login/")
            log(f"== load test: {args.users} users for {args.seconds} s against {host}")
            prefix = logs / "locust"
            subprocess.run(
                [
                    str(BIN / "locust"),
                    "-f",
                    str(ROOT / "bench" / "locustfile.py"),
                    "--headless",
                    "-u",
                    str(args.users),
                    "-r",
                    "10",
                    "-t",
                    f"{args.seconds}s",
                    "--host",
                    host,
                    "--csv",
                    str(prefix),
                    "--json-file",
                    str(prefix),  # Locust adds ".json"
                    "--only-summary",
                    "--loglevel",
                    "WARNING",
                    "--stop-timeout",
                    "10",
                ],  # fmt: skip
                cwd=ROOT,
                env=env,
                check=False,
            )
        finally:
            for proc in reversed(processes):
                stop(proc)
        text, failures = report(read_stats(prefix), args.users, args.seconds, load_before)
    print(text)
    if failures:
        log(f"{failures} requests failed: see {logs} (gunicorn.log, worker.log, locust_failures.csv)")
    if not args.no_write:
        write_doc(text)
        log(f"Written to {DOC.relative_to(ROOT)}.")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
