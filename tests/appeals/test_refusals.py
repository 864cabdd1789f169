"""The remaining refusals, each naming its field, and the constraints the database keeps."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction

from appeals import services
from appeals.models import Appeal, Body, BodyMember
from core import policy
from scoring import services as scoring_services
from tests.appeals.conftest import SOON, committee, lodge, ready, regulate, vote_all
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def refused(field, words, call, **kwargs):
    """A bad input is refused naming its field; a person who may not act ("by") with PermissionDenied."""
    with pytest.raises(PermissionDenied if field == "by" else ValidationError) as error:
        call(**kwargs)
    text = str(error.value) if field == "by" else " ".join(error.value.message_dict[field])
    assert words in text, text
    return error


def referral(case):
    return services.lodge_appeal(ruling=case.ruling, by=case.director, origin="director", grounds="Law 83", now=SOON)


def decided(case, outcome="uphold"):
    appeal, body, _hearing = ready(case)
    vote_all(body, outcome)
    return services.decide_appeal(appeal=appeal, by=case.members[0], outcome=outcome, reasons="R", now=SOON)


def test_lodging(case):
    refused("parts[1]", "Say what the part asks", lodge, case=case, parts=[{"kind": "law", "question": " "}])
    refused("origin", "from a player", lodge, case=case, origin="captain")


def test_statements_and_concurrence(case):
    appeal = lodge(case)
    refused("grounds", "cannot be empty", services.record_statement, appeal=appeal, by=case.director, grounds=" ")
    refused(
        "player",
        "the director referred the case",
        services.record_concurrence,
        appeal=referral(case),
        player=case.north,
        how="in_person",
        by=case.director,
    )
    services.request_withdrawal(appeal=appeal, player=case.north, by=case.director, now=SOON)
    services.accept_withdrawal(appeal=appeal, by=case.chief, now=SOON)  # before any body sits
    refused(
        "state",
        "is withdrawn",
        services.record_concurrence,
        appeal=appeal,
        player=case.south,
        how="in_person",
        by=case.director,
    )


def test_a_withdrawal_before_a_body_sits_is_the_chief_directors(case):
    appeal = lodge(case)
    services.request_withdrawal(appeal=appeal, player=case.north, by=case.director, now=SOON)
    refused("by", "Only the director in charge", services.accept_withdrawal, appeal=appeal, by=case.director)


def test_deposits(case):
    from tests.appeals.test_deposit_and_merit import EBU_DEPOSITS

    regulate(case, deposits=EBU_DEPOSITS, without_merit_sanction="deposit")
    appeal = lodge(case)
    deposit = services.record_deposit(appeal=appeal, by=case.director, now=SOON)
    refused("reason", "Say why", services.forfeit_deposit, deposit=deposit, by=case.director, reason="")


def test_bodies(case, monkeypatch):
    appeal = lodge(case, player=case.east)
    refused("kind", "not a kind of appeals body", services.constitute_body, appeal=appeal, by=case.chief, kind="jury")
    refused("size", "odd number", services.constitute_body, appeal=appeal, by=case.chief, kind="director_panel", size=4)
    regulate(case, "further_appeal", "binding")
    done = decided(case)
    services.lodge_further_appeal(appeal=done, by=case.director, player=case.north, grounds="Wrong", now=SOON)
    national = make_user("national")
    scoring_services.appoint_auditor(authority=case.record.authority, user=national, by=policy.SYSTEM)
    refused(
        "kind",
        "regulating authority's body",
        services.constitute_body,
        appeal=done,
        by=national,
        stage="further",
        kind="committee",
    )


def test_a_member_cannot_recuse_after_the_decision(case):
    done = decided(case)
    seat = done.body().members.first()
    refused("member", "The case is decided", services.recuse, member=seat, by=seat.user, reason="Late")


def test_votes(case, monkeypatch):
    appeal, body, _hearing = ready(case)
    seat = body.members.first()
    refused("outcome", "not a decision", services.record_vote, member=seat, by=seat.user, outcome="maybe")
    regulate(case, "further_appeal", "binding")
    vote_all(body, "uphold")
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="R", now=SOON)
    refused("state", "is decided", services.record_vote, member=seat, by=seat.user, outcome="vary")


def test_law_parts(case, monkeypatch):
    appeal = lodge(case, parts=[{"kind": "law", "question": "Which law?"}, {"kind": "judgement", "question": "LA?"}])
    law, judgement = appeal.parts.order_by("pk")
    refused("concurrence", "Law 92D", services.decide_law_part, part=law, by=case.chief, outcome="uphold", reasons="R")
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    refused(
        "score_kind",
        "keeps its own score",
        services.decide_law_part,
        part=law,
        by=case.chief,
        outcome="uphold",
        reasons="R",
        score_kind="assigned",
        ns={"contract": "4S", "declarer": "N", "tricks": 9},
    )
    refused("part", "Only the director in charge's decision", services.appeal_law_decision, part=law, by=case.chief)
    refused(
        "part", "Only the director in charge's decision", services.appeal_law_decision, part=judgement, by=case.chief
    )
    services.decide_law_part(part=law, by=case.chief, outcome="uphold", reasons="R", now=SOON)
    regulate(case, "appeals_body", "none")
    refused("part", "Law 93A", services.appeal_law_decision, part=law, by=case.chief)


def test_merit_and_recommendations(case, monkeypatch):
    regulate(case, "appeals_body", "none")
    appeal = lodge(case)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    services.constitute_body(appeal=appeal, by=case.chief, now=SOON)
    refused(
        "body",
        "Only an appeals body recommends",
        services.record_recommendation,
        appeal=appeal,
        by=case.chief,
        about="law",
        text="x",
    )
    other = services.lodge_appeal(ruling=case.ruling, by=case.director, origin="director", grounds="Law 83", now=SOON)
    services.constitute_body(appeal=other, by=case.chief, now=SOON)
    services.schedule_hearing(appeal=other, by=case.chief, starts_at=SOON, now=SOON)
    other = services.decide_appeal(appeal=other, by=case.chief, outcome="uphold", reasons="R", now=SOON)
    refused("origin", "no appellants", services.find_without_merit, appeal=other, by=case.chief, reasons="R")


def test_recommendation_fields(case):
    appeal, _body, _hearing = ready(case)
    refused(
        "about",
        "law or regulation",
        services.record_recommendation,
        appeal=appeal,
        by=case.members[0],
        about="facts",
        text="x",
    )
    refused(
        "text", "Write what", services.record_recommendation, appeal=appeal, by=case.members[0], about="law", text=" "
    )
    recommendation = services.record_recommendation(appeal=appeal, by=case.members[0], about="law", text="x", now=SOON)
    refused(
        "response",
        "Write the director's answer",
        services.respond_to_recommendation,
        recommendation=recommendation,
        by=case.chief,
        accepted=True,
        response="",
    )


def test_a_side_penalised_already_is_not_penalised_twice_on_the_board(case, monkeypatch):
    from rulings import services as rulings_services

    rulings_services.add_penalty(
        ruling=case.ruling,
        by=case.ruling.director,
        kind="procedural",
        side="NS",
        unit="mp",
        amount=1,
        offence="Slow play",
    )
    regulate(case, without_merit_sanction="penalty")
    done = decided(case)
    refused(
        "penalty",
        "already has a procedural penalty on this board (1)",
        services.find_without_merit,
        appeal=done,
        by=case.members[0],
        reasons="R",
        penalty="25%",
    )


def test_further_appeals(case, monkeypatch):
    regulate(case, "further_appeal", "binding")
    appeal = lodge(case)
    refused(
        "origin",
        "No appeals body",
        services.lodge_further_appeal,
        appeal=appeal,
        by=case.members[0],
        origin="body",
        grounds="x",
    )
    committee(case, appeal)
    refused(
        "by",
        "does not sit on it",
        services.lodge_further_appeal,
        appeal=appeal,
        by=case.members[3],
        origin="body",
        grounds="x",
    )
    refused(
        "origin",
        "from a player, the director or the body",
        services.lodge_further_appeal,
        appeal=appeal,
        by=case.director,
        origin="captain",
        grounds="x",
    )
    refused(
        "grounds",
        "Write the grounds",
        services.lodge_further_appeal,
        appeal=appeal,
        by=case.director,
        origin="director",
        grounds="",
    )
    services.request_withdrawal(appeal=appeal, player=case.north, by=case.director, now=SOON)
    services.accept_withdrawal(appeal=appeal, by=case.members[0], now=SOON)
    refused(
        "state",
        "withdrawn",
        services.lodge_further_appeal,
        appeal=appeal,
        by=case.director,
        origin="director",
        grounds="x",
    )


def test_a_further_appeal_needs_a_player_of_either_side(case, monkeypatch):
    regulate(case, "further_appeal", "binding")
    done = decided(case)
    refused(
        "player",
        "either side",
        services.lodge_further_appeal,
        appeal=done,
        by=case.director,
        player=case.record.pairs[0].members.first(),
        grounds="x",
    )
    further = services.lodge_further_appeal(appeal=done, by=case.director, player=case.north, grounds="x", now=SOON)
    national = make_user("national")
    scoring_services.appoint_auditor(authority=case.record.authority, user=national, by=policy.SYSTEM)
    body = services.constitute_body(appeal=done, by=national, stage="further", size=1, members=[national], now=SOON)
    seat = body.members.get()
    services.declare_conflict(member=seat, by=seat.user, now=SOON)
    refused(
        "by",
        "does not sit on it",
        services.decide_further_appeal,
        further_appeal=further,
        by=case.members[3],
        outcome="uphold",
        reasons="R",
    )


def test_the_database_keeps_the_bodys_shape(case):
    appeal = lodge(case)
    with pytest.raises(IntegrityError), transaction.atomic():
        Body.objects.create(appeal=appeal, kind="committee", size=4, constituted_by=case.chief, created_at=SOON)
    body = committee(case, appeal)
    with pytest.raises(IntegrityError), transaction.atomic():
        BodyMember.objects.filter(body=body).update(is_chair=True)
    member = body.members.exclude(is_chair=True).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        BodyMember.objects.filter(pk=member.pk).update(conflict="Partner of North", vote="uphold")
    with pytest.raises(IntegrityError), transaction.atomic():
        Appeal.objects.filter(pk=appeal.pk).update(outcome="vary")
