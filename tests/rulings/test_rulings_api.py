"""Rulings over the API and on the pages: the same validation as the form, JSON errors naming
the field, and each role seeing only what it should."""

from pathlib import Path

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from core import policy, roles
from rulings import services, tasks
from rulings.models import Ruling
from scoring import services as scoring_services
from tests.conftest import build_pairs_tournament, make_user

pytestmark = pytest.mark.django_db
LIN_LINK = (Path(__file__).resolve().parents[1] / "fixtures" / "lin" / "handviewer_board1.txt").read_text().strip()


@pytest.fixture
def cast(field):
    """A director and chief of the tournament, its scorer, appeals member and auditor, the players
    at table 7 (where the ruling is) and at table 1, and a director of another tournament."""

    def official(name, role):
        user = make_user(name)
        scoring_services.appoint_official(tournament=field.tournament, user=user, role=role, by=policy.SYSTEM)
        return user

    people = {
        name: official(name, role)
        for name, role in [
            ("director", roles.DIRECTOR),
            ("chief", roles.CHIEF_DIRECTOR),
            ("scorer", roles.SCORER),
            ("appeals", roles.APPEALS_MEMBER),
        ]
    }
    people["auditor"] = make_user("auditor")
    scoring_services.appoint_auditor(authority=field.authority, user=people["auditor"], by=policy.SYSTEM)
    for name, player in (("player_at_table", field.players[12]), ("other_player", field.players[0])):
        people[name] = make_user(name, role=roles.PLAYER)
        player.user = people[name]
        player.save()
    other = build_pairs_tournament(code="elsewhere", name="Elsewhere Open")
    people["stranger"] = make_user("stranger")
    scoring_services.appoint_official(
        tournament=other.tournament, user=people["stranger"], role=roles.DIRECTOR, by=policy.SYSTEM
    )
    return people


def api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def weighted_request(field, **extra):
    data = {
        "result": field.results[6].pk,
        "kind": "ui",
        "give": True,
        "laws": ["16B1a", "12C1c"],
        "ruling_text": "Adjusted",
        "outcome": "adjusted",
        "score_kind": "weighted",
        "offending_side": "NS",
        "ns": [
            {"contract": "4S", "declarer": "N", "tricks": 10, "weight": "0.6"},
            {"contract": "4S", "declarer": "N", "tricks": 9, "weight": "0.4"},
        ],
        "deal_source": LIN_LINK,
    }
    data.update(extra)
    return data


def test_a_director_creates_a_ruling_through_the_api(field, cast):
    response = api(cast["director"]).post("/api/v1/rulings/", weighted_request(field), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["state"] == "given"
    assert body["score"] == {"ns": [[420, "0.6"], [-50, "0.4"]]}
    assert [law["number"] for law in body["laws"]] == ["16B1a", "12C1c"] or sorted(
        law["number"] for law in body["laws"]
    ) == ["12C1c", "16B1a"]
    assert body["auction"]["calls"][0] == {
        "call": "1NT",
        "alert": True,
        "explanation": "15-17",
        "tempo_seconds": None,
        "note": "",
    }
    assert body["deal"].startswith("N:")


@pytest.mark.parametrize(
    "change,field_name,message",
    [
        ({"laws": ["12C9"]}, "laws", "Law 12C9 does not exist in the 2017 Laws"),
        (
            {"deal_source": "https://www.bridgebase.com/tools/handviewer.html?bbo=y"},
            "deal_source",
            "the link has no lin= parameter",
        ),
        (
            {"ns": [{"contract": "4S", "declarer": "N", "tricks": 10, "weight": "0.6"}]},
            "score",
            "weights add up to 0.6, not 1",
        ),
        ({"ns": [{"contract": "4S", "declarer": "N", "tricks": 14, "weight": "1"}]}, "ns[1]", "tricks"),
    ],
)
def test_bad_input_is_refused_as_json_naming_the_field(field, cast, change, field_name, message):
    response = api(cast["director"]).post("/api/v1/rulings/", weighted_request(field, **change), format="json")
    assert response.status_code == 409
    errors = response.json()
    assert field_name in errors, errors
    assert message in " ".join(errors[field_name])
    assert not Ruling.objects.exists()


@pytest.mark.parametrize("who", ["scorer", "appeals", "auditor", "player_at_table", "stranger"])
def test_only_the_tournament_s_directors_record_rulings(field, cast, who):
    response = api(cast[who]).post("/api/v1/rulings/", weighted_request(field), format="json")
    assert response.status_code in (403, 404)  # not theirs to rule on; not theirs to see
    assert not Ruling.objects.exists()


@pytest.mark.parametrize(
    "who,sees",
    [
        ("director", True),
        ("chief", True),
        ("scorer", True),
        ("appeals", True),
        ("auditor", True),
        ("player_at_table", True),
        ("other_player", False),
        ("stranger", False),
    ],
)
def test_who_reads_a_ruling(field, cast, client, who, sees):
    ruling = services.rule(
        result=field.results[6],
        director=cast["director"],
        kind="ui",
        laws="16B1a",
        ruling_text="Result stands",
        outcome="result_stands",
        give=True,
    )
    listed = [r["id"] for r in api(cast[who]).get("/api/v1/rulings/").json()["results"]]
    assert (ruling.pk in listed) is sees
    assert api(cast[who]).get(f"/api/v1/rulings/{ruling.pk}/").status_code == (200 if sees else 404)
    client.force_login(cast[who])
    assert client.get(reverse("rulings:ruling", args=[ruling.pk])).status_code == (200 if sees else 404)


def test_the_form_is_for_directors_of_the_tournament(field, cast, client):
    url = reverse("rulings:ruling-new", args=[field.results[6].pk])
    for who, status in [
        ("director", 200),
        ("chief", 200),
        ("scorer", 403),
        ("player_at_table", 403),
        ("stranger", 404),
    ]:
        client.force_login(cast[who])
        assert client.get(url).status_code == status, who


def test_the_form_shows_errors_in_the_field_and_writes_nothing(field, cast, client):
    client.force_login(cast["director"])
    response = client.post(
        reverse("rulings:ruling-new", args=[field.results[6].pk]),
        {
            "kind": "ui",
            "laws": "12C9",
            "ruling_text": "x",
            "outcome": "adjusted",
            "score_kind": "weighted",
            "offending_side": "NS",
            "w1_contract": "4S",
            "w1_declarer": "N",
            "w1_tricks": "10",
            "w1_weight": "0.5",
            "give": "1",
        },
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Law 12C9 does not exist in the 2017 Laws" in page
    assert "weights add up to 0.5, not 1" in page
    assert not Ruling.objects.exists()


def test_changing_a_ruling_through_the_api_is_logged(field, cast):
    created = api(cast["director"]).post("/api/v1/rulings/", weighted_request(field), format="json").json()
    response = api(cast["chief"]).post(
        f"/api/v1/rulings/{created['id']}/change/",
        {"reason": "Poll showed the 3S bid was not suggested", "outcome": "result_stands"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert response.json()["outcome"] == "result_stands" and response.json()["score"] is None
    ruling = Ruling.objects.get()
    assert ruling.revisions.get().reason == "Poll showed the 3S bid was not suggested"
    assert not hasattr(field.results[6].__class__.objects.get(pk=field.results[6].pk), "effective")
    response = api(cast["scorer"]).post(f"/api/v1/rulings/{created['id']}/change/", {"reason": "x"}, format="json")
    assert response.status_code == 403


def test_double_dummy_table_and_par_from_the_solver(field, cast):
    ruling = services.rule(
        result=field.results[6],
        director=cast["director"],
        kind="claim",
        laws="70D1",
        ruling_text="Result stands",
        outcome="result_stands",
        give=True,
    )
    assert tasks.solve_deal(ruling.pk) is True
    ruling.refresh_from_db()
    # The conftest deal: North-South make 10 tricks in spades and 11 in no-trumps double dummy.
    assert ruling.double_dummy["tricks"]["N"]["S"] == 10
    assert ruling.double_dummy["tricks"]["N"]["NT"] == 11
    assert ruling.double_dummy["par"]["score"] > 0


def test_a_deal_the_solver_cannot_take_is_reported(field, cast, monkeypatch):
    from bridge import deals

    ruling = services.rule(
        result=field.results[6],
        director=cast["director"],
        kind="claim",
        laws="70D1",
        ruling_text="Result stands",
        outcome="result_stands",
        give=True,
    )

    def refuse(deal):
        raise deals.DealError("deal", "the solver returned error -12: too many cards")

    monkeypatch.setattr(deals, "double_dummy", refuse)
    assert tasks.solve_deal(ruling.pk) is False
    ruling.refresh_from_db()
    assert ruling.double_dummy is None
    assert ruling.double_dummy_error == "the solver returned error -12: too many cards"


def test_pbn_export_with_notes(field, cast, client):
    created = api(cast["director"]).post("/api/v1/rulings/", weighted_request(field), format="json").json()
    client.force_login(cast["director"])
    response = client.get(reverse("rulings:ruling-pbn", args=[created["id"]]))
    assert response.status_code == 200
    text = response.content.decode()
    assert '[Deal "' in text and '[Note "1:15-17"]' in text


def test_a_draft_is_given_from_its_page_and_a_pbn_file_can_be_uploaded(field, cast, client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(cast["director"])
    pbn = (
        '[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        '[Deal "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"]\n'
        '[Auction "N"]\n1C Pass 1H Pass\n1S Pass 4H AP\n'
    )
    response = client.post(
        reverse("rulings:ruling-new", args=[field.results[6].pk]),
        {
            "kind": "law_applied",
            "laws": "27B1a",
            "ruling_text": "Result stands",
            "outcome": "result_stands",
            "deal_file": SimpleUploadedFile("board1.pbn", pbn.encode()),
            "draft": "1",
        },
    )
    ruling = Ruling.objects.get()
    assert response.status_code == 302 and ruling.state == Ruling.State.DRAFT
    assert [c["call"] for c in ruling.auction["calls"]][:3] == ["1C", "Pass", "1H"]
    page = client.get(reverse("rulings:ruling", args=[ruling.pk])).content.decode()
    assert "Give ruling" in page
    client.post(reverse("rulings:ruling-give", args=[ruling.pk]))
    ruling.refresh_from_db()
    assert ruling.state == Ruling.State.GIVEN


def test_the_list_filters_by_law_kind_director_and_board(field, cast, client):
    first = services.rule(
        result=field.results[6],
        director=cast["director"],
        kind="ui",
        laws="16B1a",
        ruling_text="Result stands",
        outcome="result_stands",
        give=True,
    )
    second = services.rule(
        result=field.results[5],
        director=cast["chief"],
        kind="claim",
        laws="70D1",
        ruling_text="Result stands",
        outcome="result_stands",
        give=True,
    )
    client.force_login(cast["auditor"])

    def listed(**params):
        page = client.get(reverse("rulings:rulings"), params).content.decode()
        return {r.pk for r in (first, second) if reverse("rulings:ruling", args=[r.pk]) in page}

    assert listed() == {first.pk, second.pk}
    assert listed(law="16B") == {first.pk}
    assert listed(kind="claim") == {second.pk}
    assert listed(director=cast["chief"].pk) == {second.pk}
    assert listed(session=field.session.pk, board=1) == {first.pk, second.pk}
    assert listed(board=2) == set()


def test_the_diagram_as_svg_and_a_missing_deal_is_not_found(field, cast, client):
    created = api(cast["director"]).post("/api/v1/rulings/", weighted_request(field), format="json").json()
    client.force_login(cast["auditor"])
    svg = client.get(reverse("rulings:ruling-svg", args=[created["id"]]))
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    assert b"<svg" in svg.content and b"15-17" in svg.content
    plain = services.rule(
        result=field.results[1],
        director=cast["director"],
        kind="claim",
        laws="70D1",
        ruling_text="Result stands",
        outcome="result_stands",
        give=True,
    )
    # With the board's deal removed, a ruling that has no deal of its own has no image and no PBN.
    field.results[1].board.deal = ""
    field.results[1].board.save(update_fields=["deal"])
    assert client.get(reverse("rulings:ruling-svg", args=[plain.pk])).status_code == 404
    assert client.get(reverse("rulings:ruling-pbn", args=[plain.pk])).status_code == 404
