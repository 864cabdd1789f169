"""The revoke page and service read the edition's rows of Laws 61-64 (bridge.revoke_laws.REVOKE_LAWS;
issue #39). The ``field`` tournament's table X, board 1, and tests/fixtures/lin/revoke_board1.lin (East
revokes at trick 3, established at trick 4), as in tests/rulings/test_revoke_rulings.py."""

import pytest
from django.urls import reverse

from rulings import revokes
from rulings.models import Ruling
from tests.rulings.test_revoke_rulings import edition, open_ruling


@pytest.mark.parametrize(("edition_in_force", "offered"), [("1997", False), ("2007", True), ("2017", True)])
def test_64B7_is_offered_on_the_page_only_where_the_edition_has_it(client, field, director, edition_in_force, offered):
    """2007 and 2017 64B7 ("both sides have revoked on the same board"); the 1997 Law 64B has no
    such paragraph, and its page offered the box all the same."""
    edition(field, edition_in_force)
    ruling = open_ruling(field, director)
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-revoke", args=[ruling.pk])).content.decode()
    assert ("64B7: both sides revoked on this board" in page) == offered
    assert ('name="entered-both_sides_revoked"' in page) == offered
    assert '<option value="63A3">63A3</option>' in page  # 63A's rows, every edition
    assert ('<option value="63A4">63A4</option>' in page) == (edition_in_force == "2017")  # 2017 63A4 alone


def test_1997_a_revoke_by_each_side_entered_on_the_page_is_rectified_under_64A(client, field, director):
    """1997 64A2, one trick: the 1997 page has no 64B7 box, and a posted one is not read."""
    edition(field, "1997")
    ruling = open_ruling(field, director)
    client.force_login(director)
    url = reverse("rulings:ruling-revoke", args=[ruling.pk])
    response = client.post(url, {"action": "from_play", "play-revoke": "0", "play-both_sides_revoked": "on"})
    assert response.status_code == 302
    item = revokes.trick_ruling(Ruling.objects.get(pk=ruling.pk))
    assert (item.law, item.transfer) == ("64A2", 1)


def test_1997_63B_on_the_page_is_cited_apart_from_43B2b(client, field, director):
    """1997 63B (attention drawn in violation of Law 61B): the page's box, the transfer as if
    established (64A2, one trick: 4S N +1) and the citations 64A2 and 63B, not 43B2b."""
    edition(field, "1997")
    ruling = open_ruling(field, director)
    client.force_login(director)
    url = reverse("rulings:ruling-revoke", args=[ruling.pk])
    page = client.get(url).content.decode()
    assert "Corrected, but attention was drawn to it in violation of Law 61B: rectified as if established (63B)" in page
    response = client.post(url, {"action": "from_play", "play-revoke": "0", "play-attention_illegally_drawn": "on"})
    assert response.status_code == 302
    item = revokes.trick_ruling(Ruling.objects.get(pk=ruling.pk))
    assert (item.law, item.transfer, item.result_tricks) == ("64A2", 1, 11)
    assert item.facts["attention_illegally_drawn"] and not item.facts["established"]
    revokes.confirm(ruling=ruling, by=director)
    ruling.refresh_from_db()
    assert [c.law.number for c in ruling.citations.all()] == ["64A2", "63B"]


@pytest.mark.parametrize("edition_in_force", ["2007", "2017"])
def test_2007_2017_the_page_has_no_63B_box(client, field, director, edition_in_force):
    """2007 and 2017 63B is the revoke that may not be corrected: no box for a violation of 61B."""
    edition(field, edition_in_force)
    ruling = open_ruling(field, director)
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-revoke", args=[ruling.pk])).content.decode()
    assert "violation of Law 61B" not in page


def test_2017_63A4_entered_on_the_page_is_established(client, field, director):
    """2017 63A4 ("when agreement is established (as per Law 69A) to an opponent's claim"): the
    facts entered with it are an established revoke, 64A2, one trick."""
    ruling = open_ruling(field, director)
    client.force_login(director)
    url = reverse("rulings:ruling-revoke", args=[ruling.pk])
    response = client.post(
        url,
        {
            "action": "entered",
            "entered-trick": "3",
            "entered-offender": "E",
            "entered-established_by": "63A4",
            "entered-offending_side_tricks_after": "3",
        },
    )
    assert response.status_code == 302
    item = revokes.trick_ruling(Ruling.objects.get(pk=ruling.pk))
    assert (item.law, item.transfer, item.facts["established_by"]) == ("64A2", 1, "63A4")
