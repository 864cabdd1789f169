"""Issue #28: the director's decision on a contested claim honours Law 70D2 (he "does not accept
any part of a defender's claim that depends on his partner selecting a particular play from
among alternative normal plays"), 70D3 (play after the claim "may provide evidence to be deemed
part of the clarification of the claim") and 70E2 (the regulating authority "may specify an
order (e.g. 'from the top down') in which the Director shall deem a suit to have been played if
this was not clarified in the statement of claim"), in the 2007 and 2017 Laws; the 1997 Law 70
has none of them. Table X: 4S by North."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from bridge.claims import ClaimFlags, claim_laws, deemed_suit_order
from core import policy
from rulings import revokes
from rulings.models import Ruling, TrickRuling
from scoring import services as scoring_services
from tests.rulings.test_claims_adjudicated import laws
from tests.rulings.test_revoke_rulings import edition as set_edition
from tests.rulings.test_revoke_rulings import open_ruling

pytestmark = pytest.mark.django_db

# Five cards each, North on lead, declarer (North) has won 8 tricks.
LEFT = "N:AK9..T7. QJ82.T.. T73..A8. 54..96.7"


def suit_order(field, value):
    scoring_services.set_authority_setting(
        authority=field.authority,
        key="claim_suit_order",
        value=value,
        effective_from=datetime.date(2000, 1, 1),
        by=policy.SYSTEM,
    )


def claim(field, director, **facts):
    ruling = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    facts = {"claimer": "N", "statement": "The rest are mine", "trump_mentioned": True, **facts}
    return ruling, revokes.record_claim(ruling=ruling, by=director, **facts)


def test_the_laws_each_flag_cites_per_edition():
    every = ClaimFlags(
        new_line=True, unstated_line=True, partner_choice=True, played_after="HK HA", order_unstated=True
    )
    assert claim_laws(every, edition="2017", trump_unmentioned=True) == ["70C", "70D1", "70D2", "70D3", "70E1", "70E2"]
    assert claim_laws(every, edition="2007", trump_unmentioned=False) == ["70D1", "70D2", "70D3", "70E1", "70E2"]
    assert claim_laws(every, edition="1997", trump_unmentioned=False) == ["70D", "70E"]
    assert claim_laws(ClaimFlags(), edition="2017", trump_unmentioned=False) == []


def test_from_the_top_down_is_the_highest_card_first():
    assert deemed_suit_order("Q9J2", "top_down") == "QJ92"
    assert deemed_suit_order("t8a", "top_down") == "AT8"


@pytest.mark.parametrize("edition", ["2007", "2017"])
def test_a_defenders_claim_depending_on_his_partners_choice_cites_70D2(client, field, director, edition):
    set_edition(field, edition)
    ruling, item = claim(
        field, director, claimer="E", statement="Partner's heart wins the last trick", partner_choice=True
    )
    assert item.facts["partner_choice"] is True
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-claim", args=[ruling.pk])).content.decode()
    assert (
        "70D2: part of a defender's claim depends on his partner choosing one play among normal ones: "
        "the director does not accept that part." in page
    )
    revokes.confirm(ruling=ruling, by=director, awarded_tricks=10, normal_line="West may discard the heart")
    assert laws(ruling) == ["70", "70D2"]


def test_70D2_is_about_a_defenders_claim_only(field, director):
    with pytest.raises(ValidationError) as error:
        claim(field, director, claimer="S", partner_choice=True)
    assert error.value.message_dict == {
        "partner_choice": ["Law 70D2 is about a defender's claim: South claimed for declarer's side"]
    }


def test_play_after_the_claim_is_evidence_under_70D3(client, field, director):
    ruling, item = claim(field, director, played_after="SA SK")
    assert item.facts["played_after"] == "SA SK"
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-claim", args=[ruling.pk])).content.decode()
    assert (
        "70D3: play should have ceased, but cards were played after the claim (SA SK): the director may take them "
        "as evidence of the players' probable plays and of the claim's accuracy." in page
    )
    revokes.confirm(ruling=ruling, by=director, awarded_tricks=10, normal_line="Trumps drawn first")
    assert laws(ruling) == ["70", "70D3"]


@pytest.mark.parametrize(
    ("field_name", "value", "law"),
    [("played_after", "SA", "70D3"), ("partner_choice", True, "70D2"), ("order_unstated", True, "70E2")],
)
def test_the_1997_laws_have_no_70D2_70D3_or_70E2(field, director, field_name, value, law):
    set_edition(field, "1997")
    suit_order(field, "top_down")
    with pytest.raises(ValidationError) as error:
        claim(field, director, claimer="E", **{field_name: value})
    assert error.value.message_dict == {
        field_name: [f"Law {law} is in the 2007 and 2017 Laws, not in the 1997 Laws in force"]
    }


def test_70E2_needs_an_order_the_regulations_specify(field, director):
    with pytest.raises(ValidationError) as error:
        claim(field, director, order_unstated=True, remaining=LEFT, leader="N", declarer_won=8)
    assert error.value.message_dict == {
        "order_unstated": [
            "the regulations in force specify no order in which a suit is deemed played (Law 70E2): judge the line "
            "under Law 70A instead"
        ]
    }


def test_a_suit_whose_order_was_not_stated_is_deemed_played_from_the_top_down(client, field, director):
    suit_order(field, "top_down")
    ruling, item = claim(field, director, order_unstated=True, remaining=LEFT, leader="N", declarer_won=8)
    assert revokes.deemed_orders(item) == {"N": {"S": "AK9", "D": "T7"}, "S": {"S": "T73", "D": "A8"}}
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-claim", args=[ruling.pk])).content.decode()
    assert (
        "70E2: the statement did not give the order a suit is played in: the regulations deem it played from the "
        'top down. <span dir="ltr">N: S AK9, D T7 · S: S T73, D A8</span>' in page
    )
    revokes.confirm(ruling=ruling, by=director, awarded_tricks=12, normal_line="Spades from the top, then diamonds")
    assert laws(ruling) == ["70", "70E2"]


def test_the_claim_page_records_the_new_facts(client, field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    client.force_login(director)
    response = client.post(
        reverse("rulings:ruling-claim", args=[ruling.pk]),
        {
            "action": "claim",
            "claim-basis": "70",
            "claim-claimer": "S",
            "claim-statement": "All mine",
            "claim-trump_mentioned": "on",
            "claim-partner_choice": "on",
        },
    )
    assert response.status_code == 200
    assert response.context["claim"].errors["partner_choice"] == [
        "Law 70D2 is about a defender's claim: South claimed for declarer's side"
    ]


def test_the_claim_page_shows_each_hand_spades_first_whatever_order_the_database_keeps(client, field, director):
    """PostgreSQL's jsonb gives the guide's suits back clubs first (shorter keys, then by
    letter): the page listed each hand in that order there."""
    ruling, item = claim(field, director, remaining=LEFT, leader="N", declarer_won=8)
    guide = TrickRuling.objects.get(pk=item.pk).guide
    assert guide is not None
    guide["remaining"] = {seat: dict(reversed(list(hand.items()))) for seat, hand in guide["remaining"].items()}
    TrickRuling.objects.filter(pk=item.pk).update(guide=guide)  # clubs first, as jsonb keeps them
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-claim", args=[ruling.pk])).content.decode()
    north = page[page.index("hand hand-n") :]
    north = north[: north.index("</div></div>")]
    assert [north.index(f"s-{suit}") for suit in "SHDC"] == sorted(north.index(f"s-{suit}") for suit in "SHDC")
