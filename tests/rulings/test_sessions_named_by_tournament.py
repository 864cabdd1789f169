"""The drafts page and the rulings filter name each session with its tournament (issue #42, item
7): two tournaments' "Pairs · Session 1" read the same."""

import pytest
from django.urls import reverse

from tests.conftest import ruling_at

pytestmark = pytest.mark.django_db


def test_the_drafts_page_names_the_tournament(client, field, director):
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-drafts")).content.decode()
    assert f">{field.tournament.name} · {field.event.name} · {field.session}</option>" in page


def test_the_rulings_filter_names_the_tournament(client, field, director):
    ruling_at(field.results[0], director)
    client.force_login(director)
    page = client.get(reverse("rulings:rulings")).content.decode()
    assert f">{field.tournament.name} · {field.event.name} · {field.session}</option>" in page
