"""The traveller's "Ruling" on a row that has one opens it (issue #42, item 5): it opened a new
ruling on a table already ruled on."""

import pytest
from django.urls import reverse

from tests.appeals.conftest import case, shown  # noqa: F401 (case is a fixture)

pytestmark = pytest.mark.django_db


def test_a_ruled_row_opens_its_ruling_and_the_others_a_new_one(case, client):  # noqa: F811
    client.force_login(case.director)
    board = case.record.boards[0]
    page = shown(client.get(reverse("scoring:board", args=[board.pk])))
    ruled = case.record.results[6]
    assert (
        f'<a class="button-link ruling-given" href="/rulings/{case.ruling.pk}/">Ruling {case.ruling.number}</a>' in page
    )
    assert reverse("rulings:ruling-new", args=[ruled.pk]) not in page
    others = [r for r in case.record.results if r.board_id == board.pk and r.pk != ruled.pk]
    assert others and all(reverse("rulings:ruling-new", args=[r.pk]) in page for r in others)
    assert page.count('class="has-ruling"') == 1
