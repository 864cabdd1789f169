"""The phone's offline bundle (issue #31): ``python -m bench.offline_bench [--pairs 1000]
[--boards 26] [--rulings 30]``.

Builds, in a throwaway SQLite database, a pairs event of ``--pairs`` pairs in one session (one
table for each two pairs, every board played at every table: the travellers of a big event
whose sections share the boards), ``--rulings`` rulings by one director, and the law catalogue.
Then measures what a director's phone keeps when it opens the tournament (rulings/offline.py):

- the bundle's size: every page and file it keeps, as stored on the phone (uncompressed), by
  kind, read through Django's test client;
- the time to keep it: a headless Chromium (Debian's, through Playwright) logged in as the
  director opens the tournament page against gunicorn (2 workers) on loopback and waits until
  static/js/offline.js says every page is saved: the phone's own path (4 fetches at a time
  into the Cache API), three times with an empty cache.

Pages are served with DEBUG on, as `make run` and `make hall` serve them (static files by their
own names). Results are bulk-written after one through the service per board (the same contract at every
table): the pages' sizes are what counts, not the scores. Prints one JSON line on stdout.
"""

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from bench import ROOT, log, setup_django, summary, throwaway_database
from core import policy

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
LIN = (ROOT / "tests" / "fixtures" / "lin" / "handviewer_board1.txt").read_text().strip()


def build(pairs, boards, ruling_count):
    import datetime

    from django.contrib.auth import get_user_model

    from core import roles
    from rulings import services as rulings
    from rulings.catalogue import sync_law_catalogue
    from scoring import services
    from scoring.models import Result

    sync_law_catalogue()
    authority = services.create_authority(
        name="Benchmark federation", code="bench-off", time_zone="UTC", by=policy.SYSTEM
    )
    tournament = services.create_tournament(
        authority=authority,
        name="Benchmark congress",
        start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 1),
        by=policy.SYSTEM,
    )
    event = services.create_event(tournament=tournament, name="Pairs", kind="mp_pairs", by=policy.SYSTEM)
    session = services.create_session(event=event, number=1, by=policy.SYSTEM)
    tables = services.add_tables(section=session.sections.get(), count=pairs // 2, by=policy.SYSTEM)
    round_ = services.add_rounds(session=session, count=1, by=policy.SYSTEM)[0]
    players = [
        services.register_player(
            authority=authority,
            first_name=f"P{i}",
            last_name=f"Player{i}",
            membership_number=f"o-{i}",
            by=policy.SYSTEM,
        )
        for i in range(2 * pairs)
    ]
    contestants = [
        services.enter_contestant(event=event, number=n + 1, members=players[2 * n : 2 * n + 2], by=policy.SYSTEM)
        for n in range(pairs)
    ]
    half = pairs // 2
    board_list = []
    for number in range(1, boards + 1):
        board = services.create_board(session=session, number=number, by=policy.SYSTEM)
        first = services.record_result(
            board=board,
            round=round_,
            table=tables[0],
            ns=contestants[0],
            ew=contestants[half],
            contract="3NT",
            declarer="N",
            tricks=9,
            by=policy.SYSTEM,
        )
        Result.objects.bulk_create(
            Result(
                board=board,
                round=round_,
                table=tables[t],
                ns=contestants[t],
                ew=contestants[half + t],
                contract="3NT",
                declarer="N",
                tricks=9,
                score_ns=first.score_ns,
            )
            for t in range(1, half)
        )
        board_list.append(board)
    log(f"   {pairs} pairs, {boards} boards at {half} tables: {boards * half:,} results")
    director = get_user_model().objects.create_user("bench-td", password="bench-td-password", first_name="Tal")
    services.appoint_official(tournament=tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    board_one = board_list[0]
    for n in range(ruling_count):
        result = Result.objects.get(board=board_list[n % boards], table=tables[n // boards])
        rulings.rule(
            result=result,
            director=director,
            kind="mi",
            laws="40B4, 12C1e",
            facts="The explanation of 2D was wrong; the agreement is a weak two in hearts.",
            ruling_text="Result stands.",
            deal_source=LIN if result.board_id == board_one.pk else "",
        )
    log(f"   {ruling_count} rulings by the director")
    return tournament, director


def sizes(tournament, director):
    from django.test import Client

    from rulings.offline import bundle_urls

    client = Client()
    client.force_login(director)
    urls = bundle_urls(director, tournament)
    kinds = {}
    started = time.perf_counter()
    for url in urls:
        response = client.get(url)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert response.status_code == 200, (url, response.status_code)
        kind = url.strip("/").split("/")[0] or "home"
        kind = {"boards": "boards", "rulings": "rulings", "static": "static files"}.get(kind, "other pages")
        if url.startswith("/rulings/laws/"):
            kind = "law catalogue"
        entry = kinds.setdefault(kind, {"pages": 0, "bytes": 0})
        entry["pages"] += 1
        entry["bytes"] += len(body)
    rendered = time.perf_counter() - started
    return {"urls": len(urls), "bytes": sum(k["bytes"] for k in kinds.values()), "kinds": kinds, "rendered_s": rendered}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def browser_times(tournament, repeat):
    """Seconds from opening the tournament page to every page kept, with an empty cache each time."""
    from playwright.sync_api import sync_playwright

    port = free_port()
    env = dict(os.environ, DJANGO_DEBUG="1", DJANGO_ALLOWED_HOSTS="localhost,127.0.0.1")
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    times = []
    try:
        for _attempt in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for _run in range(repeat):
                profile = tempfile.mkdtemp(prefix="bench-phone-")
                context = browser.new_context(viewport={"width": 390, "height": 844})
                page = context.new_page()
                page.set_default_timeout(600_000)
                base = f"http://localhost:{port}"
                page.goto(f"{base}/login/")
                page.fill("#id_username", "bench-td")
                page.fill("#id_password", "bench-td-password")
                page.click("button[type=submit]")
                page.wait_for_url(f"{base}/")
                started = time.perf_counter()
                page.goto(f"{base}/tournaments/{tournament.pk}/")
                page.wait_for_selector("#offline-keep[data-done]", state="attached")
                times.append(time.perf_counter() - started)
                assert page.get_attribute("#offline-keep", "data-done") == "saved", page.inner_text("#offline-keep")
                context.close()
                shutil.rmtree(profile, ignore_errors=True)
                log(f"   kept in {times[-1]:.1f} s")
            browser.close()
    finally:
        server.terminate()
        server.wait(30)
    return times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--boards", type=int, default=26)
    parser.add_argument("--rulings", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    # Pages and static files as `make run` and `make hall` serve them (static files by their own
    # names, no collectstatic): DEBUG on, in this process and in the server it starts.
    os.environ["DJANGO_DEBUG"] = "1"
    os.environ["DJANGO_ALLOWED_HOSTS"] = "localhost,127.0.0.1,testserver"
    with throwaway_database("sqlite"):
        setup_django()
        tournament, director = build(args.pairs, args.boards, args.rulings)
        measured = sizes(tournament, director)
        log(f"   {measured['urls']} addresses, {measured['bytes'] / 2**20:.1f} MiB")
        times = browser_times(tournament, args.repeat) if os.path.exists(CHROMIUM) else []
        size = {
            "pairs": args.pairs,
            "boards": args.boards,
            "results": args.boards * (args.pairs // 2),
            "rulings": args.rulings,
        }
        print(json.dumps({"size": size, "bundle": measured, "keep": summary(times) if times else None}))


if __name__ == "__main__":
    main()
