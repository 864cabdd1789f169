"""The statistics page's appeal counts come from one query (issue #19: the page took 31
queries, twelve of them COUNTs of the same appeals): the counts the demo leaves at zero
(lodged under an extension, lodged late, decided late) still count, and the page's queries are
pinned so they cannot grow back."""

import datetime

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from appeals.models import Appeal, DeadlineExtension
from rulings.models import Ruling
from tests.national.test_search import DEMO, demo_record  # noqa: F401 - the shared module fixture

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)
QUERIES = 15  # 31 before issue #19's follow-up


def demo_appeals():
    return Appeal.objects.filter(ruling__result__board__session__event__tournament__name=DEMO)


def statistics_page(client, demo_record, **query):  # noqa: F811
    client.force_login(demo_record.authority.auditors.get().user)
    response = client.get(reverse("national:national-statistics"), query)
    assert response.status_code == 200
    return response


def _extend(appeal, until):
    return DeadlineExtension.objects.create(
        ruling=appeal.ruling,
        until=until,
        reason="Players were at the prize giving",
        granted_by=appeal.ruling.director,
        granted_at=appeal.deadline,
    )


def test_lodged_late_under_an_extension_and_decided_late(client, demo_record):  # noqa: F811
    timed = list(demo_appeals().filter(deadline__isnull=False, decided_at__isnull=True).order_by("number"))
    extended, late, also_late = timed[:3]
    # An hour after the deadline, within an extension to two hours after it.
    Appeal.objects.filter(pk=extended.pk).update(
        lodged_at=F("deadline") + HOUR, extension=_extend(extended, extended.deadline + 2 * HOUR)
    )
    # An hour after the deadline, with no extension; and two hours after, past its extension.
    Appeal.objects.filter(pk=late.pk).update(lodged_at=F("deadline") + HOUR)
    Appeal.objects.filter(pk=also_late.pk).update(
        lodged_at=F("deadline") + 2 * HOUR, extension=_extend(also_late, also_late.deadline + HOUR)
    )
    # One of the two decided appeals decided after the start of the next session.
    decided = demo_appeals().filter(decided_at__isnull=False, decide_by__isnull=False).order_by("number")
    assert decided.count() == 2
    Appeal.objects.filter(pk=decided.first().pk).update(decided_at=F("decide_by") + HOUR)

    figures = statistics_page(client, demo_record).context["figures"]
    assert {str(k): v for k, v in figures["deadlines"]["decided"]} == {"Decided in time": 1, "Decided late": 1}
    assert {str(k): v for k, v in figures["deadlines"]["lodged"]} == {
        "Lodged in time": 4,
        "Lodged under an extension": 1,
        "Lodged late": 2,
    }
    assert figures["appeal_count"] == demo_appeals().count()
    assert (
        figures["ruling_count"] == Ruling.objects.filter(result__board__session__event__tournament__name=DEMO).count()
    )


@pytest.mark.parametrize("one_tournament", [False, True])
def test_the_statistics_page_takes_a_fixed_number_of_queries(client, demo_record, one_tournament):  # noqa: F811
    query = {"tournament": demo_record.pk} if one_tournament else {}
    statistics_page(client, demo_record, **query)  # logged in once, before counting
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("national:national-statistics"), query).status_code == 200
    # One more with a tournament chosen: the tournament itself.
    assert len(queries) == QUERIES + one_tournament, "\n".join(q["sql"][:120] for q in queries.captured_queries)
