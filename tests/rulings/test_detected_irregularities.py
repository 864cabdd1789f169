"""The ruling's irregularity page offers what the auction attached shows by itself, with its Law
(issue #39, item 10): three passes with one out of rotation (2017 Law 17D3), and a bid by a player
who had to pass (Law 37), which the director then rules on by one tap ("Rule on it") instead of
typing the call's number and kind. Table X of the ``field`` tournament: dealer North, 4S by North."""

import pytest
from django.urls import reverse

from bridge.auction import Auction, AuctionCall
from rulings import services
from rulings.models import Ruling
from tests.rulings.test_revoke_rulings import open_ruling

pytestmark = pytest.mark.django_db


def with_calls(ruling, calls):
    """The ruling's auction as the table called it (a LIN holds the legal auction only)."""
    auction = Auction.from_dict(ruling.auction)
    auction.calls = [c if isinstance(c, AuctionCall) else AuctionCall(c) for c in calls]
    Ruling.objects.filter(pk=ruling.pk).update(auction=auction.to_dict())
    return Ruling.objects.get(pk=ruling.pk)


# After South's 4S, East passed at West's turn, South called over it (accepted) and West passed:
# North never had his turn.
DEPRIVED = ["1S", "Pass", "4S", AuctionCall("Pass", seat="E"), "Pass", "Pass"]
# East's insufficient 1C replaced by a pass (27B2: West must pass throughout); West bids 5C.
REQUIRED = ["1S", AuctionCall("1C", status="cancelled", law="27B2"), "Pass", "4S", "5C", "Pass", "Pass", "5S"]
REQUIRED += ["Pass", "Pass", "Pass"]


def test_three_passes_one_out_of_rotation_are_found_with_law_17d3(client, field, director):
    ruling = with_calls(open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED), DEPRIVED)
    (found,) = services.detected_irregularities(ruling)
    assert (found["law"], found["number"], found["deprived"], found["cancelled"]) == ("17D3", 4, "N", [3, 4, 5])
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-irregularity", args=[ruling.pk])).content.decode()
    assert "Found in the auction" in page
    assert "Law 17D3</strong> · call 4: three passes, one out of rotation, followed 4S, and North lost his turn" in page


def test_a_bid_by_a_player_who_had_to_pass_is_offered_and_ruled_on_by_one_tap(client, field, director):
    ruling = with_calls(open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED), REQUIRED)
    client.force_login(director)
    url = reverse("rulings:ruling-irregularity", args=[ruling.pk])
    page = client.get(url).content.decode()
    assert "Law 37A</strong> · call 5: West had to pass (Law 27B2, call 2) and called 5C" in page
    # The button's form carries the facts: nothing typed.
    assert '<input type="hidden" name="call_number" value="5">' in page
    assert '<input type="hidden" name="inadmissible" value="required_pass">' in page
    facts = {"kind": "inadmissible_call", "call_number": "5", "inadmissible": "required_pass", "lho_called": "on"}
    page = client.post(url, {**facts, "action": "options"}).content.decode()
    assert 'value="37A"' in page
    response = client.post(url, {**facts, "action": "record", "chosen": "37A"})
    assert response.status_code == 302
    assert Ruling.objects.get(pk=ruling.pk).irregularity_law == "37A"
    # Recorded, it is no longer offered; the call stands as 37A (it had been refused: "West's 5C
    # (call 5) is marked accepted, but nothing is irregular in it").
    ruling = Ruling.objects.get(pk=ruling.pk)
    assert services.detected_irregularities(ruling) == []
    assert Auction.from_dict(ruling.auction).validate() == ("5S", "N")
