"""Issue #30: a locked-out official had no unlock but a management command. A chief director (of
any tournament) or a superuser reads the locked-out logins and unlocks one on a page; each unlock
is in the audit trail."""

import pytest
from django.conf import settings

from audit.models import AuditEntry
from core import policy, roles
from scoring import services
from tests.conftest import build_pairs_tournament, make_user

pytestmark = pytest.mark.django_db


def login(client, username, password, address="203.0.113.7"):
    return client.post("/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.fixture
def chief():
    record = build_pairs_tournament()
    user = make_user("cleo")
    services.appoint_official(tournament=record.tournament, user=user, role=roles.CHIEF_DIRECTOR, by=policy.SYSTEM)
    return user


def lock_out(client, username):
    for _attempt in range(settings.AXES_FAILURE_LIMIT):
        answer = login(client, username, "guess")
    assert answer.status_code == 429


def test_a_chief_director_sees_the_locked_out_username_and_address_and_unlocks_the_username(client, chief):
    make_user("dana")
    lock_out(client, "dana")
    client.force_login(chief)
    page = client.get("/logins/locked/").content.decode()
    assert "username dana" in page and "address 203.0.113.7" not in page  # 5 of its 30
    assert page.count(">Unlock</button>") == 1

    answer = client.post("/logins/locked/", {"kind": "username", "value": "dana"}, follow=True)
    assert "dana is unlocked: it may log in at once." in answer.content.decode()
    assert "username dana" not in answer.content.decode()
    entry = AuditEntry.objects.get(action="login.unlocked")
    assert (entry.actor, entry.object_id, entry.summary) == (chief, "username:dana", "Login unlocked: dana")
    assert entry.before == {"username": "dana", "failures": settings.AXES_FAILURE_LIMIT}

    client.logout()
    assert login(client, "dana", "pw-dana", address="198.51.100.2").status_code == 302


def test_the_superuser_unlocks_an_address(client):
    for attempt in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT):
        login(client, f"someone{attempt}", "guess")
    make_user("eli")
    assert login(client, "eli", "pw-eli").status_code == 429  # from that address, nobody
    admin = make_user("root", is_superuser=True, is_staff=True)
    client.force_login(admin)
    assert "address 203.0.113.7" in client.get("/logins/locked/").content.decode()
    answer = client.post("/logins/locked/", {"kind": "address", "value": "203.0.113.7"}, follow=True)
    assert "203.0.113.7 is unlocked: it may log in at once." in answer.content.decode()
    client.logout()
    assert login(client, "eli", "pw-eli").status_code == 302


def test_nothing_to_unlock_writes_nothing_and_says_so(client, chief):
    client.force_login(chief)
    answer = client.post("/logins/locked/", {"kind": "username", "value": "dana"}, follow=True)
    assert "dana was not locked out." in answer.content.decode()
    assert "No login is locked out." in answer.content.decode()
    assert not AuditEntry.objects.filter(action="login.unlocked").exists()


def test_an_empty_or_unknown_choice_is_refused_with_its_reason(client, chief):
    client.force_login(chief)
    answer = client.post("/logins/locked/", {"kind": "username", "value": " "}, follow=True)
    assert "Name the username or the address to unlock." in answer.content.decode()
    answer = client.post("/logins/locked/", {"kind": "password", "value": "dana"}, follow=True)
    assert "Choose a username or an address to unlock." in answer.content.decode()


def test_a_director_may_not_read_nor_unlock(client):
    record = build_pairs_tournament()
    director = make_user("dirk")
    services.appoint_official(tournament=record.tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    lock_out(client, "dana")
    client.force_login(director)
    assert client.get("/logins/locked/").status_code == 403
    assert client.post("/logins/locked/", {"kind": "username", "value": "dana"}).status_code == 403
    assert login(client, "dana", "pw-dana").status_code == 429  # still locked


def test_the_home_page_links_the_chief_director_to_it(client, chief):
    client.force_login(chief)
    assert 'href="/logins/locked/"' in client.get("/").content.decode()
    client.force_login(make_user("pat"))
    assert 'href="/logins/locked/"' not in client.get("/").content.decode()
