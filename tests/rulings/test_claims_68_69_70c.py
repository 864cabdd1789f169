"""Claims and concessions per edition (issue #39): a defender's concession his partner objected to
at once is no concession (2007, 2017 68B2; 1997 68B); the 69A point at which an acquiescence was
established is recorded; 70C is cited only when a trick could be lost to the outstanding trump
(70C3). Table X: 4S by North; at trick 6 East holds the QJ of trumps."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from rulings import revokes
from rulings.models import Ruling
from tests.rulings.test_revoke_rulings import edition, open_ruling

pytestmark = pytest.mark.django_db


def laws(ruling):
    return sorted(c.law.number for c in Ruling.objects.get(pk=ruling.pk).citations.all())


@pytest.mark.parametrize("laws_in_force, law", [("2017", "68B2"), ("2007", "68B2"), ("1997", "68B")])
def test_a_concession_void_by_partners_immediate_objection(field, director, laws_in_force, law):
    """2017 68B2: "if a defender attempts to concede one or more tricks and his partner
    immediately objects, no concession has occurred"; play continued and the tricks stand as played."""
    edition(field, laws_in_force)
    ruling = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    item = revokes.record_claim(
        ruling=ruling, by=director, claimer="E", statement="You can have the rest", basis="68B2"
    )
    assert item.facts["basis"] == "68B2"
    revokes.confirm(ruling=ruling, by=director, awarded_tricks=10, normal_line="Play continued: West objected at once")
    assert laws(ruling) == [law]


def test_70c_is_not_cited_when_no_trick_could_be_lost_to_the_trump(field, director):
    """70C3: a trick goes to the opponents only if "a trick could be lost to that trump by any
    normal play"; where the director finds none could, 70C is not cited."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    revokes.record_claim(ruling=ruling, by=director, claimer="N", statement="All mine", trump_cannot_win=True)
    revokes.confirm(ruling=ruling, by=director, awarded_tricks=10, normal_line="Trumps drawn from the top")
    assert laws(ruling) == ["70"]


def test_70c_is_cited_when_a_trick_could_be_lost_to_it(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    revokes.record_claim(ruling=ruling, by=director, claimer="N", statement="All mine")
    revokes.confirm(ruling=ruling, by=director, awarded_tricks=9, normal_line="Trumps not drawn: East ruffs")
    assert laws(ruling) == ["70", "70C"]


def test_the_69a_point_is_recorded(field, director):
    """69A: acquiescence occurs when a contestant raises no objection "before his side makes a
    call on a subsequent board, or before the round ends, whichever happens first"."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    item = revokes.record_claim(
        ruling=ruling, by=director, claimer="N", statement="All mine", basis="69B", acquiesced_by="next_board"
    )
    assert item.facts["acquiesced_by"] == "next_board"
    with pytest.raises(ValidationError) as raised:
        revokes.record_claim(ruling=ruling, by=director, claimer="N", statement="All mine", acquiesced_by="soon")
    assert raised.value.message_dict["acquiesced_by"] == [
        "Say when the acquiescence was established: a call on a later board, or the end of the round (Law 69A)."
    ]


def test_the_69a_point_is_shown_on_the_claim_page(client, field, director):
    """Issue #39, item 6: the 69A point was recorded but no page showed it."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    revokes.record_claim(
        ruling=ruling, by=director, claimer="N", statement="All mine", basis="69B", acquiesced_by="round_end"
    )
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-claim", args=[ruling.pk])).content.decode()
    assert '<p id="claim-acquiesced">Law 69A: the acquiescence was established when the round ended.</p>' in page


def test_the_69a_point_is_shown_on_the_ruling_page(client, field, director):
    """Issue #39: the ruling page a reader sees says when the acquiescence was established, as the
    claim page does (2017 69A: "... when a member of the acquiescing side makes a call on a
    subsequent board, or when the round ends")."""
    ruling = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    revokes.record_claim(
        ruling=ruling, by=director, claimer="N", statement="All mine", basis="69B", acquiesced_by="next_board"
    )
    client.force_login(director)
    page = client.get(reverse("rulings:ruling", args=[ruling.pk])).content.decode()
    assert (
        '<p id="ruling-claim-acquiesced">Law 69A: the acquiescence was established when the acquiescing side '
        "called on a later board.</p>"
    ) in page
