"""One answer to "may this ruling still be appealed" on every page (issue #27): never "Final
(appeal period passed)" beside a live countdown; "Ask to appeal" not offered once the request is
lodged; the concurrence list not offering the player who lodged."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from appeals import services
from appeals.models import AppealRequest
from core import policy
from rulings.models import Ruling
from scoring import services as scoring_services
from tests.appeals.conftest import lodge, shown
from tests.appeals.test_appeals_api import api
from tests.appeals.test_requests import open_window  # noqa: F401 (a fixture)
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def final_then_reopened(case):
    """The ruling became final when its window closed in May; the official score is posted
    again now, so the window runs again."""
    Ruling.objects.filter(pk=case.ruling.pk).update(state=Ruling.State.FINAL)
    scoring_services.post_official_scores(session=case.record.session, by=policy.SYSTEM)
    case.north_user = make_user("north")
    case.north.user = case.north_user
    case.north.save(update_fields=["user"])
    return case


def test_a_ruling_is_not_final_beside_a_live_countdown(final_then_reopened, client):
    case = final_then_reopened
    client.force_login(case.director)
    page = shown(client.get(reverse("rulings:ruling", args=[case.ruling.pk])))
    assert 'role="timer"' in page  # counted down in the browser (static/js/countdown.js)
    assert "Final (appeal period passed)" not in page and "Given at the table" in page
    client.force_login(case.north_user)
    page = shown(client.get(reverse("appeals:appeals-mine")))
    assert "Final (appeal period passed)" not in page and "Ask to appeal" in page


def test_a_closed_window_reads_final(case, client):
    case.north.user = make_user("north")
    case.north.save(update_fields=["user"])
    client.force_login(case.north.user)
    page = shown(client.get(reverse("appeals:appeals-mine")))
    assert "Final (appeal period passed)" in page and "Ask to appeal" not in page
    # Issue #44: a late appeal is still received; the body decides whether it is valid.
    assert "Appeal after the period" in page and "the appeals body decides whether it is valid" in page


def test_ask_to_appeal_is_not_offered_once_the_request_is_lodged(open_window, client):  # noqa: F811
    case = open_window
    client.force_login(case.north_user)
    client.post(reverse("appeals:appeal-request", args=[case.ruling.pk]), {"grounds": "No LA", "about": "judgement"})
    services.lodge_requested(request=AppealRequest.objects.get(), by=case.director)
    page = shown(client.get(reverse("appeals:appeals-mine")))
    assert "Ask to appeal" not in page
    with pytest.raises(ValidationError, match="Your side's appeal against Ruling 1 is lodged already"):
        services.request_appeal(ruling=case.ruling, player=case.north, by=case.north_user, grounds="Again")


def test_the_concurrence_list_offers_only_the_partner(case, client):
    appeal = lodge(case)  # North lodged: he agreed by lodging
    client.force_login(case.director)
    page = shown(client.get(reverse("appeals:appeal", args=[appeal.pk])))
    form = page[page.index('value="concurrence"') : page.index("Record concurrence")]
    assert f'<option value="{case.south.pk}">' in form
    assert f'<option value="{case.north.pk}">' not in form


def test_the_api_gives_the_same_answer_as_the_pages(case):
    url = f"/api/v1/rulings/{case.ruling.pk}/"
    assert api(case.director).get(url).json()["appeal_open"] is False  # its window closed in May
    Ruling.objects.filter(pk=case.ruling.pk).update(state=Ruling.State.FINAL)
    scoring_services.post_official_scores(session=case.record.session, by=policy.SYSTEM)  # posted again: it runs again
    ruling = api(case.director).get(url).json()
    assert ruling["appeal_open"] is True and ruling["appeal_deadline"] is not None
    listed = api(case.director).get("/api/v1/rulings/").json()["results"]
    assert [r["appeal_open"] for r in listed if r["id"] == case.ruling.pk] == [True]
