"""An appeal decision that cancels a ruling's Law 90 penalty in VPs withdraws it from the team's
match (issue #17). The teams of tests/appeals/conftest.py's ``team_event``: the Lions win board 1
by 470 points, 10 IMPs, 18.09 to 1.91 VPs over one board."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from appeals import services
from rulings import services as rulings_services
from rulings.models import Penalty
from scoring import recalculation
from scoring.models import Board, MatchPenalty, MatchScore, Result
from tests.appeals.conftest import SOON, case, committee, team_event, vote_all  # noqa: F401 - case is a fixture

pytestmark = pytest.mark.django_db


def penalised(case):
    """The teams event with a second ruling at the open room: 1 VP against the Lions (N-S)."""
    teams = team_event(case.record, case.director)
    ruling = rulings_services.rule(
        result=Result.objects.get(pk=teams.ruling.result_id),
        director=case.director,
        kind="procedural_penalty",
        laws="90A",
        give=True,
        ruling_text="Slow play: 1 VP",
        outcome="result_stands",
        penalty={"side": "NS", "unit": "vps", "amount": "1", "offence": "Slow play"},
    )
    appeal = services.lodge_appeal(
        ruling=ruling, by=case.director, player=teams.captain, grounds="We were not slow", now=SOON
    )
    body = committee(case, appeal)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    return teams, appeal, body


def lions_vps(teams):
    recalculation.recalculate_board(Board.objects.get(session=teams.session).pk)
    score = MatchScore.objects.get(match__home=teams.team1)
    return score.home_vp, score.away_vp


def test_an_appeal_that_cancels_the_penalty_withdraws_it_from_the_match(case):
    teams, appeal, body = penalised(case)
    assert lions_vps(teams) == (Decimal("17.09"), Decimal("1.91"))
    vote_all(body, "overturn")
    services.decide_appeal(
        appeal=appeal,
        by=case.members[0],
        outcome="overturn",
        reasons="The tempo was normal for the board",
        cancel_penalties=True,
        now=SOON,
    )
    carried = MatchPenalty.objects.get()
    assert (carried.withdrawn_at is not None, carried.withdrawal_reason) == (True, "The tempo was normal for the board")
    penalty = Penalty.objects.get()
    assert (penalty.cancelled_at is not None, penalty.cancellation_reason) == (
        True,
        "The tempo was normal for the board",
    )
    assert lions_vps(teams) == (Decimal("18.09"), Decimal("1.91"))


def test_an_upheld_ruling_keeps_its_penalty_and_cancelling_is_refused_naming_the_field(case):
    teams, appeal, body = penalised(case)
    vote_all(body, "uphold")
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(
            appeal=appeal, by=case.members[0], outcome="uphold", reasons="Slow", cancel_penalties=True, now=SOON
        )
    assert error.value.message_dict == {
        "cancel_penalties": [
            "An upheld ruling keeps its penalties: vary or overturn it to cancel its procedural penalty."
        ]
    }
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="Slow", now=SOON)
    assert MatchPenalty.objects.get().withdrawn_at is None
    assert lions_vps(teams) == (Decimal("17.09"), Decimal("1.91"))


def test_cancelling_a_ruling_without_a_procedural_penalty_is_refused_naming_the_field(case):
    teams = team_event(case.record, case.director)
    appeal = services.lodge_appeal(
        ruling=teams.ruling, by=case.director, player=teams.captain, grounds="Declarer had not claimed", now=SOON
    )
    body = committee(case, appeal)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    vote_all(body, "overturn")
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(
            appeal=appeal, by=case.members[0], outcome="overturn", reasons="No claim", cancel_penalties=True, now=SOON
        )
    assert error.value.message_dict == {
        "cancel_penalties": ["The ruling has no procedural penalty (Law 90) to cancel."]
    }


def test_a_cancelled_penalty_in_imps_leaves_the_board(case):
    teams = team_event(case.record, case.director)
    result = Result.objects.get(pk=teams.ruling.result_id)
    ruling = rulings_services.rule(
        result=result,
        director=case.director,
        kind="procedural_penalty",
        laws="90A",
        give=True,
        ruling_text="Slow play: 3 IMPs",
        outcome="result_stands",
        penalty={"side": "NS", "unit": "imps", "amount": "3", "offence": "Slow play"},
    )
    assert Result.objects.get(pk=result.pk).effective.penalty == {"ns": "3"}
    appeal = services.lodge_appeal(
        ruling=ruling, by=case.director, player=teams.captain, grounds="We were not slow", now=SOON
    )
    body = committee(case, appeal)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    vote_all(body, "vary")
    services.decide_appeal(
        appeal=appeal, by=case.members[0], outcome="vary", reasons="Not slow", cancel_penalties=True, now=SOON
    )
    assert not hasattr(Result.objects.get(pk=result.pk), "effective")  # the table result again, no penalty
    assert lions_vps(teams) == (Decimal("18.09"), Decimal("1.91"))
    assert not MatchPenalty.objects.exists()


def test_the_committee_cancels_the_penalty_from_the_decision_form(case, client):
    """The step has a page: the decision form lists the Law 90 penalty and offers to cancel it."""
    from django.urls import reverse

    teams, appeal, body = penalised(case)
    vote_all(body, "overturn")
    client.force_login(case.members[0])
    page = client.get(reverse("appeals:appeal", args=[appeal.pk])).content.decode().replace("&#x27;", "'")
    assert "Cancel the ruling's procedural penalties (Law 90)" in page
    assert "Slow play" in page
    response = client.post(
        reverse("appeals:appeal", args=[appeal.pk]),
        {
            "action": "decide",
            "decide-decision": "overturn",
            "decide-reasons": "The tempo was normal for the board",
            "cancel_penalties": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Penalty.objects.get().cancelled_at is not None
    assert MatchPenalty.objects.get().withdrawn_at is not None
    assert lions_vps(teams) == (Decimal("18.09"), Decimal("1.91"))
