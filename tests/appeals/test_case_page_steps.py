"""The steps that had only an API before, now on the case page for the role that takes them:
the director in charge's decision on a law part (with an adjusted score of any kind), lodging on
law alone, statements locked and unlocked, a withdrawal accepted; and one rule per step: a
person the service refuses gets 403 with the same reason on the page and in the API."""

import datetime

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from appeals import services
from appeals.models import FurtherAppeal
from appeals.views import lodged_parts
from tests.appeals.conftest import SOON, lodge, ready, regulate, step_path

pytestmark = pytest.mark.django_db


def post(client, user, appeal, **data):
    client.force_login(user)
    return client.post(step_path(appeal.pk, data["action"]), data)


def law_only(case):
    appeal = lodge(
        case,
        parts=lodged_parts(
            {
                "grounds": "Law 16B1a does not apply to a tempo break after a stop card.",
                "law_question": "",
                "about": "law",
            }
        ),
    )
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    return appeal


def test_the_lodging_form_routes_law_alone_judgement_alone_or_both():
    data = {"grounds": "G", "law_question": ""}
    assert lodged_parts({**data, "about": "law"}) == [{"kind": "law", "question": "G"}]
    assert lodged_parts({**data, "about": "judgement"}) == [{"kind": "judgement", "question": "G"}]
    assert [p["kind"] for p in lodged_parts({**data, "about": "both", "law_question": "Q"})] == ["judgement", "law"]


def test_the_director_in_charge_decides_a_law_only_appeal_on_the_page_with_a_weighted_score(case, client):
    appeal = law_only(case)
    client.force_login(case.chief)
    page = client.get(reverse("appeals:appeal", args=[appeal.pk]))
    assert "The director in charge decides the law part (Law 93B1)" in page.content.decode()
    part = appeal.parts.get()
    response = post(
        client,
        case.chief,
        appeal,
        action="law_part",
        part=part.pk,
        **{
            "law-decision": "vary",
            "law-reasons": "16B1a needs unauthorised information",
            "law-laws": "16B1a",
            "law-score_kind": "weighted",
            "law-w1_contract": "4S",
            "law-w1_declarer": "N",
            "law-w1_tricks": "10",
            "law-w1_weight": "0.6",
            "law-w2_contract": "3S",
            "law-w2_declarer": "N",
            "law-w2_tricks": "10",
            "law-w2_weight": "0.4",
        },
    )
    assert response.status_code == 302
    appeal.refresh_from_db()
    part.refresh_from_db()
    assert (appeal.state, appeal.outcome, appeal.score_kind) == ("decided", "vary", "weighted")
    assert part.reasons == "Law 16B1a: 16B1a needs unauthorised information"
    assert part.decided_by == case.chief


def test_a_director_who_is_not_in_charge_is_refused_the_law_part_on_the_page_and_in_the_api(case, client):
    appeal = law_only(case)
    part = appeal.parts.get()
    reason = (
        f"Only the director in charge of {case.record.tournament} decides a part about law or regulation "
        f"(Law 93B1); {case.director} is not."
    )
    response = post(
        client,
        case.director,
        appeal,
        action="law_part",
        part=part.pk,
        **{"law-decision": "uphold", "law-reasons": "It applies"},
    )
    assert response.status_code == 403
    assert reason in response.content.decode()
    api = APIClient()
    api.force_authenticate(case.director)
    answer = api.post(
        reverse("appeal-decide-law-part", args=[appeal.pk]),
        {"part": part.pk, "outcome": "uphold", "reasons": "It applies"},
        format="json",
    )
    assert answer.status_code == 403
    assert reason in str(answer.json())
    part.refresh_from_db()
    assert part.outcome == ""


def test_statements_are_locked_by_a_director_and_unlocked_by_the_chief_with_a_reason(case, client):
    appeal = lodge(case)
    post(client, case.director, appeal, action="lock_statements", agreed_by=[case.north.pk, case.east.pk])
    appeal.refresh_from_db()
    assert appeal.statements_locked_at is not None
    response = post(client, case.director, appeal, action="unlock_statements", reason="East misremembered")
    assert response.status_code == 403
    assert "unlocks agreed statements" in response.content.decode()
    post(client, case.chief, appeal, action="unlock_statements", reason="East misremembered")
    appeal.refresh_from_db()
    assert appeal.statements_locked_at is None
    assert "statements unlocked: East misremembered" in appeal.events.last().note


def test_the_chief_director_accepts_a_withdrawal_before_a_body_sits(case, client):
    appeal = lodge(case)
    post(client, case.director, appeal, action="withdrawal", player=case.north.pk, reason="We think again")
    client.force_login(case.chief)
    assert "Accept the withdrawal" in client.get(reverse("appeals:appeal", args=[appeal.pk])).content.decode()
    post(client, case.chief, appeal, action="accept_withdrawal")
    appeal.refresh_from_db()
    assert appeal.state == "withdrawn"


def test_a_concurrence_form_has_no_signer_chosen_and_none_chosen_is_refused_by_name(case, client):
    appeal = lodge(case)
    client.force_login(case.director)
    page = client.get(reverse("appeals:appeal", args=[appeal.pk])).content.decode()
    assert '<select name="player"><option value="">—</option>' in page
    response = client.post(
        step_path(appeal.pk, "concurrence"),
        {"action": "concurrence", "player": "", "how": "in_person"},
        follow=True,
    )
    assert "player: Choose the player." in response.content.decode()


def test_where_93b3_forbids_overruling_the_member_is_offered_the_recommendation(case, client):
    appeal, body, _hearing = ready(case, parts=[{"kind": "law", "question": "Does 16B1a apply?"}])
    services.decide_law_part(part=appeal.parts.get(), by=case.chief, outcome="uphold", reasons="It does")
    services.appeal_law_decision(part=appeal.parts.get(), by=case.director)
    appeal.refresh_from_db()
    assert appeal.state == "constituted"
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON + datetime.timedelta(hours=2), now=SOON)
    client.force_login(case.members[0])
    page = client.get(reverse("appeals:appeal", args=[appeal.pk])).content.decode()
    assert "Recommend to the director in charge (Law 93B3)" in page
    assert "The body may not overrule the director in charge on law or regulation" in page
    assert 'value="decide"' in page  # it may still uphold
    for member in body.sitting():
        services.record_vote(member=member, outcome="vary", by=member.user)
    response = client.post(
        step_path(appeal.pk, "decide"),
        {"action": "decide", "decide-decision": "vary", "decide-reasons": "We disagree"},
        follow=True,
    )
    assert "outcome: The body cannot overrule the director in charge on law or regulation (Law 93B3)" in (
        response.content.decode().replace("&#x27;", "'")
    )
    client.post(
        step_path(appeal.pk, "recommend"),
        {"action": "recommend", "about": "law", "text": "Apply 16B1a: the pause was unmistakable."},
    )
    assert appeal.recommendations.get().text == "Apply 16B1a: the pause was unmistakable."


def test_the_director_refers_a_case_to_the_authority_from_the_page_and_a_player_may_not(case, client):
    regulate(case, further_appeal="advisory")
    appeal, body, _hearing = ready(case)
    client.force_login(case.director)
    assert (
        "Refer the case to the regulating authority (Law 93C)"
        in client.get(reverse("appeals:appeal", args=[appeal.pk])).content.decode()
    )
    post(client, case.director, appeal, action="refer_further", origin="director", grounds="A question of principle")
    further = FurtherAppeal.objects.get(appeal=appeal)
    assert (further.origin, further.binding, further.recorded_by) == ("director", False, case.director)


def test_the_ruling_page_links_to_its_appeal_and_counts_down_the_window(case, client):
    appeal = lodge(case)
    client.force_login(case.director)
    page = client.get(reverse("rulings:ruling", args=[case.ruling.pk])).content.decode()
    assert f'href="{reverse("appeals:appeal", args=[appeal.pk])}"' in page
    assert 'role="timer" data-deadline=' in page


def test_the_chief_accepts_a_recommendation_with_a_new_score_and_the_ruling_changes(case, client):
    appeal, body, _hearing = ready(case, parts=[{"kind": "law", "question": "Does 16B1a apply?"}])
    services.decide_law_part(part=appeal.parts.get(), by=case.chief, outcome="uphold", reasons="It does")
    services.appeal_law_decision(part=appeal.parts.get(), by=case.director)
    recommendation = services.record_recommendation(
        appeal=appeal, by=case.members[0], about="law", text="Assign 4S made: the pause was not unmistakable."
    )
    response = post(
        client,
        case.chief,
        appeal,
        action="respond",
        recommendation=recommendation.pk,
        accepted="yes",
        response="Accepted: 4S made.",
        **{"respond-score_kind": "assigned", "respond-contract": "4S", "respond-declarer": "N", "respond-tricks": "10"},
    )
    assert response.status_code == 302
    case.ruling.refresh_from_db()
    assert "4S" in case.ruling.score_description
    assert case.ruling.revisions.last().reason.startswith("Recommendation of the appeals body accepted (Law 93B3)")
    recommendation.refresh_from_db()
    assert recommendation.accepted is True
