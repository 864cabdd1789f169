"""The IMPs of a teams traveller and of a team's scorecard (issue #42, item 5): both were empty
on every row, where the match page had them. Each row shows the board's IMPs in its match (the
two rooms compared) to the team that sat each way at that table."""

import re

import pytest

from scoring import recalculation
from scoring.models import MatchScore
from tests.appeals.conftest import case, team_event  # noqa: F401 (case is a fixture)

pytestmark = pytest.mark.django_db


def cells(page, css):
    return re.findall(rf'<td class="{css}"[^>]*>([^<]*)</td>', page)


@pytest.fixture
def teams(case):  # noqa: F811
    teams = team_event(case.record, case.director)
    recalculation.rescore_everything(teams.event)
    return teams


def test_the_teams_traveller_shows_each_rooms_imps(case, client, teams):  # noqa: F811
    board = teams.session.boards.get(number=1)
    score = MatchScore.objects.get(match__home=teams.team1)
    assert score.boards == [{"board": 1, "home": "10", "away": "-10"}]  # 4S made and 4S-1: 470, 10 IMPs
    client.force_login(case.director)
    page = client.get(f"/boards/{board.pk}/").content.decode()
    # The open room (Lions N-S): 10 to N-S; the closed room (Tigers N-S): 10 to E-W.
    assert cells(page, "num imps") == ["10", "-10", "-10", "10"]


def test_a_teams_scorecard_shows_its_imps(case, client, teams):  # noqa: F811
    client.force_login(case.director)
    page = client.get(f"/contestants/{teams.team1.pk}/").content.decode()
    table = page[page.index("<tbody>") : page.index("</tbody>")]
    assert re.findall(r'<td class="num" dir="ltr">(\d+)</td><td class="num" dir="ltr"></td></tr>', table) == [
        "10",
        "10",
    ]
