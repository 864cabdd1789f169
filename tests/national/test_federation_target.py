"""The national body's address or token changed after a push (issue #41): no ProtectedError,
the pushes delivered keep where they went, the others go to the new address with their bundle
built again against what it holds, and a change while a push is being sent is refused, saying
why. Each change is audited, the token named by its first characters only."""

import pytest
import requests
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import Client

from audit.models import AuditEntry
from core import policy
from national.federation import push, receive
from national.federation.models import PublishTarget, Push
from tests.appeals.conftest import case  # noqa: F401 - fixtures
from tests.national.federation_helpers import register_self
from tests.national.test_casebooks import decided  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db
OLD, NEW = "http://127.0.0.1:1/api/federation/", "http://localhost:2/api/federation/"


@pytest.fixture
def national(decided):  # noqa: F811
    cache.clear()
    decided.origin = register_self(decided.record.authority)
    decided.token = receive.issue_token(decided.origin, by=policy.SYSTEM)
    decided.api = Client(HTTP_AUTHORIZATION=f"Bearer {decided.token}")
    return decided


class Relay:
    """Both addresses answered by this test's national body (the test client), the calls kept."""

    def __init__(self, client):
        self.client, self.calls = client, []

    def __call__(self, session, method, url, data=None, headers=None, timeout=None):
        self.calls.append((method, url))
        path = "/api/federation/" + url.split("/api/federation/", 1)[1]
        extra = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in (headers or {}).items() if k != "Content-Type"}
        answer = getattr(self.client, method.lower())(
            path, data or b"", content_type="application/octet-stream", **extra
        )
        response = requests.Response()
        response.status_code, response._content = answer.status_code, answer.content
        return response


def waiting(tournament):
    """The tournament if it waits for the current national body (this instance is its own
    national body here: the copy it received waits too, and is left out)."""
    return [row["tournament"] for row in push.waiting() if row["tournament"] == tournament]


@pytest.fixture
def relay(national, monkeypatch):
    transport = Relay(national.api)
    monkeypatch.setattr(requests.Session, "request", lambda session, *a, **k: transport(session, *a, **k))
    return transport


def test_a_new_address_after_a_push_keeps_the_delivered_push_and_sends_the_rest_there(national, relay):
    tournament = national.record.tournament
    first = push.set_target(OLD, national.token, by=policy.SYSTEM)
    delivered = Push.objects.create(target=first, tournament=tournament)
    assert push.run(delivered.pk, by=policy.SYSTEM) == "delivered"
    assert waiting(tournament) == []
    queued = Push.objects.create(target=first, tournament=tournament)
    push._prepare(queued, push.Client(queued))  # built against the old body's head
    assert queued.digest

    second = push.set_target(NEW, "bct_newtoken1234", by=policy.SYSTEM)  # was a ProtectedError traceback

    assert push.target() == second != first
    delivered.refresh_from_db()
    queued.refresh_from_db()
    assert delivered.target == first  # where it went
    assert (queued.target, queued.digest, queued.parts, bytes(queued.bundle)) == (second, "", 0, b"")
    # The new national body holds nothing from this instance: the tournament waits for it.
    assert waiting(tournament) == [tournament]
    entry = AuditEntry.objects.filter(action="federation.target_changed").latest("sequence")
    assert entry.before == {"url": OLD}
    assert entry.after == {"url": NEW, "token": "bct_newt...", "pushes_moved": 1}
    assert "bct_newtoken1234" not in entry.content()
    relay.calls.clear()
    assert push.run(queued.pk, by=policy.SYSTEM) == "delivered"
    assert relay.calls and all(url.startswith(NEW) for _method, url in relay.calls)


def test_the_same_address_with_a_new_token_changes_the_token(national):
    first = push.set_target(OLD, "bct_first0000", by=policy.SYSTEM)
    Push.objects.create(target=first, tournament=national.record.tournament, state=Push.State.DELIVERED)
    again = push.set_target(OLD.rstrip("/"), "bct_second000", by=policy.SYSTEM)
    assert again.pk == first.pk and again.token == "bct_second000"
    assert PublishTarget.objects.count() == 1
    entry = AuditEntry.objects.filter(action="federation.target_token_changed").get()
    assert entry.after == {"url": OLD, "token": "bct_seco..."}
    assert push.set_target(OLD, "bct_second000", by=policy.SYSTEM).pk == first.pk  # nothing changed: no entry
    assert AuditEntry.objects.filter(action="federation.target_token_changed").count() == 1


def test_a_new_address_while_a_push_is_being_sent_is_refused_saying_why(national):
    first = push.set_target(OLD, national.token, by=policy.SYSTEM)
    Push.objects.create(target=first, tournament=national.record.tournament, state=Push.State.SENDING)
    with pytest.raises(push.TargetBusy, match=r"is being sent to http://127\.0\.0\.1:1/api/federation/"):
        push.set_target(NEW, national.token, by=policy.SYSTEM)
    with pytest.raises(CommandError, match="once it is delivered or stopped"):
        call_command("federation_target", url=NEW, token=national.token)
    assert push.target() == first and PublishTarget.objects.count() == 1
