"""The correction and appeal periods run from the official score made available for checking
(issue #44): a posting counts when every player of the session can see what the regulations'
``checking_requires`` asks for; one that shows less starts no clock; posting again restarts them."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from core import policy
from scoring import deadlines, selectors, services
from scoring.models import AuthoritySetting

pytestmark = pytest.mark.django_db


def require(record, level):
    AuthoritySetting.objects.create(
        authority=record.authority, key="checking_requires", value=level, effective_from=datetime.date(2000, 1, 1)
    )


def test_own_results_only_start_no_clock_and_the_full_travellers_do(record):
    session = record.session
    early = timezone.now() - datetime.timedelta(minutes=20)
    posting = services.post_official_scores(session=session, at=early, shows="own_results", by=policy.SYSTEM)
    assert not posting.checkable
    assert session.official_score_at is None and session.appeal_deadline() is None
    assert selectors.session_clocks([session])[session.pk]["appeal_deadline"] is None
    later = timezone.now() - datetime.timedelta(minutes=5)
    services.post_official_scores(session=session, at=later, shows="full_travellers", by=policy.SYSTEM)
    assert session.official_score_at == later
    assert selectors.session_clocks([session])[session.pk]["appeal_deadline"] == session.appeal_deadline()


def test_where_the_regulations_ask_for_the_hand_records_the_travellers_are_not_enough(record):
    require(record, "hand_records")
    session = record.session
    assert not services.post_official_scores(session=session, shows="full_travellers", by=policy.SYSTEM).checkable
    assert session.official_score_at is None
    assert services.post_official_scores(session=session, by=policy.SYSTEM).shows == "hand_records"  # the default
    assert session.official_score_at is not None


def test_the_one_question_and_a_bad_level_named(record):
    regulations = record.tournament.regulations()
    assert regulations["checking_requires"] == "full_travellers"
    assert [deadlines.counts_for_checking(level, regulations) for level in deadlines.CHECKING_LEVELS] == [
        False,
        True,
        True,
    ]
    with pytest.raises(ValidationError) as refused:
        services.post_official_scores(session=record.session, shows="everything", by=policy.SYSTEM)
    assert "shows" in refused.value.message_dict


def test_the_page_says_why_the_clock_has_not_started(client, record, people):
    client.force_login(people.chief)
    url = reverse("scoring:session-post-score", args=[record.session.pk])
    text = client.post(url, {"shows": "own_results"}, follow=True).content.decode()
    assert "the regulations ask for the full travellers and standings" in text
    assert "Not yet made available for checking" in text
    text = client.post(url, {"shows": "full_travellers"}, follow=True).content.decode()
    assert "Official score posted again at" in text or "Official score posted at" in text
    assert "the clocks start here" in text
