"""The national body's statistics: every figure equals the count made directly from the
record, each chart is an SVG with its numbers in a table, and only auditors see it."""

import datetime
import statistics
from collections import Counter

import pytest
from django.db.models import F
from django.urls import reverse

from appeals.models import Appeal
from rulings.models import Ruling, RulingCitation
from tests.national.test_search import DEMO, demo_record  # noqa: F401 - the shared module fixture

pytestmark = pytest.mark.django_db


CHARTS = 10


@pytest.fixture
def figures(client, demo_record):  # noqa: F811
    """The auditor's statistics page, after giving rulings 1 and 2 ten and forty minutes before
    their appeals were lodged (the demo gives its rulings today and decides in April)."""
    for appeal, minutes in zip(Appeal.objects.filter(state="decided").order_by("number"), (10, 40), strict=True):
        Ruling.objects.filter(pk=appeal.ruling_id).update(
            given_at=appeal.lodged_at - datetime.timedelta(minutes=minutes)
        )
    client.force_login(demo_record.authority.auditors.get().user)
    response = client.get(reverse("national:national-statistics"))
    assert response.status_code == 200
    return response


def demo_rulings():
    return Ruling.objects.filter(result__board__session__event__tournament__name=DEMO)


def demo_appeals():
    return Appeal.objects.filter(ruling__in=demo_rulings())


def test_rulings_per_kind_and_per_law(figures):
    data = figures.context["figures"]
    assert data["ruling_count"] == demo_rulings().count() == 14
    kinds = dict(Ruling.Kind.choices)
    assert dict(data["per_kind"]) == {
        kinds[k]: n for k, n in Counter(demo_rulings().values_list("kind", flat=True)).items()
    }
    per_law = Counter(
        law
        for _r, law in set(RulingCitation.objects.filter(ruling__in=demo_rulings()).values_list("ruling", "law__law"))
    )
    assert len(per_law) == 17  # the chart shows the 15 most cited, ties in the order of the Laws
    top = sorted(per_law.items(), key=lambda item: (-item[1], item[0]))[:15]
    assert [(str(label), n) for label, n in data["per_law"]] == [(f"Law {law}", n) for law, n in top]
    assert dict((str(label), n) for label, n in data["per_law"])["Law 12"] == 6


def test_appeals_per_kind_and_per_director(figures):
    data = figures.context["figures"]
    kinds = dict(Ruling.Kind.choices)
    assert dict(data["appeals_per_kind"]) == {
        kinds[k]: n for k, n in Counter(demo_appeals().values_list("ruling__kind", flat=True)).items()
    }
    assert dict(data["appeals_per_director"]) == {"Dana Director": 6, "Chaim Chief": 1}
    assert sum(dict(data["appeals_per_director"]).values()) == demo_appeals().count()


def test_outcomes(figures):
    outcomes = {str(label): n for label, n in figures.context["figures"]["outcomes"]}
    assert outcomes == {
        "Upheld": demo_appeals().filter(outcome="uphold").count(),
        "Varied": demo_appeals().filter(outcome="vary").count(),
        "Overturned": demo_appeals().filter(outcome="overturn").count(),
        "Without merit": demo_appeals().filter(without_merit=True).count(),
    }
    assert outcomes == {"Upheld": 1, "Varied": 1, "Overturned": 0, "Without merit": 1}


def test_time_from_ruling_to_decision(figures):
    times = figures.context["figures"]["times"]
    minutes = [
        (a.decided_at - a.ruling.given_at).total_seconds() / 60 for a in demo_appeals().filter(decided_at__isnull=False)
    ]
    assert sorted(minutes) == [35, 65]  # lodged 10/40 min after the ruling, decided 25 min later
    assert times["median"] == statistics.median(minutes) == 50
    assert dict((str(label), n) for label, n in times["bins"]) == {
        "under 30 min": 0,
        "30–60 min": 1,
        "1–2 h": 1,
        "2–6 h": 0,
        "6–24 h": 0,
        "1–7 days": 0,
        "over a week": 0,
    }
    assert "50 minutes" in figures.content.decode()


def test_deadlines(figures):
    deadlines = figures.context["figures"]["deadlines"]
    decided = demo_appeals().filter(decided_at__isnull=False, decide_by__isnull=False)
    assert dict((str(k), v) for k, v in deadlines["decided"]) == {
        "Decided in time": decided.filter(decided_at__lte=F("decide_by")).count(),
        "Decided late": 0,
    }
    assert dict((str(k), v) for k, v in deadlines["lodged"]) == {
        "Lodged in time": demo_appeals().filter(lodged_at__lte=F("deadline")).count(),
        "Lodged under an extension": 0,
        "Lodged late": 0,
    }
    assert deadlines["lodged"][0][1] == 7 and deadlines["decided"][0][1] == 2


def test_rulings_changed_on_appeal_per_director(figures):
    rows = {
        row["label"]: (row["total"], row["appealed"], row["changed"]) for row in figures.context["figures"]["directors"]
    }
    director = demo_rulings().filter(director__username="director")
    assert rows["Dana Director"] == (
        director.count(),
        director.filter(appeals__isnull=False).distinct().count(),
        director.filter(appeals__outcome__in=["vary", "overturn"]).distinct().count(),
    )
    assert rows == {"Dana Director": (12, 6, 1), "Chaim Chief": (2, 1, 0)}


def test_every_chart_is_an_svg_with_its_numbers_in_a_table(figures):
    html = figures.content.decode()
    assert html.count("<svg") == CHARTS
    assert html.count('role="img"') == CHARTS
    assert html.count("<table") == CHARTS
    assert "<title>Dana Director: 12 / 6 / 1</title>" in html
    assert "<script" not in html.split("<main>")[1]


def test_one_tournament_and_no_other_bodys(client, demo_record):  # noqa: F811
    client.force_login(demo_record.authority.auditors.get().user)
    page = client.get(reverse("national:national-statistics"), {"tournament": demo_record.pk})
    assert page.context["selected"] == demo_record
    assert page.context["figures"]["ruling_count"] == 14
    other = Ruling.objects.exclude(pk__in=demo_rulings()).get()
    page = client.get(reverse("national:national-statistics"), {"tournament": other.tournament.pk})
    assert page.context["selected"] is None  # not the auditor's: the body's figures instead
    assert page.context["figures"]["ruling_count"] == 14
    assert "Reykjavik" not in page.content.decode()


@pytest.mark.parametrize("username", ["player", "director", "scorer"])
def test_others_are_refused(client, demo_record, username):  # noqa: F811
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username=username))
    assert client.get(reverse("national:national-statistics")).status_code == 403
