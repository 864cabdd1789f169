"""A teams traveller's IMPs on a 390x844 phone (issue #42, item 5): each row, stacked as a card,
reads the board's IMPs in its match to each side (the columns were empty), and the team's
scorecard too."""

import pytest

from scoring import recalculation
from tests.appeals.conftest import case, team_event  # noqa: F401 (case is a fixture)
from tests.e2e.test_appeal_journey import fits, on_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_director_reads_a_teams_boards_imps_on_the_phone(browser, live_server, case):  # noqa: F811
    teams = team_event(case.record, case.director)
    recalculation.rescore_everything(teams.event)
    board = teams.session.boards.get(number=1)
    page = on_phone(browser, live_server, case.director)
    page.goto(f"{live_server.url}/boards/{board.pk}/")
    imps = page.locator("td.imps")
    assert [imps.nth(i).inner_text().strip() for i in range(imps.count())] == ["10", "-10", "-10", "10"]
    assert imps.first.is_visible()
    fits(page, "phone-teams-traveller-imps")
    page.goto(f"{live_server.url}/contestants/{teams.team1.pk}/")
    assert "10" in page.locator("tbody").inner_text()
    fits(page)
