"""The official score posted from the session's page, and posted again (issue #27: only the API
did it). Posting again restarts the appeal and correction clocks from the new posting."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from core import policy
from scoring import services

pytestmark = pytest.mark.django_db


def page(client, user, session):
    client.force_login(user)
    return client.get(reverse("scoring:session", args=[session.pk])).content.decode()


def post(client, user, session, **data):
    client.force_login(user)
    return client.post(reverse("scoring:session-post-score", args=[session.pk]), data, follow=True)


def test_the_chief_director_posts_the_official_score_from_the_page(client, record, people):
    session = record.session
    assert "Post the official score" in page(client, people.chief, session)
    answer = post(client, people.chief, session, note="After the last round")
    text = answer.content.decode()
    assert answer.status_code == 200 and "Official score posted at" in text
    assert "the appeal period runs until" in text
    posting = session.score_postings.get()
    assert (posting.posted_by, posting.note) == (people.chief, "After the last round")
    assert AuditEntry.objects.filter(action="session.official_score_posted").exists()
    assert "Post the official score again" in text


def test_posting_again_restarts_the_appeal_clock(client, record, people):
    session = record.session
    first = timezone.now() - datetime.timedelta(hours=2)
    services.post_official_scores(session=session, at=first, by=policy.SYSTEM)
    assert session.appeal_deadline() < timezone.now()  # closed
    text = page(client, people.chief, session)
    assert "Posting it again (a corrected score) starts the correction and appeal periods again" in text
    answer = post(client, people.chief, session, note="Board 2 corrected").content.decode()
    assert "Official score posted again at" in answer
    session.refresh_from_db()
    assert session.appeal_deadline() > timezone.now()  # open again, from the new posting
    assert session.score_postings.count() == 2
    assert "Board 2 corrected" in answer  # the postings are listed


@pytest.mark.parametrize("who", ["player", "appeals", "auditor"])
def test_others_see_no_button_and_are_refused(client, record, people, who):
    user = getattr(people, who)
    session = record.session
    if who != "auditor":
        assert "Post the official score" not in page(client, user, session)
    answer = post(client, user, session)
    assert answer.status_code in (403, 404)
    assert not session.score_postings.exists()
