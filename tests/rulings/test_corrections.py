"""Issue #13: a second ruling on a table does not silently replace the first's score; a
correction supersedes the earlier ruling explicitly, with a reason (Law 82C, Law 79C), both
stay in the record and the audit trail, and the scores follow through the recalculation once."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from core import policy
from rulings import services
from rulings.models import Ruling, RulingRevision
from scoring import recalculation
from scoring import services as scoring_services
from scoring.models import Board, BoardScore, ScoreChange
from tests.conftest import table_x

pytestmark = pytest.mark.django_db

WEIGHTED = [
    {"contract": "4S", "declarer": "N", "tricks": 10, "weight": "0.5"},
    {"contract": "4S", "declarer": "N", "tricks": 11, "weight": "0.3"},
    {"contract": "4S", "declarer": "N", "tricks": 9, "weight": "0.2"},
]


def weighted_ruling(field, director):
    return services.rule(
        result=table_x(field),
        director=director,
        kind="ui",
        laws="16B1a, 12C1c",
        give=True,
        ruling_text="Score adjusted",
        outcome="adjusted",
        score_kind="weighted",
        ns=WEIGHTED,
        offending_side="NS",
    )


def version(board):
    return Board.objects.get(pk=board.pk).score_version


def test_a_second_adjusted_ruling_on_the_same_table_is_refused_naming_the_first(field, director):
    first = weighted_ruling(field, director)
    with pytest.raises(ValidationError) as exc:
        services.rule(
            result=table_x(field),
            director=director,
            kind="claim",
            laws="70D1",
            give=True,
            ruling_text="Claim",
            outcome="adjusted",
            score_kind="assigned",
            ns={"contract": "4S", "declarer": "N", "tricks": 9},
            offending_side="NS",
        )
    assert exc.value.message_dict["outcome"] == [
        "Ruling 1 already adjusted the score at this table (0.5 4S N = / 0.3 4S N +1 / 0.2 4S N -1): correct "
        "that ruling (Law 82C, Law 79C) rather than giving a second adjusted score."
    ]
    assert list(Ruling.objects.values_list("number", flat=True)) == [1]
    table_x(field).effective.refresh_from_db()
    assert table_x(field).effective.score == first.score
    assert ScoreChange.objects.count() == 1


def test_a_second_ruling_that_leaves_the_score_does_not_undo_the_first(field, director):
    first = weighted_ruling(field, director)
    before = version(field.boards[0])
    services.rule(
        result=table_x(field),
        director=director,
        kind="revoke",
        laws="64A1",
        give=True,
        ruling_text="Revoke established: one trick transferred",
        outcome="rectification",
    )
    result = table_x(field)
    result.refresh_from_db()
    assert result.effective.score == first.score  # not restored to the table result
    assert ScoreChange.objects.count() == 1
    assert version(field.boards[0]) == before  # nothing for the recalculation to do


def test_a_correction_supersedes_the_ruling_and_the_scores_follow_once(field, director):
    first = weighted_ruling(field, director)
    recalculation.recalculate_board(field.boards[0].pk)
    assert BoardScore.objects.get(result=table_x(field)).ns == Decimal("7.5")
    before = version(field.boards[0])
    correction = services.correct_ruling(
        ruling=first,
        director=director,
        basis="82C",
        reason="The poll was misread: 4S is not reached",
        kind="ui",
        laws="16B1a, 12C1e",
        ruling_text="Score adjusted to 3S N +1",
        outcome="adjusted",
        score_kind="assigned",
        ns={"contract": "3S", "declarer": "N", "tricks": 10},
        offending_side="NS",
    )
    first.refresh_from_db()
    assert first.state == Ruling.State.SUPERSEDED
    assert correction.state == Ruling.State.GIVEN and correction.supersedes == first
    assert (correction.correction_basis, correction.correction_reason) == (
        "82C",
        "The poll was misread: 4S is not reached",
    )
    assert version(field.boards[0]) == before + 1  # one change, one recalculation
    changes = list(ScoreChange.objects.order_by("pk").values_list("cause_label", "new_description"))
    assert changes == [("ruling 1", "0.5 4S N = / 0.3 4S N +1 / 0.2 4S N -1"), ("ruling 2", "3S N +1 (+170)")]
    assert ScoreChange.objects.last().reason == ("Ruling 2 corrects Ruling 1: The poll was misread: 4S is not reached")
    recalculation.recalculate_board(field.boards[0].pk)
    assert BoardScore.objects.get(result=table_x(field)).ns == Decimal("5")  # +170: beats two, ties one
    # Both versions in the record and in the audit trail.
    revision = RulingRevision.objects.get(ruling=first)
    assert revision.reason.startswith("Superseded by Ruling 2. The ruling was incorrect (Law 82C): The poll")
    superseded = AuditEntry.objects.get(action="ruling.superseded")
    assert superseded.after["superseded_by"] == 2 and superseded.after["reason"].startswith("The poll")
    assert AuditEntry.objects.filter(action="ruling.given").count() == 2


def test_a_correction_back_to_the_table_result_restores_it(field, director):
    first = weighted_ruling(field, director)
    services.correct_ruling(
        ruling=first,
        director=director,
        basis="79C",
        reason="No hesitation after all",
        kind="ui",
        laws="16B1a",
        ruling_text="Result stands",
        outcome="result_stands",
    )
    assert not hasattr(type(table_x(field)).objects.get(pk=table_x(field).pk), "effective")
    assert ScoreChange.objects.order_by("pk").last().new_kind == "table"


@pytest.mark.parametrize(
    "basis,reason,field_name,message",
    [
        ("", "Misread", "correction_basis", "Say on what ground the ruling is corrected: Law 82C or Law 79C."),
        (
            "82C",
            "  ",
            "correction_reason",
            "Say why the ruling is corrected: the players and an appeals body will read it.",
        ),
    ],
)
def test_a_correction_needs_its_ground_and_reason(field, director, basis, reason, field_name, message):
    first = weighted_ruling(field, director)
    with pytest.raises(ValidationError) as exc:
        services.correct_ruling(
            ruling=first,
            director=director,
            basis=basis,
            reason=reason,
            kind="ui",
            laws="16B1a",
            ruling_text="Result stands",
            outcome="result_stands",
        )
    assert exc.value.message_dict[field_name] == [message]
    first.refresh_from_db()
    assert first.state == Ruling.State.GIVEN


def test_only_a_ruling_in_force_is_corrected_once_and_within_the_correction_period(field, director):
    draft = services.rule(
        result=field.results[0],
        director=director,
        kind="claim",
        laws="70D1",
        ruling_text="Claim",
        outcome="result_stands",
    )
    with pytest.raises(ValidationError) as exc:
        services.correct_ruling(
            ruling=draft,
            director=director,
            basis="82C",
            reason="x",
            kind="claim",
            laws="70D1",
            ruling_text="Claim",
            outcome="result_stands",
        )
    assert exc.value.message_dict["supersedes"] == ["Ruling 1 is draft: only a ruling in force is corrected."]
    first = weighted_ruling(field, director)
    services.correct_ruling(
        ruling=first,
        director=director,
        basis="82C",
        reason="Misread",
        kind="ui",
        laws="16B1a",
        ruling_text="Result stands",
        outcome="result_stands",
    )
    with pytest.raises(ValidationError) as exc:
        services.correct_ruling(
            ruling=first,
            director=director,
            basis="82C",
            reason="Again",
            kind="ui",
            laws="16B1a",
            ruling_text="Result stands",
            outcome="result_stands",
        )
    assert exc.value.message_dict["supersedes"] == [
        "Ruling 2 is superseded by a correction: only a ruling in force is corrected."
    ]
    third = Ruling.objects.get(number=3)
    scoring_services.post_official_scores(
        session=field.session, at=timezone.now() - datetime.timedelta(days=2), by=policy.SYSTEM
    )
    with pytest.raises(ValidationError) as exc:
        services.correct_ruling(
            ruling=third,
            director=director,
            basis="79C",
            reason="Late",
            kind="ui",
            laws="16B1a",
            ruling_text="Result stands",
            outcome="result_stands",
        )
    assert exc.value.message_dict["correction_basis"][0].startswith("The correction period (Law 79C1) ended at ")


def test_the_form_shows_the_rulings_at_the_table_and_corrects_one(client, field, director):
    first = weighted_ruling(field, director)
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-new", args=[table_x(field).pk])).content.decode()
    assert "Rulings already recorded at this table" in page
    assert reverse("rulings:ruling-correct", args=[first.pk]) in page
    response = client.post(
        reverse("rulings:ruling-correct", args=[first.pk]),
        {
            "correction_basis": "82C",
            "correction_reason": "The poll was misread",
            "kind": "ui",
            "laws": "16B1a",
            "ruling_text": "Result stands",
            "outcome": "result_stands",
            "give": "1",
        },
    )
    correction = Ruling.objects.get(number=2)
    assert response.status_code == 302 and response.url == reverse("rulings:ruling", args=[correction.pk])
    page = client.get(response.url).content.decode()
    assert 'id="versions"' in page and "The poll was misread" in page
    assert "Superseded by a correction" in page
    page = client.get(reverse("rulings:ruling", args=[first.pk])).content.decode()
    assert 'id="correct-ruling"' not in page  # superseded: nothing left to correct
    assert reverse("rulings:ruling", args=[correction.pk]) in page


def test_the_correction_form_refuses_without_a_reason_at_the_field(client, field, director):
    first = weighted_ruling(field, director)
    client.force_login(director)
    response = client.post(
        reverse("rulings:ruling-correct", args=[first.pk]),
        {
            "correction_basis": "82C",
            "correction_reason": "",
            "kind": "ui",
            "laws": "16B1a",
            "ruling_text": "Result stands",
            "outcome": "result_stands",
            "give": "1",
        },
    )
    assert response.status_code == 200
    assert response.context["form"].errors["correction_reason"] == ["This field is required."]
    assert Ruling.objects.count() == 1
