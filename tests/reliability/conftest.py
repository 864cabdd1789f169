"""Shared pieces of the reliability tests: a field of seven tables scored by a real worker, and
the comparison of what the worker left with a from-scratch recompute."""

import pytest
from django.db import transaction

from core import policy, roles
from scoring import recalculation, services
from scoring.models import BoardScore, MatchScore, Standing
from tests.conftest import build_pairs_tournament, make_user, record_seven_tables, settled, wait_for


@pytest.fixture
def live_field(drained_worker):
    """Board 1 of a seven-table matchpoint session, recorded and scored by the worker."""
    record = build_pairs_tournament(tables=7)
    board = record.boards[0]
    with transaction.atomic():  # one task for the board, not seven
        record.results = record_seven_tables(record)
    wait_for(lambda: settled(board))
    return record


def scorers(record, count):
    users = []
    for n in range(count):
        user = make_user(f"scorer{n}")
        services.appoint_official(tournament=record.tournament, user=user, role=roles.SCORER, by=policy.SYSTEM)
        users.append(user)
    return users


def scores_of(event):
    """Everything the pipeline derives, as comparable values."""
    boards = sorted(
        BoardScore.objects.filter(result__board__session__event=event).values_list(
            "result_id", "ns", "ew", "ns_percent", "ew_percent", "ns_kind", "ew_kind"
        )
    )
    standings = sorted(
        Standing.objects.filter(event=event).values_list(
            "session_id", "contestant_id", "total", "total_exact", "percent", "position", "place", "boards"
        ),
        key=lambda row: (row[0] or 0, row[1]),
    )
    matches = sorted(
        MatchScore.objects.filter(match__round__session__event=event).values_list(
            "match_id", "home_imps", "away_imps", "home_vp", "away_vp"
        )
    )
    return {"boards": boards, "standings": standings, "matches": matches}


def assert_as_recomputed_from_scratch(event):
    """What the worker left equals a recompute of every board and the event, here and now."""
    left = scores_of(event)
    assert left["standings"], "the worker wrote no standings"
    recalculation.rescore_everything(event)
    again = scores_of(event)
    for part in again:
        assert left[part] == again[part], (part, sorted(set(left[part]) ^ set(again[part])))
