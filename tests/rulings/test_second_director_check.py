"""A second director's check (issue #44): where the authority asks for it, an adjusted score
reaches the standings only once a second director confirms it, who entered and who confirmed
kept on the ruling and in the audit trail; where it does not, the score goes at once."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from audit.models import AuditEntry
from core import policy, roles, steps
from rulings import services
from scoring import services as scoring_services
from scoring.models import EffectiveScore, ScoreChange
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

ADJUST = dict(
    kind="ui",
    laws="16B1a",
    give=True,
    ruling_text="Score adjusted to 3S+1 by North",
    outcome="adjusted",
    score_kind="assigned",
    ns={"contract": "3S", "declarer": "N", "tricks": 10},
    offending_side="NS",
)


@pytest.fixture
def directors(field):
    people = []
    for name, role in (("dana", roles.DIRECTOR), ("eve", roles.DIRECTOR), ("sam", roles.SCORER)):
        user = make_user(name, first_name=name.title())
        scoring_services.appoint_official(tournament=field.tournament, user=user, role=role, by=policy.SYSTEM)
        people.append(user)
    return people


def ask_for_the_check(field):
    scoring_services.set_authority_setting(
        authority=field.authority,
        key="second_director_check",
        value=True,
        effective_from=datetime.date(2000, 1, 1),
        by=policy.SYSTEM,
    )


def test_without_the_setting_the_adjusted_score_goes_at_once(field, directors):
    ruling = services.rule(result=field.results[6], director=directors[0], **ADJUST)
    assert ruling.score_check == "not_asked"
    assert EffectiveScore.objects.get(result=field.results[6]).kind == "assigned"


def test_the_score_waits_for_a_second_director_and_then_reaches_the_scores(field, directors):
    ask_for_the_check(field)
    dana, eve, _sam = directors
    ruling = services.rule(result=field.results[6], director=dana, **ADJUST)
    ruling.refresh_from_db()
    assert (ruling.state, ruling.score_check, ruling.score_entered_by) == ("given", "awaiting", dana)
    assert not EffectiveScore.objects.filter(result=field.results[6]).exists()
    assert "confirm_score" in steps.available(eve, ruling, "ruling")
    services.confirm_score(ruling=ruling, by=eve)
    ruling.refresh_from_db()
    assert (ruling.score_check, ruling.score_checked_by) == ("confirmed", eve)
    assert ruling.score_checked_at is not None
    assert EffectiveScore.objects.get(result=field.results[6]).kind == "assigned"
    change = ScoreChange.objects.get(result=field.results[6])
    assert (change.cause_type, change.cause_id, change.changed_by) == ("ruling", ruling.pk, eve)
    entry = AuditEntry.objects.get(action="ruling.score_confirmed")
    assert (entry.after["entered_by"], entry.after["confirmed_by"]) == ("Dana", "Eve")
    assert "confirm_score" not in steps.available(eve, ruling, "ruling")


def test_the_director_who_entered_it_cannot_confirm_it(field, directors):
    ask_for_the_check(field)
    dana = directors[0]
    ruling = services.rule(result=field.results[6], director=dana, **ADJUST)
    with pytest.raises(ValidationError) as refused:
        services.confirm_score(ruling=ruling, by=dana)
    assert "score_checked_by" in refused.value.message_dict
    ruling.refresh_from_db()
    assert ruling.score_check == "awaiting"
    assert not EffectiveScore.objects.filter(result=field.results[6]).exists()


def test_only_a_director_confirms(field, directors):
    ask_for_the_check(field)
    dana, _eve, sam = directors
    ruling = services.rule(result=field.results[6], director=dana, **ADJUST)
    with pytest.raises(PermissionDenied):
        services.confirm_score(ruling=ruling, by=sam)
    assert "confirm_score" not in steps.available(sam, ruling, "ruling")


def test_a_score_no_check_awaits_is_not_confirmed(field, directors):
    dana, eve, _sam = directors
    ruling = services.rule(result=field.results[6], director=dana, **ADJUST)
    with pytest.raises(ValidationError) as refused:
        services.confirm_score(ruling=ruling, by=eve)
    assert "state" in refused.value.message_dict


def test_a_ruling_that_leaves_the_score_alone_asks_no_check(field, directors):
    ask_for_the_check(field)
    ruling = services.rule(
        result=field.results[6],
        director=directors[0],
        kind="claim",
        laws="70D1",
        give=True,
        ruling_text="The claim stands",
        outcome="result_stands",
    )
    assert ruling.score_check == "not_asked"


def test_the_ruling_page_offers_the_check_to_another_director_only(field, directors, client):
    ask_for_the_check(field)
    dana, eve, _sam = directors
    ruling = services.rule(result=field.results[6], director=dana, **ADJUST)
    client.force_login(dana)
    page = client.get(f"/rulings/{ruling.pk}/").content.decode()
    assert "Awaiting a second director's check" in page and 'id="confirm-score"' not in page
    client.force_login(eve)
    page = client.get(f"/rulings/{ruling.pk}/").content.decode()
    assert 'id="confirm-score"' in page
    response = client.post(f"/rulings/{ruling.pk}/confirm-score/", follow=True)
    page = response.content.decode()
    assert "Adjusted score entered by Dana, confirmed by Eve at " in page


def test_the_check_s_table_moves_only_where_it_says():
    """Every (state, step) pair of rulings.lifecycle.SCORE_CHECK: asked once, confirmed once."""
    from types import SimpleNamespace

    from rulings.lifecycle import SCORE_CHECK
    from rulings.models import Ruling

    check = Ruling.ScoreCheck
    expected = {(check.NOT_ASKED, "ask_check"): check.AWAITING, (check.AWAITING, "confirm"): check.CONFIRMED}
    assert SCORE_CHECK.transitions() == expected
    for state in check.values:
        for step in SCORE_CHECK.steps:
            record = SimpleNamespace(score_check=state)
            if (state, step) in expected:
                assert SCORE_CHECK.move(record, step) == expected[(state, step)]
            else:
                with pytest.raises(ValidationError):
                    SCORE_CHECK.move(record, step)
                assert record.score_check == state


def test_the_rulings_list_marks_a_score_awaiting_its_check(field, directors, client):
    ask_for_the_check(field)
    dana, eve, _sam = directors
    ruling = services.rule(result=field.results[6], director=dana, **ADJUST)
    client.force_login(eve)
    assert '<span class="badge score-check">Awaiting a second director' in client.get("/rulings/").content.decode()
    services.confirm_score(ruling=ruling, by=eve)
    assert "badge score-check" not in client.get("/rulings/").content.decode()
