"""The suite-wide guard (tests/audit_guard.py, installed by tests/conftest.py for every test):
a write of an audited record by the project's code outside an audited transaction is caught,
named by model and line; an audited service's writes, and a test's own, are not (issue #19)."""

import textwrap

import pytest
from django.db import transaction

from audit.models import AuditEntry
from rulings.models import Ruling
from tests import audit_guard

pytestmark = pytest.mark.django_db(transaction=True)

# Code the guard sees as the project's: compiled under a file name in an app's folder.
SOURCE = textwrap.dedent(
    """
    from django.db import transaction

    from audit import services as audit
    from rulings.models import Ruling


    def change_unaudited(ruling):
        Ruling.objects.filter(pk=ruling.pk).update(ruling_text="changed")


    def change_in_a_transaction_unaudited(ruling):
        with transaction.atomic():
            ruling.ruling_text = "changed"
            ruling.save(update_fields=["ruling_text"])


    def change_audited(ruling):
        with transaction.atomic():
            Ruling.objects.filter(pk=ruling.pk).update(ruling_text="changed")
            audit.record(action="ruling.changed", obj=ruling, summary="changed")


    def store_double_dummy(ruling):
        Ruling.objects.filter(pk=ruling.pk).update(double_dummy=None, double_dummy_error="no deal")
    """
)
FILE = str(audit_guard.ROOT / "rulings" / "code_under_test.py")


@pytest.fixture
def project():
    namespace = {}
    exec(compile(SOURCE, FILE, "exec"), namespace)  # noqa: S102 - the test's own source above
    return namespace


@pytest.fixture
def ruling(case):
    return case.ruling


def test_an_unaudited_write_in_autocommit_is_caught_with_its_line(project, ruling):
    project["change_unaudited"](ruling)
    assert audit_guard.take_offences() == [
        f"rulings.Ruling updated (QuerySet.update) at {FILE}:9 (change_unaudited), in no transaction"
    ]


def test_an_unaudited_save_in_a_transaction_is_caught_when_it_commits(project, ruling):
    project["change_in_a_transaction_unaudited"](ruling)
    assert audit_guard.take_offences() == [
        f"rulings.Ruling saved at {FILE}:15 (change_in_a_transaction_unaudited), in a transaction with no audit entry"
    ]


def test_an_audited_write_passes(project, ruling):
    entries = AuditEntry.objects.count()
    project["change_audited"](ruling)
    assert audit_guard.take_offences() == []
    assert AuditEntry.objects.count() == entries + 1


def test_a_rolled_back_write_is_no_offence(project, ruling):
    with pytest.raises(RuntimeError), transaction.atomic():
        project["change_in_a_transaction_unaudited"](ruling)
        raise RuntimeError("rolled back")
    # The test's own transaction is judged like the project's: the write inside it rolled back.
    assert audit_guard.take_offences() == []
    ruling.refresh_from_db()
    assert ruling.ruling_text != "changed"


def test_the_double_dummy_table_a_worker_stores_is_not_the_record(project, ruling):
    project["store_double_dummy"](ruling)
    assert audit_guard.take_offences() == []


def test_a_tests_own_writes_are_not_the_projects(ruling):
    Ruling.objects.filter(pk=ruling.pk).update(ruling_text="set up by the test")
    assert audit_guard.take_offences() == []
