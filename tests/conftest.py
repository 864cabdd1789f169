"""Shared fixtures: a small competition record built through the services, as a user would."""

import datetime
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model

from scoring import roles, services
from scoring.models import Event

DEAL = "N:AK96.KJ8.T74.Q93 QJ82.T942.J.KT64 T73.AQ653.AQ8.A2 54.7.K96532.J875"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # The real hasher is slow on purpose; tests log in dozens of users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_user(username, role=None, **extra):
    user = get_user_model().objects.create_user(username=username, password="pw-" + username, **extra)
    if role:
        services.grant_role(user=user, role=role)
    return user


def build_pairs_tournament(code="nbo", name="Club Championship", tables=2):
    """One matchpoint pairs session: ``tables`` tables, one round, boards 1 and 2."""
    authority = services.create_authority(name=f"{name} body", code=code, time_zone="Europe/London")
    tournament = services.create_tournament(authority=authority, name=name, start_date=datetime.date(2026, 5, 1),
                                            end_date=datetime.date(2026, 5, 2))
    event = services.create_event(tournament=tournament, name="Pairs", kind=Event.Kind.MP_PAIRS)
    session = services.create_session(event=event, number=1)
    section = session.sections.get()
    table_list = services.add_tables(section=section, count=tables)
    round_ = services.add_rounds(session=session, count=1)[0]
    players = [services.register_player(authority=authority, first_name=f"P{i}", last_name=f"Player{i}",
                                        membership_number=f"{code}-{i}") for i in range(1, 4 * tables + 1)]
    pairs = [services.enter_contestant(event=event, number=n, members=players[2 * (n - 1):2 * n])
             for n in range(1, 2 * tables + 1)]
    boards = [services.create_board(session=session, number=1, deal=DEAL), services.create_board(session=session,
                                                                                                   number=2)]
    return SimpleNamespace(authority=authority, tournament=tournament, event=event, session=session,
                           tables=table_list, round=round_, players=players, pairs=pairs, boards=boards)


@pytest.fixture
def record(db):
    return build_pairs_tournament()


@pytest.fixture
def other_record(db):
    return build_pairs_tournament(code="other", name="Other Body Open")


@pytest.fixture
def people(db, record):
    """One user per role, each with their place at ``record``'s tournament."""
    director = make_user("director", first_name="Dana")
    services.appoint_official(tournament=record.tournament, user=director, role=roles.DIRECTOR)
    chief = make_user("chief")
    services.appoint_official(tournament=record.tournament, user=chief, role=roles.CHIEF_DIRECTOR)
    scorer = make_user("scorer")
    services.appoint_official(tournament=record.tournament, user=scorer, role=roles.SCORER)
    appeals = make_user("appeals")
    services.appoint_official(tournament=record.tournament, user=appeals, role=roles.APPEALS_MEMBER)
    auditor = make_user("auditor")
    services.appoint_auditor(authority=record.authority, user=auditor)
    player = make_user("player", role=roles.PLAYER)
    record.players[0].user = player
    record.players[0].save()
    outsider = make_user("outsider", role=roles.PLAYER)
    return SimpleNamespace(director=director, chief=chief, scorer=scorer, appeals=appeals, auditor=auditor,
                           player=player, outsider=outsider)
