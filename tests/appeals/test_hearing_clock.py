"""The case's clock (issue #42, item 6): the members vote and the body decides once the hearing
has begun, at the time fixed or earlier with the reason the body sat early in the record."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from appeals import services
from appeals.models import Appeal, AppealEvent
from tests.appeals.conftest import SOON, committee, lodge, vote_all

pytestmark = pytest.mark.django_db
LATER = SOON + datetime.timedelta(hours=1)  # 22:10 in London


def heard_later(case):
    appeal = lodge(case)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    body = committee(case, appeal)
    hearing = services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=LATER, place="Room 2", now=SOON)
    return appeal, body, hearing


def test_no_vote_before_the_hearing_starts(case):
    appeal, body, _hearing = heard_later(case)
    member = body.sitting().first()
    with pytest.raises(ValidationError) as error:
        services.record_vote(member=member, outcome="uphold", by=member.user, now=SOON)
    assert error.value.message_dict["hearing"] == [
        "The hearing of appeal 1 starts at 22:10 on 1 May 2026 BST (Europe/London): the members vote after it "
        "starts, or record why the body sits early."
    ]
    member.refresh_from_db()
    assert member.vote == "" and member.voted_at is None


def test_no_decision_before_the_hearing_starts(case):
    appeal, body, _hearing = heard_later(case)
    vote_all(body, "uphold", now=LATER)  # votes at the time fixed
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(
            appeal=appeal, by=case.members[0], outcome="uphold", reasons="The ruling stands.", now=SOON
        )
    assert "the body decides after it starts" in error.value.message_dict["hearing"][0]
    appeal.refresh_from_db()
    assert appeal.state == Appeal.State.SCHEDULED and appeal.outcome == ""


def test_at_the_time_fixed_the_body_votes_and_decides(case):
    appeal, body, _hearing = heard_later(case)
    vote_all(body, "uphold", now=LATER)
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="The ruling stands.", now=LATER)
    appeal.refresh_from_db()
    assert appeal.state == Appeal.State.DECIDED


def test_the_body_sits_early_with_its_reason_in_the_record(case):
    appeal, body, hearing = heard_later(case)
    with pytest.raises(ValidationError) as error:
        services.sit_early(hearing=hearing, by=case.members[0], reason="  ", now=SOON)
    assert error.value.message_dict["reason"] == ["Say why the body sits before the time fixed."]
    services.sit_early(hearing=hearing, by=case.members[0], reason="Both sides are here now.", now=SOON)
    hearing.refresh_from_db()
    assert (hearing.sat_early_at, hearing.early_reason) == (SOON, "Both sides are here now.")
    step = appeal.events.get(action=AppealEvent.Action.SAT_EARLY)
    assert step.text == ("The body sat before 22:10 on 1 May 2026 BST (Europe/London): Both sides are here now.")
    vote_all(body, "uphold", now=SOON)
    services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="The ruling stands.", now=SOON)
    appeal.refresh_from_db()
    assert appeal.state == Appeal.State.DECIDED
    with pytest.raises(ValidationError):  # decided: the case is closed
        services.sit_early(hearing=hearing, by=case.members[0], reason="Again.", now=SOON)


def test_a_hearing_that_has_begun_cannot_sit_early(case):
    appeal, _body, hearing = heard_later(case)
    with pytest.raises(ValidationError) as error:
        services.sit_early(hearing=hearing, by=case.members[0], reason="Both sides are here.", now=LATER)
    assert error.value.message_dict["state"] == [
        "The hearing has already begun (22:10 on 1 May 2026 BST (Europe/London))."
    ]


def test_only_the_body_or_a_director_brings_the_hearing_forward(case):
    _appeal, _body, hearing = heard_later(case)
    with pytest.raises(PermissionDenied):
        services.sit_early(hearing=hearing, by=case.members[3], reason="I am here.", now=SOON)
    hearing.refresh_from_db()
    assert hearing.sat_early_at is None
