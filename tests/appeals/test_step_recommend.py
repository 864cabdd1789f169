"""The door where the body recommends to the director in charge (appeals:case-recommend, Law 93B3)."""

import pytest

from tests.appeals.conftest import ready, refused, shown, take

pytestmark = pytest.mark.django_db


def test_a_member_recommends(case, client):
    appeal, _body, _hearing = ready(case)
    page = shown(take(client, case.members[0], appeal, "recommend", about="law", text="Apply 16B1a"))
    assert "Recorded." in page
    recommendation = appeal.recommendations.get()
    assert (recommendation.about, recommendation.text, recommendation.recommended_by) == (
        "law",
        "Apply 16B1a",
        case.members[0],
    )


def test_no_text_is_refused_by_name(case, client):
    appeal, _body, _hearing = ready(case)
    assert "text: Write what the body recommends." in shown(
        take(client, case.members[0], appeal, "recommend", about="law", text="")
    )
    assert not appeal.recommendations.exists()


def test_a_director_may_not(case, client):
    appeal, _body, _hearing = ready(case)
    response = take(client, case.director, appeal, "recommend", about="law", text="Apply 16B1a")
    assert refused(response, "recommends to the director in charge")
