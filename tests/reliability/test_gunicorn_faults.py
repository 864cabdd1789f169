"""Issue #30, "Done when": under a real gunicorn (DEBUG off) on PostgreSQL, the database
connections terminated again and again under API load. Every answer is JSON (never Django's
HTML "Server Error (500)"), reads included, and every client that retries with its Idempotency-Key until it is
told 201 has its change saved exactly once."""

import json
import threading
import time
import urllib.error
import urllib.request

import psycopg
import pytest
from django.db import connection
from rest_framework.authtoken.models import Token

from scoring.models import ScoreChange
from tests.conftest import _database_url
from tests.reliability.conftest import scorers
from tests.reliability.processes import WebServer

pytestmark = pytest.mark.django_db(transaction=True)

CLIENTS = 6
CHANGES_EACH = 8
# Every change must be saved within this many seconds of the first: a change is retried until
# then (on a loaded machine a request can outlast the killer's half second many times over).
SETTLE_SECONDS = 180


@pytest.fixture
def gunicorn(django_db_blocker, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("terminates PostgreSQL connections: run with DATABASE_URL=postgres://...")
    server = WebServer(tmp_path, django_db_blocker)
    server.start()
    yield server
    server.stop()


def terminate_connections_until(stop, database_url, spare, every=0.5):
    """Every ``every`` seconds, pg_terminate_backend on every connection to the database but
    this one and the test's own (``spare``): the web server's connections die mid-request."""
    killed = 0
    with psycopg.connect(database_url.replace("postgres://", "postgresql://"), autocommit=True) as killer:
        while not stop.wait(every):
            rows = killer.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> %s",
                [spare],
            ).fetchall()
            killed += len(rows)
    return killed


def post(url, token, body, key):
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json", "Idempotency-Key": key},
    )
    return answer(request)


def get(url, token):
    return answer(urllib.request.Request(url, headers={"Authorization": f"Token {token}"}))


def answer(request):
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()
    except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
        return None, "", repr(error).encode()  # no answer at all: the client retries


def change_until_saved(url, token, n, k, answers, deadline):
    """Client ``n``'s change ``k``, sent again with its Idempotency-Key until it answers 201 (or
    the ``deadline``, a time.monotonic(), passes); every answer kept in ``answers``. True once saved."""
    body = {"kind": "assigned", "score": {"ns": 400 + 10 * k}, "reason": f"client {n}, change {k}"}
    while time.monotonic() < deadline:
        status, content_type, content = post(url, token, body, f"client-{n}-change-{k}")
        answers.append((status, content_type, content[:200]))
        if status == 201:
            return True
        time.sleep(0.2)
    return False


def test_connections_terminated_under_load_answer_json_and_retries_save_once(field, gunicorn):
    result = field.results[6]
    tokens = [Token.objects.create(user=user).key for user in scorers(field, CLIENTS)]
    url = f"{gunicorn.url}/api/v1/results/{result.pk}/effective-score/"
    read_url = f"{gunicorn.url}/api/v1/results/{result.pk}/"
    answers, unsettled = [], []

    def client_run(n):
        for k in range(CHANGES_EACH):
            if not change_until_saved(url, tokens[n], n, k, answers, deadline):
                unsettled.append((n, k))
            answers.append(get(read_url, tokens[n])[:2] + (b"",))  # a read between writes

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        mine = cursor.fetchone()[0]
    database_url = _database_url()
    for token in tokens:  # each client's first answer before the killer starts: the workers are warm
        assert get(read_url, token)[0] == 200
    deadline = time.monotonic() + SETTLE_SECONDS
    stop = threading.Event()
    killed = []
    killer = threading.Thread(target=lambda: killed.append(terminate_connections_until(stop, database_url, mine)))
    killer.start()
    clients = [threading.Thread(target=client_run, args=(n,)) for n in range(CLIENTS)]
    for thread in clients:
        thread.start()
    for thread in clients:
        thread.join(timeout=SETTLE_SECONDS + 60)
    stop.set()
    killer.join(timeout=10)

    assert killed and killed[0] > 0, "no connection was terminated"
    answered = [a for a in answers if a[0] is not None]
    not_json = [a for a in answered if not a[1].startswith("application/json")]
    assert not_json == [], not_json[:5]
    assert not [a for a in answered if a[0] == 500], "a 500 answered"
    assert unsettled == []
    reasons = list(ScoreChange.objects.filter(result=result).values_list("reason", flat=True))
    expected = sorted(f"client {n}, change {k}" for n in range(CLIENTS) for k in range(CHANGES_EACH))
    assert sorted(reasons) == expected  # each change once: none lost, none twice


def test_the_caches_redis_stopped_under_load_answers_no_500(field, django_db_blocker, tmp_path):
    """The cache's Redis (the throttles' counts) stopped for a few seconds under API load, then
    started again, under gunicorn: no answer is a 500 (138 of 150 were), every answer JSON, and
    every change retried with its key saved once."""
    from tests.reliability.processes import RedisServer

    (tmp_path / "redis").mkdir()
    redis = RedisServer(tmp_path / "redis")
    redis.start()
    server = WebServer(tmp_path, django_db_blocker, env={"DJANGO_CACHE_URL": redis.url})
    server.start()
    try:
        result = field.results[6]
        tokens = [Token.objects.create(user=user).key for user in scorers(field, CLIENTS)]
        url = f"{server.url}/api/v1/results/{result.pk}/effective-score/"
        answers, unsettled = [], []
        halfway = threading.Barrier(CLIENTS + 1)
        deadline = time.monotonic() + SETTLE_SECONDS

        def client_run(n):
            for k in range(CHANGES_EACH):
                if k == CHANGES_EACH // 2:
                    halfway.wait(timeout=60)  # the outage starts
                    halfway.wait(timeout=60)
                if not change_until_saved(url, tokens[n], n, k, answers, deadline):
                    unsettled.append((n, k))

        clients = [threading.Thread(target=client_run, args=(n,)) for n in range(CLIENTS)]
        for thread in clients:
            thread.start()
        halfway.wait(timeout=60)
        redis.stop()
        halfway.wait(timeout=60)  # the second half of the writes with Redis down
        time.sleep(2)
        redis.start()
        for thread in clients:
            thread.join(timeout=SETTLE_SECONDS + 60)
    finally:
        server.stop()
        redis.stop()

    answered = [a for a in answers if a[0] is not None]
    assert [a for a in answered if a[0] >= 500] == []
    assert [a for a in answered if not a[1].startswith("application/json")] == []
    assert unsettled == []
    reasons = list(ScoreChange.objects.filter(result=result).values_list("reason", flat=True))
    assert sorted(reasons) == sorted(f"client {n}, change {k}" for n in range(CLIENTS) for k in range(CHANGES_EACH))
