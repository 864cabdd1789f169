"""Hearings, votes and decisions: the schedule before the next session, who attended, the
majority, the score change reaching board scores and standings with the appeal as the cause,
the law part for the director in charge, and the 93B3 limit with its recommendation."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from appeals import services
from appeals.models import Appeal, AppealEvent
from rulings import services as rulings_services
from rulings.models import Ruling
from scoring import recalculation
from scoring.models import BoardScore, ScoreChange, Standing
from tests.appeals.conftest import SESSION_2, SOON, committee, lodge, ready, regulate, vote_all
from tests.conftest import ruling_at

pytestmark = pytest.mark.django_db
HOUR = datetime.timedelta(hours=1)


def board_score(case):
    recalculation.recalculate_board(case.record.boards[0].pk)
    return BoardScore.objects.get(result=case.record.results[6]).ns


def total(case):
    return Standing.objects.get(event=case.record.event, session=None, contestant=case.ns).total


def test_a_hearing_must_fit_before_the_next_session(case):
    appeal = lodge(case)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    committee(case, appeal)
    with pytest.raises(ValidationError) as error:
        services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SESSION_2, now=SOON)
    assert error.value.message_dict["starts_at"][0] == (
        "Appeal 1 must be decided by 10:00 on 2 May 2026 BST (Europe/London); this hearing would start at "
        "10:00 on 2 May 2026 BST (Europe/London). The chief director can extend the time to decide, with a "
        "reason, or the case can be referred to the regulating authority (Law 93C) where its regulations "
        "provide it."
    )
    hearing = services.schedule_hearing(
        appeal=appeal,
        by=case.chief,
        starts_at=SESSION_2 - HOUR,
        mode="video",
        place="https://meet.example/committee",
        now=SOON,
    )
    appeal.refresh_from_db()
    assert appeal.state == Appeal.State.SCHEDULED
    assert (hearing.mode, hearing.body, hearing.scheduled_by) == ("video", appeal.body(), case.chief)


def test_no_hearing_before_the_body_is_constituted(case):
    appeal = lodge(case)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    with pytest.raises(ValidationError) as error:
        services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    assert "No body" in error.value.message_dict["body"][0]
    services.constitute_body(appeal=appeal, by=case.chief, kind="committee", members=case.members[:1], now=SOON)
    with pytest.raises(ValidationError) as error:
        services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    assert "1 of 3 members appointed" in error.value.message_dict["body"][0]


def test_attendance_the_directors_account_and_the_scribes_notes(case):
    appeal, _body, hearing = ready(case)
    services.record_attendance(hearing=hearing, player=case.north, by=case.members[0], now=SOON)
    services.record_attendance(hearing=hearing, player=case.east, by=case.members[0], now=SOON)
    assert sorted(hearing.attendance.values_list("side", flat=True)) == ["EW", "NS"]
    with pytest.raises(ValidationError) as error:
        services.record_attendance(hearing=hearing, player=case.north, by=case.members[0], now=SOON)
    assert "already recorded" in error.value.message_dict["player"][0]
    with pytest.raises(ValidationError) as error:
        services.record_attendance(
            hearing=hearing, player=case.record.pairs[0].members.first(), by=case.members[0], now=SOON
        )
    assert "neither side" in error.value.message_dict["player"][0]
    hearing = services.record_hearing_notes(
        hearing=hearing,
        by=case.members[0],
        director_present=True,
        director_account="South paused about ten seconds before 4S",
        notes="N-S: the pause was normal thought",
        scribe=case.members[1],
        now=SOON,
    )
    assert (hearing.director_present, hearing.scribe) == (True, case.members[1])
    assert AppealEvent.objects.filter(appeal=appeal, action="hearing_notes").exists()


def test_a_committee_decides_by_the_majority_of_every_sitting_member(case):
    appeal, body, _hearing = ready(case)
    ann, ben, cat = body.members.order_by("pk")
    services.record_vote(member=ann, outcome="uphold", now=SOON, by=ann.user)
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="LA", now=SOON)
    assert error.value.message_dict["votes"][0] == (
        "Every member votes before the decision is recorded; still to vote: Ben, Cat."
    )
    services.record_vote(member=ben, outcome="vary", now=SOON, by=ben.user)
    services.record_vote(member=cat, outcome="overturn", now=SOON, by=cat.user)
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="LA", now=SOON)
    assert "No majority" in error.value.message_dict["votes"][0]
    services.record_vote(member=cat, outcome="uphold", dissent="Pass is hardly an alternative", now=SOON, by=cat.user)
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(appeal=appeal, by=case.members[0], outcome="vary", reasons="LA", now=SOON)
    assert error.value.message_dict["outcome"][0] == (
        "The members voted 2 uphold, 1 vary: the decision is the majority's (uphold)."
    )
    assert body.members.get(pk=cat.pk).dissent == "Pass is hardly an alternative"


def test_upholding_makes_the_ruling_final_and_changes_no_score(case):
    appeal, body, _hearing = ready(case)
    vote_all(body, "uphold")
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(
            appeal=appeal,
            by=case.members[0],
            outcome="uphold",
            reasons="LA",
            now=SOON,
            score_kind="assigned",
            ns={"contract": "4S", "declarer": "N", "tricks": 10},
        )
    assert "keeps its own score" in error.value.message_dict["score_kind"][0]
    appeal = services.decide_appeal(
        appeal=appeal, by=case.members[0], outcome="uphold", reasons="Pass is a logical alternative", now=SOON
    )
    assert (appeal.state, appeal.outcome, appeal.decided_by, appeal.decided_at) == (
        "decided",
        "uphold",
        case.members[0],
        SOON,
    )
    case.ruling.refresh_from_db()
    assert case.ruling.state == Ruling.State.FINAL
    assert not ScoreChange.objects.filter(cause_type="decision").exists()
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="LA", now=SOON)
    assert "is decided" in error.value.message_dict["state"][0]


def test_overturning_restores_the_table_result_in_the_standings(case):
    appeal, body, _hearing = ready(case)
    assert board_score(case) == Decimal("5")  # +170 by the ruling
    vote_all(body, "overturn")
    services.decide_appeal(
        appeal=appeal, by=case.members[0], outcome="overturn", reasons="The pause was normal for the position", now=SOON
    )
    change = ScoreChange.objects.get(cause_type="decision")
    assert (change.cause_id, change.cause_label, change.changed_by) == (appeal.pk, "appeal 1 decision", case.members[0])
    assert board_score(case) == Decimal("8")  # +420 again
    assert total(case) == Decimal("8")
    case.ruling.refresh_from_db()
    assert case.ruling.state == Ruling.State.CHANGED_BY_APPEAL
    change.refresh_from_db()
    assert change.explain("NS") == "Board 1: 3S N +1 (+170) replaced by 4S N = +420 by appeal 1 decision, 5 -> 8 MP"


def test_varying_gives_a_new_adjusted_score_in_the_rulings_form(case):
    appeal, body, _hearing = ready(case)
    vote_all(body, "vary")
    appeal = services.decide_appeal(
        appeal=appeal,
        by=case.members[0],
        outcome="vary",
        reasons="Some would pass",
        now=SOON,
        score_kind="weighted",
        ns=[
            {"contract": "4S", "declarer": "N", "tricks": 10, "weight": "0.5"},
            {"contract": "3S", "declarer": "N", "tricks": 10, "weight": "0.5"},
        ],
    )
    assert appeal.score == {"ns": [[420, "0.5"], [170, "0.5"]]}
    assert appeal.score_description == "0.5 4S N = / 0.5 3S N +1"
    assert board_score(case) == Decimal("6.5")
    assert total(case) == Decimal("6.5")


def test_a_bad_score_in_a_decision_is_refused_and_nothing_is_written(case):
    appeal, body, _hearing = ready(case)
    vote_all(body, "vary")
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(
            appeal=appeal,
            by=case.members[0],
            outcome="vary",
            reasons="x",
            now=SOON,
            score_kind="assigned",
            ns={"contract": "8S", "declarer": "N", "tricks": 10},
        )
    assert "ns" in error.value.message_dict
    appeal.refresh_from_db()
    assert appeal.state == Appeal.State.SCHEDULED
    assert not ScoreChange.objects.filter(cause_type="decision").exists()


def test_only_a_sitting_member_records_the_decision_after_a_hearing(case):
    appeal = lodge(case)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="LA", now=SOON)
    assert "No body" in error.value.message_dict["body"][0]
    body = committee(case, appeal)
    with pytest.raises(PermissionDenied) as error:
        services.decide_appeal(appeal=appeal, by=case.members[3], outcome="uphold", reasons="LA", now=SOON)
    assert "does not sit on it" in str(error.value)
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="LA", now=SOON)
    assert "not been heard" in error.value.message_dict["hearing"][0]
    with pytest.raises(ValidationError) as error:
        seat = body.members.first()
        services.record_vote(member=seat, by=seat.user, outcome="uphold", now=SOON)
    assert "not been heard" in error.value.message_dict["state"][0]
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(appeal=appeal, by=case.members[0], outcome="annul", reasons="LA", now=SOON)
    assert "not a decision" in error.value.message_dict["outcome"][0]


def test_a_case_without_concurrence_cannot_be_decided(case):
    appeal, body, _hearing = ready(case)
    appeal.concurrences.filter(player=case.south).delete()
    vote_all(body, "uphold")
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="LA", now=SOON)
    assert "Law 92D" in error.value.message_dict["concurrence"][0]


def test_without_an_appeals_body_the_director_in_charge_decides_everything(case, monkeypatch):
    regulate(case, "appeals_body", "none")
    appeal = lodge(
        case,
        parts=[{"kind": "law", "question": "Does 16B apply?"}, {"kind": "judgement", "question": "Was pass a LA?"}],
    )
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    services.constitute_body(appeal=appeal, by=case.chief, now=SOON)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    appeal = services.decide_appeal(appeal=appeal, by=case.chief, outcome="overturn", reasons="No LA", now=SOON)
    assert set(appeal.parts.values_list("outcome", "decided_by")) == {("overturn", case.chief.pk)}
    assert board_score(case) == Decimal("8")


def test_the_law_part_goes_to_the_director_in_charge_first(case):
    appeal = lodge(
        case,
        parts=[
            {"kind": "law", "question": "Does 16B apply to a tray delay?"},
            {"kind": "judgement", "question": "Was pass a LA?"},
        ],
    )
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    body = committee(case, appeal)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    vote_all(body, "vary")
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(appeal=appeal, by=case.members[0], outcome="vary", reasons="x", now=SOON)
    assert "Law 93B1" in error.value.message_dict["parts"][0]
    law, judgement = appeal.parts.order_by("pk")
    with pytest.raises(PermissionDenied) as error:
        services.decide_law_part(part=law, by=case.director, outcome="uphold", reasons="It does", now=SOON)
    assert "Only the director in charge" in str(error.value)
    with pytest.raises(ValidationError) as error:
        services.decide_law_part(part=judgement, by=case.chief, outcome="uphold", reasons="It does", now=SOON)
    assert "the body decides it" in error.value.message_dict["part"][0]
    services.decide_law_part(part=law, by=case.chief, outcome="uphold", reasons="16B covers any tempo", now=SOON)
    with pytest.raises(ValidationError) as error:
        services.decide_law_part(part=law, by=case.chief, outcome="uphold", reasons="again", now=SOON)
    assert "already decided" in error.value.message_dict["part"][0]
    appeal.refresh_from_db()
    assert appeal.state == Appeal.State.SCHEDULED  # the judgement part is still the body's
    appeal = services.decide_appeal(
        appeal=appeal,
        by=case.members[0],
        outcome="vary",
        reasons="Some pass",
        score_kind="assigned",
        ns={"contract": "4S", "declarer": "N", "tricks": 9},
        now=SOON,
    )
    assert appeal.outcome == "vary"
    assert board_score(case) == Decimal("1")  # -50, shared with table 6


def test_a_law_only_appeal_is_decided_by_the_director_in_charge(case):
    appeal = lodge(case, parts=[{"kind": "law", "question": "Was 12C1e the right law?"}])
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    services.decide_law_part(part=appeal.parts.get(), by=case.chief, outcome="overturn", reasons="Wrong law", now=SOON)
    appeal.refresh_from_db()
    assert (appeal.state, appeal.outcome, appeal.decided_by) == ("decided", "overturn", case.chief)
    assert ScoreChange.objects.get(cause_type="decision").cause_label == "appeal 1 decision"
    assert board_score(case) == Decimal("8")
    case.ruling.refresh_from_db()
    assert case.ruling.state == Ruling.State.CHANGED_BY_APPEAL


def test_the_body_cannot_overrule_the_director_in_charge_on_law_but_may_recommend(case):
    appeal = lodge(case, parts=[{"kind": "law", "question": "Was 12C1e the right law?"}])
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    law = appeal.parts.get()
    services.decide_law_part(part=law, by=case.chief, outcome="uphold", reasons="12C1e is right", now=SOON)
    services.appeal_law_decision(part=law, by=case.director, now=SOON)
    appeal.refresh_from_db()
    assert (appeal.state, appeal.outcome) == ("lodged", "")
    case.ruling.refresh_from_db()
    assert case.ruling.state == Ruling.State.UNDER_APPEAL
    with pytest.raises(ValidationError) as error:
        services.appeal_law_decision(part=law, by=case.director, now=SOON)
    assert "already before the body" in error.value.message_dict["part"][0]
    body = committee(case, appeal)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    vote_all(body, "overturn")
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(appeal=appeal, by=case.members[0], outcome="overturn", reasons="Wrong law", now=SOON)
    assert error.value.message_dict["outcome"][0] == (
        "The body cannot overrule the director in charge on law or regulation (Law 93B3): it may uphold the "
        "decision, or record a recommendation to the director."
    )
    recommendation = services.record_recommendation(
        appeal=appeal, by=case.members[0], about="law", text="Apply Law 12C1c instead", now=SOON
    )
    with pytest.raises(PermissionDenied) as error:
        services.respond_to_recommendation(
            recommendation=recommendation, by=case.director, accepted=False, response="No", now=SOON
        )
    assert "Only the director in charge" in str(error.value)
    recommendation = services.respond_to_recommendation(
        recommendation=recommendation, by=case.chief, accepted=False, response="12C1e is the regulation here", now=SOON
    )
    assert (recommendation.accepted, recommendation.responded_by) == (False, case.chief)
    with pytest.raises(ValidationError) as error:
        services.respond_to_recommendation(
            recommendation=recommendation, by=case.chief, accepted=True, response="Changed my mind", now=SOON
        )
    assert "already answered" in error.value.message_dict["accepted"][0]
    vote_all(body, "uphold")
    appeal = services.decide_appeal(
        appeal=appeal, by=case.members[0], outcome="uphold", reasons="Bound by 93B3", now=SOON
    )
    assert appeal.state == "decided"


def test_the_body_cannot_overrule_a_disciplinary_decision(case):
    penalised = ruling_at(
        case.record.results[5],
        case.chief,
        kind="disciplinary_penalty",
        laws="91A",
        ruling_text="Pair 6 penalised for discourtesy",
        called_at=SOON,  # asked for within the Law 92B period
    )
    rulings_services.add_penalty(
        ruling=penalised,
        by=penalised.director,
        kind="disciplinary",
        side="NS",
        unit="suspension",
        offence="Abuse of an opponent",
    )
    north = case.record.pairs[5].members.order_by("pk")[0]
    appeal = services.lodge_appeal(ruling=penalised, by=case.director, player=north, grounds="Not abusive", now=SOON)
    services.record_concurrence(
        appeal=appeal,
        player=case.record.pairs[5].members.order_by("pk")[1],
        how="in_person",
        by=case.director,
        now=SOON,
    )
    body = committee(case, appeal)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    vote_all(body, "overturn")
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(appeal=appeal, by=case.members[0], outcome="overturn", reasons="Not abusive", now=SOON)
    assert "disciplinary powers of Law 91 (Law 93B3)" in error.value.message_dict["outcome"][0]
    recommendation = services.record_recommendation(
        appeal=appeal, by=case.members[1], about="disciplinary", text="Reduce to a warning", now=SOON
    )
    services.respond_to_recommendation(
        recommendation=recommendation, by=case.chief, accepted=True, response="Reduced to a warning", now=SOON
    )
    with pytest.raises(PermissionDenied) as error:
        services.record_recommendation(appeal=appeal, by=case.members[3], about="law", text="x", now=SOON)
    assert "does not sit on it" in str(error.value)


def test_withdrawal_is_a_request_the_body_may_refuse_by_hearing_the_case(case):
    appeal, body, _hearing = ready(case)
    with pytest.raises(ValidationError) as error:
        services.request_withdrawal(appeal=appeal, player=case.east, by=case.director, now=SOON)
    assert "Only the appellants" in error.value.message_dict["player"][0]
    services.request_withdrawal(appeal=appeal, player=case.south, by=case.director, reason="Tired", now=SOON)
    with pytest.raises(ValidationError) as error:
        services.request_withdrawal(appeal=appeal, player=case.north, by=case.director, now=SOON)
    assert "already asked" in error.value.message_dict["player"][0]
    appeal.refresh_from_db()
    assert appeal.state == Appeal.State.SCHEDULED
    vote_all(body, "overturn")
    appeal = services.decide_appeal(appeal=appeal, by=case.members[0], outcome="overturn", reasons="No LA", now=SOON)
    assert appeal.state == "decided"


def test_an_accepted_withdrawal_ends_the_case_and_the_ruling_stands(case):
    appeal, _body, _hearing = ready(case)
    with pytest.raises(ValidationError) as error:
        services.accept_withdrawal(appeal=appeal, by=case.members[0], now=SOON)
    assert "not asked to withdraw" in error.value.message_dict["state"][0]
    services.request_withdrawal(appeal=appeal, player=case.north, by=case.director, now=SOON)
    with pytest.raises(PermissionDenied) as error:
        services.accept_withdrawal(appeal=appeal, by=case.members[3], now=SOON)
    assert "does not sit" in str(error.value)
    appeal = services.accept_withdrawal(appeal=appeal, by=case.members[0], now=SOON)
    assert appeal.state == Appeal.State.WITHDRAWN
    case.ruling.refresh_from_db()
    assert case.ruling.state == Ruling.State.GIVEN


def test_a_referral_cannot_be_withdrawn_by_the_players(case):
    appeal = services.lodge_appeal(ruling=case.ruling, by=case.director, origin="director", grounds="Law 83", now=SOON)
    with pytest.raises(ValidationError) as error:
        services.request_withdrawal(appeal=appeal, player=case.north, by=case.director, now=SOON)
    assert "referred" in error.value.message_dict["player"][0]


def test_statements_are_locked_when_both_sides_agree(case):
    appeal = lodge(case)
    services.record_statement(
        appeal=appeal, by=case.director, respondents_statement="The pause was 10 seconds", now=SOON
    )
    with pytest.raises(ValidationError) as error:
        services.lock_statements(appeal=appeal, by=case.director, agreed_by=[case.north, case.south], now=SOON)
    assert "Both sides" in error.value.message_dict["agreed_by"][0]
    services.lock_statements(appeal=appeal, by=case.director, agreed_by=[case.north, case.east], now=SOON)
    with pytest.raises(ValidationError) as error:
        services.record_statement(appeal=appeal, by=case.director, grounds="Something new", now=SOON)
    assert error.value.message_dict["grounds"][0] == (
        "Both sides agreed the statements, and they were locked at 21:10 on 1 May 2026 BST (Europe/London): they "
        "cannot change."
    )
    with pytest.raises(ValidationError) as error:
        services.lock_statements(appeal=appeal, by=case.director, agreed_by=[case.north, case.east], now=SOON)
    assert "already locked" in error.value.message_dict["statements"][0]
    appeal.refresh_from_db()
    assert appeal.respondents_statement == "The pause was 10 seconds"
