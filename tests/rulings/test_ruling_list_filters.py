"""The rulings page's filters are checked as the API's are: a wrong value is named with its
reason (a 400, never a 500) and the other filters still apply."""

import pytest

from tests.conftest import ruling_at, table_result


@pytest.fixture
def two_rulings(record, people):
    first = ruling_at(
        table_result(record, table=0, contract="4S", declarer="N", tricks=10),
        people.director,
        facts="Hesitation before 4S.",
    )
    second = ruling_at(
        table_result(record, table=1, board=record.boards[1], contract="3NT", declarer="S", tricks=9),
        people.director,
        facts="Lead out of turn.",
    )
    return first, second


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("director=abc", "Director: Enter a whole number."),
        ("tournament=1.5", "Tournament: Enter a whole number."),
        ("board=-3", "Board: Ensure this value is greater than or equal to 0."),
        ("session=99999999999999999999", "Session: Ensure this value is less than or equal to"),
        ("kind=nonsense", "Kind: Select a valid choice. nonsense is not one of the available choices."),
    ],
)
def test_a_wrong_filter_is_named_with_its_reason(client, people, two_rulings, query, named):
    client.force_login(people.director)
    answer = client.get(f"/rulings/?{query}")
    assert answer.status_code == 400
    assert named in answer.content.decode()


def test_the_other_filters_still_apply_beside_a_wrong_one(client, people, two_rulings):
    first, second = two_rulings
    client.force_login(people.director)
    answer = client.get(f"/rulings/?director=abc&board={first.board.number}&session={first.board.session_id}")
    assert answer.status_code == 400
    assert list(answer.context["rulings"]) == [first]


def test_a_right_filter_answers_200_with_no_error(client, people, two_rulings):
    client.force_login(people.director)
    answer = client.get(f"/rulings/?director={people.director.pk}")
    assert answer.status_code == 200
    assert answer.context["filter_errors"] == []
    assert len(answer.context["rulings"]) == 2
