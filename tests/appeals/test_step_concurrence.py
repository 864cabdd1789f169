"""The concurrence door (appeals:case-concurrence): a director records a partner's agreement (Law 92D)."""

import pytest

from tests.appeals.conftest import committee, lodge, refused, shown, take

pytestmark = pytest.mark.django_db


def test_a_director_records_the_partners_concurrence(case, client):
    appeal = lodge(case)
    page = shown(
        take(client, case.director, appeal, "concurrence", action="concurrence", player=case.south.pk, how="in_person")
    )
    assert "Recorded." in page
    assert appeal.concurrences.get(player=case.south).how == "in_person"


def test_no_player_chosen_is_refused_by_name(case, client):
    appeal = lodge(case)
    page = shown(take(client, case.director, appeal, "concurrence", player="", how="in_person"))
    assert "player: Choose the player." in page
    assert not appeal.concurrences.filter(player=case.south).exists()


def test_a_member_of_the_body_may_not(case, client):
    appeal = lodge(case)
    committee(case, appeal)
    response = take(client, case.members[0], appeal, "concurrence", player=case.south.pk, how="in_person")
    assert refused(response, "is not a director of Club Championship", "(Law 92D)")
    assert not appeal.concurrences.filter(player=case.south).exists()
