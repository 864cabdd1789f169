"""A published session's change log (issue #44): every change to a published result, with its
time and reason, read from the score changes and the audit trail; names only as the regulations
allow."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from core import policy, roles
from scoring import change_log, recalculation, services
from scoring.models import AuthoritySetting
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def player_of(field):
    user = make_user("pair-one", role=roles.PLAYER)
    field.players[0].user = user
    field.players[0].save()
    return user


def page(client, user, session):
    client.force_login(user)
    answer = client.get(reverse("scoring:session-changes", args=[session.pk]))
    assert answer.status_code == 200
    return answer.content.decode()


def adjust(result, **extra):
    return services.set_effective_score(
        result=result,
        kind="assigned",
        score={"ns": -50},
        reason="Unauthorised information from the hesitation",
        cause_type="ruling",
        cause_id=17,
        cause_label="ruling 17",
        **extra,
    )


def test_before_publication_the_log_is_empty_and_says_why(client, field):
    adjust(field.results[6])  # a ruling before the official score: not a change to a published result
    log = change_log.session_change_log(field.session, "MP")
    assert log.published_at is None and log.changes == []
    assert "Not published yet" in page(client, player_of(field), field.session)


def test_every_change_after_publication_with_its_time_and_reason(client, field):
    posted = timezone.now() - datetime.timedelta(minutes=5)
    services.post_official_scores(session=field.session, at=posted, by=policy.SYSTEM)
    adjust(field.results[6])
    services.correct_result(result=field.results[2], tricks=9, by=policy.SYSTEM)
    recalculation.recalculate_board(field.boards[0].pk)
    services.post_official_scores(session=field.session, by=policy.SYSTEM, note="Board 1 corrected")

    log = change_log.session_change_log(field.session, "MP")
    assert log.published_at == posted
    assert [change.cause for change in log.changes] == ["ruling", "correction", "posting"]
    ruling, correction, posting = log.changes
    assert (ruling.board, ruling.table, ruling.reason) == (1, 7, "Unauthorised information from the hesitation")
    assert [side for side, _before, after in ruling.scores if after is not None] == ["NS", "EW"]
    assert ruling.scores[0][1] != ruling.scores[0][2]  # the board score moved: the standings did
    assert "4S N, 10 tricks, N-S +420" in correction.text and "4S N, 9 tricks, N-S -50" in correction.text
    assert posting.reason == "Board 1 corrected"

    text = page(client, player_of(field), field.session)
    for words in ("Ruling by the director", "Correction of the table result (Law 79C)", "Official score posted again"):
        assert words in text
    assert "Unauthorised information from the hesitation" in text
    assert "the regulations do not publish names" in text
    assert str(field.players[0]) not in text  # seats only: the demo authority's default


def test_names_where_the_regulations_publish_them(client, field):
    AuthoritySetting.objects.create(
        authority=field.authority, key="casebook_names", value="names", effective_from=datetime.date(2000, 1, 1)
    )
    services.post_official_scores(session=field.session, at=timezone.now(), by=policy.SYSTEM)
    adjust(field.results[0])
    log = change_log.session_change_log(field.session, "MP")
    assert log.names_shown
    assert str(field.pairs[0].members.first()) in log.changes[0].ns


def test_the_session_page_and_the_standings_link_to_the_log(client, field):
    user = player_of(field)
    client.force_login(user)
    url = reverse("scoring:session-changes", args=[field.session.pk])
    assert url in client.get(reverse("scoring:session", args=[field.session.pk])).content.decode()
    standings = reverse("scoring:standings", args=[field.session.event.pk]) + "?session=1"
    assert url in client.get(standings).content.decode()
