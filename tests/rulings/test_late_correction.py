"""Issue #28: a ruling's correction checks its period through scoring.deadlines.check_in_period
(the law of the edition in force named, the deadline with its zone), and the Law 79C2 route:
after the correction period a score is corrected only where the regulations allow it (2007 and
2017; the 1997 Law 79C has no such route), with the director's and the tournament organiser's
statement that both are satisfied beyond reasonable doubt that the record is wrong."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from audit.models import AuditEntry
from core import policy
from rulings import services
from rulings.models import Ruling
from scoring import services as scoring_services
from scoring.models import Result
from tests.conftest import table_x

pytestmark = pytest.mark.django_db

POSTED = datetime.datetime(2026, 5, 1, 20, 0, tzinfo=datetime.UTC)  # 21:00 in London; 30 minutes
STATEMENT = {
    "director": "A. Director",
    "organiser": "B. Organiser",
    "statement": "The scorer entered 4S+1 for 4S=; both players' scorecards say 420.",
}


def setting(field, key, value):
    scoring_services.set_authority_setting(
        authority=field.session.event.tournament.authority,
        key=key,
        value=value,
        effective_from=datetime.date(1997, 1, 1),
        by=policy.SYSTEM,
    )


def given(field, director):
    return services.rule(
        result=table_x(field),
        director=director,
        kind="ui",
        laws="16",
        give=True,
        ruling_text="Result stands",
        outcome="result_stands",
    )


def correct(ruling, director, basis="79C", **extra):
    return services.correct_ruling(
        ruling=ruling,
        director=director,
        basis=basis,
        reason="The score was recorded wrongly",
        kind="ui",
        laws="16",
        ruling_text="Result stands",
        outcome="result_stands",
        **extra,
    )


def messages(error):
    return [m for found in error.value.message_dict.values() for m in found]


def test_a_ruling_corrected_after_the_period_is_refused_naming_the_law_and_the_zone(field, director):
    ruling = given(field, director)
    scoring_services.post_official_scores(session=field.session, at=POSTED, by=policy.SYSTEM)
    with pytest.raises(ValidationError) as error:
        correct(ruling, director)
    assert error.value.message_dict["correction_basis"] == [
        "The correction period (Law 79C1) ended at 21:30 on 1 May 2026 BST (Europe/London); "
        "this ruling is not corrected any more."
    ]


def test_in_1997_the_correction_period_is_law_79C_and_there_is_no_later_route(field, director):
    setting(field, "laws_edition", "1997")
    setting(field, "late_corrections_allowed", True)
    ruling = given(field, director)
    scoring_services.post_official_scores(session=field.session, at=POSTED, by=policy.SYSTEM)
    with pytest.raises(ValidationError) as error:
        correct(ruling, director, late_correction=STATEMENT)
    assert messages(error) == [
        "The correction period (Law 79C) ended at 21:30 on 1 May 2026 BST (Europe/London); "
        "this ruling is not corrected any more. The 1997 Laws have no later correction (Law 79C2 is of 2007 and 2017)."
    ]


def test_where_the_regulations_do_not_allow_it_a_statement_does_not_open_79C2(field, director):
    ruling = given(field, director)
    scoring_services.post_official_scores(session=field.session, at=POSTED, by=policy.SYSTEM)
    with pytest.raises(ValidationError) as error:
        correct(ruling, director, late_correction=STATEMENT)
    assert messages(error)[0].endswith(
        "The regulations do not allow a correction after the correction period (Law 79C2)."
    )


@pytest.mark.parametrize("edition", ["2007", "2017"])
def test_79C2_corrects_a_ruling_late_with_the_director_and_organiser_statement(field, director, edition):
    setting(field, "laws_edition", edition)
    setting(field, "late_corrections_allowed", True)
    ruling = given(field, director)
    scoring_services.post_official_scores(session=field.session, at=POSTED, by=policy.SYSTEM)
    with pytest.raises(ValidationError) as error:
        correct(ruling, director)
    assert messages(error)[0].endswith(
        "The regulations allow a later correction (Law 79C2) when the director and the tournament organiser "
        "are both satisfied beyond reasonable doubt that the record is wrong: record their statement."
    )
    with pytest.raises(ValidationError) as error:
        correct(ruling, director, late_correction={**STATEMENT, "organiser": " "})
    assert list(error.value.message_dict) == ["late_organiser"]
    correction = correct(ruling, director, late_correction=STATEMENT)
    assert Ruling.objects.get(pk=correction.pk).late_correction == {**STATEMENT, "law": "79C2"}
    assert Ruling.objects.get(pk=ruling.pk).state == Ruling.State.SUPERSEDED


def test_a_director_error_is_not_corrected_by_the_79C2_route(field, director):
    setting(field, "late_corrections_allowed", True)
    ruling = given(field, director)
    scoring_services.post_official_scores(session=field.session, at=POSTED, by=policy.SYSTEM)
    with pytest.raises(ValidationError):
        correct(ruling, director, basis="82C", late_correction=STATEMENT)


def test_a_table_result_corrected_by_79C2_keeps_the_statement_in_the_trail(field):
    setting(field, "late_corrections_allowed", True)
    scoring_services.post_official_scores(session=field.session, at=POSTED, by=policy.SYSTEM)
    with pytest.raises(ValidationError):
        scoring_services.correct_result(result=table_x(field), tricks=11, by=policy.SYSTEM)
    scoring_services.correct_result(result=table_x(field), tricks=11, late_correction=STATEMENT, by=policy.SYSTEM)
    assert Result.objects.get(pk=table_x(field).pk).tricks == 11
    entry = AuditEntry.objects.filter(action="result.corrected").latest("pk")
    assert entry.after["late_correction"] == {**STATEMENT, "law": "79C2"}


def test_the_correction_form_offers_79C2_and_the_ruling_page_shows_the_statement(client, field, director):
    setting(field, "late_corrections_allowed", True)
    ruling = given(field, director)
    scoring_services.post_official_scores(session=field.session, at=POSTED, by=policy.SYSTEM)
    client.force_login(director)
    url = reverse("rulings:ruling-correct", args=[ruling.pk])
    assert "After the correction period (Law 79C2)" in client.get(url).content.decode()
    data = {
        "correction_basis": "79C",
        "correction_reason": "The score was recorded wrongly",
        "kind": "ui",
        "laws": "16",
        "ruling_text": "Result stands",
        "outcome": "result_stands",
        "give": "1",
        "late_director": STATEMENT["director"],
        "late_organiser": STATEMENT["organiser"],
        "late_statement": STATEMENT["statement"],
    }
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    page = client.get(response["Location"]).content.decode()
    assert "After the correction period (Law 79C2): A. Director (director) and B. Organiser (organiser)" in page


def test_without_the_route_the_correction_form_does_not_offer_it(client, field, director):
    ruling = given(field, director)
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-correct", args=[ruling.pk])).content.decode()
    assert "Law 79C2" not in page
