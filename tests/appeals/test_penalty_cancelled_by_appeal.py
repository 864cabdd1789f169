"""An appeal decision that cancels a ruling's Law 90 penalty in VPs withdraws it from the team's
match (issue #17). The teams of tests/appeals/conftest.py's ``team_event``: the Lions win board 1
by 470 points, 10 IMPs, 18.09 to 1.91 VPs over one board."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from appeals import services
from audit.models import AuditEntry
from rulings.models import Penalty
from scoring import recalculation
from scoring.models import Board, MatchPenalty, MatchScore, Result, ScoreChange
from tests.appeals.conftest import (  # noqa: F401 - case is a fixture
    SOON,
    case,
    committee,
    step_path,
    team_event,
    vote_all,
)
from tests.conftest import ruling_at

pytestmark = pytest.mark.django_db


def slow_play(case, unit="vps", amount="1"):
    """The teams event with a Law 90 ruling at the open room against the Lions (N-S)."""
    teams = team_event(case.record, case.director)
    ruling = ruling_at(
        Result.objects.get(pk=teams.ruling.result_id),
        case.director,
        kind="procedural_penalty",
        laws="90A",
        ruling_text=f"Slow play: {amount} {unit}",
        penalty={"side": "NS", "unit": unit, "amount": amount, "offence": "Slow play"},
    )
    return teams, ruling


def before_committee(case, teams, ruling, grounds="We were not slow"):
    """The Lions' captain's appeal against ``ruling``: a committee constituted, its hearing set."""
    appeal = services.lodge_appeal(ruling=ruling, by=case.director, player=teams.captain, grounds=grounds, now=SOON)
    body = committee(case, appeal)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    return appeal, body


def penalised(case):
    """The teams event with a second ruling at the open room, 1 VP against the Lions, appealed."""
    teams, ruling = slow_play(case)
    return (teams, *before_committee(case, teams, ruling))


def lions_vps(teams):
    recalculation.recalculate_board(Board.objects.get(session=teams.session).pk)
    score = MatchScore.objects.get(match__home=teams.team1)
    return score.home_vp, score.away_vp


def cancelling_refused(decide, **decision):
    """What ``decide`` (decide_appeal or decide_law_part) refuses when asked to cancel the
    ruling's penalties, by field."""
    with pytest.raises(ValidationError) as error:
        decide(**decision, cancel_penalties=True, now=SOON)
    return error.value.message_dict


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
    assert cancelling_refused(
        services.decide_appeal, appeal=appeal, by=case.members[0], outcome="uphold", reasons="Slow"
    ) == {
        "cancel_penalties": [
            "An upheld ruling keeps its penalties: vary or overturn it to cancel its procedural penalty."
        ]
    }
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="Slow", now=SOON)
    assert MatchPenalty.objects.get().withdrawn_at is None
    assert lions_vps(teams) == (Decimal("17.09"), Decimal("1.91"))


def test_cancelling_a_ruling_without_a_procedural_penalty_is_refused_naming_the_field(case):
    teams = team_event(case.record, case.director)
    appeal, body = before_committee(case, teams, teams.ruling, grounds="Declarer had not claimed")
    vote_all(body, "overturn")
    assert cancelling_refused(
        services.decide_appeal, appeal=appeal, by=case.members[0], outcome="overturn", reasons="No claim"
    ) == {"cancel_penalties": ["The ruling has no procedural penalty (Law 90) to cancel."]}


def test_a_cancelled_penalty_in_imps_leaves_the_board(case):
    teams, ruling = slow_play(case, unit="imps", amount="3")
    result = Result.objects.get(pk=ruling.result_id)
    assert Result.objects.get(pk=result.pk).effective.penalty == {"ns": "3"}
    appeal, body = before_committee(case, teams, ruling)
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
        step_path(appeal.pk, "decide"),
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


# --- The director in charge's decision on law (Law 93B1) cancels them too ----------------------
#
# A procedural penalty is the director's (Law 90), and the director in charge has every power of
# the director: when his decision on the point of law finds no infraction the penalty rested on,
# the penalty falls with the ruling. It is the same rule as the body's (``_cancel_penalties``).

LAW_QUESTION = "Does Law 90 reach a pace the regulations allow?"


def law_appeal(case, teams, ruling, judgement=False):
    parts = [{"kind": "law", "question": LAW_QUESTION}]
    if judgement:
        parts.append({"kind": "judgement", "question": "Were they slow?"})
    return services.lodge_appeal(
        ruling=ruling, by=case.director, player=teams.captain, grounds="We kept to time", parts=parts, now=SOON
    )


def cancellations():
    """The audit trail's cancelled penalties and withdrawn match penalties, in order."""
    return list(
        AuditEntry.objects.filter(action__in=["ruling.penalty_cancelled", "match.penalty_withdrawn"])
        .order_by("sequence")
        .values_list("action", "actor", "before", "after")
    )


def test_the_director_in_charge_deciding_the_law_cancels_the_penalty_and_it_leaves_the_match(case):
    teams, ruling = slow_play(case)
    appeal = law_appeal(case, teams, ruling)
    assert lions_vps(teams) == (Decimal("17.09"), Decimal("1.91"))
    carried = MatchPenalty.objects.get()
    services.decide_law_part(
        part=appeal.parts.get(),
        by=case.chief,
        outcome="overturn",
        reasons="The pace was within the regulations: no infraction",
        cancel_penalties=True,
        now=SOON,
    )
    part = appeal.parts.get()
    assert (part.outcome, part.decided_by, part.reasons) == (
        "overturn",
        case.chief,
        "The pace was within the regulations: no infraction",
    )
    appeal.refresh_from_db()
    assert (appeal.state, appeal.outcome, appeal.decided_by) == ("decided", "overturn", case.chief)
    ruling.refresh_from_db()
    assert ruling.state == "changed_by_appeal"
    penalty = Penalty.objects.get()
    assert (penalty.cancelled_at is not None, penalty.cancellation_reason) == (
        True,
        "The pace was within the regulations: no infraction",
    )
    carried.refresh_from_db()
    assert (carried.withdrawn_at is not None, carried.withdrawn_by, carried.withdrawal_reason) == (
        True,
        case.chief,
        "The pace was within the regulations: no infraction",
    )
    assert cancellations() == [
        (
            "ruling.penalty_cancelled",
            case.chief.pk,
            {"unit": "vps", "amount": "1.00", "side": "NS"},
            {"reason": "The pace was within the regulations: no infraction"},
        ),
        (
            "match.penalty_withdrawn",
            case.chief.pk,
            {"penalty": carried.pk, "amount": "1.00", "unit": "vps"},
            {"reason": "The pace was within the regulations: no infraction"},
        ),
    ]
    assert lions_vps(teams) == (Decimal("18.09"), Decimal("1.91"))


def test_the_director_in_charge_upholding_keeps_the_penalty_and_cancelling_is_refused(case):
    teams, ruling = slow_play(case)
    appeal = law_appeal(case, teams, ruling)
    assert cancelling_refused(
        services.decide_law_part, part=appeal.parts.get(), by=case.chief, outcome="uphold", reasons="Slow"
    ) == {
        "cancel_penalties": [
            "An upheld ruling keeps its penalties: vary or overturn it to cancel its procedural penalty."
        ]
    }
    # Nothing written: the part undecided, the penalty standing on the match.
    assert appeal.parts.get().outcome == ""
    appeal.refresh_from_db()
    assert (appeal.state, appeal.outcome) == ("lodged", "")
    assert Penalty.objects.get().cancelled_at is None
    assert MatchPenalty.objects.get().withdrawn_at is None
    assert cancellations() == []
    assert lions_vps(teams) == (Decimal("17.09"), Decimal("1.91"))


def test_the_director_in_charge_cancelling_where_there_is_no_procedural_penalty_is_refused(case):
    teams = team_event(case.record, case.director)
    appeal = law_appeal(case, teams, teams.ruling)
    with pytest.raises(ValidationError) as error:
        services.decide_law_part(
            part=appeal.parts.get(),
            by=case.chief,
            outcome="overturn",
            reasons="Law 70D1 was misread",
            cancel_penalties=True,
            now=SOON,
        )
    assert error.value.message_dict == {
        "cancel_penalties": ["The ruling has no procedural penalty (Law 90) to cancel."]
    }
    assert appeal.parts.get().outcome == ""
    appeal.refresh_from_db()
    assert appeal.state == "lodged"
    assert not ScoreChange.objects.filter(cause_type="decision").exists()


def test_a_penalty_in_imps_cancelled_on_law_leaves_the_board_and_the_body_cannot_cancel_it_again(case):
    teams, ruling = slow_play(case, unit="imps", amount="3")
    result = Result.objects.get(pk=ruling.result_id)
    assert result.effective.penalty == {"ns": "3"}
    appeal = law_appeal(case, teams, ruling, judgement=True)
    law, judgement = appeal.parts.order_by("pk")
    services.decide_law_part(
        part=law, by=case.chief, outcome="vary", reasons="No infraction of Law 90", cancel_penalties=True, now=SOON
    )
    assert not hasattr(Result.objects.get(pk=result.pk), "effective")  # the table result again, no penalty
    change = ScoreChange.objects.get(cause_type="decision")
    assert (change.cause_id, change.cause_label, change.reason, change.changed_by, change.new_kind) == (
        appeal.pk,
        "appeal 1 decision",
        "No infraction of Law 90",
        case.chief,
        "table",
    )
    assert lions_vps(teams) == (Decimal("18.09"), Decimal("1.91"))
    # The body hears the judgement part; the penalty is already gone, so cancelling it is refused.
    body = committee(case, appeal)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    vote_all(body, "vary")
    assert cancelling_refused(
        services.decide_appeal, appeal=appeal, by=case.members[0], outcome="vary", reasons="Not slow"
    ) == {"cancel_penalties": ["The ruling has no procedural penalty (Law 90) to cancel."]}
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="vary", reasons="Not slow", now=SOON)
    appeal.refresh_from_db()
    assert (appeal.state, appeal.outcome) == ("decided", "vary")
    assert not hasattr(Result.objects.get(pk=result.pk), "effective")
    assert lions_vps(teams) == (Decimal("18.09"), Decimal("1.91"))


def test_the_director_in_charge_cancels_the_penalty_from_the_law_part_form(case, client):
    from django.urls import reverse

    teams, ruling = slow_play(case)
    appeal = law_appeal(case, teams, ruling)
    client.force_login(case.chief)
    page = client.get(reverse("appeals:appeal", args=[appeal.pk])).content.decode().replace("&#x27;", "'")
    law_form = page[page.index('value="law_part"') : page.index("Record the decision on law")]
    assert "Cancel the ruling's procedural penalties (Law 90)" in law_form
    assert "Slow play" in law_form
    response = client.post(
        step_path(appeal.pk, "law_part"),
        {
            "action": "law_part",
            "part": appeal.parts.get().pk,
            "law-decision": "overturn",
            "law-reasons": "No infraction",
            "cancel_penalties": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert appeal.parts.get().outcome == "overturn"
    assert Penalty.objects.get().cancellation_reason == "No infraction"
    assert MatchPenalty.objects.get().withdrawn_at is not None
    assert lions_vps(teams) == (Decimal("18.09"), Decimal("1.91"))


def test_the_api_takes_cancel_penalties_on_the_law_part(case):
    from rest_framework.test import APIClient

    teams, ruling = slow_play(case)
    appeal = law_appeal(case, teams, ruling)
    client = APIClient()
    client.force_authenticate(case.chief)
    response = client.post(
        f"/api/v1/appeals/{appeal.pk}/decide-law-part/",
        {"part": appeal.parts.get().pk, "outcome": "uphold", "reasons": "Slow", "cancel_penalties": True},
        format="json",
    )
    assert (response.status_code, response.json()) == (
        409,
        {
            "cancel_penalties": [
                "An upheld ruling keeps its penalties: vary or overturn it to cancel its procedural penalty."
            ]
        },
    )
    response = client.post(
        f"/api/v1/appeals/{appeal.pk}/decide-law-part/",
        {"part": appeal.parts.get().pk, "outcome": "overturn", "reasons": "No infraction", "cancel_penalties": True},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert (response.json()["state"], response.json()["outcome"]) == ("decided", "overturn")
    assert Penalty.objects.get().cancellation_reason == "No infraction"
    assert MatchPenalty.objects.get().withdrawn_at is not None


def test_the_api_takes_cancel_penalties_on_the_bodys_decision(case):
    from rest_framework.test import APIClient

    teams, appeal, body = penalised(case)
    vote_all(body, "overturn")
    client = APIClient()
    client.force_authenticate(case.members[0])
    response = client.post(
        f"/api/v1/appeals/{appeal.pk}/decide/",
        {"outcome": "overturn", "reasons": "Not slow", "cancel_penalties": True},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert Penalty.objects.get().cancellation_reason == "Not slow"
    assert MatchPenalty.objects.get().withdrawal_reason == "Not slow"
    assert lions_vps(teams) == (Decimal("18.09"), Decimal("1.91"))
