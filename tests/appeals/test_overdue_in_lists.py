"""A case's "decide by" that has passed is marked overdue in the lists (issue #42, item 6): the
open cases on the appeals page and "Waiting for you" said only "closed", or nothing."""

import datetime

import pytest
from django.utils import timezone

from appeals.models import Appeal
from tests.appeals.conftest import committee, lodge, shown

pytestmark = pytest.mark.django_db


def open_cases(page):
    return page[page.index("Open cases") :]


def test_a_past_decide_by_is_overdue_on_the_appeals_page_and_in_waiting_for_you(case, client):
    appeal = lodge(case)  # to be decided before session 2 (2 May 2026): long past
    committee(case, appeal)
    appeal.refresh_from_db()
    assert appeal.state == Appeal.State.CONSTITUTED and appeal.decide_by < timezone.now()
    client.force_login(case.director)
    page = shown(client.get("/appeals/"))
    assert '· decide by <time datetime="' in open_cases(page)
    assert '<strong class="overdue">overdue</strong>' in open_cases(page)
    todo = page[page.index("Waiting for you") :]
    assert "Appeal 1: fix the hearing" in todo and '<strong class="overdue">overdue</strong>' in todo


def test_a_decide_by_still_to_come_counts_down_to_overdue(case, client):
    appeal = lodge(case)
    committee(case, appeal)
    Appeal.objects.filter(pk=appeal.pk).update(decide_by=timezone.now() + datetime.timedelta(hours=2))
    client.force_login(case.director)
    page = shown(client.get("/appeals/"))
    cases = open_cases(page)
    assert 'data-closed="overdue"' in cases and "overdue</strong>" not in cases
    todo = page[page.index("Waiting for you") :]
    assert "overdue" not in todo
