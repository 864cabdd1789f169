"""Throughput under load, on PostgreSQL + Redis (issue #19). Three measurements:

``python -m bench.load_bench audit``: audited writes per second with 10 concurrent writers (every
audited write takes the one AuditHead row lock, so writers queue there, and signs a tree head
over its entries, issue #41), then the same with the head left unsigned (as before issue #41,
when beat signed one every 300 s) for the cost of signing; then the audit trail verified in full
and from its checkpoint.

``python -m bench.load_bench queues``: saved-to-standings latency while 50 double-dummy jobs wait,
(a) with one worker taking every queue (as the dev Procfile runs it) and (b) with a worker for
the ``standings`` and ``default`` queues beside one for ``double_dummy`` (docs/operations.md).

``python -m bench.load_bench clubs``: 100 club sessions at once (15 tables, 24 to 27 boards
each), each making one adjusted-score change a second (10 writer threads), for a fixed time,
with a worker of 1, 2 and 4 processes: recalculations finished per second and the latency of
each (its RecalculationRequest's created_at to finished_at).

Each builds its data in a throwaway database, starts and always stops its workers, bounds
every wait, and prints one JSON line on stdout (progress on stderr).
"""

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench import REDIS_URL, ROOT, log, setup_django, summary, throwaway_database

CELERY = str(Path(sys.executable).with_name("celery"))
READY_TIMEOUT = 90
DRAIN_TIMEOUT = 300


# --- Workers ------------------------------------------------------------------------------------


def start_worker(name, concurrency, queues=None):
    log_path = Path(tempfile.gettempdir()) / f"bench-load-{os.getpid()}-{name}.log"
    command = [CELERY, "-A", "config", "worker", f"--concurrency={concurrency}", "--without-gossip",
               "--without-mingle", "--without-heartbeat", "--loglevel=INFO", "--hostname", f"{name}-{os.getpid()}@%h"]  # fmt: skip
    if queues:
        command += ["-Q", ",".join(queues)]
    out = open(log_path, "wb")  # noqa: SIM115 - closed when the worker is stopped
    proc = subprocess.Popen(
        command, cwd=ROOT, env=dict(os.environ, LOG_LEVEL="INFO"), stdout=out, stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    proc.log_path, proc.out = log_path, out
    return proc


def wait_ready(*workers):
    deadline = time.monotonic() + READY_TIMEOUT
    for worker in workers:
        while " ready." not in worker.log_path.read_text(errors="replace"):
            if worker.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"worker not ready:\n{worker.log_path.read_text()[-2000:]}")
            time.sleep(0.1)


def stop_workers(*workers):
    for worker in workers:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGTERM)
    for worker in workers:
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=10)
        worker.out.close()
        worker.log_path.unlink(missing_ok=True)


def purge():
    from config.celery import app

    with app.connection_for_write() as conn:
        app.control.purge(connection=conn)


def unfinished(board_ids=None):
    from scoring.models import RecalculationRequest

    qs = RecalculationRequest.objects.filter(finished_at__isnull=True)
    return (qs.filter(board_id__in=board_ids) if board_ids else qs).count()


def drain(board_ids=None):
    deadline = time.monotonic() + DRAIN_TIMEOUT
    while unfinished(board_ids):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{unfinished(board_ids)} recalculations unfinished after {DRAIN_TIMEOUT} s")
        time.sleep(0.05)


def change(result, i):
    """One adjusted score (a different weighting each time), as a director makes it."""
    from django.db import transaction

    from scoring import services

    weight, rest = (("0.6", "0.4"), ("0.7", "0.3"), ("0.5", "0.5"), ("0.8", "0.2"))[i % 4]
    with transaction.atomic():
        services.set_effective_score(
            result=result, kind="weighted", score={"ns": [[420, weight], [-50, rest]]}, reason=f"load change {i}"
        )


# --- Audited writes ------------------------------------------------------------------------------


def bench_audit(args):
    from audit import sealing
    from audit import services as audit

    signed = _audited_writes(args)
    log(f"  signed: {signed['per_second']:.0f} writes/s, p95 {signed['latency']['p95'] * 1000:.1f} ms")
    seal = sealing.seal
    sealing.seal = lambda size_before, entries: None  # the old regime: the chain alone until beat signs
    try:
        unsigned = _audited_writes(args)
    finally:
        sealing.seal = seal
    log(f"  unsigned: {unsigned['per_second']:.0f} writes/s, p95 {unsigned['latency']['p95'] * 1000:.1f} ms")
    full_started = time.perf_counter()
    # The unsigned run's entries are after the last head: let them pass as an older trail's.
    full = audit.verify_chain(sign_unsigned=True)
    full_seconds = time.perf_counter() - full_started
    audit.record(action="bench.write", object_type="bench", object_id=0, summary="one more")
    since_started = time.perf_counter()
    since = audit.verify_chain(since_checkpoint=True)
    since_seconds = time.perf_counter() - since_started
    if not (full.intact and since.intact):
        raise RuntimeError(f"the chain is broken: {full.reason or since.reason}")
    return {
        **signed,
        "unsigned": unsigned,
        "verify_full": {"entries": full.checked, "seconds": full_seconds},
        "verify_since_checkpoint": {"entries": 1, "seconds": since_seconds},
    }


def _audited_writes(args):
    from django.db import connection, transaction

    from audit import services as audit

    stop_at = time.monotonic() + args.seconds
    latencies, errors = [], []
    lock = threading.Lock()

    def writer(n):
        done = []
        try:
            while time.monotonic() < stop_at:
                started = time.perf_counter()
                with transaction.atomic():
                    audit.record(action="bench.write", object_type="bench", object_id=n, summary=f"writer {n}")
                done.append(time.perf_counter() - started)
        except Exception as error:  # noqa: BLE001 - reported, and the run fails
            errors.append(repr(error))
        finally:
            connection.close()
            with lock:
                latencies.extend(done)

    started = time.monotonic()
    threads = [threading.Thread(target=writer, args=(n,)) for n in range(args.writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    if errors:
        raise RuntimeError(f"{len(errors)} writers failed: {errors[0]}")
    return {
        "writers": args.writers,
        "writes": len(latencies),
        "seconds": elapsed,
        "per_second": len(latencies) / elapsed,
        "latency": summary(latencies),
    }


# --- Queues --------------------------------------------------------------------------------------


def double_dummy_ruling(event):
    """A ruling on a board with a deal: each of its solve_deal tasks is a real double-dummy solve."""
    from django.contrib.auth import get_user_model

    from bridge.deals import generate_deal
    from rulings import services as rulings_services
    from scoring.models import Board, Result

    result = Result.objects.filter(board__session__event=event).order_by("board__number", "table__number").last()
    Board.objects.filter(pk=result.board_id).update(deal=generate_deal(19).to_pbn())
    director = get_user_model().objects.create_superuser("bench-director", password="unused-" + str(os.getpid()))
    return rulings_services.rule(result=result, director=director, kind="ui", laws="16B1a", ruling_text="Bench")


def bench_queues(args):
    from bench.db_bench import build_pairs_event
    from core import dispatch
    from scoring import recalculation
    from scoring.models import Result

    event = build_pairs_event(args.pairs, args.boards, name="Queues")
    recalculation.rescore_everything(event)
    ruling = double_dummy_ruling(event)
    results = list(Result.objects.filter(board__session__event=event).order_by("board__number", "table__number"))
    out = {"jobs": args.jobs, "size": {"pairs": args.pairs, "boards": args.boards}}
    layouts = {
        "one worker, every queue": [("all", 2, None)],
        "workers per queue": [("standings", 1, ["standings", "default"]), ("dd", 1, ["double_dummy"])],
    }
    i = 0
    for layout, workers in layouts.items():
        purge()
        drain()
        for _ in range(args.jobs):  # they wait in the double_dummy queue before any worker starts
            dispatch.send("rulings.tasks.solve_deal", ruling.pk)
        started = [start_worker(name, concurrency, queues) for name, concurrency, queues in workers]
        try:
            wait_ready(*started)
            times = []
            for _ in range(args.changes):
                result = results[(i * 7) % len(results)]
                i += 1
                begin = time.perf_counter()
                change(result, i)
                drain([result.board_id])
                times.append(time.perf_counter() - begin)
            out[layout] = summary(times)
            log(f"  {layout}: median {out[layout]['median'] * 1000:.0f} ms, p95 {out[layout]['p95'] * 1000:.0f} ms")
        finally:
            stop_workers(*started)
    return out


# --- Club sessions -------------------------------------------------------------------------------


def session_writer(mine, stop_at, counter, offered, errors, rng):
    """Serves its share of the sessions: each of them makes one change a second."""
    from django.db import connection

    from scoring.models import Result

    try:
        while time.monotonic() < stop_at:
            tick = time.monotonic()
            for results in mine:
                change(Result.objects.get(pk=rng.choice(results)), next(counter))
                offered.append(1)
            time.sleep(max(0.0, 1 - (time.monotonic() - tick)))
    except Exception as error:  # noqa: BLE001 - reported, and the run fails
        errors.append(repr(error))
    finally:
        connection.close()


def bench_clubs(args):
    from bench.db_bench import build_pairs_event
    from scoring import recalculation
    from scoring.models import RecalculationRequest, Result

    rng = random.Random(7)
    sessions = []
    built = time.monotonic()
    for n in range(args.sessions):
        event = build_pairs_event(args.tables * 2, rng.randint(24, 27), name=f"Club {n + 1}")
        recalculation.rescore_everything(event)
        sessions.append(list(Result.objects.filter(board__session__event=event).values_list("pk", flat=True)))
        if (n + 1) % 10 == 0:
            log(f"  {n + 1} club sessions built ({time.monotonic() - built:.0f} s)")
    out = {"sessions": args.sessions, "tables": args.tables, "seconds": args.seconds, "runs": {}}
    counter = iter(range(10**9))
    for processes in args.processes:
        purge()
        worker = start_worker(f"clubs{processes}", processes)
        try:
            wait_ready(worker)
            drain()
            first_id = RecalculationRequest.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
            stop_at = time.monotonic() + args.seconds
            offered, errors = [], []

            writers = [
                threading.Thread(target=session_writer, args=(sessions[w::10], stop_at, counter, offered, errors, rng))
                for w in range(10)
            ]
            started = time.monotonic()
            for thread in writers:
                thread.start()
            for thread in writers:
                thread.join()
            window = time.monotonic() - started
            if errors:
                raise RuntimeError(f"{len(errors)} writers failed: {errors[0]}")
            drain()
            done = list(RecalculationRequest.objects.filter(pk__gt=first_id).values_list("created_at", "finished_at"))
            if not done:
                raise RuntimeError("no recalculation was requested: the writers made no change")
            latencies = [(finished - created).total_seconds() for created, finished in done]
            last = max(finished for _created, finished in done)
            first = min(created for created, _finished in done)
            run = {
                "changes": len(offered),
                "changes_per_second": len(offered) / window,
                "recalculations": len(done),
                "recalculations_per_second": len(done) / (last - first).total_seconds(),
                "latency": summary(latencies),
            }
            out["runs"][str(processes)] = run
            log(
                f"  {processes} worker process(es): {run['changes_per_second']:.1f} changes/s offered, "
                f"{run['recalculations_per_second']:.1f} recalculations/s, p95 {run['latency']['p95']:.2f} s"
            )
        finally:
            stop_workers(worker)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    audit = sub.add_parser("audit")
    audit.add_argument("--writers", type=int, default=10)
    audit.add_argument("--seconds", type=float, default=15)
    queues = sub.add_parser("queues")
    queues.add_argument("--jobs", type=int, default=50)
    queues.add_argument("--changes", type=int, default=10)
    queues.add_argument("--pairs", type=int, default=30)
    queues.add_argument("--boards", type=int, default=26)
    clubs = sub.add_parser("clubs")
    clubs.add_argument("--sessions", type=int, default=100)
    clubs.add_argument("--tables", type=int, default=15)
    clubs.add_argument("--seconds", type=float, default=10)
    clubs.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args(argv)
    # Stopped from outside (bench/run.py's time limit): unwind, so the workers are stopped too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    os.environ["CELERY_BROKER_URL"] = REDIS_URL
    with throwaway_database("postgres"):
        setup_django()
        out = {"audit": bench_audit, "queues": bench_queues, "clubs": bench_clubs}[args.what](args)
    print(json.dumps({"what": args.what, **out}), flush=True)


if __name__ == "__main__":
    main()
