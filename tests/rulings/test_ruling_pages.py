"""The rulings list and the national search a page of 50 at a time (issue #19: both listed up to
500 rulings on one page): the count of all, "Page X of Y", links that keep every filter, a page
number past the end or not a number, and the same queries on any page however many rulings."""

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from core import policy, roles
from rulings import services
from scoring import services as scoring_services
from tests.conftest import build_pairs_tournament, make_user

pytestmark = pytest.mark.django_db

CLAIMS, UI = 52, 3  # 55 rulings: two pages of the list, and two of the claims alone


def _rule(record, director, n, kind, laws):
    return services.rule(
        result=record.results[n % len(record.results)],
        director=director,
        kind=kind,
        laws=laws,
        facts=f"Case {n}",
        ruling_text="Result stands",
        outcome="result_stands",
    )


@pytest.fixture(scope="module")
def many(django_db_setup, django_db_blocker):
    """55 rulings (numbers 1 to 55 in the order recorded): the first three about unauthorised
    information (Law 16B), the rest claims (Law 70D); built once, rolled back after the module."""
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]),
        transaction.atomic(),
    ):
        record = build_pairs_tournament(tables=4)
        record.results = [
            scoring_services.record_result(
                board=record.boards[0],
                round=record.round,
                table=table,
                ns=record.pairs[t],
                ew=record.pairs[4 + t],
                contract="4S",
                declarer="N",
                tricks=10,
                by=policy.SYSTEM,
            )
            for t, table in enumerate(record.tables)
        ]
        director = make_user("page-td")
        scoring_services.appoint_official(
            tournament=record.tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM
        )
        rulings = [_rule(record, director, n, "ui", "16B1a") for n in range(UI)]
        rulings += [_rule(record, director, n, "claim", "70D1") for n in range(UI, UI + CLAIMS)]
        record.director, record.rulings = director, rulings
        yield record
        transaction.set_rollback(True)


@pytest.fixture
def reader(many):
    client = Client()
    client.force_login(many.director)
    return client


def shown(html):
    """The ruling numbers in the list's first column, top to bottom."""
    return [int(n) for n in re.findall(r'<td class="num"><a href="/rulings/\d+/">(\d+)</a>', html)]


def links(html):
    """The pager's links: {"prev"/"next": query string}, with &amp; read back as &."""
    return {rel: href.replace("&amp;", "&") for rel, href in re.findall(r'rel="(prev|next)" href="([^"]*)"', html)}


def test_the_first_page_shows_50_and_the_count_of_all(reader, many):
    html = reader.get(reverse("rulings:rulings")).content.decode()
    assert "55 rulings found." in html
    assert shown(html) == list(range(55, 5, -1))  # newest first
    assert re.search(r"Page <bdi dir=\"ltr\">1</bdi> of <bdi dir=\"ltr\">2</bdi>", html)
    assert links(html) == {"next": "?page=2"}


def test_the_51st_ruling_opens_page_2(reader, many):
    html = reader.get(reverse("rulings:rulings"), {"page": 2}).content.decode()
    assert "55 rulings found." in html
    assert shown(html) == [5, 4, 3, 2, 1]
    assert re.search(r"Page <bdi dir=\"ltr\">2</bdi> of <bdi dir=\"ltr\">2</bdi>", html)
    assert links(html) == {"prev": "?page=1"}


def test_the_links_keep_every_filter(reader, many):
    query = {"tournament": many.tournament.pk, "kind": "claim", "law": "70", "state": "draft"}
    html = reader.get(reverse("rulings:rulings"), query).content.decode()
    assert "52 rulings found." in html and len(shown(html)) == 50
    following = links(html)["next"]
    assert following == f"?tournament={many.tournament.pk}&kind=claim&law=70&state=draft&page=2"
    html = reader.get(reverse("rulings:rulings") + following).content.decode()
    assert shown(html) == [5, 4]  # the first two claims; the three Law 16B rulings stay out
    assert links(html) == {"prev": f"?tournament={many.tournament.pk}&kind=claim&law=70&state=draft&page=1"}


@pytest.mark.parametrize(
    ("page", "first"),
    [("999", 5), ("3", 5), ("0", 5), ("-1", 5), ("abc", 55), ("", 55), ("1.5", 55), ("2x", 55)],
)
def test_a_page_past_the_end_shows_the_last_and_junk_the_first(reader, many, page, first):
    response = reader.get(reverse("rulings:rulings"), {"page": page})
    assert response.status_code == 200
    assert shown(response.content.decode())[0] == first


def test_one_page_needs_no_page_links(reader, many):
    html = reader.get(reverse("rulings:rulings"), {"kind": "ui"}).content.decode()
    assert "3 rulings found." in html and shown(html) == [3, 2, 1]
    assert 'class="pager"' not in html and links(html) == {}


def test_the_queries_are_the_same_on_any_page_however_many_rulings(reader, many):
    def count(**query):
        with CaptureQueriesContext(connection) as queries:
            assert reader.get(reverse("rulings:rulings"), query).status_code == 200
        return len(queries)

    few = count(kind="ui")  # 3 rulings, one page
    assert count() == few  # 50 of 55
    assert count(page=2) == few
    assert count(kind="claim", page=2) == few


# --- The national search -----------------------------------------------------------------------


@pytest.fixture
def national(many):
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("page-national", password="x"))
    return client


def test_the_national_search_pages_keep_the_search(national, many):
    url = reverse("national:national-search")
    html = national.get(url, {"law": "70", "keyword": "Case"}).content.decode()
    assert "52 rulings found." in html
    following = links(html)["next"]
    assert following == "?law=70&keyword=Case&page=2"
    html = national.get(url + following).content.decode()
    assert "52 rulings found." in html
    assert sorted(int(n) for n in re.findall(r'<tr class="ruling-row">\s*<td class="num"><a [^>]*>(\d+)<', html)) == [
        4,
        5,
    ]
    assert links(html) == {"prev": "?law=70&keyword=Case&page=1"}
    # The CSV is the whole search, not a page.
    csv = national.get(url, {"law": "70", "keyword": "Case", "page": "2", "format": "csv"}).content.decode()
    assert len(csv.strip().splitlines()) == 1 + CLAIMS


def test_the_national_search_queries_do_not_grow_with_the_rulings(national, many):
    def count(**query):
        with CaptureQueriesContext(connection) as queries:
            assert national.get(reverse("national:national-search"), query).status_code == 200
        return len(queries)

    few = count(law="16B")
    assert count() == few
    assert count(page=2) == few


@pytest.mark.parametrize(
    ("language", "at", "previous", "following"),
    [
        ("he", 'עמוד <bdi dir="ltr">1</bdi> מתוך <bdi dir="ltr">2</bdi>', None, "העמוד הבא"),
        ("el", 'Σελίδα <bdi dir="ltr">2</bdi> από <bdi dir="ltr">2</bdi>', "Προηγούμενη σελίδα", None),
        ("uk", 'Сторінка <bdi dir="ltr">1</bdi> з <bdi dir="ltr">2</bdi>', None, "Наступна сторінка"),
    ],
)
def test_the_page_links_in_the_readers_language(reader, many, language, at, previous, following):
    """Right to left in Hebrew, the numbers isolated left to right; the count in the plural of
    the language."""
    reader.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = reader.get(reverse("rulings:rulings"), {"page": 2 if previous else 1}).content.decode()
    assert at in html
    nav = re.search(r'<nav class="pager" aria-label="([^"]+)">(.*?)</nav>', html, re.S)
    assert nav and nav.group(1) != "Pages"
    assert (previous in nav.group(2)) if previous else 'rel="prev"' not in nav.group(2)
    assert (following in nav.group(2)) if following else 'rel="next"' not in nav.group(2)
    if language == "he":
        assert '<html lang="he" dir="rtl">' in html and "נמצאו 55 פסיקות." in html
