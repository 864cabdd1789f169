"""Re-scoring whole events with the database writes: ``python -m bench.db_bench sqlite|postgres``.

Builds, in a throwaway database, a matchpoint pairs event (1,000 pairs in a Mitchell: 500 N-S,
500 E-W, 26 boards, every pair plays every board, so 500 results a board) and a 64-team Swiss
of 10 rounds (32 matches a round, 8 boards a match, open and closed room), then times
``recalculation.rescore_everything`` on each: every board scored and written, then the
event's totals, matches, VPs and standings.

Setup is not what is measured, so it takes the fast road: tables, contestants (pairs with no
members yet), matches and results are written with ``bulk_create``, each result's Law 77 score
computed with ``bridge.engine.contract.ns_score`` as ``Result.clean`` would. The first
re-scoring creates every BoardScore, MatchScore and Standing row (inserts); the later ones
find them and rewrite them (updates): both are reported.

Prints one JSON line on stdout; progress goes to stderr.
"""

import argparse
import datetime
import json
import random
import sys
import time

from bench import log, setup_django, summary, throwaway_database
from core import policy

# One board's likely contracts: (contract, declarer, tricks taken most often); the field
# spreads around them, so ties are as common as in a real event.
CONTRACT_MENU = [
    [("4S", "N", 10), ("4S", "S", 10), ("3NT", "N", 9), ("2S", "N", 9), ("5D", "E", 10)],
    [("3NT", "S", 9), ("3NT", "N", 10), ("4H", "S", 10), ("1NT", "N", 8), ("PASS", "", None)],
    [("4H", "E", 10), ("4H", "W", 11), ("3H", "E", 9), ("4SX", "N", 8), ("5H", "E", 10)],
    [("2NT", "W", 8), ("3NT", "E", 9), ("1NT", "W", 7), ("3C", "E", 9), ("2H", "N", 8)],
    [("6S", "N", 12), ("4S", "N", 12), ("6NT", "S", 12), ("7S", "N", 12), ("6S", "S", 11)],
]


def make_result_fields(rng, board_number, vulnerability):
    """Contract, declarer, tricks and N-S score of one table, drawn around the board's menu."""
    from bridge.engine.contract import ns_score

    contract, declarer, usual = rng.choice(CONTRACT_MENU[board_number % len(CONTRACT_MENU)])
    if contract == "PASS":
        return {"contract": "PASS", "declarer": "", "tricks": None, "score_ns": 0}
    tricks = max(0, min(13, usual + rng.choice((-2, -1, -1, 0, 0, 0, 0, 0, 1, 1))))
    return {
        "contract": contract,
        "declarer": declarer,
        "tricks": tricks,
        "score_ns": ns_score(contract, declarer, tricks, vulnerability),
    }


def _competition(kind, name):
    from scoring import services

    code = ("bench-" + name.lower().replace(" ", "-"))[:20]
    authority = services.create_authority(name=f"Benchmark body {name}", code=code, time_zone="UTC", by=policy.SYSTEM)
    tournament = services.create_tournament(
        authority=authority,
        name=f"Benchmark {name}",
        start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 3),
        by=policy.SYSTEM,
    )
    event = services.create_event(tournament=tournament, name=name, kind=kind, by=policy.SYSTEM)
    session = services.create_session(event=event, number=1, by=policy.SYSTEM)
    return authority, event, session


def build_pairs_event(pairs=1000, boards=26, boards_per_round=2, seed=1, name="Pairs"):
    """A one-session Mitchell: pair n (1..pairs/2) sits N-S at table n all session, the E-W
    pairs move one table a round. Returns the Event."""
    from django.db import transaction

    from scoring import services
    from scoring.models import Contestant, Event, Result, Table

    rng = random.Random(seed)
    tables = pairs // 2
    with transaction.atomic():
        _authority, event, session = _competition(Event.Kind.MP_PAIRS, name)
        section = session.sections.get()
        Table.objects.bulk_create(Table(section=section, number=n) for n in range(1, tables + 1))
        table_list = list(Table.objects.filter(section=section).order_by("number"))
        rounds = services.add_rounds(session=session, count=-(-boards // boards_per_round), by=policy.SYSTEM)
        board_list = [services.create_board(session=session, number=n, by=policy.SYSTEM) for n in range(1, boards + 1)]
        Contestant.objects.bulk_create(
            Contestant(event=event, kind=Contestant.Kind.PAIR, number=n) for n in range(1, pairs + 1)
        )
        contestants = list(Contestant.objects.filter(event=event).order_by("number"))
        ns_pairs, ew_pairs = contestants[:tables], contestants[tables:]
        results = []
        for board in board_list:
            round_index = (board.number - 1) // boards_per_round
            for t, table in enumerate(table_list):
                results.append(
                    Result(
                        board=board,
                        round=rounds[round_index],
                        table=table,
                        ns=ns_pairs[t],
                        ew=ew_pairs[(t + round_index) % tables],
                        **make_result_fields(rng, board.number, board.vulnerability),
                    )
                )
        Result.objects.bulk_create(results, batch_size=2000)
    return event


def build_swiss_event(teams=64, rounds=10, boards_per_match=8, seed=2, name="Swiss"):
    """One session of ``rounds`` Swiss rounds; each round plays its own ``boards_per_match``
    boards in every match, at two tables a match. Returns the Event."""
    from django.db import transaction

    from scoring import services
    from scoring.models import Contestant, Event, Match, Result, Table

    rng = random.Random(seed)
    matches_per_round = teams // 2
    with transaction.atomic():
        _authority, event, session = _competition(Event.Kind.TEAMS_SWISS, name)
        section = session.sections.get()
        Table.objects.bulk_create(Table(section=section, number=n) for n in range(1, 2 * matches_per_round + 1))
        table_list = list(Table.objects.filter(section=section).order_by("number"))
        round_list = services.add_rounds(session=session, count=rounds, by=policy.SYSTEM)
        board_list = [
            services.create_board(session=session, number=n, by=policy.SYSTEM)
            for n in range(1, rounds * boards_per_match + 1)
        ]
        Contestant.objects.bulk_create(
            Contestant(event=event, kind=Contestant.Kind.TEAM, number=n) for n in range(1, teams + 1)
        )
        team_list = list(Contestant.objects.filter(event=event).order_by("number"))
        matches = []
        for round_ in round_list:
            order = team_list[:]
            rng.shuffle(order)
            for m in range(matches_per_round):
                matches.append(
                    Match(
                        round=round_,
                        home=order[2 * m],
                        away=order[2 * m + 1],
                        open_room=table_list[2 * m],
                        closed_room=table_list[2 * m + 1],
                    )
                )
        Match.objects.bulk_create(matches)
        results = []
        for match in matches:
            first = (match.round.number - 1) * boards_per_match
            for board in board_list[first : first + boards_per_match]:
                for table, ns, ew in (
                    (match.open_room, match.home, match.away),
                    (match.closed_room, match.away, match.home),
                ):
                    results.append(
                        Result(
                            board=board,
                            round=match.round,
                            table=table,
                            ns=ns,
                            ew=ew,
                            **make_result_fields(rng, board.number, board.vulnerability),
                        )
                    )
        Result.objects.bulk_create(results, batch_size=2000)
    return event


def time_rescore(event, repeats, profile_run=None, budget=None):
    """Seconds of each ``rescore_everything(event)``; the first one inserts the scores, the
    others find them there. After the first, at least two more runs, and up to ``repeats``
    in all while the later ones have taken less than ``budget`` seconds. ``profile_run``
    (1-based) runs that one under cProfile and prints the top to stderr: a diagnostic, its
    time is not comparable."""
    from django.db import connection

    from scoring import recalculation
    from scoring.models import Standing

    times = []
    while len(times) < repeats:
        if budget is not None and len(times) >= 3 and sum(times[1:]) >= budget:
            break
        start = time.perf_counter()
        if profile_run == len(times) + 1:
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            profiler.runcall(recalculation.rescore_everything, event)
            pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(30)
        else:
            recalculation.rescore_everything(event)
        times.append(time.perf_counter() - start)
        log(f"  rescore_everything {event.name} #{len(times)}: {times[-1]:.3f} s")
    standings = Standing.objects.filter(event=event, session__isnull=True).count()
    return {
        "first": times[0],
        "again": summary(times[1:]) if len(times) > 1 else None,
        "standings": standings,
        "vendor": connection.vendor,
    }


def time_loop(event, repeats=51):
    """The recalculation's work around the engine on one board of the scored pairs event
    (issue #15: it must not add more than the engine itself costs), as ``_rescore_pending``
    does it for a board of plain results: in memory, from the board's results as read
    (``_plain_seats``) to what a change moved (the engine, each distinct score's values
    rounded and written out, every result's values, the moved rows turned into writes); then,
    apart, the database's comparison of the stored rows with the new values
    (``plain_board_moved``), and the stored rows read and compared one by one in Python, the
    way the board was compared before (``changed_board_scores``). Beside them the engine alone:
    ``score_plain_board`` as called there, and ``score_board`` on the board's entries with
    both directions' values read. Medians in seconds."""
    from bridge.engine import matchpoints
    from bridge.engine.scores import Entry
    from scoring import recalculation
    from scoring.models import Board, BoardScore

    board = Board.objects.filter(session__event=event).order_by("pk").first()
    regs = recalculation.regulations(event)
    seats = recalculation.plain_seats(board)
    assert seats is not None, "the bench's boards hold plain results only"
    points = [p for _pk, _ns, _ew, p in seats if p is not None]
    entries = [Entry.balanced(pk, p) for pk, _ns, _ew, p in seats if p is not None]
    scale = regs["matchpoint_scale"]
    scored, by_points = recalculation.plain_board_values(seats, regs)
    moved = recalculation.plain_board_moved(board, by_points)
    assert not moved, "the board was scored: nothing should move"
    # What one change moves: every result whose score is between 420 and 450 was compared with
    # a different score; give the in-memory step the rows the database would return for it.
    stored = {
        row.result_id: row
        for row in BoardScore.objects.filter(result__board=board)
        .order_by()
        .values_list("pk", "result_id", *recalculation.COMPARED_VALUES, named=True)
    }
    some_moved = [
        (pk, ns_id, ew_id, p, stored[pk]) for pk, ns_id, ew_id, p in seats[: len(seats) // 4]
    ]  # a quarter of the board

    def engine():
        return matchpoints.score_plain_board(points, expected=len(seats), scale=scale)

    def engine_entries():
        board = matchpoints.score_board(entries, expected=len(seats), scale=scale)
        return board.column("NS"), board.column("EW")

    def loop():
        _scored, by_points = recalculation.plain_board_values(seats, regs)
        return recalculation.plain_changes(some_moved, by_points)

    def database():
        return recalculation.plain_board_moved(board, by_points)

    def row_by_row():
        old = {
            row.result_id: row
            for row in BoardScore.objects.filter(result__board=board)
            .order_by()
            .values_list("pk", "result_id", *recalculation.COMPARED_VALUES, named=True)
        }
        return recalculation.changed_board_scores(scored, old)

    def median(function):
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            function()
            times.append(time.perf_counter() - start)
        return sorted(times)[len(times) // 2]

    return {
        "results": len(seats),
        "moved": len(some_moved),
        "engine": median(engine),
        "engine_entries": median(engine_entries),
        "loop": median(loop),
        "database": median(database),
        "row_by_row": median(row_by_row),
        "runs": repeats,
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", choices=["sqlite", "postgres"])
    parser.add_argument(
        "--repeats", type=int, default=3, help="most re-scorings of the pairs event (the first inserts the scores)"
    )
    parser.add_argument("--swiss-repeats", type=int, default=3, help="most re-scorings of the Swiss event")
    parser.add_argument(
        "--budget",
        type=float,
        metavar="SECONDS",
        help="stop re-scoring an event once its later runs took this long (after at least 2)",
    )
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--boards", type=int, default=26)
    parser.add_argument("--teams", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--only", choices=["pairs", "swiss"])
    parser.add_argument(
        "--profile-run",
        type=int,
        metavar="N",
        help="run re-scoring N (1 = the first) under cProfile and print its top lines to stderr",
    )
    args = parser.parse_args(argv)

    out = {"database": args.database}
    with throwaway_database(args.database):
        setup_django()
        from django.db import connection

        out["server"] = connection.vendor
        for name, build in (
            ("pairs", lambda: build_pairs_event(args.pairs, args.boards)),
            ("swiss", lambda: build_swiss_event(args.teams, args.rounds)),
        ):
            if args.only and args.only != name:
                continue
            start = time.perf_counter()
            event = build()
            setup = time.perf_counter() - start
            log(f"{args.database}: built {name} in {setup:.1f} s")
            repeats = args.repeats if name == "pairs" else args.swiss_repeats
            out[name] = time_rescore(event, repeats, args.profile_run, args.budget)
            if name == "pairs":
                out[name]["loop"] = time_loop(event)
            out[name]["setup"] = setup
            out[name]["size"] = (
                {"pairs": args.pairs, "boards": args.boards}
                if name == "pairs"
                else {"teams": args.teams, "rounds": args.rounds}
            )
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
