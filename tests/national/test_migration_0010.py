"""Migration national 0010 (issue #32): a push's last error kept as text before becomes the code
"text" with that text as its parameter (shown as it was); backwards the text comes back. Runs on
either database; the latest migrations are applied again at the end."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from national.federation import messages
from tests.conftest import build_pairs_tournament

BEFORE = ("national", "0009_federation")
AFTER = ("national", "0010_push_error_code")
AT = datetime.datetime(2026, 5, 3, 12, 0, tzinfo=datetime.UTC)

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    executor.loader.build_graph()
    return executor.loader.project_state(target).apps


@pytest.fixture
def at_0009():
    record = build_pairs_tournament()
    apps = migrate([BEFORE])
    yield apps, record
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_a_text_error_becomes_a_code_and_comes_back(at_0009):
    apps, record = at_0009
    target = apps.get_model("national", "PublishTarget").objects.create(url="https://nbb.example/", token="t")
    Push = apps.get_model("national", "Push")
    failed = Push.objects.create(
        target=target, tournament_id=record.tournament.pk, last_error="PUT uploads/ab/parts/2/: ConnectionError"
    )
    clean = Push.objects.create(target=target, tournament_id=record.tournament.pk, state="delivered")
    Push = migrate([AFTER]).get_model("national", "Push")
    rows = {p.pk: (p.error_code, p.error_params) for p in Push.objects.all()}
    assert rows == {
        failed.pk: ("text", {"text": "PUT uploads/ab/parts/2/: ConnectionError"}),
        clean.pk: ("", {}),
    }
    assert messages.render(*rows[failed.pk]) == "PUT uploads/ab/parts/2/: ConnectionError"
    Push = migrate([BEFORE]).get_model("national", "Push")
    assert dict(Push.objects.values_list("pk", "last_error")) == {
        failed.pk: "PUT uploads/ab/parts/2/: ConnectionError",
        clean.pk: "",
    }
