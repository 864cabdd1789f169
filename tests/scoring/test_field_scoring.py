"""A simultaneous field scored by the fast roads (issue #33).

A board of plain results is written by the database from its distinct scores, the standings of
sides without an artificial score are summed in integers, and a club's upload takes the pass
that writes every board so. Each must give exactly what the road of model instances gives: the
engine's values of every result (``engine_scores`` and ``board_values``) and the session rule
(``session_score``) over every side's boards, on boards with ties, results not played, boards
played a different number of times (Neuberg), and adjusted, weighted and artificial scores.
"""

import datetime
import random
from collections import defaultdict
from fractions import Fraction

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from bridge.engine import matchpoints as mp_engine
from bridge.engine.ranking import rank
from core import policy
from scoring import recalculation, services
from scoring.models import Board, BoardScore, Event, Result, Standing
from tests.scoring.test_incremental import CONTRACTS, SCORES

pytestmark = pytest.mark.django_db


def build_field(code, clubs, tables=3, boards=4, sessions=1, seed=7):
    """``clubs`` clubs of ``tables`` tables playing the same ``boards`` boards a session (a
    Mitchell in each club), every result through the services. Returns the event, its
    boards and what an upload needs: {club: [(board, round, table, N-S, E-W)]}."""
    authority = services.create_authority(name=f"Body {code}", code=code, time_zone="UTC", by=policy.SYSTEM)
    tournament = services.create_tournament(
        authority=authority,
        name=f"Sim {code}",
        start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 1),
        by=policy.SYSTEM,
    )
    event = services.create_event(
        tournament=tournament, name="Simultaneous", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )
    pairs = [
        services.enter_contestant(event=event, number=n, members=[], by=policy.SYSTEM)
        for n in range(1, 2 * clubs * tables + 1)
    ]
    board_list, seats = [], defaultdict(list)
    for s in range(1, sessions + 1):
        session = services.create_session(event=event, number=s, is_last=s == sessions, by=policy.SYSTEM)
        table_list = services.add_tables(section=session.sections.get(), count=clubs * tables, by=policy.SYSTEM)
        rounds = services.add_rounds(session=session, count=boards, by=policy.SYSTEM)
        for b in range(boards):
            board = services.create_board(session=session, number=(s - 1) * boards + b + 1, by=policy.SYSTEM)
            board_list.append(board)
            for club in range(clubs):
                club_pairs = pairs[club * 2 * tables : (club + 1) * 2 * tables]
                for t in range(tables):
                    ns, ew = club_pairs[t], club_pairs[tables + (t + b + s) % tables]
                    seats[club].append((board, rounds[b], table_list[club * tables + t], ns, ew))
    rng = random.Random(seed)
    with transaction.atomic():
        for club in range(clubs - 1):  # the last club uploads later
            record(seats[club], rng)
    recalculation.rescore_everything(event)
    return event, board_list, seats


def record(club_seats, rng):
    for board, round_, table, ns, ew in club_seats:
        contract, declarer, tricks = rng.choice(CONTRACTS)  # few contracts: many ties
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


def reference_board_scores(event):
    """{result id: board score values} as the road of model instances scores every board."""
    regs, expected = recalculation.regulations(event), {}
    values = {}
    for board in Board.objects.filter(session__event=event):
        if board.session_id not in expected:
            expected[board.session_id] = recalculation.board.session_plays(board.session_id)
        results = list(Result.objects.filter(board=board).select_related("effective"))
        scores = recalculation.board.engine_scores(event, results, regs, expected[board.session_id])
        values.update(recalculation.board.board_values(results, scores))
    return values


def stored_board_scores(event):
    rows = BoardScore.objects.filter(result__board__session__event=event).values_list(
        "result_id", *recalculation.BOARD_SCORE_VALUES
    )
    return {result_id: tuple(values) for result_id, *values in rows}


def reference_standings(event, counted):
    """{(session, contestant): (total_exact, top, boards)} by the session rule over each side's
    stored board scores (every side through session_score), and the event's totals;
    ``counted`` gets each artificial score's matchpoints less its penalty ({(result, side): value})."""
    regs = recalculation.regulations(event)
    plus, minus = Fraction(regs["average_plus_percent"]), Fraction(regs["average_minus_percent"])
    sides = defaultdict(list)
    scores = BoardScore.objects.filter(result__board__session__event=event, ns__isnull=False)
    for row in scores.values_list(
        "result_id", "top", "ns_kind", "ew_kind", "ns_raw", "ew_raw", "ns_penalty", "ew_penalty", "result__ns_id", "result__ew_id",
        "result__board__session_id",
    ):  # fmt: skip
        result_id, top, ns_kind, ew_kind, ns_raw, ew_raw, ns_pen, ew_pen, ns_id, ew_id, session_id = row
        top = Fraction(str(top))
        for key, side, kind, raw, pen in (
            ((session_id, ns_id), "ns", ns_kind, ns_raw, ns_pen),
            ((session_id, ew_id), "ew", ew_kind, ew_raw, ew_pen),
        ):
            sides[key].append(
                ((result_id, side), mp_engine.SideBoard(Fraction(raw or 0), top, kind, Fraction(pen or 0)))
            )
    totals = {}
    for key, items in sides.items():
        boards = [board for _where, board in items]
        session = mp_engine.session_score(boards, plus=plus, minus=minus)
        for (where, board), value in zip(items, session.boards):
            counted[where] = value - board.penalty
        totals[key] = (session.matchpoints, session.top, len(boards))
        total, top, count = totals.get((None, key[1]), (0, 0, 0))
        totals[(None, key[1])] = (total + session.matchpoints, top + session.top, count + len(boards))
    return {key: (Fraction(total), Fraction(top), count) for key, (total, top, count) in totals.items()}


def stored_standings(event):
    rows = Standing.objects.filter(event=event).values_list(
        "session_id", "contestant_id", "total_exact", "top", "boards"
    )
    return {(sid, cid): (Fraction(total), Fraction(str(top)), boards) for sid, cid, total, top, boards in rows}


def assert_as_the_model_road(event):
    """The board scores the engine gives every result; an artificial score's matchpoints are
    then the session rule's (Law 12C2c: the side's percentage on its real boards), as
    reference_standings counts them; and the standings of the session rule."""
    stored, reference = stored_board_scores(event), reference_board_scores(event)
    counted = {}
    assert stored_standings(event) == reference_standings(event, counted)
    values = recalculation.BOARD_SCORE_VALUES
    for result_id, row in reference.items():
        row = dict(zip(values, row))
        for side in ("ns", "ew"):
            if row[f"{side}_kind"] in ("AVE+", "AVE-"):
                row[side] = recalculation.board.to_decimal(counted[(result_id, side)])
                row[f"{side}_percent"] = recalculation.board.to_decimal(
                    counted[(result_id, side)] * 100 / Fraction(row["top"]), recalculation.board.THREE
                )
        reference[result_id] = tuple(row[name] for name in values)
    assert stored == reference


def vary(event, board_list, seed):
    """Adjusted, weighted and artificial scores on some boards (they take the road of model
    instances), results not played, and a board played fewer times (Neuberg)."""
    rng = random.Random(seed)
    results = list(Result.objects.filter(board__session__event=event).order_by("pk"))
    with transaction.atomic():
        for step, result in enumerate(rng.sample(results, 4)):
            kind, score = SCORES[(seed + step * 3) % len(SCORES)]
            services.set_effective_score(result=result, kind=kind, score=score, reason=f"ruling {step}")
        services.set_effective_score(  # a procedural penalty on an assigned score
            result=results[seed], kind="assigned", score={"ns": 420}, penalty={"ns": "25%"}, reason="penalty"
        )
        for result in rng.sample([r for r in results if r.board_id == board_list[-1].pk], 2):
            services.correct_result(
                result=result, not_played=True, contract="", declarer="", tricks=None, score_ns=None, by=policy.SYSTEM
            )
    Result.objects.filter(pk=Result.objects.filter(board=board_list[1]).order_by("-pk").values("pk")[:1]).delete()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_field_rescored_from_scratch_equals_the_road_of_model_instances(seed):
    event, board_list, _seats = build_field(f"sim-scratch-{seed}", clubs=3, sessions=2, seed=seed)
    assert_as_the_model_road(event)
    vary(event, board_list, seed)
    Standing.objects.filter(event=event).delete()
    recalculation.rescore_everything(event)
    assert BoardScore.objects.filter(result__board__session__event=event).exclude(ns_kind="real").exists()
    assert_as_the_model_road(event)


@pytest.mark.parametrize("seed", [4, 5])
def test_a_clubs_upload_places_its_pairs_as_a_full_recompute(seed, monkeypatch):
    """The pass after an upload (new results on every board) writes the boards from their
    distinct scores and recomputes the standings: the same board scores and standings as the
    road of model instances, with adjusted and artificial scores elsewhere in the field."""
    event, board_list, seats = build_field(f"sim-upload-{seed}", clubs=4, seed=seed)
    vary(event, board_list, seed)
    recalculation.recalculate_event(event.pk)
    written = []
    real = recalculation.pipeline.write_plain_board_scores
    monkeypatch.setattr(
        recalculation.pipeline,
        "write_plain_board_scores",
        lambda board, *args, **kw: written.append(board.pk) or real(board, *args, **kw),
    )
    with transaction.atomic():
        record(seats[3], random.Random(seed))
    recalculation.recalculate_event(event.pk)
    assert written  # the boards with new results took the database's road
    last_pair = seats[3][0][3]
    assert Standing.objects.filter(event=event, session=None, contestant=last_pair).exists()
    assert_as_the_model_road(event)


def upload_queries(clubs):
    event, _boards, seats = build_field(f"sim-q{clubs}", clubs=clubs, tables=2, boards=3)
    with transaction.atomic():
        record(seats[clubs - 1], random.Random(1))
    with CaptureQueriesContext(connection) as queries:
        recalculation.recalculate_event(event.pk)
    assert Standing.objects.filter(event=event, session=None).count() == clubs * 4
    return len(queries)


def test_the_upload_pass_makes_as_many_queries_however_many_clubs_the_field_holds():
    assert upload_queries(3) == upload_queries(9)


def test_ranking_by_float_then_exact_value_gives_the_places_of_exact_comparison():
    """rank() sorts numbers by their float and the exact value only among equal floats: the
    places are those of comparing the exact values (ties shared, equal floats kept apart)."""
    rng = random.Random(33)
    tiny = Fraction(1, 10**30)  # totals a float cannot tell apart
    totals = {n: Fraction(rng.randint(0, 40), rng.choice((1, 2, 3, 7))) for n in range(400)}
    totals.update(
        {1000: Fraction(1, 3) + tiny, 1001: Fraction(1, 3), 1002: Fraction(1, 3) - tiny, 1003: Fraction(1, 3)}
    )
    placings = rank(totals)
    ordered = sorted(totals, key=lambda cid: totals[cid], reverse=True)
    assert [p.id for p in placings] == ordered
    for p in placings:
        better = sum(1 for value in totals.values() if value > totals[p.id])
        equal = sum(1 for value in totals.values() if value == totals[p.id])
        assert (p.place, p.shared) == (better + 1, equal > 1)
