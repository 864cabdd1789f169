"""Penalties against a team in a match (Law 90, issue #17): the EBU's VPs, the EBL's "in IMPs or in
VPs", recorded by a service with an audit entry, taken off the match's VPs or IMP margin in the
standings, shown on the pages and in the API.

The match: Lions (home) and Tigers (away), two boards. Board 1: 4S= +420 for the Lions in the
open room, 4S-1 -50 for the Tigers' N-S in the closed room: 470 to the Lions, 10 IMPs. Board 2:
3NT= vulnerable at both tables, 0 IMPs. The Lions win by 10 IMPs over 2 boards: on the WBF 2013
20-VP scale (X = 15 sqrt 2, tau = (sqrt 5 - 1) / 2) 16.46 to 3.54.
"""

import datetime
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from audit.models import AuditEntry
from core import policy, roles
from scoring import recalculation, services
from scoring.models import Event, MatchPenalty, MatchScore, Standing
from tests.conftest import make_user


def build_match(kind=Event.Kind.TEAMS_ROUND_ROBIN, preset="", code="teams-body"):
    authority = services.create_authority_with_preset(
        name=f"Body {code}", code=code, preset=preset, time_zone="Europe/London", by=policy.SYSTEM
    )
    tournament = services.create_tournament(
        authority=authority,
        name="Teams cup",
        start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 2),
        by=policy.SYSTEM,
    )
    event = services.create_event(tournament=tournament, name="Teams", kind=kind, by=policy.SYSTEM)
    lions = services.enter_contestant(event=event, number=1, name="Lions", members=[], by=policy.SYSTEM)
    tigers = services.enter_contestant(event=event, number=2, name="Tigers", members=[], by=policy.SYSTEM)
    session = services.create_session(event=event, number=1, is_last=True, by=policy.SYSTEM)
    open_room, closed_room = services.add_tables(section=session.sections.get(), count=2, by=policy.SYSTEM)
    round_ = services.add_rounds(session=session, count=1, by=policy.SYSTEM)[0]
    match = services.create_match(
        round=round_, home=lions, away=tigers, open_room=open_room, closed_room=closed_room, by=policy.SYSTEM
    )
    one, two = (services.create_board(session=session, number=n, by=policy.SYSTEM) for n in (1, 2))
    for board, (open_tricks, closed_tricks), contract in ((one, (10, 9), "4S"), (two, (9, 9), "3NT")):
        services.record_result(
            board=board, round=round_, table=open_room, ns=lions, ew=tigers, contract=contract, declarer="N",
            tricks=open_tricks, by=policy.SYSTEM)  # fmt: skip
        services.record_result(
            board=board, round=round_, table=closed_room, ns=tigers, ew=lions, contract=contract, declarer="N",
            tricks=closed_tricks, by=policy.SYSTEM)  # fmt: skip
    recalculation.rescore_everything(event)
    return SimpleNamespace(event=event, match=match, lions=lions, tigers=tigers, boards=(one, two), session=session)


def recalculate(record):
    for board in record.boards:
        recalculation.recalculate_board(board.pk)


def score(record):
    ms = MatchScore.objects.get(match=record.match)
    totals = {s.contestant.name: s.total for s in Standing.objects.filter(event=record.event, session=None)}
    return ms, totals


@pytest.fixture
def director(db):
    """Who gives the penalties of the tests that build their own match: the superuser (the match
    pages' tests appoint their director)."""
    return make_user("td", is_superuser=True)


def official(record, username, role):
    user = make_user(username)
    services.appoint_official(tournament=record.event.tournament, user=user, role=role, by=policy.SYSTEM)
    return user


@pytest.mark.django_db
def test_without_penalties_the_lions_win_16_46_to_3_54():
    record = build_match()
    ms, totals = score(record)
    assert (ms.home_imps, ms.away_imps, ms.home_vp, ms.away_vp) == (10, -10, Decimal("16.46"), Decimal("3.54"))
    assert totals == {"Lions": Decimal("16.46"), "Tigers": Decimal("3.54")}


@pytest.mark.django_db
def test_a_vp_penalty_comes_off_the_teams_vps_only(director):
    record = build_match()
    penalty = services.add_match_penalty(
        match=record.match, team=record.lions, amount="1", unit="vps", offence="slow play", by=director
    )
    recalculate(record)
    ms, totals = score(record)
    assert (ms.home_vp, ms.away_vp, ms.home_vp_penalty, ms.away_vp_penalty) == (
        Decimal("15.46"),
        Decimal("3.54"),
        1,
        0,
    )
    assert (ms.home_imps, ms.away_imps) == (10, -10)  # the boards' IMPs as played
    assert totals == {"Lions": Decimal("15.46"), "Tigers": Decimal("3.54")}
    entry = AuditEntry.objects.get(action="match.penalty_added")
    assert (entry.actor, entry.object_id, entry.after) == (
        director,
        str(record.match.pk),
        {
            "penalty": penalty.pk,
            "team": record.lions.pk,
            "amount": "1",
            "unit": "vps",
            "offence": "slow play",
        },
    )


@pytest.mark.django_db
def test_an_imp_penalty_comes_off_the_teams_margin_before_the_conversion(director):
    record = build_match()
    services.add_match_penalty(
        match=record.match, team=record.tigers, amount="3", unit="imps", offence="late arrival", by=director
    )
    recalculate(record)
    ms, totals = score(record)
    # The Tigers lose by 13 now (3.54 -> 2.31); the Lions' own margin is still +10.
    assert (ms.home_vp, ms.away_vp, ms.away_imp_penalty) == (Decimal("16.46"), Decimal("2.31"), 3)
    assert totals == {"Lions": Decimal("16.46"), "Tigers": Decimal("2.31")}


@pytest.mark.django_db
def test_penalties_add_up_and_a_withdrawn_one_counts_no_more(director):
    record = build_match()
    first = services.add_match_penalty(
        match=record.match, team=record.lions, amount="1", unit="vps", offence="slow play", by=director
    )
    services.add_match_penalty(
        match=record.match, team=record.lions, amount="0.5", unit="vps", offence="mobile phone", by=director
    )
    services.add_match_penalty(
        match=record.match, team=record.lions, amount="3", unit="imps", offence="late arrival", by=director
    )
    recalculate(record)
    ms, _totals = score(record)
    # +7 over 2 boards is 14.96, less 1.5 VPs.
    assert (ms.home_vp, ms.home_vp_penalty, ms.home_imp_penalty) == (Decimal("13.46"), Decimal("1.5"), 3)
    services.withdraw_match_penalty(penalty=first, reason="the clock was wrong", by=director)
    recalculate(record)
    ms, totals = score(record)
    assert (ms.home_vp, ms.home_vp_penalty) == (Decimal("14.46"), Decimal("0.5"))
    assert totals["Lions"] == Decimal("14.46")
    first.refresh_from_db()
    assert (first.withdrawal_reason, first.withdrawn_by) == ("the clock was wrong", director)
    assert AuditEntry.objects.get(action="match.penalty_withdrawn").after == {"reason": "the clock was wrong"}
    with pytest.raises(ValidationError) as error:
        services.withdraw_match_penalty(penalty=first, reason="again", by=director)
    assert error.value.message_dict == {"penalty": ["This penalty was already withdrawn."]}


@pytest.mark.django_db
def test_the_ebu_takes_vps_and_refuses_imps(director):
    record = build_match(preset="ebu", code="ebu")
    with pytest.raises(ValidationError) as error:
        services.add_match_penalty(
            match=record.match, team=record.lions, amount="3", unit="imps", offence="x", by=director
        )
    assert error.value.message_dict == {"unit": ["Body ebu gives a team's penalties in a match in VPs, not in IMPs."]}
    services.add_match_penalty(
        match=record.match, team=record.lions, amount="1", unit="vps", offence="slow play", by=director
    )
    recalculate(record)
    # +10 over 2 boards is 16 on the WBF discrete scale the EBU has used since 2013 (16.46 on the
    # continuous one), less the 1 VP.
    assert score(record)[0].home_vp == Decimal("15.00")


@pytest.mark.django_db
@pytest.mark.parametrize("unit,home_vp", [("vps", Decimal("14.46")), ("imps", Decimal("14.96"))])
def test_the_ebl_takes_either_as_the_director_chooses(unit, home_vp, director):
    record = build_match(preset="ebl", code="ebl")
    amount = "2" if unit == "vps" else "3"
    services.add_match_penalty(
        match=record.match, team=record.lions, amount=amount, unit=unit, offence="x", by=director
    )
    recalculate(record)
    assert score(record)[0].home_vp == home_vp


@pytest.mark.django_db
def test_a_knockout_match_takes_imps_only_even_where_the_body_says_vps(director):
    record = build_match(kind=Event.Kind.KNOCKOUT_TEAMS, preset="ebu", code="ebu")
    with pytest.raises(ValidationError) as error:
        services.add_match_penalty(
            match=record.match, team=record.lions, amount="1", unit="vps", offence="x", by=director
        )
    assert error.value.message_dict == {"unit": ["A knockout match is decided on IMPs: give the penalty in IMPs."]}
    services.add_match_penalty(match=record.match, team=record.lions, amount="6", unit="imps", offence="x", by=director)
    recalculate(record)
    ms = score(record)[0]
    assert (ms.home_imps, ms.home_imp_penalty) == (10, 6)  # 10 IMPs won at the table, 6 taken off


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change,field,message",
    [
        ({"amount": "0"}, "amount", "'0' is not a penalty: a number above 0, with at most two decimals."),
        ({"amount": "-1"}, "amount", "'-1' is not a penalty: a number above 0, with at most two decimals."),
        ({"amount": "one"}, "amount", "'one' is not a penalty: a number above 0, with at most two decimals."),
        ({"amount": "0.125"}, "amount", "'0.125' is not a penalty: a number above 0, with at most two decimals."),
        ({"unit": "mp"}, "unit", "'mp' is not a unit: VPs or IMPs."),
        ({"offence": "  "}, "offence", "Say what the penalty is for: the team will ask."),
    ],
)
def test_a_bad_penalty_is_refused_naming_the_field_and_nothing_is_written(change, field, message, director):
    record = build_match()
    arguments = {
        "match": record.match,
        "team": record.lions,
        "amount": "1",
        "unit": "vps",
        "offence": "slow play",
        "by": director,
    }
    with pytest.raises(ValidationError) as error:
        services.add_match_penalty(**{**arguments, **change})
    assert error.value.message_dict == {field: [message]}
    assert not MatchPenalty.objects.exists()
    assert not AuditEntry.objects.filter(action="match.penalty_added").exists()


@pytest.mark.django_db
def test_a_team_of_another_match_is_refused(director):
    record = build_match()
    other = services.enter_contestant(event=record.event, number=3, name="Bears", members=[], by=policy.SYSTEM)
    with pytest.raises(ValidationError) as error:
        services.add_match_penalty(match=record.match, team=other, amount="1", unit="vps", offence="x", by=director)
    assert error.value.message_dict == {"team": ["3 Bears does not play in the match 1 Lions - 2 Tigers."]}


# --- The pages -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_director_gives_a_penalty_on_the_match_page_and_the_standings_show_it(client):
    record = build_match()
    director = official(record, "td", roles.DIRECTOR)
    client.force_login(director)
    url = reverse("scoring:match", args=[record.match.pk])
    page = client.get(url).content.decode()
    assert "Give a penalty" in page and "No penalty in this match." in page
    response = client.post(
        url,
        {
            "action": "add",
            "team": record.lions.pk,
            "amount": "1",
            "unit": "vps",
            "offence": "slow play",
        },
    )
    assert response.status_code == 302 and response.url == url
    recalculate(record)
    page = client.get(url).content.decode()
    assert '1 Lions</strong>: <span dir="ltr">−1</span> VPs · slow play' in page
    assert "given by td" in page
    assert '<tr><th>VPs</th><td class="num" dir="ltr">15.46</td><td class="num" dir="ltr">3.54</td></tr>' in page
    standings = client.get(reverse("scoring:standings", args=[record.event.pk])).content.decode()
    assert '<span>1 Lions: <span dir="ltr">−1</span> VPs</span>' in standings
    assert "15.46 – 3.54" in standings


@pytest.mark.django_db
def test_the_match_page_says_why_a_penalty_is_refused_and_records_nothing(client):
    record = build_match(preset="ebu", code="ebu")
    client.force_login(official(record, "td", roles.CHIEF_DIRECTOR))
    url = reverse("scoring:match", args=[record.match.pk])
    page = client.get(url).content.decode()
    assert '<option value="vps">VPs</option>' in page and '<option value="imps">' not in page  # the EBU: VPs
    response = client.post(
        url, {"action": "add", "team": record.tigers.pk, "amount": "1", "unit": "imps", "offence": "x"}
    )
    assert response.status_code == 200
    assert (
        "<li>Body ebu gives a team&#x27;s penalties in a match in VPs, not in IMPs.</li>" in response.content.decode()
    )
    assert not MatchPenalty.objects.exists()


@pytest.mark.django_db
def test_a_director_withdraws_a_penalty_on_the_match_page(client):
    record = build_match()
    director = official(record, "td", roles.DIRECTOR)
    penalty = services.add_match_penalty(
        match=record.match, team=record.lions, amount="1", unit="vps", offence="slow play", by=director
    )
    client.force_login(director)
    url = reverse("scoring:match", args=[record.match.pk])
    client.post(url, {"action": "withdraw", "penalty": penalty.pk, "reason": "the clock was wrong"})
    recalculate(record)
    penalty.refresh_from_db()
    assert penalty.withdrawal_reason == "the clock was wrong"
    page = client.get(url).content.decode()
    assert "withdrawn: the clock was wrong" in page
    assert '<td class="num" dir="ltr">16.46</td>' in page


@pytest.mark.django_db
def test_a_scorer_reads_the_match_page_but_gives_no_penalty(client):
    record = build_match()
    client.force_login(official(record, "scorer", roles.SCORER))
    url = reverse("scoring:match", args=[record.match.pk])
    assert "Give a penalty" not in client.get(url).content.decode()
    response = client.post(
        url, {"action": "add", "team": record.lions.pk, "amount": "1", "unit": "vps", "offence": "x"}
    )
    assert response.status_code == 403
    assert not MatchPenalty.objects.exists()
    client.force_login(make_user("stranger"))
    assert client.get(url).status_code == 404


# --- The API ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_api_gives_withdraws_and_shows_a_penalty():
    record = build_match(preset="ebl", code="ebl")
    api = APIClient()
    api.force_authenticate(official(record, "td", roles.DIRECTOR))
    response = api.post(
        "/api/v1/match-penalties/",
        {"match": record.match.pk, "team": record.tigers.pk, "amount": "3", "unit": "imps", "offence": "late"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    created = response.json()
    assert (created["team"], created["amount"], created["unit"], created["given_by"]) == (
        record.tigers.pk,
        "3",
        "imps",
        "td",
    )
    recalculate(record)
    matches = api.get(f"/api/v1/events/{record.event.pk}/matches/").json()
    assert [(m["home_vp"], m["away_vp"], m["away_imp_penalty"]) for m in matches] == [("16.46", "2.31", "3.00")]
    listed = api.get(f"/api/v1/match-penalties/?match={record.match.pk}").json()
    assert [p["id"] for p in listed["results"]] == [created["id"]]
    response = api.post(f"/api/v1/match-penalties/{created['id']}/withdraw/", {"reason": "wrong team"}, format="json")
    assert (response.status_code, response.json()["withdrawal_reason"]) == (200, "wrong team")


@pytest.mark.django_db
def test_the_api_refuses_a_penalty_naming_the_field():
    record = build_match(preset="ebu", code="ebu")
    api = APIClient()
    api.force_authenticate(official(record, "td", roles.DIRECTOR))
    body = {"match": record.match.pk, "team": record.lions.pk, "amount": "3", "unit": "imps", "offence": "late"}
    response = api.post("/api/v1/match-penalties/", body, format="json")
    assert response.status_code == 409
    assert response.json()["unit"] == ["Body ebu gives a team's penalties in a match in VPs, not in IMPs."]
    api.force_authenticate(official(record, "scorer", roles.SCORER))
    response = api.post("/api/v1/match-penalties/", {**body, "unit": "vps"}, format="json")
    assert response.status_code == 403
    assert not MatchPenalty.objects.exists()


@pytest.mark.django_db
def test_a_without_merit_penalty_in_vps_is_only_for_events_scored_in_vps():
    authority = services.create_authority(name="Plain", code="plain", by=policy.SYSTEM)
    day = datetime.date(2026, 1, 1)
    services.set_authority_setting(
        authority=authority,
        key="without_merit_penalty",
        value={"teams_swiss": "1 VP"},
        effective_from=day,
        by=policy.SYSTEM,
    )
    with pytest.raises(ValidationError) as error:
        services.set_authority_setting(
            authority=authority,
            key="without_merit_penalty",
            value={"ko_teams": "1 VP"},
            effective_from=day,
            by=policy.SYSTEM,
        )
    assert error.value.message_dict == {
        "value": [
            "Score penalty for an appeal without merit, by kind of event: 'ko_teams' is not scored in VPs: give "
            "its penalty in its own units"
        ]
    }
    assert authority.settings_on(day)["without_merit_penalty"] == {"teams_swiss": "1 VP"}
