"""The door where the director in charge answers a recommendation (appeals:case-respond)."""

import pytest

from appeals import services
from tests.appeals.conftest import SOON, ready, refused, shown, take

pytestmark = pytest.mark.django_db


@pytest.fixture
def recommended(case):
    appeal, _body, _hearing = ready(case)
    return services.record_recommendation(appeal=appeal, by=case.members[0], about="law", text="Apply 16B1a", now=SOON)


def test_the_chief_director_declines_in_words(case, client, recommended):
    page = shown(
        take(
            client,
            case.chief,
            recommended.appeal,
            "respond",
            recommendation=recommended.pk,
            accepted="no",
            response="The pause was clear",
        )
    )
    assert "Recorded." in page
    recommended.refresh_from_db()
    assert (recommended.accepted, recommended.response, recommended.responded_by) == (
        False,
        "The pause was clear",
        case.chief,
    )


def test_a_declined_recommendation_takes_no_score(case, client, recommended):
    page = shown(
        take(
            client,
            case.chief,
            recommended.appeal,
            "respond",
            recommendation=recommended.pk,
            accepted="no",
            response="No",
            **{
                "respond-score_kind": "assigned",
                "respond-contract": "4S",
                "respond-declarer": "N",
                "respond-tricks": "10",
            },
        )
    )
    assert "score_kind: A declined recommendation changes nothing: give a score only when accepting it." in page
    recommended.refresh_from_db()
    assert recommended.accepted is None


def test_a_director_may_not(case, client, recommended):
    response = take(
        client,
        case.director,
        recommended.appeal,
        "respond",
        recommendation=recommended.pk,
        accepted="no",
        response="No",
    )
    assert refused(response, "answers the body's recommendation")
