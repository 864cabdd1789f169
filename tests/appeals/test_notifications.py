"""Notifications: whoever a step waits for finds it on their appeals page, and an e-mail is
sent after the step commits by a task that retries while the mail server is down."""

import smtplib
from unittest import mock

import pytest
from celery.exceptions import Retry
from django.core import mail
from django.urls import reverse

from appeals import tasks
from appeals.models import Notification
from tests.appeals.conftest import SOON, committee, lodge, ready

pytestmark = pytest.mark.django_db


def test_the_members_are_told_when_the_body_sits_and_the_hearing_is_fixed(
    case, client, django_capture_on_commit_callbacks
):
    for member in case.members:
        member.email = f"{member.username}@example.org"
        member.save(update_fields=["email"])
    with mock.patch.object(tasks.send_notification_mail, "apply_async") as delay:
        with django_capture_on_commit_callbacks() as callbacks:
            appeal, _body, _hearing = ready(case)
            assert delay.call_count == 0  # nothing is sent before the step commits
        assert callbacks
        for callback in callbacks:
            callback()
        assert delay.call_count == Notification.objects.count()
    texts = list(Notification.objects.filter(user=case.members[0]).values_list("text", flat=True))
    assert any("you sit on it" in t for t in texts) and any(f"Appeal {appeal.number} is heard at" in t for t in texts)
    client.force_login(case.members[0])
    assert "Waiting for you" in client.get(reverse("appeals:appeals")).content.decode()


def test_the_mail_is_sent_once_and_retried_while_the_server_is_down(case):
    case.members[0].email = "ann@example.org"
    case.members[0].save(update_fields=["email"])
    appeal = lodge(case)
    committee(case, appeal, now=SOON)
    notice = Notification.objects.filter(user=case.members[0]).first()
    with mock.patch("appeals.tasks.send_mail", side_effect=smtplib.SMTPServerDisconnected("down")):
        with pytest.raises(Retry):  # the worker tries again later
            tasks.send_notification_mail.apply(args=[notice.pk], throw=True).get()
    notice.refresh_from_db()
    assert notice.mailed_at is None
    assert tasks.send_notification_mail.apply(args=[notice.pk]).get() is True
    assert tasks.send_notification_mail.apply(args=[notice.pk]).get() is False  # not twice
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]
    assert smtplib.SMTPException in tasks.send_notification_mail.autoretry_for


def test_the_notice_mail_task_is_known_to_a_process_that_never_imported_it():
    """A web process sends the notice's mail by name once a step commits (core.dispatch): the
    task must be registered there, or the step's request fails after its commit (NotRegistered)."""
    import os
    import subprocess
    import sys

    code = (
        "import django; django.setup()\n"
        "from celery import current_app\n"
        "print('appeals.tasks.send_notification_mail' in current_app.tasks)\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.strip().splitlines()[-1] == "True", done.stderr
