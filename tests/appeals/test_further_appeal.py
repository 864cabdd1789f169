"""Further appeal to the regulating authority (Law 93C): only where provided, only after the
event's decision and within its own period, with its own deposit; binding or advisory; and
referrals by the director or the body."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from appeals import services
from appeals.models import FurtherAppeal
from core import policy
from rulings.models import Ruling
from scoring import recalculation
from scoring import services as scoring_services
from scoring.models import BoardScore, ScoreChange
from tests.appeals.conftest import SOON, ready, regulate, vote_all
from tests.conftest import make_user

pytestmark = pytest.mark.django_db
WEEK = datetime.timedelta(days=7)


@pytest.fixture
def decided(case):
    appeal, body, _hearing = ready(case)
    vote_all(body, "uphold")
    return services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="Pass is a LA", now=SOON)


@pytest.fixture
def national(case):
    user = make_user("national", first_name="Nora")
    scoring_services.appoint_auditor(authority=case.record.authority, user=user, by=policy.SYSTEM)
    return user


def provide(case, mode, **more):
    regulate(case, "further_appeal", mode)
    for key, value in more.items():
        regulate(case, key, value)


def national_body(case, appeal, national):
    body = services.constitute_body(appeal=appeal, by=national, stage="further", size=1, members=[national], now=SOON)
    seat = body.members.get()
    services.declare_conflict(member=seat, by=seat.user, now=SOON)
    return body


def test_no_further_appeal_where_the_authority_provides_none(case, decided):
    with pytest.raises(ValidationError) as error:
        services.lodge_further_appeal(appeal=decided, by=case.director, player=case.north, grounds="Wrong", now=SOON)
    assert error.value.message_dict["appeal"][0] == (
        "Club Championship body provides no further appeal (Law 93C): the decision at the event is final."
    )


def test_a_further_appeal_comes_only_after_the_events_decision(case, monkeypatch):
    provide(case, "binding")
    appeal, _body, _hearing = ready(case)
    with pytest.raises(ValidationError) as error:
        services.lodge_further_appeal(appeal=appeal, by=case.director, player=case.north, grounds="Wrong", now=SOON)
    assert "after the appeal at the event is decided" in error.value.message_dict["state"][0]


def test_a_body_with_no_general_time_limit_takes_a_late_further_appeal(case, decided):
    """The EBU's National Authority sets "no specific time limit of general application" (issue
    #43): an empty period means no deadline, where 7 days would have refused this one."""
    provide(case, "binding", further_appeal_period_minutes="")
    further = services.lodge_further_appeal(
        appeal=decided, by=case.director, player=case.east, grounds="Wrong", now=SOON + 5 * WEEK
    )
    assert (further.side, further.deadline) == ("EW", None)


def test_a_further_appeal_has_its_own_deadline(case, decided, monkeypatch):
    provide(case, "binding")
    with pytest.raises(ValidationError) as error:
        services.lodge_further_appeal(
            appeal=decided,
            by=case.director,
            player=case.north,
            grounds="Wrong",
            now=SOON + WEEK + datetime.timedelta(seconds=1),
        )
    assert "by 21:10 on 8 May 2026 BST (Europe/London)" in error.value.message_dict["deadline"][0]
    further = services.lodge_further_appeal(
        appeal=decided, by=case.director, player=case.east, grounds="Wrong", now=SOON + WEEK
    )
    assert (further.side, further.deadline, further.binding) == ("EW", SOON + WEEK, True)
    with pytest.raises(ValidationError) as error:
        services.lodge_further_appeal(appeal=decided, by=case.director, player=case.north, grounds="Me too", now=SOON)
    assert "already before the regulating authority" in error.value.message_dict["appeal"][0]


def test_a_further_appeal_has_its_own_deposit(case, decided, monkeypatch, national):
    provide(case, "binding", further_appeal_deposit={"currency": "GBP", "amount": "75.00"})
    services.lodge_further_appeal(appeal=decided, by=case.director, player=case.north, grounds="Wrong", now=SOON)
    deposit = services.record_deposit(appeal=decided, by=national, stage="further", now=SOON)
    assert (deposit.amount, deposit.currency, deposit.stage) == (Decimal("75.00"), "GBP", "further")
    with pytest.raises(ValidationError) as error:
        services.return_deposit(deposit=deposit, by=national, now=SOON)
    assert "until the further appeal is decided" in error.value.message_dict["state"][0]


def test_a_binding_further_decision_changes_the_scores(case, decided, monkeypatch, national):
    provide(case, "binding")
    further = services.lodge_further_appeal(
        appeal=decided, by=case.director, player=case.north, grounds="Wrong", now=SOON
    )
    with pytest.raises(ValidationError) as error:
        services.decide_further_appeal(further_appeal=further, by=national, outcome="overturn", reasons="x", now=SOON)
    assert "No body" in error.value.message_dict["body"][0]
    national_body(case, decided, national)
    further = services.decide_further_appeal(
        further_appeal=further, by=national, outcome="overturn", reasons="No logical alternative", now=SOON
    )
    assert (further.state, further.outcome) == ("decided", "overturn")
    assert ScoreChange.objects.get(cause_type="decision").cause_label == "appeal 1 further decision"
    recalculation.recalculate_board(case.record.boards[0].pk)
    assert BoardScore.objects.get(result=case.record.results[6]).ns == Decimal("8")
    case.ruling.refresh_from_db()
    assert case.ruling.state == Ruling.State.CHANGED_BY_APPEAL
    with pytest.raises(ValidationError) as error:
        services.decide_further_appeal(further_appeal=further, by=national, outcome="uphold", reasons="x", now=SOON)
    assert "already decided" in error.value.message_dict["state"][0]


def test_an_advisory_further_decision_never_changes_scores(case, decided, monkeypatch, national):
    provide(case, "advisory")
    further = services.lodge_further_appeal(
        appeal=decided, by=case.director, player=case.north, grounds="Wrong", now=SOON
    )
    national_body(case, decided, national)
    further = services.decide_further_appeal(
        further_appeal=further,
        by=national,
        outcome="vary",
        reasons="We would have given 4S=",
        now=SOON,
        score_kind="assigned",
        ns={"contract": "4S", "declarer": "N", "tricks": 10},
    )
    assert (further.binding, further.score, further.score_description) == (False, {"ns": 420}, "4S N = (+420)")
    assert not ScoreChange.objects.filter(cause_type="decision").exists()
    case.ruling.refresh_from_db()
    assert case.ruling.state == Ruling.State.FINAL


def test_the_director_or_the_body_may_refer_to_the_authority(case, monkeypatch):
    provide(case, "binding")
    appeal, _body, _hearing = ready(case)
    further = services.lodge_further_appeal(
        appeal=appeal,
        by=case.members[0],
        origin="body",
        grounds="A question of principle for the national body",
        now=SOON,
    )
    assert (further.origin, further.lodged_by, further.deadline) == ("body", None, None)
    FurtherAppeal.objects.all().delete()
    with pytest.raises(PermissionDenied) as error:
        services.lodge_further_appeal(appeal=appeal, by=case.members[3], origin="director", grounds="x", now=SOON)
    assert "not a director" in str(error.value)
    assert (
        services.lodge_further_appeal(appeal=appeal, by=case.chief, origin="director", grounds="x", now=SOON).origin
        == "director"
    )


def test_the_authority_forms_its_own_body(case, decided, monkeypatch, national):
    provide(case, "binding")
    with pytest.raises(ValidationError) as error:
        services.constitute_body(appeal=decided, by=national, stage="further", now=SOON)
    assert "No further appeal is waiting" in error.value.message_dict["stage"][0]
    services.lodge_further_appeal(appeal=decided, by=case.director, player=case.north, grounds="Wrong", now=SOON)
    with pytest.raises(PermissionDenied) as error:
        services.constitute_body(appeal=decided, by=case.chief, stage="further", now=SOON)
    assert "forms its own appeals body" in str(error.value)
    body = services.constitute_body(appeal=decided, by=national, stage="further", now=SOON)
    assert (body.kind, body.size) == ("national", 3)
