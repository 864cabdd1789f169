"""The national desk's quality view (issue #44): decided appeals per appeals body, director, law
and season, with the reversal rate, appeals without merit, the median time from the director's
call to the decision and the experts' marks, on the page and as CSV; only auditors read it.

The demo decides two appeals of Dana Director's rulings by a committee: appeal 1 varied (called
08:57, decided 12:37: 220 minutes; laws 12, 16, 73) and appeal 2 upheld and without merit
(08:29 to 12:45: 256 minutes; laws 12, 20, 21)."""

import csv
import datetime
import io

import pytest
from django.urls import reverse

from appeals.models import Appeal, Body
from national import quality
from tests.national.test_search import demo_record  # noqa: F401 - the shared module fixture

pytestmark = pytest.mark.django_db


def figures(rows):
    return [
        (
            str(row.label),
            row.decided,
            row.upheld,
            row.varied,
            row.overturned,
            None if row.changed_percent is None else str(row.changed_percent),
            row.without_merit,
            None if row.median_hours is None else str(row.median_hours),
        )
        for row in rows
    ]


@pytest.fixture
def auditor(demo_record):  # noqa: F811
    return demo_record.authority.auditors.get().user


@pytest.fixture
def overturned_by_a_referee():
    """Appeal 3, heard by a single referee and overturned 90 minutes after the ruling was given
    (the call's time not recorded)."""
    appeal = Appeal.objects.get(number=3)
    Body.objects.filter(appeal=appeal).update(kind=Body.Kind.REFEREE)
    ruling = appeal.ruling
    ruling.called_at = None
    ruling.save(update_fields=["called_at"])
    Appeal.objects.filter(pk=appeal.pk).update(
        state=Appeal.State.DECIDED, outcome="overturn", decided_at=ruling.given_at + datetime.timedelta(minutes=90)
    )
    tournament = ruling.tournament
    return appeal, tournament


def test_per_appeals_body_the_reversal_rate_and_the_median_hours(auditor, overturned_by_a_referee):
    assert figures(quality.quality_rows(auditor, "body")) == [
        # 220 and 256 minutes: a median of 238, 3.97 hours.
        ("Appeals committee", 2, 1, 1, 0, "50.0", 1, "4.0"),
        ("Single referee", 1, 0, 0, 1, "100.0", 0, "1.5"),
    ]


def test_per_director_and_per_law_an_appeal_counts_under_each_law_its_ruling_cites(auditor):
    assert figures(quality.quality_rows(auditor, "director")) == [("Dana Director", 2, 1, 1, 0, "50.0", 1, "4.0")]
    assert figures(quality.quality_rows(auditor, "law")) == [
        ("Law 12", 2, 1, 1, 0, "50.0", 1, "4.0"),
        ("Law 16", 1, 0, 1, 0, "100.0", 0, "3.7"),
        ("Law 20", 1, 1, 0, 0, "0.0", 1, "4.3"),
        ("Law 21", 1, 1, 0, 0, "0.0", 1, "4.3"),
        ("Law 73", 1, 0, 1, 0, "100.0", 0, "3.7"),
    ]


def test_a_decision_recorded_before_its_call_is_counted_but_not_timed(auditor):
    appeal = Appeal.objects.get(number=1)
    Appeal.objects.filter(pk=appeal.pk).update(decided_at=appeal.ruling.called_at - datetime.timedelta(minutes=5))
    assert figures(quality.quality_rows(auditor, "season")) == [("2026", 2, 1, 1, 0, "50.0", 1, "4.3")]


def test_the_experts_marks_per_body(auditor):
    from national.models import CasebookCase

    marks = {
        case.appeal.number: (case.ruling_rating, case.decision_rating)
        for case in CasebookCase.objects.filter(ruling_rating__isnull=False, decision_rating__isnull=False)
    }
    [row] = quality.quality_rows(auditor, "body")
    assert row.rated == len(marks) == 2
    assert row.improved == sum(1 for ruling, decision in marks.values() if decision > ruling)
    assert row.worsened == sum(1 for ruling, decision in marks.values() if decision < ruling)


def test_the_csv_holds_the_pages_rows(client, auditor, overturned_by_a_referee):
    client.force_login(auditor)
    response = client.get(reverse("national:national-quality"), {"by": "body", "format": "csv"})
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="national-quality-by-body.csv"'
    header, *rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert header[:8] == [
        "Appeals body",
        "Decided appeals",
        "Upheld",
        "Varied",
        "Overturned",
        "Changed (per cent)",
        "Without merit",
        "Median hours from incident to decision",
    ]
    assert [row[:8] for row in rows] == [
        ["Appeals committee", "2", "1", "1", "0", "50.0", "1", "4.0"],
        ["Single referee", "1", "0", "0", "1", "100.0", "0", "1.5"],
    ]


def test_the_page_one_tournament_and_its_refusals(client, auditor, overturned_by_a_referee):
    client.force_login(auditor)
    url = reverse("national:national-quality")
    page = client.get(url, {"by": "law"})
    assert page.status_code == 200
    assert [str(row.label) for row in page.context["rows"]][:2] == ["Law 12", "Law 16"]
    _appeal, tournament = overturned_by_a_referee
    assert len(client.get(url, {"by": "body", "tournament": tournament.pk}).context["rows"]) == 2
    wrong = client.get(url, {"by": "colour"})
    assert wrong.status_code == 400
    assert wrong.context["problems"] == ["Group by: 'colour' is not one of the choices."]
    assert wrong.context["grouping"] == "body" and len(wrong.context["rows"]) == 2
    elsewhere = client.get(url, {"by": "law", "tournament": "999999"})
    assert elsewhere.status_code == 200 and elsewhere.context["rows"] == []
    assert elsewhere.context["problems"] == ["Tournament: '999999' is not a tournament you audit."]


def test_only_an_auditor_reads_it(client, demo_record):  # noqa: F811
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="director"))
    assert client.get(reverse("national:national-quality")).status_code == 403
