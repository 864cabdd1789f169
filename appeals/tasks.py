"""E-mail for appeal notifications, sent by the worker after the step commits and retried (with
growing pauses, for about a day) while the mail server cannot be reached: no message is lost."""

import smtplib

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.utils import timezone

from config.task_retry import RETRY_ON_TRANSIENT_ERRORS, TRANSIENT_ERRORS
from core import policy


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=(OSError, smtplib.SMTPException, *TRANSIENT_ERRORS),
    retry_backoff=30,
    retry_backoff_max=3600,
    retry_jitter=True,
    max_retries=30,
)
def send_notification_mail(self, notification_id):
    from appeals.models import Notification

    notification = Notification.objects.select_related("user", "appeal").filter(pk=notification_id).first()
    if notification is None or notification.mailed_at is not None or not notification.user.email:
        return False
    text = notification.shown  # in the worker's language (LANGUAGE_CODE): a user has no language of their own
    send_mail(
        subject=f"{notification.appeal}: {text[:60]}",
        message=text,
        from_email=getattr(settings, "DEFAULT_FROM_EMAIL", None),
        recipient_list=[notification.user.email],
    )
    Notification.objects.filter(pk=notification.pk).update(mailed_at=timezone.now())
    return True


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=(OSError, smtplib.SMTPException, *TRANSIENT_ERRORS),
    retry_backoff=30,
    retry_backoff_max=3600,
    retry_jitter=True,
    max_retries=30,
)
def send_filing_acknowledgement(self, filing_id):
    """The filer's copy of a filing's acknowledgement (its number, when and by whom it was
    received, the next deadline), in the language they filed in, to the e-mail of their account;
    once. A filer without an e-mail address has the copy handed to them at the desk."""
    from django.utils import translation

    from appeals.models import Filing

    filing = Filing.objects.select_related("filer__user", "tournament").filter(pk=filing_id).first()
    filer = filing.filer if filing is not None else None
    user = filer.user if filer is not None else None
    if filing is None or filing.mailed_at is not None or user is None or not user.email:
        return False
    with translation.override(filing.language):
        subject = translation.gettext("%(filing)s received: %(tournament)s") % {
            "filing": filing,
            "tournament": filing.tournament,
        }
    send_mail(
        subject=subject,
        message=filing.acknowledgement(filing.language),
        from_email=getattr(settings, "DEFAULT_FROM_EMAIL", None),
        recipient_list=[user.email],
    )
    Filing.objects.filter(pk=filing.pk, mailed_at__isnull=True).update(mailed_at=timezone.now())
    return True


@shared_task(**RETRY_ON_TRANSIENT_ERRORS)
def remind_decisions_due():
    """An hour before an open appeal must be decided, its body and the chief directors are told."""
    from appeals import services

    return services.remind_decisions_due(by=policy.SYSTEM)
