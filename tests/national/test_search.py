"""The national body's search: an auditor finds the rulings and appeals of the tournaments under
their body, by law, kind, subject, director, appeals body member, event, date and outcome, as a
list or as CSV; nobody else opens the page."""

import csv
import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse

from core import policy, roles
from national.views import CSV_HEADER
from rulings import services as rulings_services
from rulings.models import Ruling
from scoring import services as scoring_services
from scoring.models import Result, Tournament
from tests.demo import load_small_demo

pytestmark = pytest.mark.django_db


DEMO = "Spring Congress 2026"
OTHER = "Reykjavik Open 2026"


@pytest.fixture(scope="module")
def demo_record(django_db_setup, django_db_blocker):
    """The small demo (14 rulings, with appeals waiting at every step) and a claim ruling at the other body's tournament,
    built once per module and rolled back after it."""
    with django_db_blocker.unblock():
        with transaction.atomic():
            load_small_demo()
            other_director = get_user_model().objects.create_user(username="reykjavik-td", password="x")
            other = Result.objects.get(board__session__event__tournament__name=OTHER)
            # A ruling is recorded by a director of its tournament (the service asks the policy).
            scoring_services.appoint_official(
                tournament=other.board.session.event.tournament,
                user=other_director,
                role=roles.DIRECTOR,
                by=policy.SYSTEM,
            )
            rulings_services.rule(
                result=other,
                director=other_director,
                kind=Ruling.Kind.CLAIM,
                laws="70A",
                give=True,
                facts="Declarer claimed with a trump outstanding.",
                ruling_text="Result stands.",
            )
            yield Tournament.objects.get(name=DEMO)
            transaction.set_rollback(True)


@pytest.fixture
def as_user(client, demo_record):
    def login(username):
        client.force_login(get_user_model().objects.get(username=username))
        return client

    return login


def user_id(username):
    return get_user_model().objects.get(username=username).pk


def found(client, **params):
    """The CSV rows of a search, as dictionaries."""
    response = client.get(reverse("national:national-search"), {**params, "format": "csv"})
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def numbers(client, **params):
    return {int(row["ruling"]) for row in found(client, **params)}


def test_an_auditor_sees_their_body_and_not_another(as_user):
    client = as_user("auditor")
    rows = found(client)
    assert {row["tournament"] for row in rows} == {DEMO}
    assert {int(row["ruling"]) for row in rows} == set(range(1, 15))
    page = client.get(reverse("national:national-search"))
    assert page.status_code == 200
    assert OTHER not in page.content.decode()
    ruling = Ruling.objects.get(result__board__session__event__tournament__name=DEMO, number=1)
    assert f'href="/rulings/{ruling.pk}/"' in page.content.decode()
    assert f'href="/appeals/{ruling.appeals.get().pk}/"' in page.content.decode()


def test_a_superuser_sees_every_body(as_user):
    rows = found(as_user("admin"), keyword="claim")
    assert sorted(row["tournament"] for row in rows) == sorted([DEMO, DEMO, DEMO, OTHER])  # claims 4, 13 and 14


@pytest.mark.parametrize(
    "params, expected",
    [
        ({"law": "16B"}, {1, 10}),
        ({"law": "12C1c"}, {1, 11}),
        ({"law": "Law 12"}, {1, 2, 5, 6, 10, 11}),
        ({"law": "27"}, {9}),
        ({"kind": "mi"}, {2, 11}),
        ({"kind": "mi", "law": "20F"}, {2}),
        ({"keyword": "tempo"}, {1, 10}),
        ({"keyword": "claim"}, {4, 13, 14}),
        ({"keyword": "revoke"}, {3}),
        ({"keyword": "misinformation"}, {2, 11}),
        ({"keyword": "insufficient bid"}, {6, 9}),
        ({"keyword": "system card"}, {2}),
        ({"outcome": "rectification"}, {3}),
        ({"appeal": "vary"}, {1}),
        ({"appeal": "uphold"}, {2}),
        ({"appeal": "without_merit"}, {2}),
        ({"appeal": "appealed"}, {1, 2, 5, 7, 10, 11, 12}),
        ({"appeal": "not_appealed"}, {3, 4, 6, 8, 9, 13, 14}),
        ({"outcome": "adjusted", "appeal": "appealed"}, {1, 2, 5, 11}),
    ],
)
def test_filters(as_user, params, expected):
    assert numbers(as_user("auditor"), **params) == expected


def test_filter_by_director_member_and_event(as_user):
    client = as_user("auditor")
    assert numbers(client, director=user_id("chief")) == {6, 12}
    assert numbers(client, member=user_id("appeals2")) == {1, 2, 5, 7}
    teams = Tournament.objects.get(name=DEMO).events.get(name="Swiss Teams")
    assert numbers(client, event=teams.pk) == {10, 11, 12}


def test_filter_by_date_range(as_user):
    for ruling in Ruling.objects.filter(result__board__session__event__tournament__name=DEMO, given_at__isnull=False):
        Ruling.objects.filter(pk=ruling.pk).update(
            given_at=datetime.datetime(2026, 4, ruling.number, 12, tzinfo=datetime.UTC)
        )
    client = as_user("auditor")
    assert numbers(client, date_from="2026-04-05", date_to="2026-04-07") == {5, 6, 7}
    assert numbers(client, date_to="2026-04-02") == {1, 2}
    # Drafts (8, 9) were never given: their day is the day they were recorded, today.
    assert numbers(client, date_from="2026-04-10", date_to="2026-04-30") == {10, 11, 12, 13, 14}


def test_an_unreadable_filter_is_left_out(as_user):
    assert numbers(as_user("auditor"), date_from="yesterday", director="x") == set(range(1, 15))


def test_csv_has_a_header_and_one_row_per_ruling(as_user):
    client = as_user("auditor")
    response = client.get(reverse("national:national-search"), {"kind": "ui", "format": "csv"})
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"].startswith("attachment;")
    lines = list(csv.reader(io.StringIO(response.content.decode())))
    assert lines[0] == CSV_HEADER
    assert len(lines) == 1 + 2
    first = next(line for line in lines[1:] if line[0] == "1")
    assert first[CSV_HEADER.index("laws")] == "16B1a 73C 12C1c"
    assert first[CSV_HEADER.index("appeal_outcomes")] == "vary"
    assert first[CSV_HEADER.index("kind")] == "ui"


def test_the_list_shows_one_row_per_ruling(as_user):
    page = as_user("auditor").get(reverse("national:national-search"), {"law": "16B"})
    assert page.content.decode().count('class="ruling-row"') == 2


@pytest.mark.parametrize("username", ["player", "director", "chief", "appeals"])
def test_others_are_refused(as_user, username):
    client = as_user(username)
    assert client.get(reverse("national:national-search")).status_code == 403
    assert client.get(reverse("national:national-search"), {"format": "csv"}).status_code == 403


def test_anonymous_readers_are_sent_to_log_in(client, demo_record):
    response = client.get(reverse("national:national-search"))
    assert response.status_code == 302 and "/login/" in response["Location"]
