"""Every filing received (issue #44) over the API: a case's detail lists its filings as the case
page shows them (the number, when and by whom it was received, the body's word on a late one,
the acknowledgement in the caller's language with its next deadline), to whoever reads the case
and nobody else; a player's memo is filed through the same service as the memo page."""

import pytest
from rest_framework.test import APIClient

from appeals import services
from appeals.models import Filing
from tests.appeals.conftest import lodge
from tests.appeals.test_filings import LATE, late_case
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

LATE_APPEAL = {
    "number": 1,
    "kind": "appeal",
    "filer": "P13 Player13",
    "text": "The hesitation was not clear; pass is not a logical alternative.",
    "received_at": "2026-05-01T21:35:00+01:00",
    "received_by": "Dana Director",
    "validity": "pending",
    "validity_reason": "",
    "language": "en",
    "acknowledgement": (
        "Filing 1 (appeal) received at 21:35 on 1 May 2026 BST (Europe/London) by Dana Director. It came after "
        "the appeal period ended at 21:30 on 1 May 2026 BST (Europe/London) (Law 92B). It is not turned away: "
        "the appeals body decides whether it is valid, and records why. Next deadline: the case is to be "
        "decided by 10:00 on 2 May 2026 BST (Europe/London)."
    ),
    "next_deadline": "2026-05-02T10:00:00+01:00",
}


def api(user, language=None):
    client = APIClient(**({"HTTP_ACCEPT_LANGUAGE": language} if language else {}))
    client.force_authenticate(user)
    return client


def north_user(case):
    user = make_user("north-user")
    case.north.user = user
    case.north.save()
    return user


def test_a_case_lists_its_filings_with_their_acknowledgement_and_next_deadline(case):
    appeal = lodge(case, now=LATE)
    response = api(case.director).get(f"/api/v1/appeals/{appeal.pk}/")
    assert response.status_code == 200
    assert response.json()["filings"] == [LATE_APPEAL]


def test_the_acknowledgement_is_in_the_caller_s_language(case):
    appeal = lodge(case, now=LATE)
    filing = appeal.filings.get()
    dutch = api(case.director, "nl").get(f"/api/v1/appeals/{appeal.pk}/").json()["filings"][0]
    assert dutch["acknowledgement"] == filing.acknowledgement("nl") != LATE_APPEAL["acknowledgement"]
    assert dutch["acknowledgement"].startswith("Stuk 1"), dutch["acknowledgement"]
    assert dutch["language"] == "en"  # the filer's, as they filed it


def test_the_body_s_word_on_a_late_appeal_is_read_with_it(case):
    appeal, _body = late_case(case)
    services.record_validity(
        filing=appeal.filings.get(), by=case.members[0], valid=False, reason="Lodged after the players left", now=LATE
    )
    filing = api(case.members[0]).get(f"/api/v1/appeals/{appeal.pk}/").json()["filings"][0]
    assert (filing["validity"], filing["validity_reason"]) == ("invalid", "Lodged after the players left")


def test_the_players_read_the_filings_of_their_case_and_others_do_not(case):
    appeal = lodge(case, now=LATE)
    player = north_user(case)
    assert api(player).get(f"/api/v1/appeals/{appeal.pk}/").json()["filings"] == [LATE_APPEAL]
    assert api(make_user("outsider")).get(f"/api/v1/appeals/{appeal.pk}/").status_code == 404
    # An appeals member not sitting on the case does not read it, nor its filings.
    assert api(case.members[3]).get(f"/api/v1/appeals/{appeal.pk}/").status_code == 404


def test_a_player_files_a_memo_through_the_api(case):
    appeal = lodge(case, now=LATE)
    player = north_user(case)
    response = api(player).post(
        "/api/v1/appeal-memos/", {"ruling": case.ruling.pk, "text": "East paused ten seconds."}, format="json"
    )
    assert response.status_code == 201, response.json()
    memo = Filing.objects.get(kind="memo")
    assert (memo.number, memo.filer, memo.received_by, memo.appeal) == (2, case.north, player, appeal)
    body = response.json()
    assert list(body) == list(LATE_APPEAL)
    assert (body["number"], body["kind"], body["filer"], body["received_by"]) == (
        2,
        "memo",
        "P13 Player13",
        "north-user",
    )
    assert body["validity"] == "no_period" and body["text"] == "East paused ten seconds."
    assert body["acknowledgement"] == memo.acknowledgement("en")
    assert body["next_deadline"] == "2026-05-02T10:00:00+01:00"
    # The case's detail lists it after the appeal.
    listed = api(player).get(f"/api/v1/appeals/{appeal.pk}/").json()["filings"]
    assert [(f["number"], f["kind"]) for f in listed] == [(1, "appeal"), (2, "memo")]


def test_a_director_receives_a_memo_at_the_desk_for_a_player(case):
    response = api(case.director).post(
        "/api/v1/appeal-memos/",
        {"ruling": case.ruling.pk, "player": case.east.pk, "text": "North hesitated.", "language": "nl"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    memo = Filing.objects.get(kind="memo")
    assert (memo.filer, memo.received_by, memo.language) == (case.east, case.director, "nl")
    assert response.json()["received_by"] == "Dana Director"


def test_a_memo_is_refused_as_on_the_page(case):
    # An appeals member reads the ruling but files no memo: 403 with the policy's reason.
    refused = api(case.members[0]).post(
        "/api/v1/appeal-memos/", {"ruling": case.ruling.pk, "player": case.east.pk, "text": "x"}, format="json"
    )
    assert refused.status_code == 403
    assert "files a memo" in str(refused.json()), refused.json()
    # Who does not read the ruling does not find it.
    outsider = api(make_user("outsider")).post(
        "/api/v1/appeal-memos/", {"ruling": case.ruling.pk, "text": "x"}, format="json"
    )
    assert outsider.status_code == 404
    # An empty memo is refused by the service, naming the field.
    empty = api(case.director).post(
        "/api/v1/appeal-memos/", {"ruling": case.ruling.pk, "player": case.east.pk, "text": " "}, format="json"
    )
    assert empty.status_code == 409
    assert empty.json()["text"] == ["Write the memo: what the player wants the director or the body to know."]
    assert not Filing.objects.exists()


def test_the_schema_documents_the_filings_and_the_memo():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    filing = schema["components"]["schemas"]["Filing"]
    assert list(filing["properties"]) == list(LATE_APPEAL)
    assert filing["properties"]["received_at"]["format"] == "date-time"
    assert filing["properties"]["next_deadline"] == {
        "type": "string",
        "format": "date-time",
        "nullable": True,
        "readOnly": True,
    }
    detail = schema["components"]["schemas"]["AppealDetail"]["properties"]["filings"]
    assert detail["items"] == {"$ref": "#/components/schemas/Filing"}
    memo = schema["paths"]["/api/v1/appeal-memos/"]["post"]
    assert memo["responses"]["201"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Filing"}
    assert set(schema["components"]["schemas"]["MemoInputRequest"]["properties"]) == {
        "ruling",
        "player",
        "text",
        "language",
    }


def test_the_body_decides_a_late_appeal_s_validity_through_the_api(case):
    appeal, _body = late_case(case)
    filing = appeal.filings.get()
    url = f"/api/v1/appeals/{appeal.pk}/validity/"
    said = {"filing": filing.pk, "valid": "no", "reason": "Lodged after the players left"}
    # The director is no member of the body: refused as a person, nothing written.
    refused = api(case.director).post(url, said, format="json")
    assert refused.status_code == 403, refused.json()
    assert Filing.objects.get(pk=filing.pk).validity == "pending"
    response = api(case.members[0]).post(url, said, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["state"] == "out_of_time"
    read = api(case.members[0]).get(f"/api/v1/appeals/{appeal.pk}/").json()["filings"][0]
    assert (read["validity"], read["validity_reason"]) == ("invalid", "Lodged after the players left")
    # Decided once: a second word is refused by the case, naming the field.
    again = api(case.members[1]).post(url, {**said, "valid": "yes"}, format="json")
    assert again.status_code == 409, again.json()


def test_a_player_asks_to_appeal_through_the_api_as_on_their_page(case):
    """POST /api/v1/appeal-requests/: the same service as the page's "Ask to appeal" (issue #44):
    the request is received, numbered and timed, and waits for a director to lodge it."""
    from appeals.models import AppealRequest

    player = north_user(case)
    response = api(player).post(
        "/api/v1/appeal-requests/",
        {"ruling": case.ruling.pk, "grounds": "The hesitation was not clear.", "about": "both"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    asked = AppealRequest.objects.get()
    assert (asked.player, asked.about, asked.state) == (case.north, "both", "open")
    body = response.json()
    assert list(body) == ["id", "ruling", "about", "grounds", "state", "filing"]
    assert (body["id"], body["ruling"], body["about"], body["state"]) == (asked.pk, case.ruling.pk, "both", "open")
    filing = asked.filing
    assert (body["filing"]["number"], body["filing"]["kind"], body["filing"]["filer"]) == (
        filing.number,
        "request",
        "P13 Player13",
    )
    assert body["filing"]["acknowledgement"] == filing.acknowledgement("en")
    # A second request while the first is open is refused, as on the page.
    again = api(player).post("/api/v1/appeal-requests/", {"ruling": case.ruling.pk, "grounds": "Again."}, format="json")
    assert again.status_code == 409
    assert f"Your request to appeal {case.ruling} is already with the director." in str(again.json())
    assert AppealRequest.objects.count() == 1


def test_a_request_to_appeal_is_refused_as_on_the_page(case):
    from appeals.models import AppealRequest

    # A director reads the ruling but asks for nobody: the policy's reason, 403.
    refused = api(case.director).post(
        "/api/v1/appeal-requests/", {"ruling": case.ruling.pk, "grounds": "x"}, format="json"
    )
    assert refused.status_code == 403
    assert f"Only a player or captain of either side at the table asks to appeal {case.ruling}" in str(refused.json())
    # Who does not read the ruling does not find it.
    outsider = api(make_user("outsider")).post(
        "/api/v1/appeal-requests/", {"ruling": case.ruling.pk, "grounds": "x"}, format="json"
    )
    assert outsider.status_code == 404
    player = north_user(case)
    # What the appeal is about must be one of the three; the grounds must be written.
    wrong = api(player).post(
        "/api/v1/appeal-requests/", {"ruling": case.ruling.pk, "grounds": "x", "about": "money"}, format="json"
    )
    assert wrong.status_code == 400
    assert wrong.json()["about"] == ['"money" is not a valid choice.']
    empty = api(player).post("/api/v1/appeal-requests/", {"ruling": case.ruling.pk, "grounds": " "}, format="json")
    assert empty.status_code == 409
    assert empty.json()["grounds"] == ["Write the grounds of the appeal in the appellants' words."]
    assert not AppealRequest.objects.exists() and not Filing.objects.exists()
