"""Concurrence (Law 92D): both members of a pair (an absent one deemed to agree only where the
regulations say so), a team's captain, nobody in an individual; without it a case is not heard."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from appeals import selectors, services
from appeals.models import AppealEvent
from core import policy
from scoring import services as scoring_services
from tests.appeals.conftest import SOON, committee, individual_event, lodge, team_event

pytestmark = pytest.mark.django_db


def test_a_pair_needs_both_members(case):
    appeal = lodge(case)
    assert selectors.concurrence_missing(appeal) == [str(case.south)]
    concurrence = services.record_concurrence(
        appeal=appeal, player=case.south, how="in_writing", by=case.director, now=SOON
    )
    assert (concurrence.player, concurrence.how, concurrence.recorded_by) == (case.south, "in_writing", case.director)
    assert selectors.concurrence_missing(appeal) == []
    assert (
        AppealEvent.objects.filter(appeal=appeal, action="concurrence").get().note == f"{case.south}: agreed in "
        "writing or by message"
    )


def test_without_concurrence_the_case_cannot_be_heard(case):
    appeal = lodge(case)
    committee(case, appeal)
    with pytest.raises(ValidationError) as error:
        services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON + datetime.timedelta(hours=1), now=SOON)
    assert error.value.message_dict["concurrence"][0] == (
        f"The appeal cannot go forward without concurrence (Law 92D): still needed from {case.south}."
    )


def test_an_absent_partner_is_deemed_to_agree_only_where_the_regulations_say_so(case):
    appeal = lodge(case)
    with pytest.raises(ValidationError) as error:
        services.record_concurrence(appeal=appeal, player=case.south, how="deemed", by=case.director, now=SOON)
    assert "do not deem an absent partner to agree" in error.value.message_dict["how"][0]
    scoring_services.set_authority_setting(
        authority=case.record.authority,
        key="absent_partner_deemed_to_agree",
        value=True,
        effective_from=datetime.date(2020, 1, 1),
        by=policy.SYSTEM,
    )
    concurrence = services.record_concurrence(
        appeal=appeal, player=case.south, how="deemed", by=case.director, now=SOON
    )
    assert concurrence.get_how_display() == "Absent, deemed to agree by regulation"
    assert selectors.concurrence_missing(appeal) == []


def test_concurrence_is_recorded_once_and_only_from_the_appellants(case):
    appeal = lodge(case)
    with pytest.raises(ValidationError) as error:
        services.record_concurrence(appeal=appeal, player=case.north, how="in_person", by=case.director, now=SOON)
    assert "already recorded (lodged the appeal)" in error.value.message_dict["player"][0]
    with pytest.raises(ValidationError) as error:
        services.record_concurrence(appeal=appeal, player=case.east, how="in_person", by=case.director, now=SOON)
    assert "not a member of" in error.value.message_dict["player"][0]
    with pytest.raises(ValidationError) as error:
        services.record_concurrence(appeal=appeal, player=case.south, how="nodded", by=case.director, now=SOON)
    assert "how" in error.value.message_dict


def test_a_team_needs_its_captain(case):
    teams = team_event(case.record, case.director)
    scoring_services.post_official_scores(session=teams.session, at=SOON, by=policy.SYSTEM)
    appeal = services.lodge_appeal(
        ruling=teams.ruling,
        by=case.director,
        player=teams.players[0],
        grounds="Declarer had not mentioned the trump",
        now=SOON,
    )
    assert selectors.concurrence_missing(appeal) == [str(teams.captain)]
    with pytest.raises(ValidationError) as error:
        services.record_concurrence(appeal=appeal, player=teams.players[1], how="in_person", by=case.director, now=SOON)
    assert error.value.message_dict["player"][0] == (
        f"In a team event the captain concurs (Law 92D): {teams.captain}, not {teams.players[1]}."
    )
    services.record_concurrence(appeal=appeal, player=teams.captain, how="in_person", by=case.director, now=SOON)
    assert selectors.concurrence_missing(appeal) == []


def test_a_captain_who_lodges_concurs_by_lodging(case):
    teams = team_event(case.record, case.director)
    appeal = services.lodge_appeal(
        ruling=teams.ruling,
        by=case.director,
        player=teams.captain,
        grounds="Declarer had not mentioned the trump",
        now=SOON,
    )
    assert appeal.appellant == teams.team1
    assert selectors.concurrence_missing(appeal) == []


def test_a_team_without_a_recorded_captain_cannot_concur(case):
    teams = team_event(case.record, case.director, captain_of_first=False)
    appeal = services.lodge_appeal(
        ruling=teams.ruling,
        by=case.director,
        player=teams.players[0],
        grounds="Declarer had not mentioned the trump",
        now=SOON,
    )
    assert selectors.concurrence_missing(appeal) == ["the team's captain (none is recorded for 1 Lions)"]


def test_an_individual_needs_nobody_else(case):
    single = individual_event(case.record, case.director)
    appeal = services.lodge_appeal(
        ruling=single.ruling,
        by=case.director,
        player=single.players[0],
        grounds="The revoke was not established",
        now=SOON,
    )
    assert (appeal.appellant, appeal.hear_at_once) == (single.entrants[0], True)
    assert selectors.concurrence_missing(appeal) == []
    with pytest.raises(ValidationError) as error:
        services.record_concurrence(
            appeal=appeal, player=single.players[0], how="in_person", by=case.director, now=SOON
        )
    assert "in an individual event nobody else concurs" in error.value.message_dict["player"][0]
