"""The filer's copy of a filing's acknowledgement by e-mail (issue #44: every filing received,
numbered and timed, and acknowledged at once): sent by the worker once the filing is kept, in
the language the filer filed in, once, and retried while the mail server is down."""

import smtplib
from unittest import mock

import pytest
from celery.exceptions import Retry
from django.core import mail

from appeals import services, tasks
from appeals.models import Filing
from tests.appeals.test_filings import LATE
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def north_with_mail(case, address="north@example.org"):
    user = make_user("north-user", email=address)
    case.north.user = user
    case.north.save()
    return user


def memo(case, by, language="en"):
    return services.file_memo(
        ruling=case.ruling, player=case.north, by=by, text="East paused ten seconds.", language=language, now=LATE
    )


def test_the_filer_is_mailed_the_acknowledgement_once_the_filing_is_kept(case, django_capture_on_commit_callbacks):
    user = north_with_mail(case)
    with mock.patch.object(tasks.send_filing_acknowledgement, "apply_async") as queued:
        with django_capture_on_commit_callbacks(execute=True):
            filing = memo(case, user)
            assert queued.call_count == 0  # nothing before the filing commits
        queued.assert_called_once_with(args=[filing.pk])
    assert tasks.send_filing_acknowledgement.apply(args=[filing.pk]).get() is True
    assert tasks.send_filing_acknowledgement.apply(args=[filing.pk]).get() is False  # once
    [sent] = mail.outbox
    assert sent.to == ["north@example.org"]
    assert sent.subject == f"Filing {filing.number} received: {case.ruling.tournament}"
    assert sent.body == filing.acknowledgement("en")
    assert sent.body.startswith(f"Filing {filing.number} (player's memo) received at 21:35 on 1 May 2026 BST")
    filing.refresh_from_db()
    assert filing.mailed_at is not None


def test_the_copy_is_in_the_language_the_filer_filed_in(case):
    user = north_with_mail(case)
    filing = memo(case, user, language="nl")
    assert tasks.send_filing_acknowledgement.apply(args=[filing.pk]).get() is True
    [sent] = mail.outbox
    assert sent.subject == f"Stuk {filing.number} ontvangen: {case.ruling.tournament}"
    assert sent.body == filing.acknowledgement("nl") != filing.acknowledgement("en")


def test_a_filer_without_an_address_is_not_mailed_and_the_filing_stands(case):
    user = north_with_mail(case, address="")
    filing = memo(case, user)
    assert tasks.send_filing_acknowledgement.apply(args=[filing.pk]).get() is False
    assert mail.outbox == []
    assert Filing.objects.get(pk=filing.pk).mailed_at is None


def test_the_copy_is_retried_while_the_mail_server_is_down(case):
    user = north_with_mail(case)
    filing = memo(case, user)
    with mock.patch("appeals.tasks.send_mail", side_effect=smtplib.SMTPServerDisconnected("down")):
        with pytest.raises(Retry):
            tasks.send_filing_acknowledgement.apply(args=[filing.pk], throw=True).get()
    assert Filing.objects.get(pk=filing.pk).mailed_at is None
    assert tasks.send_filing_acknowledgement.apply(args=[filing.pk]).get() is True
    assert len(mail.outbox) == 1


def test_a_broker_that_does_not_answer_costs_the_copy_not_the_filing(case, django_capture_on_commit_callbacks):
    user = north_with_mail(case)
    with mock.patch.object(tasks.send_filing_acknowledgement, "apply_async", side_effect=OSError("no broker")):
        with django_capture_on_commit_callbacks(execute=True):
            filing = memo(case, user)
    assert Filing.objects.filter(pk=filing.pk).exists()
