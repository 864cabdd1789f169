"""The Celery application: one per process, configured from Django settings."""

import os

from celery import Celery
from celery.signals import beat_init, celeryd_init
from kombu import transport

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# redis:// and rediss:// URLs use kombu's Redis transport with the project's guard against a
# worker exiting when its broker goes away (config/redis_broker.py). Registered by scheme, so
# the URL keeps choosing the transport (and rediss:// its TLS) in every process.
for _scheme in ("redis", "rediss"):
    transport.TRANSPORT_ALIASES[_scheme] = "config.redis_broker:Transport"
    transport._transport_cache.pop(_scheme, None)

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
