"""Migration national 0007 (issue #18): each indexed precedent takes the appeal of the casebook
case it indexes, the column becomes required, and the scoring index carries it; backwards the
column and its index go and every other value of the rows stays.

The rows are made at 0006 through the historical models (apps.get_model), the appeals they
report through the appeals services (their tables are not touched by these migrations). Runs on
either database (CI's SQLite and PostgreSQL rounds alike); the latest migrations are applied
again at the end, whatever happened, so the tests after it see the schema they expect."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from appeals import services as appeal_services
from tests.appeals.conftest import SOON, case, lodge  # noqa: F401 - case is a fixture

BEFORE = ("national", "0006_precedent_likeness_with_order")
AFTER = ("national", "0007_precedent_appeal")
TABLE = "national_precedentcase"
AT = datetime.datetime(2026, 5, 3, 12, 0, tzinfo=datetime.UTC)

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(target):
    """Migrate to ``target`` (a list of nodes) and return the models as they are there."""
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    executor.loader.build_graph()
    return executor.loader.project_state(target).apps


@pytest.fixture
def at_0006():
    """The database with national at 0006; the latest migrations of every app again after."""
    apps = migrate([BEFORE])
    yield apps
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def columns():
    with connection.cursor() as cursor:
        return {c.name: c.null_ok for c in connection.introspection.get_table_description(cursor, TABLE)}


def indexes():
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, TABLE)
    return {name for name in found if name.startswith("precedent_")}


# Every column of a precedent but the one 0007 adds, as 0006 has them.
KEPT = [
    "id",
    "case_id",
    "casebook_id",
    "authority_id",
    "ruling_id",
    "position",
    "cited",
    "laws",
    "laws_text",
    "kind",
    "outcome",
    "without_merit",
    "year",
    "language",
    "contract",
    "auction",
    "words",
    "decision",
    "title",
    "text",
]


def test_each_precedent_takes_the_appeal_of_its_case_and_loses_it_backwards(case, at_0006):  # noqa: F811
    north_south = lodge(case)
    east_west = appeal_services.lodge_appeal(
        ruling=case.ruling, by=case.director, player=case.east, grounds="The claim was not clear", now=SOON
    )
    apps = at_0006
    assert "appeal_id" not in columns()
    assert indexes() == {"precedent_likeness_order"}
    Casebook = apps.get_model("national", "Casebook")
    CasebookCase = apps.get_model("national", "CasebookCase")
    PrecedentCase = apps.get_model("national", "PrecedentCase")
    authority_id = case.record.authority.pk

    def book(title, language):
        return Casebook.objects.create(
            authority_id=authority_id,
            title=title,
            language=language,
            names="seats",
            state="published",
            created_by_id=case.director.pk,
            created_at=AT,
            published_by_id=case.director.pk,
            published_at=AT,
            content={"title": title, "cases": []},
        )

    english, hebrew = book("Spring appeals", "en"), book("ערעורי האביב", "he")
    # The English casebook reports both appeals; the Hebrew one the first again, as its case 1.
    cases = [
        CasebookCase.objects.create(casebook=english, appeal_id=north_south.pk, position=1),
        CasebookCase.objects.create(casebook=english, appeal_id=east_west.pk, position=2),
        CasebookCase.objects.create(casebook=hebrew, appeal_id=north_south.pk, position=1),
    ]
    for number, entry in enumerate(cases, start=1):
        PrecedentCase.objects.create(
            case_id=entry.pk,
            casebook_id=entry.casebook_id,
            authority_id=authority_id,
            ruling_id=case.ruling.pk,
            position=entry.position,
            cited=[{"number": "16B1", "edition": "2017"}],
            laws=" 16 16B 16B1 ",
            laws_text="16B1 Unauthorised information",
            kind="ui",
            outcome="uphold",
            year=2026,
            language=Casebook.objects.get(pk=entry.casebook_id).language,
            contract="4S",
            auction=" OPEN1:1S AT:TEMPO ",
            words=f" case{number} hesitated ",
            decision="Ruling upheld",
            title=f"Case {number}",
            text=f"North hesitated ({number}).",
        )
    before = list(PrecedentCase.objects.order_by("pk").values(*KEPT))

    after = migrate([AFTER]).get_model("national", "PrecedentCase")

    assert list(after.objects.order_by("pk").values(*KEPT, "appeal_id")) == [
        {**row, "appeal_id": appeal.pk}
        for row, appeal in zip(before, [north_south, east_west, north_south], strict=True)
    ]
    assert columns()["appeal_id"] is False  # required once every row has its appeal
    assert indexes() == {"precedent_likeness_appeal"}

    back = migrate([BEFORE]).get_model("national", "PrecedentCase")

    assert "appeal_id" not in columns()
    assert indexes() == {"precedent_likeness_order"}
    assert list(back.objects.order_by("pk").values(*KEPT)) == before
