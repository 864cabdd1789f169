"""Incremental recalculation and coalescing (issue #15).

A change to some boards rescores those boards, adds the differences to the contestants' totals
and ranks again in memory; the full recompute from every board score must give exactly the same
standings and board scores after any series of changes. Many boards changed in one transaction
are scored by one pass that computes the event's standings once.
"""

import datetime
import random
from decimal import Decimal
from fractions import Fraction
from types import SimpleNamespace

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction

from core import policy
from scoring import recalculation, services
from scoring.models import BoardScore, Event, Match, MatchScore, RecalculationRequest, Result, Standing

pytestmark = pytest.mark.django_db

STANDING_FIELDS = ("session_id", "contestant_id", "total", "total_exact", "top", "percent", "field", "place", "boards")
BOARD_SCORE_FIELDS = ("result_id", *recalculation.BOARD_SCORE_VALUES)
CONTRACTS = [("4S", "N", 10), ("4S", "N", 11), ("3NT", "S", 9), ("2S", "N", 8), ("4H", "E", 10), ("3NT", "N", 7)]


def build_event(kind, code, tables=5, sessions=2, boards_per_session=3, seed=1):
    """A Mitchell of ``tables`` tables over ``sessions`` sessions: N-S pairs 1..tables stay,
    E-W pairs move one table a board. Every result recorded through the services."""
    rng = random.Random(seed)
    authority = services.create_authority(name=f"Body {code}", code=code, time_zone="UTC", by=policy.SYSTEM)
    tournament = services.create_tournament(
        authority=authority,
        name=f"Cup {code}",
        start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 2),
        by=policy.SYSTEM,
    )
    event = services.create_event(tournament=tournament, name="Pairs", kind=kind, by=policy.SYSTEM)
    pairs = [
        services.enter_contestant(event=event, number=n, members=[], by=policy.SYSTEM) for n in range(1, 2 * tables + 1)
    ]
    boards, results = [], []
    for s in range(1, sessions + 1):
        session = services.create_session(event=event, number=s, is_last=s == sessions, by=policy.SYSTEM)
        table_list = services.add_tables(section=session.sections.get(), count=tables, by=policy.SYSTEM)
        rounds = services.add_rounds(session=session, count=boards_per_session, by=policy.SYSTEM)
        for b in range(boards_per_session):
            board = services.create_board(
                session=session, number=(s - 1) * boards_per_session + b + 1, by=policy.SYSTEM
            )
            boards.append(board)
            for t, table in enumerate(table_list):
                contract, declarer, tricks = rng.choice(CONTRACTS)
                results.append(
                    services.record_result(
                        board=board,
                        round=rounds[b],
                        table=table,
                        ns=pairs[t],
                        ew=pairs[tables + (t + b + s) % tables],
                        contract=contract,
                        declarer=declarer,
                        tricks=tricks,
                        by=policy.SYSTEM,
                    )
                )
    recalculation.rescore_everything(event)
    return SimpleNamespace(event=event, boards=boards, results=results)


SCORES = [
    ("assigned", {"ns": 620}),
    ("assigned", {"ns": -100}),
    ("split", {"ns": 420, "ew": 450}),
    ("weighted", {"ns": [[420, "0.6"], [-50, "0.4"]]}),
    ("artificial", {"ns": "AVE+", "ew": "AVE-"}),
    ("artificial", {"ns": "AVE", "ew": "AVE"}),
    ("artificial", {"ns": "AVE-", "ew": "AVE+"}),
    ("assigned", {"ns": 140}),
]


def random_change(rng, record, step, penalty_given=None):
    result = rng.choice(record.results)
    if rng.random() < 0.25:
        services.set_effective_score(result=result, kind="table", reason=f"back to the table result {step}")
        return result
    kind, score = rng.choice(SCORES)
    penalty = (penalty_given or {"ns": "25%"}) if rng.random() < 0.15 and kind != "artificial" else None
    services.set_effective_score(result=result, kind=kind, score=score, penalty=penalty, reason=f"change {step}")
    return result


def snapshot(event):
    standings = sorted(Standing.objects.filter(event=event).values_list(*STANDING_FIELDS), key=repr)
    scores = sorted(
        BoardScore.objects.filter(result__board__session__event=event).values_list(*BOARD_SCORE_FIELDS), key=repr
    )
    return standings, scores


def from_scratch(event):
    Standing.objects.filter(event=event).delete()
    BoardScore.objects.filter(result__board__session__event=event).delete()
    recalculation.rescore_everything(event)
    return snapshot(event)


def no_full_recompute(monkeypatch):
    def refuse(event):
        raise AssertionError("the incremental road fell back to the full recompute")

    monkeypatch.setattr(recalculation.pipeline, "rescore_event_locked", refuse)


@pytest.mark.parametrize(
    "kind", [Event.Kind.MP_PAIRS, Event.Kind.IMP_PAIRS_CROSS, Event.Kind.IMP_PAIRS_BUTLER], ids=lambda k: k.value
)
def test_incremental_standings_equal_a_full_recompute_after_random_changes(kind, monkeypatch):
    record = build_event(kind, code=f"inc-{kind.value}"[:20])
    rng = random.Random(1515)
    no_full_recompute(monkeypatch)
    for step in range(40):
        with transaction.atomic():
            # One to three boards changed in one transaction (a decision touching several boards).
            changed = [random_change(rng, record, f"{step}.{i}") for i in range(rng.choice((1, 1, 2, 3)))]
        recalculation.recalculate_board(changed[0].board_id)
        assert not RecalculationRequest.objects.filter(finished_at__isnull=True).exists()
    incremental = snapshot(record.event)
    monkeypatch.undo()
    assert from_scratch(record.event) == incremental


def test_boards_of_plain_results_scored_by_distinct_score_equal_a_full_recompute(monkeypatch):
    """A board whose every result is a plain table result takes the road without model
    instances or entries (score_plain_board, one values tuple per distinct score): table
    results corrected (Law 79) and adjusted scores set and taken back, so that boards go from
    plain to adjusted and back, give the standings and board scores of a full recompute."""
    record = build_event(Event.Kind.MP_PAIRS, code="inc-plain")
    rng = random.Random(2026)
    plain_boards = []
    scored_plain = recalculation.plain_board_values

    def spy(seats, regs, plays=0):
        plain_boards.append(len(seats))
        return scored_plain(seats, regs, plays)

    monkeypatch.setattr(recalculation.pipeline, "plain_board_values", spy)
    no_full_recompute(monkeypatch)
    for step in range(30):
        with transaction.atomic():
            result = rng.choice(record.results)
            if rng.random() < 0.6:
                contract, declarer, tricks = rng.choice(CONTRACTS)
                services.correct_result(
                    result=result, contract=contract, declarer=declarer, tricks=tricks, by=policy.SYSTEM
                )
            elif rng.random() < 0.5:
                services.set_effective_score(result=result, kind="table", reason=f"back to the table {step}")
            else:
                kind, score = rng.choice(SCORES)
                services.set_effective_score(result=result, kind=kind, score=score, reason=f"change {step}")
        recalculation.recalculate_board(result.board_id)
    assert len(plain_boards) >= 10  # the plain road was taken, on whole boards of 5 results
    assert set(plain_boards) == {5}
    incremental = snapshot(record.event)
    monkeypatch.undo()
    assert from_scratch(record.event) == incremental


def test_the_database_finds_the_rows_a_change_moved_on_a_plain_board_as_a_row_by_row_comparison():
    """On a board of plain results the database compares the stored board scores with the new
    values (plain_board_moved): after table results corrected and made not played (an
    unscored result), it returns exactly the rows a comparison of every stored row finds, on
    SQLite and on PostgreSQL, and the standings equal a full recompute."""
    record = build_event(Event.Kind.MP_PAIRS, code="inc-sql")
    rng = random.Random(5)
    regs = recalculation.regulations(record.event)
    for step in range(16):
        result = rng.choice(record.results)
        with transaction.atomic():
            if step % 3 == 0:
                services.correct_result(
                    result=result,
                    not_played=True,
                    contract="",
                    declarer="",
                    tricks=None,
                    score_ns=None,
                    by=policy.SYSTEM,
                )
            else:
                contract, declarer, tricks = rng.choice(CONTRACTS)
                services.correct_result(
                    result=result,
                    not_played=False,
                    contract=contract,
                    declarer=declarer,
                    tricks=tricks,
                    by=policy.SYSTEM,
                )
        board = result.board
        scored, by_points = recalculation.plain_board_values(recalculation.plain_seats(board), regs)
        moved = recalculation.plain_board_moved(board, by_points)
        stored = BoardScore.objects.filter(result__board=board).values_list(
            "pk", "result_id", *recalculation.COMPARED_VALUES, named=True
        )
        to_update, to_create = recalculation.changed_board_scores(scored, {row.result_id: row for row in stored})
        assert sorted(m[0] for m in moved) == sorted([r for _pk, r, _v in to_update] + [r for r, _v in to_create])
        assert sorted((m[0], m[4].pk) for m in moved if m[4]) == sorted((r, pk) for pk, r, _v in to_update)
        recalculation.recalculate_board(board.pk)
    incremental = snapshot(record.event)
    assert from_scratch(record.event) == incremental


def test_matchpoint_standings_after_random_changes_have_the_exact_totals(monkeypatch):
    # The same comparison, read as a scorer reads it: a pair's exact event total is the sum of
    # its board scores' exact values (no artificial scores here, so no session rule).
    record = build_event(Event.Kind.MP_PAIRS, code="inc-exact", sessions=1, boards_per_session=4)
    rng = random.Random(7)
    no_full_recompute(monkeypatch)
    for step in range(12):
        kind, score = rng.choice([s for s in SCORES if s[0] != "artificial"])
        result = rng.choice(record.results)
        services.set_effective_score(result=result, kind=kind, score=score, reason=f"change {step}")
        recalculation.recalculate_board(result.board_id)
    event_standings = list(Standing.objects.filter(event=record.event, session=None))
    # Every pair of the Mitchell has its event total (an empty table would pass the loop below).
    assert sorted(s.contestant_id for s in event_standings) == sorted(
        record.event.contestants.values_list("pk", flat=True)
    )
    own = BoardScore.objects.filter(result__board__session__event=record.event)
    for standing in event_standings:
        total = sum(Fraction(bs.ns_exact) for bs in own.filter(result__ns=standing.contestant_id)) + sum(
            Fraction(bs.ew_exact) for bs in own.filter(result__ew=standing.contestant_id)
        )
        assert Fraction(standing.total_exact) == total


def build_teams(kind=Event.Kind.TEAMS_ROUND_ROBIN, teams=4, boards=4, seed=3):
    """One round of ``teams`` // 2 matches, each at two tables (open and closed room)."""
    rng = random.Random(seed)
    authority = services.create_authority(name="Teams body", code="inc-teams", time_zone="UTC", by=policy.SYSTEM)
    tournament = services.create_tournament(
        authority=authority,
        name="Teams cup",
        start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 2),
        by=policy.SYSTEM,
    )
    event = services.create_event(tournament=tournament, name="Teams", kind=kind, by=policy.SYSTEM)
    team_list = [
        services.enter_contestant(event=event, number=n, members=[], by=policy.SYSTEM) for n in range(1, teams + 1)
    ]
    session = services.create_session(event=event, number=1, is_last=True, by=policy.SYSTEM)
    tables = services.add_tables(section=session.sections.get(), count=teams, by=policy.SYSTEM)
    round_ = services.add_rounds(session=session, count=1, by=policy.SYSTEM)[0]
    board_list = [services.create_board(session=session, number=n, by=policy.SYSTEM) for n in range(1, boards + 1)]
    results = []
    for m in range(teams // 2):
        home, away = team_list[2 * m], team_list[2 * m + 1]
        open_room, closed_room = tables[2 * m], tables[2 * m + 1]
        services.create_match(
            round=round_, home=home, away=away, open_room=open_room, closed_room=closed_room, by=policy.SYSTEM
        )
        for board in board_list:
            for table, ns, ew in ((open_room, home, away), (closed_room, away, home)):
                contract, declarer, tricks = rng.choice(CONTRACTS)
                results.append(
                    services.record_result(
                        board=board,
                        round=round_,
                        table=table,
                        ns=ns,
                        ew=ew,
                        contract=contract,
                        declarer=declarer,
                        tricks=tricks,
                        by=policy.SYSTEM,
                    )
                )
    recalculation.rescore_everything(event)
    return SimpleNamespace(event=event, boards=board_list, results=results)


def test_team_standings_after_random_changes_equal_a_full_recompute():
    record = build_teams()
    rng = random.Random(2)
    for step in range(10):
        result = random_change(rng, record, step)
        recalculation.recalculate_board(result.board_id)
    incremental = snapshot(record.event)
    assert from_scratch(record.event) == incremental


def test_a_corrected_seat_moves_the_score_to_the_new_pair():
    record = build_event(Event.Kind.MP_PAIRS, code="inc-seat", sessions=1, boards_per_session=2)
    result = record.results[0]
    # A Law 79 correction: the E-W pair at table 1 was pair 11, a late entry, not the pair entered.
    late = services.enter_contestant(event=record.event, number=11, members=[], by=policy.SYSTEM)
    services.correct_result(result=Result.objects.get(pk=result.pk), ew=late, by=policy.SYSTEM)
    recalculation.recalculate_board(result.board_id)
    incremental = snapshot(record.event)
    assert Standing.objects.get(event=record.event, session=None, contestant=late).boards == 1
    assert from_scratch(record.event) == incremental


def test_twenty_six_boards_changed_together_compute_the_standings_once(monkeypatch, django_capture_on_commit_callbacks):
    passes, sent = [], []
    monkeypatch.setattr(recalculation.queue, "enqueue", lambda board_id: sent.append(board_id) or True)
    with django_capture_on_commit_callbacks(execute=True):
        record = build_event(Event.Kind.MP_PAIRS, code="inc-26", tables=3, sessions=1, boards_per_session=26)
    sent.clear()
    recalculation.queue.begin_pass(record.event.pk)  # the task the build sent has started (issue #33)
    real_write = recalculation.standings.write_standings
    monkeypatch.setattr(
        recalculation.standings,
        "write_standings",
        lambda *args, **kwargs: passes.append(1) or real_write(*args, **kwargs),
    )
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        for board in record.boards:  # a fouled session: every board gets an adjusted score at table 1
            result = Result.objects.get(board=board, table__number=1)
            services.set_effective_score(
                result=result, kind="artificial", score={"ns": "AVE+", "ew": "AVE-"}, reason="Fouled board"
            )
    assert sent == [record.boards[0].pk]  # one task for the event, not one a board
    unfinished = RecalculationRequest.objects.filter(finished_at__isnull=True)
    assert unfinished.count() == 26
    # The other 25 are marked sent with the first board's task (the stand-in for enqueue marks none).
    assert unfinished.filter(enqueued_at__isnull=False).count() == 25
    for board_id in sent:
        recalculation.recalculate_board(board_id)
    assert len(passes) == 1
    assert not RecalculationRequest.objects.filter(finished_at__isnull=True).exists()
    # A late task for any other board of the event finds nothing left to do.
    assert recalculation.recalculate_board(record.boards[5].pk) is False
    assert len(passes) == 1
    incremental = snapshot(record.event)
    monkeypatch.undo()
    assert from_scratch(record.event) == incremental


def test_the_authority_matchpoint_scale_gives_the_matchpoints(field):
    # Issue #17: an authority on the 1-and-a-half scale (top n-1) gets those matchpoints, not 2/1's.
    services.set_authority_setting(
        authority=field.authority,
        key="matchpoint_scale",
        value="1/half",
        effective_from=datetime.date(2000, 1, 1),
        by=policy.SYSTEM,
    )
    services.set_effective_score(
        result=field.results[6],
        kind="weighted",
        score={"ns": [[420, "0.5"], [450, "0.3"], [-50, "0.2"]]},
        reason="Law 16B",
    )
    recalculation.recalculate_board(field.boards[0].pk)
    scores = [BoardScore.objects.get(result=r) for r in field.results]
    # Half of the 2/1 example's 11.7, 7.9, 7.9, 4.4, 2.4, 0.2 and 7.5 (scoring.md), on a top of 6.
    assert [bs.ns for bs in scores] == [
        Decimal(v) for v in ("5.8500", "3.9500", "3.9500", "2.2000", "1.2000", "0.1000", "3.7500")
    ]
    assert {bs.top for bs in scores} == {Decimal("6")}
    standing = Standing.objects.get(event=field.event, session=None, contestant=field.pairs[6])
    assert (standing.total, standing.percent) == (Decimal("3.7500"), Decimal("62.500"))


MATCH_SCORE_FIELDS = [f.attname for f in MatchScore._meta.concrete_fields if not f.primary_key]


def team_snapshot(event):
    matches = sorted(MatchScore.objects.filter(match__round__session__event=event).values_list(*MATCH_SCORE_FIELDS))
    return snapshot(event)[0], matches


@pytest.mark.parametrize("kind", [Event.Kind.TEAMS_ROUND_ROBIN, Event.Kind.KNOCKOUT_TEAMS], ids=lambda k: k.value)
def test_a_team_pass_scores_only_the_matches_its_boards_touch_and_equals_a_full_recompute(
    kind, monkeypatch, admin_user
):
    """Issue #33: a team event scored every match of the event on each change. Now a pass scores
    the matches its boards touch (here one match in three); the standings and every match's score
    stay as the full recompute gives them, through results changed, a result made not played (its
    match counted the board before) and a match penalty."""
    record = build_teams(kind=kind, teams=6, boards=4, seed=7)
    matches = list(Match.objects.filter(round__session__event=record.event).order_by("pk"))
    scored = []
    original = recalculation.teams._score_match
    monkeypatch.setattr(
        recalculation.teams, "_score_match", lambda pairs, *a, **k: scored.append(pairs) or original(pairs, *a, **k)
    )
    rng = random.Random(33)
    counts = []
    for step in range(12):
        result = random_change(rng, record, step, penalty_given={"ns": 3})  # at IMPs, in IMPs
        scored.clear()
        recalculation.recalculate_board(result.board_id)
        counts.append(len(scored))
    # The one match whose room the change was at, or none when its IMPs did not move (the same
    # score given again); never the other two matches, which played the board too.
    assert set(counts) == {0, 1} and counts.count(1) >= 8, counts
    first_match_result = Result.objects.filter(round=matches[0].round, table=matches[0].open_room).order_by("pk")[0]
    services.correct_result(
        result=first_match_result, not_played=True, contract="", declarer="", tricks=None, by=policy.SYSTEM
    )
    recalculation.recalculate_board(first_match_result.board_id)
    if kind != Event.Kind.KNOCKOUT_TEAMS:
        services.add_match_penalty(
            match=matches[1], team=matches[1].home, amount="1", unit="vps", offence="Late", by=admin_user
        )
        board = Result.objects.filter(round=matches[1].round, table=matches[1].open_room).order_by("board__number")[0]
        recalculation.recalculate_board(board.board_id)
    assert not RecalculationRequest.objects.filter(finished_at__isnull=True).exists()
    incremental = team_snapshot(record.event)
    MatchScore.objects.filter(match__round__session__event=record.event).delete()
    from_scratch(record.event)
    assert team_snapshot(record.event) == incremental


def test_a_percentage_penalty_at_imps_is_refused_when_given_not_when_scored():
    """A percentage of a top given as a penalty in a team event was saved, and the worker's
    engine refused it on every pass: the event's standings stayed pending for good."""
    record = build_teams()
    result = record.results[0]
    with pytest.raises(ValidationError) as refused:
        services.set_effective_score(
            result=result, kind="assigned", score={"ns": 420}, penalty={"ns": "25%"}, reason="x"
        )
    assert refused.value.message_dict == {
        "penalty": ["Teams is scored at IMPs: a procedural penalty is given in IMPs, not as a percentage of a top."]
    }
    assert not Result.objects.filter(pk=result.pk, effective__isnull=False).exists()
    services.set_effective_score(result=result, kind="assigned", score={"ns": 420}, penalty={"ns": 3}, reason="x")
    recalculation.recalculate_board(result.board_id)
    assert not RecalculationRequest.objects.filter(finished_at__isnull=True).exists()
