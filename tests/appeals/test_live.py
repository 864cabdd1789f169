"""Live pages (core/live.py, issue #27): a page's poll answers 304 Not Modified, without making
the page, until something it shows changes; then the new page with a new ETag. A poll costs the
same few queries however many rows there are. Deadlines carry their instant for the browser's
countdown. The hall's notice board names appellants only as the regulations allow."""

import datetime
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from appeals import services
from core import policy
from scoring import services as scoring_services
from tests.appeals.conftest import SOON, lodge, ready, regulate, vote_all
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

LIVE = {"HTTP_X_LIVE": "1"}


def pages(case, appeal):
    field = case.record
    return [
        reverse("rulings:ruling", args=[case.ruling.pk]),
        reverse("appeals:appeal", args=[appeal.pk]),
        reverse("appeals:appeals"),
        reverse("appeals:notice-board", args=[field.tournament.pk]),
        reverse("scoring:standings", args=[field.event.pk]),
        reverse("scoring:session", args=[field.session.pk]),
        reverse("scoring:board", args=[field.boards[0].pk]),
    ]


def director_client(case):
    client = Client()
    client.force_login(case.director)
    return client


def etag_of(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    etag = response["ETag"]
    assert f'<meta name="live-version" content="{etag}">' in response.content.decode().replace("&quot;", '"'), url
    return etag


def test_a_poll_is_answered_304_until_the_case_changes(case):
    appeal = lodge(case)
    client = director_client(case)
    etags = {url: etag_of(client, url) for url in pages(case, appeal)}
    for url, etag in etags.items():
        unchanged = client.get(url, HTTP_IF_NONE_MATCH=etag, **LIVE)
        assert unchanged.status_code == 304, url
        assert unchanged.content == b""
        assert unchanged["ETag"] == etag

    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)

    for url, etag in etags.items():
        changed = client.get(url, HTTP_IF_NONE_MATCH=etag, **LIVE)
        assert changed.status_code == 200, url
        assert changed["ETag"] != etag
        assert "<main>" in changed.content.decode()


def test_an_ordinary_visit_is_always_the_whole_page(case):
    """A browser revalidating its cache (no X-Live) is given the page: its clock and messages are new."""
    appeal = lodge(case)
    client = director_client(case)
    url = reverse("appeals:appeal", args=[appeal.pk])
    etag = etag_of(client, url)
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200
    assert 'name="server-now"' in again.content.decode()


def test_the_etag_is_the_readers_and_in_their_language(case):
    appeal = lodge(case)
    url = reverse("appeals:appeal", args=[appeal.pk])
    director = director_client(case)
    chief = Client()
    chief.force_login(case.chief)
    assert etag_of(director, url) != etag_of(chief, url)
    english = etag_of(director, url)
    director.cookies["django_language"] = "he"
    hebrew = etag_of(director, url)
    assert hebrew != english
    assert director.get(url, HTTP_IF_NONE_MATCH=english, **LIVE).status_code == 200


def test_a_poll_of_a_page_the_reader_may_not_see_is_404(case):
    appeal = lodge(case)
    stranger = make_user("stranger")
    client = Client()
    client.force_login(stranger)
    # The desk is everyone's own (it lists what they may read); every other page is hidden.
    hidden = [url for url in pages(case, appeal) if url != reverse("appeals:appeals")]
    assert len(hidden) == len(pages(case, appeal)) - 1
    assert {url: client.get(url, **LIVE).status_code for url in hidden} == dict.fromkeys(hidden, 404)


def test_the_standings_change_when_a_score_changes(case):
    field = case.record
    client = director_client(case)
    url = reverse("scoring:standings", args=[field.event.pk])
    etag = etag_of(client, url)
    scoring_services.set_effective_score(
        result=field.results[0], by=case.director, kind="assigned", score={"ns": [[400, "1"]]}, reason="Misboard"
    )
    assert client.get(url, HTTP_IF_NONE_MATCH=etag, **LIVE).status_code == 200


def test_a_poll_keeps_the_messages_for_the_readers_next_page(case):
    appeal = lodge(case)
    client = director_client(case)
    url = reverse("appeals:appeal", args=[appeal.pk])
    posted = client.post(
        reverse("appeals:case-concurrence", args=[appeal.pk]),
        {"action": "concurrence", "player": case.south.pk, "how": "in_person"},
    )
    assert posted.status_code == 302
    assert "Recorded." not in client.get(url, **LIVE).content.decode()
    assert "Recorded." in client.get(url).content.decode()


def poll_queries(client, url):
    etag = client.get(url)["ETag"]
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, HTTP_IF_NONE_MATCH=etag, **LIVE)
    assert response.status_code == 304, url
    return len(queries)


def test_a_poll_costs_the_same_few_queries_however_many_rows(case):
    appeal, _body, _hearing = ready(case)
    client = director_client(case)
    urls = pages(case, appeal)
    before = {url: poll_queries(client, url) for url in urls}
    assert max(before.values()) <= 6, before  # the session, the user, the reader's record, two versions
    field = case.record
    for n in range(3, 9):
        board = scoring_services.create_board(session=field.session, number=n, by=policy.SYSTEM)
        for table in range(3):
            scoring_services.record_result(
                board=board,
                round=field.round,
                table=field.tables[table],
                ns=field.pairs[table],
                ew=field.pairs[7 + table],
                contract="3NT",
                declarer="S",
                tricks=9,
                by=policy.SYSTEM,
            )
    services.record_concurrence(
        appeal=lodge(case, player=case.east), player=case.west, how="in_person", by=case.director
    )
    after = {url: poll_queries(client, url) for url in urls}
    assert after == before


def test_every_deadline_is_an_instant_the_browser_counts_down(case, settings):
    client = director_client(case)
    html = client.get(reverse("rulings:ruling", args=[case.ruling.pk])).content.decode()
    assert re.search(r'<time datetime="2026-05-01T21:30:00\+01:00" data-zone="Europe/London" dir="ltr">', html)
    assert (
        '<span class="remaining" role="timer" data-deadline="2026-05-01T20:30:00+00:00" '
        'data-left="%(time)s left" data-closed="closed">closed</span>' in html
    )
    assert re.search(r'<meta name="server-now" content="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00">', html)
    assert "js/countdown.js" in html and "js/live.js" in html
    client.cookies["django_language"] = "he"
    hebrew = client.get(reverse("rulings:ruling", args=[case.ruling.pk])).content.decode()
    assert 'data-closed="סגור"' in hebrew


def decided_case(case, **lodge_extra):
    appeal, body, _hearing = ready(case, **lodge_extra)
    vote_all(body, "vary")
    return services.decide_appeal(
        appeal=appeal,
        by=case.members[0],
        outcome="vary",
        reasons="R",
        score_kind="assigned",
        ns={"contract": "4S", "declarer": "N", "tricks": 9},
        now=SOON + datetime.timedelta(minutes=5),
    )


def test_the_notice_board_names_the_appellants_only_as_the_regulations_allow(case):
    decided_case(case)
    url = reverse("appeals:notice-board", args=[case.record.tournament.pk])
    client = director_client(case)
    by_seat = client.get(url).content.decode()
    assert "Appeal 1" in by_seat and "Ruling varied" in by_seat
    assert "Appellants: <bdi>North-South</bdi>" in by_seat
    assert str(case.north) not in by_seat
    assert "Players are not named here" in by_seat

    regulate(case, "casebook_names", "names")
    named = client.get(url).content.decode()
    assert f"North-South: {case.north} &amp; {case.south}" in named


def test_the_notice_board_shows_hearings_and_open_windows(case):
    appeal, _body, hearing = ready(case)
    field = case.record
    scoring_services.post_official_scores(session=field.session, by=case.director)  # the clock starts again now
    client = director_client(case)
    html = client.get(reverse("appeals:notice-board", args=[field.tournament.pk])).content.decode()
    assert "Room 2" in html and str(appeal) in html
    assert 'class="remaining" role="timer"' in html  # the open window's clock
    assert "No appeal window is open." not in html
    tournament_page = client.get(reverse("scoring:tournament", args=[field.tournament.pk])).content.decode()
    assert reverse("appeals:notice-board", args=[field.tournament.pk]) in tournament_page
