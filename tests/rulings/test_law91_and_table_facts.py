"""Issue #27 (for #28's form): Law 91 offers a warning, a fine and the lesser measure the
regulating authority names (its disciplinary_lesser_measure setting) besides suspension (91A)
and disqualification (91B), none with a score value; and the ruling form records the table's
facts agreed or disputed (Laws 84, 85), screens with the tray's delay and which side noticed
it, and the colleagues the director consulted, which the model and the API already had."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from core import policy
from rulings import services
from rulings.models import Penalty, Ruling
from scoring import services as scoring_services
from scoring.models import Result

pytestmark = pytest.mark.django_db


def disciplinary(field, director, result=6):
    return services.rule(
        result=field.results[result],
        director=director,
        kind="disciplinary_penalty",
        laws="91A",
        ruling_text="Pair warned",
        outcome="result_stands",
    )


def name_lesser_measure(field, name="Written reprimand"):
    scoring_services.set_authority_setting(
        authority=field.session.event.tournament.authority,
        key="disciplinary_lesser_measure",
        value=name,
        effective_from=datetime.date(1997, 1, 1),
        by=policy.SYSTEM,
    )


def test_a_warning_and_a_fine_are_law_91_measures_without_a_score_value(field, director):
    ruling = disciplinary(field, director)
    warning = services.add_penalty(
        ruling=ruling, by=ruling.director, kind="disciplinary", side="NS", unit="warning", offence="Abuse"
    )
    assert str(warning) == "Disciplinary penalty (Law 91): warning (N-S)"
    with pytest.raises(ValidationError) as error:
        services.add_penalty(
            ruling=ruling, by=ruling.director, kind="disciplinary", side="NS", unit="fine", offence="Abuse"
        )
    assert error.value.message_dict["amount"] == ["A fine needs an amount above 0."]
    fine = services.add_penalty(
        ruling=ruling, by=ruling.director, kind="disciplinary", side="NS", unit="fine", amount=20, offence="Abuse"
    )
    assert str(fine) == "Disciplinary penalty (Law 91): 20 fine (N-S)"
    with pytest.raises(ValidationError) as error:
        services.add_penalty(
            ruling=ruling, by=ruling.director, kind="disciplinary", side="NS", unit="warning", amount=3, offence="x"
        )
    assert "amount" in error.value.message_dict
    assert not hasattr(Result.objects.get(pk=field.results[6].pk), "effective")  # no score value


def test_the_lesser_measure_is_the_one_the_regulations_name(field, director):
    ruling = disciplinary(field, director)
    with pytest.raises(ValidationError) as error:
        services.add_penalty(
            ruling=ruling, by=ruling.director, kind="disciplinary", side="EW", unit="lesser", offence="Slow tray"
        )
    assert error.value.message_dict["unit"] == [
        "The regulations in force name no lesser disciplinary measure (Law 91)."
    ]
    name_lesser_measure(field)
    penalty = services.add_penalty(
        ruling=ruling, by=ruling.director, kind="disciplinary", side="EW", unit="lesser", offence="Slow tray"
    )
    assert (penalty.measure, str(penalty)) == (
        "Written reprimand",
        "Disciplinary penalty (Law 91): Written reprimand (E-W)",
    )


def test_a_law_91_measure_is_not_a_procedural_penalty(field, director):
    ruling = disciplinary(field, director)
    with pytest.raises(ValidationError) as error:
        services.add_penalty(
            ruling=ruling, by=ruling.director, kind="procedural", side="NS", unit="warning", amount=1, offence="x"
        )
    assert error.value.message_dict["unit"][0].startswith(
        "A procedural penalty (Law 90) is in matchpoints, percent of a top or IMPs; a warning, a fine,"
    )


def post(client, field, data, result=6):
    base = {"kind": "disciplinary_penalty", "laws": "91A", "ruling_text": "Ruled", "outcome": "result_stands"}
    return client.post(reverse("rulings:ruling-new", args=[field.results[result].pk]), {**base, **data})


def test_the_form_offers_warning_fine_and_the_named_lesser_measure(client, field, director):
    client.force_login(director)
    url = reverse("rulings:ruling-new", args=[field.results[6].pk])
    page = client.get(url).content.decode()
    assert '<option value="warning">warning</option>' in page
    assert '<option value="fine">fine</option>' in page
    assert 'value="lesser"' not in page
    response = post(
        client,
        field,
        {
            "penalty_kind": "disciplinary",
            "penalty_side": "NS",
            "penalty_measure": "fine",
            "penalty_fine": "20",
            "penalty_offence": "Mobile phone in the playing area",
            "give": "1",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    penalty = Penalty.objects.get()
    assert (penalty.unit, penalty.amount) == ("fine", Decimal("20.00"))
    assert "Disciplinary penalty (Law 91): 20 fine (N-S)" in client.get(response["Location"]).content.decode()
    name_lesser_measure(field)
    assert '<option value="lesser">Written reprimand</option>' in client.get(url).content.decode()
    response = post(
        client,
        field,
        {
            "penalty_kind": "disciplinary",
            "penalty_side": "EW",
            "penalty_measure": "lesser",
            "penalty_offence": "Slow tray",
            "give": "1",
        },
        result=5,
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Penalty.objects.get(unit="lesser").measure == "Written reprimand"


def test_a_fine_without_an_amount_is_refused_at_the_fine_field(client, field, director):
    client.force_login(director)
    response = post(
        client,
        field,
        {"penalty_kind": "disciplinary", "penalty_side": "NS", "penalty_measure": "fine", "give": "1"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["penalty_fine"] == ["A fine needs an amount above 0."]


def test_the_form_records_facts_disputed_screens_tray_delay_and_colleagues(client, field, director):
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-new", args=[field.results[6].pk])).content.decode()
    for label in ("disputed (Law 85)", "Screens in use", "Tray delay (seconds)", "Colleagues consulted"):
        assert label in page
    response = post(
        client,
        field,
        {
            "kind": "ui",
            "laws": "16B1a",
            "facts_agreed": "disputed",
            "screens": "on",
            "tray_delay_seconds": "40",
            "noticed_by": "EW",
            "colleagues_consulted": "R. Levi (chief director): the tray delay is significant",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    ruling = Ruling.objects.get()
    assert (ruling.facts_agreed, ruling.screens, ruling.tray_delay_seconds, ruling.noticed_by) == (
        False,
        True,
        40,
        "EW",
    )
    assert ruling.colleagues_consulted == "R. Levi (chief director): the tray delay is significant"
    edit = client.get(reverse("rulings:ruling-edit", args=[ruling.pk])).content.decode()
    assert 'value="disputed" id="id_facts_agreed_1" checked' in edit
    assert 'name="tray_delay_seconds" value="40"' in edit


def test_a_tray_delay_without_screens_is_refused_at_its_field(client, field, director):
    client.force_login(director)
    response = post(client, field, {"kind": "ui", "laws": "16B1a", "tray_delay_seconds": "40"})
    assert response.status_code == 200
    assert response.context["form"].errors["tray_delay_seconds"] == [
        "A tray delay is recorded only when screens are in use."
    ]


def test_without_a_word_on_the_facts_they_are_agreed(client, field, director):
    client.force_login(director)
    assert post(client, field, {"kind": "ui", "laws": "16B1a"}).status_code == 302
    assert Ruling.objects.get().facts_agreed is True
