"""A ruling holds every irregularity of its table, in the order they happened (issue #39, item 10:
"a ruling holds one irregularity, where tables often have two"; recording another replaced it).
Table X of the ``field`` tournament (dealer North, 1S P 4S P P P, the 2017 Laws): East's
insufficient 1D over 1S, replaced by a pass (27B2); then West's 2H at South's turn, cancelled
(29B), South bidding 4S and West passing at his turn (31A2b: East passes at his next turn)."""

import pytest
from django.urls import reverse

from bridge.auction import Auction
from rulings import services
from rulings.models import Ruling
from tests.rulings.test_revoke_rulings import open_ruling

pytestmark = pytest.mark.django_db

INSUFFICIENT = {"call_number": 2, "inserted": "1D", "attention_by": "S"}
# After the insufficient bid is in the record, South's 4S is call 4: West's 2H came before it.
OUT_OF_ROTATION = {"call_number": 4, "inserted": "2H", "seat": "W", "attention_by": "N"}


def record_both(ruling, director):
    services.record_irregularity(ruling=ruling, by=director, kind="insufficient_bid", facts=INSUFFICIENT, chosen="27B2")
    services.record_irregularity(
        ruling=Ruling.objects.get(pk=ruling.pk), by=director, kind="out_of_rotation", facts=OUT_OF_ROTATION,
        chosen="29B",
    )  # fmt: skip
    return Ruling.objects.get(pk=ruling.pk)


def test_both_are_kept_in_the_order_they_happened(field, director):
    ruling = record_both(open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED), director)
    assert [(i["kind"], i["law"], i["position"]) for i in ruling.irregularities] == [
        ("insufficient_bid", "27B2", ["auction", 1]),
        ("out_of_rotation", "31A2b", ["auction", 3]),
    ]
    assert [i["rectification"]["partner_must_pass"] for i in ruling.irregularities] == ["throughout", "next"]
    calls = Auction.from_dict(ruling.auction).calls
    assert [(c.call, c.status, c.law) for c in calls[:5]] == [
        ("1S", "", ""),
        ("1D", "cancelled", "27B2"),
        ("Pass", "", ""),
        ("2H", "cancelled", "31A2b"),
        ("4S", "", ""),
    ]


def test_recorded_in_the_other_order_they_still_read_in_the_order_they_happened(field, director):
    """The call out of rotation recorded first (South's 4S then call 3), the insufficient bid
    inserted before it after: the first one moves a place on, and the list is in table order."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    services.record_irregularity(
        ruling=ruling, by=director, kind="out_of_rotation", facts={**OUT_OF_ROTATION, "call_number": 3}, chosen="29B"
    )
    services.record_irregularity(
        ruling=Ruling.objects.get(pk=ruling.pk), by=director, kind="insufficient_bid", facts=INSUFFICIENT,
        chosen="27B2",
    )  # fmt: skip
    ruling = Ruling.objects.get(pk=ruling.pk)
    assert [(i["kind"], i["position"]) for i in ruling.irregularities] == [
        ("insufficient_bid", ["auction", 1]),
        ("out_of_rotation", ["auction", 3]),
    ]


def test_recording_the_same_call_again_replaces_it(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED)
    services.record_irregularity(ruling=ruling, by=director, kind="insufficient_bid", facts=INSUFFICIENT, chosen="27B2")
    ruling = Ruling.objects.get(pk=ruling.pk)
    services.record_irregularity(
        ruling=ruling, by=director, kind="insufficient_bid", facts={**INSUFFICIENT, "inserted": ""}, chosen="27B2"
    )
    assert len(Ruling.objects.get(pk=ruling.pk).irregularities) == 1


def test_the_ruling_page_shows_them_all(client, field, director):
    ruling = record_both(open_ruling(field, director, kind=Ruling.Kind.LAW_APPLIED), director)
    client.force_login(director)
    page = client.get(reverse("rulings:ruling", args=[ruling.pk])).content.decode()
    first, second = (
        page.index('Law <bdi dir="ltr">27B2</bdi></strong>'),
        page.index('Law <bdi dir="ltr">31A2b</bdi></strong>'),
    )
    assert first < second
