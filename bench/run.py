"""``make bench``: run every benchmark, print one markdown table, and write it into
docs/performance.md between ``<!-- bench:start -->`` and ``<!-- bench:end -->``.

Each benchmark runs in its own process (its own settings and throwaway database):

- bench/engine_bench.py: the score engine alone, no Django;
- bench/db_bench.py sqlite|postgres: whole events re-scored with their database writes;
- bench/worker_bench.py: saved-to-standings latency through a real Celery worker;
- bench/casebook_bench.py: a national body's casebook compiled, checked, published, printed.
- bench/precedents_bench.py sqlite|postgres: precedents suggested for a ruling among 10,000 published cases.
- bench/federation_bench.py sqlite|postgres: a 1,000-pair event's case files published to the national body:
  the bundle built, verified, received and stored, and sent again.
- bench/offline_bench.py: a director's phone keeping a 1,000-pair event for offline use: the
  bundle's size and the time to keep it (gunicorn and Chromium on loopback).
- bench/load_bench.py audit|queues|clubs: audited writes per second with 10 writers, standings
  latency while 50 double-dummy jobs wait, 100 club sessions with 1, 2 and 4 worker processes.
- bench/scale_bench.py evening|championship|simultaneous: the scale tiers of issue #33 (a
  national evening of 100 and 1,000 club sessions, a championship day of 100 and 1,000 tables,
  a worldwide simultaneous pairs of 100 and 1,000 clubs, and how each tier's cost grows from its
  small size to its large); ``--quick`` runs them small.
- bench/import_bench.py sqlite: a 9.5 MB results file (a real BBO tournament's PBN written again
  and again) read, and previewed as the upload page does; how many times the preview parses it.

Every step has a time limit; a step that fails or runs out of time is shown as such, and
docs/performance.md is then left as it was (``--write-anyway`` writes it all the same).
Sized to take about 8 to 10 minutes on the 2-core benchmark machine, plus most of an hour for
the scale tiers (``--quick`` runs everything small).
"""

import argparse
import collections
import datetime
import json
import os
import platform
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import ROOT, bench_env, server_versions  # noqa: E402

DOC = ROOT / "docs" / "performance.md"
START, END = "<!-- bench:start -->", "<!-- bench:end -->"
PYTHON = sys.executable
ENGINE_REPEAT = 25


# --- Running the steps ----------------------------------------------------------------------


class StepFailed(Exception):
    pass


def run_step(name, args, timeout):
    """Run one benchmark process; its stderr (progress) passes through, its stdout is returned.
    Past ``timeout`` it is sent SIGTERM (it stops what it started), then SIGKILL."""
    print(f"== {name}", file=sys.stderr, flush=True)
    started = time.monotonic()
    proc = subprocess.Popen(
        [PYTHON, *args],
        cwd=ROOT,
        env=bench_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        text=True,
    )
    last_lines = collections.deque(maxlen=1)

    def relay():
        for line in proc.stderr:
            sys.stderr.write(line)
            sys.stderr.flush()
            if line.strip():
                last_lines.append(line.strip())

    stdout = []
    readers = [
        threading.Thread(target=relay, daemon=True),
        threading.Thread(target=lambda: stdout.append(proc.stdout.read()), daemon=True),
    ]
    for reader in readers:
        reader.start()
    try:
        proc.wait(timeout=timeout)
    except (subprocess.TimeoutExpired, KeyboardInterrupt) as stop:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=45)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        if isinstance(stop, KeyboardInterrupt):
            raise
        raise StepFailed(f"no result after {timeout} s") from None
    finally:
        for reader in readers:
            reader.join(timeout=5)
    print(f"   ({time.monotonic() - started:.0f} s)", file=sys.stderr, flush=True)
    if proc.returncode != 0:
        last = last_lines[0] if last_lines else ""
        raise StepFailed(f"exit status {proc.returncode}" + (f" ({last[:200]})" if last else ""))
    return stdout[0] if stdout else ""


def last_json(out):
    for line in reversed(out.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise StepFailed("no JSON line in the output")


# --- The engine's own benchmark (bench/engine_bench.py, text output) -------------------------

ENGINE_ROWS = [
    (r"^one board, 10 plain results$", "Engine: matchpoint one board, 10 plain results"),
    (r"^one board, 100 plain results$", "Engine: matchpoint one board, 100 plain results"),
    (r"^one board, 1,000 plain results$", "Engine: matchpoint one board, 1,000 plain results"),
    (r"^one board, 5,000 plain results$", "Engine: matchpoint one board, 5,000 plain results"),
    (
        r"^one board, 1,000 results,.*weighted.*split",
        "Engine: one board, 1,000 results with weighted and split entries (10% each)",
    ),
    (r"^event", "Engine: whole pairs event, 1,000 pairs, 26 boards (matchpoints, totals, %, ranking)"),
]


def parse_engine(out):
    """{case name: milliseconds} and the runs per case, from engine_bench's table."""
    cases, runs, in_table = {}, None, False
    for line in out.splitlines():
        match = re.match(r"^median of (\d+) runs", line)
        if match:
            runs = int(match.group(1))
        if line.startswith("---"):
            in_table = True
            continue
        match = re.match(r"^(.*?)\s+([\d.]+)\s*$", line)
        if in_table and match:
            cases[match.group(1).strip()] = float(match.group(2))
    if not cases:
        raise StepFailed("engine_bench printed no table")
    return cases, runs or ENGINE_REPEAT


def engine_rows(out):
    cases, runs = parse_engine(out)
    rows = []
    for pattern, label in ENGINE_ROWS:
        found = [(name, ms) for name, ms in cases.items() if re.search(pattern, name)]
        if not found:
            rows.append(row(label, "engine only", "–", None, None, note="not in engine_bench's output"))
            continue
        name, ms = found[0]
        n = max(3, runs // 5) if label.startswith("Engine: whole") else runs
        rows.append(row(label, "engine only", n, ms / 1000, None))
    return rows + peer_rows(out, runs)


PEER_LINE = re.compile(
    r"^(?P<case>.*?)\s+(?P<ms>[\d.]+)\s+(?P<peer>[\d.]+|-)\s+(?P<ratio>[\d.]+|-)\s+(?P<same>yes|NO|-)\s*$"
)


def peer_rows(out, runs):
    """The side-by-side rows (engine beside bridge-scorer on the same boards, issue #15)."""
    rows = []
    skipped = re.search(r"^bridge-scorer: skipped \((.*)\)$", out, re.M)
    for line in out.splitlines():
        match = PEER_LINE.match(line)
        if not match:
            continue
        what = f"Engine beside bridge-scorer: {match['case']}"
        ms = float(match["ms"])
        if match["peer"] == "-":
            note = f"bridge-scorer skipped: {skipped.group(1)}" if skipped else "bridge-scorer not run"
            rows.append(row(what, "engine only", runs, ms / 1000, None, note=note))
            continue
        peer = float(match["peer"])
        same = "same scores" if match["same"] == "yes" else "**scores differ**"
        rows.append(
            row(
                what,
                "engine only",
                runs,
                ms / 1000,
                None,
                target=f"no slower than bridge-scorer ({peer:.3f} ms; ratio {match['ratio']}; {same})",
                limit=peer / 1000,
            )
        )
    return rows


# --- The table -------------------------------------------------------------------------------


def row(what, where, runs, median, p95, target=None, limit=None, note=""):
    return {
        "what": what,
        "where": where,
        "runs": runs,
        "median": median,
        "p95": p95,
        "target": target,
        "limit": limit,
        "note": note,
    }


def fmt_time(seconds):
    if seconds is None:
        return "–"
    ms = seconds * 1000
    if ms < 1:
        return f"{ms:.3f} ms"
    if ms < 10:
        return f"{ms:.2f} ms"
    if ms < 100:
        return f"{ms:.1f} ms"
    if ms < 1000:
        return f"{ms:.0f} ms"
    return f"{seconds:.2f} s"


def fmt_target(r):
    if not r["target"]:
        return r["note"] or ""
    value = r["p95"] if r["target"].startswith("p95") else r["median"]
    if value is None:
        verdict = "not measured"
    elif value <= r["limit"]:
        verdict = "met"
    else:
        ratio = value / r["limit"]
        verdict = f"**missed** ({ratio:.2f}× the target)" if ratio < 2 else f"**missed** ({ratio:.1f}× the target)"
    text = f"{r['target']}: {verdict}"
    return f"{text}; {r['note']}" if r["note"] else text


def table(rows):
    lines = ["| # | What is measured | Where | Runs | Median | p95 | Target |", "|---|---|---|---:|---:|---:|---|"]
    for number, r in rows:
        if r.get("failed"):
            failed = r["failed"].replace("|", "\\|")
            lines.append(f"| {number} | {r['what']} | {r['where']} | – | – | – | failed: {failed} |")
            continue
        lines.append(
            f"| {number} | {r['what']} | {r['where']} | {r['runs']} | {fmt_time(r['median'])} | "
            f"{fmt_time(r['p95'])} | {fmt_target(r)} |"
        )
    return "\n".join(lines)


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def memory_gib():
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB"
    except OSError:
        pass
    return "? GiB"


def load_average():
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "0"


def code_version():
    """The commit measured (read-only: no git command here writes the index)."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "--no-optional-locks", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{head} with uncommitted changes" if dirty else head or "unknown"


def machine_line(load_before, code):
    import django

    servers = server_versions()
    return (
        f"Machine: {cpu_model()}, {os.cpu_count()} cores, {memory_gib()} memory; "
        f"Python {platform.python_version()}, Django {django.get_version()}, SQLite {sqlite3.sqlite_version}, "
        f"PostgreSQL {servers['postgres'] or 'not reachable'}, Redis {servers['redis'] or 'not reachable'}. "
        f"Code: commit {code}. Measured {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC; "
        f"load average (1 min) {load_before} before the run, {load_average()} after."
    )


# --- The plan --------------------------------------------------------------------------------


def plan(quick):
    """(row number, step name, argv, time limit in s, function from parsed JSON to rows)."""
    pairs = ["--pairs", "100", "--boards", "4"] if quick else []
    swiss = ["--teams", "8", "--rounds", "2"] if quick else []
    # The first scoring inserts; then 2 to 5 re-scorings, as many as fit in 60 s.
    repeats = ["--repeats", "6", "--swiss-repeats", "6", "--budget", "60"]
    changes = ["--changes", "5"] if quick else []
    steps = [("1", "engine alone", ["bench/engine_bench.py", "--repeat", str(ENGINE_REPEAT)], 300, None)]
    for db, label in (("sqlite", "SQLite"), ("postgres", "PostgreSQL")):
        steps.append(
            (
                "2, 3",
                f"events with database writes, {label}",
                ["-m", "bench.db_bench", db, *repeats, *pairs, *swiss],
                900,
                label,
            )
        )
    steps.append(
        (
            "4",
            "saved-to-standings, PostgreSQL + Redis",
            ["-m", "bench.worker_bench", "postgres", "redis", *changes],
            400,
            "PostgreSQL + Redis",
        )
    )
    steps.append(
        (
            "4",
            "saved-to-standings, SQLite + filesystem broker",
            ["-m", "bench.worker_bench", "sqlite", "filesystem", *changes],
            400,
            "SQLite + filesystem broker",
        )
    )
    steps.append(
        (
            "5",
            "casebook, PostgreSQL",
            ["-m", "bench.casebook_bench", "postgres", "--cases", "10" if quick else "60"],
            600,
            "PostgreSQL",
        )
    )
    for db, label in (("sqlite", "SQLite"), ("postgres", "PostgreSQL")):
        steps.append(
            (
                "6",
                f"precedents, {label}",
                ["-m", "bench.precedents_bench", db, "--cases", "500" if quick else "10000"],
                900,
                label,
            )
        )
    steps.append(
        (
            "10",
            "publishing a 1,000-pair event to the national body, PostgreSQL",
            [
                "-m",
                "bench.federation_bench",
                "postgres",
                *(["--pairs", "40", "--rulings", "5", "--appeals", "2", "--attachments", "2"] if quick else []),
            ],
            900,
            "PostgreSQL",
        )
    )
    # The phone's offline bundle of a 1,000-pair event: its size and the time to keep it (issue #31).
    steps.append(
        (
            "11",
            "a phone keeping a 1,000-pair event for offline use, SQLite",
            [
                "-m",
                "bench.offline_bench",
                *(["--pairs", "40", "--boards", "4", "--rulings", "5", "--repeat", "1"] if quick else []),
            ],
            900,
            "SQLite, gunicorn + Chromium",
        )
    )
    # Throughput under load (issue #19): audited writes, standings behind double-dummy jobs, and
    # a national evening of club sessions with 1, 2 and 4 worker processes.
    steps += [
        ("7", "audited writes, 10 writers", ["-m", "bench.load_bench", "audit", "--seconds", "5" if quick else "15"], 300, "PostgreSQL"),
        ("8", "standings behind 50 double-dummy jobs", ["-m", "bench.load_bench", "queues", *(["--changes", "3"] if quick else [])], 600, "PostgreSQL + Redis"),
        ("9", "100 club sessions", ["-m", "bench.load_bench", "clubs", *(["--sessions", "4", "--seconds", "5"] if quick else [])], 1500, "PostgreSQL + Redis"),
    ]  # fmt: skip
    # Scale tiers (issue #33): a national evening, a championship day, a worldwide simultaneous
    # pairs, each in a throwaway database with a worker of two processes.
    # Each tier at a small and a large size, so the rows can say how the cost grows (growth_rows).
    scale = ["--quick"] if quick else []
    tables = ["20", "40"] if quick else ["100", "1000"]
    clubs = ["10", "20"] if quick else ["100", "1000"]
    uploads = ["--uploads", "2"] if quick else []  # the sizes are given, so --quick is not (it would set them)
    steps.append(("10", "national evening", ["-m", "bench.scale_bench", *scale, "evening"], 2400, "PostgreSQL + Redis"))
    for size in tables:
        steps.append((
            "11", f"championship day, {size} tables",
            ["-m", "bench.scale_bench", "championship", "--tables", size], 900, "PostgreSQL + Redis",
        ))  # fmt: skip
    for size in clubs:
        steps.append((
            "12", f"simultaneous pairs, {size} clubs",
            ["-m", "bench.scale_bench", "simultaneous", "--clubs", size, *uploads], 1500, "PostgreSQL + Redis",
        ))  # fmt: skip
    # A results file near the upload limit read and previewed (issue #40).
    steps.append(
        (
            "13",
            "a 9.5 MB results file read and previewed, SQLite",
            ["-m", "bench.import_bench", "sqlite", *(["--megabytes", "1", "--repeats", "1"] if quick else [])],
            900,
            "SQLite",
        )
    )
    if not quick:
        steps.append(
            (
                "4",
                "saved-to-standings, 1,000-pair event, PostgreSQL + Redis",
                [
                    "-m",
                    "bench.worker_bench",
                    "postgres",
                    "redis",
                    "--pairs",
                    "1000",
                    "--changes",
                    "50",
                    "--warmup",
                    "2",
                    "--budget",
                    "60",
                    "--together",
                    "5",
                ],
                400,
                "PostgreSQL + Redis",
            )
        )
    return steps


def db_rows(data, where):
    rows = []
    pairs, swiss = data["pairs"], data["swiss"]
    is_pg = where == "PostgreSQL"
    target = ("under 5 s", 5.0) if is_pg else (None, None)
    p, s = pairs["size"], swiss["size"]
    pairs_desc = f"Pairs event ({p['pairs']:,} pairs, {p['boards']} boards), `rescore_everything`"
    swiss_desc = f"Swiss teams ({s['teams']} teams, {s['rounds']} rounds), `rescore_everything`"
    for number, desc, data_, tgt in (("2", pairs_desc, pairs, target), ("3", swiss_desc, swiss, (None, None))):
        again = data_["again"]
        rows.append((number, row(f"{desc}, first scoring (no scores yet)", where, 1, data_["first"], None, *tgt)))
        rows.append(
            (
                number,
                row(f"{desc} again (scores already there)", where, again["n"], again["median"], again["p95"], *tgt),
            )
        )
    loop = pairs.get("loop")
    if loop:
        around = loop["loop"] - loop["engine"]
        rows.append(
            (
                "2",
                row(
                    f"One board of {loop['results']} plain results rescored, in memory: the engine and the work "
                    f"around it (each result's values, {loop['moved']} moved rows turned into writes)",
                    where,
                    loop["runs"],
                    loop["loop"],
                    None,
                    note=(
                        f"engine inside it (`score_plain_board`) {fmt_time(loop['engine'])}; the work around it "
                        f"{fmt_time(around)}, {around / loop['engine_entries']:.1f}x the engine's `score_board` "
                        f"on the same board ({fmt_time(loop['engine_entries'])}, both directions read) and "
                        f"{around / loop['engine']:.1f}x `score_plain_board`; the database's comparison of the "
                        f"stored rows {fmt_time(loop['database'])} (reading and comparing them row by row in "
                        f"Python: {fmt_time(loop['row_by_row'])})"
                    ),
                ),
            )
        )
    return rows


def worker_rows(data, where):
    size = data["size"]
    lat = data["latency"]
    target = ("p95 under 1 s", 1.0) if data["broker"] == "redis" else (None, None)
    if data["broker"] == "redis" and size["pairs"] >= 1000:
        target = ("p95 under 250 ms", 0.25)  # issue #15
    event = f"{size['pairs']:,}-pair event, {size['boards']} boards"
    what = f"Saved-to-standings latency, real worker ({event}; one adjusted score at a time)"
    rows = [("4", row(what, where, lat["n"], lat["median"], lat["p95"], *target))]
    if "together" in data:
        together = data["together"]
        what = f"Saved-to-standings, real worker ({event}; all {size['boards']} boards changed in one transaction)"
        rows.append(("4", row(what, where, together["n"], together["median"], together["p95"], "under 2 s", 2.0)))
    return rows


def casebook_rows(data, where):
    cases = data["size"]["cases"]
    steps = [
        ("compile", f"Casebook of {cases} decided appeals: compile the draft"),
        ("check", f"Casebook of {cases} cases: rewrite every text and check for surviving names"),
        ("publish", f"Casebook of {cases} cases: publish (build, check, freeze)"),
        ("html", f"Casebook of {cases} cases: the HTML book ({data['html_bytes'] // 1024} KiB)"),
    ]
    if "pdf" in data:
        steps.append(("pdf", f"Casebook of {cases} cases: PDF printed by Chromium ({data['pdf_bytes'] // 1024} KiB)"))
    return [("5", row(what, where, data[key]["n"], data[key]["median"], data[key]["p95"])) for key, what in steps]


def import_rows(data, where):
    """bench/import_bench.py: the file read, and its preview, with the parses counted."""
    size = data["size"]
    what = f"{size['bytes'] / 1e6:.1f} MB PBN ({size['games']:,} games, {size['boards']} boards, {size['results']:,} results)"
    return [
        ("13", row(f"Results file: a {what} read", where, data["read"]["n"], data["read"]["median"], data["read"]["p95"], note=f"{data['read']['cpu']:.1f} s CPU")),
        ("13", row("Results file: the same previewed (the import, rolled back)", where, data["preview"]["n"], data["preview"]["median"], data["preview"]["p95"], note=f"{data['preview']['cpu']:.1f} s CPU; the file parsed {data['parses']} time(s)")),
    ]  # fmt: skip


def federation_rows(data, where):
    size = data["size"]
    what = (
        f"{size['pairs']:,}-pair event's case files ({size['results']:,} results, {size['rulings']} rulings, "
        f"{size['appeals']} decided appeals: {size['records']:,} records, {size['entries']:,} audit entries, "
        f"{size['bytes'] // 1024:,} KiB)"
    )
    steps = [
        ("build", f"Publishing: {what}, the bundle built and signed"),
        ("verify", "Publishing: the same bundle verified (signatures, every entry's hash and inclusion proof)"),
        ("receive", "Publishing: the same bundle received in parts, verified and stored in one transaction"),
        ("again", "Publishing: the same records sent again under a new head (all unchanged)"),
    ]
    rows = [("10", row(what_, where, data[key]["n"], data[key]["median"], data[key]["p95"])) for key, what_ in steps]
    memory = data.get("memory")
    if memory:
        what = (
            f"Publishing: a bundle of {memory['bytes'] / 2**20:.1f} MiB ({memory['attachments']} attachments of "
            f"4 MiB) committed from its parts: peak memory {memory['peak'] / 2**20:.1f} MiB (tracemalloc)"
        )
        rows.append(("10", row(what, where, 1, memory["seconds"], memory["seconds"])))
    carried = (memory or {}).get("carried")
    if carried:
        for key, how in (
            ("read", "read from its file (every member to its end)"),
            ("parts", "its parts of 1 MiB read"),
        ):
            what = (
                f"Publishing: the same tournament as a carried push (bundle {carried['bytes'] / 2**20:.1f} MiB), {how}: "
                f"peak memory {carried[key]['peak'] / 2**20:.1f} MiB (tracemalloc)"
            )
            rows.append(("10", row(what, where, 1, carried[key]["seconds"], carried[key]["seconds"])))
    return rows


def offline_rows(data, where):
    """bench/offline_bench.py: the bundle's size (in the row's words) and the time to keep it."""
    size, bundle = data["size"], data["bundle"]
    kinds = ", ".join(
        f"{kind} {entry['pages']:,} ({entry['bytes'] / 2**20:.1f} MiB)"
        for kind, entry in sorted(bundle["kinds"].items())
    )
    what = (
        f"Offline: a phone keeps a {size['pairs']:,}-pair event ({size['boards']} boards at every table: "
        f"{size['results']:,} results; {size['rulings']} rulings): {bundle['urls']:,} pages and files, "
        f"{bundle['bytes'] / 2**20:.1f} MiB ({kinds}); from opening the tournament to every page kept"
    )
    keep = data["keep"]
    if keep is None:
        return [("11", {"what": what, "where": where, "failed": "no Chromium"})]
    return [("11", row(what, where, keep["n"], keep["median"], keep["p95"]))]


def precedents_rows(data, where):
    cases = f"{data['size']['cases']:,}"
    steps = [
        (
            "suggestions",
            f"Precedents: suggestions for a Law 16 ruling among {cases} published cases",
            ("p95 under 100 ms", 0.1),
        ),
        ("search_law", f"Precedents: search by law 16B (with sub-sections), {cases} published cases", (None, None)),
        ("search_words", f"Precedents: search by two words, {cases} published cases", (None, None)),
    ]
    return [
        ("6", row(what, where, data[key]["n"], data[key]["median"], data[key]["p95"], target=target, limit=limit))
        for key, what, (target, limit) in steps
    ]


def load_rows(data, where):
    """bench/load_bench.py: audited writes, standings behind double-dummy jobs, club sessions."""
    if data["what"] == "audit":
        lat, full, since = data["latency"], data["verify_full"], data["verify_since_checkpoint"]
        return [
            (
                "7",
                row(
                    f"Audited writes, {data['writers']} concurrent writers (one AuditHead row lock), each signing "
                    "its tree head",
                    where,
                    lat["n"],
                    lat["median"],
                    lat["p95"],
                    note=f"{data['per_second']:.0f} writes/s",
                ),
            ),
            *(
                [
                    (
                        "7",
                        row(
                            "Audited writes, the same, heads left unsigned (before issue #41)",
                            where,
                            data["unsigned"]["latency"]["n"],
                            data["unsigned"]["latency"]["median"],
                            data["unsigned"]["latency"]["p95"],
                            note=f"{data['unsigned']['per_second']:.0f} writes/s",
                        ),
                    )
                ]
                if "unsigned" in data
                else []
            ),
            ("7", row(f"Audit trail verified in full ({full['entries']:,} entries)", where, 1, full["seconds"], None)),
            (
                "7",
                row(
                    f"Audit trail verified from its checkpoint ({since['entries']} new entry), the auditor's desk",
                    where,
                    1,
                    since["seconds"],
                    None,
                ),
            ),
        ]
    if data["what"] == "queues":
        size = f"{data['size']['pairs']}-pair event, {data['size']['boards']} boards"
        return [
            (
                "8",
                row(
                    f"Saved-to-standings while {data['jobs']} double-dummy jobs wait: {layout} ({size})",
                    where,
                    data[layout]["n"],
                    data[layout]["median"],
                    data[layout]["p95"],
                ),
            )
            for layout in ("one worker, every queue", "workers per queue")
        ]
    rows = []
    for processes, run in data["runs"].items():
        lat = run["latency"]
        what = (
            f"{data['sessions']} club sessions ({data['tables']} tables, 24-27 boards), one change a second each, "
            f"{processes} worker process{'es' if processes != '1' else ''}: recalculation latency"
        )
        note = (
            f"{run['changes_per_second']:.0f} changes/s offered, "
            f"{run['recalculations_per_second']:.1f} recalculations/s finished"
        )
        rows.append(("9", row(what, where, lat["n"], lat["median"], lat["p95"], note=note)))
    return rows


def _memory_note(data):
    peak = data.get("peak") or {}
    load = "-".join(f"{value:.1f}" for value in data.get("load", []))
    return (
        f"worker {data['worker_mib']:.0f} MiB ({data['worker_processes']} processes); database "
        f"{data['database']['size_mib']:.0f} MiB, its backends up to {peak.get('backends_mib') or 0:.0f} MiB "
        f"over {peak.get('connections') or 0} connections; load average {load}"
    )


def _cpu_note(run):
    cpu = run.get("cpu_ms_per_change")
    if not cpu:
        return ""
    return "CPU a change: " + ", ".join(f"{part} {ms:.1f} ms" for part, ms in cpu.items()) + "; "


def scale_rows(data, where):
    """bench/scale_bench.py: the three scale tiers (issue #33)."""
    if data["what"] == "evening":
        rows = []
        for run in data["runs"]:
            target = ("p95 under 1 s", 1.0) if run["sessions"] == 100 and run["processes"] == 2 else (None, None)
            what = (
                f"National evening: {run['sessions']:,} club sessions (15 tables, 24-27 boards), one change a "
                f"second each, {run['processes']} worker processes: save to standings"
            )
            note = (
                f"{run['changes_per_second']:.0f} changes/s offered, {run['recalculations_per_second']:.0f}/s "
                f"recalculated, {run['changes_per_pass']:.2f} changes a pass, "
                f"{run['worker_seconds_per_change'] * 1000:.0f} worker-ms a change; "
                + _cpu_note(run)
                + _memory_note(run)
            )
            rows.append(("10", row(what, where, run["latency"]["n"], run["latency"]["median"],
                                   run["latency"]["p95"], *target, note=note)))  # fmt: skip
        need = data["for_1000_clubs"]
        rows.append(("10", row(
            "National evening of 1,000 clubs: worker processes and database connections needed (from the "
            "largest run's worker-seconds a change, each process kept to 60 % busy)", where, "–", None, None,
            note=f"{need['worker_processes']} worker processes, as many connections (+1 a web process)"
            + (
                "; from the CPU a change cost: "
                + ", ".join(f"{part} {cores} cores" for part, cores in need["cores"].items())
                if need.get("cores")
                else ""
            ),
        )))  # fmt: skip
        return rows
    if data["what"] == "championship":
        shape = data["shape"]
        size = (
            f"{data['tables']:,} tables: pairs {shape['pairs']}, Swiss {shape['swiss']}, knockout {shape['knockout']}"
        )
        rows = [
            ("11", row(f"Championship day ({size}; 26 boards): {data['rulings']} rulings, each through the services "
                       "until its standings", where, data["ruling_latency"]["n"], data["ruling_latency"]["median"],
                       data["ruling_latency"]["p95"], note=_memory_note(data))),
            ("11", row(f"Championship day: {data['appeals']} appeals, lodging to decision to standings", where,
                       data["appeal_latency"]["n"], data["appeal_latency"]["median"], data["appeal_latency"]["p95"])),
        ]  # fmt: skip
        for name, seconds in data["first_scoring"].items():
            rows.append(("11", row(f"Championship day: the {name} event's first scoring", where, 1, seconds, None)))
        return rows
    what = f"Simultaneous pairs: {data['clubs']:,} clubs of 10 tables, {data['results_a_board']:,} results a board"
    rows = [
        ("12", row(f"{what}: a club's upload (240 results) to its place in the whole field", where,
                   data["upload_latency"]["n"], data["upload_latency"]["median"], data["upload_latency"]["p95"],
                   "p95 under 10 s", 10.0, note=_memory_note(data))),
    ]  # fmt: skip
    if data.get("from_scratch"):
        scratch = data["from_scratch"]
        rows.append(("12", row(f"{what}: the whole field rescored from scratch", where, scratch["n"],
                               scratch["median"], None, "under 30 s", 30.0)))  # fmt: skip
    return rows


def _times(small, large):
    """How many times ``small`` ``large`` is, as the growth rows print it."""
    if not small or large is None:
        return "–"
    return f"{large / small:.1f}x"


def _growth(number, what, size, small, large, measures, where):
    factor = large[size] / small[size]
    said = "; ".join(f"{name} {_times(pick(small), pick(large))}" for name, pick in measures)
    label = f"How the cost grows: {what}, {small[size]:,} to {large[size]:,} ({factor:.0f} times the size)"
    return (number, row(label, where, "–", None, None, note=said))


def growth_rows(tiers, where):
    """One row a tier: each measure at the large size over the small (issue #33: "how the cost
    grows from the small tier to the large")."""
    rows = []
    memory = ("worker memory", lambda d: d["worker_mib"])
    database = ("database size", lambda d: d["database"]["size_mib"])
    for data in tiers:
        if data["what"] == "evening" and len(data["runs"]) > 1:
            small, large = data["runs"][0], data["runs"][-1]
            rows.append(_growth("10", "national evening, club sessions", "sessions", small, large, [
                ("worker-ms a change", lambda d: d["worker_seconds_per_change"]),
                ("changes a pass", lambda d: d["changes_per_pass"]),
                ("latency p95", lambda d: d["latency"]["p95"]),
                memory, database,
            ], where))  # fmt: skip
    for what, size, measures in (
        ("championship", "tables", [
            ("a ruling to its standings (median)", lambda d: d["ruling_latency"]["median"]),
            ("the pairs event's first scoring", lambda d: d["first_scoring"].get("pairs")),
            ("the Swiss event's first scoring", lambda d: d["first_scoring"].get("swiss")),
            ("the knockout's first scoring", lambda d: d["first_scoring"].get("knockout")),
            memory, database,
        ]),
        ("simultaneous", "clubs", [
            ("an upload to its place (median)", lambda d: d["upload_latency"]["median"]),
            ("the field from scratch", lambda d: (d.get("from_scratch") or {}).get("median")),
            memory, database,
        ]),
    ):  # fmt: skip
        runs = sorted((d for d in tiers if d["what"] == what), key=lambda d: d[size])
        if len(runs) > 1:
            label = "championship day, tables" if what == "championship" else "simultaneous pairs, clubs"
            rows.append(
                _growth("11" if what == "championship" else "12", label, size, runs[0], runs[-1], measures, where)
            )
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, a smoke test; docs are not written")
    parser.add_argument("--write-anyway", action="store_true", help="write the doc even if a step failed")
    args = parser.parse_args()
    started = time.monotonic()
    load_before = load_average()
    code = code_version()

    all_rows, failures, tiers = [], [], []
    for number, name, argv, limit, where in plan(args.quick):
        try:
            out = run_step(name, argv, limit)
            if where is None:
                all_rows.extend((number, r) for r in engine_rows(out))
            elif "bench.db_bench" in argv:
                all_rows.extend(db_rows(last_json(out), where))
            elif "bench.casebook_bench" in argv:
                all_rows.extend(casebook_rows(last_json(out), where))
            elif "bench.precedents_bench" in argv:
                all_rows.extend(precedents_rows(last_json(out), where))
            elif "bench.federation_bench" in argv:
                all_rows.extend(federation_rows(last_json(out), where))
            elif "bench.import_bench" in argv:
                all_rows.extend(import_rows(last_json(out), where))
            elif "bench.offline_bench" in argv:
                all_rows.extend(offline_rows(last_json(out), where))
            elif "bench.scale_bench" in argv:
                data = last_json(out)
                all_rows.extend(scale_rows(data, where))
                tiers.append(data)
            elif "bench.load_bench" in argv:
                all_rows.extend(load_rows(last_json(out), where))
            else:
                all_rows.extend(worker_rows(last_json(out), where))
        except (StepFailed, KeyError, TypeError, ValueError) as error:
            failures.append(f"{name}: {error}")
            print(f"   FAILED: {error}", file=sys.stderr, flush=True)
            all_rows.append((number, {"what": name, "where": where or "engine only", "failed": str(error)}))

    all_rows.extend(growth_rows(tiers, "PostgreSQL + Redis"))
    # Rows in the issues' order: engine, pairs event, Swiss, latency, casebook.
    all_rows.sort(key=lambda item: int(item[0]))
    elapsed = time.monotonic() - started
    lines = [machine_line(load_before, code), f"Whole `make bench` run: {elapsed / 60:.1f} min."]
    if float(load_before) > 0.5 * (os.cpu_count() or 1):
        lines.append(
            f"**The machine was busy when the run started (load average {load_before}): "
            f"other work shares the cores, so these times are likely too high.**"
        )
    output = "\n".join([*lines, "", table(all_rows)])
    print(output, flush=True)

    if args.quick:
        print("(--quick: docs/performance.md not written)", file=sys.stderr)
    elif failures and not args.write_anyway:
        print(f"{len(failures)} step(s) failed; docs/performance.md left as it was.", file=sys.stderr)
    else:
        write_doc(output)
        print(f"Written to {DOC.relative_to(ROOT)}.", file=sys.stderr)
    return 1 if failures else 0


def write_doc(output):
    block = f"{START}\n{output}\n{END}"
    text = DOC.read_text() if DOC.exists() else f"# Performance\n\n{START}\n{END}\n"
    if START in text and END in text:
        head, rest = text.split(START, 1)
        _old, tail = rest.split(END, 1)
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    DOC.write_text(text)


if __name__ == "__main__":
    sys.exit(main())
