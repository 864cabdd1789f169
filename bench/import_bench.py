"""A 9.5 MB results file read and previewed: ``python -m bench.import_bench sqlite|postgres [--megabytes 9.5]``.

The file is a real one made larger: the PbnTools conversion of a BBO tournament in the fixtures
(tests/fixtures/realfiles/pbntools/bbo_wronie_9533.pbn, 735 games of 18 boards with their
auctions and play) written again and again, each copy's boards numbered after the last copy's,
until the file is ``--megabytes`` long (just under the 10 MiB upload limit by default). It times
what a director waits for (issue #40):

- the file read (decoded and parsed): ``read_file``;
- the upload page's preview of it (``import_file(dry_run=True)``: everything the import does,
  rolled back);

and counts how many times the preview parses the file (once; before issue #40's fix, once more
for each faulty result row).
Prints one JSON line on stdout; progress goes to stderr.
"""

import argparse
import json
import re
import time

from bench import ROOT, log, setup_django, summary, throwaway_database

SOURCE = ROOT / "tests" / "fixtures" / "realfiles" / "pbntools" / "bbo_wronie_9533.pbn"


def build(megabytes):
    """(the file's bytes, its games, its boards)."""
    text = SOURCE.read_bytes().decode("utf-8", errors="replace")
    boards = max(int(n) for n in re.findall(r'\[Board "(\d+)"\]', text))
    parts, size, copy = [], 0, 0
    while size < megabytes * 1_000_000:
        offset = copy * boards
        part = re.sub(r'\[Board "(\d+)"\]', lambda m, o=offset: f'[Board "{int(m[1]) + o}"]', text)
        parts.append(part)
        size += len(part.encode()) + 1
        copy += 1
    data = "\n".join(parts).encode()
    data = data[: data[: int(megabytes * 1_000_000)].rfind(b'[Event "')]  # the last whole game kept
    return data, data.count(b"[Board "), len(set(re.findall(rb'\[Board "(\d+)"\]', data)))


def timed(function, repeats):
    """(the wall-clock times' summary with the CPU seconds of the median run, the last value)."""
    times, cpu, value = [], [], None
    for _ in range(repeats):
        started, started_cpu = time.perf_counter(), time.process_time()
        value = function()
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    result = summary(times)
    result["cpu"] = sorted(cpu)[len(cpu) // 2]
    return result, value


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", choices=["sqlite", "postgres"])
    parser.add_argument("--megabytes", type=float, default=9.5)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    with throwaway_database(args.database):
        setup_django()
        import datetime

        from core import policy
        from scoring import services
        from scoring.importers import faulty_rows
        from scoring.importers.session_import import import_file, read_file
        from scoring.models import Event

        data, games, boards = build(args.megabytes)
        log(f"== a {len(data):,}-byte file: {games:,} games of {boards} boards")
        authority = services.create_authority(name="Bench body", code="bench-im", time_zone="UTC", by=policy.SYSTEM)
        tournament = services.create_tournament(
            authority=authority,
            name="Bench",
            start_date=datetime.date(2026, 12, 1),
            end_date=datetime.date(2026, 12, 1),
            by=policy.SYSTEM,
        )
        event = services.create_event(tournament=tournament, name="Daylong", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM)
        results = {"size": {"bytes": len(data), "games": games, "boards": boards}}
        results["read"], parsed = timed(lambda: read_file(data), args.repeats)
        log(
            f"   read in {results['read']['median']:.1f} s ({results['read']['cpu']:.1f} s CPU): {len(parsed.results):,} results"
        )
        reads = []
        parse = faulty_rows.parse_pbn
        faulty_rows.parse_pbn = lambda *a: reads.append(1) or parse(*a)
        results["preview"], preview = timed(lambda: import_file(event=event, data=data, dry_run=True), 1)
        faulty_rows.parse_pbn = parse
        results["parses"] = len(reads)
        results["size"]["results"] = preview.results
        log(
            f"   previewed in {results['preview']['median']:.1f} s ({results['preview']['cpu']:.1f} s CPU), "
            f"the file parsed {len(reads)} time(s)"
        )
        print(json.dumps(results))


if __name__ == "__main__":
    main()
