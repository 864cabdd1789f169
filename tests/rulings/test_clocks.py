"""Issue #28, clocks: every act that changes a score after the official score checks its
period (scoring.deadlines.check_in_period) and names the law and the deadline in its refusal;
times carry their zone's abbreviation, so the night the clocks go back says which 01:20."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from core import policy, reader
from rulings import revokes, services
from rulings.models import Ruling
from scoring import services as scoring_services
from scoring.models import Result
from tests.conftest import table_x

pytestmark = pytest.mark.django_db

POSTED = datetime.datetime(2026, 5, 1, 20, 0, tzinfo=datetime.UTC)  # 21:00 in London; both periods 30 minutes


def post(field, at=POSTED):
    scoring_services.post_official_scores(session=field.session, at=at, by=policy.SYSTEM)


def refusal(error):
    return [m for messages in error.value.message_dict.values() for m in messages]


def test_a_table_result_corrected_after_the_correction_period_is_refused(field):
    post(field)
    with pytest.raises(ValidationError) as error:
        scoring_services.correct_result(result=table_x(field), tricks=11, by=policy.SYSTEM)
    assert refusal(error) == [
        "The correction period (Law 79C1) ended at 21:30 on 1 May 2026 BST (Europe/London); "
        "this table result is not corrected any more."
    ]
    assert Result.objects.get(pk=table_x(field).pk).tricks == 10


def test_a_table_result_corrected_within_the_period_is_accepted(field):
    post(field, at=timezone.now() - datetime.timedelta(minutes=29))
    assert scoring_services.correct_result(result=table_x(field), tricks=11, by=policy.SYSTEM).tricks == 11


def test_a_ruling_first_asked_for_after_the_appeal_period_is_refused(field, director):
    post(field)
    with pytest.raises(ValidationError) as error:
        services.record_ruling(director=director, kind=Ruling.Kind.CLAIM, result=table_x(field))
    assert refusal(error) == [
        "The period for requesting a ruling (Laws 92B, 81C6) ended at 21:30 on 1 May 2026 BST (Europe/London); "
        "no ruling is asked for on this session any more."
    ]
    assert not Ruling.objects.exists()


def test_a_ruling_asked_for_in_time_and_entered_later_is_accepted(field, director):
    post(field)
    ruling = services.record_ruling(
        director=director,
        kind=Ruling.Kind.CLAIM,
        result=table_x(field),
        called_at=POSTED + datetime.timedelta(minutes=25),
    )
    assert ruling.pk


def test_a_concession_cancelled_after_the_correction_period_is_refused(field, director):
    ruling = services.record_ruling(director=director, kind=Ruling.Kind.CLAIM, result=table_x(field))
    post(field)
    with pytest.raises(ValidationError) as error:
        revokes.record_claim(ruling=ruling, by=director, claimer="N", statement="I concede one trick", basis="71")
    assert refusal(error) == [
        "The correction period (Laws 69B, 71) ended at 21:30 on 1 May 2026 BST (Europe/London); "
        "a concession or an acquiescence is no longer cancelled or withdrawn."
    ]


def test_the_night_the_clocks_go_back_says_which_0120():
    first = datetime.datetime(2026, 10, 25, 0, 20, tzinfo=datetime.UTC)
    second = first + datetime.timedelta(hours=1)
    assert reader.event_time(first, "Europe/London") == "01:20 on 25 October 2026 BST (Europe/London)"
    assert reader.event_time(second, "Europe/London") == "01:20 on 25 October 2026 GMT (Europe/London)"
    assert reader.event_time(first, "Asia/Dubai") == "04:20 on 25 October 2026 +04:00 (Asia/Dubai)"
