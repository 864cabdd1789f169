"""Revoke, defective-trick and claim rulings from the play (rulings/revokes.py, rulings/revoke_views.py).

The ``field`` tournament (tests/conftest.py): board 1, table X (the 7th) 4S by North made 10,
+420. tests/fixtures/lin/revoke_board1.lin is that table's play, written for these tests: East
discards C6 on North's H8 at trick 3 while holding hearts (North wins the trick), follows to
trick 4 (established, 63A1), and declarer claims 10 at trick 6 (N-S had won 5, so E-W take 3
of the last 8). 2017 Laws: 64A2, one trick: 4S N +1, +450.
"""

import datetime
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from bridge.lin import parse_lin
from core import policy
from rulings import revokes, services
from rulings.models import Ruling, TrickRuling
from scoring import recalculation
from scoring import services as scoring_services
from scoring.models import BoardScore, Standing
from tests.conftest import make_user, table_x

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lin"
LIN = (FIXTURES / "revoke_board1.lin").read_text().strip()
OTHER_TABLE_LIN = (FIXTURES / "revoke_board3.lin").read_text().strip()


def open_ruling(field, director, kind=Ruling.Kind.REVOKE, lin=LIN, override=""):
    ruling = services.record_ruling(director=director, kind=kind, result=table_x(field))
    services.attach_deal_and_auction(ruling=ruling, record=parse_lin(lin), override_reason=override, by=director)
    return Ruling.objects.get(pk=ruling.pk)


def edition(field, value):
    scoring_services.set_authority_setting(
        authority=field.authority,
        key="laws_edition",
        value=value,
        effective_from=datetime.date(2000, 1, 1),
        by=policy.SYSTEM,
    )


def test_a_revoke_read_from_the_lin_is_transferred_and_reaches_the_standings(field, director):
    ruling = open_ruling(field, director)
    item = revokes.record_revoke(ruling=ruling, by=director)
    assert (item.edition, item.law, item.transfer, item.table_tricks, item.result_tricks) == ("2017", "64A2", 1, 10, 11)
    assert item.from_play and item.facts["offender"] == "E" and item.facts["established_by"] == "63A1"
    assert item.guide is None  # the worker's job (tasks.solve_trick_ruling)
    assert revokes.solve_guide(item.pk, by=policy.SYSTEM)
    item.refresh_from_db()
    assert item.guide["non_offending"] == "NS" and item.guide["after_transfer"] == 11
    assert item.guide["at_table"] == 10 and item.guide["short"] == max(0, item.guide["double_dummy"] - 11)
    assert Ruling.objects.get(pk=ruling.pk).state == Ruling.State.DRAFT  # nothing given until confirmed

    revokes.confirm(ruling=ruling, by=director)
    ruling.refresh_from_db()
    assert ruling.state == Ruling.State.GIVEN
    assert (ruling.outcome, ruling.score_kind, ruling.score, ruling.offending_side) == (
        "adjusted",
        "assigned",
        {"ns": 450},
        "EW",
    )
    assert [c.law.number for c in ruling.citations.all()] == ["64A2"]
    assert "64A2" in ruling.ruling_text and "4S N +1" in ruling.ruling_text
    recalculation.recalculate_board(field.boards[0].pk)
    # +420 tied with two others (8 of 12); +450 ties table 1 and beats the other five: 11.
    assert BoardScore.objects.get(result=table_x(field)).ns == Decimal("11")
    assert Standing.objects.get(event=field.event, session=None, contestant=field.pairs[6]).total == Decimal("11")


@pytest.mark.parametrize(("edition_in_force", "tricks", "after"), [("1997", 2, 12), ("2007", 1, 11), ("2017", 1, 11)])
def test_entered_facts_follow_the_edition_in_force(field, director, edition_in_force, tricks, after):
    edition(field, edition_in_force)
    ruling = services.record_ruling(director=director, kind=Ruling.Kind.REVOKE, result=table_x(field))
    item = revokes.record_revoke(
        ruling=ruling,
        by=director,
        facts=dict(
            trick=3,
            offender="E",
            established=True,
            established_by="63A1",
            offender_won_revoke_trick=False,
            offending_side_won_revoke_trick=False,
            offending_side_tricks_after=3,
            offender_won_with_legal_card=True,
        ),
    )
    assert (item.edition, item.law, item.transfer, item.result_tricks) == (edition_in_force, "64A2", tricks, after)
    assert not item.from_play and item.guide is None


def test_an_exemption_the_record_cannot_show(field, director):
    ruling = open_ruling(field, director)
    item = revokes.record_revoke(ruling=ruling, by=director, exemptions={"noticed_after_round": True})
    assert (item.law, item.transfer, item.result_tricks) == ("64B5", 0, 10)
    revokes.confirm(ruling=ruling, by=director)
    ruling.refresh_from_db()
    assert (ruling.state, ruling.outcome, ruling.score) == (Ruling.State.GIVEN, "result_stands", None)


def test_equity_needs_a_reason_and_cites_64c(field, director):
    ruling = open_ruling(field, director)
    revokes.record_revoke(ruling=ruling, by=director)
    with pytest.raises(ValidationError) as caught:
        revokes.confirm(ruling=ruling, by=director, equity_tricks=1)
    assert "equity_reason" in caught.value.message_dict
    with pytest.raises(ValidationError) as caught:
        revokes.confirm(ruling=ruling, by=director, equity_tricks=3, equity_reason="too many")
    assert "at most 2 more" in caught.value.message_dict["equity_tricks"][0]
    item = revokes.confirm(
        ruling=ruling,
        by=director,
        equity_tricks=1,
        equity_reason="Without the revoke declarer makes 12 tricks in every line.",
    )
    ruling.refresh_from_db()
    assert item.result_tricks == 12 and ruling.score == {"ns": 480}
    assert sorted(c.law.number for c in ruling.citations.all()) == ["64A2", "64C"]


def test_the_guide_is_sent_to_a_worker_after_the_commit(
    field, director, django_capture_on_commit_callbacks, monkeypatch
):
    sent = []
    monkeypatch.setattr(revokes.dispatch, "send", lambda name, *args, **options: sent.append((name, args)))
    ruling = open_ruling(field, director)
    with django_capture_on_commit_callbacks(execute=True):
        item = revokes.record_revoke(ruling=ruling, by=director)
    assert sent == [("rulings.tasks.solve_trick_ruling", (item.pk,))]
    with django_capture_on_commit_callbacks(execute=True):
        revokes.record_revoke(
            ruling=ruling,
            by=director,
            facts=dict(
                trick=3,
                offender="E",
                established=True,
                established_by="63A1",
                offender_won_revoke_trick=False,
                offending_side_won_revoke_trick=False,
                offending_side_tricks_after=3,
            ),
        )
    assert len(sent) == 1  # entered facts have no play to solve


def test_the_play_of_another_contract_is_refused(field, director):
    ruling = open_ruling(field, director, lin=OTHER_TABLE_LIN, override="the board was redealt")
    with pytest.raises(ValidationError) as caught:
        revokes.record_revoke(ruling=ruling, by=director)
    assert "4H S" in caught.value.message_dict["deal_source"][0]
    assert not TrickRuling.objects.exists()


def test_a_given_ruling_is_not_recomputed(field, director):
    ruling = open_ruling(field, director)
    revokes.record_revoke(ruling=ruling, by=director)
    revokes.confirm(ruling=ruling, by=director)
    with pytest.raises(ValidationError) as caught:
        revokes.record_revoke(ruling=ruling, by=director)
    assert "state" in caught.value.message_dict


def test_without_a_play_the_facts_are_asked_for(field, director):
    ruling = services.record_ruling(director=director, kind=Ruling.Kind.REVOKE, result=table_x(field))
    with pytest.raises(ValidationError) as caught:
        revokes.record_revoke(ruling=ruling, by=director)
    assert "facts" in caught.value.message_dict
    with pytest.raises(ValidationError) as caught:
        revokes.record_revoke(
            ruling=ruling,
            by=director,
            facts=dict(
                trick=3,
                offender="E",
                established=True,
                established_by="63A1",
                offender_won_revoke_trick=False,
                offending_side_won_revoke_trick=False,
                offending_side_tricks_after=11,
            ),
        )
    assert "after trick 3" in caught.value.message_dict["offending_side_tricks_after"][0]


@pytest.mark.parametrize(
    ("edition_in_force", "could_follow", "tricks", "law"),
    [("1997", True, 0, "67B1a"), ("2007", True, 1, "67B1a"), ("2017", False, 1, "67B1b")],
)
def test_a_defective_trick_per_edition(field, director, edition_in_force, could_follow, tricks, law):
    edition(field, edition_in_force)
    ruling = services.record_ruling(director=director, kind=Ruling.Kind.REVOKE, result=table_x(field))
    item = revokes.record_defective_trick(
        ruling=ruling, by=director, trick=5, offender="W", could_follow=could_follow, offending_side_won_from_then=True
    )
    assert (item.kind, item.law, item.transfer, item.result_tricks) == ("defective_trick", law, tricks, 10 + tricks)


def test_a_claim_from_the_lin(field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    with pytest.raises(ValidationError) as caught:
        revokes.record_claim(ruling=ruling, by=director, claimer="N", statement="")
    assert "statement" in caught.value.message_dict
    item = revokes.record_claim(ruling=ruling, by=director, claimer="N", statement="Drawing trumps, all mine")
    assert item.facts["trick"] == 6 and item.facts["claimed"] == 10
    assert item.guide["won"] == {"NS": 5, "EW": 0}
    assert item.guide["remaining"]["E"] == {"S": "QJ", "H": "T94", "D": "J", "C": "KT"}
    assert item.guide["declarer_double_dummy"] is None
    assert revokes.solve_guide(item.pk, by=policy.SYSTEM)
    item.refresh_from_db()
    assert 5 <= item.guide["declarer_double_dummy"] <= 13
    with pytest.raises(ValidationError) as caught:
        revokes.confirm(ruling=ruling, by=director, awarded_tricks=4, normal_line="Cashing out")
    assert "award 5 to 13" in caught.value.message_dict["awarded_tricks"][0]
    with pytest.raises(ValidationError) as caught:
        revokes.confirm(ruling=ruling, by=director, awarded_tricks=9, normal_line="")
    assert "normal_line" in caught.value.message_dict
    revokes.confirm(ruling=ruling, by=director, awarded_tricks=9, normal_line="Trumps not drawn: East ruffs")
    ruling.refresh_from_db()
    # An adjudication (issue #28): no offending side; East's QJ of trumps were outstanding and the
    # statement was not recorded as mentioning them: 70C cited too.
    assert (ruling.state, ruling.score, ruling.offending_side) == (Ruling.State.GIVEN, {"ns": -50}, "")
    assert item.facts["outstanding_trumps"] == ["SQ", "SJ"]
    assert sorted(c.law.number for c in ruling.citations.all()) == ["70", "70C"]


def test_a_claim_position_entered_without_a_play(field, director):
    ruling = services.record_ruling(director=director, kind=Ruling.Kind.CLAIM, result=table_x(field))
    with pytest.raises(ValidationError) as caught:
        revokes.record_claim(ruling=ruling, by=director, claimer="N", statement="All mine")
    assert "remaining" in caught.value.message_dict
    with pytest.raises(ValidationError) as caught:
        revokes.record_claim(
            ruling=ruling,
            by=director,
            claimer="N",
            statement="All mine",
            remaining="N:96.J.T74.Q9 QJ.T94.J.KT T.AQ6.AQ8.2 ..K9653.J8",
            leader="N",
            declarer_won=5,
        )
    assert "remaining" in caught.value.message_dict  # West a card short
    item = revokes.record_claim(
        ruling=ruling,
        by=director,
        claimer="N",
        statement="All mine",
        remaining="N:96.J.T74.Q9 QJ.T94.J.KT T.AQ6.AQ8.2 ..K9653.J87",
        leader="N",
        declarer_won=5,
    )
    assert not item.from_play and item.facts["trick"] == 6 and item.guide["won"] == {"NS": 5, "EW": 0}
    assert revokes.solve_guide(item.pk, by=policy.SYSTEM)
    item.refresh_from_db()
    # The same count as from the LIN's play (the same position).
    played = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    from_play = revokes.record_claim(ruling=played, by=director, claimer="N", statement="All mine")
    revokes.solve_guide(from_play.pk, by=policy.SYSTEM)
    from_play.refresh_from_db()
    assert item.guide["declarer_double_dummy"] == from_play.guide["declarer_double_dummy"]
    with pytest.raises(ValidationError) as caught:
        revokes.confirm(ruling=ruling, by=director, awarded_tricks=4, normal_line="Cashing out")
    assert "awarded_tricks" in caught.value.message_dict


# --- The pages --------------------------------------------------------------------------------


def test_the_director_confirms_on_the_revoke_page(client, field, director):
    ruling = open_ruling(field, director)
    client.force_login(director)
    url = reverse("rulings:ruling-revoke", args=[ruling.pk])
    page = client.get(url).content.decode()
    assert "trick 3: C6" in page
    response = client.post(url, {"action": "from_play", "play-revoke": "0"})
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert 'id="transfer-law"' in page and "Law 64A2 (2017 Laws)" in page
    response = client.post(url, {"action": "confirm", "confirm-equity_tricks": "1"})
    assert response.status_code == 200
    assert "Say why the transfer does not restore equity" in response.content.decode()
    response = client.post(url, {"action": "confirm", "confirm-equity_tricks": "0"})
    assert response.status_code == 302 and response["Location"] == reverse("rulings:ruling", args=[ruling.pk])
    assert Ruling.objects.get(pk=ruling.pk).state == Ruling.State.GIVEN


def test_the_claim_page_shows_the_cards_left(client, field, director):
    ruling = open_ruling(field, director, kind=Ruling.Kind.CLAIM)
    client.force_login(director)
    url = reverse("rulings:ruling-claim", args=[ruling.pk])
    response = client.post(url, {"action": "claim", "claim-claimer": "N", "claim-statement": "All mine"})
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert 'id="claim-dd"' in page and page.count('class="hand hand-') == 4
    assert "Double-dummy analysis is being computed." in page
    revokes.solve_guide(TrickRuling.objects.get().pk, by=policy.SYSTEM)
    page = client.get(url).content.decode()
    assert "Double-dummy analysis is being computed." not in page


def test_a_player_cannot_open_the_revoke_page(client, field, director):
    ruling = open_ruling(field, director)
    player = make_user("pat")
    client.force_login(player)
    assert client.get(reverse("rulings:ruling-revoke", args=[ruling.pk])).status_code in (403, 404)
    assert client.post(reverse("rulings:ruling-claim", args=[ruling.pk]), {"action": "claim"}).status_code in (403, 404)
