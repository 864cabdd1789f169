"""Law 92B gives the appeal period to the regulating authority, and no one the power to extend it:
whether the director in charge may extend it after it has run is the authority's dated setting
``appeal_period_extension`` (issue #39). The Laws' preset allows no extension."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from appeals import services
from scoring import presets
from tests.appeals.conftest import at, lodge, regulate

pytestmark = pytest.mark.django_db


def test_where_the_regulations_allow_none_the_chief_director_cannot_extend(case):
    regulate(case, "appeal_period_extension", "none")
    with pytest.raises(ValidationError) as error:
        services.extend_deadline(ruling=case.ruling, by=case.chief, until=at(90), reason="Posted late", now=at(40))
    assert error.value.message_dict["until"][0].endswith(
        "do not allow the appeal period to be extended (Law 92B gives the period to the regulating authority)."
    )
    assert not case.ruling.appeal_extensions.exists()
    # The appeal after the period is received all the same (issue #44): its body decides.
    assert lodge(case, now=at(40)).filings.get().validity == "pending"


def test_where_the_director_in_charge_may_extend_he_does(case):
    regulate(case, "appeal_period_extension", "director_in_charge")
    extension = services.extend_deadline(
        ruling=case.ruling, by=case.chief, until=at(90), reason="Posted late", now=at(40)
    )
    assert lodge(case, now=at(80)).extension == extension


def test_the_lodging_page_offers_the_extension_only_where_allowed(case, client):
    client.force_login(case.chief)
    url = reverse("appeals:appeal-lodge", args=[case.ruling.pk])
    assert "Extend the appeal period" in client.get(url).content.decode()
    regulate(case, "appeal_period_extension", "none")
    assert "Extend the appeal period" not in client.get(url).content.decode()


def test_the_presets_say_which():
    """The Laws' preset: none (92B); the bodies' presets keep the system's default until checked."""
    day = datetime.date(2020, 1, 1)
    assert presets.load("laws").entry_on("appeal_period_extension", day).value == "none"
    assert presets.load("ebu").entry_on("appeal_period_extension", day).value == "director_in_charge"
