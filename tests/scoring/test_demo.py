"""The demo tournament: built through the services, scored, and usable by every demo login."""

from collections import Counter
from decimal import Decimal

import pytest
from django.core.management import call_command

from scoring import demo
from scoring.models import Board, BoardScore, Event, MatchPenalty, MatchScore, Result, Standing, Tournament
from tests.conftest import DEMO_NOW

pytestmark = pytest.mark.django_db

SMALL = dict(pairs_tables=4, boards_per_session=8, pairs_sessions=2, teams=4, boards_per_match=2, now=DEMO_NOW)


@pytest.fixture
def tournament(monkeypatch):
    # The full demo takes a minute of double-dummy solving; the same code on a smaller field.
    original = demo.load_demo
    monkeypatch.setattr(demo, "load_demo", lambda **kw: original(**{**SMALL, **kw}))
    call_command("load_demo", "--if-empty")
    return Tournament.objects.get(name="Spring Congress 2026")


def test_every_pair_plays_every_board_once_and_boards_are_fully_scored(tournament):
    pairs = tournament.events.get(kind=Event.Kind.MP_PAIRS)
    balanced_boards = 0
    for board in Board.objects.filter(session__event=pairs):
        results = list(Result.objects.filter(board=board))
        assert len(results) == 4
        assert len({r.ns_id for r in results} | {r.ew_id for r in results}) == 8
        # A board with four table results: each direction's matchpoints add up to 4 x 3.
        # (The demo's rulings adjust a few boards; those need not balance.)
        if not any(hasattr(r, "effective") for r in results):
            balanced_boards += 1
            scores = BoardScore.objects.filter(result__board=board)
            assert sum(s.ns for s in scores) == sum(s.ew for s in scores) == Decimal(12)
    assert balanced_boards >= 8  # of 16: most boards carry no ruling
    played = Counter(Result.objects.filter(board__session__event=pairs).values_list("ns_id", "board_id"))
    assert set(played.values()) == {1}


def test_standings_are_calculated_per_field_and_for_the_teams(tournament):
    pairs = tournament.events.get(kind=Event.Kind.MP_PAIRS)
    standings = Standing.objects.filter(event=pairs, session=None)
    assert standings.count() == 8
    assert Counter(standings.values_list("field", flat=True)) == {"NS": 4, "EW": 4}
    ns = [s.percent for s in standings if s.field == "NS"]
    assert all(Decimal(0) <= p <= Decimal(100) for p in ns)
    teams = tournament.events.get(kind=Event.Kind.TEAMS_ROUND_ROBIN)
    matches = MatchScore.objects.filter(match__round__session__event=teams)
    assert matches.count() == 6  # four teams, all play all: 3 rounds of 2 matches
    # A match none of whose results carries an adjusted score balances: IMPs opposite, VPs
    # adding up to 20. The demo's rulings adjust some team boards; the rest must balance.
    adjusted_tables = set(
        Result.objects.filter(board__session__event=teams, effective__isnull=False).values_list("table_id", flat=True)
    )
    # The demo's Law 91 ruling takes 1 VP off the offending team in its match (a MatchPenalty).
    penalised = {p.match_id: p for p in MatchPenalty.objects.filter(match__round__session__event=teams)}
    assert [(p.unit, p.amount, p.withdrawn_at) for p in penalised.values()] == [("vps", Decimal("1.00"), None)]
    balanced = [
        m
        for m in matches.select_related("match")
        if not {m.match.open_room_id, m.match.closed_room_id} & adjusted_tables and m.match_id not in penalised
    ]
    assert len(balanced) >= 2  # of 6: the demo's rulings adjust a few team tables
    for match in balanced:
        assert match.home_imps == -match.away_imps
        assert match.home_vp + match.away_vp == Decimal("20.00")
    for score in matches.filter(match_id__in=penalised):
        assert score.home_vp + score.away_vp == Decimal("19.00")  # 20 less the penalty
    assert Standing.objects.filter(event=teams, session=None).count() == 4


def test_demo_logins_see_what_their_role_allows(client, tournament):
    for username, password, role in demo.demo_logins():
        assert client.login(username=username, password=password), username
        page = client.get("/", follow=True).content.decode()
        assert "Spring Congress 2026" in page, role
        if role != "superuser":
            assert "Reykjavik Open 2026" not in page, role
        client.logout()


def test_loading_twice_with_if_empty_keeps_one_demo(tournament, capsys):
    call_command("load_demo", "--if-empty")
    assert Tournament.objects.filter(name="Spring Congress 2026").count() == 1
    assert "director-demo" in capsys.readouterr().out


def test_each_team_match_compares_only_its_own_round_s_boards(tournament):
    teams = tournament.events.get(kind=Event.Kind.TEAMS_ROUND_ROBIN)
    for match in MatchScore.objects.filter(match__round__session__event=teams).select_related("match__round"):
        numbers = [b["board"] for b in match.boards]
        first = (match.match.round.number - 1) * SMALL["boards_per_match"] + 1
        assert numbers == list(range(first, first + SMALL["boards_per_match"]))
    standing = Standing.objects.filter(event=teams, session=None).first()
    assert standing.boards == 3 * SMALL["boards_per_match"]


def test_the_demo_has_fourteen_rulings_of_different_kinds(tournament):
    from rulings.models import Ruling

    rulings = Ruling.objects.filter(result__board__session__event__tournament=tournament)
    assert rulings.count() == 14  # a dozen, the one a player asks to appeal and the one left to appeal
    assert len(set(rulings.values_list("kind", flat=True))) >= 10
    assert set(rulings.values_list("state", flat=True)) >= {"draft", "final"}
    assert rulings.filter(score_kind="weighted").count() == 2
    assert all(r.citations.exists() for r in rulings)


def test_the_demo_has_appeals_in_every_state(tournament):
    from appeals.models import Appeal

    appeals = Appeal.objects.filter(ruling__result__board__session__event__tournament=tournament)
    assert set(appeals.values_list("state", flat=True)) == {
        "lodged",
        "constituted",
        "scheduled",
        "decided",
        "withdrawn",
    }
    assert appeals.filter(without_merit=True).count() == 1
    varied = appeals.get(outcome="vary")
    assert varied.ruling.state == "changed_by_appeal"
    assert varied.ruling.result.effective.kind == "weighted"


def test_the_demo_is_dated_from_the_moment_it_is_loaded(tournament):
    """Loaded at DEMO_NOW: the teams' official score was posted five minutes before, so its
    appeal window is open with its clock running; a further appeal (Law 93C) waits for the
    federation's body, which the demo's regulations provide (issue #27)."""
    import datetime

    from appeals import selectors
    from appeals.models import FurtherAppeal, Hearing

    teams = tournament.events.get(name="Swiss Teams").sessions.get()
    assert teams.official_score_at == DEMO_NOW - datetime.timedelta(minutes=5)
    windows = {w.session.pk: w.status for w in selectors.appeal_windows(tournament=tournament, now=DEMO_NOW)}
    assert windows[teams.pk] == "open"
    assert tournament.regulations()["further_appeal"] == "binding"
    assert FurtherAppeal.objects.filter(
        state="lodged", appeal__ruling__result__board__session__event__tournament=tournament
    ).exists()
    assert Hearing.objects.exists()


def test_the_demo_prints_its_progress_and_its_clocks_start_when_it_is_ready(monkeypatch):
    """Issue #42: the build was silent for minutes after "takes a minute", and the teams' appeal
    windows were counted from when it began, so a slow build left less of them. Here each event's
    scoring takes four minutes of a clock that moves only then."""
    import datetime
    import io
    import re

    from django.utils import timezone

    from scoring import recalculation

    offset = [datetime.timedelta(0)]
    real_now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: real_now() + offset[0])
    rescore = recalculation.rescore_everything
    building = []

    def slow_rescore(event):
        rescore(event)
        if len(building) == 1:
            offset[0] += datetime.timedelta(minutes=4)

    def load_demo(**kw):
        building.append(timezone.now())
        tournament = original(**{**SMALL, "now": None, **kw})
        building.append(timezone.now())
        building.append(None)  # and the clock moves no more
        return tournament

    monkeypatch.setattr(recalculation, "rescore_everything", slow_rescore)
    original = demo.load_demo
    monkeypatch.setattr(demo, "load_demo", load_demo)
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    began, ready, _none = building
    lines = [re.sub(r"^  \[\d+:\d\d\] ", "  [m:ss] ", line) for line in out.getvalue().splitlines()]
    assert lines[:12] == [
        "Building the demo tournament (dealing, solving and scoring the boards takes a few minutes)...",
        "  [m:ss] Open Pairs, session 1 of 2: 8 boards dealt and played",
        "  [m:ss] Open Pairs, session 2 of 2: 8 boards dealt and played",
        "  [m:ss] Swiss Teams, round 1 of 3: 2 matches of 2 boards played",
        "  [m:ss] Swiss Teams, round 2 of 3: 2 matches of 2 boards played",
        "  [m:ss] Swiss Teams, round 3 of 3: 2 matches of 2 boards played",
        "  [m:ss] Open Pairs of Spring Congress 2026 scored",
        "  [m:ss] Swiss Teams of Spring Congress 2026 scored",
        "  [m:ss] Open Pairs of Reykjavik Open 2026 scored",
        "  [m:ss] 12 rulings given",
        "  [m:ss] 7 appeals lodged and taken through their stages",
        lines[11],
    ]
    assert lines[11].startswith("Signed the audit trail's") or lines[11].startswith("Loaded the demo")
    teams = Tournament.objects.get(name="Spring Congress 2026").events.get(kind=Event.Kind.TEAMS_ROUND_ROBIN)
    posted = teams.sessions.get().official_score_at
    # Five minutes (to the minute) before the boards were all scored, twelve minutes after it began.
    assert ready - began > datetime.timedelta(minutes=12)
    assert datetime.timedelta(minutes=5) <= ready - posted < datetime.timedelta(minutes=6, seconds=30)


def test_the_shipped_double_dummy_tables_hold_every_pairs_deal_and_are_the_solvers():
    """scoring/demo_tables.json (issue #42: the build no longer solves the demo's deals): every
    deal of the default demo's three pairs sessions is in it, and three of its tables, drawn at
    random, are what endplay's solver gives for their deals."""
    import json
    import random

    from endplay import dds, types

    from bridge.deals import generate_deal

    tables = json.loads(demo.TABLES.read_text(encoding="utf-8"))
    pairs_deals = [generate_deal(2026 * 1000 + n).to_pbn() for n in range(1, 3 * 24 + 1)]
    assert [pbn for pbn in pairs_deals if pbn not in tables] == []
    for pbn in random.Random().sample(sorted(tables), 3):
        assert tables[pbn] == dds.calc_dd_table(types.Deal(pbn)).to_list(), pbn
