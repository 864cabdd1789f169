"""Victory-point scales chosen per event, and a regulating authority's own discrete scales
entered as data with their source (issue #15, "Scoring").

The match: Lions (home) and Tigers (away), nine boards. Board 1: 4S= +420 for the Lions in the
open room, 4S-1 -50 for the Tigers' N-S in the closed room: 470 to the Lions, 10 IMPs; boards 2-9
flat (3NT= at both tables). The Lions win by 10 IMPs over 9 boards: on the WBF 2013 20-VP scale
13.59 to 6.41; on the ACBL 30-VP scale (bridge/engine/data/acbl_vp30.json, 9-11 boards: 9-11 IMPs
is 23-7) 23 to 7.

The authority's own scale here is a TEST TABLE, made up for these tests: no body's scale.
"""

import datetime
import re
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from audit.models import AuditEntry
from core import policy, roles
from scoring import recalculation, services, vp_scales
from scoring.models import AuthoritySetting, Event, MatchScore, RecalculationRequest, Standing, VictoryPointScale
from tests.conftest import make_user

TEST_TABLE_CSV = """boards,imps_from,winner_vp,loser_vp
# TEST TABLE, made up for the tests
9-11,0,12.5,12.5
9-11,1,14,11
9-11,8,20,5
9-11,20,25,0
"""


def build(kind=Event.Kind.TEAMS_ROUND_ROBIN, boards=9, code="vp-body"):
    authority = services.create_authority_with_preset(
        name=f"Body {code}", code=code, preset="", time_zone="Europe/London", by=policy.SYSTEM
    )
    tournament = services.create_tournament(
        authority=authority,
        name="Cup",
        start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 2),
        by=policy.SYSTEM,
    )
    event = services.create_event(tournament=tournament, name="Teams", kind=kind, by=policy.SYSTEM)
    if not event.is_teams:
        return SimpleNamespace(authority=authority, tournament=tournament, event=event, boards=())
    lions = services.enter_contestant(event=event, number=1, name="Lions", members=[], by=policy.SYSTEM)
    tigers = services.enter_contestant(event=event, number=2, name="Tigers", members=[], by=policy.SYSTEM)
    session = services.create_session(event=event, number=1, is_last=True, by=policy.SYSTEM)
    open_room, closed_room = services.add_tables(section=session.sections.get(), count=2, by=policy.SYSTEM)
    round_ = services.add_rounds(session=session, count=1, by=policy.SYSTEM)[0]
    match = services.create_match(
        round=round_, home=lions, away=tigers, open_room=open_room, closed_room=closed_room, by=policy.SYSTEM
    )
    made = []
    for number in range(1, boards + 1):
        board = services.create_board(session=session, number=number, by=policy.SYSTEM)
        contract, tricks = ("4S", (10, 9)) if number == 1 else ("3NT", (9, 9))
        services.record_result(
            board=board, round=round_, table=open_room, ns=lions, ew=tigers, contract=contract, declarer="N",
            tricks=tricks[0], by=policy.SYSTEM)  # fmt: skip
        services.record_result(
            board=board, round=round_, table=closed_room, ns=tigers, ew=lions, contract=contract, declarer="N",
            tricks=tricks[1], by=policy.SYSTEM)  # fmt: skip
        made.append(board)
    recalculation.rescore_everything(event)
    return SimpleNamespace(
        authority=authority, tournament=tournament, event=event, match=match, boards=made, lions=lions, tigers=tigers
    )


def recalculate(record):
    for board in record.boards:
        recalculation.recalculate_board(board.pk)


def vps(record):
    ms = MatchScore.objects.get(match=record.match)
    totals = {s.contestant.name: s.total for s in Standing.objects.filter(event=record.event, session=None)}
    return (ms.home_vp, ms.away_vp), totals


def official(record, username, role):
    user = make_user(username)
    services.appoint_official(tournament=record.tournament, user=user, role=role, by=policy.SYSTEM)
    return user


def superuser(username="root"):
    return make_user(username, is_superuser=True, is_staff=True)


def refusal(call, **kwargs):
    with pytest.raises(ValidationError) as caught:
        call(**kwargs)
    return caught.value.message_dict


# --- An event's choice ----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_events_choice_changes_the_match_vps_after_recalculation():
    record = build()
    assert vps(record) == ((Decimal("13.59"), Decimal("6.41")), {"Lions": Decimal("13.59"), "Tigers": Decimal("6.41")})
    chief = official(record, "chief", roles.CHIEF_DIRECTOR)
    services.set_event_vp_scale(event=record.event, scale="acbl-30", by=chief)
    record.event.refresh_from_db()
    assert record.event.vp_scale == "acbl-30"
    assert record.event.regulations()["vp_scale"] == "acbl-30"
    assert record.tournament.regulations()["vp_scale"] == "wbf2013-20"  # the authority's stays
    recalculate(record)
    assert vps(record) == ((Decimal(23), Decimal(7)), {"Lions": Decimal(23), "Tigers": Decimal(7)})
    entry = AuditEntry.objects.get(action="event.vp_scale_set")
    assert (entry.actor, entry.object_id, entry.before, entry.after) == (
        chief,
        str(record.event.pk),
        {"vp_scale": ""},
        {"vp_scale": "acbl-30", "in_force": "acbl-30"},
    )
    assert entry.summary == "Teams: victory-point scale acbl-30"
    # Empty: back to the authority's setting.
    scorer = official(record, "scorer", roles.SCORER)
    services.set_event_vp_scale(event=record.event, scale="", by=scorer)
    recalculate(record)
    assert vps(record)[0] == (Decimal("13.59"), Decimal("6.41"))
    assert AuditEntry.objects.filter(action="event.vp_scale_set").count() == 2


@pytest.mark.django_db
def test_the_wbf_discrete_scale_is_a_choice_and_scores_in_whole_vps():
    """Issue #43: the WBF discrete 20-VP scale (the EBU's since 1 September 2013) is offered as a
    scale. The Lions' 10 IMPs over 9 boards: its 9-board bands are 0, 1-3, 4-6, 7-9, 10-12, ...
    so 10 IMPs is 14-6 (13.59 on the continuous scale)."""
    record = build()
    chief = official(record, "chief", roles.CHIEF_DIRECTOR)
    services.set_event_vp_scale(event=record.event, scale="wbf2013-discrete-20", by=chief)
    recalculate(record)
    assert vps(record)[0] == (Decimal(14), Decimal(6))
    assert vp_scales.source(record.authority, "wbf2013-discrete-20").startswith("WBF discrete 20-VP scale")


def test_the_wbf_discrete_bands_for_16_boards():
    """The 16-board table as the WBF's discrete scale reads: 0-1 10-10, 2-4 11-9, ... 44-53 19-1, 54+ 20-0."""
    from bridge.engine.vp import victory_points

    assert vp_scales.WBF_DISCRETE_20_BANDS[16] == (1, 4, 8, 12, 17, 22, 28, 35, 43, 53)
    margins = {0: 10, 1: 10, 2: 11, 4: 11, 5: 12, 9: 13, 12: 13, 13: 14, 17: 14, 18: 15, 28: 16, 35: 17, 43: 18}
    margins |= {44: 19, 53: 19, 54: 20, 90: 20}
    for margin, winner in margins.items():
        assert victory_points(margin, 16, "wbf2013-discrete-20") == (winner, 20 - winner), margin
    assert victory_points(-9, 16, "wbf2013-discrete-20") == (7, 13)


def test_the_wbf_discrete_bands_for_20_boards_read_as_a_published_example():
    """A Dutch club's account of the WBF's 2013 scales (bcstar.nl, "Continue WP-schaal
    ingevoerd", tests/fixtures/ORIGINS) quotes the discrete scale as 0-1 IMP 10 VP, 2-5 IMP 11,
    6-9 IMP 12, beside the continuous 1 IMP 10.28 and 2 IMP 10.55, which are the 20-board scale's
    (X = 15 x sqrt(20)): the bands computed here agree for those 20 boards."""
    from bridge.engine.vp import victory_points

    assert vp_scales.WBF_DISCRETE_20_BANDS[20][:3] == (1, 5, 9)
    assert [victory_points(margin, 20, "wbf2013-discrete-20")[0] for margin in (0, 1, 2, 5, 6, 9, 10)] == [
        10, 10, 11, 11, 12, 12, 13,
    ]  # fmt: skip
    assert [str(victory_points(margin, 20, "wbf2013-20")[0]) for margin in (1, 2)] == ["10.28", "10.55"]


@pytest.mark.django_db
def test_an_unknown_scale_is_refused_naming_the_choices():
    record = build()
    chief = official(record, "chief", roles.CHIEF_DIRECTOR)
    assert refusal(services.set_event_vp_scale, event=record.event, scale="wbf-25", by=chief) == {
        "vp_scale": [
            "'wbf-25' is not a victory-point scale: one of wbf2013-20, wbf2013-30, wbf2013-discrete-20, acbl-20, "
            "acbl-30, or empty for the regulating authority's (wbf2013-20)."
        ]
    }
    record.event.refresh_from_db()
    assert record.event.vp_scale == ""
    assert not AuditEntry.objects.filter(action="event.vp_scale_set").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("kind", [Event.Kind.MP_PAIRS, Event.Kind.IMP_PAIRS_BUTLER, Event.Kind.KNOCKOUT_TEAMS])
def test_an_event_not_scored_in_vps_chooses_no_scale(kind):
    record = build(kind=kind, boards=1)
    chief = official(record, "chief", roles.CHIEF_DIRECTOR)
    assert refusal(services.set_event_vp_scale, event=record.event, scale="acbl-30", by=chief) == {
        "vp_scale": ["Teams is not scored in victory points: only a round robin or Swiss teams event chooses a scale."]
    }


@pytest.mark.django_db
@pytest.mark.parametrize("role", [roles.DIRECTOR, None])
def test_only_the_chief_director_or_scorer_chooses(role):
    record = build()
    user = official(record, "td", role) if role else make_user("stranger")
    with pytest.raises(PermissionDenied) as caught:
        services.set_event_vp_scale(event=record.event, scale="acbl-30", by=user)
    assert str(caught.value) == "Only the tournament's chief director or scorer chooses an event's victory-point scale."
    record.event.refresh_from_db()
    assert record.event.vp_scale == ""


@pytest.mark.django_db
def test_a_scale_without_a_table_for_the_events_matches_is_refused():
    record = build(boards=2)  # the ACBL tables are for 6-11 boards
    assert refusal(services.set_event_vp_scale, event=record.event, scale="acbl-30", by=superuser()) == {
        "vp_scale": ["The acbl-30 scale has no table for 2 boards, and this event has such matches."]
    }


# --- A body's own scale ---------------------------------------------------------------------


def add_test_scale(record, by, **changes):
    fields = {
        "authority": record.authority,
        "name": "test25",
        "source": "TEST TABLE made up for the tests",
        "max_vp": "25",
        "text": TEST_TABLE_CSV,
        "by": by,
    }
    return services.add_vp_scale(**{**fields, **changes})


@pytest.mark.django_db
def test_a_bodys_own_scale_is_recorded_audited_and_used_by_an_event():
    record = build()
    root = superuser()
    scale = add_test_scale(record, root)
    assert (scale.choice, scale.max_vp, scale.tables) == (
        "vp-body:test25",
        Decimal(25),
        {"9-11": [["0", "12.5", "12.5"], ["1", "14", "11"], ["8", "20", "5"], ["20", "25", "0"]]},
    )
    entry = AuditEntry.objects.get(action="authority.vp_scale_added")
    assert (entry.actor, entry.after["scale"], entry.after["source"], entry.summary) == (
        root,
        "vp-body:test25",
        "TEST TABLE made up for the tests",
        "Body vp-body: victory-point scale vp-body:test25 added",
    )
    assert vp_scales.choices(record.authority)[-1] == "vp-body:test25"
    services.set_event_vp_scale(event=record.event, scale="vp-body:test25", by=root)
    recalculate(record)
    assert vps(record)[0] == (Decimal(20), Decimal(5))  # 10 IMPs: the 8-19 band
    record.event.refresh_from_db()
    assert vp_scales.in_force(record.event) == {
        "name": "vp-body:test25",
        "source": "TEST TABLE made up for the tests",
        "chosen_by_event": True,
    }


@pytest.mark.django_db
def test_a_bodys_scale_is_a_choice_of_its_own_setting_and_no_other_bodys():
    record = build()
    other = build(code="other-body")
    add_test_scale(record, superuser())
    setting = services.set_authority_setting(
        authority=record.authority,
        key="vp_scale",
        value="vp-body:test25",
        effective_from=datetime.date(2026, 1, 1),
        by=policy.SYSTEM,
    )
    assert setting.value == "vp-body:test25"
    recalculation.rescore_everything(record.event)
    assert vps(record)[0] == (Decimal(20), Decimal(5))
    assert vp_scales.in_force(record.event)["chosen_by_event"] is False
    with pytest.raises(ValidationError) as caught:
        services.set_authority_setting(
            authority=other.authority,
            key="vp_scale",
            value="vp-body:test25",
            effective_from=datetime.date(2026, 1, 1),
            by=policy.SYSTEM,
        )
    assert caught.value.message_dict == {
        "value": ["Victory-point scale: must be one of wbf2013-20, wbf2013-30, wbf2013-discrete-20, acbl-20, acbl-30"]
    }
    assert not AuthoritySetting.objects.filter(authority=other.authority, key="vp_scale").exists()
    assert refusal(services.set_event_vp_scale, event=other.event, scale="vp-body:test25", by=superuser("root2"))[
        "vp_scale"
    ][0].startswith("'vp-body:test25' is not a victory-point scale")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "changes, expected",
    [
        (
            {"text": TEST_TABLE_CSV.replace("9-11,8,20,5", "9-11,8,13,5")},
            {"tables": ["line 5, winner_vp: the winner's VPs must not fall: 13 after 14"]},
        ),
        (
            {"text": TEST_TABLE_CSV.replace("9-11,8,20,5", "9-11,8,2O,5")},
            {"tables": ["line 5, winner_vp: '2O' is not a number"]},
        ),
        (
            {"text": TEST_TABLE_CSV.replace("9-11,8,20,5", "nine,8,20,5")},
            {"tables": ["line 5, boards: 'nine' is not a number of boards (16) or a range (6-8)"]},
        ),
        (
            {"text": TEST_TABLE_CSV.replace("9-11,1,14,11", "9-11,1,14,12")},
            {"tables": ["line 4, loser_vp: 14 + 12 VPs is more than the scale's 25"]},
        ),
        ({"max_vp": "lots"}, {"max_vp": ["the scale, max_vp: 'lots' is not a number"]}),
        ({"source": " "}, {"source": ["Say where the numbers come from: the publication, with its date or edition."]}),
        (
            {"name": "25 VPs"},
            {"name": ["'25 vps' is not a scale's name: up to 40 letters, digits and hyphens (e.g. vp25)."]},
        ),
    ],
)
def test_a_bad_scale_is_refused_by_line_and_field(changes, expected):
    record = build(boards=1)
    assert refusal(add_test_scale, record=record, by=superuser(), **changes) == expected
    assert not VictoryPointScale.objects.exists()
    assert not AuditEntry.objects.filter(action="authority.vp_scale_added").exists()


@pytest.mark.django_db
def test_a_name_already_taken_and_a_user_who_is_not_the_superuser_are_refused():
    record = build(boards=1)
    root = superuser()
    add_test_scale(record, root)
    assert refusal(add_test_scale, record=record, by=root) == {
        "name": ["Body vp-body already has a scale named test25."]
    }
    auditor = make_user("auditor")
    services.appoint_auditor(authority=record.authority, user=auditor, by=policy.SYSTEM)
    with pytest.raises(PermissionDenied) as caught:
        add_test_scale(record, auditor, name="other")
    assert str(caught.value) == "Only a superuser records a regulating authority's regulations and its scales."
    assert VictoryPointScale.objects.count() == 1


# --- Pages and the API ----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_event_page_shows_the_scale_and_lets_the_chief_director_choose(client):
    record = build()
    client.force_login(official(record, "chief", roles.CHIEF_DIRECTOR))
    url = reverse("scoring:event", args=[record.event.pk])
    page = client.get(url).content.decode()
    assert 'id="vp-scale"' in page and '<strong dir="ltr">wbf2013-20</strong>' in page
    assert "Technical Report of the WBF Scoring Panel" in page
    assert 'name="vp_scale"' in page
    response = client.post(url, {"vp_scale": "nonsense"})
    assert response.status_code == 200
    assert "&#x27;nonsense&#x27; is not a victory-point scale" in response.content.decode()
    response = client.post(url, {"vp_scale": "acbl-30"})
    assert response.status_code == 302
    recalculate(record)
    assert vps(record)[0] == (Decimal(23), Decimal(7))
    page = client.get(url).content.decode()
    assert '<strong dir="ltr">acbl-30</strong>' in page and "bridgehands.com" in page
    standings = client.get(reverse("scoring:standings", args=[record.event.pk])).content.decode()
    assert 'id="vp-scale-in-force"' in standings and "acbl-30" in standings
    match = client.get(reverse("scoring:match", args=[record.match.pk])).content.decode()
    assert 'id="vp-scale-in-force"' in match and "acbl-30" in match


@pytest.mark.django_db
def test_the_event_pages_title_is_the_events_name_alone(client):
    # The scale's card was once written inside the title block: the tab read "Teams <section ...".
    record = build()
    client.force_login(official(record, "chief", roles.CHIEF_DIRECTOR))
    page = client.get(reverse("scoring:event", args=[record.event.pk])).content.decode()
    assert re.search(r"<title>(.*?)</title>", page, re.S).group(1) == "Teams"
    assert page.count('id="vp-scale"') == 1 and page.count('name="vp_scale"') == 1


@pytest.mark.django_db
def test_a_director_sees_the_scale_but_may_not_choose(client):
    record = build()
    client.force_login(official(record, "td", roles.DIRECTOR))
    url = reverse("scoring:event", args=[record.event.pk])
    page = client.get(url).content.decode()
    assert 'id="vp-scale"' in page and 'name="vp_scale"' not in page
    assert client.post(url, {"vp_scale": "acbl-30"}).status_code == 403
    record.event.refresh_from_db()
    assert record.event.vp_scale == ""


@pytest.mark.django_db
def test_a_pairs_event_page_has_no_scale(client):
    record = build(kind=Event.Kind.MP_PAIRS, boards=0)
    client.force_login(official(record, "chief", roles.CHIEF_DIRECTOR))
    url = reverse("scoring:event", args=[record.event.pk])
    assert 'id="vp-scale"' not in client.get(url).content.decode()
    assert client.post(url, {"vp_scale": "acbl-30"}).status_code == 403


@pytest.mark.django_db
def test_the_authority_page_lists_the_bodys_scales_and_the_superuser_adds_one(client):
    record = build(boards=1)
    client.force_login(superuser())
    url = reverse("scoring:authority-settings", args=[record.authority.pk])
    page = client.get(url).content.decode()
    assert 'id="vp-scales"' in page and 'name="table"' in page
    fields = {"name": "test25", "max_vp": "25", "source": "TEST TABLE made up for the tests"}
    bad = client.post(url, {**fields, "table": TEST_TABLE_CSV.replace("9-11,8,20,5", "9-11,8,13,5")})
    assert bad.status_code == 200
    assert "line 5, winner_vp: the winner&#x27;s VPs must not fall: 13 after 14" in bad.content.decode()
    assert not VictoryPointScale.objects.exists()
    assert client.post(url, {**fields, "table": TEST_TABLE_CSV}).status_code == 302
    page = client.get(url).content.decode()
    assert 'id="vp-scale-test25"' in page and "vp-body:test25" in page and "TEST TABLE made up" in page


@pytest.mark.django_db
def test_an_auditor_reads_the_scales_but_may_not_add_one(client):
    record = build(boards=1)
    add_test_scale(record, superuser())
    auditor = make_user("auditor")
    services.appoint_auditor(authority=record.authority, user=auditor, by=policy.SYSTEM)
    client.force_login(auditor)
    url = reverse("scoring:authority-settings", args=[record.authority.pk])
    page = client.get(url).content.decode()
    assert "vp-body:test25" in page and 'name="table"' not in page
    assert client.post(url, {"name": "x", "max_vp": "20", "source": "s", "table": "8,0,10,10"}).status_code == 403
    assert VictoryPointScale.objects.count() == 1


@pytest.mark.django_db
def test_the_event_api_gives_the_scale_in_force():
    record = build()
    pairs = services.create_event(
        tournament=record.tournament, name="Pairs", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )
    api = APIClient()
    api.force_authenticate(superuser())
    services.set_event_vp_scale(event=record.event, scale="acbl-20", by=superuser("root2"))
    body = api.get(f"/api/v1/events/{record.event.pk}/").json()
    assert body["vp_scale"]["name"] == "acbl-20" and body["vp_scale"]["chosen_by_event"] is True
    assert "bridgehands.com" in body["vp_scale"]["source"]
    assert api.get(f"/api/v1/events/{pairs.pk}/").json()["vp_scale"] is None


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["he", "el", "nl", "uk", "is"])
def test_the_scale_pages_read_in_every_language(client, language):
    from django.conf import settings

    from tests.test_every_language import english_in, shown

    record = build()
    root = superuser()
    add_test_scale(record, root)
    client.force_login(root)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    event_url = reverse("scoring:event", args=[record.event.pk])
    authority_url = reverse("scoring:authority-settings", args=[record.authority.pk])
    bad_table = TEST_TABLE_CSV.replace("9-11,8,20,5", "9-11,8,13,5")
    responses = [
        client.get(event_url),
        client.post(event_url, {"vp_scale": "nonsense"}),
        client.get(reverse("scoring:standings", args=[record.event.pk])),
        client.get(reverse("scoring:match", args=[record.match.pk])),
        client.get(authority_url),
        client.post(authority_url, {"name": "x", "max_vp": "25", "source": "s", "table": bad_table}),
        client.post(authority_url, {"name": "x y", "max_vp": "25", "source": " ", "table": bad_table}),
    ]
    for response in responses:
        assert response.status_code == 200
        assert english_in(shown(response, language), language) == [], response.wsgi_request.path


@pytest.mark.django_db
def test_a_scale_without_a_table_for_the_match_leaves_its_vps_empty_and_says_why(client):
    """A discrete scale chosen where a match has a number of boards it has no table for (the
    authority's setting is not checked against the events' matches; a match part played has
    fewer boards): the recalculation raised EngineInputError, so the event's standings stayed
    'pending' for good. Now the match keeps its IMPs, has no VPs, counts for nothing in the
    standings, and its page and the standings say why; the requests are finished."""
    record = build(boards=4)
    services.set_authority_setting(
        authority=record.authority,
        key="vp_scale",
        value="acbl-30",
        effective_from=datetime.date(2026, 1, 1),
        by=policy.SYSTEM,
    )
    recalculation.mark_board_dirty(record.boards[0])
    recalculation.recalculate_board(record.boards[0].pk)
    assert not RecalculationRequest.objects.filter(finished_at__isnull=True).exists()
    score = MatchScore.objects.get(match=record.match)
    assert (score.home_imps, score.away_imps, score.unscaled_boards) == (10, -10, 4)
    assert score.home_vp is None and score.away_vp is None
    assert not Standing.objects.filter(event=record.event, session=None).exists()
    client.force_login(superuser())
    why = "No victory points: the acbl-30 scale has no table for 4 boards."
    assert why in client.get(reverse("scoring:match", args=[record.match.pk])).content.decode()
    assert why in client.get(reverse("scoring:standings", args=[record.event.pk])).content.decode()
    api = client.get(f"/api/v1/events/{record.event.pk}/matches/").json()
    assert api[0]["unscaled_boards"] == 4 and api[0]["home_vp"] is None
    # back to a scale with the table: the VPs return
    services.set_authority_setting(
        authority=record.authority,
        key="vp_scale",
        value="wbf2013-20",
        effective_from=datetime.date(2026, 1, 1),
        by=policy.SYSTEM,
    )
    recalculation.mark_board_dirty(record.boards[0])
    recalculation.recalculate_board(record.boards[0].pk)
    score.refresh_from_db()
    assert score.unscaled_boards is None and score.home_vp is not None
