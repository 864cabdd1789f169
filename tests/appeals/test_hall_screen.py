"""The hall's screen without a login (issue #42, item 9): the notice board needed one, so the room
read a user's name and "Log out". Its officials find a signed address on the notice board; the
screen shows the board and the standings, no user's controls, names only as the regulations
allow, and reloads itself; a token not signed for it is a 404."""

import pytest

from appeals.notice_board import hall_token
from tests.appeals.conftest import ready, regulate

pytestmark = pytest.mark.django_db


def address(tournament):
    return f"/hall/{hall_token(tournament)}/"


def test_the_notice_board_gives_its_officials_the_hall_screens_address(case, client):
    client.force_login(case.director)
    page = client.get(f"/appeals/board/{case.record.tournament.pk}/").content.decode()
    assert f'href="{address(case.record.tournament)}"' in page
    client.force_login(case.members[0])  # an appeals member reads the board but does not hand the screen out
    page = client.get(f"/appeals/board/{case.record.tournament.pk}/").content.decode()
    assert "/hall/" not in page


def test_the_hall_screen_needs_no_login_and_shows_no_users_controls(case, client):
    ready(case)
    client.force_login(case.director)  # even opened by a signed-in official
    response = client.get(address(case.record.tournament))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Log out" not in page and case.director.username not in page
    assert 'class="site-header"' not in page and 'id="language"' not in page
    assert '<main data-refresh="30">' in page and "js/hall.js" in page
    assert "In progress" in page and "Room 2" in page
    assert "Standings · <bdi>" in page
    client.logout()
    assert client.get(address(case.record.tournament)).status_code == 200


def test_names_on_the_hall_screen_only_as_the_regulations_allow(case, client):
    from scoring import recalculation

    recalculation.rescore_everything(case.record.session.event)
    contestant = case.ruling.result.ns
    name = " – ".join(str(player) for player in contestant.members.all())
    assert name not in client.get(address(case.record.tournament)).content.decode()
    regulate(case, casebook_names="names")
    assert name in client.get(address(case.record.tournament)).content.decode()


def test_a_token_not_signed_for_the_hall_screen_is_not_found(case, client):
    from django.core import signing

    pk = case.record.tournament.pk
    assert client.get(f"/hall/{signing.dumps(pk)}/").status_code == 404  # another salt
    assert client.get(f"/hall/{pk}/").status_code == 404
