"""The committee's weighted score (Law 12C1c) reads back with its weights as typed (issue #42,
item 8): typed 30% and 70% they came back as 0.3 and 0.7 in the appeal's score and its API."""

import pytest
from django.utils import translation

from core import policy, roles
from national import casebooks
from scoring import services as scoring_services
from tests.appeals.conftest import at, varied_on_the_web
from tests.conftest import make_user, page_in

pytestmark = pytest.mark.django_db


def test_the_committee_s_weights_read_back_as_typed(case, client):
    row = {"contract": "4S", "declarer": "N"}
    appeal, page = varied_on_the_web(
        case,
        client,
        "Some would pass, some would bid on",
        score_kind="weighted",
        **{f"w1_{key}": value for key, value in {**row, "tricks": "10", "weight": "30%"}.items()},
        **{f"w2_{key}": value for key, value in {**row, "tricks": "9", "weight": "70%"}.items()},
    )
    assert "Recorded." in page
    appeal.refresh_from_db()
    assert appeal.score == {"ns": [[420, "30%"], [-50, "70%"]]}
    assert appeal.score_description == "30% 4S N = / 70% 4S N -1"
    assert "30% 4S N = / 70% 4S N -1" in page
    api = client.get(f"/api/v1/appeals/{appeal.pk}/").json()
    assert api["score"] == {"ns": [[420, "30%"], [-50, "70%"]]}


def weighted_on_the_web(case, client, w1, w2):
    row = {"contract": "4S", "declarer": "N"}
    appeal, page = varied_on_the_web(
        case,
        client,
        "Some would pass, some would bid on",
        score_kind="weighted",
        **{f"w1_{key}": value for key, value in {**row, "tricks": "10", "weight": w1}.items()},
        **{f"w2_{key}": value for key, value in {**row, "tricks": "9", "weight": w2}.items()},
    )
    appeal.refresh_from_db()
    return appeal, page


def test_the_committee_s_thirds_are_written_as_thirds_on_the_case_and_in_the_casebook(case, client):
    """Typed 1/3 and 2/3, the decision's words said "33.33% 4S N = / 66.67% 4S N -1" (issue #42)."""
    appeal, page = weighted_on_the_web(case, client, "1/3", "2/3")
    assert appeal.score_description == "1/3 4S N = / 2/3 4S N -1"
    assert "1/3 4S N = / 2/3 4S N -1" in page
    auditor = make_user("nora", role=roles.NATIONAL_AUDITOR)
    scoring_services.appoint_auditor(authority=case.record.authority, user=auditor, by=policy.SYSTEM)
    casebook = casebooks.compile_casebook(authority=case.record.authority, by=auditor, title="Appeals", now=at(60))
    [entry] = casebooks.build_content(casebook)["cases"]
    assert entry["decision"]["score"] == "1/3 4S N = / 2/3 4S N -1"


def test_the_decision_in_the_case_s_timeline_reads_its_weights_as_typed_in_dutch(case, client):
    appeal, _page = weighted_on_the_web(case, client, "0.6", "0.4")
    decided = appeal.events.get(note_code="appeals.decided_score")
    with translation.override("nl"):
        assert decided.text.endswith(": 0,6 4S N = / 0,4 4S N -1")
    dutch = page_in(client, case.members[0], f"/appeals/{appeal.pk}/", "nl")
    assert "0,6 4S N = / 0,4 4S N -1" in dutch
