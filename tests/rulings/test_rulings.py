"""Director rulings: the record, citations per edition, every kind of outcome, the regulating
authority's limits, and the score effect through the scoring service."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from core import policy
from rulings import services
from rulings.models import Penalty, Ruling, RulingRevision
from scoring import recalculation
from scoring import services as scoring_services
from scoring.models import BoardScore, ScoreChange, Standing
from tests.conftest import table_x

pytestmark = pytest.mark.django_db


def rule(field, director, **kwargs):
    defaults = dict(
        result=table_x(field),
        director=director,
        kind=Ruling.Kind.UNAUTHORISED_INFORMATION,
        laws="16B1a, 12C1c",
        ruling_text="Score adjusted",
        reasoning="Pass was a logical alternative",
        give=True,
    )
    defaults.update(kwargs)
    return services.rule(**defaults)


WEIGHTED = [
    {"contract": "4S", "declarer": "N", "tricks": 10, "weight": "0.5"},
    {"contract": "4S", "declarer": "N", "tricks": 11, "weight": "0.3"},
    {"contract": "4S", "declarer": "N", "tricks": 9, "weight": "0.2"},
]


def test_a_weighted_ruling_reaches_the_standings(field, director):
    ruling = rule(field, director, outcome="adjusted", score_kind="weighted", ns=WEIGHTED, offending_side="EW")
    assert ruling.state == Ruling.State.GIVEN
    assert ruling.number == 1
    assert ruling.score == {"ns": [[420, "0.5"], [450, "0.3"], [-50, "0.2"]]}
    assert ruling.score_description == "0.5 4S N = / 0.3 4S N +1 / 0.2 4S N -1"
    assert [c.law.number for c in ruling.citations.order_by("law__number")] == ["12C1c", "16B1a"]
    change = ScoreChange.objects.get()
    assert (change.cause_type, change.cause_id, change.cause_label) == ("ruling", ruling.pk, "ruling 1")
    recalculation.recalculate_board(field.boards[0].pk)
    assert BoardScore.objects.get(result=table_x(field)).ns == Decimal("7.5")
    standing = Standing.objects.get(event=field.event, session=None, contestant=field.pairs[6])
    assert standing.total == Decimal("7.5")
    change.refresh_from_db()
    assert change.explain("NS") == (
        "Board 1: 4S N = +420 replaced by 0.5 4S N = / 0.3 4S N +1 / 0.2 4S N -1 by ruling 1, 8 -> 7.5 MP"
    )


@pytest.mark.parametrize(
    "kind,laws,outcome,score_kind,ns,ew,expected",
    [
        (Ruling.Kind.LAW_APPLIED, "27B1a", "rectification", "", None, None, None),
        (
            Ruling.Kind.MISINFORMATION,
            "21B3, 12C1e",
            "adjusted",
            "assigned",
            {"contract": "3S", "declarer": "N", "tricks": 10},
            None,
            {"ns": 170},
        ),
        (
            Ruling.Kind.ADJUSTED_SCORE,
            "12C1e",
            "adjusted",
            "split",
            {"contract": "4S", "declarer": "N", "tricks": 10},
            {"contract": "4S", "declarer": "N", "tricks": 11},
            {"ns": 420, "ew": 450},
        ),
        (
            Ruling.Kind.FOULED_BOARD,
            "87A, 12C2a",
            "adjusted",
            "artificial",
            "AVE+",
            "AVE-",
            {"ns": "AVE+", "ew": "AVE-"},
        ),
        (
            Ruling.Kind.CLAIM,
            "70D1",
            "adjusted",
            "assigned",
            {"contract": "4S", "declarer": "N", "tricks": 9},
            None,
            {"ns": -50},
        ),
        (Ruling.Kind.REVOKE, "64A1", "rectification", "", None, None, None),
    ],
)
def test_every_kind_of_ruling_is_recorded_with_its_score(
    field, director, kind, laws, outcome, score_kind, ns, ew, expected
):
    ruling = rule(
        field,
        director,
        kind=kind,
        laws=laws,
        outcome=outcome,
        score_kind=score_kind,
        ns=ns,
        ew=ew,
        offending_side="EW" if outcome == "adjusted" else "",
    )
    assert ruling.score == expected
    effective = getattr(table_x(field), "effective", None) if expected else None
    assert (effective.score if effective else None) == expected


def test_redress_after_a_serious_error(field, director):
    redress = {
        "table": {"contract": "4H", "declarer": "N", "tricks": 7},
        "normal_play": {"contract": "4H", "declarer": "N", "tricks": 9},
        "without_infraction": {"contract": "3H", "declarer": "N", "tricks": 9},
        "non_offending": "NS",
    }
    ruling = rule(
        field,
        director,
        kind=Ruling.Kind.ADJUSTED_SCORE,
        laws="12C1b",
        outcome="adjusted",
        score_kind="redress",
        ns=redress,
        offending_side="EW",
    )
    assert ruling.score == {"ns": {"table": -150, "normal_play": -50, "without_infraction": 140, "non_offending": "NS"}}


def test_directors_error_treats_both_sides_as_non_offending(field, director):
    ruling = rule(
        field,
        director,
        kind=Ruling.Kind.DIRECTORS_ERROR,
        laws="82C",
        outcome="adjusted",
        score_kind="artificial",
        ns="AVE+",
        ew="AVE+",
    )
    assert ruling.score == {"ns": "AVE+", "ew": "AVE+"}
    assert table_x(field).effective.outside_agency is True
    with pytest.raises(ValidationError) as exc:
        rule(
            field,
            director,
            kind=Ruling.Kind.DIRECTORS_ERROR,
            laws="82C",
            outcome="adjusted",
            score_kind="artificial",
            ns="AVE+",
            ew="AVE+",
            offending_side="EW",
        )
    assert exc.value.message_dict["offending_side"] == [
        "A director's error (Law 82C) has no offending side: both sides are treated as non-offending."
    ]


def test_citations_are_checked_against_the_edition_in_force(field, director):
    with pytest.raises(ValidationError) as exc:
        rule(field, director, laws="92B, 12C9")
    assert exc.value.message_dict["laws"][0].startswith("Law 12C9 does not exist in the 2017 Laws")
    assert not Ruling.objects.exists()
    scoring_services.set_authority_setting(
        authority=field.authority,
        key="laws_edition",
        value="1997",
        effective_from=datetime.date(2000, 1, 1),
        by=policy.SYSTEM,
    )
    ruling = rule(field, director, laws="64A2", outcome="rectification")
    assert ruling.citations.get().law.edition == "1997"


def test_the_regulating_authority_limits_adjusted_scores(field, director):
    scoring_services.set_authority_setting(
        authority=field.authority,
        key="weighted_scores_allowed",
        value=False,
        effective_from=datetime.date(2000, 1, 1),
        by=policy.SYSTEM,
    )
    with pytest.raises(ValidationError) as exc:
        rule(field, director, outcome="adjusted", score_kind="weighted", ns=WEIGHTED, offending_side="EW")
    assert "does not allow weighted scores" in exc.value.message_dict["score"][0]
    scoring_services.set_authority_setting(
        authority=field.authority,
        key="weighted_scores_allowed",
        value=True,
        effective_from=datetime.date(2000, 1, 2),
        by=policy.SYSTEM,
    )
    thirds = [dict(row, weight="0.333") for row in WEIGHTED[:2]] + [dict(WEIGHTED[2], weight="0.334")]
    with pytest.raises(ValidationError) as exc:
        rule(field, director, outcome="adjusted", score_kind="weighted", ns=thirds, offending_side="EW")
    assert "0.333" in exc.value.message_dict["score"][0] and "2 decimals" in exc.value.message_dict["score"][0]
    bad_sum = [dict(WEIGHTED[0], weight="0.6"), dict(WEIGHTED[1], weight="0.3")]
    with pytest.raises(ValidationError) as exc:
        rule(field, director, outcome="adjusted", score_kind="weighted", ns=bad_sum, offending_side="EW")
    assert "weights add up to 0.9, not 1" in exc.value.message_dict["score"][0]
    assert not Ruling.objects.exists() and not ScoreChange.objects.exists()


def test_a_bad_contract_in_an_adjusted_score_names_the_row(field, director):
    with pytest.raises(ValidationError) as exc:
        rule(
            field,
            director,
            outcome="adjusted",
            score_kind="weighted",
            offending_side="EW",
            ns=[dict(WEIGHTED[0], contract="8S"), WEIGHTED[1]],
        )
    assert exc.value.message_dict == {"ns[1]": ["contract: '8S' has level 8: a level is 1 to 7."]}


def test_giving_a_ruling_requires_a_complete_record(field, director):
    with pytest.raises(ValidationError) as exc:
        rule(
            field,
            director,
            laws="",
            ruling_text="",
            outcome="adjusted",
            score_kind="assigned",
            ns={"contract": "3S", "declarer": "N", "tricks": 9},
        )
    assert set(exc.value.message_dict) == {"ruling_text", "laws", "offending_side"}


def test_a_procedural_penalty_is_deducted_from_the_side(field, director):
    rule(
        field,
        director,
        kind=Ruling.Kind.PROCEDURAL_PENALTY,
        laws="90B8",
        outcome="result_stands",
        penalty={"side": "EW", "amount": "25", "unit": Penalty.Unit.PERCENT_OF_TOP, "offence": "late arrival"},
    )
    recalculation.recalculate_board(field.boards[0].pk)
    x = BoardScore.objects.get(result=table_x(field))
    # Table X's E-W scored 4 of 12; a quarter of a top (3) comes off: 1. N-S keep their 8.
    assert (x.ns, x.ew) == (Decimal("8"), Decimal("1"))


def test_changing_a_ruling_is_logged_and_rescored(field, director):
    ruling = rule(
        field,
        director,
        outcome="adjusted",
        score_kind="assigned",
        ns={"contract": "3S", "declarer": "N", "tricks": 9},
        offending_side="EW",
    )
    services.change_ruling(
        ruling=ruling,
        by=director,
        reason="Colleague consulted: 4S makes",
        outcome="adjusted",
        score_kind="assigned",
        ns={"contract": "4S", "declarer": "N", "tricks": 10},
    )
    revision = RulingRevision.objects.get()
    assert revision.before["score"] == {"ns": 140} and revision.after["score"] == {"ns": 420}
    assert revision.reason == "Colleague consulted: 4S makes"
    assert [c.new_value for c in ScoreChange.objects.order_by("pk")] == [{"ns": 140}, {"ns": 420}]
    with pytest.raises(ValidationError) as exc:
        services.change_ruling(ruling=ruling, by=director, reason="", ruling_text="x")
    assert exc.value.message_dict == {"reason": ["Say why the ruling changes."]}


def test_screens_tray_delay_and_clocks(field, director):
    with pytest.raises(ValidationError) as exc:
        rule(field, director, tray_delay_seconds=25, screens=False, outcome="result_stands")
    assert exc.value.message_dict == {"tray_delay_seconds": ["A tray delay is recorded only when screens are in use."]}
    ruling = rule(field, director, tray_delay_seconds=25, screens=True, noticed_by="EW", outcome="result_stands")
    assert ruling.appeal_deadline() is None
    posted = datetime.datetime(2026, 5, 1, 22, 0, tzinfo=datetime.UTC)
    scoring_services.post_official_scores(session=field.session, at=posted, by=policy.SYSTEM)
    assert ruling.appeal_deadline() == posted + datetime.timedelta(minutes=30)
    assert services.finalise_rulings(by=policy.SYSTEM, now=posted + datetime.timedelta(minutes=29)) == 0
    assert services.finalise_rulings(by=policy.SYSTEM, now=posted + datetime.timedelta(minutes=30)) == 1
    ruling.refresh_from_db()
    assert ruling.state == Ruling.State.FINAL


def test_weights_as_percentages_and_round_penalties(field, director):
    ruling = rule(
        field,
        director,
        outcome="adjusted",
        score_kind="weighted",
        offending_side="EW",
        ns=[dict(WEIGHTED[0], weight="60%"), dict(WEIGHTED[2], weight="40%")],
        penalty={"side": "EW", "amount": "10", "unit": Penalty.Unit.PERCENT_OF_TOP, "offence": "slow play"},
    )
    assert ruling.score == {"ns": [[420, "60%"], [-50, "40%"]]}  # as typed (issue #42)
    assert ruling.score_description == "60% 4S N = / 40% 4S N -1"
    assert table_x(field).effective.penalty == {"ew": "10%"}
