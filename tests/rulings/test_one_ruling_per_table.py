"""One ruling per table unless a director says otherwise (issue #41), on the ruling form and the
API as on the phone's drafts: where another director has ruled at the table, a second ruling is
refused naming the first (the API's 409 with its page in ``Link``, the form's refusal with its
number and a link), unless the director records it as "a further ruling on this table", which is
recorded on the ruling and in its audit entry. The table's row is locked for the check."""

import json
import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from audit.models import AuditEntry
from core import policy, roles
from rulings import services
from rulings.models import Ruling
from scoring import services as scoring_services
from tests.conftest import make_user, ruling_at, table_x

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga(field):
    """A second director of the field's tournament."""
    user = make_user("olga", first_name="Olga", last_name="Other")
    scoring_services.appoint_official(tournament=field.tournament, user=user, role=roles.DIRECTOR, by=policy.SYSTEM)
    return user


def test_a_second_directors_ruling_at_the_table_is_refused_naming_the_first(field, director, olga):
    first = ruling_at(table_x(field), director)
    with pytest.raises(services.TableRuled) as refused:
        ruling_at(table_x(field), olga)
    message = refused.value.message_dict["further_ruling"][0]
    assert f"Ruling {first.number} by Dana" in message
    assert refused.value.others == [first]
    assert Ruling.objects.count() == 1  # nothing half-written


def test_a_further_ruling_is_recorded_as_one_beside_the_first(field, director, olga):
    first = ruling_at(table_x(field), director)
    further = ruling_at(table_x(field), olga, further_ruling=True)
    assert further.further_ruling and not first.further_ruling
    entry = AuditEntry.objects.get(action="ruling.recorded", object_id=str(further.pk))
    assert entry.after["further_ruling_beside"] == [first.number]


def test_the_same_director_and_a_correction_are_no_second_director(field, director, olga):
    first = ruling_at(table_x(field), director)
    again = ruling_at(table_x(field), director, kind="claim", laws="70D1")
    assert not again.further_ruling
    # A correction by another director supersedes the first explicitly: no further ruling.
    corrected = services.correct_ruling(
        ruling=first,
        director=olga,
        basis="82C",
        reason="The claim was misread",
        kind="claim",
        laws="70D1",
        ruling_text="The claim stands, corrected",
        outcome="result_stands",
    )
    assert corrected.supersedes_id == first.pk and not corrected.further_ruling


def test_the_option_is_no_further_ruling_where_nobody_else_ruled(field, director):
    ruling = ruling_at(table_x(field), director, further_ruling=True)
    assert not ruling.further_ruling


def _api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def _body(field, **extra):
    posted = field.session.official_score_at
    return {
        "result": table_x(field).pk,
        "kind": "claim",
        "laws": ["70D1"],
        "give": True,
        "ruling_text": "The claim stands",
        "outcome": "result_stands",
        **({"called_at": posted.isoformat()} if posted else {}),
        **extra,
    }


def test_the_api_answers_409_naming_the_first_with_its_page_linked(field, director, olga):
    first = ruling_at(table_x(field), director)
    answer = _api(olga).post("/api/v1/rulings/", json.dumps(_body(field)), content_type="application/json")
    assert answer.status_code == 409, answer.content
    assert f"Ruling {first.number} by Dana" in answer.json()["further_ruling"][0]
    assert answer["Link"] == f'</rulings/{first.pk}/>; rel="related"'
    answer = _api(olga).post(
        "/api/v1/rulings/", json.dumps(_body(field, further_ruling=True)), content_type="application/json"
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["further_ruling"] is True


def _form(**extra):
    return {"kind": "claim", "laws": "70D1", "ruling_text": "The claim stands", "outcome": "result_stands", **extra}


def test_the_form_refuses_naming_the_first_and_offers_a_further_ruling(client, field, director, olga):
    first = ruling_at(table_x(field), director)
    client.force_login(olga)
    url = f"/rulings/new/{table_x(field).pk}/"
    page = client.get(url)
    assert b'id="table-ruled"' in page.content and b'name="further_ruling"' in page.content
    refused = client.post(url, _form(give="1"))
    assert refused.status_code == 200
    text = refused.content.decode()
    assert f"Ruling {first.number} by Dana" in text
    assert f'href="/rulings/{first.pk}/" id="open-first-ruling"' in text
    assert Ruling.objects.count() == 1
    given = client.post(url, _form(give="1", further_ruling="on"))
    assert given.status_code == 302
    assert Ruling.objects.exclude(pk=first.pk).get().further_ruling


def test_the_form_of_the_director_who_ruled_offers_nothing(client, field, director):
    ruling_at(table_x(field), director)
    client.force_login(director)
    page = client.get(f"/rulings/new/{table_x(field).pk}/")
    assert b'id="table-ruled"' not in page.content


@pytest.mark.django_db(transaction=True)
def test_two_directors_giving_at_one_table_at_the_same_moment_are_one_ruling_and_one_refusal(
    field, director, olga, monkeypatch
):
    """Both reach the check at the same moment (a barrier just before it): the table's row is
    locked for the check, so the second reads the first's ruling once it commits."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one write transaction at a time: two rulings cannot meet there")
    from rulings.services import record

    together = threading.Barrier(2)
    real = record.check_in_period

    def both_at_the_check(*args, **kwargs):
        try:
            together.wait(timeout=3)
        except threading.BrokenBarrierError:
            pass
        return real(*args, **kwargs)

    monkeypatch.setattr(record, "check_in_period", both_at_the_check)
    outcomes = {}

    def give(user):
        try:
            outcomes[user.username] = ruling_at(table_x(field), user)
        except services.TableRuled as refused:
            outcomes[user.username] = refused
        finally:
            connection.close()

    threads = [threading.Thread(target=give, args=(user,)) for user in (director, olga)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    ruling = Ruling.objects.get()  # exactly one recorded
    refused = next(outcome for outcome in outcomes.values() if isinstance(outcome, services.TableRuled))
    assert refused.others == [ruling]
    assert ruling.state == Ruling.State.GIVEN and not ruling.further_ruling
