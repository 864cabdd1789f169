"""The door for a referral to the regulating authority (appeals:case-refer-further, Law 93C)."""

import pytest

from tests.appeals.conftest import ready, refused, regulate, shown, take

pytestmark = pytest.mark.django_db


def test_the_director_refers_the_case(case, client):
    regulate(case, further_appeal="binding")
    appeal, _body, _hearing = ready(case)
    page = shown(
        take(client, case.director, appeal, "refer-further", origin="director", grounds="A question of principle")
    )
    assert "Recorded." in page
    assert (appeal.further.origin, appeal.further.binding, appeal.further.recorded_by) == (
        "director",
        True,
        case.director,
    )


def test_a_sitting_member_refers_for_the_body(case, client):
    regulate(case, further_appeal="advisory")
    appeal, _body, _hearing = ready(case)
    take(client, case.members[0], appeal, "refer-further", origin="body", grounds="Beyond us")
    assert appeal.further.origin == "body"


def test_a_member_may_not_refer_as_the_director(case, client):
    regulate(case, further_appeal="advisory")
    appeal, _body, _hearing = ready(case)
    response = take(client, case.members[0], appeal, "refer-further", origin="director", grounds="x")
    assert refused(response, "only a director refers a case to the regulating authority.")
