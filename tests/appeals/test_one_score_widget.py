"""One score widget on every decision form (issue #42, item 2): the committee's decision, the
director in charge's on law, the answer to a recommendation and the national body's decision
offer every score kind the ruling form has, redress with its four parts among them; before, the
decision forms offered "Redress (Law 12C1b)" with no input and recording it was refused."""

import pytest

from tests.appeals.conftest import lodge, ready, shown, varied_on_the_web

pytestmark = pytest.mark.django_db

REDRESS_PARTS = (
    "rd_table_contract",
    "rd_table_declarer",
    "rd_table_tricks",
    "rd_normal_contract",
    "rd_without_contract",
    "rd_non_offending",
)


def test_the_decision_form_offers_the_redress_parts(case, client):
    appeal, _body, _hearing = ready(case)
    client.force_login(case.members[0])
    page = shown(client.get(f"/appeals/{appeal.pk}/"))
    for part in REDRESS_PARTS:
        assert f'name="decide-{part}"' in page, part
    assert 'name="decide-ns_artificial"' in page and 'name="decide-w1_weight"' in page


def test_the_law_part_form_offers_the_redress_parts(case, client):
    appeal = lodge(case, parts=[{"kind": "law", "question": "Was 16B applied correctly?"}])
    client.force_login(case.chief)
    page = shown(client.get(f"/appeals/{appeal.pk}/"))
    for part in REDRESS_PARTS:
        assert f'name="law-{part}"' in page, part


def test_the_committee_gives_redress_on_the_web(case, client):
    appeal, page = varied_on_the_web(
        case,
        client,
        "E-W's revoke was a serious error unrelated to the infraction",
        score_kind="redress",
        rd_table_contract="4S",
        rd_table_declarer="N",
        rd_table_tricks="10",
        rd_normal_contract="4S",
        rd_normal_declarer="N",
        rd_normal_tricks="9",
        rd_without_contract="3S",
        rd_without_declarer="N",
        rd_without_tricks="9",
        rd_non_offending="EW",
    )
    assert "Recorded." in page
    appeal.refresh_from_db()
    assert (appeal.state, appeal.score_kind) == ("decided", "redress")
    assert appeal.score_description == "redress (table 4S N =, normal play 4S N -1, without the infraction 3S N =)"
    assert appeal.score == {"ns": {"table": 420, "normal_play": -50, "without_infraction": 140, "non_offending": "EW"}}


def test_the_committee_gives_average_to_both_with_no_offender(case, client):
    appeal, page = varied_on_the_web(
        case,
        client,
        "No result could be obtained (Law 12C2)",
        score_kind="artificial",
        ns_artificial="AVE",
        ew_artificial="AVE",
    )
    assert "Recorded." in page
    appeal.refresh_from_db()
    assert (appeal.state, appeal.score) == ("decided", {"ns": "AVE", "ew": "AVE"})
