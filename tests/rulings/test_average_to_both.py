"""Average to both sides (Law 12C2, neither side at fault) is given with no offending side
(issue #42): the ruling form refused it with "Mark the offending side of an adjusted score."."""

import pytest
from django.urls import reverse

from rulings.models import Ruling

pytestmark = pytest.mark.django_db


def artificial(ns, ew, **extra):
    return {
        "kind": "adjusted_score",
        "laws": "12C2",
        "ruling_text": "No result could be obtained: Average to both",
        "outcome": "adjusted",
        "score_kind": "artificial",
        "ns_artificial": ns,
        "ew_artificial": ew,
        "give": "1",
        **extra,
    }


def test_average_to_both_is_given_with_no_offender(client, field, director):
    client.force_login(director)
    response = client.post(reverse("rulings:ruling-new", args=[field.results[6].pk]), artificial("AVE", "AVE"))
    assert response.status_code == 302, response.context["form"].errors
    ruling = Ruling.objects.get()
    assert (ruling.state, ruling.offending_side, ruling.score) == ("given", "", {"ns": "AVE", "ew": "AVE"})


def test_average_minus_to_a_side_still_names_the_side_at_fault(client, field, director):
    client.force_login(director)
    response = client.post(reverse("rulings:ruling-new", args=[field.results[6].pk]), artificial("AVE+", "AVE-"))
    assert response.status_code == 200
    assert response.context["form"].errors["offending_side"] == ["Mark the offending side of an adjusted score."]
    assert not Ruling.objects.filter(state="given").exists()
