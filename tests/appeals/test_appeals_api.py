"""The appeal workflow over the API, step by step, with the same refusals as the pages."""

import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from appeals.models import Appeal
from core import policy
from scoring import recalculation
from scoring import services as scoring_services
from scoring.models import BoardScore
from tests.appeals.conftest import DEADLINE

pytestmark = pytest.mark.django_db


def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_late_appeal_is_received_for_its_body_to_judge(case):
    """Issue #44: no longer refused at the desk. The acknowledgement names the end of the period
    in the tournament's time zone; the timeline says the body decides whether it is valid."""
    response = api(case.director).post(
        "/api/v1/appeals/",
        {"ruling": case.ruling.pk, "player": case.north.pk, "grounds": "We disagree."},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert "the body decides whether it is valid" in response.json()["timeline"][0]["note"]
    filing = Appeal.objects.get().filings.get()
    assert filing.validity == "pending"
    assert "21:30 on 1 May 2026 BST (Europe/London)" in filing.acknowledgement("en")


def test_the_whole_workflow_through_the_api(case):
    now = timezone.now()
    scoring_services.post_official_scores(
        session=case.record.session, at=now - datetime.timedelta(minutes=5), by=policy.SYSTEM
    )
    case.record.event.sessions.filter(number=2).update(starts_at=now + datetime.timedelta(hours=12))
    director = api(case.director)
    response = director.post(
        "/api/v1/appeals/",
        {"ruling": case.ruling.pk, "player": case.north.pk, "grounds": "Pass is not a logical alternative."},
        format="json",
    )
    assert response.status_code == 201, response.json()
    appeal = response.json()
    assert appeal["concurrence_missing"] == [str(case.south)]
    url = f"/api/v1/appeals/{appeal['id']}"
    # Deciding before the body is constituted is refused, with the reason; a member who does not
    # sit on the case does not even see it.
    refused = api(case.chief).post(f"{url}/decide/", {"outcome": "vary", "reasons": "x"}, format="json")
    assert refused.status_code == 409
    assert (
        api(case.members[0]).post(f"{url}/decide/", {"outcome": "vary", "reasons": "x"}, format="json").status_code
        == 404
    )
    assert (
        director.post(f"{url}/concurrence/", {"player": case.south.pk, "how": "in_person"}, format="json").status_code
        == 200
    )
    chief = api(case.chief)
    body = chief.post(
        f"{url}/constitute/",
        {"kind": "committee", "members": [m.pk for m in case.members[:3]], "chair": case.members[0].pk},
        format="json",
    )
    assert body.status_code == 200, body.json()
    for member in case.members[:3]:
        assert api(member).post(f"{url}/declare/", {"conflict": ""}, format="json").status_code == 200
    hearing = director.post(
        f"{url}/schedule/",
        {"starts_at": (now + datetime.timedelta(minutes=10)).isoformat(), "mode": "in_person", "place": "Room 2"},
        format="json",
    )
    assert hearing.status_code == 200, hearing.json()
    # Ten minutes early: no vote until the body records why it sits now.
    early = api(case.members[0]).post(f"{url}/vote/", {"outcome": "overturn"}, format="json")
    assert early.status_code == 409 and "record why the body sits early" in str(early.json()), early.json()
    sits = api(case.members[0]).post(f"{url}/sit-early/", {"reason": "Both sides are here."}, format="json")
    assert sits.status_code == 200, sits.json()
    for member in case.members[:3]:
        assert api(member).post(f"{url}/vote/", {"outcome": "overturn"}, format="json").status_code == 200
    # A member who does not sit on the case cannot vote: the case is not even visible to them.
    assert api(case.members[3]).post(f"{url}/vote/", {"outcome": "uphold"}, format="json").status_code == 404
    decided = api(case.members[0]).post(
        f"{url}/decide/", {"outcome": "overturn", "reasons": "Table result stands"}, format="json"
    )
    assert decided.status_code == 200, decided.json()
    body = decided.json()
    assert body["state"] == "decided" and body["outcome"] == "overturn"
    assert [e["action"] for e in body["timeline"]][-1] == "decided"
    recalculation.recalculate_board(case.record.boards[0].pk)
    assert BoardScore.objects.get(result=case.record.results[6]).ns == 8  # the table's +420 again


def test_players_see_their_own_case_and_others_do_not(case):
    from tests.conftest import make_user

    scoring_services.post_official_scores(session=case.record.session, at=timezone.now(), by=policy.SYSTEM)
    appeal = (
        api(case.director)
        .post(
            "/api/v1/appeals/", {"ruling": case.ruling.pk, "player": case.north.pk, "grounds": "x y z"}, format="json"
        )
        .json()
    )
    north_user = make_user("north-user")
    case.north.user = north_user
    case.north.save()
    outsider = make_user("outsider-user")
    assert api(north_user).get(f"/api/v1/appeals/{appeal['id']}/").status_code == 200
    assert api(outsider).get(f"/api/v1/appeals/{appeal['id']}/").status_code == 404
    # An appeals member not sitting on the case does not see it either.
    assert api(case.members[3]).get(f"/api/v1/appeals/{appeal['id']}/").status_code == 404
    assert DEADLINE  # the fixture's fixed clock is used by the other tests


def test_statements_extension_and_hearing_record_through_the_api(case):
    chief = api(case.chief)
    # The chief director extends the period, with a reason; then the appeal is lodged in time.
    late = {"ruling": case.ruling.pk, "player": case.north.pk, "grounds": "We were not told of the right to appeal."}
    until = (timezone.now() + datetime.timedelta(hours=1)).isoformat()
    extension = chief.post(
        "/api/v1/appeal-deadline-extensions/",
        {"ruling": case.ruling.pk, "until": until, "reason": "The director forgot to tell them (Law 83)."},
        format="json",
    )
    assert extension.status_code == 201, extension.json()
    appeal = api(case.director).post("/api/v1/appeals/", late, format="json").json()
    url = f"/api/v1/appeals/{appeal['id']}"
    response = api(case.director).post(
        f"{url}/statements/", {"respondents_statement": "The pause was long."}, format="json"
    )
    assert response.json()["respondents_statement"] == "The pause was long."
    locked = api(case.director).post(
        f"{url}/lock-statements/", {"agreed_by": [case.north.pk, case.east.pk]}, format="json"
    )
    assert locked.status_code == 200 and locked.json()["statements_locked_at"]
    again = api(case.director).post(f"{url}/statements/", {"respondents_statement": "Changed"}, format="json")
    assert again.status_code == 409
    assert Appeal.objects.get().respondents_statement == "The pause was long."
