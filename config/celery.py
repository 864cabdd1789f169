"""The Celery application: one per process, configured from Django settings."""

import os

from celery import Celery
from celery.signals import beat_init, celeryd_init, task_postrun, task_prerun
from kombu import transport

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# redis:// and rediss:// URLs use kombu's Redis transport with the project's guard against a
# worker exiting when its broker goes away (config/redis_broker.py). Registered by scheme, so
# the URL keeps choosing the transport (and rediss:// its TLS) in every process. filesystem://,
# the embedded broker, is kombu's filesystem transport with each message written whole
# (config/filesystem_broker.py); by its scheme, so the worker's log names it filesystem://.
_TRANSPORTS = {
    "redis": "config.redis_broker:Transport",
    "rediss": "config.redis_broker:Transport",
    "filesystem": "config.filesystem_broker:Transport",
}
for _scheme, _transport in _TRANSPORTS.items():
    transport.TRANSPORT_ALIASES[_scheme] = _transport
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


@task_prerun.connect
@task_postrun.connect
def close_old_database_connections(sender=None, **kwargs):
    """Around each task, what Django does around each request: close a connection that is older
    than CONN_MAX_AGE or unusable, and have the next query check the connection's health
    (CONN_HEALTH_CHECKS). A healthy connection is kept from task to task (settings'
    CELERY_DB_REUSE_MAX turns off the fixup's closing of every connection). Eager calls run
    inside the caller's request and leave its connection alone."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
