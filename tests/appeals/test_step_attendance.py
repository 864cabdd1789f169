"""The door that records who attended the hearing (appeals:case-attendance)."""

import pytest

from core import policy
from tests.appeals.conftest import ready, refused, shown, take

pytestmark = pytest.mark.django_db


def test_a_member_sitting_on_the_case_records_a_player_of_each_side(case, client):
    appeal, _body, hearing = ready(case)
    assert "Recorded." in shown(take(client, case.members[0], appeal, "attendance", player=case.east.pk))
    take(client, case.director, appeal, "attendance", player=case.north.pk, hearing=hearing.pk)
    assert sorted(hearing.attendance.values_list("side", flat=True)) == ["EW", "NS"]


def test_no_player_chosen_is_refused_by_name(case, client):
    appeal, _body, hearing = ready(case)
    assert "player: Choose the player." in shown(take(client, case.director, appeal, "attendance", player=""))
    assert not hearing.attendance.exists()


def test_the_chief_director_of_another_role_may_not_when_he_neither_directs_nor_sits(case, client):
    appeal, _body, hearing = ready(case)
    from core import roles
    from scoring import services as scoring_services
    from tests.conftest import make_user

    scorer = make_user("sam")
    scoring_services.appoint_official(
        tournament=case.record.tournament, user=scorer, role=roles.SCORER, by=policy.SYSTEM
    )
    response = take(client, scorer, appeal, "attendance", player=case.east.pk)
    assert refused(response, "Only a director of Club Championship or a member sitting on the case records the hearing")
    assert not hearing.attendance.exists()
