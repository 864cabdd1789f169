"""Law 86D: in a team match, when a result was obtained at the other table between the same teams,
the director may give the adjusted score as the board's result in IMPs (or total points) instead of
a table score, where the regulating authority allows it: its dated setting
``team_adjustment_in_imps`` (the Laws' preset: allowed). Issue #39, item 8: it could not be given.

The match (tests/scoring/test_match_penalties.py): Lions (home) and Tigers (away), two boards.
Board 1: 4S= +420 for the Lions in the open room, 4S-1 -50 for the Tigers' N-S in the closed room:
10 IMPs to the Lions. Board 2: 0 IMPs. The director rules on board 1 in the closed room and gives
the Tigers (N-S there) -3 IMPs on the board: the Lions win the match by 3 IMPs over 2 boards, on the
WBF 2013 20-VP scale 12.42 to 7.58 (X = 15 sqrt 2: 10 + 10 (1 - tau^(9 / X)) / (1 - tau^3)).
"""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from bridge.engine.imps import team_board
from bridge.engine.scores import EngineInputError, parse_result
from bridge.engine.teams import total_points_board
from core import policy, roles
from rulings import services as ruling_services
from rulings.models import Ruling
from scoring import presets
from scoring import services as scoring_services
from scoring.models import Event, MatchScore, Result
from tests.conftest import make_user
from tests.scoring.test_match_penalties import build_match, recalculate

pytestmark = pytest.mark.django_db


def _director(record):
    user = make_user("td86")
    scoring_services.appoint_official(
        tournament=record.event.tournament, user=user, role=roles.DIRECTOR, by=policy.SYSTEM
    )
    return user


def _closed_result(record):
    return Result.objects.get(board=record.boards[0], table=record.match.closed_room)


def _rule_in_imps(record, director, imps):
    return ruling_services.rule(
        result=_closed_result(record),
        director=director,
        kind=Ruling.Kind.ADJUSTED_SCORE,
        laws="86D",
        outcome=Ruling.Outcome.ADJUSTED,
        score_kind=Ruling.ScoreKind.IMPS,
        ns=imps,
        offending_side="NS",
        ruling_text="The Tigers' N-S misinformed: -3 IMPs on the board",
        give=True,
    )


def _forbid(record):
    scoring_services.set_authority_setting(
        authority=record.event.tournament.authority,
        key="team_adjustment_in_imps",
        value=False,
        effective_from=datetime.date(2000, 1, 1),
        by=policy.SYSTEM,
    )


def test_an_adjusted_score_in_imps_is_the_boards_result_in_the_match():
    record = build_match()
    ruling = _rule_in_imps(record, _director(record), "-3")
    recalculate(record)
    ms = MatchScore.objects.get(match=record.match)
    assert (ruling.score, ruling.score_description) == ({"ns": {"imps": "-3"}}, "N-S -3 IMPs (Law 86D)")
    assert ms.boards[0] == {"board": 1, "home": "3", "away": "-3"}
    assert (ms.home_imps, ms.away_imps, ms.home_vp, ms.away_vp) == (3, -3, Decimal("12.42"), Decimal("7.58"))


def test_where_the_authority_does_not_allow_it_the_service_refuses_and_nothing_is_written():
    record = build_match()
    director = _director(record)
    _forbid(record)
    with pytest.raises(ValidationError) as error:
        _rule_in_imps(record, director, "-3")
    assert error.value.message_dict["score"] == [
        "Body teams-body does not allow an adjusted score in IMPs or total points (Law 86D): assign a table result."
    ]
    assert not Ruling.objects.exists()


def test_an_adjustment_in_imps_is_refused_at_a_pairs_event():
    record = build_match()
    director = _director(record)
    record.event.kind = Event.Kind.MP_PAIRS
    record.event.save(update_fields=["kind"])
    with pytest.raises(ValidationError) as error:
        _rule_in_imps(record, director, "2")
    assert error.value.message_dict["score"] == [
        "Teams is not a team match: an adjusted score in IMPs or total points (Law 86D) is given only in team "
        "play; assign a table result."
    ]


def test_a_board_is_worth_at_most_24_imps_law_78b():
    with pytest.raises(EngineInputError) as error:
        parse_result({"id": 1, "ns": {"imps": 25}})
    assert error.value.field == "ns.imps"
    assert "at most 24 IMPs (Law 78B)" in str(error.value)


def test_the_engine_scores_each_team_from_the_imps_given():
    """Law 86D in the engine: the team sitting N-S where the adjustment was given gains its IMPs,
    the other team loses them, whatever the other room's table result; at total points the same."""
    adjusted, played = parse_result({"id": 1, "ns": {"imps": 5}}), parse_result({"id": 2, "ns": 420})
    assert (team_board(adjusted, played).home, team_board(adjusted, played).away) == (5, -5)
    assert (team_board(played, adjusted).home, team_board(played, adjusted).away) == (-5, 5)
    in_points = parse_result({"id": 3, "ns": {"total_points": 300}})
    assert total_points_board(in_points, played).home == 300
    with pytest.raises(EngineInputError):
        team_board(in_points, played)  # total points are no score at IMPs


def test_the_ruling_form_offers_imps_only_where_the_authority_allows_it(client):
    record = build_match()
    director = _director(record)
    client.force_login(director)
    url = reverse("rulings:ruling-new", args=[_closed_result(record).pk])
    page = client.get(url).content.decode()
    assert '<option value="imps">The board' in page and 'name="imps"' in page
    _forbid(record)
    page = client.get(url).content.decode()
    assert '<option value="imps">The board' not in page and 'name="imps"' not in page


def test_the_ruling_form_gives_it_by_its_field(client):
    record = build_match()
    client.force_login(_director(record))
    url = reverse("rulings:ruling-new", args=[_closed_result(record).pk])
    response = client.post(
        url,
        {
            "kind": Ruling.Kind.ADJUSTED_SCORE,
            "laws": "86D",
            "outcome": Ruling.Outcome.ADJUSTED,
            "score_kind": "imps",
            "imps": "-3",
            "offending_side": "NS",
            "ruling_text": "-3 IMPs on the board",
            "give": "1",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Ruling.objects.get().score == {"ns": {"imps": "-3"}}


def test_the_presets_say_where_it_comes_from():
    (laws,) = presets.load("laws").entries_for("team_adjustment_in_imps")
    assert (laws.value, laws.status, laws.citation.section) == (True, "confirmed", "§ 86D")
    (ebu,) = presets.load("ebu").entries_for("team_adjustment_in_imps")
    assert (ebu.value, ebu.status) == (True, "default")
