"""Issue #28: Law 36A (2007, 2017; 1997 Law 35A): "If the offender's LHO calls before
rectification of an inadmissible double or redouble, the inadmissible call and all subsequent
calls are cancelled. The auction reverts to the player whose turn it was at the time of the
infraction, and proceeds as though there had been no irregularity." Table X, dealer North:
1S P X (South doubles his partner) P (West calls over it), then the director; South bids
again: 4S P P P."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from bridge.auction import Auction
from bridge.calls import AuctionCall
from bridge.irregularities import inadmissible_call, later_calls_cancelled
from rulings import services
from rulings.models import Ruling
from tests.rulings.test_revoke_rulings import edition, open_ruling

pytestmark = pytest.mark.django_db

AS_CALLED = ["1S", "Pass", "X", "Pass", "4S", "Pass", "Pass", "Pass"]
FACTS = {"call_number": 3, "inadmissible": "double", "later_calls": 1, "attention_by": "N"}


def with_auction(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    auction = Auction.from_dict(ruling.auction)
    auction.calls = [AuctionCall(call) for call in AS_CALLED]
    Ruling.objects.filter(pk=ruling.pk).update(auction=auction.to_dict())
    return Ruling.objects.get(pk=ruling.pk)


def test_the_laws_number_it_per_edition():
    assert inadmissible_call("2017", "double", lho_called=True).law == "36A"
    assert inadmissible_call("2007", "double", lho_called=True).law == "36A"
    assert inadmissible_call("1997", "double", lho_called=True).law == "35A"
    assert inadmissible_call("1997", "double", lho_called=False).law == "36"
    assert inadmissible_call("1997", "required_pass", lho_called=True).law == "35B"
    assert inadmissible_call("1997", "required_pass", lho_called=False).law == "37"


def test_36A_cancels_the_later_calls_made_before_the_ruling():
    assert later_calls_cancelled("36A", index=2, later_calls=2, total=8) == (3, 4)
    assert later_calls_cancelled("38", index=2, later_calls=0, total=8) == ()
    assert later_calls_cancelled("36B", index=2, later_calls=0, total=8) == ()
    with pytest.raises(Exception) as error:
        later_calls_cancelled("36A", index=2, later_calls=0, total=8)
    assert str(error.value) == (
        "Law 36A: the left-hand opponent called over the inadmissible call: say how many calls were made after it "
        "before the director ruled; they are cancelled with it"
    )
    with pytest.raises(Exception) as error:
        later_calls_cancelled("36A", index=2, later_calls=6, total=8)
    assert str(error.value) == "there is no call 9 in the auction: it ends at call 8"


@pytest.mark.parametrize(("law_edition", "law"), [("2017", "36A"), ("2007", "36A"), ("1997", "35A")])
def test_the_double_and_wests_pass_are_cancelled_and_south_bids_again(field, director, law_edition, law):
    edition(field, law_edition)
    ruling = with_auction(field, director)
    options = services.irregularity_options(ruling, kind="inadmissible_call", facts=FACTS)
    assert [o["key"] for o in options] == [law]
    services.record_irregularity(ruling=ruling, by=director, kind="inadmissible_call", facts=FACTS, chosen=law)
    ruling.refresh_from_db()
    assert ruling.irregularity_law == law
    assert (ruling.irregularity["cancelled_calls"], ruling.irregularity["turn_reverts_to"]) == ([4], "S")
    auction = Auction.from_dict(ruling.auction)
    assert [(c.call, c.seat, c.status, c.law) for c in auction.calls[2:5]] == [
        ("X", "", "cancelled", law),
        ("Pass", "W", "cancelled", law),
        ("4S", "", "", ""),
    ]
    # The auction proceeds as though there had been no irregularity: South's 4S, three passes.
    assert auction.validate() == ("4S", "N")


def test_36A_needs_the_later_calls(field, director):
    ruling = with_auction(field, director)
    facts = {**FACTS, "later_calls": None, "lho_called": True}
    with pytest.raises(ValidationError) as error:
        services.record_irregularity(ruling=ruling, by=director, kind="inadmissible_call", facts=facts, chosen="36A")
    assert error.value.message_dict == {
        "later_calls": [
            "Law 36A: the left-hand opponent called over the inadmissible call: say how many calls were made after "
            "it before the director ruled; they are cancelled with it"
        ]
    }
    with pytest.raises(ValidationError) as error:
        services.irregularity_options(ruling, kind="inadmissible_call", facts={**FACTS, "later_calls": -1})
    assert error.value.message_dict == {"later_calls": ["Give the number of later calls: 0 or more."]}


def test_the_page_records_the_later_calls_and_says_what_became_of_them(client, field, director):
    ruling = with_auction(field, director)
    client.force_login(director)
    url = reverse("rulings:ruling-irregularity", args=[ruling.pk])
    data = {"kind": "inadmissible_call", "call_number": 3, "inadmissible": "double", "later_calls": 1}
    page = client.post(url, {**data, "action": "options"}).content.decode()
    assert 'value="36A"' in page
    response = client.post(url, {**data, "action": "record", "chosen": "36A"})
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert "1 later call (call 4) is cancelled with it; the auction reverts to S." in page
