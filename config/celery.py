"""The Celery application: one per process, configured from Django settings."""

import os

from celery import Celery
from celery.signals import beat_init, celeryd_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("bridgecases")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def worker_transport_options(conf):
    """A worker or beat waits for a network broker as long as it takes (settings'
    WORKER_BROKER_TRANSPORT_OPTIONS); a web process keeps the short wait of
    CELERY_BROKER_TRANSPORT_OPTIONS, since the sweep sends later what it could not."""
    from django.conf import settings

    if str(conf.broker_url or "").startswith("filesystem://"):
        return
    conf.broker_transport_options = {
        **(conf.broker_transport_options or {}),
        **settings.WORKER_BROKER_TRANSPORT_OPTIONS,
    }


@celeryd_init.connect
def _configure_worker(sender=None, conf=None, **kwargs):
    worker_transport_options(conf if conf is not None else app.conf)


@beat_init.connect
def _configure_beat(sender=None, **kwargs):
    worker_transport_options(app.conf)
