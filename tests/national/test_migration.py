"""The casebook tables moved from appeals to national: a database of the old layout, with a
final casebook in it, migrates to the new one and keeps the casebook whole."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

OLD = [("appeals", "0003_casebook_expert_ratings"), ("national", None)]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


def _latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_casebooks_of_the_old_layout_arrive_intact():
    old = _migrate(OLD)
    User = old.get_model("auth", "User")
    Authority = old.get_model("scoring", "RegulatingAuthority")
    Casebook = old.get_model("appeals", "Casebook")
    editor = User.objects.create(username="editor")
    authority = Authority.objects.create(name="Old Federation", code="old")
    at = datetime.datetime(2026, 5, 1, 12, 0, tzinfo=datetime.UTC)
    book = Casebook.objects.create(
        authority=authority,
        title="Spring appeals",
        language="en",
        names="seats",
        state="final",
        created_by=editor,
        created_at=at,
        published_by=editor,
        published_at=at,
        finalised_by=editor,
        finalised_at=at,
        content={"cases": [{"number": 1, "facts": "North hesitated."}]},
        digest="ab" * 32,
    )
    assert "appeals_casebook" in connection.introspection.table_names()

    new = _migrate(_latest())

    tables = connection.introspection.table_names()
    assert "national_casebook" in tables and "national_casebookcase" in tables
    assert "appeals_casebook" not in tables and "appeals_casebookcase" not in tables
    moved = new.get_model("national", "Casebook").objects.get(pk=book.pk)
    assert (moved.title, moved.state, moved.digest) == ("Spring appeals", "final", "ab" * 32)
    assert moved.content == {"cases": [{"number": 1, "facts": "North hesitated."}]}
    assert moved.authority.code == "old" and moved.finalised_by.username == "editor"
    ContentType = new.get_model("contenttypes", "ContentType")
    assert not ContentType.objects.filter(app_label="appeals", model="casebook").exists()
