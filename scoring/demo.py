"""The demo tournament: realistic, deterministic, built only through the services.

Deals come from a fixed seed; each table result is the double-dummy result of a sensible
contract with some noise, so travellers look like real ones. Run it with
``python manage.py load_demo``.
"""

import datetime
import json
import random
from pathlib import Path
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from bridge import deals
from bridge.deals import generate_deal, plausible_result
from core import policy, roles
from scoring import recalculation, services
from scoring.models import Event, RegulatingAuthority

DEMO_AUTHORITY_CODE = "demo-nbf"
DEMO_ZONE = "Europe/Amsterdam"
DEMO_PASSWORD_SUFFIX = "-demo"
# The demo deals' double-dummy tables, solved once and shipped with the project
# (`python manage.py load_demo --write-tables` writes them again): solving them was half of the
# build's minutes (issue #42). A deal not in it is solved as any other.
TABLES = Path(__file__).with_name("demo_tables.json")

FIRST_NAMES = [
    "Anna",
    "Boris",
    "Clara",
    "Dov",
    "Elena",
    "Finn",
    "Gila",
    "Hugo",
    "Ines",
    "Jonas",
    "Katya",
    "Lior",
    "Maria",
    "Nikos",
    "Olga",
    "Pieter",
    "Rivka",
    "Sven",
    "Tamar",
    "Ugo",
    "Vera",
    "Willem",
    "Yael",
    "Zoe",
]
LAST_NAMES = [
    "Andersen",
    "Bakker",
    "Cohen",
    "Dimitriou",
    "Eriksson",
    "Fischer",
    "Gudmundsson",
    "Hoffman",
    "Ivanenko",
    "Jansen",
    "Kovalenko",
    "Levi",
    "Mizrahi",
    "Nielsen",
    "Oikonomou",
    "Papadakis",
    "Queller",
    "Rosen",
    "Shevchenko",
    "Thorsson",
    "Usher",
    "Visser",
    "Weiss",
    "Zagoraki",
]

DEMO_USERS = [
    # username, first, last, role (None: a superuser for the admin)
    ("admin", "Ada", "Admin", None),
    ("director", "Dana", "Director", roles.DIRECTOR),
    ("chief", "Chaim", "Chief", roles.CHIEF_DIRECTOR),
    ("scorer", "Sara", "Scorer", roles.SCORER),
    ("appeals", "Avi", "Appeals", roles.APPEALS_MEMBER),
    ("auditor", "Nora", "Auditor", roles.NATIONAL_AUDITOR),
    ("player", None, None, roles.PLAYER),
]


def demo_exists():
    return RegulatingAuthority.objects.filter(code=DEMO_AUTHORITY_CODE).exists()


def demo_logins():
    return [(username, username + DEMO_PASSWORD_SUFFIX, role or "superuser") for username, _f, _l, role in DEMO_USERS]


@transaction.atomic
def demo_clock(now=None, zone=DEMO_ZONE):
    """The demo's dates, relative to the moment it is loaded (``now``, the wall clock by default;
    tests pass a fixed one): the teams' official score was posted five minutes ago (its appeal
    window open, its clock running), the teams played from eight hours before, and the pairs'
    sessions on the two days before that. Returns (first day, the last posting)."""
    now = (now or timezone.now()).astimezone(ZoneInfo(zone))
    posted = (now - datetime.timedelta(minutes=5)).replace(second=0, microsecond=0)
    teams_day = (posted - datetime.timedelta(hours=8)).date()
    return teams_day - datetime.timedelta(days=2), posted


def load_demo(
    *,
    pairs_tables=12,
    boards_per_session=24,
    pairs_sessions=3,
    teams=8,
    boards_per_match=8,
    seed=2026,
    now=None,
    progress=None,
    shipped_tables=True,
):
    """Build the demo tournament and its logins, dated relative to ``now`` (``demo_clock``);
    return the tournament. ``progress`` (a callable) is told each step as it is done, since
    dealing, playing and scoring the boards takes minutes. The clock is read again once they are
    done: the teams' official score, which opens its appeal windows, is posted five minutes before
    the demo is ready, not before it began (issue #42). ``shipped_tables``: take the deals'
    double-dummy tables from ``TABLES`` instead of solving them."""
    say = progress or (lambda text: None)
    if shipped_tables and TABLES.exists():
        deals.know_tables(json.loads(TABLES.read_text(encoding="utf-8")))
    rng = random.Random(seed)
    authority = services.create_authority(
        name="Demo National Bridge Federation",
        code=DEMO_AUTHORITY_CODE,
        country="Netherlands",
        language="en",
        time_zone=DEMO_ZONE,
        by=policy.SYSTEM,
    )
    start, first_posted = demo_clock(now)
    _regulations(authority)
    tournament = services.create_tournament(
        authority=authority,
        name="Spring Congress 2026",
        venue="Congress Centre, Utrecht",
        start_date=start,
        end_date=start + datetime.timedelta(days=2),
        by=policy.SYSTEM,
    )
    players = _players(authority, rng, 2 * 2 * pairs_tables + 4 * teams)
    pairs_event = services.create_event(
        tournament=tournament, name="Open Pairs", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )
    pairs = [
        services.enter_contestant(event=pairs_event, number=n, members=players[2 * (n - 1) : 2 * n], by=policy.SYSTEM)
        for n in range(1, 2 * pairs_tables + 1)
    ]
    offset = 4 * pairs_tables
    teams_event = services.create_event(
        tournament=tournament, name="Swiss Teams", kind=Event.Kind.TEAMS_ROUND_ROBIN, by=policy.SYSTEM
    )
    team_list = []
    for n in range(1, teams + 1):
        members = players[offset + 4 * (n - 1) : offset + 4 * n]
        team_list.append(
            services.enter_contestant(
                event=teams_event,
                number=n,
                members=members,
                captain=members[0],
                name=f"{members[0].last_name}",
                by=policy.SYSTEM,
            )
        )
    deal_seed = seed * 1000
    zone = tournament.zone
    for number in range(1, pairs_sessions + 1):
        day = start + datetime.timedelta(days=(number - 1) // 2)
        starts = datetime.datetime.combine(day, datetime.time(10 if number % 2 else 15, 0), tzinfo=zone)
        session = services.create_session(
            event=pairs_event, number=number, starts_at=starts, is_last=number == pairs_sessions, by=policy.SYSTEM
        )
        deal_seed = _play_pairs_session(session, pairs, pairs_tables, boards_per_session, rng, deal_seed)
        say(f"Open Pairs, session {number} of {pairs_sessions}: {boards_per_session} boards dealt and played")
        if number < pairs_sessions:
            services.post_official_scores(session=session, at=starts + datetime.timedelta(hours=4), by=policy.SYSTEM)
    starts = first_posted - datetime.timedelta(hours=8)
    session = services.create_session(event=teams_event, number=1, starts_at=starts, is_last=True, by=policy.SYSTEM)
    _play_round_robin(session, team_list, boards_per_match, rng, deal_seed, say)
    _users(tournament, authority, pairs[0].members.first())
    other = _other_body()
    for event in [*tournament.events.all(), *other.events.all()]:
        recalculation.rescore_everything(event)
        say(f"{event.name} of {event.tournament.name} scored")
    _start, last_posted = demo_clock(now)  # after minutes of dealing and scoring, on the wall clock
    services.post_official_scores(session=session, at=last_posted, by=policy.SYSTEM)
    return tournament


def _regulations(authority):
    """The demo federation's regulations: further appeal, deposits, the decision period."""
    services.set_authority_setting(  # a further appeal goes to the federation's body, binding (93C)
        authority=authority,
        key="further_appeal",
        effective_from=datetime.date(2020, 1, 1),
        value="binding",
        note="Demo regulations, section 9",
        by=policy.SYSTEM,
    )
    services.set_authority_setting(
        authority=authority,
        key="deposits",
        effective_from=datetime.date(2020, 1, 1),
        value={"currency": "EUR", "amounts": {"mp_pairs": "20.00", "teams_rr": "30.00"}},
        note="Demo regulations, section 7",
        by=policy.SYSTEM,
    )
    services.set_authority_setting(  # a case is decided within a week of being lodged
        authority=authority,
        key="decision_period_minutes",
        effective_from=datetime.date(2020, 1, 1),
        value=7 * 24 * 60,
        note="Demo regulations, section 8",
        by=policy.SYSTEM,
    )


def _players(authority, rng, count):
    names = [(first, last) for last in LAST_NAMES for first in FIRST_NAMES]
    rng.shuffle(names)
    clubs = ["Utrecht BC", "Amsterdam Bridge", "Haifa BC", "Kyiv Bridge Club", "Reykjavik BF", "Athens BC"]
    return [
        services.register_player(
            authority=authority,
            first_name=first,
            last_name=last,
            membership_number=f"{100000 + 37 * i}",
            club=clubs[i % len(clubs)],
            masterpoint_rank=rng.choice(["Club Master", "Regional Master", "National Master", "Life Master"]),
            by=policy.SYSTEM,
        )
        for i, (first, last) in enumerate(names[:count])
    ]


def _record(board, round_, table, ns, ew, rng, deal):
    contract, declarer, tricks, lead = plausible_result(deal, board.dealer, board.vulnerability, rng)
    return services.record_result(
        board=board,
        round=round_,
        table=table,
        ns=ns,
        ew=ew,
        contract=contract,
        declarer=declarer,
        tricks=tricks,
        lead=lead,
        by=policy.SYSTEM,
    )


def _play_pairs_session(session, pairs, tables_count, boards_per_session, rng, deal_seed):
    """Twelve rounds of two boards. N-S pairs sit still, E-W pairs move up a table each round,
    and board sets are arranged (set = 2t + r) so that every pair plays every board once and meets
    each opponent once; boards are duplicated so several tables may hold one set."""
    section = session.sections.get()
    tables = services.add_tables(section=section, count=tables_count, by=policy.SYSTEM)
    rounds = services.add_rounds(session=session, count=tables_count, by=policy.SYSTEM)
    per_round = boards_per_session // tables_count
    boards, deals = [], []
    for number in range(1, boards_per_session + 1):
        deal = generate_deal(deal_seed + number)
        boards.append(services.create_board(session=session, number=number, deal=deal.to_pbn(), by=policy.SYSTEM))
        deals.append(deal)
    ns_pairs, ew_pairs = pairs[:tables_count], pairs[tables_count:]
    for r, round_ in enumerate(rounds):
        for t, table in enumerate(tables):
            ew = ew_pairs[(t + r) % tables_count]
            board_set = (2 * t + r) % tables_count
            for i in range(board_set * per_round, (board_set + 1) * per_round):
                _record(boards[i], round_, table, ns_pairs[t], ew, rng, deals[i])
    return deal_seed + boards_per_session


def _play_round_robin(session, teams, boards_per_match, rng, deal_seed, say):
    """All-play-all by the circle method; each match at two tables, open and closed room."""
    section = session.sections.get()
    count = len(teams)
    tables = services.add_tables(section=section, count=count, by=policy.SYSTEM)
    rounds = services.add_rounds(session=session, count=count - 1, by=policy.SYSTEM)
    order = list(teams)
    board_number = 1
    for round_ in rounds:
        boards, deals = [], []
        for _ in range(boards_per_match):
            deal = generate_deal(deal_seed + board_number)
            boards.append(
                services.create_board(session=session, number=board_number, deal=deal.to_pbn(), by=policy.SYSTEM)
            )
            deals.append(deal)
            board_number += 1
        for m in range(count // 2):
            home, away = order[m], order[count - 1 - m]
            open_room, closed_room = tables[2 * m], tables[2 * m + 1]
            services.create_match(
                round=round_, home=home, away=away, open_room=open_room, closed_room=closed_room, by=policy.SYSTEM
            )
            for board, deal in zip(boards, deals):
                _record(board, round_, open_room, home, away, rng, deal)
                _record(board, round_, closed_room, away, home, rng, deal)
        order = [order[0], order[-1], *order[1:-1]]
        say(
            f"Swiss Teams, round {round_.number} of {len(rounds)}: {count // 2} matches of {boards_per_match} boards played"
        )


def _users(tournament, authority, player):
    User = get_user_model()
    for username, first, last, role in DEMO_USERS:
        if role == roles.PLAYER:
            first, last = player.first_name, player.last_name
        user = User.objects.create_user(
            username=username,
            password=username + DEMO_PASSWORD_SUFFIX,
            first_name=first,
            last_name=last,
            is_staff=role is None,
            is_superuser=role is None,
        )
        if role in (roles.DIRECTOR, roles.CHIEF_DIRECTOR, roles.SCORER, roles.APPEALS_MEMBER):
            services.appoint_official(tournament=tournament, user=user, role=role, by=policy.SYSTEM)
        elif role == roles.NATIONAL_AUDITOR:
            services.appoint_auditor(authority=authority, user=user, by=policy.SYSTEM)
        elif role == roles.PLAYER:
            services.grant_role(user=user, role=role, by=policy.SYSTEM)
            player.user = user
            player.save(update_fields=["user"])


def _other_body():
    """A second national body with a small tournament: nobody of the demo body sees it."""
    authority = services.create_authority(
        name="Other Bridge Union",
        code="other-bu",
        country="Iceland",
        language="is",
        time_zone="Atlantic/Reykjavik",
        by=policy.SYSTEM,
    )
    tournament = services.create_tournament(
        authority=authority,
        name="Reykjavik Open 2026",
        start_date=datetime.date(2026, 2, 5),
        end_date=datetime.date(2026, 2, 5),
        by=policy.SYSTEM,
    )
    event = services.create_event(tournament=tournament, name="Open Pairs", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM)
    session = services.create_session(
        event=event,
        number=1,
        is_last=True,
        starts_at=timezone.make_aware(datetime.datetime(2026, 2, 5, 19, 0), tournament.zone),
        by=policy.SYSTEM,
    )
    players = [
        services.register_player(
            authority=authority, first_name=first, last_name=last, membership_number=str(n), by=policy.SYSTEM
        )
        for n, (first, last) in enumerate(
            [("Jon", "Jonsson"), ("Sigga", "Sigurdardottir"), ("Bjorn", "Bjornsson"), ("Helga", "Magnusdottir")],
            start=1,
        )
    ]
    ns = services.enter_contestant(event=event, number=1, members=players[:2], by=policy.SYSTEM)
    ew = services.enter_contestant(event=event, number=2, members=players[2:], by=policy.SYSTEM)
    table = services.add_tables(section=session.sections.get(), count=1, by=policy.SYSTEM)[0]
    round_ = services.add_rounds(session=session, count=1, by=policy.SYSTEM)[0]
    board = services.create_board(session=session, number=1, deal=generate_deal(99).to_pbn(), by=policy.SYSTEM)
    services.record_result(
        board=board,
        round=round_,
        table=table,
        ns=ns,
        ew=ew,
        contract="3NT",
        declarer="S",
        tricks=9,
        lead="H4",
        by=policy.SYSTEM,
    )
    return tournament
