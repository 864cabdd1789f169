"""Publishing to the national body: ``python -m bench.federation_bench sqlite|postgres
[--pairs 1000] [--boards 3] [--rulings 100] [--appeals 20]``.

Builds, in a throwaway database, a pairs event of ``--pairs`` pairs (one table for each two
pairs, each table playing ``--boards`` boards, every result recorded through the service, so
audited), ``--rulings`` rulings given through the service and ``--appeals`` of them appealed and
decided (lodged, concurred, a committee constituted, heard, voted, decided). It then times, on
the organiser's side and the national body's (the same database: the bundle becomes a second
tournament, as it would at the national body):

- the bundle built (a tree head signed, every entry's inclusion proof, the records serialised,
  signed);
- the bundle verified (head signature, every entry's hash and inclusion proof, the bundle's
  signature), without storing;
- the bundle received whole: cut into parts, verified and stored in one transaction;
- the same bundle's records sent again under a new head: each found unchanged;
- the peak memory (tracemalloc) of committing a large bundle: ``--attachments`` system cards of
  4 MiB added to a ruling (the bundle carries them in base64), its parts received, then the commit
  alone measured (issue #41: it is read from its parts as a stream);
- the peak memory of the same tournament downloaded as a carried push and read back from its file
  (``carried.read``, then its bundle's parts), as the national body's receive page does (issue #41:
  read as a stream, never whole).

Prints one JSON line on stdout; progress goes to stderr.
"""

import argparse
import datetime
import hashlib
import json
import time

from bench import log, setup_django, summary, throwaway_database
from core import policy


def build(pairs, boards, ruling_count, appeal_count):
    from django.contrib.auth import get_user_model

    from appeals import services as appeals
    from core import roles
    from rulings import services as rulings
    from scoring import services

    utc = datetime.UTC
    authority = services.create_authority(
        name="Benchmark federation", code="bench-fed", time_zone="UTC", by=policy.SYSTEM
    )
    tournament = services.create_tournament(
        authority=authority,
        name="Benchmark congress",
        start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 3),
        by=policy.SYSTEM,
    )
    event = services.create_event(tournament=tournament, name="Pairs", kind="mp_pairs", by=policy.SYSTEM)
    session = services.create_session(
        event=event, number=1, starts_at=datetime.datetime(2026, 5, 1, 9, tzinfo=utc), by=policy.SYSTEM
    )
    services.create_session(
        event=event, number=2, starts_at=datetime.datetime(2026, 5, 2, 9, tzinfo=utc), is_last=True, by=policy.SYSTEM
    )
    tables = services.add_tables(section=session.sections.get(), count=pairs // 2, by=policy.SYSTEM)
    round_ = services.add_rounds(session=session, count=1, by=policy.SYSTEM)[0]
    players = [
        services.register_player(
            authority=authority,
            first_name=f"P{i}",
            last_name=f"Player{i}",
            membership_number=f"f-{i}",
            by=policy.SYSTEM,
        )
        for i in range(2 * pairs)
    ]
    contestants = [
        services.enter_contestant(event=event, number=n + 1, members=players[2 * n : 2 * n + 2], by=policy.SYSTEM)
        for n in range(pairs)
    ]
    log(f"   {pairs} pairs entered")
    board_rows = [services.create_board(session=session, number=n + 1, by=policy.SYSTEM) for n in range(boards)]
    results = []
    for t, table in enumerate(tables):
        for board in board_rows:
            results.append(
                services.record_result(
                    board=board,
                    round=round_,
                    table=table,
                    ns=contestants[2 * t],
                    ew=contestants[2 * t + 1],
                    contract="4S",
                    declarer="N",
                    tricks=10,
                    by=policy.SYSTEM,
                )
            )
        if (t + 1) % 100 == 0:
            log(f"   {len(results)} results")
    user = get_user_model()
    director = user.objects.create_user("bench-td", first_name="Tal", last_name="Director")
    chief = user.objects.create_user("bench-chief", first_name="Chen", last_name="Chief")
    members = [user.objects.create_user(f"bench-m{i}", first_name=f"Member{i}") for i in range(3)]
    services.appoint_official(tournament=tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    services.appoint_official(tournament=tournament, user=chief, role=roles.CHIEF_DIRECTOR, by=policy.SYSTEM)
    for member in members:
        services.appoint_official(tournament=tournament, user=member, role=roles.APPEALS_MEMBER, by=policy.SYSTEM)
    posted = datetime.datetime(2026, 5, 1, 20, tzinfo=utc)
    step = max(1, len(results) // ruling_count)
    given = []
    for n in range(ruling_count):
        given.append(
            rulings.rule(
                result=results[n * step],
                director=director,
                kind="ui",
                laws="16B1a, 12C1c",
                give=True,
                given_at=posted - datetime.timedelta(hours=2),
                facts="North paused before passing.",
                ruling_text="Score adjusted",
                reasoning="Pass was a logical alternative.",
                outcome="adjusted",
                score_kind="assigned",
                ns={"contract": "3S", "declarer": "N", "tricks": 10},
                offending_side="NS",
            )
        )
    services.post_official_scores(session=session, at=posted, by=policy.SYSTEM)
    log(f"   {ruling_count} rulings")
    now = posted + datetime.timedelta(minutes=10)
    for ruling in given[:appeal_count]:
        ns = ruling.result.ns
        north, south = ns.members.order_by("pk")
        appeal = appeals.lodge_appeal(ruling=ruling, by=director, player=north, now=now, grounds="The pause was short.")
        appeals.record_concurrence(appeal=appeal, player=south, how="in_person", by=director, now=now)
        body = appeals.constitute_body(
            appeal=appeal, by=chief, kind="committee", members=members, chair=members[0], now=now
        )
        for member in body.members.all():
            appeals.declare_conflict(member=member, now=now, by=member.user)
        hearing = appeals.schedule_hearing(
            appeal=appeal, by=chief, starts_at=now + datetime.timedelta(minutes=20), now=now
        )
        appeals.record_hearing_notes(hearing=hearing, by=members[0], now=now, notes="West timed the pause.")
        for member in body.members.all():
            appeals.record_vote(
                member=member, outcome="uphold", now=now + datetime.timedelta(minutes=25), by=member.user
            )
        appeals.decide_appeal(
            appeal=appeal,
            by=members[0],
            outcome="uphold",
            reasons="Pass was an alternative.",
            now=now + datetime.timedelta(minutes=30),
        )
    log(f"   {appeal_count} decided appeals")
    return authority, tournament


def deliver(origin, data, part):
    from national.federation import receive

    digest = hashlib.sha256(data).hexdigest()
    parts = max(1, -(-len(data) // part))
    for index in range(parts):
        receive.receive_part(origin, digest, index, parts, data[index * part : (index + 1) * part], by=policy.SYSTEM)
    return receive.commit(origin, digest, by=policy.SYSTEM)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", choices=["sqlite", "postgres"])
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--boards", type=int, default=3)
    parser.add_argument("--rulings", type=int, default=100)
    parser.add_argument("--appeals", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--attachments", type=int, default=12, help="4 MiB attachments in the large bundle")
    args = parser.parse_args()
    with throwaway_database(args.database) as _url:
        import os
        from pathlib import Path

        var = Path(os.environ["BRIDGECASES_VAR_DIR"])
        os.environ.setdefault("AUDIT_PUBLIC_KEYS_DIR", str(var / "keys" / "public"))
        setup_django()
        from national.federation import bundle as bundles
        from national.federation import receive, verify

        log(f"== building a {args.pairs}-pair event with {args.rulings} rulings and {args.appeals} decided appeals")
        started = time.perf_counter()
        authority, tournament = build(args.pairs, args.boards, args.rulings, args.appeals)
        log(f"   built in {time.perf_counter() - started:.1f} s")
        origin = receive.register_origin(
            name="Benchmark congress",
            slug="bench",
            authority=authority,
            public_key=bundles.public_key_pem(),
            by=policy.SYSTEM,
        )
        registered = verify.Registered(origin.name, origin.public_key, origin.key_id)
        results = {}
        times, built = [], None
        for _ in range(args.repeats):
            began = time.perf_counter()
            built = bundles.build(tournament.pk)
            data = bundles.canonical(built)
            times.append(time.perf_counter() - began)
        results["build"] = summary(times)
        results["size"] = {
            "pairs": args.pairs,
            "results": args.pairs // 2 * args.boards,
            "rulings": args.rulings,
            "appeals": args.appeals,
            "entries": len(built["entries"]),
            "records": len(built["records"]),
            "bytes": len(data),
        }
        times = []
        for _ in range(args.repeats):
            began = time.perf_counter()
            assert verify.verify(json.loads(data), registered) is None
            times.append(time.perf_counter() - began)
        results["verify"] = summary(times)
        began = time.perf_counter()
        status, answer = deliver(origin, data, 512 * 1024)
        results["receive"] = summary([time.perf_counter() - began])
        assert status == 200 and answer["created"] == len(built["records"]), answer
        again = bundles.canonical(bundles.build(tournament.pk, answer["tree_size"]))
        began = time.perf_counter()
        status, answer = deliver(origin, again, 512 * 1024)
        results["again"] = summary([time.perf_counter() - began])
        assert status == 200 and answer["created"] == answer["changed"] == 0, answer
        results["memory"] = commit_memory(origin, tournament, args.attachments, answer["tree_size"])
        print(json.dumps(results), flush=True)


def commit_memory(origin, tournament, count, known):
    """The peak of Python's allocations (tracemalloc) while one large bundle is committed."""
    import tracemalloc

    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile

    from national.federation import bundle as bundles
    from national.federation import receive
    from rulings import services as rulings
    from rulings.models import Ruling

    ruling = Ruling.objects.filter(result__board__session__event__tournament=tournament).order_by("pk").first()
    director = get_user_model().objects.get(username="bench-td")
    head, tail = b"%PDF-1.4\n", b"\n%%EOF\n"
    for number in range(count):
        content = head + bytes([65 + number % 26]) * (4 * 2**20 - len(head) - len(tail)) + tail
        upload = SimpleUploadedFile(f"card {number}.pdf", content)
        rulings.add_attachment(ruling=ruling, by=director, upload=upload)
    data = bundles.canonical(bundles.build(tournament.pk, known))
    digest, size, part = hashlib.sha256(data).hexdigest(), len(data), 1 << 20
    parts = max(1, -(-size // part))
    for index in range(parts):
        receive.receive_part(origin, digest, index, parts, data[index * part : (index + 1) * part], by=policy.SYSTEM)
    del data
    log(f"   committing a bundle of {size / 2**20:.1f} MiB ({count} attachments of 4 MiB)")
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        began = time.perf_counter()
        status, answer = receive.commit(origin, digest, by=policy.SYSTEM)
        seconds = time.perf_counter() - began
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert status == 200, answer
    return {
        "bytes": size,
        "attachments": count,
        "peak": peak,
        "seconds": seconds,
        "carried": carried_memory(tournament),
    }


def peak_of(work):
    """(seconds, the peak of Python's allocations above what was held before) of ``work()``."""
    import tracemalloc

    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        began = time.perf_counter()
        work()
        seconds = time.perf_counter() - began
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return seconds, peak


def carried_memory(tournament):
    """The same tournament downloaded as a carried push (a zip on disk, as an upload this large is
    kept while the request reads it): the peak memory of reading it (``carried.read``: every member
    read to its end) and of reading its bundle's parts of 1 MiB, as the receive page sends them."""
    import shutil
    import tempfile

    from django.contrib.auth import get_user_model

    from national.federation import carried

    chief = get_user_model().objects.get(username="bench-chief")
    _name, built = carried.build(tournament, by=chief)
    with built, tempfile.TemporaryFile() as file:
        shutil.copyfileobj(built, file)
        file.flush()
        found = []
        read_seconds, read_peak = peak_of(lambda: found.append(carried.read(file)))
        size = found[0].size
        parts = max(1, -(-size // 2**20))
        parts_seconds, parts_peak = peak_of(lambda: sum(1 for _part in found[0].parts(2**20, parts)))
    log(f"   a carried push of {size / 2**20:.1f} MiB read: peak {read_peak / 2**20:.1f} MiB")
    return {
        "bytes": size,
        "read": {"peak": read_peak, "seconds": read_seconds},
        "parts": {"peak": parts_peak, "seconds": parts_seconds, "count": parts},
    }


if __name__ == "__main__":
    main()
