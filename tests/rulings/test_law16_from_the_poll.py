"""The Law 16 page's proposal comes from the poll as data (issue #44): where the ruling has a
poll, the logical alternatives and the weights proposed are the poll's finding by the regulating
authority's threshold in force on the ruling's day (rulings.selectors.poll_finding), no weights
where weighted scores are not allowed (Law 12C1e), and the page says so in the reader's words.
The poll: 6 pass, 2 double, 2 3S of 10 peers, and a stronger player's 4S, which is not counted;
South passed at the table after North's hesitation."""

import datetime

import pytest
from django.urls import reverse

from core import policy
from rulings import services
from rulings.models import Ruling
from scoring import services as scoring_services
from tests.conftest import page_in
from tests.rulings.test_poll_thresholds import MORE_THAN_ONE_IN_FOUR, ONE_IN_FIVE, VOTES, _threshold
from tests.rulings.test_revoke_rulings import open_ruling

pytestmark = pytest.mark.django_db

SOURCE = {"kind": "hesitation", "seat": "N", "seconds": 15, "agreed": True, "note": "North paused"}
ALTERNATIVES = [
    {"action": "double", "suggested": True, "contract": "3HX", "declarer": "W", "tricks": 8},
    {"action": "3S", "suggested": True, "contract": "3S", "declarer": "S", "tricks": 8},
    {"action": "4S", "suggested": True, "contract": "4S", "declarer": "S", "tricks": 9},
]
PAGE_SAYS = (
    "The logical alternatives and the weights proposed on this page come from the player poll, by the "
    "regulating authority's threshold in force on the ruling's day:"
)


def _recorded(field, director, threshold):
    _threshold(field, threshold, datetime.date(2000, 1, 1))
    ruling = open_ruling(field, director, kind=Ruling.Kind.UNAUTHORISED_INFORMATION)
    votes = [*VOTES, {"player": "Z. Expert", "action": "4S", "level": "stronger"}]
    services.update_draft(ruling=ruling, by=director, poll={"question": "South's call over 3H?", "votes": votes})
    services.record_unauthorised_information(
        ruling=Ruling.objects.get(pk=ruling.pk),
        by=director,
        source=SOURCE,
        chosen="pass",
        alternatives=ALTERNATIVES,
        gained=True,
    )
    return Ruling.objects.get(pk=ruling.pk)


def test_at_one_in_five_the_proposal_is_double_and_3s_weighted_as_the_peers_chose(client, field, director):
    ruling = _recorded(field, director, ONE_IN_FIVE)
    record = ruling.unauthorised_information
    assert record["finding"]["logical"] == ["double", "3S"]
    assert [(a["action"], a["chose"], a["proposed_logical"]) for a in record["alternatives"]] == [
        ("double", 2, True),
        ("3S", 2, True),
        ("4S", 0, False),
    ]
    assert [(w["contract"], w["weight"]) for w in record["finding"]["weights"]] == [("3HX", "1/2"), ("3S", "1/2")]
    proposal = services.proposed_score(ruling)
    assert proposal["score_kind"] == "weighted" and [r["contract"] for r in proposal["rows"]] == ["3HX", "3S"]
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-unauthorised", args=[ruling.pk])).content.decode()
    assert PAGE_SAYS in page
    assert "Logical alternatives found from the poll: double, 3S." in page
    assert "in proportion to the peers who chose each: double 1/2, 3S 1/2." in page
    hebrew = page_in(client, director, reverse("rulings:ruling-unauthorised", args=[ruling.pk]), "he")
    assert "החלופות ההגיוניות והמשקלים המוצעים בעמוד זה באים מסקר השחקנים" in hebrew
    assert "חלופות הגיוניות שנמצאו מהסקר: double, 3S." in hebrew


def test_above_one_in_four_there_is_no_alternative_and_the_table_result_stands(client, field, director):
    ruling = _recorded(field, director, MORE_THAN_ONE_IN_FOUR)
    finding = ruling.unauthorised_information["finding"]
    assert (finding["logical"], finding["adjust"], finding["weights"]) == ([], False, [])
    assert finding["text"] == "no logical alternative to pass: the partner was free to choose it"
    assert services.proposed_score(ruling) is None
    client.force_login(director)
    form = client.get(reverse("rulings:ruling-edit", args=[ruling.pk])).context["form"]
    assert form.initial.get("outcome") != Ruling.Outcome.ADJUSTED
    page = client.get(reverse("rulings:ruling-unauthorised", args=[ruling.pk])).content.decode()
    assert PAGE_SAYS in page and "No logical alternative is found from the poll." in page


def test_without_weighted_scores_the_page_proposes_no_weights_and_one_result(client, field, director):
    scoring_services.set_authority_setting(
        authority=field.authority,
        key="weighted_scores_allowed",
        value=False,
        effective_from=datetime.date(2000, 1, 1),
        by=policy.SYSTEM,
    )
    ruling = _recorded(field, director, ONE_IN_FIVE)
    assert ruling.unauthorised_information["finding"]["laws"][-1] == "12C1e"
    assert services.proposed_score(ruling)["score_kind"] == "assigned"
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-unauthorised", args=[ruling.pk])).content.decode()
    assert "No weights proposed: the regulating authority does not allow weighted scores (Law 12C1c)" in page
