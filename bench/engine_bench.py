"""Time the score engine (no Django): ``python bench/engine_bench.py [--repeat N]``.

Prints the median of repeated runs for matchpointing one board of 10, 100, 1,000 and 5,000
plain results, 1,000 results with weighted and split entries, reading every value of a
1,000-result board as Fractions, and a whole 1,000-pair event of 26 boards (matchpoints,
session totals, percentages, ranking).
"""

import argparse
import os
import platform
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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
    row("one board, 1,000 plain results, exact path (fast=False)",
        lambda: score_board(entries, fast=False))
    row("one board, 1,000 plain results, 1,010 expected (Neuberg)",
        lambda: score_board(entries, expected=1010))
    mixed = mixed_board(rng, 1000)
    row("one board, 1,000 results, 10% weighted + 10% split", lambda: score_board(mixed))
    heavy = [Entry(i, Weighted(((p, Fraction(1, 3)), (p + 30, Fraction(2, 3))))) if i % 2
             else Entry(i, p, p - 10) for i, p in enumerate(rng.choice(SCORES) for _ in range(1000))]
    row("one board, 1,000 results, half weighted, half split", lambda: score_board(heavy))
    result = score_board(entries)
    result.ns(0)  # the first read converts the numerators once
    row("read 2 x 1,000 values one by one (ns(id), ew(id))",
        lambda: [(result.ns(i), result.ew(i)) for i in range(1000)])
    row("read 2 x 1,000 values as columns (column(side))",
        lambda: (result.column("NS"), result.column("EW")))
    boards = [plain_board(rng, 500) for _ in range(26)]
    row("event: 1,000 pairs, 26 boards, totals, %, ranking", lambda: event(boards),
        max(3, args.repeat // 5))


if __name__ == "__main__":
    main()
