"""Issue #19: a name beginning with =, +, - or @ was written unescaped into the national search
CSV, where a spreadsheet runs it as a formula. Every text cell that could start one is escaped
with a leading quote (OWASP), in every CSV the project writes."""

import csv
import io

import pytest
from django.urls import reverse

from core import csv_export, policy, roles
from rulings import services as rulings_services
from rulings.models import Ruling
from scoring import services
from tests.conftest import build_pairs_tournament, make_user, table_result

FORMULAS = ['=HYPERLINK("http://evil.example/")', "+1+2", "-2+3", "@SUM(1)", "\t=1", "\r=1"]


@pytest.mark.parametrize("text", FORMULAS)
def test_a_text_cell_that_could_start_a_formula_is_escaped(text):
    out = io.StringIO()
    csv_export.writer(out).writerow([text, "plain", 7, -50])
    row = next(csv.reader(io.StringIO(out.getvalue())))
    assert row == ["'" + text, "plain", "7", "-50"]


@pytest.mark.django_db
def test_the_national_search_csv_escapes_names_from_users(client, people):
    record = build_pairs_tournament(code="evil", name='=HYPERLINK("http://evil.example/","Open")')
    services.appoint_auditor(authority=record.authority, user=people.auditor, by=policy.SYSTEM)
    director = make_user("evil-td", first_name="@SUM(A1:A9)", last_name="-1+1")
    services.appoint_official(tournament=record.tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    result = table_result(record, 0, contract="PASS")
    rulings_services.rule(
        result=result,
        director=director,
        kind=Ruling.Kind.CLAIM,
        laws="70A",
        give=True,
        facts="A claim.",
        ruling_text="Result stands.",
    )
    client.force_login(people.auditor)
    response = client.get(reverse("national:national-search"), {"format": "csv"})
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    row = next(r for r in rows if "HYPERLINK" in r["tournament"])
    assert row["tournament"] == '\'=HYPERLINK("http://evil.example/","Open")'
    assert row["director"] == "'@SUM(A1:A9) -1+1"
    cells = [cell for r in csv.reader(io.StringIO(response.content.decode())) for cell in r]
    assert not any(cell.startswith(csv_export.FORMULA_STARTS) for cell in cells)
