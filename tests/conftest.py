"""Shared fixtures: a small competition record built through the services, as a user would,
and a real Celery worker process for the tests that need one."""

import datetime
import os
import re
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import close_old_connections, connection

from core import policy, roles
from rulings import services as rulings_services
from scoring import services
from scoring.models import Event, RecalculationRequest
from tests.snapshot import built_once

ROOT = Path(__file__).resolve().parents[1]

DEAL = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"


# `make test` runs the suite in one process per core (pytest-xdist: gw0, gw1, ...). Each process
# has its own test database (pytest-django adds the suffix _gw0, _gw1, ...), its own folder
# under BRIDGECASES_VAR_DIR (config/settings.py: the filesystem broker, uploads, the SQLite
# files) and, on Redis, its own database, so that the Celery worker one process starts never
# takes the tasks of another's tests.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def redis_database_of(url, xdist_worker):
    """``url`` with the Redis database of ``xdist_worker``: gw0 keeps the URL's (15 in CI),
    gw1 takes the one below (14), and so on, modulo Redis's 16."""
    parts = urllib.parse.urlsplit(url)
    number = int(parts.path.strip("/") or 0) - int(xdist_worker.removeprefix("gw"))
    return urllib.parse.urlunsplit(parts._replace(path=f"/{number % 16}"))


def _refill_after_flush():
    """A test with transactions ends with a flush, which empties the tables the migrations
    filled: the law catalogue is the only data a migration loads (rulings 0002-0005). The next
    module of the same process must find the database as migrate left it, so the flush is
    followed by the same load (Django's serialized_rollback restores at the start of the test
    that asks, not for the tests after it).

    The flush also restarts every table's id counter (Django's own leaves them, and the content
    types and permissions the flush makes again came out with new ids each time), so every test
    with transactions but the process's first starts on the same database: the records a process
    builds once (tests/snapshot.py: the field, the case, the demo) and the law catalogue itself
    are built on the first such test and restored on the others, as in the tests without."""
    from django.core.management import call_command
    from django.db import connections
    from django.test import TransactionTestCase

    def flush_then_refill(self):
        # Django's TransactionTestCase._fixture_teardown, the id counters restarted.
        for db_name in self._databases_names(include_mirrors=False):
            inhibit_post_migrate = self.available_apps is not None or (
                self.serialized_rollback and hasattr(connections[db_name], "_test_serialized_contents")
            )
            call_command(
                "flush",
                verbosity=0,
                interactive=False,
                database=db_name,
                reset_sequences=True,
                allow_cascade=self.available_apps is not None,
                inhibit_post_migrate=inhibit_post_migrate,
            )
        from rulings.catalogue import sync_law_catalogue
        from rulings.models import LawEntry

        # Given the model, as a migration does: no audit entry.
        built_once("law catalogue", lambda: sync_law_catalogue(LawEntry))

    TransactionTestCase._fixture_teardown = flush_then_refill


def pytest_configure(config):
    _refill_after_flush()
    if XDIST_WORKER and settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        from config.celery import app

        url = redis_database_of(settings.CELERY_BROKER_URL, XDIST_WORKER)
        # This process sends there, and the worker it starts (which reads the variable) listens there.
        settings.CELERY_BROKER_URL = os.environ["CELERY_BROKER_URL"] = app.conf.broker_url = url


# The order of the modules (issue #38). `make test` hands out whole modules (--dist loadfile) in
# the order collected (--no-loadscope-reorder; pytest-xdist's own reorder by number of tests put
# the long modules of a few tests, the walk, the browser journeys, the two instances, last, where
# one process ran them while the other had finished). Here: pytest-django's three phases as it
# orders them (database tests, then tests with transactions, whose flush empties the tables the
# migrations filled, then plain Python), and in each phase the heaviest modules first, by a
# test's usual cost: the plain modules of tests/bridge fill the end.
PHASE_COST = {0: 0.15, 1: 2.0, 2: 0.02}
MARKER_COST = {"walk": 50.0, "instances": 30.0, "e2e": 8.0, "worker": 5.0}


def _phase(item):
    """pytest-django's order of ``item``: 0 a database test, 1 one with transactions, 2 none."""
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", ())
    transactional = bool(marker and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")))
    transactional = transactional or bool(marker and marker.args and marker.args[0])
    if transactional or "transactional_db" in fixtures or "live_server" in fixtures:
        return 1
    return 0 if marker or "db" in fixtures else 2


def _cost(item, phase):
    return max([MARKER_COST.get(marker.name, 0.0) for marker in item.iter_markers()] + [PHASE_COST[phase]])


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    phases = [_phase(item) for item in items]
    module_phase, module_cost = {}, {}
    for item, phase in zip(items, phases):
        module = item.nodeid.split("::")[0]
        module_phase[module] = min(module_phase.get(module, phase), phase)
        module_cost[module] = module_cost.get(module, 0.0) + _cost(item, phase)
    order = {id(item): n for n, item in enumerate(items)}
    by_item = dict(zip(map(id, items), phases))

    def key(item):
        module = item.nodeid.split("::")[0]
        return (module_phase[module], -module_cost[module], module, by_item[id(item)], order[id(item)])

    items.sort(key=key)


@pytest.fixture(scope="session", autouse=True)
def audit_guard_installed():
    """Issue #19: every write of an audited record, over the whole run, is watched (tests/audit_guard.py)."""
    from tests import audit_guard

    audit_guard.install()
    return audit_guard


@pytest.fixture(autouse=True)
def no_unaudited_write(audit_guard_installed):
    """The test fails if the project's code wrote an audited record outside an audited service
    during it (or during a module's records built before it)."""
    yield
    found = audit_guard_installed.take_offences()
    if found:
        pytest.fail("an audited record was written outside an audited service:\n  " + "\n  ".join(found))


def pytest_sessionfinish(session, exitstatus):
    """What a module's records wrote after its last test (its teardown) fails the run too. Under
    xdist each process hands what it found to the controller, which fails the run."""
    from tests import audit_guard

    found = audit_guard.take_offences() + _OFFENCES_OF_WORKERS
    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput["audit_offences"] = found
    elif found:
        print("\nan audited record was written outside an audited service:\n  " + "\n  ".join(found))
        session.exitstatus = 1


_OFFENCES_OF_WORKERS = []


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """xdist's controller: a process has finished; keep what its audit guard found."""
    _OFFENCES_OF_WORKERS.extend(getattr(node, "workeroutput", {}).get("audit_offences", []))


@pytest.fixture(scope="session", autouse=True)
def audit_signing_keys(tmp_path_factory):
    """One Ed25519 key for the run, outside the database as in production (issue #30), made
    before any record: every audited write signs a tree head (issue #41), the records a module
    builds once included, and so do the worker and the commands a test starts (they inherit it)."""
    from audit import signing

    folder = tmp_path_factory.mktemp("audit-keys")
    key, public = folder / "audit-signing-key.pem", folder / "public"
    os.environ["AUDIT_SIGNING_KEY_FILE"] = settings.AUDIT_SIGNING_KEY_FILE = str(key)
    os.environ["AUDIT_PUBLIC_KEYS_DIR"] = settings.AUDIT_PUBLIC_KEYS_DIR = str(public)
    try:
        signing.generate()
    except signing.SigningKeyMissing:
        pass  # an environment without the cryptography package: the tests that sign say so
    return key, public


@pytest.fixture(autouse=True)
def audit_signing(settings, audit_signing_keys, tmp_path):
    """The signing key and, for each test, a heads file of its own: the database is rolled back
    after each test, and the heads it signed must not outlive it."""
    from audit import sealing, signing

    settings.AUDIT_SIGNING_KEY_FILE, settings.AUDIT_PUBLIC_KEYS_DIR = map(str, audit_signing_keys)
    settings.AUDIT_HEADS_FILE = str(tmp_path / "audit-heads.jsonl")
    sealing.forget()  # the last head this process signed may have been rolled back with its test
    yield signing
    sealing.forget()


@pytest.fixture(autouse=True)
def fresh_throttle_counts():
    """The API's throttles count in the cache, anonymous refusals too (issue #30): each test
    starts with none, so the requests of earlier tests do not throttle its own."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # The real hasher is slow on purpose; tests log in dozens of users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def english_between_tests():
    # LocaleMiddleware leaves the last request's language active in the thread: a test that
    # switches to Hebrew must not make the next test's messages Hebrew.
    yield
    from django.utils import translation

    translation.deactivate()


def make_user(username, role=None, **extra):
    user = get_user_model().objects.create_user(username=username, password="pw-" + username, **extra)
    if role:
        services.grant_role(user=user, role=role, by=policy.SYSTEM)
    return user


def page_in(client, user, url, language):
    """The page at ``url`` as ``user`` reads it in ``language`` (the switcher's cookie); it must
    answer 200."""
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def build_pairs_tournament(code="nbo", name="Club Championship", tables=2):
    """One matchpoint pairs session: ``tables`` tables, one round, boards 1 and 2."""
    authority = services.create_authority(name=f"{name} body", code=code, time_zone="Europe/London", by=policy.SYSTEM)
    tournament = services.create_tournament(
        authority=authority,
        name=name,
        start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 2),
        by=policy.SYSTEM,
    )
    event = services.create_event(tournament=tournament, name="Pairs", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM)
    session = services.create_session(event=event, number=1, by=policy.SYSTEM)
    section = session.sections.get()
    table_list = services.add_tables(section=section, count=tables, by=policy.SYSTEM)
    round_ = services.add_rounds(session=session, count=1, by=policy.SYSTEM)[0]
    players = [
        services.register_player(
            authority=authority,
            first_name=f"P{i}",
            last_name=f"Player{i}",
            membership_number=f"{code}-{i}",
            by=policy.SYSTEM,
        )
        for i in range(1, 4 * tables + 1)
    ]
    pairs = [
        services.enter_contestant(event=event, number=n, members=players[2 * (n - 1) : 2 * n], by=policy.SYSTEM)
        for n in range(1, 2 * tables + 1)
    ]
    boards = [
        services.create_board(session=session, number=1, deal=DEAL, by=policy.SYSTEM),
        services.create_board(session=session, number=2, by=policy.SYSTEM),
    ]
    return SimpleNamespace(
        authority=authority,
        tournament=tournament,
        event=event,
        session=session,
        tables=table_list,
        round=round_,
        players=players,
        pairs=pairs,
        boards=boards,
    )


def table_result(record, table=0, board=None, **fields):
    """A result recorded at table ``table`` (from 0) of ``record`` (build_pairs_tournament's), on
    ``board`` (board 1 unless named): its N-S pair against its E-W pair, each numbered as the table
    (E-W from ``len(record.tables)`` on); ``fields`` are the contract, declarer, tricks and the rest."""
    return services.record_result(
        board=board or record.boards[0],
        round=record.round,
        table=record.tables[table],
        ns=record.pairs[table],
        ew=record.pairs[len(record.tables) + table],
        **fields,
        by=policy.SYSTEM,
    )


# N-S contracts on board 1 (nobody vulnerable) giving +450, +420, +420, +170, +140, -50.
TABLE_RESULTS = [("4S", "N", 11), ("4S", "N", 10), ("4S", "N", 10), ("3S", "N", 10), ("3S", "N", 9), ("4S", "N", 9)]


def record_seven_tables(record, board=None):
    """TABLE_RESULTS and table X's 4S N = (+420) at the seven tables of ``record``
    (build_pairs_tournament(tables=7)) on ``board`` (board 1 unless named); the results, by table."""
    return [
        table_result(record, t, board=board, contract=contract, declarer=declarer, tricks=tricks)
        for t, (contract, declarer, tricks) in enumerate(TABLE_RESULTS + [("4S", "N", 10)])
    ]


def build_field():
    record = build_pairs_tournament(tables=7)
    board = record.boards[0]
    record.results = record_seven_tables(record)
    from scoring import recalculation

    recalculation.recalculate_board(board.pk)
    return record


@pytest.fixture
def field(db):
    """Seven tables, one round, board 1: N-S pairs 1-7, E-W pairs 8-14. Table 7 is table X.
    Built through the services once per process and restored in later tests (tests/snapshot.py)."""
    return built_once("field", build_field)


def table_x(field):
    """Table X's result in the ``field`` fixture: pair 7 N-S against pair 14 E-W, 4S N = +420."""
    return field.results[6]


# The plainest ruling: a claim that stands (Law 70D1), for the tests about what comes after one.
CLAIM_STANDS = dict(kind="claim", laws="70D1", give=True, ruling_text="The claim stands", outcome="result_stands")


def ruling_at(result, director, **fields):
    """A ruling at the table of ``result``, given by ``director`` through the service: the claim
    that stands, but for what ``fields`` say."""
    posted = result.board.session.official_score_at
    if posted is not None:  # asked for within the Law 92B period (record_ruling checks it)
        fields.setdefault("called_at", posted)
    return rulings_services.rule(result=result, director=director, **{**CLAIM_STANDS, **fields})


@pytest.fixture
def record(db):
    return build_pairs_tournament()


@pytest.fixture
def other_record(db):
    return build_pairs_tournament(code="other", name="Other Body Open")


@pytest.fixture
def people(db, record):
    """One user per role, each with their place at ``record``'s tournament."""
    director = make_user("director", first_name="Dana")
    services.appoint_official(tournament=record.tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    chief = make_user("chief")
    services.appoint_official(tournament=record.tournament, user=chief, role=roles.CHIEF_DIRECTOR, by=policy.SYSTEM)
    scorer = make_user("scorer")
    services.appoint_official(tournament=record.tournament, user=scorer, role=roles.SCORER, by=policy.SYSTEM)
    appeals = make_user("appeals")
    services.appoint_official(tournament=record.tournament, user=appeals, role=roles.APPEALS_MEMBER, by=policy.SYSTEM)
    auditor = make_user("auditor")
    services.appoint_auditor(authority=record.authority, user=auditor, by=policy.SYSTEM)
    player = make_user("player", role=roles.PLAYER)
    record.players[0].user = player
    record.players[0].save()
    outsider = make_user("outsider", role=roles.PLAYER)
    return SimpleNamespace(
        director=director,
        chief=chief,
        scorer=scorer,
        appeals=appeals,
        auditor=auditor,
        player=player,
        outsider=outsider,
    )


def _database_url():
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture(scope="session")
def worker(django_db_setup, django_db_blocker, tmp_path_factory):
    """A worker process on the test database; stopped (and its log shown on failure) at the end."""
    log_path = tmp_path_factory.mktemp("worker") / "worker.log"
    env = dict(os.environ, DATABASE_URL=_database_url(), CELERY_BROKER_URL=settings.CELERY_BROKER_URL)
    with django_db_blocker.unblock():
        env["DATABASE_URL"] = _database_url()
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "--loglevel=INFO",
        "--concurrency=2",
        "--purge",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        f"--logfile={log_path}",
    ]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while "ready." not in (log_path.read_text() if log_path.exists() else ""):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the worker did not start:\n{log_path.read_text() if log_path.exists() else ''}")
            time.sleep(0.2)
        yield log_path
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


# The worker's log (--loglevel=INFO) has a line for each task it takes and one for how it ended;
# a retried task is received again under the same id.
TASK_LINE = re.compile(
    r"Task [\w.]+\[(?P<id>[0-9a-f-]{36})\] (?P<what>received|succeeded|raised|failed|retry|rejected)"
)
TASK_ENDED = {"succeeded", "raised", "failed", "rejected"}


def unfinished_tasks(log_path, published=()):
    """The ids of the tasks the worker has taken, or this process has sent (``published``), whose
    last line in the worker's log is not an end."""
    last = {match["id"]: match["what"] for match in TASK_LINE.finditer(log_path.read_text())}
    return {task for task in {*last, *published} if last.get(task) not in TASK_ENDED}


@pytest.fixture
def drained_worker(worker):
    """The worker, which after the test has finished every task the test sent and every task it
    took: a test's late task never reaches the next test's records (whose ids, on SQLite, restart
    after each flush), whatever the order of the tests."""
    from celery.signals import after_task_publish

    published = []

    def sent(headers=None, **kwargs):
        published.append((headers or {}).get("id"))

    after_task_publish.connect(sent, weak=False)
    try:
        yield worker
    finally:
        after_task_publish.disconnect(sent)
    wait_for(lambda: not unfinished_tasks(worker, published), what="the worker's tasks of the test")


def wait_for(condition, timeout=60, what="the worker"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        close_old_connections()
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} did not finish within {timeout} s")


def settled(board):
    board.refresh_from_db()
    return (
        board.scored_version == board.score_version
        and not RecalculationRequest.objects.filter(board=board, finished_at__isnull=True).exists()
    )


# The moment tests load the demo at (scoring.demo.demo_clock): its dates as they always were, the
# teams' official score posted at 18:00 on 19 April 2026 in Amsterdam; the demo itself is dated
# relative to the day it is loaded.
DEMO_NOW = datetime.datetime(2026, 4, 19, 16, 5, tzinfo=datetime.UTC)
