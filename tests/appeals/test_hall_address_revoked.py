"""The hall screen's address can be revoked (issue #42): its token was the tournament's number
signed, the same for ever, so an address passed beyond the room (a lost screen, a photo of the
notice board) showed the board and standings to whoever held it. The chief director revokes it
on the address's page (an audited step); the old address is refused saying why and what to do,
and the notice board gives the new one."""

import pytest
from django.core.exceptions import PermissionDenied

from appeals import services
from appeals.notice_board import hall_token
from audit.models import AuditEntry
from core import policy
from tests.appeals.conftest import shown
from tests.conftest import page_in
from tests.test_translations import compiled  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db

REFUSED = (
    "This address of the hall screen was revoked by the tournament's chief director. Ask a director of "
    "the tournament for the new address."
)


def address(tournament):
    return f"/hall/{hall_token(tournament)}/"


def test_the_chief_director_revokes_the_address_and_the_old_one_is_refused(case, client):
    tournament = case.record.tournament
    old = address(tournament)
    assert client.get(old).status_code == 200
    client.force_login(case.chief)
    page = shown(client.get(f"/appeals/board/{tournament.pk}/hall-address/"))
    assert f'href="{old}"' in page and "Revoke this address" in page
    response = client.post(f"/appeals/board/{tournament.pk}/hall-address/")
    assert response.status_code == 302
    new = address(tournament)
    assert new != old
    page = shown(client.get(f"/appeals/board/{tournament.pk}/hall-address/"))
    assert "The old address of the hall screen is refused from now on; open the new one below." in page
    assert f'href="{new}"' in page and f'href="{old}"' not in page
    assert "The previous address was revoked at" in page and "by Chris Chief." in page
    client.logout()
    refused = client.get(old)
    assert refused.status_code == 410
    assert REFUSED in shown(refused)
    assert "Standings" not in shown(refused) and "Log out" not in shown(refused)
    assert client.get(new).status_code == 200
    entry = AuditEntry.objects.filter(action="hall_address.revoked").get()
    assert entry.actor == case.chief
    assert entry.summary == f"{tournament.name}: the hall screen's address revoked, a new one issued"


def test_revoked_again_the_second_address_goes_too(case):
    tournament = case.record.tournament
    first = address(tournament)
    services.revoke_hall_address(tournament=tournament, by=case.chief)
    second = address(tournament)
    services.revoke_hall_address(tournament=tournament, by=case.chief)
    assert len({first, second, address(tournament)}) == 3


def test_a_director_is_given_the_address_but_may_not_revoke_it(case, client):
    tournament = case.record.tournament
    client.force_login(case.director)
    page = shown(client.get(f"/appeals/board/{tournament.pk}/hall-address/"))
    assert f'href="{address(tournament)}"' in page and "Revoke this address" not in page
    before = address(tournament)
    response = client.post(f"/appeals/board/{tournament.pk}/hall-address/")
    assert response.status_code == 403
    assert f"Only the chief director of {tournament} revokes the hall screen's address." in shown(response)
    assert address(tournament) == before
    with pytest.raises(PermissionDenied):
        services.revoke_hall_address(tournament=tournament, by=case.director)
    assert policy.may(case.chief, "revoke_hall_address", tournament)


def test_the_refusal_reads_in_the_readers_language(case, client, compiled):
    tournament = case.record.tournament
    old = address(tournament)
    services.revoke_hall_address(tournament=tournament, by=case.chief)
    client.cookies["django_language"] = "nl"
    assert "Dit adres van het zaalscherm is ingetrokken" in shown(client.get(old))
    assert "Adres van het zaalscherm ·" in page_in(
        client, case.chief, f"/appeals/board/{tournament.pk}/hall-address/", "nl"
    )
