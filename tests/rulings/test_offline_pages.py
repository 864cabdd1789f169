"""The phone's offline pages (issue #31): the service worker from the site's root with its
scope, the manifest, what a phone keeps of a tournament, the law catalogue as a page, the
drafts page, and a ruling sent from a phone showing both clocks."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from core import policy, roles
from rulings import services
from rulings.catalogue import sync_law_catalogue
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def test_the_service_worker_is_served_from_the_root_for_the_whole_site(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    assert b'addEventListener("fetch"' in response.content


def test_the_manifest_makes_the_site_installable(client):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["icons"]


def test_every_page_links_the_manifest_and_the_offline_scripts_without_inline_code(client, field, director):
    client.force_login(director)
    page = client.get(reverse("scoring:tournament", args=[field.tournament.pk])).content.decode()
    assert 'rel="manifest"' in page and "js/offline.js" in page and "js/drafts.js" in page
    assert 'id="offline-banner"' in page and 'id="offline-keep"' in page


def test_a_director_keeps_the_tournaments_read_side_and_their_own_rulings(client, field, director):
    other = make_user("olga")
    from scoring import services as scoring_services

    scoring_services.appoint_official(tournament=field.tournament, user=other, role=roles.DIRECTOR, by=policy.SYSTEM)
    mine = services.rule(result=field.results[0], director=director, kind="claim", laws="70D1")
    theirs = services.rule(result=field.results[1], director=other, kind="claim", laws="70D1")
    client.force_login(director)
    bundle = client.get(reverse("offline-bundle", args=[field.tournament.pk])).json()
    urls = bundle["urls"]
    assert bundle["fetched_at"]
    assert reverse("scoring:tournament", args=[field.tournament.pk]) in urls
    assert all(reverse("scoring:board", args=[board.pk]) in urls for board in field.boards)
    assert reverse("rulings:law-catalogue", args=["2017"]) in urls
    assert reverse("rulings:ruling", args=[mine.pk]) in urls
    assert reverse("rulings:ruling", args=[theirs.pk]) not in urls
    assert reverse("rulings:ruling-drafts") in urls and "/offline/" in urls
    # Someone who cannot read the tournament gets nothing of it.
    client.force_login(make_user("stranger", role=roles.PLAYER))
    assert client.get(reverse("offline-bundle", args=[field.tournament.pk])).status_code == 404


def test_the_law_catalogue_in_the_readers_language(client, director):
    sync_law_catalogue()
    client.force_login(director)
    client.cookies["django_language"] = "nl"
    page = client.get(reverse("rulings:law-catalogue", args=["2017"])).content.decode()
    assert 'id="law-92B"' in page
    assert client.get(reverse("rulings:law-catalogue", args=["1999"])).status_code == 404


def test_the_drafts_page_is_for_the_tournaments_directors(client, field, director):
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-drafts")).content.decode()
    assert 'id="draft-form"' in page and 'data-state-attention="Needs your attention"' in page
    client.force_login(make_user("player", role=roles.PLAYER))
    assert client.get(reverse("rulings:ruling-drafts")).status_code == 403


def test_a_ruling_sent_from_a_phone_shows_the_phones_time_and_the_servers(field, director):
    client = Client()
    client.force_login(director)
    body = {
        "session": field.session.pk,
        "board": 1,
        "table": 2,
        "device_time": "2026-05-01T13:02:00Z",
        "form": {"kind": "claim", "laws": "70D1", "outcome": "result_stands"},
    }
    sent = client.post("/api/v1/ruling-drafts/", json.dumps(body), content_type="application/json")
    assert sent.status_code == 201, sent.content
    page = client.get(sent.json()["url"]).content.decode()
    assert "Drafted on the phone at" in page and "1 May 2026" in page
    assert "Received by the server at" in page and "which decides every deadline" in page


def test_the_words_the_phone_shows_offline_are_in_the_readers_language(client, field, director):
    client.force_login(director)
    client.cookies["django_language"] = "he"
    page = client.get(reverse("rulings:ruling-drafts")).content.decode()
    assert 'data-fetched="אין רשת: הדף הזה מוצג כפי שהטלפון שמר אותו ב־%(time)s."' in page
    assert 'data-state-attention="דורש את תשומת לבך"' in page
    assert 'dir="rtl"' in page
