"""The score checks of a session (issue #44): each flag on a recorded result, accepted with one
tap or corrected, and the counts on the session's page."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from audit.models import AuditEntry
from core import policy, roles
from scoring import score_checks, services
from scoring.models import ScoreCheckAccepted
from tests.conftest import make_user
from tests.test_translations import compiled  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db


def codes(session):
    return sorted((flag.code, flag.result.table.number) for flag in score_checks.session_checks(session).flags)


def scorer_of(field):
    user = make_user("checker")
    services.appoint_official(tournament=field.tournament, user=user, role=roles.SCORER, by=policy.SYSTEM)
    return user


def test_a_clean_field_has_no_flag(field):
    assert codes(field.session) == []


def test_a_lone_score_far_from_the_field_is_flagged_with_the_par(field):
    services.correct_result(result=field.results[5], contract="4S", declarer="N", tricks=5, by=policy.SYSTEM)
    flags = score_checks.session_checks(field.session).flags
    assert [(flag.code, flag.result.table.number) for flag in flags] == [("far_from_field", 6)]
    assert "N-S -250 is far from the field (median +420)" in flags[0].message
    assert flags[0].par.startswith("double-dummy par:")


def test_a_score_the_vulnerability_no_longer_gives_is_flagged(field):
    services.update_board(board=field.boards[0], vulnerability="All", by=policy.SYSTEM)
    flagged = codes(field.session)
    assert ("vulnerability", 1) in flagged and len(
        [c for c in flagged if c[0] == "vulnerability"]
    ) == 5  # a partscore scores alike
    flag = next(f for f in score_checks.session_checks(field.session).flags if f.result.table.number == 1)
    assert "N-S +450 recorded; 4S N +1 makes N-S +650 at this vulnerability" == flag.message


def test_a_board_passed_out_everywhere_is_flagged(field):
    for result in field.results:
        services.correct_result(result=result, contract="PASS", declarer="", tricks=None, by=policy.SYSTEM)
    assert codes(field.session) == [("passed_out_everywhere", 1)]


def test_a_pair_on_both_sides_of_a_board_is_flagged(field):
    services.correct_result(result=field.results[1], ew=field.results[0].ns, by=policy.SYSTEM)
    assert ("same_pair_twice", 1) in codes(field.session)


def test_accepted_with_one_tap_and_counted_on_the_session_page(client, field):
    services.correct_result(result=field.results[5], contract="4S", declarer="N", tricks=5, by=policy.SYSTEM)
    scorer = scorer_of(field)
    client.force_login(scorer)
    page = client.get(reverse("scoring:session", args=[field.session.pk])).content.decode()
    assert "Flags to look at: 1" in page and "Accepted: 0" in page
    answer = client.post(
        reverse("scoring:session-check-accept", args=[field.session.pk]),
        {"result": field.results[5].pk, "code": "far_from_field"},
        follow=True,
    )
    text = answer.content.decode()
    assert "Accepted: the result stands as recorded." in text and "Accepted: 1" in text
    mark = ScoreCheckAccepted.objects.get()
    assert (mark.result, mark.code, mark.accepted_by) == (field.results[5], "far_from_field", scorer)
    assert AuditEntry.objects.filter(action="score_check.accepted").exists()
    with pytest.raises(ValidationError) as refused:
        services.accept_score_check(result=field.results[5], code="far_from_field", by=scorer)
    assert "code" in refused.value.message_dict


def test_corrected_from_the_checks_page_and_the_flag_goes(client, field):
    services.correct_result(result=field.results[5], contract="4S", declarer="N", tricks=5, by=policy.SYSTEM)
    client.force_login(scorer_of(field))
    url = reverse("scoring:session-check-correct", args=[field.session.pk])
    bad = client.post(url, {"result": field.results[5].pk, "contract": "4S", "declarer": "N", "tricks": "x"})
    assert bad.status_code == 400 and "Tricks: a whole number from 0 to 13." in bad.content.decode()
    client.post(url, {"result": field.results[5].pk, "contract": "4S", "declarer": "N", "tricks": "9"})
    assert codes(field.session) == []


def test_a_player_may_not_see_or_accept_the_checks(client, field):
    player = make_user("pairone", role=roles.PLAYER)
    field.players[0].user = player
    field.players[0].save()
    client.force_login(player)
    assert client.get(reverse("scoring:session-checks", args=[field.session.pk])).status_code == 403
    assert "Score checks" not in client.get(reverse("scoring:session", args=[field.session.pk])).content.decode()
    with pytest.raises(PermissionDenied):
        services.accept_score_check(result=field.results[0], code="far_from_field", by=player)


def test_a_flags_signed_scores_read_left_to_right_on_a_hebrew_page(client, field, compiled):  # noqa: F811
    """The checks page in Hebrew drew "צפון-דרום 250-" for "N-S -250": each signed score of a
    flag's sentence and of its par is isolated left to right (issue #42)."""
    from tests.conftest import page_in
    from tests.test_reader import outside_ltr

    services.correct_result(result=field.results[5], contract="4S", declarer="N", tricks=5, by=policy.SYSTEM)
    page = page_in(client, scorer_of(field), reverse("scoring:session-checks", args=[field.session.pk]), "he")
    assert '<bdi dir="ltr">-250</bdi>' in page and '<bdi dir="ltr">+420</bdi>' in page
    assert outside_ltr(page) == []
