"""The case page's steps that a committee takes at the hearing and after it: attendance, the
hearing's record, the chief director's answer to a recommendation, and a further appeal."""

import pytest
from django.urls import reverse

from appeals import services
from appeals.models import FurtherAppeal
from tests.appeals.conftest import ready, regulate, step_path, vote_all


@pytest.fixture
def heard(case):
    """A case with its committee constituted and its hearing scheduled."""
    appeal, body, hearing = ready(case)
    case.appeal, case.body, case.hearing = appeal, body, hearing
    return case


def post(client, user, appeal, **data):
    client.force_login(user)
    return client.post(step_path(appeal.pk, data["action"]), data, follow=True)


def test_a_sitting_member_records_attendance_and_the_hearing(heard, client):
    member = heard.body.members.first().user
    page = post(client, member, heard.appeal, action="attendance", player=heard.east.pk).content.decode()
    assert "Recorded." in page
    assert list(heard.hearing.attendance.values_list("player", "side")) == [(heard.east.pk, "EW")]
    post(
        client,
        member,
        heard.appeal,
        action="hearing_notes",
        director_present="on",
        director_account="Four of five polled players passed.",
        notes="N-S: the pause was short.",
    )
    heard.hearing.refresh_from_db()
    assert (heard.hearing.director_present, heard.hearing.director_account, heard.hearing.notes) == (
        True,
        "Four of five polled players passed.",
        "N-S: the pause was short.",
    )
    page = client.get(reverse("appeals:appeal", args=[heard.appeal.pk])).content.decode()
    assert "N-S: the pause was short." in page and "Attended" in page


def test_attendance_of_someone_not_at_the_table_is_refused_by_name(heard, client):
    stranger = heard.record.players[0]
    page = post(client, heard.director, heard.appeal, action="attendance", player=stranger.pk).content.decode()
    assert f"player: {stranger} plays for neither side at this table." in page
    assert not heard.hearing.attendance.exists()


def test_nobody_else_records_the_hearing(heard, client):
    idle = heard.members[3]  # an appeals member of the tournament, not on this body
    client.force_login(idle)
    response = client.post(step_path(heard.appeal.pk, "hearing_notes"), {"action": "hearing_notes", "notes": "x"})
    assert response.status_code in (403, 404)
    heard.hearing.refresh_from_db()
    assert heard.hearing.notes == ""


def test_the_chief_answers_a_recommendation(heard, client):
    vote_all(heard.body, "uphold")
    services.decide_appeal(appeal=heard.appeal, by=heard.members[0], outcome="uphold", reasons="LA")
    recommendation = services.record_recommendation(
        appeal=heard.appeal, by=heard.members[0], about="law", text="Look at 16B1a again"
    )
    page = post(
        client,
        heard.chief,
        heard.appeal,
        action="respond",
        recommendation=recommendation.pk,
        accepted="no",
        response="",
    ).content.decode()
    assert "response: Write the director&#x27;s answer." in page
    post(
        client,
        heard.chief,
        heard.appeal,
        action="respond",
        recommendation=recommendation.pk,
        accepted="no",
        response="The ruling stands as given.",
    )
    recommendation.refresh_from_db()
    assert (recommendation.accepted, recommendation.response) == (False, "The ruling stands as given.")


def test_a_director_lodges_a_further_appeal_from_the_page(heard, client):
    regulate(heard, further_appeal="binding")
    vote_all(heard.body, "uphold")
    services.decide_appeal(appeal=heard.appeal, by=heard.members[0], outcome="uphold", reasons="LA")
    client.force_login(heard.director)
    assert "Lodge the further appeal" in client.get(reverse("appeals:appeal", args=[heard.appeal.pk])).content.decode()
    post(
        client,
        heard.director,
        heard.appeal,
        action="further",
        player=heard.north.pk,
        grounds="The committee misread the poll.",
    )
    further = FurtherAppeal.objects.get(appeal=heard.appeal)
    assert (further.origin, further.lodged_by, further.grounds) == (
        "player",
        heard.north,
        "The committee misread the poll.",
    )
    client.force_login(heard.members[0])
    response = client.post(
        step_path(heard.appeal.pk, "further"),
        {"action": "further", "player": heard.north.pk, "grounds": "Again"},
    )
    assert response.status_code == 403
