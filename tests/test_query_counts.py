"""Queries per list page and per API list do not grow with the rows listed (issue #19, "Under
load": the API rulings list went from 61 to 361 queries as rulings grew, the appeals list from
42 to 462).

Each URL is read twice, as the superuser and as a player: on tests/roles/world.py's two
tournaments, then again after more boards, results, rulings and appeals were added to both
(through the services); the number of queries must be the same both times.

The hot pages of a tournament under a crowd (issue #33) are read the same way by its director: the
standings, the traveller (whose board gains tables of results, rulings and appeals), the ruling
form, a ruling's and an appeal's page, the director's desk and the rulings and appeals APIs.
"""

import pytest
from django.db import connection, transaction
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from appeals import services as appeals
from core import policy
from rulings import services as rulings
from scoring import services as scoring
from tests.conftest import table_result
from tests.roles.world import build_world

pytestmark = pytest.mark.django_db

EXTRA = 4  # rows of each kind added on each side for the second size

API_LISTS = [
    "/api/v1/tournaments/",
    "/api/v1/events/",
    "/api/v1/sessions/",
    "/api/v1/contestants/",
    "/api/v1/boards/",
    "/api/v1/results/",
    "/api/v1/official-scores/",
    "/api/v1/rulings/",
    "/api/v1/appeals/",
    "/api/v1/laws/?edition=2017&law=12",
    "/api/v1/boards/{board}/traveller/",
    "/api/v1/contestants/{contestant}/scorecard/",
    "/api/v1/contestants/{contestant}/score-changes/",
    "/api/v1/events/{event}/standings/",
    "/api/v1/events/{event}/matches/",
]

PAGES = [
    "/",  # the home page: a player's rulings at their tables and appeals, with clocks (issue #42)
    "/rulings/",
    "/appeals/",
    "/appeals/mine/",
    "/tournaments/{tournament}/",
    "/events/{event}/",
    "/events/{event}/standings/",
    "/sessions/{session}/",
    "/boards/{board}/",
    "/contestants/{contestant}/",
]

# The hot pages of issue #33 for the director of side A (and the superuser): the ruling form on
# the traveller's first result, a ruling's and an appeal's page, the desk and the APIs.
DIRECTOR_PAGES = [
    "/",  # the home page: the rulings the director gave or drafted still open (issue #42)
    "/rulings/new/{result}/",
    "/rulings/{ruling}/",
    "/appeals/{appeal}/",
    "/appeals/",
    "/rulings/",
    "/events/{event}/standings/",
    "/events/{event}/standings/?session=1",
    "/boards/{board}/",
    "/sessions/{session}/",
]
DIRECTOR_API = [
    "/api/v1/rulings/",
    "/api/v1/appeals/",
    "/api/v1/boards/{board}/traveller/",
    "/api/v1/events/{event}/standings/",
]

# The national desk's lists: for its auditors and the superuser (a player is refused them).
NATIONAL_PAGES = ["/national/search/", "/national/casebooks/", "/national/precedents/"]


def _ruled_and_appealed(result, director, player, words):
    """A ruling given on ``result`` and an appeal lodged against it by ``player``."""
    ruling = rulings.rule(
        result=result,
        director=director,
        kind="claim",
        laws="70D1",
        give=True,
        ruling_text=words,
        reasoning="No line loses a trick",
        outcome="result_stands",
    )
    appeals.lodge_appeal(ruling=ruling, by=director, player=player, grounds=words)


def _grow_traveller(side):
    """More tables on the first board (the traveller, the standings, the ruling form's board): a
    new pair each way at each, a result, a ruling on it and an appeal against the ruling."""
    record, director = side.record, side.director
    section = record.session.sections.get()
    for n in range(EXTRA):
        table = scoring.add_table(section=section, number=len(record.tables) + 1 + n, by=policy.SYSTEM)
        pairs = []
        for way in range(2):
            members = [
                scoring.register_player(
                    authority=record.authority,
                    first_name=f"X{n}{way}{m}",
                    last_name="Extra",
                    membership_number=f"{record.authority.code}-x{n}{way}{m}",
                    by=policy.SYSTEM,
                )
                for m in range(2)
            ]
            pairs.append(
                scoring.enter_contestant(
                    event=record.event, number=100 + 2 * n + way, members=members, by=policy.SYSTEM
                )
            )
        result = scoring.record_result(
            board=record.boards[0],
            round=record.round,
            table=table,
            ns=pairs[0],
            ew=pairs[1],
            contract="4S",
            declarer="N",
            tricks=8 + n % 4,
            by=policy.SYSTEM,
        )
        _ruled_and_appealed(result, director, members[0], f"traveller {n}")


def _grow(world):
    """More of every row on both sides, through the services: boards with a result each, rulings
    on them, and an appeal lodged against each ruling; more tables on the first board."""
    for side in world.sides.values():
        record, director = side.record, side.director
        _grow_traveller(side)
        for n in range(EXTRA):
            board = scoring.create_board(session=record.session, number=10 + n, by=policy.SYSTEM)
            result = table_result(record, 0, board, contract="3NT", declarer="S", tricks=9 + n % 3)
            scoring.set_effective_score(
                result=result, by=director, kind="assigned", score={"ns": [[400, "1"]]}, reason=f"test {n}"
            )
            _ruled_and_appealed(result, director, side.players[0], f"extra {n}")
        scoring.post_official_scores(session=record.session, by=director)


@pytest.fixture(scope="module")
def sized_world(django_db_setup, django_db_blocker):
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]),
    ):
        with transaction.atomic():
            world = build_world()
            yield world
            transaction.set_rollback(True)


def _urls(world, templates):
    record = world.sides["A"].record
    ids = {
        "tournament": record.tournament.pk,
        "event": record.event.pk,
        "session": record.session.pk,
        "board": record.boards[0].pk,
        "contestant": record.pairs[0].pk,
        "result": world.sides["A"].t1.pk,
        "ruling": world.sides["A"].rulings["heard"].pk,
        "appeal": world.sides["A"].appeals["heard"].pk,
    }
    return [template.format(**ids) for template in templates]


def _count(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(queries)


def _clients(world):
    clients = {}
    for role in ("superuser", "player", "director", "chief", "appeals"):
        api, page = APIClient(), Client()
        api.force_authenticate(world.users[role])
        page.force_login(world.users[role])
        clients[role] = (api, page)
    return clients


def _grown(world, checks):
    with transaction.atomic():
        before = {(role, url): _count(client, url) for role, url, client in checks}
        _grow(world)
        after = {(role, url): _count(client, url) for role, url, client in checks}
        transaction.set_rollback(True)
    return {key: (before[key], after[key]) for key in before if after[key] != before[key]}


def test_queries_do_not_grow_with_the_rows(sized_world):
    clients = _clients(sized_world)
    readers = ("superuser", "player")
    checks = [(role, url, clients[role][0]) for role in readers for url in _urls(sized_world, API_LISTS)]
    checks += [(role, url, clients[role][1]) for role in readers for url in _urls(sized_world, PAGES)]
    checks += [("superuser", url, clients["superuser"][1]) for url in NATIONAL_PAGES]
    for role in ("director", "superuser"):
        api, page = clients[role]
        checks += [(role, url, api) for url in _urls(sized_world, DIRECTOR_API)]
        checks += [(role, url, page) for url in _urls(sized_world, DIRECTOR_PAGES)]
    # the desk of the chief director (bodies to form, seats to fill) and of a member (seats)
    checks += [(role, "/appeals/", clients[role][1]) for role in ("chief", "appeals")]
    grown = _grown(sized_world, checks)
    assert not grown, "queries grew with the rows (role, url): (before, after)\n" + "\n".join(
        f"  {key}: {value}" for key, value in sorted(grown.items())
    )


def test_the_notices_on_the_appeals_page_cost_the_same_however_many(sized_world):
    """Each notice shows its time in its tournament's zone: read with the notices, not a chain of
    queries per notice (issue #19: seven more queries a notice on an appeals member's page)."""
    from appeals.models import Appeal
    from appeals.notifications import notify
    from core import texts

    user = sized_world.users["appeals"]
    page = Client()
    page.force_login(user)
    appeals = list(Appeal.objects.order_by("pk")[:4])
    with transaction.atomic():
        # One notice shown, then four: the same queries (a notice of a kind that holds in any
        # state, appeals.notifications.HOLDS, so each is shown whatever its case's state).
        notify([user], appeals[0], texts.text("appeals.notice_recommendation", n=appeals[0].number))
        before = _count(page, "/appeals/")
        for appeal in appeals[1:]:
            notify([user], appeal, texts.text("appeals.notice_recommendation", n=appeal.number))
        after = _count(page, "/appeals/")
        shown = page.get("/appeals/").content.decode()
        transaction.set_rollback(True)
    assert "Waiting for you" in shown and "your answer is awaited (Law 93B3)" in shown
    assert after == before
