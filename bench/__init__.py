"""Benchmarks (``make bench``): see bench/run.py and docs/performance.md.

Shared helpers for the benchmarks that need Django: each such benchmark runs in its own
process, builds its data in a throwaway database (a temporary SQLite file, or a PostgreSQL
database it creates and drops), and prints one JSON line of measurements on stdout.
"""

import contextlib
import math
import os
import secrets
import shutil
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
PG_URL = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/test")
# A Redis database of its own, so that a developer's `make run` on database 0 never takes the
# benchmark's tasks (nor the benchmark's worker theirs).
REDIS_URL = os.environ.get(
    "BENCH_REDIS_URL", "redis://127.0.0.1:6379/11"
)  # 15 and 14: the test processes' (tests/conftest.py)
# The throwaway databases' names start with this (a shared server: each developer their own).
DB_PREFIX = os.environ.get("BENCH_DB_PREFIX", "bench_rulings")


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def percentile(values, p):
    """Nearest-rank percentile (p95 of 3 runs is the slowest)."""
    ordered = sorted(values)
    if not ordered:
        return None
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def summary(values):
    ordered = sorted(values)
    n = len(ordered)
    median = ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2
    return {"n": n, "median": median, "p95": percentile(ordered, 95), "min": ordered[0], "max": ordered[-1]}


def bench_env(extra=None):
    """The environment of a benchmark process: production-like settings (DEBUG off, so Django
    keeps no query log), plus ``extra``."""
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "bench-only-" + secrets.token_urlsafe(40),
            "DJANGO_ALLOWED_HOSTS": "localhost",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""),
        }
    )
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    env.update(extra or {})
    return env


def _with_database(url, name):
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


@contextlib.contextmanager
def throwaway_database(kind):
    """Point this process at a new, empty database of ``kind`` ("sqlite" or "postgres") before
    Django starts; drop it on the way out. Yields the DATABASE_URL."""
    var_dir = Path(tempfile.mkdtemp(prefix="bench-var-"))
    os.environ["BRIDGECASES_VAR_DIR"] = str(var_dir)
    os.environ["AUDIT_SIGNING_KEY_FILE"] = str(_signing_key(var_dir))
    for key, value in bench_env().items():
        os.environ.setdefault(key, value)
    pg_name = None
    try:
        if kind == "sqlite":
            url = f"sqlite:///{var_dir / 'bench.sqlite3'}"
        elif kind == "postgres":
            import psycopg

            pg_name = f"{DB_PREFIX}_{os.getpid()}_{secrets.token_hex(3)}"
            with psycopg.connect(PG_URL, autocommit=True) as admin:
                admin.execute(f'CREATE DATABASE "{pg_name}"')
            url = _with_database(PG_URL, pg_name)
        else:
            raise ValueError(kind)
        os.environ["DATABASE_URL"] = url
        yield url
    finally:
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001 - Django may never have started
            pass
        if pg_name:
            import psycopg

            with psycopg.connect(PG_URL, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{pg_name}" WITH (FORCE)')
        shutil.rmtree(var_dir, ignore_errors=True)


def _signing_key(var_dir):
    """A throwaway audit signing key: every audited write signs a tree head (issue #41), and
    nothing but ``audit_signing_key --generate`` makes a key for the application."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    path = var_dir / "keys" / "audit-signing-key.pem"
    path.parent.mkdir(parents=True, exist_ok=True)
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(pem)
    return path


def setup_django():
    """Start Django in this process and create the schema in the (empty) database."""
    sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


def server_versions():
    """PostgreSQL and Redis versions, None where the server does not answer."""
    versions = {"postgres": None, "redis": None}
    try:
        import psycopg

        with psycopg.connect(PG_URL, connect_timeout=3) as conn:
            versions["postgres"] = conn.execute("SHOW server_version").fetchone()[0].split()[0]
    except Exception:  # noqa: BLE001
        pass
    try:
        import redis

        versions["redis"] = redis.Redis.from_url(REDIS_URL, socket_timeout=3).info("server")["redis_version"]
    except Exception:  # noqa: BLE001
        pass
    return versions
