"""What an operator sees of an unhandled exception (issue #38, core/request_ids.py): one log line
with the request's id, the user and the step; the id on the response; with a Sentry DSN, one
event sent through sentry-sdk, tagged with the same id."""

import logging
import logging.config

import pytest
import sentry_sdk
from django.conf import settings
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import path
from sentry_sdk.transport import Transport

from core import request_ids
from tests.conftest import make_user


class AppealStepFailed(RuntimeError):
    pass


def failing_step(request):
    raise AppealStepFailed("the hearing's room was double-booked")


def quiet_step(request):
    return HttpResponse("fine")


urlpatterns = [path("boom/", failing_step, name="failing_step"), path("fine/", quiet_step, name="quiet_step")]


def errors_logged(caplog):
    return [record for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.fixture
def client_of(db):
    def client_of(user=None):
        client = Client(raise_request_exception=False)
        if user is not None:
            client.force_login(user)
        return client

    return client_of


@override_settings(ROOT_URLCONF=__name__)
def test_an_exception_in_a_view_is_logged_once_with_the_request_id_the_user_and_the_step(client_of, caplog):
    director = make_user("td-errors", "director")
    with caplog.at_level(logging.INFO):
        response = client_of(director).get("/boom/", HTTP_X_REQUEST_ID="req-7f3a")
    assert response.status_code == 500
    assert response["X-Request-ID"] == "req-7f3a"
    [record] = errors_logged(caplog)
    assert record.getMessage() == "Internal Server Error: /boom/ (request req-7f3a, user td-errors, step failing_step)"
    assert record.exc_info[0] is AppealStepFailed
    assert (record.request_id, record.user, record.step) == ("req-7f3a", "td-errors", "failing_step")


@override_settings(ROOT_URLCONF=__name__)
def test_a_request_without_an_id_gets_one_and_an_anonymous_caller_is_named(client_of, caplog):
    with caplog.at_level(logging.INFO):
        response = client_of().get("/boom/", HTTP_X_REQUEST_ID="not an id; DROP TABLE")
    given = response["X-Request-ID"]
    assert len(given) == 32 and int(given, 16) >= 0
    [record] = errors_logged(caplog)
    assert record.getMessage() == f"Internal Server Error: /boom/ (request {given}, user anonymous, step failing_step)"


@override_settings(ROOT_URLCONF=__name__)
def test_the_line_says_it_once_however_often_logging_was_configured(client_of):
    # dictConfig adds a logger's filters to those it has: a command or a test that configures
    # logging again must not make the line say the request twice (it did in the whole suite).
    logging.config.dictConfig(settings.LOGGING)
    logging.config.dictConfig(settings.LOGGING)
    seen = []
    handler = logging.Handler()
    handler.emit = seen.append
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        client_of().get("/boom/", HTTP_X_REQUEST_ID="req-twice")
    finally:
        logger.removeHandler(handler)
    [record] = seen
    assert record.getMessage() == "Internal Server Error: /boom/ (request req-twice, user anonymous, step failing_step)"


@override_settings(ROOT_URLCONF=__name__)
def test_every_response_carries_its_request_id_and_a_quiet_request_logs_no_error(client_of, caplog):
    with caplog.at_level(logging.INFO):
        first = client_of().get("/fine/")
        second = client_of().get("/fine/")
    assert first.content == b"fine"
    assert first["X-Request-ID"] != second["X-Request-ID"]
    assert errors_logged(caplog) == []


class Kept(Transport):
    """sentry-sdk's transport replaced: the envelopes it would send, kept."""

    sent = []

    def capture_envelope(self, envelope):
        Kept.sent.append(envelope)


@pytest.fixture
def sentry_on():
    Kept.sent = []
    request_ids.init_sentry("https://public@sentry.invalid/1", transport=Kept)
    yield Kept.sent
    sentry_sdk.get_client().close()
    sentry_sdk.get_global_scope().set_client(None)  # off again, as without SENTRY_DSN


@override_settings(ROOT_URLCONF=__name__)
def test_with_a_sentry_dsn_an_unhandled_exception_is_sent_as_one_event_with_the_request_id(client_of, sentry_on):
    director = make_user("td-sentry", "director")
    response = client_of(director).get("/boom/", HTTP_X_REQUEST_ID="req-sentry-1")
    assert response.status_code == 500
    sentry_sdk.flush()
    events = [item.payload.json for envelope in sentry_on for item in envelope.items if item.type == "event"]
    [event] = [event for event in events if event.get("exception")]
    [exception] = event["exception"]["values"]
    assert (exception["type"], exception["value"]) == ("AppealStepFailed", "the hearing's room was double-booked")
    assert event["tags"]["request_id"] == "req-sentry-1"
    assert event["tags"]["step"] == "failing_step"
    assert event["user"]["username"] == "td-sentry"


def test_sentry_is_off_without_a_dsn(settings):
    assert settings.SENTRY_DSN == ""
    assert not sentry_sdk.get_client().is_active()
