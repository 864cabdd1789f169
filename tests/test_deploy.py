"""The production settings pass Django's deployment checklist."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_manage_py_check_deploy_is_clean_with_production_settings(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}  # set by the browser tests
    (tmp_path / "witness").mkdir()  # the witness's share, mounted (audit.E006 if it is missing)
    env.update(
        # The heads file and its witness each in a folder of its own, apart from the key's and
        # the database's (issue #41).
        AUDIT_HEADS_FILE=str(tmp_path / "heads" / "audit-heads.jsonl"),
        AUDIT_WITNESS_FILE=str(tmp_path / "witness" / "audit-heads.jsonl"),
        DJANGO_DEBUG="0",
        DJANGO_ALLOWED_HOSTS="rulings.example.org",
        DJANGO_SECRET_KEY="a-long-random-production-secret-for-the-check-0123456789-abcdefghij",
    )
    run = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "System check identified no issues" in run.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SECRET_KEY"}
    env.update(DJANGO_DEBUG="0", DJANGO_ALLOWED_HOSTS="rulings.example.org")
    run = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode != 0
    assert "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off." in run.stderr
