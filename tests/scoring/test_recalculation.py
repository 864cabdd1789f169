"""Adjusted scores reach board scores, totals and standings; the pipeline is safe to repeat.

These run the pipeline in-process; tests/scoring/test_worker.py runs it in a real worker.
"""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction

from core import policy
from scoring import recalculation, services
from scoring.models import Board, BoardScore, RecalculationRequest, ScoreChange, Standing
from tests.conftest import TABLE_RESULTS, build_pairs_tournament, make_user, table_result

pytestmark = pytest.mark.django_db


def ns_scores(record):
    return [BoardScore.objects.get(result=r).ns for r in record.results]


def weighted_x(record, **extra):
    return services.set_effective_score(
        result=record.results[6],
        kind="weighted",
        score={"ns": [[420, "0.5"], [450, "0.3"], [-50, "0.2"]]},
        reason="Law 16B: the 4S bid was suggested by the hesitation",
        cause_type="ruling",
        cause_id=17,
        cause_label="ruling 17",
        description="weighted 50% 4S= / 30% 4S+1 / 20% 4S-1",
        **extra,
    )


def test_plain_board_is_matchpointed(field):
    # +450, +420 x3 (table X is still +420), +170, +140, -50 on a top of 12.
    assert ns_scores(field) == [Decimal(v) for v in ("12", "8", "8", "4", "2", "0", "8")]


def test_a_weighted_score_reaches_board_scores_totals_and_standings(field):
    director = make_user("td")
    change = weighted_x(field, by=director)
    assert change.ns_before == Decimal("8")
    assert RecalculationRequest.objects.filter(finished_at__isnull=True).count() == 1
    recalculation.recalculate_board(field.boards[0].pk)
    # The scoring.md example: 11.7, 7.9, 7.9, 4.4, 2.4, 0.2 and table X 7.5.
    rounded = [v.quantize(Decimal("0.1")) for v in ns_scores(field)]
    assert rounded == [Decimal(v) for v in ("11.7", "7.9", "7.9", "4.4", "2.4", "0.2", "7.5")]
    assert sum(ns_scores(field)).quantize(Decimal("0.001")) == Decimal("42.000")
    x_pair = field.pairs[6]
    standing = Standing.objects.get(event=field.event, session=None, contestant=x_pair)
    assert standing.total.quantize(Decimal("0.1")) == Decimal("7.5")
    assert RecalculationRequest.objects.filter(finished_at__isnull=True).count() == 0
    change.refresh_from_db()
    assert change.explain("NS") == (
        "Board 1: 4S N = +420 replaced by weighted 50% 4S= / 30% 4S+1 / 20% 4S-1 by ruling 17, 8 -> 7.5 MP"
    )


def test_a_split_score_gives_the_two_directions_different_results(field):
    services.set_effective_score(
        result=field.results[6],
        kind="split",
        score={"ns": 420, "ew": 450},
        reason="E-W offended: they get the worse result",
    )
    recalculation.recalculate_board(field.boards[0].pk)
    x = BoardScore.objects.get(result=field.results[6])
    # scoring.md: N-S of table X score 8, E-W of table X 1; the two sides add up to 9, not 12.
    assert (x.ns, x.ew) == (Decimal("8"), Decimal("1"))


def test_back_to_the_table_result_restores_the_scores(field):
    weighted_x(field)
    recalculation.recalculate_board(field.boards[0].pk)
    services.set_effective_score(result=field.results[6], kind="table", reason="Appeal upheld the table result")
    recalculation.recalculate_board(field.boards[0].pk)
    assert ns_scores(field) == [Decimal(v) for v in ("12", "8", "8", "4", "2", "0", "8")]
    assert ScoreChange.objects.count() == 2


def test_a_stale_or_repeated_task_writes_nothing(field):
    board = field.boards[0]
    weighted_x(field)
    assert recalculation.rescore_board(board.pk) is True
    before = list(BoardScore.objects.order_by("pk").values_list("ns", "ew", "board_version"))
    # The same task again (a redelivery), and an old one arriving late, change nothing.
    assert recalculation.rescore_board(board.pk) is False
    assert recalculation.recalculate_board(board.pk) is False
    assert list(BoardScore.objects.order_by("pk").values_list("ns", "ew", "board_version")) == before


def test_two_changes_then_one_run_equal_two_runs(field):
    board = field.boards[0]
    services.set_effective_score(result=field.results[6], kind="assigned", score={"ns": 450}, reason="first")
    services.set_effective_score(result=field.results[5], kind="assigned", score={"ns": 170}, reason="second")
    recalculation.recalculate_board(board.pk)
    coalesced = ns_scores(field)
    Board.objects.filter(pk=board.pk).update(scored_version=0)
    recalculation.recalculate_board(board.pk)
    assert ns_scores(field) == coalesced
    # +450 twice, +420 twice, +170 twice, +140: the two +170s beat one result and tie one.
    assert coalesced[6] == Decimal("11") and coalesced[5] == Decimal("3")


def test_average_plus_takes_the_pairs_session_percentage_when_higher(db):
    record = build_pairs_tournament(tables=2)
    b1, b2 = record.boards
    # Pair 1 beats pair 2's line on board 2 (100%), and gets AVE+ on board 1.
    r1 = table_result(record, 0, b1, not_played=True)
    table_result(record, 1, b1, contract="3NT", declarer="S", tricks=9)
    table_result(record, 0, b2, contract="4S", declarer="N", tricks=11)
    table_result(record, 1, b2, contract="4S", declarer="N", tricks=10)
    services.set_effective_score(
        result=r1, kind="artificial", score={"ns": "AVE+", "ew": "AVE-"}, reason="Fouled board at table 1: E-W at fault"
    )
    recalculation.rescore_everything(record.event)
    x = BoardScore.objects.get(result=r1)
    # Board 2's top is 2: pair 1 scored 100% there, so its AVE+ becomes 100%, E-W's AVE- their 0%.
    assert (x.ns, x.ew) == (Decimal("2"), Decimal("0"))
    standing = Standing.objects.get(event=record.event, session=None, contestant=record.pairs[0])
    assert standing.percent == Decimal("100.000")


def test_regulations_limit_adjusted_scores_with_a_message(field):
    result = field.results[6]
    with pytest.raises(ValidationError) as exc:
        services.set_effective_score(
            result=result, kind="weighted", reason="x", score={"ns": [[420, "0.5"], [450, "0.4"]]}
        )
    assert exc.value.message_dict == {"score": ["board 1, table 7, ns: weights add up to 0.9, not 1"]}
    with pytest.raises(ValidationError) as exc:
        services.set_effective_score(
            result=result, kind="weighted", reason="x", score={"ns": [[420, "0.333"], [450, "0.333"], [-50, "0.334"]]}
        )
    assert "0.333" in exc.value.message_dict["score"][0]
    six = [[420, "1/6"]] * 6
    with pytest.raises(ValidationError) as exc:
        services.set_effective_score(result=result, kind="weighted", reason="x", score={"ns": six})
    assert "6 components" in exc.value.message_dict["score"][0]
    services.set_authority_setting(
        authority=field.authority,
        key="weighted_scores_allowed",
        value=False,
        effective_from=datetime.date(2000, 1, 1),
        by=policy.SYSTEM,
    )
    with pytest.raises(ValidationError) as exc:
        weighted_x(field)
    assert exc.value.message_dict["score"][0].startswith(
        "Club Championship body does not allow weighted scores: assign one result to each side"
    )
    with pytest.raises(ValidationError) as exc:
        services.set_effective_score(result=result, kind="assigned", score={"ns": 420}, reason=" ")
    assert exc.value.message_dict == {"reason": ["Say why the score changes: the players will ask."]}
    assert not ScoreChange.objects.exists()


def test_sweep_reenqueues_what_no_worker_finished(field, monkeypatch):
    sent = []
    monkeypatch.setattr(recalculation.queue, "enqueue", lambda board_id: sent.append(board_id) or True)
    weighted_x(field)
    assert recalculation.sweep(older_than=datetime.timedelta(0)) == 1
    assert sent == [field.boards[0].pk]


def test_a_rolled_back_change_does_not_stop_later_ones_from_being_sent(
    record, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(recalculation.queue, "enqueue", lambda board_id: sent.append(board_id) or True)
    play = dict(
        board=record.boards[0],
        round=record.round,
        table=record.tables[0],
        ns=record.pairs[0],
        ew=record.pairs[2],
        contract="3NT",
        declarer="S",
        tricks=9,
    )
    with pytest.raises(RuntimeError), transaction.atomic():
        services.record_result(**play, by=policy.SYSTEM)
        raise RuntimeError("the request failed after the change")
    with django_capture_on_commit_callbacks(execute=True):
        services.record_result(**play, by=policy.SYSTEM)
    assert sent == [record.boards[0].pk]


def test_a_task_that_dies_half_way_leaves_nothing_half_written(field, monkeypatch):
    board = field.boards[0]
    weighted_x(field)
    before = list(BoardScore.objects.order_by("pk").values_list("ns", "ew", "board_version"))

    def die(*args, **kwargs):
        raise SystemExit("worker killed")  # after the board scores were written, before the commit

    monkeypatch.setattr(recalculation.diff, "complete_change_log", die)
    with pytest.raises(SystemExit):
        recalculation.recalculate_board(board.pk)
    assert list(BoardScore.objects.order_by("pk").values_list("ns", "ew", "board_version")) == before
    board.refresh_from_db()
    assert board.scored_version < board.score_version
    assert RecalculationRequest.objects.filter(board=board, finished_at__isnull=True).exists()
    monkeypatch.undo()
    recalculation.recalculate_board(board.pk)  # the redelivered task, or the sweep's
    assert BoardScore.objects.get(result=field.results[6]).ns == Decimal("7.5")


def test_a_board_played_fewer_times_is_scaled_to_the_sessions_most_played_with_neuberg(db):
    # docs/scoring.md's worked numbers: 7 expected, 5 real results +650, +620, +170, +140, -100
    # (board 2, N-S vulnerable; raw 8, 6, 4, 2, 0) become 11.6, 8.8, 6.0, 3.2, 0.4 (issue #29).
    record = build_pairs_tournament(tables=7, code="neuberg")
    board1, board2 = record.boards
    for table, (contract, tricks) in enumerate([("4S", 11), ("4S", 10), ("3S", 10), ("3S", 9), ("4S", 9)]):
        table_result(record, table, board=board2, contract=contract, declarer="N", tricks=tricks)
    recalculation.recalculate_board(board2.pk)
    scores = BoardScore.objects.filter(result__board=board2).order_by("result__table__number")
    assert [(s.ns, s.top) for s in scores] == [(Decimal(v), Decimal(8)) for v in ("8", "6", "4", "2", "0")]
    # Board 1 is played at all seven tables: board 2 is scored again, to a top of 12.
    for table, (contract, declarer, tricks) in enumerate([*TABLE_RESULTS, ("2S", "N", 8)]):
        table_result(record, table, board=board1, contract=contract, declarer=declarer, tricks=tricks)
    recalculation.recalculate_board(board1.pk)  # the event's pending boards, board 2 with them
    assert [(s.ns, s.ew, s.top) for s in scores.all()] == [
        (Decimal(ns), Decimal(ew), Decimal(12))
        for ns, ew in (("11.6", "0.4"), ("8.8", "3.2"), ("6", "6"), ("3.2", "8.8"), ("0.4", "11.6"))
    ]
    # The pair at table 1 scored 12 (+450) and 11.6 of 24.
    assert Standing.objects.get(event=record.event, session=None, contestant=record.pairs[0]).total == Decimal("23.6")
