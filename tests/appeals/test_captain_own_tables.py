"""A team's non-playing captain sees and acts on the team's rulings and appeals, on the home page
and on /appeals/mine/ alike (issue #42): /appeals/mine/ listed the team's rulings to a captain who
does not play, but the home page showed them no card, and the ruling's page and the request to
appeal answered 404 ("view_ruling" left captains out). One rule decides it now: the policy's
``own_tables`` (core.policy.own), which both pages ask."""

from unittest import mock

import pytest

from appeals import services
from appeals.models import AppealRequest
from core import policy, roles
from scoring import services as scoring_services
from tests.appeals.conftest import POSTED, SOON, shown, team_event
from tests.appeals.test_home_cards import card, rows
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def teams(case):
    """Team 1 (Lions) with its non-playing captain, who has a login; a ruling at the open-room
    table, the session's official score posted at 21:00, so its appeal period runs to 21:30."""
    teams = team_event(case.record, case.director)
    teams.user = make_user("skipper", role=roles.PLAYER)
    teams.captain.user = teams.user
    teams.captain.save(update_fields=["user"])
    scoring_services.post_official_scores(session=teams.session, at=POSTED, by=policy.SYSTEM)
    teams.case = case
    return teams


def page(client, user, url):
    client.force_login(user)
    with mock.patch("django.utils.timezone.now", return_value=SOON):
        response = client.get(url)
    assert response.status_code == 200, url
    return shown(response)


def test_the_non_playing_captain_is_not_a_member_of_the_team(teams):
    assert teams.captain not in teams.team1.members.all()  # the case this file is about
    assert list(policy.own_entries(teams.user)) == [teams.team1]


def test_the_captains_home_page_shows_the_teams_ruling_with_its_clock(teams, client):
    home = page(client, teams.user, "/")
    mine = card(home, "Rulings at your tables")
    assert rows(mine) == [teams.ruling.pk]
    assert ">20 minutes left</span>" in mine
    assert f'<a href="/appeals/mine/#ruling-{teams.ruling.pk}" class="ask-to-appeal">Ask to appeal</a>' in mine
    assert "Lions" in card(home, "Your entries")
    assert page(client, teams.user, f"/rulings/{teams.ruling.pk}/")  # the row's ruling opens for them


def test_the_captains_own_page_lists_the_same_ruling_and_takes_their_request(teams, client):
    mine = page(client, teams.user, "/appeals/mine/")
    assert f'<tr id="ruling-{teams.ruling.pk}">' in mine
    client.force_login(teams.user)
    with mock.patch("django.utils.timezone.now", return_value=SOON):
        response = client.post(f"/appeals/request/{teams.ruling.pk}/", {"grounds": "The hesitation was not ours"})
    assert response.status_code == 302, shown(response)[-2000:]
    request = AppealRequest.objects.get(ruling=teams.ruling)
    assert (request.player, request.state) == (teams.captain, AppealRequest.State.OPEN)


def test_both_pages_list_the_teams_appeal_for_the_captain(teams, client):
    appeal = services.lodge_appeal(
        ruling=teams.ruling, by=teams.case.director, grounds="Judgement", player=teams.captain, now=SOON
    )
    home = card(page(client, teams.user, "/"), "Rulings at your tables")
    assert f'<a href="/appeals/{appeal.pk}/">{appeal}</a>' in home[home.index("Your appeals") :]
    assert f'href="/appeals/{appeal.pk}/"' in page(client, teams.user, "/appeals/mine/")
    assert page(client, teams.user, f"/appeals/{appeal.pk}/")


def test_a_player_of_another_team_sees_neither(teams, client):
    other = make_user("outsider", role=roles.PLAYER)
    outsider = scoring_services.register_player(
        authority=teams.case.record.authority,
        first_name="O",
        last_name="Utsider",
        membership_number="o-1",
        by=policy.SYSTEM,
    )
    outsider.user = other
    outsider.save(update_fields=["user"])
    assert list(policy.own_entries(other)) == []
    assert "Rulings at your tables" not in page(client, other, "/")
    assert f'id="ruling-{teams.ruling.pk}"' not in page(client, other, "/appeals/mine/")
