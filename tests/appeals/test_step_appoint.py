"""Replacing a member who stepped down (appeals:case-appoint): the chief director fills the seat
on the web, conflicts are flagged and refused, and his own seat is allowed with a warning
(issue #27: the page offered only "Constitute the body", refused once a body existed)."""

import pytest
from django.urls import reverse

from appeals import services
from audit.models import AuditEntry
from core import policy, roles
from scoring import services as scoring_services
from tests.appeals.conftest import SOON, committee, lodge, refused, shown, take
from tests.appeals.test_appeals_api import api

pytestmark = pytest.mark.django_db


def stepped_down(case):
    appeal = lodge(case)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    body = committee(case, appeal)
    seat = body.members.get(user=case.members[1])
    services.recuse(member=seat, by=seat.user, reason="I know them", now=SOON)
    return appeal, body


def page_of(client, user, appeal):
    client.force_login(user)
    return shown(client.get(reverse("appeals:appeal", args=[appeal.pk])))


def test_the_chief_director_is_offered_the_free_seat_not_a_new_body(case, client):
    appeal, _body = stepped_down(case)
    page = page_of(client, case.chief, appeal)
    assert "Appoint a member" in page and "Seats free: 1" in page
    assert "Constitute the body" not in page
    assert f'name="member" value="{case.members[3].pk}"' in page  # Dan, who does not sit yet
    assert f'name="member" value="{case.members[1].pk}"' not in page  # Ben stepped down


def test_a_replacement_is_seated_and_the_body_sits_again_once_he_declares(case, client):
    appeal, body = stepped_down(case)
    before = AuditEntry.objects.filter(action="appeal.member_appointed").count()
    page = shown(take(client, case.chief, appeal, "appoint", member=case.members[3].pk))
    assert "Recorded." in page
    assert {m.user for m in body.sitting()} == {case.members[0], case.members[2], case.members[3]}
    assert AuditEntry.objects.filter(action="appeal.member_appointed").count() == before + 1
    assert "Appoint a member" not in page  # the seat is filled
    appeal.refresh_from_db()
    assert appeal.state == "constituted"
    assert body.missing()  # Dan has not declared yet
    seat = body.members.get(user=case.members[3])
    services.declare_conflict(member=seat, by=seat.user)
    assert body.is_constituted


def test_a_conflict_is_flagged_and_refused(case, client):
    scoring_services.appoint_official(
        tournament=case.record.tournament, user=case.director, role=roles.APPEALS_MEMBER, by=policy.SYSTEM
    )
    appeal, body = stepped_down(case)
    page = page_of(client, case.chief, appeal)
    assert "Cannot sit: gave the ruling" in page
    answer = shown(take(client, case.chief, appeal, "appoint", member=case.director.pk))
    assert "cannot sit on this case: gave the ruling" in answer
    assert not body.members.filter(user=case.director).exists()


def test_the_chief_director_seating_himself_is_warned(case, client):
    appeal, body = stepped_down(case)
    page = page_of(client, case.chief, appeal)
    assert "Chris Chief is the chief director: the body reviews his directors' ruling" in page
    answer = shown(take(client, case.chief, appeal, "appoint", member=case.chief.pk))
    assert "Recorded." in answer and "Chris Chief is the chief director" in answer
    assert body.sitting().filter(user=case.chief).exists()
    assert "the chief director sits on the body (warned, Law 93B)" in answer  # the timeline keeps it


def test_a_director_may_not_appoint(case, client):
    appeal, body = stepped_down(case)
    response = take(client, case.director, appeal, "appoint", member=case.members[3].pk)
    assert refused(response, "forms the body that hears an appeal")
    assert not body.members.filter(user=case.members[3]).exists()


def test_no_seat_free_is_refused_by_name(case, client):
    appeal = lodge(case)
    committee(case, appeal)
    answer = shown(take(client, case.chief, appeal, "appoint", member=case.members[3].pk))
    assert "The body already has its 3 members" in answer


def test_no_body_yet_is_refused_by_name(case, client):
    appeal = lodge(case)
    answer = shown(take(client, case.chief, appeal, "appoint", member=case.members[3].pk))
    assert "No body has been formed to hear this case: constitute it first." in answer


def test_the_api_fills_the_free_seat_as_the_page_does(case):
    appeal, body = stepped_down(case)
    url = f"/api/v1/appeals/{appeal.pk}/appoint/"
    answer = api(case.director).post(url, {"member": case.members[3].pk}, format="json")
    assert answer.status_code == 403
    why = (
        f"Only the director in charge of Club Championship forms the body that hears an appeal; {case.director} is not."
    )
    assert answer.json() == {"detail": [why]}
    answer = api(case.chief).post(url, {"member": case.members[3].pk}, format="json")
    assert answer.status_code == 200
    seats = {m["user"] for m in answer.json()["body"]["members"] if not m["recused"]}
    assert seats == {case.members[0].pk, case.members[2].pk, case.members[3].pk}
    assert body.sitting().filter(user=case.members[3]).exists()
    answer = api(case.chief).post(url, {"member": case.members[1].pk}, format="json")
    assert answer.status_code == 409
    assert answer.json() == {
        "user": ["The body already has its 3 members: one must recuse before another is appointed."]
    }


def test_a_body_of_one_full_is_refused_in_the_singular(case, client):
    appeal = lodge(case)
    services.constitute_body(appeal=appeal, by=case.chief, kind="referee", members=[case.members[0]], now=SOON)
    answer = shown(take(client, case.chief, appeal, "appoint", member=case.members[3].pk))
    assert "The body already has its 1 member: they must recuse before another is appointed." in answer
