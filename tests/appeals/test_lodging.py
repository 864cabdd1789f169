"""Lodging (Law 92A-C): who may appeal, the deadline in the tournament's time zone, the chief
director's extension, the clock before the official score, one appeal per side, referrals."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from appeals import selectors, services
from appeals.models import Appeal, AppealEvent, Concurrence, Filing
from core import policy
from rulings import services as rulings_services
from rulings.models import Ruling
from scoring import services as scoring_services
from tests.appeals.conftest import DEADLINE, POSTED, SESSION_2, SOON, at, lodge
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def test_lodging_puts_the_ruling_under_appeal_and_logs_who_and_when(case):
    appeal = lodge(case)
    assert (appeal.number, appeal.origin, appeal.side, appeal.appellant) == (1, "player", "NS", case.ns)
    assert (appeal.lodged_by, appeal.recorded_by, appeal.lodged_at) == (case.north, case.director, SOON)
    assert appeal.deadline == DEADLINE
    assert appeal.state == Appeal.State.LODGED
    assert list(appeal.parts.values_list("kind", flat=True)) == ["judgement"]
    case.ruling.refresh_from_db()
    assert case.ruling.state == Ruling.State.UNDER_APPEAL
    event = AppealEvent.objects.get(appeal=appeal)
    assert (event.action, event.by, event.at, event.to_state) == ("lodged", case.director, SOON, "lodged")
    # The lodging player's own agreement is recorded.
    assert Concurrence.objects.get(appeal=appeal).how == "lodged"


def test_the_last_second_of_the_period_is_in_time(case):
    assert lodge(case, now=DEADLINE).deadline == DEADLINE


def test_a_second_late_is_received_numbered_and_left_to_the_body(case):
    """Issue #44: the desk never turns an appeal away. Lodged a second after the period, it is
    received and numbered like any other; the acknowledgement says when the period ended, in
    the tournament's time zone, and that the body decides whether it is valid."""
    appeal = lodge(case, now=DEADLINE + datetime.timedelta(seconds=1))
    assert (appeal.number, appeal.state, appeal.deadline) == (1, "lodged", DEADLINE)
    filing = Filing.objects.get(appeal=appeal)
    assert (filing.number, filing.kind, filing.validity) == (1, "appeal", "pending")
    assert (filing.received_by, filing.received_at) == (case.director, DEADLINE + datetime.timedelta(seconds=1))
    acknowledgement = filing.acknowledgement("en")
    assert "ended at 21:30 on 1 May 2026 BST (Europe/London)" in acknowledgement
    assert "the appeals body decides whether it is valid" in acknowledgement
    assert "the body decides whether it is valid" in AppealEvent.objects.get(appeal=appeal).note
    case.ruling.refresh_from_db()
    assert case.ruling.state == Ruling.State.UNDER_APPEAL


def test_the_tournaments_own_time_zone_wins_over_the_authoritys(case):
    tournament = case.record.tournament
    tournament.time_zone = "Europe/Athens"
    tournament.save()
    filing = Filing.objects.get(appeal=lodge(case, now=at(31)))
    assert "23:30 on 1 May 2026 EEST (Europe/Athens)" in filing.acknowledgement("en")


def test_the_authoritys_appeal_period_applies(case):
    scoring_services.set_authority_setting(
        authority=case.record.authority,
        key="appeal_period_minutes",
        value=60,
        effective_from=datetime.date(2020, 1, 1),
        by=policy.SYSTEM,
    )
    assert lodge(case, now=at(45)).deadline == at(60)


def test_before_the_official_score_the_clock_has_not_started(case):
    case.record.session.score_postings.all().delete()
    appeal = lodge(case, now=at(600))
    assert appeal.deadline is None
    assert "had not started" in AppealEvent.objects.get(appeal=appeal).note


def test_the_chief_director_may_extend_the_period_with_a_reason(case):
    extension = services.extend_deadline(
        ruling=case.ruling, by=case.chief, until=at(90), reason="The scores were posted in the wrong room", now=at(40)
    )
    appeal = lodge(case, now=at(80))
    assert (appeal.deadline, appeal.extension) == (DEADLINE, extension)
    assert "wrong room" in AppealEvent.objects.get(appeal=appeal).note
    late = lodge(case, player=case.east, now=at(91))  # after the extension too: received, for the body
    assert late.filings.get().validity == "pending"
    assert "ended at 22:30" in late.filings.get().acknowledgement("en")  # the extension's end


@pytest.mark.parametrize(
    "who,until,reason,name,words",
    [
        ("director", 90, "late posting", "by", "Only the director in charge"),
        ("chief", 90, "  ", "reason", "Say why"),
        ("chief", 20, "late posting", "until", "already runs until 21:30"),
    ],
)
def test_extensions_are_refused_when_they_cannot_be_right(case, who, until, reason, name, words):
    # The person is refused as not allowed (PermissionDenied); a bad input names its field.
    with pytest.raises(PermissionDenied if name == "by" else ValidationError) as error:
        services.extend_deadline(ruling=case.ruling, by=getattr(case, who), until=at(until), reason=reason, now=at(40))
    assert words in (str(error.value) if name == "by" else error.value.message_dict[name][0])


def test_an_extension_needs_a_running_clock_and_an_aware_time(case):
    with pytest.raises(ValidationError) as error:
        services.extend_deadline(
            ruling=case.ruling,
            by=case.chief,
            until=datetime.datetime(2026, 5, 1, 23, 0),
            reason="late posting",
            now=at(40),
        )
    assert "time zone" in error.value.message_dict["until"][0]
    case.record.session.score_postings.all().delete()
    with pytest.raises(ValidationError) as error:
        services.extend_deadline(ruling=case.ruling, by=case.chief, until=at(90), reason="late posting", now=at(40))
    assert "not started" in error.value.message_dict["until"][0]


def test_the_same_side_cannot_appeal_the_same_ruling_twice(case):
    first = lodge(case)
    with pytest.raises(ValidationError) as error:
        lodge(case, player=case.south, now=at(20))
    assert error.value.message_dict["side"][0] == (
        f"N-S has already appealed Ruling 1 (appeal {first.number}, lodged at 21:10 on 1 May 2026 BST (Europe/London))."
    )


def test_both_sides_may_appeal_the_same_ruling(case):
    lodge(case)
    other = lodge(case, player=case.east, now=at(20))
    assert (other.number, other.side, other.appellant) == (2, "EW", case.ew)


def test_only_a_contestant_at_the_table_or_its_captain_may_appeal(case):
    stranger = case.record.pairs[0].members.first()
    with pytest.raises(ValidationError) as error:
        lodge(case, player=stranger)
    assert "did not play at this table" in error.value.message_dict["player"][0]
    with pytest.raises(ValidationError) as error:
        services.lodge_appeal(ruling=case.ruling, by=case.director, grounds="No", now=SOON)
    assert "which player" in error.value.message_dict["player"][0]


def test_an_appeal_is_lodged_through_a_director_of_the_tournament(case):
    outsider = make_user("outsider")
    with pytest.raises(PermissionDenied) as error:
        services.lodge_appeal(ruling=case.ruling, by=outsider, player=case.north, grounds="No", now=SOON)
    assert "Law 92C" in str(error.value)


def test_grounds_and_parts_are_checked(case):
    with pytest.raises(ValidationError) as error:
        lodge(case, grounds=" ")
    assert "grounds" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        lodge(case, parts=[{"kind": "facts", "question": "x"}])
    assert "not a kind of part" in error.value.message_dict["parts[1]"][0]
    appeal = lodge(
        case,
        parts=[
            {"kind": "law", "question": "Does 16B apply at all?"},
            {"kind": "judgement", "question": "Was pass a logical alternative?"},
        ],
    )
    assert list(appeal.parts.values_list("kind", flat=True)) == ["law", "judgement"]


def test_a_draft_ruling_cannot_be_appealed(case):
    draft = rulings_services.rule(
        result=case.record.results[0],
        director=case.director,
        kind="claim",
        laws="70D1",
        ruling_text="Claim stands",
        outcome="result_stands",
        called_at=SOON,  # asked for within the Law 92B period
    )
    with pytest.raises(ValidationError) as error:
        services.lodge_appeal(
            ruling=draft, by=case.director, player=case.record.pairs[0].members.first(), grounds="No", now=SOON
        )
    assert "not been given" in error.value.message_dict["ruling"][0]


def test_a_ruling_already_changed_on_appeal_goes_further_not_again(case):
    Ruling.objects.filter(pk=case.ruling.pk).update(state=Ruling.State.CHANGED_BY_APPEAL)
    with pytest.raises(ValidationError) as error:
        lodge(case)
    assert "Law 93C" in error.value.message_dict["ruling"][0]


def test_a_case_from_an_earlier_session_must_be_decided_before_the_next_one(case):
    appeal = lodge(case)
    assert (appeal.decide_by, appeal.hear_at_once) == (SESSION_2, False)


def test_a_case_from_the_last_session_is_heard_at_once(case):
    case.record.session.is_last = True
    case.record.session.save()
    appeal = lodge(case)
    assert (appeal.decide_by, appeal.hear_at_once) == (None, True)


def test_the_director_may_refer_a_ruling_himself(case):
    appeal = services.lodge_appeal(
        ruling=case.ruling,
        by=case.director,
        origin="director",
        grounds="A judgement call the committee should review (Law 83)",
        now=at(500),
    )
    assert (appeal.origin, appeal.side, appeal.appellant, appeal.lodged_by) == ("director", "", None, None)
    case.ruling.refresh_from_db()
    assert (case.ruling.state, case.ruling.appeal_notice) == ("under_appeal", "referred")
    assert selectors.concurrence_missing(appeal) == []
    assert AppealEvent.objects.get(appeal=appeal).action == "referred"
    with pytest.raises(ValidationError) as error:
        services.lodge_appeal(ruling=case.ruling, by=case.director, origin="director", grounds="again", now=at(501))
    assert "already referred" in error.value.message_dict["origin"][0]


def test_the_database_refuses_a_second_appeal_by_one_side(case):
    from django.db import IntegrityError, transaction

    appeal = lodge(case)
    with pytest.raises(IntegrityError), transaction.atomic():
        Appeal.objects.create(
            ruling=case.ruling,
            number=9,
            side="NS",
            appellant=case.ns,
            recorded_by=case.director,
            lodged_at=POSTED,
            grounds="again",
        )
    assert Appeal.objects.get() == appeal


def test_a_ruling_under_appeal_is_not_finalised_and_a_withdrawn_one_is(case):
    appeal = lodge(case)
    assert rulings_services.finalise_rulings(by=policy.SYSTEM, now=at(600)) == 0
    services.request_withdrawal(appeal=appeal, player=case.north, by=case.director, now=at(20))
    services.accept_withdrawal(appeal=appeal, by=case.chief, now=at(20))
    assert rulings_services.finalise_rulings(by=policy.SYSTEM, now=at(600)) == 1
    case.ruling.refresh_from_db()
    assert case.ruling.state == Ruling.State.FINAL
