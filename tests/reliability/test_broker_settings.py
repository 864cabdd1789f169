"""A worker and beat wait for their broker for ever; a web request does not wait for it."""

from types import SimpleNamespace

from django.conf import settings

from config.celery import worker_transport_options


def test_a_worker_never_gives_up_on_a_network_broker():
    assert settings.CELERY_BROKER_CONNECTION_RETRY is True
    assert settings.CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP is True
    assert settings.CELERY_BROKER_CONNECTION_MAX_RETRIES is None
    conf = SimpleNamespace(
        broker_url="redis://broker.internal:6379/0",
        broker_transport_options=dict(settings.NETWORK_BROKER_TRANSPORT_OPTIONS),
    )
    worker_transport_options(conf)
    assert conf.broker_transport_options["max_retries"] is None
    assert conf.broker_transport_options["socket_keepalive"] is True


def test_a_web_request_waits_at_most_one_retry_for_the_broker():
    assert settings.NETWORK_BROKER_TRANSPORT_OPTIONS["max_retries"] == 1


def test_the_filesystem_broker_keeps_its_folders():
    conf = SimpleNamespace(broker_url="filesystem://", broker_transport_options={"data_folder_in": "/x"})
    worker_transport_options(conf)
    assert conf.broker_transport_options == {"data_folder_in": "/x"}
