"""Casebooks: ``python -m bench.casebook_bench sqlite|postgres [--cases 60]``.

Builds, in a throwaway database, a pairs tournament of 200 named players with ``--cases``
decided appeals: each ruling has statements and a hearing record naming the players at its
table, the way a scribe writes them. It then times what a national body's editor waits for:

- compiling the draft (the search, one case per appeal);
- checking the draft for surviving names (every text rewritten, then scanned);
- publishing (the text built, checked again and frozen);
- the HTML book;
- the PDF printed by Chromium, if the machine has one.

Prints one JSON line on stdout; progress goes to stderr.
"""

import argparse
import datetime
import json
import os
import shutil
import sys
import tempfile
import time

from bench import log, setup_django, summary, throwaway_database
from core import policy

FIRST = ["Miriam", "Yossi", "Anna", "Petros", "Eli", "Dana", "Noa", "Avi", "Sigrun", "Jan", "Olena", "Nikos"]
LAST = [
    "Levi",
    "Cohen",
    "Jonsdottir",
    "Nikolaou",
    "Mizrahi",
    "Peretz",
    "de Vries",
    "Kovalenko",
    "Papadopoulos",
    "Jansen",
    "Gunnarsson",
    "Shevchenko",
    "Biton",
    "Dahan",
    "Bakker",
    "Melnyk",
]


def build(cases):
    from django.contrib.auth import get_user_model

    from appeals import services as appeals
    from core import roles
    from rulings import services as rulings
    from scoring import services

    UTC = datetime.UTC
    authority = services.create_authority(
        name="Benchmark federation", code="bench-cb", time_zone="UTC", by=policy.SYSTEM
    )
    tournament = services.create_tournament(
        authority=authority,
        name="Benchmark casebook open",
        start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 3),
        by=policy.SYSTEM,
    )
    event = services.create_event(tournament=tournament, name="Pairs", kind="mp_pairs", by=policy.SYSTEM)
    session = services.create_session(
        event=event, number=1, starts_at=datetime.datetime(2026, 5, 1, 9, tzinfo=UTC), by=policy.SYSTEM
    )
    services.create_session(
        event=event, number=2, starts_at=datetime.datetime(2026, 5, 2, 9, tzinfo=UTC), is_last=True, by=policy.SYSTEM
    )
    tables = services.add_tables(section=session.sections.get(), count=cases, by=policy.SYSTEM)
    round_ = services.add_rounds(session=session, count=1, by=policy.SYSTEM)[0]
    players = [
        services.register_player(
            authority=authority,
            first_name=FIRST[i % len(FIRST)],
            last_name=f"{LAST[i % len(LAST)]}{'' if i < len(LAST) else i}",
            membership_number=f"b-{i}",
            masterpoint_rank="Regional Master",
            by=policy.SYSTEM,
        )
        for i in range(max(200, 4 * cases))
    ]
    pairs = [
        services.enter_contestant(event=event, number=n + 1, members=players[2 * n : 2 * n + 2], by=policy.SYSTEM)
        for n in range(2 * cases)
    ]
    User = get_user_model()
    director = User.objects.create_user("bench-td", first_name="Tal", last_name="Director")
    chief = User.objects.create_user("bench-chief", first_name="Chen", last_name="Chief")
    members = [User.objects.create_user(f"bench-m{i}", first_name=f"Member{i}") for i in range(3)]
    auditor = User.objects.create_user("bench-auditor", first_name="Nora", last_name="Auditor")
    services.appoint_official(tournament=tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    services.appoint_official(tournament=tournament, user=chief, role=roles.CHIEF_DIRECTOR, by=policy.SYSTEM)
    for member in members:
        services.appoint_official(tournament=tournament, user=member, role=roles.APPEALS_MEMBER, by=policy.SYSTEM)
    services.appoint_auditor(authority=authority, user=auditor, by=policy.SYSTEM)
    posted = datetime.datetime(2026, 5, 1, 20, tzinfo=UTC)
    for n in range(cases):
        board = services.create_board(session=session, number=n + 1, by=policy.SYSTEM)
        ns, ew = pairs[2 * n], pairs[2 * n + 1]
        result = services.record_result(
            board=board,
            round=round_,
            table=tables[n],
            ns=ns,
            ew=ew,
            contract="4S",
            declarer="N",
            tricks=10,
            by=policy.SYSTEM,
        )
        north, south = ns.members.order_by("pk")
        east, west = ew.members.order_by("pk")
        ruling = rulings.rule(
            result=result,
            director=director,
            kind="ui",
            laws="16B1a, 12C1c",
            give=True,
            given_at=posted - datetime.timedelta(hours=2),
            # Called at the table during play: a ruling recorded after the scores were posted is
            # still one requested in time (Laws 92B, 81C6), as every director records them.
            called_at=posted - datetime.timedelta(hours=2, minutes=5),
            facts=f"{north.first_name} paused before passing.",
            statement_ns=f"{north.first_name} {north.last_name} says {south.last_name}'s 4S was obvious.",
            statement_ew=f"{east.last_name} says {north.last_name} paused for ten seconds.",
            ruling_text="Score adjusted",
            reasoning="Pass was a logical alternative.",
            outcome="adjusted",
            score_kind="assigned",
            ns={"contract": "3S", "declarer": "N", "tricks": 10},
            offending_side="NS",
        )
        rulings.record_seating(
            ruling=ruling, by=director, seating={"N": north.pk, "S": south.pk, "E": east.pk, "W": west.pk}
        )
        if n == 0:
            services.post_official_scores(session=session, at=posted, by=policy.SYSTEM)
        now = posted + datetime.timedelta(minutes=10)
        appeal = appeals.lodge_appeal(
            ruling=ruling, by=director, player=north, now=now, grounds=f"{south.first_name} would always bid 4S."
        )
        appeals.record_concurrence(appeal=appeal, player=south, how="in_person", by=director, now=now)
        body = appeals.constitute_body(
            appeal=appeal, by=chief, kind="committee", members=members, chair=members[0], now=now
        )
        for member in body.members.all():
            appeals.declare_conflict(member=member, now=now, by=member.user)
        hearing = appeals.schedule_hearing(
            appeal=appeal, by=chief, starts_at=now + datetime.timedelta(minutes=20), now=now
        )
        appeals.record_hearing_notes(
            hearing=hearing,
            by=members[0],
            now=now,
            notes=(
                f"{west.first_name} {west.last_name} timed the pause; {east.first_name} agreed with {north.last_name}."
            ),
        )
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
        if (n + 1) % 20 == 0:
            log(f"   {n + 1} decided appeals")
    return authority, auditor


def timed(function, repeats):
    times, value = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - started)
    return summary(times), value


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", choices=["sqlite", "postgres"])
    parser.add_argument("--cases", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    # The printed casebook links its stylesheet by the static files' manifest (DEBUG is off, as
    # in production): collected here into a folder of this run's own.
    static_root = tempfile.mkdtemp(prefix="bench-static-")
    os.environ["DJANGO_STATIC_ROOT"] = static_root
    with throwaway_database(args.database):
        setup_django()
        from django.core.management import call_command

        from national import casebooks, pdf
        from national.casebook_views import render_book

        call_command("collectstatic", "--no-input", verbosity=0)

        log(f"== building {args.cases} decided appeals")
        started = time.perf_counter()
        authority, auditor = build(args.cases)
        log(f"   built in {time.perf_counter() - started:.1f} s")
        results = {"size": {"cases": args.cases}}
        results["compile"], casebook = timed(
            lambda: casebooks.compile_casebook(authority=authority, by=auditor, title="Bench"), args.repeats
        )
        assert casebook.cases.count() == args.cases
        results["check"], problems = timed(lambda: casebooks.name_problems(casebook), args.repeats)
        assert problems == [], problems[:3]
        results["publish"], _ = timed(
            lambda: casebooks.publish_casebook(
                casebook=casebooks.compile_casebook(authority=authority, by=auditor, title="Bench"), by=auditor
            ),
            args.repeats,
        )
        published = casebook.__class__.objects.filter(state="published").first()
        results["html"], html = timed(lambda: render_book(published), args.repeats)
        results["html_bytes"] = len(html)
        if pdf.available():
            results["pdf"], body = timed(lambda: pdf.html_to_pdf(html), args.repeats)
            results["pdf_bytes"] = len(body)
        print(json.dumps(results), flush=True)
    shutil.rmtree(static_root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
