"""Issue #28: claims recorded as adjudications (no offending side; Law 70, 71 or 69B as the case
is; 70C when an outstanding trump went unmentioned), the correction-period clock only for a
concession cancelled or an acquiescence withdrawn; 67A and a revoke rectified as if established
on a ruling. Table X: 4S by North; at trick 6 East holds the QJ of trumps."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from core import policy
from rulings import revokes
from rulings.models import Ruling
from scoring import services as scoring_services
from tests.rulings.test_revoke_rulings import open_ruling

pytestmark = pytest.mark.django_db

POSTED = datetime.datetime(2026, 5, 1, 20, 0, tzinfo=datetime.UTC)


def laws(ruling):
    return sorted(c.law.number for c in Ruling.objects.get(pk=ruling.pk).citations.all())


def test_a_cancelled_concession_cites_71_with_no_offending_side(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    item = revokes.record_claim(
        ruling=ruling,
        by=director,
        claimer="N",
        statement="I'll concede a trump trick",
        basis="71",
        trump_mentioned=True,
    )
    assert (item.facts["basis"], item.facts["outstanding_trumps"]) == ("71", ["SQ", "SJ"])
    revokes.confirm(ruling=ruling, by=director, awarded_tricks=10, normal_line="The trump trick cannot be lost")
    ruling.refresh_from_db()
    assert ruling.offending_side == ""
    assert laws(ruling) == ["71"]


def test_a_contested_claim_mentioning_the_trump_cites_70_alone(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    revokes.record_claim(
        ruling=ruling, by=director, claimer="N", statement="Drawing the QJ, all mine", trump_mentioned=True
    )
    revokes.confirm(ruling=ruling, by=director, awarded_tricks=10, normal_line="Trumps drawn first")
    assert laws(ruling) == ["70"]


def test_the_concession_clock_runs_for_71_and_69B_not_for_a_contested_claim(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    scoring_services.post_official_scores(session=field.session, at=POSTED, by=policy.SYSTEM)
    for basis in ("71", "69B"):
        with pytest.raises(ValidationError):
            revokes.record_claim(ruling=ruling, by=director, claimer="N", statement="Conceded", basis=basis)
    assert revokes.record_claim(ruling=ruling, by=director, claimer="N", statement="All mine").facts["basis"] == "70"


def test_an_unknown_basis_is_refused(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    with pytest.raises(ValidationError) as error:
        revokes.record_claim(ruling=ruling, by=director, claimer="N", statement="x", basis="68")
    assert list(error.value.message_dict) == ["basis"]


def test_67A_on_a_ruling_transfers_nothing(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.REVOKE)
    item = revokes.record_defective_trick(
        ruling=ruling,
        by=director,
        trick=5,
        offender="W",
        could_follow=False,
        offending_side_won_from_then=True,
        before_next_trick=True,
    )
    assert (item.law, item.transfer, item.result_tricks) == ("67A1", 0, item.table_tricks)


def test_a_revoke_rectified_as_if_established_cites_43B2b(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.REVOKE)
    facts = {
        "trick": 3,
        "offender": "E",
        "established": False,
        "offender_won_revoke_trick": False,
        "offending_side_won_revoke_trick": False,
        "offending_side_tricks_after": 1,
        "as_if_established": True,
    }
    item = revokes.record_revoke(ruling=ruling, by=director, facts=facts)
    assert (item.law, item.transfer) == ("64A2", 1)
    revokes.confirm(ruling=ruling, by=director)
    assert laws(ruling) == ["43B2b", "64A2"]


@pytest.mark.parametrize(
    ("edition", "new_line_law", "unstated_law"), [("1997", "70D", "70E"), ("2017", "70D1", "70E1")]
)
def test_a_new_line_and_an_unstated_finesse_cite_70D_and_70E(field, director, edition, new_line_law, unstated_law):
    from tests.rulings.test_revoke_rulings import edition as set_edition

    set_edition(field, edition)
    ruling = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    revokes.record_claim(
        ruling=ruling,
        by=director,
        claimer="N",
        statement="Drawing trumps",
        trump_mentioned=True,
        new_line=True,
        unstated_line=True,
    )
    revokes.confirm(ruling=ruling, by=director, awarded_tricks=9, normal_line="No finesse: East's CK wins")
    assert laws(ruling) == sorted(["70", new_line_law, unstated_law])
