"""Each role's home page shows what is theirs with its clocks (issue #42, item 10: "the home pages
of a player and a director do not show their own rulings and clocks"). A player: the rulings at
their tables with the appeal period's time left, and their open appeals with the next deadline;
a director: the rulings they gave or drafted that are still open. Never another's.

The clock is held at 21:10 in London, ten minutes after session 1's official score was posted
(tests/appeals/conftest.py): the appeal period of 30 minutes has 20 minutes left."""

import datetime
from unittest import mock

import pytest

from appeals import services
from core import roles
from scoring import services as scoring_services
from tests.appeals.conftest import DEADLINE, SOON, committee, lodge, shown
from tests.conftest import make_user, ruling_at

pytestmark = pytest.mark.django_db


def card(page, heading):
    """The home page's card under ``heading``, up to the end of its section."""
    start = page.index(f"<h2>{heading}</h2>")
    return page[start : page.index("</section>", start)]


def rows(section):
    """The rulings a card lists, by the id of their row (home-ruling-<pk>)."""
    import re

    return [int(pk) for pk in re.findall(r'<tr id="home-ruling-(\d+)">', section)]


@pytest.fixture
def people(case):
    """North (table X) has a login; another director of the tournament gave a ruling at table 1,
    where North did not play; Dana drafted one more at table 2."""
    from core import policy

    case.north_user = make_user("north", role=roles.PLAYER)
    case.north.user = case.north_user
    case.north.save(update_fields=["user"])
    other = make_user("olga", first_name="Olga")
    scoring_services.appoint_official(
        tournament=case.record.tournament, user=other, role=roles.DIRECTOR, by=policy.SYSTEM
    )
    case.elsewhere = ruling_at(case.record.results[0], other, ruling_text="Elsewhere")
    case.draft = ruling_at(case.record.results[1], case.director, give=False, ruling_text="Drafted")
    return case


def home(client, user, now=SOON):
    client.force_login(user)
    with mock.patch("django.utils.timezone.now", return_value=now):
        return shown(client.get("/"))


def test_the_player_sees_the_rulings_at_their_table_with_the_time_left_and_their_appeal(people, client):
    case = people
    appeal = lodge(case)  # N-S appeal ruling 1; the committee sits; the case is to be decided by session 2
    committee(case, appeal)
    page = home(client, case.north_user)
    mine = card(page, "Rulings at your tables")
    assert rows(mine) == [case.ruling.pk]
    row = mine[mine.index(f'id="home-ruling-{case.ruling.pk}"') :]
    assert "Ruling 1</a>" in row and "Under appeal" in row
    assert '<td data-label="Board" class="num">1</td>' in row and '<td data-label="Table" class="num">7</td>' in row
    assert "1 May 2026 21:30 BST (Europe/London)</time>" in row
    assert 'role="timer"' in row and ">20 minutes left</span>" in row
    assert "Ask to appeal" not in row  # their side has appealed it
    appeals = mine[mine.index("Your appeals") :]
    assert (
        f'<a href="/appeals/{appeal.pk}/">Appeal 1</a> · Ruling 1 · Board 1 · Body constituted · decide by' in appeals
    )
    assert "2 May 2026 10:00 BST (Europe/London)</time>" in appeals and ">12 hours, 50 minutes left</span>" in appeals
    assert "Your rulings still open" not in page  # a player directs nothing


def test_while_the_period_runs_the_player_is_led_to_ask_to_appeal_on_their_own_page(people, client):
    case = people
    mine = card(home(client, case.north_user), "Rulings at your tables")
    assert "Given at the table" in mine and ">20 minutes left</span>" in mine
    assert f'<a href="/appeals/mine/#ruling-{case.ruling.pk}" class="ask-to-appeal">Ask to appeal</a>' in mine
    assert f'<tr id="ruling-{case.ruling.pk}">' in shown(client.get("/appeals/mine/"))  # where the link lands
    services.request_appeal(ruling=case.ruling, player=case.north, by=case.north_user, grounds="No")
    assert "Ask to appeal" not in card(home(client, case.north_user), "Rulings at your tables")  # asked already


def test_the_players_hearing_is_the_next_deadline_of_their_appeal(people, client):
    case = people
    appeal = lodge(case)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    committee(case, appeal)
    services.schedule_hearing(
        appeal=appeal, by=case.chief, starts_at=SOON + datetime.timedelta(hours=1), place="Room 2", now=SOON
    )
    appeals = card(home(client, case.north_user), "Rulings at your tables")
    appeals = appeals[appeals.index("Your appeals") :]
    assert "Hearing scheduled · hearing at" in appeals and "1 May 2026 22:10 BST (Europe/London)</time>" in appeals
    assert ">1 hour left</span>" in appeals


def test_after_the_period_the_players_ruling_says_closed_with_no_clock(people, client):
    case = people
    mine = card(home(client, case.north_user, now=DEADLINE + datetime.timedelta(minutes=1)), "Rulings at your tables")
    assert rows(mine) == [case.ruling.pk]
    assert "Final (appeal period passed)" in mine and "closed" in mine and 'role="timer"' not in mine
    assert "Ask to appeal" not in mine and "No appeal of yours is open." in mine


def test_the_director_sees_the_rulings_they_gave_or_drafted_still_open_with_their_clocks(people, client):
    case = people
    page = home(client, case.director)
    mine = card(page, "Your rulings still open")
    assert rows(mine) == [case.draft.pk, case.ruling.pk]  # newest first; not Olga's at table 1
    draft = mine[mine.index(f'id="home-ruling-{case.draft.pk}"') : mine.index(f'id="home-ruling-{case.ruling.pk}"')]
    assert "Draft</td>" in draft and "—</td>" in draft and 'role="timer"' not in draft
    given = mine[mine.index(f'id="home-ruling-{case.ruling.pk}"') :]
    assert "Given at the table" in given and ">20 minutes left</span>" in given
    assert "Ask to appeal" not in mine and "Rulings at your tables" not in page
    later = card(home(client, case.director, now=DEADLINE + datetime.timedelta(minutes=1)), "Your rulings still open")
    assert rows(later) == [case.draft.pk]  # the appeal period has ended: ruling 1 is no longer open


def test_the_other_director_sees_only_their_own_ruling(people, client):
    case = people
    other = case.elsewhere.director
    assert rows(card(home(client, other), "Your rulings still open")) == [case.elsewhere.pk]
