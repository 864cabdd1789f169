"""The phone's drafts page has the ruling form's one score widget (issue #42, item 2): weighted,
split and redress had no input there; each is offered and a draft sent with it keeps it."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from rulings.models import Ruling

pytestmark = pytest.mark.django_db


def test_the_drafts_page_offers_every_score_kind_with_its_inputs(client, field, director):
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-drafts")).content.decode()
    for name in (
        "contract",
        "ew_contract",
        "w1_weight",
        "w2_contract",
        "rd_table_contract",
        "rd_without_tricks",
        "rd_non_offending",
        "ns_artificial",
        "ew_artificial",
        "appeal_notice",
    ):
        assert f'name="{name}"' in page, name


def test_a_weighted_draft_from_the_phone_keeps_its_weights(field, director):
    client = Client()
    client.force_login(director)
    form = {
        "kind": "ui",
        "laws": "16B1a, 12C1c",
        "ruling_text": "Weighted",
        "outcome": "adjusted",
        "offending_side": "NS",
        "score_kind": "weighted",
        "w1_contract": "3S",
        "w1_declarer": "N",
        "w1_tricks": "10",
        "w1_weight": "70%",
        "w2_contract": "4S",
        "w2_declarer": "N",
        "w2_tricks": "10",
        "w2_weight": "30%",
    }
    body = {"session": field.session.pk, "board": 1, "table": 2, "form": form, "give": True}
    sent = client.post("/api/v1/ruling-drafts/", json.dumps(body), content_type="application/json")
    assert sent.status_code == 201, sent.content
    ruling = Ruling.objects.get()
    assert (ruling.state, ruling.score_kind) == ("given", "weighted")
    assert "3S N +1" in ruling.score_description and "4S N =" in ruling.score_description
