"""Issue #19: 30 wrong logins in a row met no lockout, and the API had no throttle. Now a
username is locked out from an address after AXES_FAILURE_LIMIT wrong passwords (429), and the
API answers 429 with Retry-After beyond its rate per user and per anonymous address."""

import pytest
from django.conf import settings
from django.core.cache import cache
from rest_framework.test import APIClient
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def login(client, username, password, address="203.0.113.7"):
    return client.post("/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def test_wrong_passwords_lock_the_username_out_from_that_address(client):
    make_user("dana")  # password "pw-dana"
    limit = settings.AXES_FAILURE_LIMIT
    for _attempt in range(limit - 1):
        assert login(client, "dana", "guess").status_code == 200  # the form again, with its error
    assert login(client, "dana", "guess").status_code == 429
    # Locked: even the right password is refused now, from that address...
    assert login(client, "dana", "pw-dana").status_code == 429
    # ...but not from another one, nor for another user.
    assert login(client, "dana", "pw-dana", address="198.51.100.2").status_code == 302
    client.logout()
    make_user("eli")
    assert login(client, "eli", "pw-eli").status_code == 302


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
    assert page.status_code == 429 and int(page["Retry-After"]) == 15 * 60
    text = page.content.decode()
    assert "Too many wrong passwords for this username from this address: try again in 15 minutes" in text
    assert 'id="id_username"' in text  # the login form again

    make_user("eli")
    api = APIClient()
    for _attempt in range(settings.AXES_FAILURE_LIMIT + 1):
        answer = api.get("/api/v1/tournaments/", HTTP_AUTHORIZATION=basic("eli", "guess"), REMOTE_ADDR="192.0.2.50")
    assert answer.status_code == 429 and int(answer["Retry-After"]) == 15 * 60
    assert answer.json()["detail"][0].startswith("Too many wrong passwords for this username from this address")


def basic(username, password):
    import base64

    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()
