"""A browser or an API client that already holds the standings or a board's traveller asks again
with its ETag and is answered 304 Not Modified, without a body, until a score changes (issue #33,
"pages that stay fast under a crowd"). The ETag is the page's live version (core/live.py), for
this reader, in this language: two readers never share a copy."""

import pytest
from django.contrib.messages import constants, storage
from django.test import Client
from rest_framework.test import APIClient

from core import policy, roles
from scoring import recalculation, services
from tests.conftest import make_user, table_x

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(field):
    user = make_user("td")
    services.appoint_official(tournament=field.tournament, user=user, role=roles.DIRECTOR, by=policy.SYSTEM)
    return user


def urls(field):
    board, event = field.boards[0], field.event
    return {
        "standings": f"/events/{event.pk}/standings/",
        "traveller": f"/boards/{board.pk}/",
        "api standings": f"/api/v1/events/{event.pk}/standings/",
        "api traveller": f"/api/v1/boards/{board.pk}/traveller/",
    }


def signed_in(user, api=False):
    client = APIClient() if api else Client()
    client.force_login(user)
    return client


def read(user, url):
    return signed_in(user, api=url.startswith("/api/")).get(url)


def test_a_conditional_get_is_answered_304_without_a_body(field, director):
    for name, url in urls(field).items():
        client = signed_in(director, api=url.startswith("/api/"))
        first = client.get(url)
        assert first.status_code == 200, name
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304, name
        assert again.content == b"", name
        assert again["ETag"] == first["ETag"], name
        assert "private" in again["Cache-Control"], name
        assert client.get(url, HTTP_IF_NONE_MATCH='"another"').status_code == 200, name


def _pair_7_total(client, field):
    rows = client.get(f"/api/v1/events/{field.event.pk}/standings/").json()["standings"]
    return next(row["total_exact"] for row in rows if row["contestant_number"] == 7 and row["session"] is None)


def test_a_changed_score_changes_the_etag_and_the_figures(field, director):
    api, page = signed_in(director, api=True), signed_in(director)
    etags = {name: (api if url.startswith("/api/") else page).get(url)["ETag"] for name, url in urls(field).items()}
    before = _pair_7_total(api, field)
    assert "+600" not in page.get(urls(field)["traveller"]).content.decode()

    services.set_effective_score(
        result=table_x(field), by=director, kind="assigned", score={"ns": [[600, "1"]]}, reason="Misboard"
    )
    recalculation.recalculate_board(field.boards[0].pk)  # as the worker does after the change

    for name, url in urls(field).items():
        client = api if url.startswith("/api/") else page
        changed = client.get(url, HTTP_IF_NONE_MATCH=etags[name])
        assert changed.status_code == 200, name
        assert changed["ETag"] != etags[name], name
    after = _pair_7_total(api, field)
    assert after != before  # +600 is the top on the board now
    assert "600" in page.get(urls(field)["traveller"]).content.decode()
    traveller = api.get(urls(field)["api traveller"]).json()["results"]
    assert any("600" in str(row) for row in traveller)


def test_the_etag_is_the_readers_own(field, director):
    """The director sees the ruling buttons the superuser... sees too, but each their own copy; a
    new language or a new sign-in (a new CSRF token in the page's forms) is a new copy."""
    root = make_user("root-reader", is_superuser=True)
    for name, url in urls(field).items():
        director_etag = read(director, url)["ETag"]
        assert read(root, url)["ETag"] != director_etag, name
        assert read(director, url)["ETag"] != director_etag, name  # another session
        client = signed_in(director, api=url.startswith("/api/"))
        english = client.get(url)["ETag"]
        client.cookies["django_language"] = "he"
        hebrew = client.get(url)
        assert hebrew["ETag"] != english, name
        assert client.get(url, HTTP_IF_NONE_MATCH=english).status_code == 200, name


def test_a_waiting_message_is_shown_not_answered_304(field, director, rf):
    """A message for the reader's next page ("Recorded.") is shown by the page, not lost in a 304."""
    client = signed_in(director)
    url = urls(field)["standings"]
    etag = client.get(url)["ETag"]
    cookies = storage.cookie.CookieStorage(rf.get(url))
    client.cookies[cookies.cookie_name] = cookies._encode(
        [storage.base.Message(constants.SUCCESS, "Recorded for the test.")]
    )
    shown = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert shown.status_code == 200
    assert "Recorded for the test." in shown.content.decode()
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304  # shown once, then the copy holds
