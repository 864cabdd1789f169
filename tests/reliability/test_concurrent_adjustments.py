"""Issue #19: 10 clients making 10 adjustments each to one board through the API while a real
worker rescores it. On PostgreSQL the request took the result's lock before the board's and the
worker the board's before its board scores' foreign keys reached the results: 43-67 of 100
requests died with "deadlock detected" (HTTP 500). Every change must land as if made one after
the other, with no error, and the standings must equal a from-scratch recompute."""

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from scoring.models import EffectiveScore, ScoreChange
from tests.conftest import settled, wait_for
from tests.reliability.conftest import assert_as_recomputed_from_scratch, scorers

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

CLIENTS = 10
CHANGES_EACH = 10
SCORES = [420, 450, -50, 170, 140, 110, 620, -100, 400, 200]


def adjust_concurrently(users, result_for):
    """Each user in a thread of its own (its own database connection) posts CHANGES_EACH
    adjustments; returns the status codes that were not 201, with their bodies."""
    barrier = threading.Barrier(len(users))
    failures = []

    def client_run(n, user):
        client = APIClient()
        try:
            client.force_login(user)
            barrier.wait(timeout=30)
            for k in range(CHANGES_EACH):
                result = result_for(n, k)
                response = client.post(
                    f"/api/v1/results/{result.pk}/effective-score/",
                    {
                        "kind": "assigned",
                        "score": {"ns": SCORES[(n + k) % len(SCORES)]},
                        "reason": f"client {n}, change {k}",
                    },
                    format="json",
                )
                if response.status_code != 201:
                    failures.append((n, k, response.status_code, response.content[:300]))
        except Exception as error:  # noqa: BLE001 - a server error raised through the test client
            failures.append((n, None, "exception", repr(error)))
        finally:
            connection.close()

    threads = [threading.Thread(target=client_run, args=(n, user)) for n, user in enumerate(users)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a client is still waiting"
    return failures


def assert_serial(results):
    """Each result's change log is a chain (every change starts from the previous one's score)
    and ends at the score the result counts for now: as if the changes came one at a time."""
    for result in results:
        changes = list(ScoreChange.objects.filter(result=result).order_by("pk"))
        previous = None
        for change in changes:
            assert change.old_value == previous, (result.pk, change.pk)
            previous = change.new_value
        effective = EffectiveScore.objects.filter(result=result).first()
        assert (effective.score if effective else None) == previous


@pytest.mark.parametrize("target", ["each on its own result", "all on one result"])
def test_100_concurrent_adjustments_through_the_api_all_land(live_field, target):
    users = scorers(live_field, CLIENTS)
    results = live_field.results
    if target == "all on one result":

        def result_for(n, k):
            return results[6]
    else:

        def result_for(n, k):
            return results[(n + k) % len(results)]

    failures = adjust_concurrently(users, result_for)
    assert failures == []
    assert ScoreChange.objects.filter(result__board=live_field.boards[0]).count() == CLIENTS * CHANGES_EACH
    assert_serial(results)
    wait_for(lambda: settled(live_field.boards[0]), timeout=60)
    assert_as_recomputed_from_scratch(live_field.event)
