"""The committee's room (issue #44): while a body decides, its members read the case without its
effect on the match and the standings; the director and the scorer see it; once the body has
decided, the effect as it stood is recorded on the case and every reader sees it."""

import pytest

from appeals import services, stake
from core import policy, roles
from scoring import recalculation
from scoring import services as scoring_services
from tests.appeals.conftest import ready, regulate, shown, team_event, vote_all
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def effect_of(page):
    start = page.index('id="effect"')
    return page[start : page.index("</section>", start)]


def scored(case):
    """The standings recalculated with the ruling's score in them (the worker's job)."""
    recalculation.recalculate_board(case.record.boards[0].pk)


def decide(case, appeal, body):
    vote_all(body, "vary")
    return services.decide_appeal(
        appeal=appeal,
        by=case.members[0],
        outcome="vary",
        reasons="Bidding on was not suggested.",
        score_kind="assigned",
        ns={"contract": "4S", "declarer": "N", "tricks": 10},
    )


def test_a_member_reads_the_open_case_without_the_effect(case, client):
    scored(case)
    appeal, _body, _hearing = ready(case)
    client.force_login(case.members[0])
    effect = effect_of(shown(client.get(f"/appeals/{appeal.pk}/")))
    assert 'id="effect-kept"' in effect
    assert "In the session" not in effect and str(case.ns) not in effect


def test_the_director_and_the_scorer_see_the_effect_of_the_open_case(case, client):
    scored(case)
    appeal, _body, _hearing = ready(case)
    scorer = make_user("sam")
    scoring_services.appoint_official(
        tournament=case.record.tournament, user=scorer, role=roles.SCORER, by=policy.SYSTEM
    )
    for reader in (case.director, scorer):
        client.force_login(reader)
        effect = effect_of(shown(client.get(f"/appeals/{appeal.pk}/")))
        assert 'id="effect-kept"' not in effect
        assert str(case.ns) in effect and str(case.ew) in effect
        assert "In the session: " in effect and " of 7" in effect  # a Howell of 7 pairs each way
        assert "Board 1: " in effect  # the ruling's change at the table
        assert "Not shown to the members of the body while they decide." in effect


def test_a_superuser_on_the_body_is_held_to_the_room(case, client):
    """The superuser passes the policy, but not a seat on the body still deciding."""
    scored(case)
    appeal, body, _hearing = ready(case)
    member = body.members.get(user=case.members[0])
    member.user.is_superuser = True
    member.user.save(update_fields=["is_superuser"])
    assert stake.kept_from(member.user, appeal)
    assert not stake.kept_from(make_user("root", is_superuser=True), appeal)


def test_a_player_at_the_table_sees_it_once_decided_not_before(case):
    appeal, body, _hearing = ready(case)
    north = case.north
    north.user = make_user("north")
    north.save(update_fields=["user"])
    assert stake.kept_from(north.user, appeal)
    decide(case, appeal, body)
    appeal.refresh_from_db()
    assert not stake.kept_from(north.user, appeal)


def test_the_decision_records_the_effect_as_it_stood_and_every_reader_then_sees_it(case, client):
    scored(case)
    appeal, body, _hearing = ready(case)
    standing = case.ns.standings.get(session=case.record.session)
    appeal = decide(case, appeal, body)
    appeal.refresh_from_db()
    record = appeal.effect_at_decision
    ns = next(side for side in record["sides"] if side["direction"] == "NS")
    assert ns["contestant"] == case.ns.pk
    assert ns["session"]["place"] == standing.place and ns["session"]["of"] == 7
    assert record["at"] == appeal.decided_at.isoformat()
    scored(case)  # the decision's score reaches the standings
    client.force_login(case.members[0])
    effect = effect_of(shown(client.get(f"/appeals/{appeal.pk}/")))
    assert 'id="effect-kept"' not in effect
    assert 'id="effect-recorded"' in effect and 'id="effect-now"' in effect
    assert "As it stood when the body decided, at " in effect
    assert "Not shown to the members" not in effect


def test_the_regulating_authority_s_body_decides_a_further_appeal_without_it(case):
    scored(case)
    appeal, body, _hearing = ready(case)
    regulate(case, "further_appeal", "binding")
    decide(case, appeal, body)
    services.lodge_further_appeal(appeal=appeal, by=case.director, player=case.north, grounds="16B1a misread.")
    national = make_user("nadia")
    scoring_services.appoint_auditor(authority=case.record.authority, user=national, by=policy.SYSTEM)
    assert not stake.kept_from(national, appeal)  # an auditor reads the decided case in full
    services.constitute_body(appeal=appeal, by=national, stage="further", size=1, members=[national])
    appeal.refresh_from_db()
    assert stake.kept_from(national, appeal)
    assert not stake.kept_from(case.director, appeal)


def test_a_team_match_is_part_of_the_stake(case):
    teams = team_event(case.record, case.director)
    recalculation.recalculate_board(teams.session.boards.get().pk)
    appeal = services.lodge_appeal(
        ruling=teams.ruling, by=case.director, player=teams.players[0], grounds="The claim was clear."
    )
    found = stake.stake(appeal)
    assert found.match is not None
    assert (found.match.match.home, found.match.match.away) == (teams.team1, teams.team2)
    assert found.match.home_imps  # the open room's 4S= against the closed room's 4S-1
    assert [side.direction for side in found.sides] == ["NS", "EW"]
