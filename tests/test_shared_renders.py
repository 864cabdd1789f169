"""One render per version (core/renders.py, issue #45): the standings, a traveller and the notice
board are made once per version, language and audience and served to every reader of that
audience from the one render; each reader's own parts (name, CSRF token, ETag) are theirs.
Renders are counted by the templates Django reports rendered, not by time."""

import re

import pytest
from django.conf import settings
from django.contrib.messages import constants, storage
from django.http import HttpResponse
from django.test import Client
from django.test.signals import template_rendered

from core import policy, roles
from scoring import recalculation, services
from tests.appeals.conftest import case  # noqa: F401 (a fixture)
from tests.conftest import make_user, table_x

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture
def directors(field):
    people = [
        make_user("quintessa", first_name="Quintessa", last_name="Marlowe"),
        make_user("bartholomew", first_name="Bartholomew", last_name="Quill"),
    ]
    for user in people:
        services.appoint_official(tournament=field.tournament, user=user, role=roles.DIRECTOR, by=policy.SYSTEM)
    return people


@pytest.fixture
def renders():
    """How many times each template was made."""
    counts: dict[str, int] = {}

    def count(sender, template, **kwargs):
        counts[template.name] = counts.get(template.name, 0) + 1

    template_rendered.connect(count)
    yield counts
    template_rendered.disconnect(count)


def pages(field):
    return {
        "scoring/standings.html": f"/events/{field.event.pk}/standings/",
        "scoring/board_detail.html": f"/boards/{field.boards[0].pk}/",
        "appeals/notice_board.html": f"/appeals/board/{field.tournament.pk}/",
    }


def client_of(user, language=None):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    if language:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def test_a_second_reader_is_served_the_first_readers_render(field, directors, renders):
    first, second = (client_of(user) for user in directors)
    for template, url in pages(field).items():
        one = first.get(url)
        two = second.get(url)
        assert one.status_code == two.status_code == 200, url
        assert renders[template] == 1, url  # made once, for both
        assert renders.get("base.html") is None or renders["base.html"] <= len(pages(field))
        assert first.get(url).status_code == 200
        assert renders[template] == 1, url


def test_each_reader_sees_their_own_name_token_and_etag(field, directors):
    first, second = (client_of(user) for user in directors)
    for url in pages(field).values():
        one, two = first.get(url), second.get(url)
        mine, theirs = one.content.decode(), two.content.decode()
        assert "Quintessa Marlowe" in mine and "Bartholomew Quill" not in mine, url
        assert "Bartholomew Quill" in theirs and "Quintessa Marlowe" not in theirs, url
        assert "shared-render-" not in mine + theirs, url  # every placeholder filled in
        assert one["ETag"] != two["ETag"]
        assert f'content="{two["ETag"]}"' in theirs.replace("&quot;", '"'), url
        # Each page's CSRF token is its reader's: it works for them and not for the other.
        token = TOKEN.search(theirs).group(1)
        assert second.post("/i18n/setlang/", {"language": "en", "csrfmiddlewaretoken": token}).status_code == 302
        assert first.post("/i18n/setlang/", {"language": "en", "csrfmiddlewaretoken": token}).status_code == 403
        assert TOKEN.search(mine).group(1) != token


def test_a_change_of_version_makes_the_page_again(field, directors, renders):
    reader = client_of(directors[0])
    for url in pages(field).values():
        reader.get(url)
    services.set_effective_score(
        result=table_x(field), by=directors[0], kind="assigned", score={"ns": [[600, "1"]]}, reason="Misboard"
    )
    recalculation.recalculate_board(field.boards[0].pk)
    for template, url in pages(field).items():
        assert renders[template] == 1
        page = client_of(directors[1]).get(url)
        assert renders[template] == 2, url
        assert "shared-render-" not in page.content.decode()
    assert "+600" in client_of(directors[1]).get(pages(field)["scoring/board_detail.html"]).content.decode()


def test_each_language_has_its_own_render(field, directors, renders):
    for template, url in pages(field).items():
        english = client_of(directors[0]).get(url).content.decode()
        hebrew = client_of(directors[1], "he").get(url).content.decode()
        assert renders[template] == 2, url
        assert 'lang="en"' in english and 'lang="he"' in hebrew
        client_of(directors[0], "he").get(url)
        assert renders[template] == 2, url  # the Hebrew render, served again


def test_another_audience_has_its_own_render(field, directors, renders):
    """A scorer is not a director: the traveller shows a director the step to rule, and the
    scorer is never served the directors' render."""
    scorer = make_user("ottoline", first_name="Ottoline", last_name="Scrivener")
    services.appoint_official(tournament=field.tournament, user=scorer, role=roles.SCORER, by=policy.SYSTEM)
    for template, url in pages(field).items():
        client_of(directors[0]).get(url)
        page = client_of(scorer).get(url).content.decode()
        assert renders[template] == 2, url
        assert "Ottoline Scrivener" in page and "Quintessa" not in page


def test_a_page_with_a_message_waiting_is_the_readers_own(field, directors, renders, rf):
    url = pages(field)["scoring/standings.html"]
    reader = client_of(directors[0])
    reader.get(url)
    client_of(directors[1]).get(url)
    assert renders["scoring/standings.html"] == 1
    cookies = storage.cookie.CookieStorage(rf.get(url))
    reader.cookies[cookies.cookie_name] = cookies._encode([storage.base.Message(constants.SUCCESS, "Recorded for Q.")])
    page = reader.get(url).content.decode()
    assert "Recorded for Q." in page
    assert renders["scoring/standings.html"] == 2
    assert "Recorded for Q." not in client_of(directors[1]).get(url).content.decode()


def test_a_change_of_regulation_makes_the_page_again(field, directors, renders):
    url = pages(field)["appeals/notice_board.html"]
    client_of(directors[0]).get(url)
    services.set_authority_setting(
        authority=field.tournament.authority,
        key="casebook_names",
        value="names",
        effective_from=field.tournament.start_date,
        by=policy.SYSTEM,
    )
    client_of(directors[1]).get(url)
    assert renders["appeals/notice_board.html"] == 2


def _view(asks):
    def view(request):
        asks(request)
        return HttpResponse(f"<p>{request.user.username if request.GET.get('own') else 'page'}</p>")

    return view


@pytest.mark.parametrize(
    ("asks", "query", "kept"),
    [
        (lambda request: None, "", True),
        (lambda request: policy.may(request.user, "ruling", request.tournament), "", True),
        (lambda request: policy.may(request.user, "ruling", request.record), "", False),  # a step on another record
        (lambda request: policy.may(request.user, "setup", None), "", False),  # a step of the whole site
        (lambda request: None, "?own=1", False),  # the reader's user name in the page
    ],
)
def test_a_render_is_kept_only_when_nothing_of_the_readers_went_into_it(field, directors, rf, asks, query, kept):
    from django.core.cache import cache

    from core import renders as shared

    request = rf.get("/page/" + query)
    request.user, request.session = directors[0], {}
    request.tournament, request.record = field.tournament, field.event
    made = []
    shared.page_rendered.connect(lambda **kwargs: made.append(kwargs["view"]), weak=False, dispatch_uid="kept-test")
    try:
        view = _view(asks)
        for _ in range(2):
            page = shared.serve(view, request, (), {}, version="1", etag='"e"', audience="a", period=None)
            assert page.status_code == 200
    finally:
        shared.page_rendered.disconnect(dispatch_uid="kept-test")
        cache.clear()
    assert len(made) == (1 if kept else 2)


def test_a_change_marks_link_is_opened_for_each_reader_who_may_open_it(case):  # noqa: F811
    """The traveller's change mark links its ruling only for a reader who may open the ruling,
    from one render for both players (their audience is the same: entrants with the player's role)."""
    from tests.appeals.conftest import shown

    at_table, elsewhere = make_user("norah", role=roles.PLAYER), make_user("oswin", role=roles.PLAYER)
    case.north.user = at_table
    case.north.save()
    other = next(p for p in case.record.pairs if p.pk not in (case.ruling.result.ns_id, case.ruling.result.ew_id))
    member = other.members.first()
    member.user = elsewhere
    member.save()
    link = f'<a href="/rulings/{case.ruling.pk}/">'
    url = f"/boards/{case.record.boards[0].pk}/"
    counted = []
    template_rendered.connect(
        lambda sender, template, **kw: counted.append(template.name), weak=False, dispatch_uid="marks"
    )
    try:
        pages = {user: shown(client_of(user).get(url)) for user in (at_table, elsewhere)}
    finally:
        template_rendered.disconnect(dispatch_uid="marks")
    assert counted.count("scoring/board_detail.html") == 1
    for user, page in pages.items():
        assert (link in page) == policy.may(user, "view_ruling", case.ruling), user
        assert "shared-render-" not in page
    assert link in pages[at_table]
