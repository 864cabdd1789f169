"""A player's own page and their request to appeal, which a director lodges (Law 92C) or
declines with a reason; nobody else asks in their name."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from appeals import services
from appeals.models import AppealRequest
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_window(case):
    """North has a login, and the chief director has kept the appeal period open for an hour."""
    case.north_user = make_user("north")
    case.north.user = case.north_user
    case.north.save(update_fields=["user"])
    services.extend_deadline(
        ruling=case.ruling,
        by=case.chief,
        until=timezone.now() + datetime.timedelta(hours=1),
        reason="The scores were posted late",
    )
    return case


def test_the_player_sees_the_ruling_with_its_countdown_and_asks_to_appeal_on_law_alone(open_window, client):
    case = open_window
    client.force_login(case.north_user)
    page = client.get(reverse("appeals:appeals-mine")).content.decode()
    assert reverse("rulings:ruling", args=[case.ruling.pk]) in page and 'role="timer" data-deadline=' in page
    client.post(
        reverse("appeals:appeal-request", args=[case.ruling.pk]), {"grounds": "16B1a cannot apply", "about": "law"}
    )
    request = AppealRequest.objects.get()
    assert (request.player, request.about, request.state) == (case.north, "law", "open")
    client.force_login(case.director)
    assert "16B1a cannot apply" in client.get(reverse("appeals:appeal-lodge", args=[case.ruling.pk])).content.decode()
    response = client.post(
        reverse("appeals:appeal-lodge", args=[case.ruling.pk]), {"action": "from_request", "request": request.pk}
    )
    request.refresh_from_db()
    appeal = request.appeal
    assert response.url == reverse("appeals:appeal", args=[appeal.pk])
    assert (request.state, appeal.lodged_by, appeal.recorded_by) == ("lodged", case.north, case.director)
    assert list(appeal.parts.values_list("kind", flat=True)) == ["law"]


def test_a_director_declines_a_request_with_a_reason_the_player_reads(open_window, client):
    case = open_window
    request = services.request_appeal(ruling=case.ruling, player=case.north, by=case.north_user, grounds="No")
    client.force_login(case.director)
    client.post(
        reverse("appeals:appeal-lodge", args=[case.ruling.pk]),
        {"action": "decline_request", "request": request.pk, "reason": "Lodged by your partner already"},
    )
    client.force_login(case.north_user)
    assert "Lodged by your partner already" in client.get(reverse("appeals:appeals-mine")).content.decode()


def test_nobody_asks_in_a_players_name(open_window, client):
    case = open_window
    client.force_login(case.director)
    response = client.post(reverse("appeals:appeal-request", args=[case.ruling.pk]), {"grounds": "x"})
    assert response.status_code == 403
    assert f"Only a player or captain of either side at the table asks to appeal {case.ruling}, for themselves." in (
        response.content.decode()
    )
    assert not AppealRequest.objects.exists()
