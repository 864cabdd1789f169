"""Issue #28: Law 91A lets the director assess disciplinary penalties in points, which come off
the score as a Law 90 penalty does but which an appeals body cannot cancel (93B3); Law 91B lets
him disqualify "subject to approval by the Tournament Organizer" (1997: the sponsoring
organisation): the approval is recorded (who, when) and a ruling with a disqualification not
approved is not given, the refusal naming the field."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from core import policy
from rulings import services
from rulings.models import Penalty, Ruling
from scoring import services as scoring_services
from scoring.models import Result

pytestmark = pytest.mark.django_db

APPROVED = datetime.datetime(2026, 5, 1, 21, 10, tzinfo=datetime.UTC)
MISSING = (
    "Law 91B: a disqualification needs the tournament organiser's approval: fill in \"Approved by the tournament "
    'organiser" with who approved it.'
)


def edition(field, value):
    scoring_services.set_authority_setting(
        authority=field.session.event.tournament.authority,
        key="laws_edition",
        value=value,
        effective_from=datetime.date(1997, 1, 1),
        by=policy.SYSTEM,
    )


def draft(field, director):
    return services.rule(
        result=field.results[6],
        director=director,
        kind="disciplinary_penalty",
        laws="91B",
        ruling_text="North disqualified",
        outcome="result_stands",
    )


def north(field):
    return field.pairs[6].members.order_by("pk").first()


def test_law_91a_points_come_off_the_score_and_an_appeal_does_not_cancel_them(field, director):
    ruling = draft(field, director)
    penalty = services.add_penalty(
        ruling=ruling,
        by=ruling.director,
        kind="disciplinary",
        side="NS",
        unit="pct",
        amount=25,
        offence="Abuse of an opponent",
    )
    assert str(penalty) == "Disciplinary penalty (Law 91): 25 percent of a top (N-S)"
    services.give_ruling(ruling=ruling, by=director)
    assert Result.objects.get(pk=field.results[6].pk).effective.penalty == {"ns": "25%"}
    assert services.cancel_penalties(ruling=ruling, by=director, reason="Appeal upheld") == []
    assert Penalty.objects.get().cancelled_at is None
    with pytest.raises(ValidationError) as error:
        services.add_penalty(
            ruling=ruling, by=ruling.director, kind="disciplinary", side="NS", unit="imps", offence="Abuse"
        )
    assert error.value.message_dict["amount"] == ["A penalty in IMPs needs an amount above 0."]


@pytest.mark.parametrize(
    ("laws", "message"),
    [
        ("2017", MISSING),
        ("2007", MISSING),
        (
            "1997",
            "Law 91B: a disqualification needs the sponsoring organisation's approval: fill in \"Approved by the "
            'tournament organiser" with who approved it.',
        ),
    ],
)
def test_a_disqualification_is_not_given_without_the_organisers_approval(field, director, laws, message):
    edition(field, laws)
    ruling = draft(field, director)
    services.add_penalty(
        ruling=ruling,
        by=ruling.director,
        kind="disciplinary",
        side="NS",
        unit="disqualification",
        player=north(field),
        offence="Cheating",
    )
    with pytest.raises(ValidationError) as error:
        services.give_ruling(ruling=ruling, by=director)
    assert error.value.message_dict == {"penalty_approved_by": [message]}
    assert Ruling.objects.get().state == Ruling.State.DRAFT
    # Added to a ruling given, a disqualification carries its approval at once.
    other = draft(field, director)
    services.give_ruling(ruling=other, by=director)
    with pytest.raises(ValidationError) as error:
        services.add_penalty(
            ruling=other, by=other.director, kind="disciplinary", side="NS", unit="disqualification", offence="x"
        )
    assert error.value.message_dict == {"approved_by": [message]}


def test_the_approval_is_recorded_who_and_when(field, director):
    ruling = draft(field, director)
    penalty = services.add_penalty(
        ruling=ruling,
        by=ruling.director,
        kind="disciplinary",
        side="NS",
        unit="disqualification",
        player=north(field),
        offence="Cheating",
        approved_by="C. Organiser",
        approved_at="2026-05-01T21:10:00+00:00",
    )
    assert (penalty.approved_by, penalty.approved_at) == ("C. Organiser", APPROVED)
    assert services.give_ruling(ruling=ruling, by=director).state == Ruling.State.GIVEN


def test_only_a_disqualification_carries_an_approval(field, director):
    ruling = draft(field, director)
    with pytest.raises(ValidationError) as error:
        services.add_penalty(
            ruling=ruling,
            by=ruling.director,
            kind="disciplinary",
            side="NS",
            unit="suspension",
            offence="x",
            approved_by="C. Organiser",
        )
    assert error.value.message_dict == {
        "approved_by": [
            "Only a disqualification needs the tournament organiser's approval (Law 91B): leave \"Approved by the "
            'tournament organiser" empty for a suspension from the session.'
        ]
    }
    with pytest.raises(ValidationError) as error:
        services.add_penalty(
            ruling=ruling,
            by=ruling.director,
            kind="disciplinary",
            side="NS",
            unit="disqualification",
            offence="x",
            approved_at=APPROVED,
        )
    assert error.value.message_dict == {
        "approved_by": ["Say who approved the disqualification: an approval time alone is no approval."]
    }
    with pytest.raises(ValidationError) as error:
        services.add_penalty(
            ruling=ruling,
            by=ruling.director,
            kind="disciplinary",
            side="NS",
            unit="disqualification",
            offence="x",
            approved_by="C",
            approved_at="soon",
        )
    assert error.value.message_dict == {"approved_at": ["'soon' is not a date and time such as 2026-11-28 14:30."]}


def form_data(**extra):
    return {
        "kind": "disciplinary_penalty",
        "laws": "91B",
        "ruling_text": "North disqualified",
        "outcome": "result_stands",
        "penalty_kind": "disciplinary",
        "penalty_side": "NS",
        "penalty_measure": "disqualification",
        "penalty_offence": "Cheating",
        "give": "1",
        **extra,
    }


def test_the_form_refuses_at_the_approval_field_and_records_it(client, field, director):
    client.force_login(director)
    url = reverse("rulings:ruling-new", args=[field.results[6].pk])
    response = client.post(url, form_data(penalty_player=str(north(field).pk)))
    assert response.status_code == 200
    assert response.context["form"].errors["penalty_approved_by"] == [MISSING]
    assert not Ruling.objects.exists()
    response = client.post(url, form_data(penalty_player=str(north(field).pk), penalty_approved_by="C. Organiser"))
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.unit, penalty.approved_by, penalty.player) == ("disqualification", "C. Organiser", north(field))
    page = client.get(response.url).content.decode()
    assert "approved by C. Organiser for the tournament organiser at" in page


def test_the_form_gives_law_91a_points(client, field, director):
    client.force_login(director)
    response = client.post(
        reverse("rulings:ruling-new", args=[field.results[6].pk]),
        form_data(laws="91A", penalty_measure="points", penalty_amount="2", penalty_unit="mp"),
    )
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.kind, penalty.unit, penalty.amount) == ("disciplinary", "mp", 2)
    assert Result.objects.get(pk=field.results[6].pk).effective.penalty == {"ns": "2"}
