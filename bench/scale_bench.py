"""Three scale tiers (issue #33), on PostgreSQL + Redis, each in a throwaway database with a real
Celery worker of ``--processes`` processes (2 unless told):

``python -m bench.scale_bench evening``: a national evening. ``--sessions`` club sessions (100
and 1,000 unless told), each a 30-pair Mitchell of 15 tables and 24 to 27 boards, already
scored; each session makes one adjusted-score change a second (``--writers`` threads share
them) for ``--seconds``. Measured: changes offered and recalculated per second, each change's
latency from its save to its standings (its RecalculationRequest's created_at to finished_at),
the passes the worker made (changes per pass: the coalescing), the worker's busy seconds per
change (from its log's task times), the worker's and the database's memory, and the database
connections; then how many worker processes and connections 1,000 clubs need, from those.

``python -m bench.scale_bench championship``: a championship day of ``--tables`` tables (1,000
unless told) at once: a pairs event on 40 % of them (a Mitchell), a Swiss teams event on 40 %
(two matches of 13 boards) and a knockout on 20 % (one match of 26 boards), 26 boards each;
rulings at 5 and appeals at 0.3 per 100 table-sessions, each through the services (a ruling
with an assigned score: ``rulings.services.rule``; an appeal from lodging to decision).
Measured: each event's first scoring, each ruling's and appeal's time from the service call
to its board's standings, memory.

``python -m bench.scale_bench simultaneous``: a worldwide simultaneous pairs. ``--clubs`` clubs
(1,000 unless told) of 10 tables play the same 24 boards: one event, one session, one field of
10 results a board a club. All clubs but ``--uploads`` are in and scored; then each of those
uploads its 240 results in one transaction (``services.record_results``) and is timed until its
pairs hold their place in the whole field (every board of the field rescored, the standings
written). Then the whole field rescored from scratch (``rescore_everything``), timed.

``--quick`` makes every tier small (a smoke test of the same code). Every wait is bounded; the
worker is always stopped; nothing is written outside the throwaway database and a temporary
log file. Prints one JSON line on stdout (progress on stderr).
"""

import argparse
import json
import os
import random
import re
import signal
import sys
import threading
import time
from pathlib import Path

from bench import REDIS_URL, log, setup_django, summary, throwaway_database
from bench.load_bench import change, drain, purge, start_worker, wait_ready
from core import policy

TASK_TIME = re.compile(r"Task scoring\.tasks\.recalculate_board\[[^\]]+\] succeeded in ([\d.]+)s")


# --- What the machine holds ----------------------------------------------------------------------


def rss_mib(pid):
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def process_tree(root):
    """``root`` and every process below it (the worker's pool)."""
    children = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def cpu_seconds(pids):
    """User and system CPU seconds the processes ``pids`` have used so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def named(command):
    """The pids of the processes called ``command`` (PostgreSQL's server and backends: "postgres")."""
    found = []
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_text().strip() == command:
                found.append(int(comm.parent.name))
        except OSError:
            continue
    return found


class CpuMeter:
    """CPU seconds used over a window by the writers (this process), the worker (its tree),
    PostgreSQL (every postgres process: the machine's, so measure on a quiet one) and Redis."""

    def __init__(self, worker):
        self.worker = worker

    def now(self):
        return {
            "writers": time.process_time(),
            "worker": cpu_seconds(process_tree(self.worker.pid)),
            "database": cpu_seconds(named("postgres")),
            "redis": cpu_seconds(named("redis-server")),
        }

    def __enter__(self):
        self.start = self.now()
        return self

    def __exit__(self, *exc):
        end = self.now()
        self.used = {part: end[part] - self.start[part] for part in end}


def worker_memory(worker):
    """(MiB of the whole worker, processes) now."""
    pids = process_tree(worker.pid)
    return sum(rss_mib(pid) for pid in pids), len(pids)


def database_now():
    """The throwaway database's size, its connections and their backends' memory, now."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_database_size(current_database())")
        size = cursor.fetchone()[0]
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
        pids = [row[0] for row in cursor.fetchall()]
    return {"size_mib": size / 2**20, "connections": len(pids), "backends_mib": sum(rss_mib(pid) for pid in pids)}


class Sampler:
    """Samples the worker's memory and the database's connections every second while running."""

    def __init__(self, worker):
        self.worker, self.samples, self.stop = worker, [], threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        from django.db import connection

        try:
            while not self.stop.wait(1.0):
                memory, processes = worker_memory(self.worker)
                self.samples.append({"worker_mib": memory, "worker_processes": processes, **database_now()})
        finally:
            connection.close()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=10)

    def peak(self):
        keys = ("worker_mib", "connections", "backends_mib", "size_mib")
        return {key: max((s[key] for s in self.samples), default=None) for key in keys}


def task_seconds(worker):
    """Each recalculation task's time as the worker logged it."""
    return [float(s) for s in TASK_TIME.findall(worker.log_path.read_text(errors="replace"))]


def stop(worker):
    from bench.load_bench import stop_workers

    stop_workers(worker)


def load_average():
    return round(os.getloadavg()[0], 2)


# --- A national evening --------------------------------------------------------------------------


def analyze():
    """Statistics for the planner, as a live database's autovacuum keeps them: tables filled in
    bulk a moment ago still look empty to it, and it then scans a board's 375,000 neighbours
    (seen: 142 ms of PostgreSQL's CPU a change with 1,000 club sessions, 9 ms with 100)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def build_clubs(count, rng, first=0):
    from bench.db_bench import build_pairs_event
    from scoring import recalculation
    from scoring.models import Board, Result

    sessions, started = [], time.monotonic()
    for n in range(first, first + count):
        event = build_pairs_event(30, rng.randint(24, 27), seed=n, name=f"Club {n + 1}")
        # Scored by one pass of the pipeline (one transaction a session, not one a board).
        Board.objects.filter(session__event=event).update(score_version=1)
        recalculation.recalculate_event(event.pk)
        sessions.append(list(Result.objects.filter(board__session__event=event).values_list("pk", flat=True)))
        if (n + 1) % 50 == 0:
            log(f"  {n + 1} club sessions built ({time.monotonic() - started:.0f} s)")
    return sessions, time.monotonic() - started


def writer(mine, stop_at, counter, offered, errors, rng):
    from django.db import connection

    from scoring.models import Result

    try:
        while time.monotonic() < stop_at:
            tick = time.monotonic()
            for results in mine:
                if time.monotonic() >= stop_at:
                    break
                change(Result.objects.get(pk=rng.choice(results)), next(counter))
                offered.append(1)
            time.sleep(max(0.0, 1 - (time.monotonic() - tick)))
    except Exception as error:  # noqa: BLE001 - reported, and the run fails
        errors.append(repr(error))
    finally:
        connection.close()


def evening_run(sessions, args, counter, rng):
    """One measured window with a fresh worker: changes, latency, passes, memory."""
    from scoring.models import RecalculationRequest

    purge()
    worker = start_worker(f"evening{len(sessions)}", args.processes)
    try:
        wait_ready(worker)
        drain()
        first_id = RecalculationRequest.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        stop_at = time.monotonic() + args.seconds
        offered, errors = [], []
        threads = [
            threading.Thread(target=writer, args=(sessions[w :: args.writers], stop_at, counter, offered, errors, rng))
            for w in range(args.writers)
        ]
        load_before = load_average()
        with Sampler(worker) as sampler, CpuMeter(worker) as cpu:
            started = time.monotonic()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            window = time.monotonic() - started
            drain()
        if errors:
            raise RuntimeError(f"{len(errors)} writers failed: {errors[0]}")
        done = list(
            RecalculationRequest.objects.filter(pk__gt=first_id).values_list(
                "created_at", "finished_at", "board__session__event_id"
            )
        )
        busy = task_seconds(worker)
        memory, processes = worker_memory(worker)
    finally:
        stop(worker)
    latencies = [(finished - created).total_seconds() for created, finished, _e in done]
    passes = len({(event_id, finished) for _c, finished, event_id in done})
    span = (max(f for _c, f, _e in done) - min(c for c, _f, _e in done)).total_seconds()
    return {
        "sessions": len(sessions),
        "processes": args.processes,
        "changes": len(offered),
        "changes_per_second": len(offered) / window,
        "recalculations_per_second": len(done) / span,
        "latency": summary(latencies),
        "passes": passes,
        "changes_per_pass": len(done) / passes,
        "tasks": len(busy),
        "worker_busy_seconds": sum(busy),
        "worker_seconds_per_change": sum(busy) / len(done),
        # CPU a change, from the processes' own counters over the window and its drain.
        "cpu_ms_per_change": {part: used * 1000 / len(done) for part, used in cpu.used.items()},
        "task_time": summary(busy) if busy else None,
        "worker_mib": memory,
        "worker_processes": processes,
        "peak": sampler.peak(),
        "database": database_now(),
        "load": [load_before, load_average()],
    }


def bench_evening(args):
    rng = random.Random(33)
    counter = iter(range(10**9))
    sizes = sorted(set(args.sessions))
    out, built, sessions = {"runs": [], "tables": 15}, 0.0, []
    for size in sizes:
        more, seconds = build_clubs(size - len(sessions), rng, first=len(sessions))
        analyze()
        sessions += more
        built += seconds
        run = evening_run(sessions, args, counter, rng)
        run["build_seconds"] = built
        out["runs"].append(run)
        log(
            f"  {size} sessions: {run['changes_per_second']:.0f} changes/s offered, "
            f"{run['recalculations_per_second']:.0f} recalculated/s, p95 {run['latency']['p95']:.2f} s, "
            f"{run['changes_per_pass']:.1f} changes a pass, {run['worker_seconds_per_change'] * 1000:.1f} "
            f"worker-ms a change"
        )
    out["for_1000_clubs"] = sizing(out["runs"][-1])
    return out


def sizing(run, clubs=1000, utilisation=0.6):
    """Worker processes and database connections for ``clubs`` sessions at one change a second
    each: the worker-seconds a change cost in the run (at its coalescing), kept to ``utilisation``
    of each process so that a burst queues briefly; a connection for each worker process (Django
    keeps one per process, CONN_MAX_AGE) and one for each web process."""
    per_change = run["worker_seconds_per_change"]
    processes = max(1, -(-clubs * per_change // utilisation))
    cpu = run.get("cpu_ms_per_change") or {}
    return {
        "changes_per_second": clubs,
        "worker_seconds_per_change": per_change,
        "utilisation": utilisation,
        "worker_processes": int(processes),
        "connections_for_workers": int(processes),
        # Cores, from the CPU a change cost each part (a quiet machine's figure; waiting for a
        # core does not count, as it does in the worker's own task times above).
        "cores": {part: round(clubs * ms / 1000 / utilisation, 1) for part, ms in cpu.items()},
    }


# --- A championship day --------------------------------------------------------------------------


def build_championship(tables, rng):
    from bench.db_bench import build_pairs_event, build_swiss_event
    from scoring import recalculation
    from scoring.models import Event

    pairs_tables, swiss_tables = int(tables * 0.4), int(tables * 0.4)
    ko_tables = tables - pairs_tables - swiss_tables
    events, first = {}, {}
    for name, build in (
        ("pairs", lambda: build_pairs_event(2 * pairs_tables, 26, seed=3, name="Championship pairs")),
        ("swiss", lambda: build_swiss_event(swiss_tables, 2, 13, seed=4, name="Championship Swiss")),
        ("knockout", lambda: build_swiss_event(ko_tables, 1, 26, seed=5, name="Championship KO")),
    ):
        event = build()
        if name == "knockout":
            Event.objects.filter(pk=event.pk).update(kind=Event.Kind.KNOCKOUT_TEAMS)
            event.refresh_from_db()
        started = time.perf_counter()
        recalculation.rescore_everything(event)
        first[name] = time.perf_counter() - started
        events[name] = event
        log(f"  {name}: built and scored ({first[name]:.1f} s to score)")
    return events, first, {"pairs": pairs_tables, "swiss": swiss_tables, "knockout": ko_tables}


def reflected(board_ids, timeout=300):
    from bench.worker_bench import all_reflected

    deadline = time.monotonic() + timeout
    while not all_reflected(board_ids):
        if time.monotonic() > deadline:
            raise TimeoutError(f"boards {board_ids} not reflected after {timeout} s")
        time.sleep(0.01)


def one_ruling(result, director, i):
    from rulings import services as rulings

    started = time.perf_counter()
    rulings.rule(
        result=result,
        director=director,
        kind="ui",
        laws="16B1a",
        give=True,
        facts=f"A pause before the pass ({i}).",
        ruling_text="Score adjusted",
        outcome="adjusted",
        score_kind="assigned",
        ns={"contract": "3S", "declarer": "N", "tricks": 9 + i % 3},
        offending_side="NS",
    )
    reflected([result.board_id])
    return time.perf_counter() - started


def ruling_events(shape, count):
    """The event of each of ``count`` rulings, spread over the events as their tables are
    ({event: tables}): every ruling placed, however few (one ruling at 20 tables)."""
    bounds, upto = [], 0
    for name, tables in shape.items():
        upto += tables
        bounds.append((upto, name))
    return [next(name for bound, name in bounds if (i + 0.5) * upto / count < bound) for i in range(count)]


def bench_championship(args):
    from django.contrib.auth import get_user_model

    from scoring.models import Result

    rng = random.Random(5)
    events, first, shape = build_championship(args.tables, rng)
    analyze()
    table_sessions = args.tables
    rulings_count = max(1, round(table_sessions * 5 / 100))
    appeals_count = max(1, round(table_sessions * 0.3 / 100))
    director = get_user_model().objects.create_user("bench-champ-td", first_name="Tal", last_name="Director")
    results = {
        name: list(Result.objects.filter(board__session__event=event).order_by("?")[:rulings_count])
        for name, event in events.items()
    }
    purge()
    worker = start_worker("championship", args.processes)
    times, appeal_times = {"pairs": [], "swiss": [], "knockout": []}, []
    try:
        wait_ready(worker)
        drain()
        with Sampler(worker) as sampler:
            load_before = load_average()
            for i, name in enumerate(ruling_events(shape, rulings_count)):
                times[name].append(one_ruling(results[name][i], director, i))
            for i in range(appeals_count):
                appeal_times.append(one_appeal(i))
            load_after = load_average()
        busy = task_seconds(worker)
        memory, processes = worker_memory(worker)
    finally:
        stop(worker)
    every = [t for values in times.values() for t in values]
    return {
        "tables": args.tables,
        "shape": shape,
        "first_scoring": first,
        "rulings": len(every),
        "ruling_latency": summary(every),
        "ruling_latency_by_event": {name: summary(values) for name, values in times.items() if values},
        "appeals": len(appeal_times),
        "appeal_latency": summary(appeal_times),
        "tasks": len(busy),
        "task_time": summary(busy) if busy else None,
        "worker_mib": memory,
        "worker_processes": processes,
        "peak": sampler.peak(),
        "database": database_now(),
        "load": [load_before, load_after],
    }


def one_appeal(i):
    """A ruling on a table of its own (pairs with named players) taken by appeal to a decision
    that changes the score, through the services; timed from lodging to the board reflected."""
    import datetime

    from django.contrib.auth import get_user_model

    from appeals import services as appeals
    from core import roles
    from rulings import services as rulings
    from scoring import services

    utc = datetime.UTC
    authority = services.create_authority(
        name=f"Appeal body {i}", code=f"bench-ap{i}", time_zone="UTC", by=policy.SYSTEM
    )
    tournament = services.create_tournament(
        authority=authority, name=f"Appeal open {i}", start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 3), by=policy.SYSTEM)  # fmt: skip
    event = services.create_event(tournament=tournament, name="Pairs", kind="mp_pairs", by=policy.SYSTEM)
    session = services.create_session(
        event=event, number=1, starts_at=datetime.datetime(2026, 5, 1, 9, tzinfo=utc), by=policy.SYSTEM
    )
    tables = services.add_tables(section=session.sections.get(), count=3, by=policy.SYSTEM)
    round_ = services.add_rounds(session=session, count=1, by=policy.SYSTEM)[0]
    players = [
        services.register_player(authority=authority, first_name=f"P{k}", last_name=f"Player{k}",
                                 membership_number=f"a{i}-{k}", by=policy.SYSTEM)
        for k in range(12)
    ]  # fmt: skip
    pairs = [
        services.enter_contestant(event=event, number=n + 1, members=players[2 * n : 2 * n + 2], by=policy.SYSTEM)
        for n in range(6)
    ]
    User = get_user_model()
    director, chief = User.objects.create_user(f"ap{i}-td"), User.objects.create_user(f"ap{i}-chief")
    members = [User.objects.create_user(f"ap{i}-m{k}") for k in range(3)]
    services.appoint_official(tournament=tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    services.appoint_official(tournament=tournament, user=chief, role=roles.CHIEF_DIRECTOR, by=policy.SYSTEM)
    for member in members:
        services.appoint_official(tournament=tournament, user=member, role=roles.APPEALS_MEMBER, by=policy.SYSTEM)
    board = services.create_board(session=session, number=1, by=policy.SYSTEM)
    results = [
        services.record_result(board=board, round=round_, table=tables[t], ns=pairs[2 * t], ew=pairs[2 * t + 1],
                               contract="4S", declarer="N", tricks=10 - t, by=policy.SYSTEM)
        for t in range(3)
    ]  # fmt: skip
    posted = datetime.datetime(2026, 5, 1, 20, tzinfo=utc)
    ruling = rulings.rule(
        result=results[0], director=director, kind="ui", laws="16B1a", give=True,
        given_at=posted - datetime.timedelta(hours=2), ruling_text="Score adjusted", outcome="adjusted",
        score_kind="assigned", ns={"contract": "3S", "declarer": "N", "tricks": 10}, offending_side="NS",
    )  # fmt: skip
    north, south = pairs[0].members.order_by("pk")
    services.post_official_scores(session=session, at=posted, by=policy.SYSTEM)
    reflected([board.pk])
    now = posted + datetime.timedelta(minutes=10)
    started = time.perf_counter()
    appeal = appeals.lodge_appeal(ruling=ruling, by=director, player=north, now=now, grounds="4S was clear.")
    appeals.record_concurrence(appeal=appeal, player=south, how="in_person", by=director, now=now)
    body = appeals.constitute_body(
        appeal=appeal, by=chief, kind="committee", members=members, chair=members[0], now=now
    )
    for member in body.members.all():
        appeals.declare_conflict(member=member, now=now, by=member.user)
    hearing = appeals.schedule_hearing(appeal=appeal, by=chief, starts_at=now + datetime.timedelta(minutes=20), now=now)
    appeals.record_hearing_notes(hearing=hearing, by=members[0], now=now, notes="Both sides heard.")
    for member in body.members.all():
        appeals.record_vote(member=member, outcome="uphold", now=now + datetime.timedelta(minutes=25), by=member.user)
    appeals.decide_appeal(
        appeal=appeal, by=members[0], outcome="uphold", reasons="Pass was an alternative.",
        now=now + datetime.timedelta(minutes=30),
    )  # fmt: skip
    reflected([board.pk])
    return time.perf_counter() - started


# --- A worldwide simultaneous pairs --------------------------------------------------------------


def build_field(clubs, tables, boards):
    """One event, one session of ``boards`` boards, ``clubs`` clubs of ``tables`` tables (a
    Mitchell in each: its N-S pairs stay, its E-W pairs move a table a round of 2 boards).
    Returns (event, session's boards, rounds, {club: [(table, N-S, E-W, round index)]})."""
    from django.db import transaction

    from bench.db_bench import _competition
    from scoring import services
    from scoring.models import Contestant, Event, Table

    with transaction.atomic():
        _authority, event, session = _competition(Event.Kind.MP_PAIRS, "Simultaneous")
        section = session.sections.get()
        Table.objects.bulk_create(Table(section=section, number=n) for n in range(1, clubs * tables + 1))
        table_list = list(Table.objects.filter(section=section).order_by("number"))
        rounds = services.add_rounds(session=session, count=-(-boards // 2), by=policy.SYSTEM)
        board_list = [services.create_board(session=session, number=n, by=policy.SYSTEM) for n in range(1, boards + 1)]
        Contestant.objects.bulk_create(
            Contestant(event=event, kind=Contestant.Kind.PAIR, number=n) for n in range(1, clubs * tables * 2 + 1)
        )
        pairs = list(Contestant.objects.filter(event=event).order_by("number"))
    seats = {}
    for club in range(clubs):
        club_tables = table_list[club * tables : (club + 1) * tables]
        club_pairs = pairs[club * tables * 2 : (club + 1) * tables * 2]
        seats[club] = [
            (club_tables[t], club_pairs[t], club_pairs[tables + (t + r) % tables], r)
            for r in range(len(rounds))
            for t in range(tables)
        ]
    return event, board_list, rounds, seats


def club_results(seats, board_list, rounds, rng):
    """A club's results as unsaved Results (every table plays every board, 2 a round)."""
    from bench.db_bench import make_result_fields
    from scoring.models import Result

    made = []
    for table, ns, ew, r in seats:
        for board in board_list[2 * r : 2 * r + 2]:
            made.append(
                Result(board=board, round=rounds[r], table=table, ns=ns, ew=ew,
                       **make_result_fields(rng, board.number, board.vulnerability))
            )  # fmt: skip
    return made


def upload(seats, board_list, rounds, rng):
    """A club's upload: its results recorded through the services in one transaction, at once
    (``services.record_results``)."""
    from scoring import services

    services.record_results(
        rows=[
            {"board": result.board, "round": result.round, "table": result.table, "ns": result.ns, "ew": result.ew,
             "contract": result.contract, "declarer": result.declarer, "tricks": result.tricks}
            for result in club_results(seats, board_list, rounds, rng)
        ], by=policy.SYSTEM
    )  # fmt: skip


def bench_simultaneous(args):
    from scoring import recalculation
    from scoring.models import Result, Standing

    rng = random.Random(24)
    started = time.monotonic()
    event, board_list, rounds, seats = build_field(args.clubs, 10, 24)
    uploads = min(args.uploads, args.clubs - 1)
    early = [club for club in range(args.clubs - uploads)]
    batch = []
    for club in early:
        batch += club_results(seats[club], board_list, rounds, rng)
        if len(batch) >= 20000:
            Result.objects.bulk_create(batch, batch_size=5000)
            batch = []
    Result.objects.bulk_create(batch, batch_size=5000)
    built = time.monotonic() - started
    scratch_started = time.perf_counter()
    recalculation.rescore_everything(event)
    first = time.perf_counter() - scratch_started
    log(f"  {len(early)} clubs in ({built:.0f} s), the field scored in {first:.1f} s")
    analyze()
    purge()
    worker = start_worker("simultaneous", args.processes)
    times = []
    try:
        wait_ready(worker)
        drain()
        with Sampler(worker) as sampler:
            load_before = load_average()
            for club in range(args.clubs - uploads, args.clubs):
                begin = time.perf_counter()
                upload(seats[club], board_list, rounds, rng)
                reflected([board.pk for board in board_list], timeout=900)
                times.append(time.perf_counter() - begin)
                placed = Standing.objects.filter(event=event, session=None, contestant=seats[club][0][1]).exists()
                log(f"  upload of club {club + 1}: {times[-1]:.1f} s to its place in the field (placed: {placed})")
            load_after = load_average()
        busy = task_seconds(worker)
        memory, processes = worker_memory(worker)
    finally:
        stop(worker)
    results = Result.objects.filter(board__session__event=event).count()
    again = []
    for _ in range(args.scratch):
        scratch_started = time.perf_counter()
        recalculation.rescore_everything(event)
        again.append(time.perf_counter() - scratch_started)
        log(f"  the whole field ({results:,} results) rescored from scratch in {again[-1]:.1f} s")
    return {
        "clubs": args.clubs,
        "results": results,
        "results_a_board": results // len(board_list),
        "build_seconds": built,
        "first_scoring": first,
        "uploads": len(times),
        "upload_latency": summary(times),
        "from_scratch": summary(again) if again else None,
        "tasks": len(busy),
        "task_time": summary(busy) if busy else None,
        "worker_mib": memory,
        "worker_processes": processes,
        "peak": sampler.peak(),
        "database": database_now(),
        "load": [load_before, load_after, load_average()],
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke test of the same code")
    parser.add_argument("--processes", type=int, default=2, help="worker processes")
    sub = parser.add_subparsers(dest="what", required=True)
    evening = sub.add_parser("evening")
    evening.add_argument("--sessions", type=int, nargs="+", default=[100, 1000])
    evening.add_argument("--seconds", type=float, default=20)
    evening.add_argument("--writers", type=int, default=10)
    championship = sub.add_parser("championship")
    championship.add_argument("--tables", type=int, default=1000)
    simultaneous = sub.add_parser("simultaneous")
    simultaneous.add_argument("--clubs", type=int, default=1000)
    simultaneous.add_argument("--uploads", type=int, default=5)
    simultaneous.add_argument("--scratch", type=int, default=1, help="times the whole field is rescored from scratch")
    args = parser.parse_args(argv)
    if args.quick:
        quick = {"evening": {"sessions": [4, 12], "seconds": 5}, "championship": {"tables": 40}}
        for name, value in quick.get(args.what, {"clubs": 20, "uploads": 2}).items():
            setattr(args, name, value)
    # Stopped from outside (bench/run.py's time limit): unwind, so the worker is stopped too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    os.environ["CELERY_BROKER_URL"] = REDIS_URL
    with throwaway_database("postgres"):
        setup_django()
        out = {"evening": bench_evening, "championship": bench_championship, "simultaneous": bench_simultaneous}[
            args.what
        ](args)
    print(json.dumps({"what": args.what, "quick": args.quick, **out}, default=str), flush=True)


if __name__ == "__main__":
    main()
