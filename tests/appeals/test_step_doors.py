"""One door per step (issue #26): each step of a case has its own URL and view
(appeals/step_views.py), each linked from the case page by the form that posts to it; the page
itself takes no step."""

from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from appeals.step_views import STEPS
from tests.appeals.conftest import lodge, ready, shown

pytestmark = pytest.mark.django_db
TEMPLATES = Path(settings.BASE_DIR) / "templates" / "appeals"


def test_every_door_is_linked_from_the_case_page():
    page = (TEMPLATES / "appeal_detail.html").read_text() + (TEMPLATES / "_hearing_notes.html").read_text()
    assert [name for name, _view in STEPS if f"{{% url 'appeals:case-{name}' appeal.pk %}}" not in page] == []
    assert len(STEPS) == 30


def test_the_forms_a_reader_sees_post_to_their_doors(case, client):
    appeal = lodge(case)
    client.force_login(case.chief)
    page = shown(client.get(reverse("appeals:appeal", args=[appeal.pk])))
    for name in ("concurrence", "constitute", "statements", "lock-statements", "withdrawal"):
        assert f'action="{reverse(f"appeals:case-{name}", args=[appeal.pk])}"' in page, name
    heard, _body, _hearing = ready(case, player=case.east)
    client.force_login(case.members[0])
    page = shown(client.get(reverse("appeals:appeal", args=[heard.pk])))
    for name in ("vote", "decide", "recommend", "recuse", "attendance", "hearing-notes"):
        assert f'action="{reverse(f"appeals:case-{name}", args=[heard.pk])}"' in page, name


def test_the_case_page_takes_no_step_itself(case, client):
    appeal = lodge(case)
    client.force_login(case.director)
    response = client.post(reverse("appeals:appeal", args=[appeal.pk]), {"action": "deposit"})
    assert response.status_code == 405
    assert not appeal.deposits.exists()


def test_a_get_goes_back_to_the_case(case, client):
    appeal = lodge(case)
    client.force_login(case.director)
    for name, _view in STEPS:
        response = client.get(reverse(f"appeals:case-{name}", args=[appeal.pk]))
        assert (response.status_code, response["Location"]) == (302, reverse("appeals:appeal", args=[appeal.pk]))
