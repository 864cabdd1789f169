""" "Waiting for you" as a to-do list per role, oldest deadline first, done items gone; a
member's card lists the cases they sit on (issue #27)."""

import pytest

from appeals import services
from appeals.models import Notification
from tests.appeals.conftest import committee, lodge, ready, shown, vote_all

pytestmark = pytest.mark.django_db


def home(client, user):
    client.force_login(user)
    return shown(client.get("/"))


def test_the_chief_director_is_asked_to_form_the_body_until_he_has(case, client):
    appeal = lodge(case)
    assert f"Appeal {appeal.number}: form the body that hears it" in home(client, case.chief)
    committee(case, appeal)
    assert "form the body that hears it" not in home(client, case.chief)


def test_a_member_is_asked_to_declare_then_to_sit_and_the_card_lists_the_case(case, client):
    appeal = lodge(case)
    services.constitute_body(appeal=appeal, by=case.chief, kind="committee", members=case.members[:3])
    page = home(client, case.members[0])
    assert f"Appeal {appeal.number}: declare your interests" in page
    assert "The cases you sit on will be listed here." not in page
    assert f'href="/appeals/{appeal.pk}/">Appeal {appeal.number}</a>' in page


def test_a_decided_case_is_gone_from_the_list(case, client):
    appeal, body, _hearing = ready(case)
    vote_all(body, "uphold")
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="It stands")
    assert Notification.objects.filter(user=case.director, text__contains="is decided").exists()
    page = home(client, case.director)
    assert "is decided" not in page
    assert "Waiting for you" not in page
