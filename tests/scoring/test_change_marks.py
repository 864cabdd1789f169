"""The traveller and the standings mark a row whose score changed, and the mark opens each
change's cause (a ruling, a committee's decision, a correction of the table result), its time
and its reason (issue #42, item 5: "why it changed" was only on the contestant's page); a
traveller's row marks its rulings and its procedural penalties."""

import pytest
from django.urls import reverse

from core import policy, roles
from scoring import recalculation
from scoring import services as scoring_services
from tests.appeals.conftest import case, ready, shown, vote_all  # noqa: F401 (case is a fixture)
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def marks(page):
    """The change marks of a page, each as its text."""
    return page.count('<details class="change-mark">')


def board_page(client, user, board):
    client.force_login(user)
    answer = client.get(reverse("scoring:board", args=[board.pk]))
    assert answer.status_code == 200
    return shown(answer)


def test_the_ruled_row_of_the_traveller_opens_its_ruling_with_its_time_and_reason(case, client):  # noqa: F811
    board = case.record.boards[0]
    page = board_page(client, case.director, board)
    assert marks(page) == 1  # the ruled row only
    mark = page[page.index('<details class="change-mark">') :]
    mark = mark[: mark.index("</details>")]
    assert f'<a href="/rulings/{case.ruling.pk}/">Ruling by the director</a>' in mark
    assert "(Europe/" in mark or "UTC" in mark  # its time, in the tournament's zone
    assert "by ruling 1" in mark  # the change in words, with its cause
    assert 'class="what"' in mark


def test_a_player_at_the_table_sees_the_ruling_marked_and_opens_it(case, client):  # noqa: F811
    player = make_user("norah", role=roles.PLAYER)
    case.north.user = player
    case.north.save()
    page = board_page(client, player, case.record.boards[0])
    assert f'<span class="badge ruling-mark">Ruling {case.ruling.number}</span>' in page
    assert f'<a href="/rulings/{case.ruling.pk}/">Ruling by the director</a>' in page


def test_a_procedural_penalty_and_a_correction_are_marked_on_their_rows(field, client):
    director = make_user("dora")
    scoring_services.appoint_official(tournament=field.tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    scoring_services.set_effective_score(
        result=field.results[0],
        kind="table",
        score=None,
        penalty={"ns": "1.5"},
        reason="Slow play",
        cause_type="ruling",
    )
    scoring_services.correct_result(result=field.results[2], tricks=9, by=policy.SYSTEM)
    page = board_page(client, director, field.boards[0])
    assert 'Procedural penalty (Law 90): N-S <bdi dir="ltr">1.5</bdi>' in page
    assert "Correction of the table result (Law 79C)" in page
    assert "Slow play" in page
    assert marks(page) == 2


def test_the_committee_s_decision_is_the_cause_the_standings_open(case, client):  # noqa: F811
    from appeals import services
    from tests.appeals.conftest import SOON

    appeal, body, _hearing = ready(case)
    vote_all(body, "vary")
    services.decide_appeal(
        appeal=appeal,
        by=case.members[0],
        outcome="vary",
        reasons="Pass was not a logical alternative for this pair",
        score_kind="assigned",
        ns={"contract": "4S", "declarer": "N", "tricks": 11},
        now=SOON,
    )
    for board in case.record.boards:
        recalculation.recalculate_board(board.pk)
    client.force_login(case.director)
    page = shown(client.get(reverse("scoring:standings", args=[case.record.event.pk])))
    # Pair 7 N-S and pair 14 E-W played the changed board: each row marked, twice (the ruling, the decision)
    assert marks(page) == 2
    assert f'<a href="/appeals/{appeal.pk}/">Appeal decision</a>' in page
    assert "Pass was not a logical alternative for this pair" in page
    assert "Board 1, table" in page
