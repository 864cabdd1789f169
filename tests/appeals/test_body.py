"""Who hears a case: the kinds of body, their sizes, conflicts of interest checked before a
member sits, declarations and recusals, and each member seeing only their own cases."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from appeals import selectors, services
from appeals.models import Appeal, AppealEvent
from core import policy
from scoring import services as scoring_services
from tests.appeals.conftest import SOON, committee, lodge, ready, regulate, team_event
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def test_a_committee_is_constituted_when_every_member_has_declared(case):
    appeal = lodge(case)
    body = services.constitute_body(
        appeal=appeal, by=case.chief, kind="committee", members=case.members[:3], chair=case.members[0], now=SOON
    )
    assert (body.kind, body.size, body.stage) == ("committee", 3, "event")
    assert body.members.get(is_chair=True).user == case.members[0]
    assert body.missing() == [f"{m.first_name} has not declared any conflict of interest" for m in case.members[:3]]
    appeal.refresh_from_db()
    assert appeal.state == Appeal.State.LODGED
    for member in body.members.all():
        services.declare_conflict(member=member, now=SOON, by=member.user)
    appeal.refresh_from_db()
    assert appeal.state == Appeal.State.CONSTITUTED
    assert body.is_constituted


def test_the_committee_size_comes_from_the_regulations_and_is_odd(case):
    appeal = lodge(case)
    scoring_services.set_authority_setting(
        authority=case.record.authority,
        key="appeals_committee_size",
        value=4,
        effective_from=datetime.date(2020, 1, 1),
        by=policy.SYSTEM,
    )
    with pytest.raises(ValidationError) as error:
        services.constitute_body(appeal=appeal, by=case.chief, kind="committee", now=SOON)
    assert "odd number" in error.value.message_dict["size"][0]
    scoring_services.set_authority_setting(
        authority=case.record.authority,
        key="appeals_committee_size",
        value=5,
        effective_from=datetime.date(2020, 1, 1),
        by=policy.SYSTEM,
    )
    assert services.constitute_body(appeal=appeal, by=case.chief, kind="committee", now=SOON).size == 5


@pytest.mark.parametrize("kind,size", [("referee", 1), ("reviewer", 1), ("director_panel", 3)])
def test_referees_reviewers_and_director_panels(case, kind, size):
    appeal = lodge(case)
    body = services.constitute_body(
        appeal=appeal, by=case.chief, kind=kind, members=case.members[:size], chair=case.members[0], now=SOON
    )
    assert body.size == size
    with pytest.raises(ValidationError) as error:
        services.appoint_member(body=body, user=case.members[3], by=case.chief, now=SOON)
    assert "already has its" in error.value.message_dict["user"][0]


def test_a_body_is_formed_once_by_the_chief_director(case):
    appeal = lodge(case)
    with pytest.raises(PermissionDenied) as error:
        services.constitute_body(appeal=appeal, by=case.director, kind="referee", now=SOON)
    assert "Only the director in charge" in str(error.value)
    services.constitute_body(appeal=appeal, by=case.chief, kind="referee", now=SOON)
    with pytest.raises(ValidationError) as error:
        services.constitute_body(appeal=appeal, by=case.chief, kind="referee", now=SOON)
    assert "already formed" in error.value.message_dict["kind"][0]
    with pytest.raises(ValidationError) as error:
        services.constitute_body(appeal=lodge(case, player=case.east), by=case.chief, kind="national", now=SOON)
    assert "further appeal" in error.value.message_dict["kind"][0]


def test_without_an_appeals_body_the_director_in_charge_hears_alone(case, monkeypatch):
    regulate(case, "appeals_body", "none")
    appeal = lodge(case)
    with pytest.raises(ValidationError) as error:
        services.constitute_body(appeal=appeal, by=case.chief, kind="committee", members=case.members[:3], now=SOON)
    assert "Law 93A" in error.value.message_dict["kind"][0]
    body = services.constitute_body(appeal=appeal, by=case.chief, now=SOON)
    assert (body.kind, [m.user for m in body.members.all()]) == ("director_in_charge", [case.chief])
    appeal.refresh_from_db()
    assert appeal.state == Appeal.State.CONSTITUTED


def test_only_a_chief_director_hears_alone(case):
    appeal = lodge(case)
    with pytest.raises(ValidationError) as error:
        services.constitute_body(
            appeal=appeal, by=case.chief, kind="director_in_charge", members=[case.director], now=SOON
        )
    assert "Only the director in charge" in error.value.message_dict["user"][0]


def test_the_director_who_gave_the_ruling_cannot_sit(case):
    appeal = lodge(case)
    body = services.constitute_body(appeal=appeal, by=case.chief, kind="committee", now=SOON)
    with pytest.raises(ValidationError) as error:
        services.appoint_member(body=body, user=case.director, by=case.chief, now=SOON)
    assert error.value.message_dict["user"][0] == "dana cannot sit on this case: gave the ruling."


def test_a_partner_or_teammate_of_either_side_cannot_sit(case):
    appeal = lodge(case)
    body = services.constitute_body(appeal=appeal, by=case.chief, kind="committee", now=SOON)
    for player in (case.south, case.west):
        user = make_user(f"user-of-{player.pk}")
        player.user = user
        player.save()
        with pytest.raises(ValidationError) as error:
            services.appoint_member(body=body, user=user, by=case.chief, now=SOON)
        side = "N-S" if player == case.south else "E-W"
        contestant = case.ns if player == case.south else case.ew
        assert error.value.message_dict["user"][0].endswith(f"plays for {contestant} ({side}).")


def test_a_captain_of_either_side_cannot_sit(case):
    teams = team_event(case.record, case.director)
    captain_user = make_user("skipper")
    teams.captain.user = captain_user
    teams.captain.save()
    appeal = services.lodge_appeal(
        ruling=teams.ruling, by=case.director, player=teams.players[5], grounds="Claim", now=SOON
    )
    body = services.constitute_body(appeal=appeal, by=case.chief, kind="referee", now=SOON)
    with pytest.raises(ValidationError) as error:
        services.appoint_member(body=body, user=captain_user, by=case.chief, now=SOON)
    assert "captains 1 Lions (N-S)" in error.value.message_dict["user"][0]


def test_a_member_of_the_lower_body_cannot_sit_on_the_further_appeal(case, monkeypatch):
    regulate(case, "further_appeal", "binding")
    appeal, body, _hearing = ready(case)
    for member in body.sitting():
        services.record_vote(member=member, outcome="uphold", now=SOON, by=member.user)
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="Pass is a LA", now=SOON)
    services.lodge_further_appeal(appeal=appeal, by=case.director, player=case.north, grounds="Wrong", now=SOON)
    national = make_user("national")
    scoring_services.appoint_auditor(authority=case.record.authority, user=national, by=policy.SYSTEM)
    higher = services.constitute_body(appeal=appeal, by=national, stage="further", size=3, now=SOON)
    with pytest.raises(ValidationError) as error:
        services.appoint_member(body=higher, user=case.members[1], by=national, now=SOON)
    assert "sat on the event's appeals body for this matter" in error.value.message_dict["user"][0]
    services.appoint_member(body=higher, user=case.members[3], by=national, now=SOON)


def test_the_director_in_charge_who_decided_the_law_part_cannot_sit_on_the_body(case):
    appeal = lodge(
        case,
        parts=[{"kind": "law", "question": "Does 16B apply?"}, {"kind": "judgement", "question": "Was pass a LA?"}],
    )
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    services.decide_law_part(
        part=appeal.parts.get(kind="law"),
        by=case.chief,
        outcome="uphold",
        reasons="16B applies to a hesitation",
        now=SOON,
    )
    body = services.constitute_body(appeal=appeal, by=case.chief, kind="committee", now=SOON)
    with pytest.raises(ValidationError) as error:
        services.appoint_member(body=body, user=case.chief, by=case.chief, now=SOON)
    assert "decided a part of this matter as director in charge" in error.value.message_dict["user"][0]


def test_a_declared_conflict_stops_the_member_voting_until_replaced(case):
    appeal = lodge(case)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    body = committee(case, appeal)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    cat = body.members.get(user=case.members[2])
    services.declare_conflict(member=cat, conflict="Plays weekly with North's sister", now=SOON, by=cat.user)
    assert "Cat declared a conflict (Plays weekly with North's sister) and must recuse" in body.missing()
    with pytest.raises(ValidationError) as error:
        services.record_vote(member=cat, outcome="uphold", now=SOON, by=cat.user)
    assert "cannot vote: recuse" in error.value.message_dict["member"][0]
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="LA", now=SOON)
    assert "not constituted" in error.value.message_dict["body"][0]
    services.recuse(member=cat, reason="Conflict declared", now=SOON, by=cat.user)
    with pytest.raises(ValidationError) as error:
        services.record_vote(member=cat, outcome="uphold", now=SOON, by=cat.user)
    assert "recused and cannot vote" in error.value.message_dict["member"][0]
    dan = services.appoint_member(body=body, user=case.members[3], by=case.chief, now=SOON)
    with pytest.raises(ValidationError) as error:
        services.record_vote(member=dan, outcome="uphold", now=SOON, by=dan.user)
    assert "has not declared" in error.value.message_dict["member"][0]
    services.declare_conflict(member=dan, now=SOON, by=dan.user)
    assert body.is_constituted
    actions = list(AppealEvent.objects.filter(appeal=appeal).values_list("action", flat=True))
    assert actions[-4:] == ["interests_declared", "recused", "member_appointed", "interests_declared"]


def test_recusing_twice_or_without_a_reason_is_refused(case):
    body = committee(case, lodge(case))
    member = body.members.first()
    with pytest.raises(ValidationError) as error:
        services.recuse(member=member, reason="", now=SOON, by=member.user)
    assert "reason" in error.value.message_dict
    services.recuse(member=member, reason="Knows East", now=SOON, by=member.user)
    with pytest.raises(ValidationError) as error:
        services.recuse(member=member, reason="Knows East", now=SOON, by=member.user)
    assert "already recused" in error.value.message_dict["member"][0]
    with pytest.raises(ValidationError) as error:
        services.declare_conflict(member=member, now=SOON, by=member.user)
    assert "recused" in error.value.message_dict["member"][0]


def test_one_chair_and_one_seat_per_member(case):
    body = services.constitute_body(
        appeal=lodge(case), by=case.chief, kind="committee", members=case.members[:2], chair=case.members[0], now=SOON
    )
    with pytest.raises(ValidationError) as error:
        services.appoint_member(body=body, user=case.members[1], by=case.chief, now=SOON)
    assert "already appointed" in error.value.message_dict["user"][0]
    with pytest.raises(ValidationError) as error:
        services.appoint_member(body=body, user=case.members[2], by=case.chief, chair=True, now=SOON)
    assert "already chairs" in error.value.message_dict["chair"][0]


def test_a_committee_without_a_chair_is_not_constituted(case):
    body = services.constitute_body(
        appeal=lodge(case), by=case.chief, kind="committee", members=case.members[:3], now=SOON
    )
    for member in body.members.all():
        services.declare_conflict(member=member, now=SOON, by=member.user)
    assert body.missing() == ["no chair"]


def test_each_member_sees_only_the_cases_they_sit_on(case):
    first = lodge(case)
    second = lodge(case, player=case.east)
    committee(case, first, members=case.members[:3])
    body = services.constitute_body(appeal=second, by=case.chief, kind="referee", members=[case.members[3]], now=SOON)
    assert list(selectors.cases_for_member(case.members[0])) == [first]
    assert list(selectors.cases_for_member(case.members[3])) == [second]
    seat = body.members.get()
    services.recuse(member=seat, by=seat.user, reason="Knows East", now=SOON)
    assert list(selectors.cases_for_member(case.members[3])) == []
    assert list(selectors.member_queue(case.members[1])) == [first]
