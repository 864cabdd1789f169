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
