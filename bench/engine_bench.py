"""Time the score engine (no Django): ``python bench/engine_bench.py [--repeat N] [--no-peer]``.

Prints the median of repeated runs for matchpointing one board of 10, 100, 1,000 and 5,000
plain results, 1,000 results with weighted and split entries, reading every value of a
1,000-result board as Fractions, and a whole 1,000-pair event of 26 boards (matchpoints,
session totals, percentages, ranking).

Side by side with the npm package bridge-scorer (issue #15): on the same boards of 100 and
1,000 plain results, matchpoints with both directions' values, cross-IMPs and Butler (its
trimming, ``field-size``, and its rounding of a half, up), with the ratio engine / peer and
a check that both give exactly the same scores. bridge-scorer is installed with npm into a
cache outside the repository (``BRIDGECASES_BENCH_CACHE``, default
``~/.cache/bridgecases/bench-npm``); where node or npm cannot be had, those rows are skipped
with a message.
"""

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bridge.engine.imps import butler, cross_imps  # noqa: E402
from bridge.engine.matchpoints import score_board  # noqa: E402
from bridge.engine.ranking import rank  # noqa: E402
from bridge.engine.rounding import exact_sum  # noqa: E402
from bridge.engine.scores import Entry, Weighted  # noqa: E402

SCORES = list(range(-1400, 1500, 10))


def plain_board(rng, n):
    return [Entry(i, rng.choice(SCORES)) for i in range(n)]


def mixed_board(rng, n):
    """One result in ten weighted (three parts), one in ten split, the rest plain."""
    entries = []
    for i in range(n):
        points = rng.choice(SCORES)
        if i % 10 == 0:
            parts = ((points, Fraction(1, 2)), (points + 30, Fraction(3, 10)), (points - 100, Fraction(1, 5)))
            entries.append(Entry(i, Weighted(parts)))
        elif i % 10 == 1:
            entries.append(Entry(i, points, points + 20))
        else:
            entries.append(Entry(i, points))
    return entries


def event(boards):
    """A 1,000-pair event: every board played at all 500 tables, pair t N-S, 500 + t E-W."""
    scores = {}
    tops = Fraction(0)
    for entries in boards:
        result = score_board(entries)
        for entry, ns, ew in zip(entries, result.column("NS"), result.column("EW")):
            scores.setdefault(entry.id, []).append(ns)
            scores.setdefault(500 + entry.id, []).append(ew)
        tops += result.top
    percentages = {pair: exact_sum(values) * 100 / tops for pair, values in scores.items()}
    return rank(percentages)


PEER = "bridge-scorer"
PEER_VERSION = "2.4.0"
PEER_SIZES = (100, 1000)


def peer_module():
    """Path of bridge-scorer installed by npm outside the repository, or (None, why not)."""
    cache = Path(os.environ.get("BRIDGECASES_BENCH_CACHE", Path.home() / ".cache" / "bridgecases" / "bench-npm"))
    module = cache / "node_modules" / PEER
    if not shutil.which("node"):
        return None, "node is not installed"
    if (module / "package.json").exists():
        return module, ""
    if not shutil.which("npm"):
        return None, "npm is not installed"
    cache.mkdir(parents=True, exist_ok=True)
    try:
        subprocess.run(
            [
                "npm",
                "install",
                "--prefix",
                str(cache),
                "--cache",
                str(cache / ".npm"),
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
                f"{PEER}@{PEER_VERSION}",
            ],
            check=True,
            capture_output=True,
            text=True,
            timeout=180,
        )
    except (OSError, subprocess.SubprocessError) as error:
        detail = getattr(error, "stderr", "") or str(error)
        return None, f"npm could not install {PEER}: {detail.strip().splitlines()[-1] if detail.strip() else error}"
    return (module, "") if (module / "package.json").exists() else (None, f"npm did not install {PEER}")


def peer_run(module, boards, repeat):
    """bridge-scorer's medians and scores on ``boards`` (lists of N-S points)."""
    script = Path(__file__).resolve().parent / "bridge_scorer_peer.js"
    document = json.dumps({"module": str(module), "repeat": repeat, "boards": boards})
    done = subprocess.run(
        ["node", str(script)], input=document, capture_output=True, text=True, check=True, timeout=600
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def engine_cases(points):
    """The engine's three scorers on one board of plain results, as the peer is run."""
    entries = [Entry(i, p) for i, p in enumerate(points)]

    def matchpoints():
        result = score_board(entries)
        return result.column("NS"), result.column("EW")

    def imps_pairs(scored):
        return [scored[i] for i in range(len(entries))]

    return {
        "matchpoints": matchpoints,
        "cross_imps": lambda: imps_pairs(cross_imps(entries)),
        "butler": lambda: imps_pairs(butler(entries, drop="field-size", half="up").scores),
    }


def same_scores(ours, theirs):
    """Exactly equal: the peer's numbers are doubles, ours exact; a correctly rounded mean is
    the double nearest the exact value, so equality is exact comparison after float()."""
    if name_is_matchpoints(ours):
        ours = list(zip(*ours))
    return all(float(a) == b and float(c) == d for (a, c), (b, d) in zip(ours, theirs))


def name_is_matchpoints(value):
    return isinstance(value, tuple) and len(value) == 2


def median_ms(function, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def cpu_name():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=25, help="runs per case (median is shown)")
    parser.add_argument("--no-peer", action="store_true", help=f"skip the rows beside {PEER}")
    args = parser.parse_args()
    rng = random.Random(2024)

    print(f"python {platform.python_version()} on {platform.platform()}")
    print(f"cpu: {cpu_name()} ({os.cpu_count()} logical)")
    print(f"median of {args.repeat} runs\n")
    print(f"{'case':<58} {'ms':>10}")
    print("-" * 69)

    def row(name, function, repeat=args.repeat):
        print(f"{name:<58} {median_ms(function, repeat):>10.3f}", flush=True)

    for n in (10, 100, 1000, 5000):
        entries = plain_board(rng, n)
        row(f"one board, {n:,} plain results", lambda e=entries: score_board(e))
    entries = plain_board(rng, 1000)
    row("one board, 1,000 plain results, exact path (fast=False)", lambda: score_board(entries, fast=False))
    row("one board, 1,000 plain results, 1,010 expected (Neuberg)", lambda: score_board(entries, expected=1010))
    mixed = mixed_board(rng, 1000)
    row("one board, 1,000 results, 10% weighted + 10% split", lambda: score_board(mixed))
    heavy = [
        Entry(i, Weighted(((p, Fraction(1, 3)), (p + 30, Fraction(2, 3))))) if i % 2 else Entry(i, p, p - 10)
        for i, p in enumerate(rng.choice(SCORES) for _ in range(1000))
    ]
    row("one board, 1,000 results, half weighted, half split", lambda: score_board(heavy))
    result = score_board(entries)
    result.ns(0)  # the first read converts the numerators once
    row(
        "read 2 x 1,000 values one by one (ns(id), ew(id))", lambda: [(result.ns(i), result.ew(i)) for i in range(1000)]
    )
    row("read 2 x 1,000 values as columns (column(side))", lambda: (result.column("NS"), result.column("EW")))
    boards = [plain_board(rng, 500) for _ in range(26)]
    row("event: 1,000 pairs, 26 boards, totals, %, ranking", lambda: event(boards), max(3, args.repeat // 5))
    side_by_side(rng, args)


def side_by_side(rng, args):
    """The engine beside bridge-scorer on the same plain boards (issue #15)."""
    labels = {
        "matchpoints": "matchpoints, both directions",
        "cross_imps": "cross-IMPs",
        "butler": "Butler (field-size trim, half up)",
    }
    boards = [[rng.choice(SCORES) for _ in range(n)] for n in PEER_SIZES]
    ours = {}
    for points in boards:
        cases = engine_cases(points)
        for kind, function in cases.items():
            ours[(kind, len(points))] = (median_ms(function, args.repeat), function())
    module, why = (None, "--no-peer given") if args.no_peer else peer_module()
    theirs = {}
    if module is None:
        print(f"\n{PEER}: skipped ({why})", flush=True)
    else:
        try:
            for result in peer_run(module, boards, args.repeat):
                for kind in labels:
                    theirs[(kind, result["n"])] = (result["ms"][kind], result["scores"][kind])
        except (OSError, subprocess.SubprocessError, ValueError) as error:
            print(f"\n{PEER}: skipped (the peer did not run: {error})", flush=True)
    print(f"\nside by side with {PEER} {PEER_VERSION} (same boards; ratio = engine / peer)")
    print(f"{'case':<58} {'ms':>10} {'peer ms':>10} {'ratio':>7} {'same':>5}")
    print("-" * 94)
    for (kind, n), (ms, values) in ours.items():
        name = f"{labels[kind]}, {n:,} plain results"
        if (kind, n) in theirs:
            peer_ms, peer_values = theirs[(kind, n)]
            same = "yes" if same_scores(values, peer_values) else "NO"
            print(f"{name:<58} {ms:>10.3f} {peer_ms:>10.3f} {ms / peer_ms:>7.2f} {same:>5}", flush=True)
        else:
            print(f"{name:<58} {ms:>10.3f} {'-':>10} {'-':>7} {'-':>5}", flush=True)


if __name__ == "__main__":
    main()
