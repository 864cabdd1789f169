"""The door that keeps the hearing's record (appeals:case-hearing-notes)."""

import pytest

from tests.appeals.conftest import ready, shown, take

pytestmark = pytest.mark.django_db


def test_a_director_records_the_account_the_presence_and_the_notes(case, client):
    appeal, _body, hearing = ready(case)
    page = shown(
        take(
            client,
            case.director,
            appeal,
            "hearing-notes",
            director_present="on",
            director_account="I ruled on the pause",
            notes="North: the pause was short",
        )
    )
    assert "Recorded." in page
    hearing.refresh_from_db()
    assert (hearing.director_present, hearing.director_account, hearing.notes) == (
        True,
        "I ruled on the pause",
        "North: the pause was short",
    )


def test_an_unticked_box_says_the_director_was_absent(case, client):
    appeal, _body, hearing = ready(case)
    take(client, case.members[0], appeal, "hearing-notes", director_present="on", director_account="", notes="")
    take(client, case.members[0], appeal, "hearing-notes", director_account="", notes="The scribe's record")
    hearing.refresh_from_db()
    assert (hearing.director_present, hearing.notes) == (False, "The scribe's record")


def test_nobody_else_records_it(case, client):
    appeal, _body, hearing = ready(case)
    response = take(client, case.members[3], appeal, "hearing-notes", notes="x")  # an appeals member not on this body
    assert response.status_code == 404
    hearing.refresh_from_db()
    assert hearing.notes == ""
