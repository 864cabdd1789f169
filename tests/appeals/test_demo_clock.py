"""The demo's clock (issue #42, item 6): at load no open case is past its "decide by" (they were,
the demo's sessions being days ago), and its casebook is never dated after today (it was
compiled a week, and finalised three weeks, after the decisions of two days ago)."""

import pytest
from django.utils import timezone

from appeals.models import Appeal

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    from appeals.demo import load_demo_appeals
    from national.demo import load_demo_casebook
    from rulings.demo import load_demo_rulings
    from scoring.demo import load_demo

    tournament = load_demo(pairs_tables=4, boards_per_session=8, pairs_sessions=2, teams=4, boards_per_match=2)
    load_demo_rulings(tournament)
    load_demo_appeals(tournament)
    return tournament, load_demo_casebook(tournament)


def test_the_demo_loads_with_its_cases_in_time_and_its_casebook_in_the_past(demo):
    tournament, casebook = demo
    now = timezone.now()
    open_cases = Appeal.objects.filter(
        ruling__result__board__session__event__tournament=tournament, state__in=Appeal.OPEN_STATES
    )
    assert open_cases.count() >= 4
    assert [a.number for a in open_cases if a.decision_overdue(now)] == []
    assert [a.number for a in open_cases if a.decide_by is not None and a.decide_by < now] == []
    casebook.refresh_from_db()
    dates = [casebook.created_at, casebook.published_at, casebook.finalised_at]
    dates += [case.commentary_at for case in casebook.cases.all() if case.commentary_at]
    assert all(date is not None and date <= now for date in dates), dates
