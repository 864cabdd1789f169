"""A given ruling at table X of the ``field`` fixture, the people who take part in its appeal,
and small builders for a team event and an individual event.

Times are explicit: the tournament is in Europe/London (BST, UTC+1, in May 2026); session 1's
official score is posted at 21:00 local, so the 30-minute appeal period ends at 21:30 local.
"""

import datetime
from types import SimpleNamespace

import pytest

from appeals import services
from core import policy, roles
from rulings import services as rulings_services
from scoring import services as scoring_services
from scoring.models import Event
from tests.conftest import make_user, ruling_at
from tests.snapshot import built_once

UTC = datetime.UTC
POSTED = datetime.datetime(2026, 5, 1, 20, 0, tzinfo=UTC)  # 21:00 in London
DEADLINE = POSTED + datetime.timedelta(minutes=30)  # 21:30 in London
SESSION_2 = datetime.datetime(2026, 5, 2, 9, 0, tzinfo=UTC)  # 10:00 in London
SOON = POSTED + datetime.timedelta(minutes=10)


def at(minutes):
    """A moment ``minutes`` after the official score was posted."""
    return POSTED + datetime.timedelta(minutes=minutes)


@pytest.fixture
def case(field):
    """Table X (pair 7 N-S against pair 14 E-W): 4S N = +420 adjusted by ruling 1 to 3S N +1,
    +170, N-S offending. Session 1's official score is posted; session 2 starts next morning.
    Built through the services once per process and restored in later tests (tests/snapshot.py)."""
    return built_once("case", lambda: build_case(field), base=field)


def build_case(field):
    director = make_user("dana", first_name="Dana", last_name="Director")
    chief = make_user("chris", first_name="Chris", last_name="Chief")
    scoring_services.appoint_official(tournament=field.tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    scoring_services.appoint_official(
        tournament=field.tournament, user=chief, role=roles.CHIEF_DIRECTOR, by=policy.SYSTEM
    )
    members = [make_user(name, first_name=name.title()) for name in ("ann", "ben", "cat", "dan")]
    for user in members:
        scoring_services.appoint_official(
            tournament=field.tournament, user=user, role=roles.APPEALS_MEMBER, by=policy.SYSTEM
        )
    scoring_services.create_session(event=field.event, number=2, starts_at=SESSION_2, is_last=True, by=policy.SYSTEM)
    ruling = rulings_services.rule(
        result=field.results[6],
        director=director,
        kind="ui",
        laws="16B1a, 12C1e",
        give=True,
        ruling_text="Score adjusted to 3S+1 by North",
        reasoning="Pass was a logical alternative to 4S",
        outcome="adjusted",
        score_kind="assigned",
        ns={"contract": "3S", "declarer": "N", "tricks": 10},
        offending_side="NS",
    )
    scoring_services.post_official_scores(session=field.session, at=POSTED, by=policy.SYSTEM)
    ns, ew = field.pairs[6], field.pairs[13]
    return SimpleNamespace(
        record=field,
        ruling=ruling,
        director=director,
        chief=chief,
        members=members,
        ns=ns,
        ew=ew,
        north=ns.members.order_by("pk")[0],
        south=ns.members.order_by("pk")[1],
        east=ew.members.order_by("pk")[0],
        west=ew.members.order_by("pk")[1],
    )


def lodge(case, player=None, now=SOON, **extra):
    extra.setdefault("grounds", "The hesitation was not clear; pass is not a logical alternative.")
    return services.lodge_appeal(ruling=case.ruling, by=case.director, player=player or case.north, now=now, **extra)


def committee(case, appeal, members=None, now=SOON):
    """A committee of three, each declared free of conflicts: the case is constituted."""
    members = members or case.members[:3]
    body = services.constitute_body(
        appeal=appeal, by=case.chief, kind="committee", members=members, chair=members[0], now=now
    )
    for member in body.members.all():
        services.declare_conflict(member=member, now=now, by=member.user)
    return body


def ready(case, now=SOON, player=None, **lodge_extra):
    """An appeal (N-S unless ``player`` is East) with the partner's concurrence, a constituted
    committee and a hearing that starts at ``now`` (the members vote and decide from then on)."""
    appeal = lodge(case, player=player, now=now, **lodge_extra)
    partner = case.west if player == case.east else case.south
    services.record_concurrence(appeal=appeal, player=partner, how="in_person", by=case.director, now=now)
    body = committee(case, appeal, now=now)
    hearing = services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=now, place="Room 2", now=now)
    return appeal, body, hearing


def vote_all(body, outcome, now=SOON):
    for member in body.sitting():
        services.record_vote(member=member, outcome=outcome, now=now, by=member.user)


def team_event(record, director, captain_of_first=True):
    """A round-robin teams event in ``record``'s tournament: teams 1 and 2 meet on board 1 in
    the open room (team 1 N-S) and the closed room (team 2 N-S). Team 1 has a non-playing
    captain when ``captain_of_first``."""
    authority, tournament = record.authority, record.tournament
    event = scoring_services.create_event(
        tournament=tournament, name="Teams", kind=Event.Kind.TEAMS_ROUND_ROBIN, by=policy.SYSTEM
    )
    session = scoring_services.create_session(event=event, number=1, by=policy.SYSTEM)
    open_room, closed_room = scoring_services.add_tables(section=session.sections.get(), count=2, by=policy.SYSTEM)
    round_ = scoring_services.add_rounds(session=session, count=1, by=policy.SYSTEM)[0]
    players = [
        scoring_services.register_player(
            authority=authority,
            first_name=f"T{i}",
            last_name=f"Teamer{i}",
            membership_number=f"team-{i}",
            by=policy.SYSTEM,
        )
        for i in range(1, 10)
    ]
    captain = players[8] if captain_of_first else None
    team1 = scoring_services.enter_contestant(
        event=event, number=1, name="Lions", members=players[0:4], captain=captain, by=policy.SYSTEM
    )
    team2 = scoring_services.enter_contestant(
        event=event, number=2, name="Tigers", members=players[4:8], by=policy.SYSTEM
    )
    board = scoring_services.create_board(session=session, number=1, by=policy.SYSTEM)
    open_result = scoring_services.record_result(
        board=board,
        round=round_,
        table=open_room,
        ns=team1,
        ew=team2,
        contract="4S",
        declarer="N",
        tricks=10,
        by=policy.SYSTEM,
    )
    scoring_services.record_result(
        board=board,
        round=round_,
        table=closed_room,
        ns=team2,
        ew=team1,
        contract="4S",
        declarer="N",
        tricks=9,
        by=policy.SYSTEM,
    )
    scoring_services.create_match(
        round=round_, home=team1, away=team2, open_room=open_room, closed_room=closed_room, by=policy.SYSTEM
    )
    ruling = ruling_at(open_result, director, reasoning="No irrational line loses a trick")
    return SimpleNamespace(
        event=event, session=session, team1=team1, team2=team2, players=players, captain=captain, ruling=ruling
    )


def individual_event(record, director):
    """An individual event: four players at one table, each a contestant of their own."""
    event = scoring_services.create_event(
        tournament=record.tournament, name="Individual", kind=Event.Kind.INDIVIDUAL, by=policy.SYSTEM
    )
    session = scoring_services.create_session(event=event, number=1, is_last=True, by=policy.SYSTEM)
    table = scoring_services.add_tables(section=session.sections.get(), count=1, by=policy.SYSTEM)[0]
    round_ = scoring_services.add_rounds(session=session, count=1, by=policy.SYSTEM)[0]
    players = [
        scoring_services.register_player(
            authority=record.authority,
            first_name=f"I{i}",
            last_name=f"Single{i}",
            membership_number=f"ind-{i}",
            by=policy.SYSTEM,
        )
        for i in range(1, 5)
    ]
    entrants = [
        scoring_services.enter_contestant(event=event, number=n, members=[players[n - 1]], by=policy.SYSTEM)
        for n in range(1, 5)
    ]
    board = scoring_services.create_board(session=session, number=1, by=policy.SYSTEM)
    result = scoring_services.record_result(
        board=board,
        round=round_,
        table=table,
        ns=entrants[0],
        ew=entrants[1],
        contract="3NT",
        declarer="S",
        tricks=9,
        by=policy.SYSTEM,
    )
    ruling = rulings_services.rule(
        result=result,
        director=director,
        kind="revoke",
        laws="64A1",
        give=True,
        ruling_text="One trick transferred",
        reasoning="Established revoke",
        outcome="rectification",
    )
    return SimpleNamespace(event=event, players=players, entrants=entrants, ruling=ruling)


def regulate(case, key=None, value=None, **settings):
    """Set regulating-authority settings for the case's tournament: ``regulate(case, "k", v)``
    or ``regulate(case, k=v, ...)``."""
    if key is not None:
        settings[key] = value
    for name, setting in settings.items():
        scoring_services.set_authority_setting(
            authority=case.record.authority,
            key=name,
            value=setting,
            effective_from=datetime.date(2000, 1, 1),
            by=policy.SYSTEM,
        )


# Each step of a case posts to its own door (appeals/step_views.py); the case page's forms name
# the step in their "action" field, as these tests do.
STEP_NAMES = {"appeal_law_decision": "law-to-body"}


def step_path(pk, action):
    """The URL a case page's form for step ``action`` (its "action" value) posts to."""
    from django.urls import reverse

    return reverse(f"appeals:case-{STEP_NAMES.get(action, action.replace('_', '-'))}", args=[pk])


def take(client, user, appeal, step, **data):
    """``user`` posts the case page's form of ``step`` to its door ("appeals:case-<step>"),
    following the answer back to the case page."""
    from django.urls import reverse

    client.force_login(user)
    return client.post(reverse(f"appeals:case-{step}", args=[appeal.pk]), data, follow=True)


def varied_on_the_web(case, client, reasons, **score):
    """The body, heard and all voting "vary", decides so on the case page through its first member,
    with ``score`` as the decision form's score fields (without their "decide-" prefix): the page."""
    appeal, body, _hearing = ready(case)
    vote_all(body, "vary")
    fields = {"decide-decision": "vary", "decide-reasons": reasons}
    fields.update({f"decide-{name}": value for name, value in score.items()})
    return appeal, shown(take(client, case.members[0], appeal, "decide", **fields))


def shown(response):
    """The page's text as a reader sees it (quotes unescaped)."""
    return response.content.decode().replace("&#x27;", "'").replace("&quot;", '"')


def refused(response, *reasons):
    """Refused as a person: 403, a page saying why."""
    page = shown(response)
    return response.status_code == 403 and "Not yours to do" in page and all(reason in page for reason in reasons)
