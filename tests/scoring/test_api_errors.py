"""The API contract's rules, one by one (issue #19): strict paging, checked filters, one error
shape, token authentication, JSON for an address no route matches, each appeal step's own
documented body, and the documented statuses."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from core.api_contract import _flatten
from tests.conftest import make_user


def client_for(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize(
    "query,field",
    [
        ("offset=null&offset=null", "offset"),
        ("offset=null", "offset"),
        ("offset=-1", "offset"),
        ("limit=0", "limit"),
        ("limit=1.5", "limit"),
        ("limit=5&limit=6", "limit"),
    ],
)
def test_paging_parameters_of_the_wrong_form_are_refused(record, people, query, field):
    response = client_for(people.director).get(f"/api/v1/boards/?{query}")
    assert response.status_code == 400
    assert list(response.json()) == [field]


def test_valid_paging_is_accepted(record, people):
    response = client_for(people.director).get("/api/v1/boards/?limit=1&offset=1")
    assert response.status_code == 200
    assert response.json()["count"] == 2 and len(response.json()["results"]) == 1


@pytest.mark.parametrize(
    "list_url", ["/api/v1/boards/", "/api/v1/authorities/", "/api/v1/rulings/", "/api/v1/appeals/"]
)
def test_a_huge_limit_or_offset_is_a_page_not_a_server_error(record, people, list_url, django_user_model):
    """Were a 500 (an overflow in the database driver), found by schemathesis on the authorities."""
    client = client_for(django_user_model.objects.create_superuser("root", password="pw-root"))
    everything = client.get(list_url).json()["count"]
    huge = "2044903467371822927388274392563712"
    response = client.get(f"{list_url}?limit={huge}")
    assert response.status_code == 200
    assert len(response.json()["results"]) == min(everything, 1000)
    response = client.get(f"{list_url}?offset={huge}")
    assert response.status_code == 200
    assert response.json()["results"] == [] and response.json()["count"] == everything


@pytest.mark.parametrize(
    "url,field",
    [
        ("/api/v1/boards/?session=abc", "session"),
        ("/api/v1/boards/?session=1.5", "session"),
        ("/api/v1/boards/?session=99999999999999999999999", "session"),  # was a 500: an overflow in the driver
        ("/api/v1/events/{event}/standings/?session=99999999999999999999999", "session"),
        ("/api/v1/contestants/?event=x", "event"),
        ("/api/v1/rulings/?kind=nonsense", "kind"),
        ("/api/v1/laws/?law=from", "law"),
        ("/api/v1/appeals/?state=asleep", "state"),
    ],
)
def test_filters_of_the_wrong_form_are_refused_naming_the_parameter(record, people, url, field):
    response = client_for(people.director).get(url.format(event=record.event.pk))
    assert response.status_code == 400, response.content
    assert field in response.json()


def test_filters_filter(record, people, other_record):
    client = client_for(make_user("root", is_superuser=True))
    boards = client.get(f"/api/v1/boards/?session={record.session.pk}").json()["results"]
    assert {board["session"] for board in boards} == {record.session.pk}
    assert client.get("/api/v1/boards/?number=2").json()["count"] == 2


def test_one_error_shape_for_every_status(record, people):
    client = client_for(people.player)
    missing = client.get("/api/v1/boards/999999/")
    assert missing.status_code == 404 and list(missing.json()) == ["detail"]
    assert isinstance(missing.json()["detail"], list)
    refused = client.patch(f"/api/v1/boards/{record.boards[0].pk}/", {"number": 7}, format="json")
    assert refused.status_code == 403
    assert list(refused.json()) == ["detail"] and isinstance(refused.json()["detail"], list)
    anonymous = APIClient().get("/api/v1/boards/")
    assert anonymous.status_code == 403 and isinstance(anonymous.json()["detail"], list)


def test_nested_errors_are_flattened_to_field_paths():
    assert _flatten({"members": {"0": ["A valid integer is required."]}, "x": ["y"]}) == {
        "members.0": ["A valid integer is required."],
        "x": ["y"],
    }
    assert _flatten(["whole body"]) == {"detail": ["whole body"]}


def test_an_address_no_route_matches_answers_json_under_api(record, people):
    response = client_for(people.director).get("/api/v1/boards/0.5/traveller/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": ["Not found."]}


def test_a_body_naming_a_missing_record_is_a_404_naming_the_field(record, people):
    response = client_for(people.director).post("/api/v1/boards/", {"session": 999999, "number": 9}, format="json")
    assert response.status_code == 404
    assert list(response.json()) == ["session"]


def test_a_token_logs_a_script_in(record, people):
    token = Token.objects.create(user=people.scorer)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get(f"/api/v1/boards/?session={record.session.pk}").status_code == 200
    response = client.post("/api/v1/boards/", {"session": record.session.pk, "number": 3}, format="json")
    assert response.status_code == 201  # no CSRF token needed: the token is the credential
    client.credentials(HTTP_AUTHORIZATION="Token not-a-key")
    assert client.get("/api/v1/boards/").status_code in (401, 403)


def test_the_schema_documents_each_step_s_body_and_the_errors(record, people):
    schema = client_for(people.player).get("/api/schema/?format=json").json()
    paths, components = schema["paths"], schema["components"]["schemas"]
    schedule = paths["/api/v1/appeals/{id}/schedule/"]["post"]
    body = schedule["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert body == "ScheduleInputRequest"
    assert components[body]["required"] == ["starts_at"]
    assert set(schedule["responses"]) == {"200", "400", "403", "404", "409", "422", "429"}
    assert schedule["responses"]["409"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"
    }
    assert components["Error"]["additionalProperties"] == {"type": "array", "items": {"type": "string"}}
    assert "requestBody" not in paths["/api/v1/appeals/{id}/deposit/"]["post"]
    assert {p["name"] for p in paths["/api/v1/rulings/"]["get"]["parameters"]} >= {
        "tournament",
        "session",
        "board",
        "director",
        "law",
        "kind",
        "state",
        "limit",
        "offset",
    }
    assert "tokenAuth" in schema["components"]["securitySchemes"]
    # The shapes the issue found wrong: lists as lists, nullable deadlines, members with ids.
    assert components["Ruling"]["properties"]["penalties"]["type"] == "array"
    assert components["Session"]["properties"]["appeal_deadline"]["nullable"] is True
    member = components["Contestant"]["properties"]["members"]["items"]["$ref"].rsplit("/", 1)[1]
    assert "id" in components[member]["required"]


def test_the_schema_states_that_texts_refuse_nul_as_the_api_does(record, people):
    """Issue #30: the API refused NUL characters in every text while its schema did not say so."""
    schema = client_for(people.player).get("/api/schema/?format=json").json()
    components = schema["components"]["schemas"]
    assert components["StatementsInputRequest"]["properties"]["respondents_statement"]["pattern"] == "^[^\\x00]*$"
    assert "pattern" not in components["ScheduleInputRequest"]["properties"]["starts_at"]  # a date-time
    assert "pattern" not in components["Ruling"]["properties"]["facts"]  # what the API answers, not reads
    answer = client_for(people.director).post("/api/v1/rulings/", {"facts": "North hesitated\x00"}, format="json")
    assert answer.status_code == 400
    assert answer.json()["facts"] == ["Null characters are not allowed."]
