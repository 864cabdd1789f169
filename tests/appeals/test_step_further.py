"""The door for a player's further appeal, lodged through a director (appeals:case-further, Law 93C)."""

import pytest

from appeals import services
from tests.appeals.conftest import ready, refused, regulate, shown, take, vote_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def decided(case):
    regulate(case, further_appeal="advisory")
    appeal, body, _hearing = ready(case)
    vote_all(body, "uphold")
    return services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="Pass is a LA")


def test_a_director_lodges_it_for_a_player(case, client, decided):
    page = shown(
        take(client, case.director, decided, "further", player=case.north.pk, grounds="The committee misread 16B1a")
    )
    assert "Recorded." in page
    further = decided.further
    assert (further.origin, further.side, further.lodged_by, further.binding) == ("player", "NS", case.north, False)


def test_no_player_chosen_is_refused_by_name(case, client, decided):
    assert "player: Choose the player." in shown(
        take(client, case.director, decided, "further", player="", grounds="Again")
    )
    assert not hasattr(type(decided).objects.get(pk=decided.pk), "further")


def test_a_member_of_the_body_may_not(case, client, decided):
    response = take(client, case.members[0], decided, "further", player=case.north.pk, grounds="Again")
    assert refused(response, "a further appeal is lodged through a director (Law 92C).")
