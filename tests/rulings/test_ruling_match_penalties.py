"""A ruling's Law 90 penalty in VPs at a team event comes off the team's match (issue #17): given
with the ruling (service and form), withdrawn and given again by a correction, never counted
twice, cancelled by an appeal decision, refused where the authority's setting does not allow it.

The match of tests/scoring/test_match_penalties.py: the Lions win by 10 IMPs over 2 boards,
16.46 to 3.54 VPs; the Lions sit N-S in the open room.
"""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from core import policy, roles
from rulings import services
from rulings.models import Penalty
from scoring import services as scoring_services
from scoring.models import MatchPenalty, Result
from tests.scoring.test_match_penalties import build_match, official, recalculate, score

pytestmark = pytest.mark.django_db


def open_room_result(record):
    return Result.objects.get(board=record.boards[1], table=record.match.open_room)


def rule_with_penalty(record, director, amount="1", side="NS", **extra):
    return services.rule(
        result=open_room_result(record),
        director=director,
        kind="procedural_penalty",
        laws="90A",
        ruling_text="Slow play: 1 VP",
        outcome="result_stands",
        penalty={"side": side, "unit": "vps", "amount": amount, "offence": "Slow play"},
        give=True,
        **extra,
    )


def vps(record):
    recalculate(record)
    ms, totals = score(record)
    return ms.home_vp, ms.away_vp, totals["Lions"], totals["Tigers"]


def test_a_rulings_penalty_in_vps_comes_off_the_teams_match():
    record = build_match()
    director = official(record, "td", roles.DIRECTOR)
    ruling = rule_with_penalty(record, director)
    carried = MatchPenalty.objects.get()
    assert (carried.team, carried.amount, carried.unit, carried.offence, carried.given_by) == (
        record.lions,
        Decimal("1.00"),
        "vps",
        f"Ruling {ruling.number}: Slow play",
        director,
    )
    assert Penalty.objects.get().match_penalty == carried
    assert vps(record) == (Decimal("15.46"), Decimal("3.54"), Decimal("15.46"), Decimal("3.54"))
    assert not hasattr(open_room_result(record), "effective")  # nothing on the board


def test_the_ruling_form_gives_a_penalty_in_vps_against_the_team_sitting_e_w():
    record = build_match()
    director = official(record, "td", roles.DIRECTOR)
    client = Client()
    client.force_login(director)
    response = client.post(
        reverse("rulings:ruling-new", args=[open_room_result(record).pk]),
        {
            "kind": "procedural_penalty",
            "laws": "90A",
            "ruling_text": "Mobile phone rang",
            "outcome": "result_stands",
            "penalty_kind": "procedural",
            "penalty_side": "EW",
            "penalty_amount": "0.5",
            "penalty_unit": "vps",
            "penalty_offence": "Mobile phone",
            "give": "1",
        },
    )
    assert response.status_code == 302
    assert [(p.team, p.amount) for p in MatchPenalty.objects.all()] == [(record.tigers, Decimal("0.50"))]
    assert vps(record) == (Decimal("16.46"), Decimal("3.04"), Decimal("16.46"), Decimal("3.04"))


def test_a_correction_withdraws_the_old_penalty_and_gives_the_new_one_once():
    record = build_match()
    director = official(record, "td", roles.DIRECTOR)
    first = rule_with_penalty(record, director)
    correction = services.correct_ruling(
        ruling=first,
        director=director,
        basis="82C",
        reason="Two offences of slow play",
        kind="procedural_penalty",
        laws="90A",
        ruling_text="Slow play: 2 VPs",
        outcome="result_stands",
        penalty={"side": "NS", "unit": "vps", "amount": "2", "offence": "Slow play, twice"},
    )
    old, new = MatchPenalty.objects.order_by("pk")
    assert (old.amount, old.withdrawn_at is not None, old.withdrawal_reason) == (
        Decimal("1.00"),
        True,
        f"Ruling {correction.number} corrects Ruling {first.number}: Two offences of slow play",
    )
    assert (new.amount, new.withdrawn_at, new.team) == (Decimal("2.00"), None, record.lions)
    assert vps(record) == (Decimal("14.46"), Decimal("3.54"), Decimal("14.46"), Decimal("3.54"))
    # Changing the corrected ruling again (no new penalty) gives nothing a second time.
    services.change_ruling(ruling=correction, by=director, reason="Wording", ruling_text="Slow play, twice: 2 VPs")
    assert MatchPenalty.objects.filter(withdrawn_at__isnull=True).count() == 1
    assert vps(record)[0] == Decimal("14.46")


def test_a_correction_without_a_penalty_withdraws_it():
    record = build_match()
    director = official(record, "td", roles.DIRECTOR)
    first = rule_with_penalty(record, director)
    services.correct_ruling(
        ruling=first,
        director=director,
        basis="82C",
        reason="The play was not slow",
        kind="procedural_penalty",
        laws="90A",
        ruling_text="No penalty",
        outcome="result_stands",
    )
    assert MatchPenalty.objects.get().withdrawn_at is not None
    assert vps(record) == (Decimal("16.46"), Decimal("3.54"), Decimal("16.46"), Decimal("3.54"))


def test_a_penalty_in_vps_is_refused_where_the_body_takes_imps_naming_the_field():
    record = build_match()
    scoring_services.set_authority_setting(
        authority=record.event.tournament.authority,
        key="team_penalty_units",
        value="imps",
        effective_from=record.event.tournament.start_date,
        by=policy.SYSTEM,
    )
    director = official(record, "td", roles.DIRECTOR)
    with pytest.raises(ValidationError) as error:
        rule_with_penalty(record, director)
    assert error.value.message_dict == {
        "penalty_unit": ["Body teams-body gives a team's penalties in a match in IMPs, not in VPs."]
    }
    assert not Penalty.objects.exists() and not MatchPenalty.objects.exists()


def test_a_penalty_in_vps_is_refused_at_a_knockout_match_naming_the_field():
    from scoring.models import Event

    record = build_match(kind=Event.Kind.KNOCKOUT_TEAMS, code="ko-body")
    director = official(record, "td", roles.DIRECTOR)
    with pytest.raises(ValidationError) as error:
        rule_with_penalty(record, director)
    assert error.value.message_dict == {
        "penalty_unit": ["A knockout match is decided on IMPs: give the penalty in IMPs."]
    }
    assert not MatchPenalty.objects.exists()


def test_cancelling_the_rulings_penalties_withdraws_the_match_penalty():
    record = build_match()
    director = official(record, "td", roles.DIRECTOR)
    ruling = rule_with_penalty(record, director)
    cancelled = services.cancel_penalties(ruling=ruling, by=director, reason="Appeal 1: the play was not slow")
    assert [p.cancellation_reason for p in cancelled] == ["Appeal 1: the play was not slow"]
    carried = MatchPenalty.objects.get()
    assert (carried.withdrawn_at is not None, carried.withdrawal_reason) == (True, "Appeal 1: the play was not slow")
    assert vps(record)[0] == Decimal("16.46")
    client = Client()
    client.force_login(director)
    page = client.get(reverse("rulings:ruling", args=[ruling.pk])).content.decode()
    assert "Slow play · cancelled at " in page and ": Appeal 1: the play was not slow</p>" in page
    # A later change of the ruling does not give it again.
    services.change_ruling(ruling=ruling, by=director, reason="Wording", ruling_text="No penalty after appeal")
    assert MatchPenalty.objects.filter(withdrawn_at__isnull=True).count() == 0


def test_a_penalty_in_vps_is_refused_at_a_pairs_event_naming_the_field(field):
    director = official(field, "td", roles.DIRECTOR)
    with pytest.raises(ValidationError) as error:
        services.rule(
            result=field.results[6],
            director=director,
            kind="procedural_penalty",
            laws="90A",
            ruling_text="Slow play",
            outcome="result_stands",
            penalty={"side": "NS", "unit": "vps", "amount": "1", "offence": "Slow play"},
            give=True,
        )
    assert error.value.message_dict == {
        "penalty_unit": [
            f"A penalty in VPs comes off a team's match; {field.event} is not a team event: give it in matchpoints "
            "or percent of a top."
        ]
    }
    assert not Penalty.objects.exists()
