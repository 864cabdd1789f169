"""The hall's notice board moves a hearing past its time to "In progress" (issue #42, item 6):
it stayed under the hearings to come until the case was decided."""

import datetime

import pytest

from appeals.notice_board import notice_board
from tests.appeals.conftest import SOON, ready

pytestmark = pytest.mark.django_db


def test_a_hearing_past_its_time_is_in_progress(case):
    appeal, _body, hearing = ready(case)  # heard from SOON
    before = notice_board(case.record.tournament, now=SOON - datetime.timedelta(minutes=5))
    assert (before.hearings, before.in_progress) == ([hearing], [])
    after = notice_board(case.record.tournament, now=hearing.starts_at + datetime.timedelta(minutes=5))
    assert (after.hearings, after.in_progress) == ([], [hearing])
    assert appeal not in after.waiting


def test_the_page_says_in_progress(case, client):
    _appeal, _body, hearing = ready(case)  # its time (May 2026) has passed
    client.force_login(case.director)
    page = client.get(f"/appeals/board/{case.record.tournament.pk}/").content.decode()
    hearings = page[page.index('id="board-hearings"') :]
    assert "No hearing is scheduled." in hearings
    assert "In progress" in hearings and "Room 2" in hearings
