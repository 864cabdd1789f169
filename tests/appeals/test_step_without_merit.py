"""The door where the body finds an upheld appeal without merit (appeals:case-without-merit, Law 92A)."""

import pytest

from appeals import services
from tests.appeals.conftest import SOON, ready, refused, shown, take, vote_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def upheld(case):
    appeal, body, _hearing = ready(case)
    vote_all(body, "uphold")
    return services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="Pass is a LA", now=SOON)


def test_a_member_finds_it_without_merit(case, client, upheld):
    assert "Recorded." in shown(take(client, case.members[0], upheld, "without-merit", reasons="No case was made"))
    upheld.refresh_from_db()
    assert (upheld.without_merit, upheld.without_merit_reasons, upheld.sanction) == (True, "No case was made", "none")


def test_no_reasons_is_refused_by_name(case, client, upheld):
    page = shown(take(client, case.members[0], upheld, "without-merit", reasons=""))
    assert "reasons: Give the reasons: the appellants will read them." in page
    upheld.refresh_from_db()
    assert not upheld.without_merit


def test_a_director_may_not(case, client, upheld):
    response = take(client, case.director, upheld, "without-merit", reasons="No case was made")
    assert refused(response, "judges the appeal's merit")
