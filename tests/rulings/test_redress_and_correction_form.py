"""The ruling form's redress (Law 12C1b) with its fields, and the correction form pre-filled with
the ruling it corrects, its adjusted score included (issue #27)."""

import pytest
from django.urls import reverse

from rulings import services
from rulings.models import Ruling
from tests.conftest import table_x
from tests.rulings.test_corrections import weighted_ruling

pytestmark = pytest.mark.django_db

REDRESS = {
    "kind": "ui",
    "laws": "16B1a, 12C1b",
    "ruling_text": "Redress, less the part of the damage East's revoke caused",
    "outcome": "adjusted",
    "offending_side": "NS",
    "score_kind": "redress",
    "rd_table_contract": "4S",
    "rd_table_declarer": "N",
    "rd_table_tricks": "11",
    "rd_normal_contract": "4S",
    "rd_normal_declarer": "N",
    "rd_normal_tricks": "10",
    "rd_without_contract": "3S",
    "rd_without_declarer": "N",
    "rd_without_tricks": "10",
    "rd_non_offending": "EW",
    "give": "1",
}


def form_page(client, director, url):
    client.force_login(director)
    return client.get(url).content.decode()


def test_the_score_menu_shows_the_redress_fields_with_the_table_result(client, field, director):
    result = table_x(field)
    page = form_page(client, director, reverse("rulings:ruling-new", args=[result.pk]))
    assert 'data-score="redress"' in page
    for name in ("rd_table_contract", "rd_normal_tricks", "rd_without_declarer", "rd_non_offending"):
        assert f'name="{name}"' in page
    assert "The result after normal play" in page and "Non-offending side" in page
    assert f'name="rd_table_contract" value="{result.contract}"' in page  # from the table


def test_a_redress_is_saved_from_the_form(client, field, director):
    result = table_x(field)
    client.force_login(director)
    response = client.post(reverse("rulings:ruling-new", args=[result.pk]), REDRESS)
    assert response.status_code == 302, response.content.decode()[-3000:]
    ruling = Ruling.objects.get()
    assert ruling.score_kind == "redress"
    assert ruling.score["ns"]["non_offending"] == "EW"
    assert ruling.score_description.startswith("redress (table 4S N +1")


def test_a_redress_without_its_side_is_refused_at_the_field(client, field, director):
    client.force_login(director)
    response = client.post(reverse("rulings:ruling-new", args=[table_x(field).pk]), {**REDRESS, "rd_non_offending": ""})
    page = response.content.decode()
    assert response.status_code == 200 and "A redress needs the table result" in page
    assert not Ruling.objects.exists()


def test_the_correction_form_brings_back_an_assigned_score(client, field, director):
    ruling = services.rule(
        result=table_x(field),
        director=director,
        kind="ui",
        laws="16B1a, 12C1c",
        give=True,
        ruling_text="Score adjusted to 3S+1",
        outcome="adjusted",
        score_kind="assigned",
        offending_side="NS",
        ns={"contract": "3S", "declarer": "N", "tricks": 10},
    )
    page = form_page(client, director, reverse("rulings:ruling-correct", args=[ruling.pk]))
    assert 'name="contract" value="3S"' in page
    assert '<option value="N" selected>' in page
    assert 'name="tricks" value="10"' in page


def test_the_correction_form_brings_back_a_weighted_score(client, field, director):
    ruling = weighted_ruling(field, director)
    page = form_page(client, director, reverse("rulings:ruling-correct", args=[ruling.pk]))
    for index, (tricks, weight) in enumerate([(10, "0.5"), (11, "0.3"), (9, "0.2")], start=1):
        assert f'name="w{index}_contract" value="4S"' in page
        assert f'name="w{index}_tricks" value="{tricks}"' in page
        assert f'name="w{index}_weight" value="{weight}"' in page


def test_the_correction_form_brings_back_a_redress(client, field, director):
    client.force_login(director)
    client.post(reverse("rulings:ruling-new", args=[table_x(field).pk]), REDRESS)
    ruling = Ruling.objects.get()
    page = form_page(client, director, reverse("rulings:ruling-correct", args=[ruling.pk]))
    assert 'name="rd_without_contract" value="3S"' in page
    assert 'name="rd_normal_tricks" value="10"' in page
    assert '<option value="EW" selected>' in page
