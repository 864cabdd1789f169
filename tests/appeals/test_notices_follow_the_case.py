""" "Waiting for you" follows the case (issue #42, item 6): a case reopened after its decision no
longer says it is decided, a hearing's notice goes once the case is decided, and a case decided
again says only its last decision."""

import pytest

from appeals import notifications, services
from tests.appeals.conftest import SOON, committee, lodge, shown, vote_all

pytestmark = pytest.mark.django_db


def law_appeal_decided(case):
    appeal = lodge(case, parts=[{"kind": "law", "question": "Was 12C1e the right law?"}])
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    law = appeal.parts.get()
    services.decide_law_part(part=law, by=case.chief, outcome="uphold", reasons="12C1e is right", now=SOON)
    return appeal, law


def texts_for(user):
    return [str(notice.shown) for notice in notifications.waiting_for(user)]


def test_a_reopened_case_is_no_longer_decided_in_waiting_for_you(case, client):
    appeal, law = law_appeal_decided(case)
    assert "Appeal 1 is decided: Ruling upheld." in texts_for(case.director)
    services.appeal_law_decision(part=law, by=case.director, now=SOON)  # to the body: open again
    assert "Appeal 1 is decided: Ruling upheld." not in texts_for(case.director)
    client.force_login(case.director)
    assert "Appeal 1 is decided" not in shown(client.get("/appeals/"))


def test_the_hearing_notice_goes_with_the_decision_and_only_the_last_decision_stays(case):
    appeal, law = law_appeal_decided(case)
    services.appeal_law_decision(part=law, by=case.director, now=SOON)
    body = committee(case, appeal)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    member = case.members[0]
    assert [t for t in texts_for(member) if t.startswith("Appeal 1 is heard at")]
    vote_all(body, "uphold")
    services.decide_appeal(appeal=appeal, by=member, outcome="uphold", reasons="The law is right.")
    assert not [t for t in texts_for(member) if t.startswith("Appeal 1 is heard at")]
    decided = [t for t in texts_for(case.director) if t.startswith("Appeal 1 is decided")]
    assert decided == ["Appeal 1 is decided: Ruling upheld."]  # the body's, not also the director's
