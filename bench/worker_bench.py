"""Saved-to-standings latency with a real Celery worker:
``python -m bench.worker_bench postgres redis`` or ``python -m bench.worker_bench sqlite filesystem``.

In a throwaway database, builds a matchpoint pairs event (a Mitchell, every pair plays every
board; 100 pairs and 26 boards unless told) and scores it once, then starts
``celery -A config worker --concurrency=2 --without-gossip --without-mingle --without-heartbeat``
against that database and broker. It then makes adjusted-score changes one after another,
each with ``services.set_effective_score`` inside ``transaction.atomic()`` (so the task is
enqueued when the transaction commits), and times each from just before the transaction
opens until the standings reflect it: polling the database every 5 ms until the board's
``scored_version`` equals its ``score_version`` and no unfinished RecalculationRequest of
that board remains (the worker marks them finished only after the event's standings are
written). A few changes first warm the worker's processes up and are not counted. With
``--together RUNS``, RUNS more changes each give every board an artificial score at one table
in one transaction, timed until every board is reflected (the standings computed once).

The worker is always stopped (SIGTERM, then SIGKILL to its process group), and every wait is
bounded. Prints one JSON line on stdout; progress goes to stderr.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import REDIS_URL, ROOT, log, setup_django, summary, throwaway_database

CELERY = str(Path(sys.executable).with_name("celery"))
POLL = 0.005
READY_TIMEOUT = 60
CHANGE_TIMEOUT = 60


def start_worker(log_path):
    command = [
        CELERY,
        "-A",
        "config",
        "worker",
        "--concurrency=2",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "--loglevel=INFO",
        "--hostname",
        f"bench-{os.getpid()}@%h",
    ]
    env = dict(os.environ, LOG_LEVEL="INFO")
    with open(log_path, "wb") as out:
        return subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )


def wait_ready(worker, log_path):
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            raise RuntimeError(f"the worker exited with {worker.returncode}:\n{Path(log_path).read_text()[-3000:]}")
        if " ready." in Path(log_path).read_text(errors="replace"):
            return
        time.sleep(0.1)
    raise RuntimeError(f"the worker was not ready after {READY_TIMEOUT} s:\n{Path(log_path).read_text()[-3000:]}")


def stop_worker(worker):
    """Warm shutdown of the worker that this process started (its main process stops its
    pool); past 20 s its whole process group is killed."""
    if worker.poll() is not None:
        return
    worker.send_signal(signal.SIGTERM)
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(worker.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        worker.wait(timeout=10)


def purge_redis_queue():
    """Drop tasks an interrupted earlier run may have left in the benchmark's Redis database."""
    from config.celery import app

    with app.connection_for_write() as conn:
        app.control.purge(connection=conn)


def reflected(board_id):
    from scoring.models import Board, RecalculationRequest

    score_version, scored_version = Board.objects.values_list("score_version", "scored_version").get(pk=board_id)
    return (
        scored_version == score_version
        and not RecalculationRequest.objects.filter(board_id=board_id, finished_at__isnull=True).exists()
    )


def all_reflected(board_ids):
    """``reflected`` for many boards in two queries a poll (the poller shares the machine)."""
    from django.db.models import F

    from scoring.models import Board, RecalculationRequest

    done = Board.objects.filter(pk__in=board_ids, scored_version=F("score_version")).count()
    return (
        done == len(set(board_ids))
        and not RecalculationRequest.objects.filter(board_id__in=board_ids, finished_at__isnull=True).exists()
    )


def one_change(result, i):
    """Change ``result``'s adjusted score (a different weighting each time); return the
    seconds until the standings reflect it."""
    from django.db import transaction

    from scoring import services

    weight, rest = (("0.6", "0.4"), ("0.7", "0.3"), ("0.5", "0.5"), ("0.8", "0.2"))[i % 4]
    start = time.perf_counter()
    with transaction.atomic():
        services.set_effective_score(
            result=result, kind="weighted", score={"ns": [[420, weight], [-50, rest]]}, reason=f"benchmark change {i}"
        )
    deadline = start + CHANGE_TIMEOUT
    while not reflected(result.board_id):
        if time.perf_counter() > deadline:
            raise TimeoutError(f"change {i} (board {result.board_id}) not reflected after {CHANGE_TIMEOUT} s")
        time.sleep(POLL)
    return time.perf_counter() - start


def changes_together(results, i):
    """Change one result on each of several boards in one transaction (a fouled session, a
    decision touching several boards); return the seconds until every board is reflected."""
    from django.db import transaction

    from scoring import services

    start = time.perf_counter()
    with transaction.atomic():
        for result in results:
            services.set_effective_score(
                result=result,
                kind="artificial",
                score={"ns": ("AVE+", "AVE", "AVE-")[i % 3], "ew": ("AVE-", "AVE", "AVE+")[i % 3]},
                reason=f"benchmark boards together {i}",
            )
    deadline = start + CHANGE_TIMEOUT
    while not all_reflected([result.board_id for result in results]):
        if time.perf_counter() > deadline:
            raise TimeoutError(f"boards changed together ({i}) not reflected after {CHANGE_TIMEOUT} s")
        time.sleep(POLL)
    return time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", choices=["sqlite", "postgres"])
    parser.add_argument("broker", choices=["redis", "filesystem"])
    parser.add_argument("--changes", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=4)
    parser.add_argument(
        "--budget", type=float, metavar="SECONDS", help="stop after this long of measured changes (at least 5 are made)"
    )
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--boards", type=int, default=26)
    parser.add_argument(
        "--together",
        type=int,
        default=0,
        metavar="RUNS",
        help="then RUNS times, every board changed in one transaction",
    )
    args = parser.parse_args(argv)
    # Stopped from outside (bench/run.py's time limit): unwind, so the worker is stopped too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    if args.broker == "redis":
        os.environ["CELERY_BROKER_URL"] = REDIS_URL
    else:
        # Folders under the throwaway BRIDGECASES_VAR_DIR (settings put them there).
        os.environ["CELERY_BROKER_URL"] = "filesystem://localhost//"
    out = {"database": args.database, "broker": args.broker, "size": {"pairs": args.pairs, "boards": args.boards}}
    with throwaway_database(args.database):
        setup_django()
        from bench.db_bench import build_pairs_event
        from scoring import recalculation
        from scoring.models import Result, ScoreChange

        event = build_pairs_event(args.pairs, args.boards, name="Worker pairs")
        recalculation.rescore_everything(event)
        results = list(Result.objects.filter(board__session__event=event).order_by("board__number", "table__number"))
        boards = args.boards
        # Change i touches board i mod boards, a different table each time round.
        targets = [
            results[(i % boards) * (args.pairs // 2) + (i // boards) % (args.pairs // 2)]
            for i in range(args.warmup + args.changes)
        ]
        if args.broker == "redis":
            purge_redis_queue()
        log_path = Path(tempfile.gettempdir()) / f"bench-worker-{os.getpid()}.log"
        worker = start_worker(log_path)
        try:
            wait_ready(worker, log_path)
            log(f"worker ready ({args.database}, {args.broker})")
            for i in range(args.warmup):
                one_change(targets[i], i)
            times = []
            for i in range(args.warmup, args.warmup + args.changes):
                if args.budget is not None and len(times) >= 5 and sum(times) >= args.budget:
                    break
                times.append(one_change(targets[i], i))
                log(f"  change {i - args.warmup + 1}: {times[-1] * 1000:.1f} ms")
            out["latency"] = summary(times)
            together = []
            for run in range(args.together):
                table = (run + 1) % (args.pairs // 2)
                together.append(changes_together([results[b * (args.pairs // 2) + table] for b in range(boards)], run))
                log(f"  {boards} boards together, run {run + 1}: {together[-1] * 1000:.1f} ms")
            if together:
                out["together"] = summary(together)
            out["logged_changes_completed"] = ScoreChange.objects.filter(ns_after__isnull=False).count()
        finally:
            stop_worker(worker)
            if worker.returncode not in (0, None):
                log(f"worker exit status {worker.returncode}; log in {log_path}")
            else:
                log_path.unlink(missing_ok=True)
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
