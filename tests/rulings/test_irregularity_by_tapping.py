"""The irregularity page by tapping (issue #39): the auction entered or put right on a bidding
box (rulings.services.enter_auction; the typed field behind it is the page without scripts), the
irregular call's place tapped in the auction, the call on the bidding box, the card in the hand
diagram, the option's words (the law and the bid or suit as symbols, never the stored key). The
phone test counting the taps is tests/e2e/test_irregularity_by_tapping.py."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from audit.models import AuditEntry
from bridge.auction import Auction
from rulings import services
from rulings.models import Ruling
from rulings.offline import STATIC_FILES
from tests.rulings.test_revoke_rulings import open_ruling


def _draft(field, director):
    return services.record_ruling(director=director, kind=Ruling.Kind.LAW_APPLIED, result=field.results[6])


def test_the_auction_entered_on_the_bidding_box_is_the_rulings_from_the_boards_dealer(field, director):
    ruling = services.enter_auction(ruling=_draft(field, director), by=director, calls="1S P 4S P P P".split())
    auction = Auction.from_dict(Ruling.objects.get(pk=ruling.pk).auction)
    assert auction.dealer == field.boards[0].dealer
    assert [c.call for c in auction.calls] == ["1S", "Pass", "4S", "Pass", "Pass", "Pass"]
    assert auction.validate() == ("4S", "N")


def test_the_auction_put_right_keeps_the_play_attached(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)  # East leads the C4
    lead = Auction.from_dict(ruling.auction).opening_lead
    services.enter_auction(ruling=ruling, by=director, calls=["1S", "Pass", "3S", "Pass", "4S", "Pass", "Pass", "Pass"])
    auction = Auction.from_dict(Ruling.objects.get(pk=ruling.pk).auction)
    assert len(auction.calls) == 8 and auction.opening_lead == lead
    assert AuditEntry.objects.filter(action="ruling.auction_entered").exists()


@pytest.mark.parametrize(
    "calls, reason",
    [
        ([], "Tap the calls"),
        (["1S", "banana"], "'banana' is not a call"),
        (["1S", "1D"], "insufficient"),
    ],
)
def test_an_auction_that_cannot_have_happened_is_refused_naming_the_field(field, director, calls, reason):
    ruling = _draft(field, director)
    with pytest.raises(ValidationError) as refused:
        services.enter_auction(ruling=ruling, by=director, calls=calls)
    assert reason in " ".join(refused.value.message_dict["auction_calls"])
    assert Ruling.objects.get(pk=ruling.pk).auction is None


def test_an_auction_with_its_irregularities_marked_is_not_replaced(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    facts = {"call_number": 2, "inserted": "1D", "attention_by": "S"}
    services.record_irregularity(ruling=ruling, by=director, kind="insufficient_bid", facts=facts, chosen="27B2")
    with pytest.raises(ValidationError) as refused:
        services.enter_auction(ruling=Ruling.objects.get(pk=ruling.pk), by=director, calls="1S P 4S P P P".split())
    assert "recording them again" in refused.value.message_dict["auction_calls"][0]


def test_the_page_offers_taps_for_the_call_the_card_and_the_option(client, field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    client.force_login(director)
    url = reverse("rulings:ruling-irregularity", args=[ruling.pk])
    page = client.get(url).content.decode()
    # Each call of the auction, by its number; the bidding box's calls; the hand's cards with their seat.
    assert 'data-set="call_number" data-value="2" data-seat="E"' in page
    assert 'data-call="1D">1\u2666</button>' in page and 'data-call="7NT">7NT</button>' in page
    assert 'data-set="card" data-value="D5" data-seat="W"' in page
    # The typed fields stay for the page without scripts, marked for the script to hide.
    assert page.count("data-typed") == 4 and 'name="call_number"' in page and 'name="card"' in page
    assert "js/irregularity-form.js" in page and "js/irregularity-form.js" in STATIC_FILES
    answer = client.post(
        url,
        {"action": "options", "kind": "insufficient_bid", "call_number": "2", "inserted": "1D", "attention_by": "S"},
    ).content.decode()
    assert "Law 27B1a \u00b7 2\u2666</strong>" in answer and ">27B1a:2D<" not in answer
    assert 'value="27B1a:2D"' in answer  # the key is the radio's value, not its words


def test_without_scripts_the_typed_auction_is_entered(client, field, director):
    ruling = _draft(field, director)
    client.force_login(director)
    url = reverse("rulings:ruling-irregularity", args=[ruling.pk])
    refused = client.post(url, {"action": "auction", "auction_calls": "1S 1D"})
    assert refused.status_code == 200 and "insufficient" in refused.content.decode()
    answer = client.post(url, {"action": "auction", "auction_calls": "1s p 4s p p p"})
    assert answer.status_code == 302
    assert [c.call for c in Auction.from_dict(Ruling.objects.get(pk=ruling.pk).auction).calls][:3] == [
        "1S",
        "Pass",
        "4S",
    ]


@pytest.mark.parametrize(
    "law_edition, label",
    [
        ("2017", "The replacement is a comparable call (Law 23A)"),
        ("2007", "The replacement has the same or a more precise meaning as the insufficient bid (Law 27B1b)"),
        ("1997", None),
    ],
)
def test_the_comparable_judgement_is_asked_in_the_words_of_the_editions_paragraph(
    client, field, director, law_edition, label
):
    """The page asks for the judgement the edition's rows read: 2017 23A (a comparable call), 2007
    27B1(b) (a call with the same or a more precise meaning; 2007 Law 23 is the awareness of
    damage), and not at all in 1997, whose Law 27 has no such paragraph. Before, every edition was
    asked about "a comparable call (Law 23A)"."""
    from tests.rulings.test_revoke_rulings import edition

    edition(field, law_edition)
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-irregularity", args=[ruling.pk])).content.decode()
    if label is None:
        assert 'name="comparable"' not in page and "comparable" not in page
    else:
        assert 'name="comparable"' in page and label in page
