"""The pages of the competition record, for each role."""

import datetime

import pytest
from django.urls import reverse

from core import policy
from scoring import services
from tests.conftest import table_result

pytestmark = pytest.mark.django_db


def test_anonymous_is_sent_to_the_login_page(client, record):
    response = client.get(reverse("scoring:tournament", args=[record.tournament.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")
    assert client.get("/login/").status_code == 200


def test_login_with_a_password(client, record, people):
    response = client.post("/login/", {"username": "director", "password": "pw-director"})
    assert response.status_code == 302
    assert "Welcome, Dana" in client.get("/").content.decode()


@pytest.mark.parametrize(
    "role,heading",
    [
        ("director", "Tournaments you officiate at"),
        ("chief", "Tournaments you officiate at"),
        ("scorer", "Tournaments you officiate at"),
        ("appeals", "Appeals"),
        ("auditor", "Audit trail"),  # an auditor's home is the national body's desk
        ("player", "Your entries"),
    ],
)
def test_each_role_has_its_home(client, record, people, role, heading):
    client.force_login(getattr(people, role))
    page = client.get("/", follow=True).content.decode()
    assert heading in page
    assert "Club Championship" in page


def test_pages_of_the_tournament_render_the_record(client, record, people):
    table_result(record, 0, contract="4S", declarer="N", tricks=10, lead="D2")
    client.force_login(people.player)
    assert "Pairs" in client.get(reverse("scoring:tournament", args=[record.tournament.pk])).content.decode()
    event_page = client.get(reverse("scoring:event", args=[record.event.pk])).content.decode()
    assert "P1 Player1" in event_page
    assert "nbo-1" not in event_page  # membership numbers are for officials
    board_page = client.get(reverse("scoring:board", args=[record.boards[0].pk])).content.decode()
    assert "AK96" in board_page and "4S" in board_page and "420" in board_page
    standings = client.get(reverse("scoring:standings", args=[record.event.pk])).content.decode()
    assert "Not yet calculated" in standings


def test_session_page_shows_the_clocks_in_the_tournament_time_zone(client, record, people):
    client.force_login(people.director)
    page = client.get(reverse("scoring:session", args=[record.session.pk])).content.decode()
    assert "the correction and appeal periods have not started" in page
    # 20:00 UTC in May is 21:00 in London.
    services.post_official_scores(
        session=record.session, at=datetime.datetime(2026, 5, 1, 20, 0, tzinfo=datetime.UTC), by=policy.SYSTEM
    )
    page = client.get(reverse("scoring:session", args=[record.session.pk])).content.decode()
    assert "2026-05-01T21:30:00+01:00" in page


def test_another_tournament_is_not_found_for_an_outsider(client, record, other_record, people):
    client.force_login(people.director)
    for name, obj in [
        ("tournament", other_record.tournament),
        ("event", other_record.event),
        ("session", other_record.session),
        ("board", other_record.boards[0]),
    ]:
        assert client.get(reverse(f"scoring:{name}", args=[obj.pk])).status_code == 404


def test_hebrew_pages_are_right_to_left(client, record, people):
    client.force_login(people.player)
    client.post("/i18n/setlang/", {"language": "he", "next": "/"})
    page = client.get("/").content.decode()
    assert 'dir="rtl"' in page and 'lang="he"' in page


def test_the_board_page_shows_the_frequency_table_once(client, record, people):
    for table, tricks in enumerate([10, 9]):  # pairs 1 v 3 and 2 v 4
        table_result(record, table, contract="4S", declarer="N", tricks=tricks)
    client.force_login(people.director)
    page = client.get(reverse("scoring:board", args=[record.boards[0].pk])).content.decode()
    assert page.count('class="freq"') == 1


def test_the_body_s_regulations_are_reached_from_its_pages_by_those_who_may_read_them(client, record, people):
    """The regulations page (settings, VP scales) had no link to it: an auditor reaches it
    from the national desk and from the tournament's page; a director sees the body's name
    without a link, and the page refuses him."""
    settings_url = reverse("scoring:authority-settings", args=[record.authority.pk])
    tournament_url = reverse("scoring:tournament", args=[record.tournament.pk])
    link = f'href="{settings_url}"'
    client.force_login(people.auditor)
    assert link in client.get(reverse("national:national-home")).content.decode()
    assert link in client.get(tournament_url).content.decode()
    assert client.get(settings_url).status_code == 200
    client.force_login(people.director)
    page = client.get(tournament_url).content.decode()
    assert record.authority.name in page and link not in page
    assert client.get(settings_url).status_code == 404


def test_the_national_links_follow_the_policy_not_the_assignment_alone(client, record, people):
    """The bar's "National body" links are the policy's "national" rule (its group and its
    assignment), as the desk's pages are: someone whose auditor role was taken away but whose
    assignment row stayed sees no link to pages that would refuse them (issue #38)."""
    from core import roles

    national = reverse("national:national-home")
    client.force_login(people.auditor)
    assert f'href="{national}"' in client.get(reverse("rulings:rulings")).content.decode()
    people.auditor.groups.remove(people.auditor.groups.get(name=roles.NATIONAL_AUDITOR))
    assert people.auditor.auditing.exists()
    client.force_login(people.auditor)
    assert f'href="{national}"' not in client.get(reverse("rulings:rulings")).content.decode()
    response = client.get(national)
    assert response.status_code == 403
    assert "Only the national body&#x27;s auditors may read these pages." in response.content.decode()
