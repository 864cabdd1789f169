"""The retry of a transaction aborted for a concurrent one, and the answer when it still fails."""

import json

import pytest
from django.db import IntegrityError, OperationalError, transaction
from django.test import RequestFactory

from core.retry import DatabaseTroubleMiddleware, atomic_with_retry, is_conflict


class Deadlock(Exception):
    sqlstate = "40P01"


def deadlock():
    error = OperationalError("deadlock detected")
    error.__cause__ = Deadlock()
    return error


def test_a_conflict_is_recognised_and_other_errors_are_not():
    assert is_conflict(deadlock())
    assert is_conflict(OperationalError("database is locked"))
    assert not is_conflict(IntegrityError("duplicate key"))
    assert not is_conflict(ValueError("deadlock detected"))


@pytest.mark.django_db(transaction=True)
def test_a_service_aborted_by_a_deadlock_runs_again_in_a_fresh_transaction(monkeypatch):
    monkeypatch.setattr("core.retry.time.sleep", lambda seconds: None)
    calls = []

    @atomic_with_retry
    def service():
        calls.append(transaction.get_connection().in_atomic_block)
        if len(calls) < 3:
            raise deadlock()
        return "done"

    assert service() == "done"
    assert calls == [True, True, True]


@pytest.mark.django_db(transaction=True)
def test_other_errors_are_not_retried_and_the_retries_end(monkeypatch):
    monkeypatch.setattr("core.retry.time.sleep", lambda seconds: None)
    calls = []

    @atomic_with_retry
    def refused():
        calls.append(1)
        raise IntegrityError("duplicate key")

    with pytest.raises(IntegrityError):
        refused()
    assert calls == [1]

    @atomic_with_retry
    def always_deadlocked():
        calls.append(2)
        raise deadlock()

    with pytest.raises(OperationalError):
        always_deadlocked()
    assert calls.count(2) == 8


@pytest.mark.django_db(transaction=True)
def test_inside_a_callers_transaction_the_caller_is_the_one_to_retry():
    calls = []

    @atomic_with_retry
    def service():
        calls.append(1)
        raise deadlock()

    with pytest.raises(OperationalError), transaction.atomic():
        service()
    assert calls == [1]


def test_a_conflict_that_escapes_answers_503_with_retry_after_not_500():
    middleware = DatabaseTroubleMiddleware(lambda request: None)
    api = middleware.process_exception(RequestFactory().post("/api/v1/results/1/effective-score/"), deadlock())
    assert api.status_code == 503 and api["Retry-After"] == "1"
    assert "send your change again" in json.loads(api.content)["detail"][0]
    page = middleware.process_exception(RequestFactory().post("/rulings/1/"), deadlock())
    assert page.status_code == 503 and page["Retry-After"] == "1"
    assert middleware.process_exception(RequestFactory().get("/"), ValueError("x")) is None
