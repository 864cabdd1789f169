"""Standings are written as differences: a change rewrites only the standings rows it moved,
and after any series of changes they equal a full recompute from scratch (issue #15)."""

import math
import random
from decimal import Decimal
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import recalculation, services
from scoring.models import Standing
from scoring.recalculation import standings as standings_module

pytestmark = pytest.mark.django_db

FIELDS = (
    "session_id",
    "contestant_id",
    "total",
    "total_exact",
    "top",
    "percent",
    "field",
    "position",
    "place",
    "boards",
)


def standings(event):
    return sorted(Standing.objects.filter(event=event).values_list(*FIELDS), key=repr)


def test_an_unchanged_event_rewrites_no_standing(field):
    before = dict(Standing.objects.filter(event=field.event).values_list("pk", "total"))
    with CaptureQueriesContext(connection) as queries:
        recalculation.rescore_event(field.event.pk)
    writes = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].startswith(("INSERT", "UPDATE", "DELETE")) and "scoring_standing" in q["sql"]
    ]
    assert writes == []
    assert dict(Standing.objects.filter(event=field.event).values_list("pk", "total")) == before


def test_a_change_updates_only_the_rows_it_moves(field):
    ids = set(Standing.objects.filter(event=field.event).values_list("pk", flat=True))
    # table X (pair 7 N-S, pair 14 E-W) gets +450 instead of +420: pairs 1-7 and 8-14 move
    services.set_effective_score(
        result=field.results[6], kind="assigned", score={"ns": 450}, reason="Law 12C1e: the assigned score"
    )
    with CaptureQueriesContext(connection) as queries:
        recalculation.recalculate_board(field.boards[0].pk)
    deletes = [
        q["sql"] for q in queries.captured_queries if q["sql"].startswith("DELETE") and "scoring_standing" in q["sql"]
    ]
    assert deletes == []
    # the same rows, kept (their ids), with the new totals
    assert set(Standing.objects.filter(event=field.event).values_list("pk", flat=True)) == ids
    x_pair = field.pairs[6]
    standing = Standing.objects.get(event=field.event, session=None, contestant=x_pair)
    assert standing.total == Decimal("11")  # +450 ties the top +450: 10 + 1 of 12


def test_standings_equal_a_full_recompute_after_random_changes(field):
    rng = random.Random(15)
    scores = [
        {"ns": 620},
        {"ns": -100},
        {"ns": 420, "ew": 450},
        {"ns": [[420, "0.5"], [-50, "0.5"]]},
        {"ns": "AVE+", "ew": "AVE-"},
        {"ns": 140},
    ]
    for step in range(8):
        result = field.results[rng.randrange(len(field.results))]
        score = rng.choice(scores)
        kind = (
            "artificial"
            if score["ns"] == "AVE+"
            else "weighted"
            if isinstance(score["ns"], list)
            else "split"
            if "ew" in score
            else "assigned"
        )
        if step % 3 == 2:
            services.set_effective_score(result=result, kind="table", reason="back to the table result")
        else:
            services.set_effective_score(result=result, kind=kind, score=score, reason=f"change {step}")
        recalculation.recalculate_board(field.boards[0].pk)
    incremental = standings(field.event)
    Standing.objects.filter(event=field.event).delete()
    recalculation.rescore_everything(field.event)
    assert standings(field.event) == incremental


def test_totals_over_a_common_denominator_write_the_standings_their_fractions_write(field):
    """The incremental road gives write_standings its totals and tops as integers over one
    denominator: the same stored totals, exact texts, tops, percentages, places and ties as
    the Fractions, in windows whose sides share a top, have different tops (Neuberg), have
    no top, or total below zero."""
    event, pairs = field.event, field.pairs
    session_id = field.boards[0].session_id
    rng = random.Random(33)
    values = [Fraction(n, d) for n in (0, 7, 15, 23, -5, 140) for d in (1, 2, 3, 10, 7)]
    ties = [Fraction(15), Fraction(23, 3), Fraction(0), Fraction(-5, 2)]
    for tops in ([Fraction(96)], [Fraction(96), Fraction(48), Fraction(260, 3)], [None], [Fraction(96), None]):
        rows = []
        for window in (session_id, None):
            for pair in pairs:
                total = rng.choice(ties if rng.random() < 0.5 else values)
                rows.append((window, pair.pk, total, rng.choice(tops), rng.randint(1, 4)))
        Standing.objects.filter(event=event).delete()
        standings_module.write_standings(event, rows)
        expected = standings(event)
        common = math.lcm(*(n.denominator for *_key, total, top, _b in rows for n in (total, top) if n is not None))
        scaled = [
            (sid, cid, int(total * common), int(top * common) if top else None, boards)
            for sid, cid, total, top, boards in rows
        ]
        Standing.objects.filter(event=event).delete()
        standings_module.write_standings(event, scaled, denominator=common)
        assert standings(event) == expected
