"""Safe by default (issue #41): DEBUG off unless DJANGO_DEBUG=1; a missing signing key is an
alarm everywhere (check --deploy, verify_audit, the national desk) and nothing mints one but
``audit_signing_key --generate``; ``make hall`` serves as production does."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from audit import services as audit
from audit import signing
from audit.models import AuditEntry

ROOT = Path(__file__).resolve().parents[2]


def settings_of(**env):
    """DEBUG and the secret key's state as a fresh process reads them from ``env``."""
    clean = {k: v for k, v in os.environ.items() if k not in ("DJANGO_DEBUG", "DJANGO_SECRET_KEY")}
    clean.update(DJANGO_SETTINGS_MODULE="config.settings", **env)
    return subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; print(settings.DEBUG)"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_debug_is_off_unless_asked_for():
    assert settings_of(DJANGO_SECRET_KEY="x" * 50).stdout.strip() == "False"
    assert settings_of(DJANGO_DEBUG="1").stdout.strip() == "True"
    unset = settings_of()  # neither: a production start without its secret key refuses
    assert unset.returncode != 0 and "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off." in unset.stderr


@pytest.fixture
def no_key(settings, tmp_path):
    settings.AUDIT_SIGNING_KEY_FILE = str(tmp_path / "keys" / "missing.pem")
    return Path(settings.AUDIT_SIGNING_KEY_FILE)


@pytest.mark.django_db
def test_without_the_key_no_write_is_made_and_no_key_is_minted_even_with_debug_on(no_key, settings):
    settings.DEBUG = True
    with pytest.raises(signing.SigningKeyMissing, match="No audit signing key at"):
        audit.record(action="test.note", object_type="test.note", object_id=1)
    assert not no_key.exists() and not AuditEntry.objects.exists()


@pytest.mark.django_db
def test_a_missing_key_makes_verify_audit_fail_and_shows_on_the_national_desk(settings, tmp_path, client):
    user = get_user_model().objects.create_superuser("national", password="pw-national")  # signed: the key was there
    no_key = tmp_path / "keys" / "missing.pem"
    settings.AUDIT_SIGNING_KEY_FILE = str(no_key)
    with pytest.raises(CommandError, match=r"the trail cannot be kept: No audit signing key at .*missing\.pem"):
        call_command("verify_audit")
    client.force_login(user)
    page = client.get(reverse("national:national-home")).content.decode()
    assert "the trail cannot be kept: No audit signing key at" in page
    assert not no_key.exists()


def test_a_missing_key_fails_the_deployment_check(no_key):
    from audit.checks import signing_key_kept_private

    (error,) = signing_key_kept_private(None)
    assert error.id == "audit.E001" and error.is_serious()
    assert "manage.py audit_signing_key --generate" in error.hint


def test_make_hall_serves_with_debug_off():
    dry = subprocess.run(["make", "-n", "hall"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    commands = dry.stdout.replace("\\\n", " ").splitlines()  # a recipe's continued lines as one
    serving = [line for line in commands if "Procfile.hall" in line]
    assert serving and "DJANGO_DEBUG=0" in serving[0], dry.stdout + dry.stderr
    assert "collectstatic" in dry.stdout
