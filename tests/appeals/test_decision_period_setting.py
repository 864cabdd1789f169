"""The time to decide an appeal is the regulating authority's dated setting (issue #42, item 1):
``decision_period_minutes`` after the appeal is lodged where the body sets one, else (the Laws
set none) before the event's next session starts; an appeal lodged after an earlier session's
score was posted again is then in time, and the case page says until when."""

import datetime

import pytest
from django.utils import timezone

from appeals import services
from core import policy
from scoring import services as scoring_services
from scoring.authority_settings import clean_value
from tests.appeals.conftest import SESSION_2, SOON, lodge, regulate, shown

pytestmark = pytest.mark.django_db


def test_without_a_setting_a_case_is_decided_before_the_next_session(case):
    appeal = lodge(case)
    assert (appeal.decide_by, appeal.hear_at_once) == (SESSION_2, False)


def test_the_authoritys_period_runs_from_the_lodging(case):
    regulate(case, decision_period_minutes=48 * 60)
    appeal = lodge(case)
    assert appeal.decide_by == SOON + datetime.timedelta(hours=48)
    assert not appeal.hear_at_once


def test_a_reposted_sessions_appeal_is_in_time_under_the_authoritys_period(case, client):
    regulate(case, decision_period_minutes=24 * 60)
    now = timezone.now()
    scoring_services.post_official_scores(
        session=case.record.session, at=now - datetime.timedelta(minutes=5), by=policy.SYSTEM
    )
    appeal = services.lodge_appeal(ruling=case.ruling, by=case.director, player=case.north, grounds="Not a LA")
    assert appeal.decide_by > now + datetime.timedelta(hours=23)
    assert not appeal.decision_overdue()
    client.force_login(case.chief)
    page = shown(client.get(f"/appeals/{appeal.pk}/"))
    assert "The time to decide has passed" not in page


def test_the_setting_refuses_a_period_that_is_not_whole_minutes():
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as error:
        clean_value("decision_period_minutes", "a day")
    assert "Time to decide an appeal" in str(error.value) and "whole number from 1 to 43200" in str(error.value)
    assert clean_value("decision_period_minutes", "") == ""
    assert clean_value("decision_period_minutes", 90) == 90
