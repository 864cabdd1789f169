"""Issue #19: 30 wrong logins in a row met no lockout, and the API had no throttle. Now a
username, and an address, are locked out after AXES_FAILURE_LIMIT wrong passwords (429, for
longer and longer, issue #30), and the
API answers 429 with Retry-After beyond its rate per user and per anonymous address."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def login(client, username, password, address="203.0.113.7"):
    return client.post("/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def test_wrong_passwords_lock_the_username_out_from_every_address(client):
    make_user("dana")  # password "pw-dana"
    limit = settings.AXES_FAILURE_LIMIT
    for _attempt in range(limit - 1):
        assert login(client, "dana", "guess").status_code == 200  # the form again, with its error
    assert login(client, "dana", "guess").status_code == 429
    # Locked: even the right password is refused now, from that address and from another...
    assert login(client, "dana", "pw-dana").status_code == 429
    assert login(client, "dana", "pw-dana", address="198.51.100.2").status_code == 429
    # ...but another user logs in from another address.
    make_user("eli")
    assert login(client, "eli", "pw-eli", address="198.51.100.2").status_code == 302


def test_wrong_passwords_at_many_usernames_lock_the_address_out(client):
    """Issue #30: one address guessing at a different username each time is throttled too (at
    a higher count than a username: a hall's officials may share one address)."""
    make_user("dana")
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT == 30
    for attempt in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT - 1):
        assert login(client, f"someone{attempt}", "guess").status_code == 200
    assert login(client, "nobody", "guess").status_code == 429
    assert login(client, "dana", "pw-dana").status_code == 429  # from that address, nobody
    assert login(client, "dana", "pw-dana", address="198.51.100.2").status_code == 302


def test_each_wrong_password_after_a_lockout_doubles_the_next_one(client):
    """Issue #30: not a flat 15 minutes: 1 minute first, then 2, 4, 8... up to an hour; a guess
    during a lockout is refused unchecked and does not lengthen it."""
    from axes.models import AccessAttempt

    make_user("dana")
    for _attempt in range(settings.AXES_FAILURE_LIMIT):
        answer = login(client, "dana", "guess")
    assert answer.status_code == 429 and answer["Retry-After"] == "60"
    assert "try again in 1 minute," in answer.content.decode()
    assert login(client, "dana", "guess")["Retry-After"] == "60"  # refused, not counted
    assert AccessAttempt.objects.get().failures_since_start == settings.AXES_FAILURE_LIMIT

    retry_afters = []
    for _lockout in range(7):
        # The lockout over (the clock of the attempts moved past it), the next guess is counted.
        AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(hours=1, seconds=1))
        answer = login(client, "dana", "guess")
        assert answer.status_code == 429
        retry_afters.append(int(answer["Retry-After"]))
    assert retry_afters == [120, 240, 480, 960, 1920, 3600, 3600]
    assert "try again in 60 minutes," in answer.content.decode()


def test_wrong_passwords_are_forgotten_after_a_day(client):
    from axes.models import AccessAttempt

    make_user("dana")
    for _attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        login(client, "dana", "guess")
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(hours=24, seconds=1))
    assert login(client, "dana", "guess").status_code == 200  # the count starts again at 1
    assert AccessAttempt.objects.get().failures_since_start == 1


def test_a_success_before_the_limit_resets_the_count(client):
    make_user("dana")
    for _attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        login(client, "dana", "guess")
    assert login(client, "dana", "pw-dana").status_code == 302
    client.logout()
    for _attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login(client, "dana", "guess").status_code == 200


def test_the_test_clients_login_still_works(client):
    make_user("dana")
    assert client.login(username="dana", password="pw-dana")


@pytest.fixture
def low_rates(monkeypatch):
    cache.clear()
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "3/minute", "anon": "2/minute"})
    monkeypatch.setattr(AnonRateThrottle, "THROTTLE_RATES", {"user": "3/minute", "anon": "2/minute"})
    yield
    cache.clear()


def test_the_api_throttles_a_user_with_429_and_retry_after(low_rates):
    api = APIClient()
    api.force_authenticate(make_user("script"))
    assert [api.get("/api/v1/tournaments/").status_code for _ in range(3)] == [200, 200, 200]
    refused = api.get("/api/v1/tournaments/")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    other = APIClient()
    other.force_authenticate(make_user("another"))
    assert other.get("/api/v1/tournaments/").status_code == 200  # per user, not for everyone


def test_the_api_throttles_an_anonymous_address(low_rates):
    api = APIClient()
    assert [api.get("/api/schema/", REMOTE_ADDR="192.0.2.9").status_code for _ in range(2)] == [200, 200]
    refused = api.get("/api/schema/", REMOTE_ADDR="192.0.2.9")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert api.get("/api/schema/", REMOTE_ADDR="192.0.2.10").status_code == 200


def test_the_configured_rates():
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert rates == {"anon": "120/minute", "user": "1200/minute"}
    assert "rest_framework.throttling.UserRateThrottle" in settings.REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]


def test_a_lockout_says_for_how_long_with_retry_after_on_the_page_and_the_api(client):
    """Issue #30: 429 with Retry-After and the time in words on every door, never a bare 403."""
    make_user("dana")
    for _attempt in range(settings.AXES_FAILURE_LIMIT):
        page = login(client, "dana", "guess")
    assert page.status_code == 429 and int(page["Retry-After"]) == 60
    text = page.content.decode()
    assert "Too many wrong passwords from this address or for this username: try again in 1 minute," in text
    assert 'id="id_username"' in text  # the login form again

    make_user("eli")
    api = APIClient()
    for _attempt in range(settings.AXES_FAILURE_LIMIT + 1):
        answer = api.get("/api/v1/tournaments/", HTTP_AUTHORIZATION=basic("eli", "guess"), REMOTE_ADDR="192.0.2.50")
    assert answer.status_code == 429 and int(answer["Retry-After"]) == 60
    assert answer.json()["detail"][0].startswith("Too many wrong passwords from this address or for this username")


def basic(username, password):
    import base64

    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


def test_anonymous_requests_refused_are_counted_by_the_anonymous_rate(low_rates):
    """Issue #30: DRF checks throttles after permissions, so an anonymous request refused (403)
    was never counted and the anonymous rate never applied."""
    api = APIClient()
    answers = [api.get("/api/v1/tournaments/", REMOTE_ADDR="192.0.2.21").status_code for _ in range(3)]
    assert answers == [403, 403, 429]
    refused = api.get("/api/v1/tournaments/", REMOTE_ADDR="192.0.2.21")
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 60
    assert refused.json()["detail"][0].startswith("Request was throttled.")
    assert api.get("/api/v1/tournaments/", REMOTE_ADDR="192.0.2.22").status_code == 403  # per address


def test_wrong_tokens_and_passwords_are_counted_by_the_anonymous_rate(low_rates):
    """Issue #30: a failed authentication (a wrong token, a wrong password) was never throttled:
    now each counts against the caller's address, and beyond the rate answers 429."""
    api = APIClient()
    bad_token = {"HTTP_AUTHORIZATION": "Token 0123456789abcdef0123456789abcdef01234567", "REMOTE_ADDR": "192.0.2.31"}
    answers = [api.get("/api/v1/tournaments/", **bad_token).status_code for _ in range(3)]
    assert answers == [403, 403, 429]  # 403: session authentication comes first, no challenge
    assert int(api.get("/api/v1/tournaments/", **bad_token)["Retry-After"]) > 0

    make_user("dana")
    wrong = {"HTTP_AUTHORIZATION": basic("dana", "guess"), "REMOTE_ADDR": "192.0.2.32"}
    answers = [api.get("/api/v1/tournaments/", **wrong).status_code for _ in range(3)]
    assert answers == [403, 403, 429]  # 403: session authentication comes first, no challenge
