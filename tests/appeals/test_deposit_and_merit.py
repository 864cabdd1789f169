"""Deposits by the regulating authority's settings, and the sanctions for an appeal without
merit (Law 92A): deposit kept, a procedural penalty in the event's units, or a warning per player."""

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from appeals import services
from appeals.models import Deposit, MeritWarning
from scoring import recalculation
from scoring.models import BoardScore, ScoreChange
from tests.appeals.conftest import SOON, committee, lodge, regulate, vote_all

pytestmark = pytest.mark.django_db
EBU_DEPOSITS = {"currency": "GBP", "amounts": {"mp_pairs": "20.00", "teams_rr": "30.00"}}


def heard(case, deposit=True):
    """An N-S appeal, with its deposit, heard and upheld by a committee."""
    appeal = lodge(case)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    if deposit:
        services.record_deposit(appeal=appeal, by=case.director, now=SOON)
    body = committee(case, appeal)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    vote_all(body, "uphold")
    return services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="Pass is a LA", now=SOON)


def test_the_deposit_is_the_regulations_amount_for_the_kind_of_event(case):
    regulate(case, deposits=EBU_DEPOSITS)
    appeal = lodge(case)
    deposit = services.record_deposit(appeal=appeal, by=case.director, now=SOON)
    assert (deposit.amount, deposit.currency, deposit.state, deposit.received_by) == (
        Decimal("20.00"),
        "GBP",
        "held",
        case.director,
    )
    with pytest.raises(ValidationError) as error:
        services.record_deposit(appeal=appeal, by=case.director, now=SOON)
    assert "already received" in error.value.message_dict["amount"][0]


def test_no_deposit_where_the_regulations_set_none(case):
    appeal = lodge(case)
    with pytest.raises(ValidationError) as error:
        services.record_deposit(appeal=appeal, by=case.director, now=SOON)
    assert error.value.message_dict["amount"][0] == (
        "No deposit is asked: Club Championship body's regulations set none for this Matchpoint pairs."
    )
    referral = services.lodge_appeal(
        ruling=case.ruling, by=case.director, origin="director", grounds="Law 83", now=SOON
    )
    regulate(case, deposits=EBU_DEPOSITS)
    with pytest.raises(ValidationError) as error:
        services.record_deposit(appeal=referral, by=case.director, now=SOON)
    assert "the director referred the case" in error.value.message_dict["amount"][0]


def test_a_case_is_not_heard_before_its_deposit_is_received(case):
    regulate(case, deposits=EBU_DEPOSITS)
    appeal = lodge(case)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    committee(case, appeal)
    with pytest.raises(ValidationError) as error:
        services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    assert error.value.message_dict["deposit"][0] == "The deposit of 20.00 GBP has not been received."


def test_the_deposit_is_returned_after_the_decision(case):
    regulate(case, deposits=EBU_DEPOSITS)
    pending = services.record_deposit(appeal=lodge(case, player=case.east), by=case.director, now=SOON)
    with pytest.raises(ValidationError) as error:
        services.return_deposit(deposit=pending, by=case.director, now=SOON)
    assert "held until the appeal is decided" in error.value.message_dict["state"][0]
    with pytest.raises(ValidationError) as error:
        services.forfeit_deposit(deposit=pending, by=case.director, reason="Frivolous", now=SOON)
    assert "without merit" in error.value.message_dict["state"][0]
    appeal = heard(case)
    deposit = services.return_deposit(deposit=appeal.deposits.get(), by=case.director, now=SOON)
    assert (deposit.state, deposit.settled_by, deposit.settled_at) == ("returned", case.director, SOON)
    with pytest.raises(ValidationError) as error:
        services.return_deposit(deposit=deposit, by=case.director, now=SOON)
    assert "already returned" in error.value.message_dict["state"][0]


def test_without_merit_the_deposit_is_kept(case):
    regulate(case, deposits=EBU_DEPOSITS, without_merit_sanction="deposit")
    appeal = heard(case)
    appeal = services.find_without_merit(appeal=appeal, by=case.members[0], reasons="No case was made", now=SOON)
    assert (appeal.without_merit, appeal.sanction) == (True, "deposit")
    deposit = appeal.deposits.get()
    assert (deposit.state, deposit.note) == (Deposit.State.FORFEITED, "appeal without merit")
    assert "deposit of 20.00 GBP kept" in appeal.events.get(action="without_merit").note
    with pytest.raises(ValidationError) as error:
        services.find_without_merit(appeal=appeal, by=case.members[0], reasons="again", now=SOON)
    assert "already found" in error.value.message_dict["state"][0]


def test_without_merit_a_procedural_penalty_in_the_events_units(case):
    regulate(case, deposits=EBU_DEPOSITS, without_merit_sanction="deposit_and_penalty")
    appeal = heard(case)
    with pytest.raises(ValidationError) as error:
        services.find_without_merit(appeal=appeal, by=case.members[0], reasons="No case", now=SOON)
    assert "give it in the event's units" in error.value.message_dict["penalty"][0]
    services.find_without_merit(appeal=appeal, by=case.members[0], reasons="No case", penalty="25%", now=SOON)
    change = ScoreChange.objects.get(cause_type="decision")
    assert (change.cause_label, change.new_value) == ("appeal 1 without merit", {"ns": 170})
    assert case.record.results[6].effective.penalty == {"ns": "25%"}
    recalculation.recalculate_board(case.record.boards[0].pk)
    assert BoardScore.objects.get(result=case.record.results[6]).ns == Decimal("2")  # 5 MP less 25% of 12
    assert appeal.deposits.get().state == "forfeited"


def test_a_bad_penalty_is_refused_on_the_penalty_field(case):
    regulate(case, without_merit_sanction="penalty")
    appeal = heard(case, deposit=False)
    with pytest.raises(ValidationError) as error:
        services.find_without_merit(appeal=appeal, by=case.members[0], reasons="No case", penalty="lots", now=SOON)
    assert "not a penalty" in error.value.message_dict["penalty"][0]
    with pytest.raises(ValidationError) as error:
        services.find_without_merit(appeal=appeal, by=case.members[0], reasons="No case", penalty="-3", now=SOON)
    assert "positive number" in error.value.message_dict["penalty"][0]
    appeal.refresh_from_db()
    assert not appeal.without_merit


def test_without_merit_a_warning_is_recorded_against_each_appellant(case):
    regulate(case, without_merit_sanction="warning")
    appeal = heard(case, deposit=False)
    services.find_without_merit(appeal=appeal, by=case.members[0], reasons="Frivolous", now=SOON)
    assert set(MeritWarning.objects.values_list("player", flat=True)) == {case.north.pk, case.south.pk}
    assert case.north.appeal_warnings.get().appeal == appeal


def test_an_appeal_that_changed_the_ruling_had_merit(case):
    appeal = lodge(case)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    with pytest.raises(ValidationError) as error:
        services.find_without_merit(appeal=appeal, by=case.members[0], reasons="x", now=SOON)
    assert "once it is decided" in error.value.message_dict["state"][0]
    body = committee(case, appeal)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    vote_all(body, "overturn")
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="overturn", reasons="No LA", now=SOON)
    with pytest.raises(ValidationError) as error:
        services.find_without_merit(appeal=appeal, by=case.members[0], reasons="x", now=SOON)
    assert error.value.message_dict["outcome"][0] == "The ruling was overturned: an appeal that changed it had merit."


def test_only_the_body_that_decided_judges_the_merit(case):
    appeal = heard(case, deposit=False)
    with pytest.raises(PermissionDenied) as error:
        services.find_without_merit(appeal=appeal, by=case.director, reasons="x", now=SOON)
    assert "does not sit on it" in str(error.value)
