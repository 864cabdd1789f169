"""Weights of a weighted score (Law 12C1c) read back as the director typed them (issue #42, item 8):
typed 30% and 70% they came back as 0.3 and 0.7 in the correction form, the API and the
committee's decision; the scores are computed exactly from the weights as before."""

from decimal import Decimal

import pytest
from django.urls import reverse

from rulings.models import Ruling
from scoring import recalculation
from scoring.models import BoardScore
from tests.conftest import table_x

pytestmark = pytest.mark.django_db


def typed(**weights):
    """The ruling form's fields for a weighted score at table X: 4S N = (+420) and 4S N -1 (-50)."""
    fields = {
        "kind": "ui",
        "laws": "16B1a, 12C1c",
        "ruling_text": "Score adjusted",
        "outcome": "adjusted",
        "offending_side": "NS",
        "score_kind": "weighted",
        "give": "1",
    }
    for index, tricks in ((1, "10"), (2, "9")):
        fields.update({f"w{index}_contract": "4S", f"w{index}_declarer": "N", f"w{index}_tricks": tricks})
        fields[f"w{index}_weight"] = weights[f"w{index}"]
    return fields


def ruled(client, field, director, w1, w2):
    client.force_login(director)
    response = client.post(reverse("rulings:ruling-new", args=[table_x(field).pk]), typed(w1=w1, w2=w2))
    assert response.status_code == 302, response.content.decode()[-3000:]
    return Ruling.objects.get()


def test_weights_typed_as_percentages_read_back_as_percentages(client, field, director):
    ruling = ruled(client, field, director, "30%", "70%")
    correcting = client.get(reverse("rulings:ruling-correct", args=[ruling.pk])).content.decode()
    assert 'name="w1_weight" value="30%"' in correcting
    assert 'name="w2_weight" value="70%"' in correcting
    api = client.get(f"/api/v1/rulings/{ruling.pk}/").json()
    assert api["score"] == {"ns": [[420, "30%"], [-50, "70%"]]}
    assert api["score_description"] == "30% 4S N = / 70% 4S N -1"
    page = client.get(reverse("rulings:ruling", args=[ruling.pk])).content.decode()
    assert "30% 4S N = / 70% 4S N -1" in page


@pytest.mark.parametrize("w1,w2", [("1/3", "2/3"), ("0.6", "0.4"), ("35 %", "65%")])
def test_weights_typed_as_fractions_or_decimals_read_back_as_typed(client, field, director, w1, w2):
    ruling = ruled(client, field, director, w1, w2)
    correcting = client.get(reverse("rulings:ruling-correct", args=[ruling.pk])).content.decode()
    shown = [w.replace(" ", "") for w in (w1, w2)]  # "35 %" is kept as "35%"
    assert f'name="w1_weight" value="{shown[0]}"' in correcting
    assert f'name="w2_weight" value="{shown[1]}"' in correcting
    assert client.get(f"/api/v1/rulings/{ruling.pk}/").json()["score"] == {"ns": [[420, shown[0]], [-50, shown[1]]]}


def board_score(field):
    recalculation.recalculate_board(field.boards[0].pk)
    return BoardScore.objects.get(result=table_x(field)).ns


def test_the_matchpoints_of_30_and_70_percent_are_those_of_0_3_and_0_7(client, field, director):
    ruled(client, field, director, "0.3", "0.7")
    as_decimals = board_score(field)
    Ruling.objects.all().delete()
    ruled(client, field, director, "30%", "70%")
    assert board_score(field) == as_decimals == Decimal("3.1")


def test_a_row_stored_before_keeps_its_weights(client, field, director):
    ruling = ruled(client, field, director, "0.3", "0.7")
    Ruling.objects.filter(pk=ruling.pk).update(score={"ns": [[420, "0.3"], [-50, "0.7"]]})  # as stored before
    correcting = client.get(reverse("rulings:ruling-correct", args=[ruling.pk])).content.decode()
    assert 'name="w1_weight" value="0.3"' in correcting and 'name="w2_weight" value="0.7"' in correcting
    assert board_score(field) == Decimal("3.1")
