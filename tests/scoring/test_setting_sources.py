"""A regulation's source where its value is used (issue #43): the appeal period on the appeal
page and the lodging page, the deposit beside the deposit, the VP scale on the event page, each
with the words it rests on and their confidence (read in the text, a secondary source, assumed),
folded to one line on a phone; a value a correction left a tournament is shown as kept."""

import datetime

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from core import policy, roles
from scoring import services
from scoring.models import Event
from tests.appeals.conftest import case, lodge  # noqa: F401 - case is a fixture
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def ebu_teams():
    authority = services.create_authority_with_preset(
        name="EBU body", code="ebu-src", preset="ebu", time_zone="Europe/London", by=policy.SYSTEM
    )
    tournament = services.create_tournament(
        authority=authority,
        name="Cup",
        start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 2),
        by=policy.SYSTEM,
    )
    event = services.create_event(
        tournament=tournament, name="Teams", kind=Event.Kind.TEAMS_ROUND_ROBIN, by=policy.SYSTEM
    )
    return tournament, event


def source(tournament, key):
    return Template("{% load setting_sources %}{% setting_source tournament key %}").render(
        Context({"tournament": tournament, "key": key})
    )


def test_the_appeal_period_says_its_source_its_words_and_their_confidence():
    tournament, _event = ebu_teams()
    html = source(tournament, "appeal_period_minutes")
    # The EBU's 20 minutes rest on a forum's quotation of the White Book, dated by assumption:
    # assumed, whatever its source (scoring/presets/ebu.yaml), with the words quoted beside it.
    assert 'data-key="appeal_period_minutes"' in html and 'data-confidence="assumed"' in html
    assert '<span dir="ltr">20</span>' in html
    assert "“then the 20-minute correction period for the decision to appeal is impractical”" in html
    assert "<summary>Source · assumed</summary>" in html
    assert "Assumed: no text found that gives it." in html
    with translation.override("he"):
        assert "<summary>מקור" in source(tournament, "appeal_period_minutes")


def test_the_deposit_from_a_secondary_source_says_so():
    tournament, _event = ebu_teams()
    html = source(tournament, "deposits")
    assert 'data-key="deposits"' in html and "a deposit of £20 for pairs games, £30 for teams" in html
    # The committee's changes of 2016 as a summary reports them (scoring/presets/ebu.yaml).
    assert 'data-confidence="secondary"' in html and "<summary>Source · secondary source</summary>" in html
    assert "As a secondary source quotes or reports it: the text itself was not read." in html


def test_a_value_kept_from_before_a_correction_is_shown_as_kept_without_the_new_source():
    tournament, _event = ebu_teams()
    tournament.kept_regulations = {"appeal_period_minutes": 30}
    tournament.save(update_fields=["kept_regulations"])
    html = source(tournament, "appeal_period_minutes")
    assert '<span dir="ltr">30</span>' in html and "kept from before a correction" in html
    assert "20-minute" not in html


def test_the_event_page_shows_the_vp_scales_source(client):
    tournament, event = ebu_teams()
    director = make_user("dora")
    services.appoint_official(tournament=tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    client.force_login(director)
    html = client.get(reverse("scoring:event", args=[event.pk])).content.decode()
    section = html[html.index('id="vp-scale"') :]
    assert 'data-key="vp_scale"' in section
    assert "wbf2013-discrete-20" in section[section.index('data-key="vp_scale"') :]


def test_the_appeal_page_shows_the_appeal_periods_and_the_deposits_source(case, client):  # noqa: F811
    appeal = lodge(case)
    client.force_login(case.director)
    html = client.get(reverse("appeals:appeal", args=[appeal.pk])).content.decode()
    assert 'data-key="appeal_period_minutes"' in html
    assert "Not recorded: the Laws&#x27; or the system&#x27;s default." in html
