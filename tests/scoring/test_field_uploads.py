"""A club's upload to a field, checked before it joins the field's matchpoints (issue #44, item 2):
each check flags what it should with its message, a clean upload joins at once, a held one
leaves the field's matchpoints alone until its flags are answered by the chief director."""

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from audit.models import AuditEntry
from core import policy, roles
from scoring import field_uploads, recalculation, services
from scoring.models import BoardScore, FieldUpload, Result, Standing, UploadFlag
from tests.conftest import build_pairs_tournament, make_user, table_result

pytestmark = pytest.mark.django_db

# The field's joined club: tables 1-8. Board 1 (none vulnerable): 4S by North.
BOARD_1 = [10, 10, 10, 11, 9, 10, 10, 11]  # +420 x5, +450 x2, -50
# Board 2 (N-S vulnerable): 3NT by North.
BOARD_2 = [9, 9, 8, 9, 10, 9, 9, 9]  # +600 x6, -100, +630


@pytest.fixture
def sim(db):
    """Twelve tables, one round, boards 1 and 2: tables 1-8 the field so far (one club, joined
    and scored), tables 9-12 the club that uploads (N-S pairs 9-12, E-W pairs 21-24)."""
    record = build_pairs_tournament(code="sim", name="Spring Sim", tables=12)
    for board, tricks in zip(record.boards, (BOARD_1, BOARD_2), strict=True):
        contract = "4S" if board.number == 1 else "3NT"
        for t, took in enumerate(tricks):
            table_result(record, t, board=board, contract=contract, declarer="N", tricks=took)
    recalculation.recalculate_event(record.event.pk)
    chief = make_user("simchief")
    services.appoint_official(tournament=record.tournament, user=chief, role=roles.CHIEF_DIRECTOR, by=policy.SYSTEM)
    scorer = make_user("simscorer")
    services.appoint_official(tournament=record.tournament, user=scorer, role=roles.SCORER, by=policy.SYSTEM)
    record.chief, record.scorer = chief, scorer
    return record


def rows(board_1=("4S", "N", 10, 420), board_2=("3NT", "N", 9, 600), **changed):
    """The uploading club's eight rows; ``changed`` {"<board>-<table>": (contract, declarer, tricks, score)}."""
    made = []
    for number, default in ((1, board_1), (2, board_2)):
        for table in range(9, 13):
            contract, declarer, tricks, score = changed.get(f"{number}-{table}", default)
            made.append(
                {"board": number, "round": 1, "table": table, "ns": table, "ew": 12 + table, "contract": contract}
                | {"declarer": declarer, "tricks": tricks, "score_ns": score}
            )
    return made


def upload(sim, made, club="Riverside BC"):
    return services.upload_to_field(session=sim.session, club=club, rows=made, by=sim.scorer)


def flags(upload_):
    return [
        (flag.board, flag.table, flag.code, field_uploads.message(flag.code, flag.params))
        for flag in upload_.flags.order_by("board", "table", "code")
    ]


def matchpoints(sim):
    """Each N-S pair's board 1 matchpoints and every pair's session total, as stored."""
    recalculation.recalculate_event(sim.event.pk)
    board = {
        score.result.ns.number: score.ns
        for score in BoardScore.objects.filter(result__board=sim.boards[0]).select_related("result__ns")
    }
    totals = {s.contestant.number: s.total for s in Standing.objects.filter(event=sim.event, session=sim.session)}
    return board, totals


def test_a_clean_upload_joins_at_once_and_counts_in_the_matchpoints(sim):
    joined = upload(sim, rows())
    assert joined.state == FieldUpload.State.JOINED and flags(joined) == []
    assert Result.objects.filter(board__session=sim.session).count() == 24
    board, totals = matchpoints(sim)
    # Nine tables at +420 on board 1: each beats one and ties eight (10 of 22); +450 beats ten.
    assert board[9] == Decimal("10.0000") and board[4] == Decimal("21.0000") and board[5] == Decimal("0.0000")
    assert totals[9] == Decimal("21.0000")  # and 11 on board 2
    assert [entry.action for entry in AuditEntry.objects.filter(action__startswith="field_upload.")] == [
        "field_upload.received",
        "field_upload.joined",
    ]


def test_a_score_not_ending_in_0_is_flagged_as_impossible(sim):
    held = upload(sim, rows(**{"1-9": ("4S", "N", 10, 425)}))
    assert flags(held) == [(1, 9, "impossible_score", "N-S +425 does not end in 0: no contract scores it")]
    assert held.state == FieldUpload.State.HELD


def test_a_score_no_contract_gives_at_the_vulnerability_is_flagged(sim):
    held = upload(sim, rows(**{"1-10": ("4S", "N", 10, 620)}))  # 4S= vulnerable, on a board none vulnerable
    assert flags(held) == [
        (1, 10, "impossible_score", "N-S +620: no contract and result scores it at this vulnerability (None)")
    ]


def test_a_score_the_contract_does_not_make_at_the_vulnerability_is_flagged(sim):
    held = upload(sim, rows(**{"2-11": ("3NT", "N", 9, 630)}))  # a possible score, but 3NT= makes +600
    assert flags(held) == [(2, 11, "vulnerability", "N-S +630 recorded; 3NT N = makes N-S +600 at this vulnerability")]
    impossible = upload(sim, rows(**{"2-11": ("3NT", "N", 10, 430)}), club="Hillside BC")  # scored not vulnerable
    assert flags(impossible) == [
        (2, 11, "impossible_score", "N-S +430: no contract and result scores it at this vulnerability (N-S)")
    ]


def test_a_board_passed_out_at_every_table_of_the_club_while_the_field_bid_it_is_flagged(sim):
    passed = ("PASS", "", None, 0)
    held = upload(sim, rows(board_2=passed))  # 0 lies within the field's range (-100 to +630)
    assert flags(held) == [
        (
            2,
            9,
            "passed_out_club",
            "every table of Riverside BC passed this board out; the field bid it at 8 of 8 tables",
        )
    ]


def test_a_score_far_outside_the_fields_range_is_flagged(sim):
    held = upload(sim, rows(**{"1-12": ("4SX", "N", 11, 690)}))  # +690: 240 above the field's best, +450
    assert flags(held) == [
        (1, 12, "far_from_field", "N-S +690 is 240 points outside the field's range (-50 to +450 at 8 tables)")
    ]
    assert field_uploads.par_of(held.flags.get().params).startswith("double-dummy par: ")  # board 1's deal is known
    near = upload(sim, rows(**{"1-12": ("4S", "N", 12, 480)}), club="Hillside BC")  # 30 above: near enough
    assert flags(near) == []


def test_a_held_upload_leaves_the_fields_matchpoints_alone_until_its_flags_are_answered(sim):
    before = matchpoints(sim)
    # Two matchpoints a pair beaten, one a tie: +420 beats -50 and ties four (6), +450 13.
    assert before[0] == {1: 6, 2: 6, 3: 6, 4: 13, 5: 0, 6: 6, 7: 6, 8: 13}
    assert before[1][1] == Decimal("13.0000") and before[1][4] == Decimal("20.0000")
    held = upload(sim, rows(**{"1-9": ("4S", "N", 10, 425), "1-12": ("4SX", "N", 11, 690)}))
    assert held.state == FieldUpload.State.HELD
    assert matchpoints(sim) == before  # nothing of the held upload reaches the field
    assert not Result.objects.filter(table__number__gte=9).exists()
    first, second = held.flags.order_by("table")
    services.confirm_upload_flag(flag=first, by=sim.chief, note="the club's program wrote 425 for 420")
    assert matchpoints(sim) == before  # one flag still open
    joined = services.confirm_upload_flag(flag=second, by=sim.chief)
    assert joined.state == FieldUpload.State.JOINED
    board, totals = matchpoints(sim)
    # The row confirmed joins with its contract's score, +420: eight tables at +420 now.
    assert board == {1: 9, 2: 9, 3: 9, 4: 19, 5: 0, 6: 9, 7: 9, 8: 19, 9: 9, 10: 9, 11: 9, 12: 22}
    assert board[12] == Decimal("22.0000") and board[1] == Decimal("9.0000")
    assert totals[12] == Decimal("33.0000") and totals[1] == Decimal("20.0000") and totals[4] == Decimal("30.0000")
    actions = list(AuditEntry.objects.filter(action__startswith="field_upload.").values_list("action", flat=True))
    assert actions == [
        "field_upload.received",
        "field_upload.flag_confirmed",
        "field_upload.flag_confirmed",
        "field_upload.joined",
    ]


def test_a_flagged_row_corrected_is_checked_again_and_joins(sim):
    held = upload(sim, rows(**{"1-9": ("4S", "N", 10, 425)}))
    flag = held.flags.get()
    still = services.correct_upload_row(flag=flag, by=sim.chief, contract="4S", declarer="N", tricks=10, score_ns=625)
    assert still.state == FieldUpload.State.HELD
    assert flags(still) == [
        (1, 9, "impossible_score", "N-S +425 does not end in 0: no contract scores it"),
        (1, 9, "impossible_score", "N-S +625 does not end in 0: no contract scores it"),
    ]
    assert [f.answer for f in still.flags.order_by("pk")] == [UploadFlag.Answer.CORRECTED, UploadFlag.Answer.OPEN]
    again = still.flags.get(answer=UploadFlag.Answer.OPEN)
    joined = services.correct_upload_row(flag=again, by=sim.chief, contract="4S", declarer="N", tricks=10, score_ns=420)
    assert joined.state == FieldUpload.State.JOINED
    assert Result.objects.get(board=sim.boards[0], table__number=9).score_ns == 420
    assert AuditEntry.objects.filter(action="field_upload.row_corrected").count() == 2


def test_only_the_chief_director_answers_a_flag_and_the_refusal_names_the_field(sim):
    held = upload(sim, rows(**{"1-9": ("4S", "N", 10, 425)}))
    flag = held.flags.get()
    with pytest.raises(PermissionDenied) as refused:
        services.confirm_upload_flag(flag=flag, by=sim.scorer)
    assert str(refused.value) == (
        "Pairs, Session 1: Only the chief director of this tournament confirms or corrects a club's upload to its field."
    )
    services.confirm_upload_flag(flag=flag, by=sim.chief)
    with pytest.raises(ValidationError) as answered:
        services.confirm_upload_flag(flag=flag, by=sim.chief)
    assert answered.value.message_dict == {
        "flag": ["Riverside BC's upload to Pairs, Session 1: this flag is answered already."]
    }


def test_a_row_that_could_never_be_recorded_is_refused_at_the_door_naming_the_field(sim):
    made = rows()
    made[0]["board"] = 9
    made[1]["contract"] = "8S"
    with pytest.raises(ValidationError) as refused:
        upload(sim, made)
    assert refused.value.message_dict == {"results": ["line 1: Pairs, Session 1 has no board 9"]}
    made[0]["board"] = 1
    with pytest.raises(ValidationError) as refused:
        upload(sim, made)
    (message,) = refused.value.message_dict["results"]
    assert message.startswith("Pairs, Session 1: board 1, table 10: ")
    assert not FieldUpload.objects.exists() and not Result.objects.filter(table__number__gte=9).exists()


def test_the_chief_director_confirms_a_flag_on_the_uploads_page_and_the_scorer_is_refused(client, sim):
    held = upload(sim, rows(**{"1-9": ("4S", "N", 10, 425)}))
    flag = held.flags.get()
    client.force_login(sim.scorer)
    session_page = client.get(reverse("scoring:session", args=[sim.session.pk])).content.decode()
    assert "Riverside BC</bdi></a> · held · Flags to look at: 1" in session_page
    page = client.get(reverse("scoring:field-upload", args=[held.pk])).content.decode()
    assert "Board 1, table 9" in page and "N-S +425 does not end in 0: no contract scores it" in page
    assert "Held: not in the field's matchpoints until every flag is answered. Flags to look at: 1" in page
    assert "Confirm: it stands" not in page  # the scorer reads, the chief director answers
    refused = client.post(reverse("scoring:field-upload-confirm", args=[held.pk]), {"flag": flag.pk})
    assert refused.status_code == 403
    assert "Pairs, Session 1: Only the chief director of this tournament confirms" in refused.content.decode()
    client.force_login(sim.chief)
    answered = client.post(
        reverse("scoring:field-upload-confirm", args=[held.pk]), {"flag": flag.pk, "note": "420 typed 425"}, follow=True
    )
    text = answered.content.decode()
    assert "Every flag is answered: the upload has joined the field." in text and "420 typed 425" in text
    assert "Joined the field at" in text
    assert FieldUpload.objects.get().state == FieldUpload.State.JOINED


def test_a_correction_on_the_uploads_page_is_checked_again(client, sim):
    held = upload(sim, rows(**{"1-9": ("4S", "N", 10, 425)}))
    client.force_login(sim.chief)
    post = {"flag": held.flags.get().pk, "contract": "4S", "declarer": "N", "tricks": "10", "score_ns": "620"}
    text = client.post(reverse("scoring:field-upload-correct", args=[held.pk]), post, follow=True).content.decode()
    assert "Answered: the upload waits for its other flags." in text
    assert "N-S +620: no contract and result scores it at this vulnerability (None)" in text
    post = {**post, "flag": held.flags.get(answer="").pk, "score_ns": "420"}
    text = client.post(reverse("scoring:field-upload-correct", args=[held.pk]), post, follow=True).content.decode()
    assert "Every flag is answered: the upload has joined the field." in text


def test_through_the_api_an_upload_is_held_then_joined_by_the_chief_directors_confirmation(sim):
    scorer, chief = APIClient(), APIClient()
    scorer.force_authenticate(sim.scorer)
    chief.force_authenticate(sim.chief)
    made = rows(**{"1-12": ("4SX", "N", 11, 690)})
    payload = {"session": sim.session.pk, "club": "Riverside BC", "results": made}
    sent = scorer.post("/api/v1/field-uploads/", payload, format="json")
    assert sent.status_code == 201, sent.content
    body = sent.json()
    assert (body["club"], body["state"]) == ("Riverside BC", "held")
    ((flag,),) = [body["flags"]]
    assert (flag["board"], flag["table"], flag["code"], flag["answer"]) == (1, 12, "far_from_field", "")
    assert flag["message"] == "N-S +690 is 240 points outside the field's range (-50 to +450 at 8 tables)"
    assert flag["par"].startswith("double-dummy par: ")
    assert scorer.get(f"/api/v1/field-uploads/{body['id']}/").json()["flags"] == body["flags"]
    refused = scorer.post(f"/api/v1/field-uploads/{body['id']}/confirm/", {"flag": flag["id"]}, format="json")
    assert refused.status_code == 403
    assert refused.json()["detail"] == [
        "Pairs, Session 1: Only the chief director of this tournament confirms or corrects a club's upload to its field."
    ]
    assert matchpoints(sim)[0][1] == Decimal("6.0000")  # held: the field as it was
    answered = chief.post(
        f"/api/v1/field-uploads/{body['id']}/confirm/", {"flag": flag["id"], "note": "a top"}, format="json"
    )
    assert answered.status_code == 200, answered.content
    assert answered.json()["state"] == "joined" and answered.json()["flags"][0]["answer"] == "confirmed"
    assert matchpoints(sim)[0][12] == Decimal("22.0000")
    again = chief.post(f"/api/v1/field-uploads/{body['id']}/confirm/", {"flag": flag["id"]}, format="json")
    assert again.status_code == 409
    assert again.json()["flag"] == ["Riverside BC's upload to Pairs, Session 1: this flag is answered already."]


def test_through_the_api_a_flagged_row_is_corrected(sim):
    chief = APIClient()
    chief.force_authenticate(sim.chief)
    made = rows(**{"2-11": ("3NT", "N", 9, 630)})
    body = chief.post(
        "/api/v1/field-uploads/", {"session": sim.session.pk, "club": "Riverside BC", "results": made}, format="json"
    ).json()
    fix = {"flag": body["flags"][0]["id"], "contract": "3NT", "declarer": "N", "tricks": 10, "score_ns": 630}
    answered = chief.post(f"/api/v1/field-uploads/{body['id']}/correct/", fix, format="json")
    assert answered.status_code == 200, answered.content
    assert answered.json()["state"] == "joined"
    assert Result.objects.get(board=sim.boards[1], table__number=11).score_ns == 630


@pytest.fixture
def big(db):
    """24 tables, board 2 (N-S vulnerable, 3NT by North) played at tables 1-20 of the field: +600
    at 17, -100 at 2, +630 at one; tables 21-24 the club that uploads."""
    record = build_pairs_tournament(code="big", name="Big Sim", tables=24)
    for t, took in enumerate([9] * 17 + [8, 8, 10]):
        table_result(record, t, board=record.boards[1], contract="3NT", declarer="N", tricks=took)
    return record


def big_rows(tricks, score, declarer="N"):
    return [
        {"board": 2, "round": 1, "table": t, "ns": t, "ew": 24 + t, "contract": "3NT", "declarer": declarer}
        | {"tricks": tricks, "score_ns": score}
        for t in range(21, 25)
    ]


def test_a_club_whose_every_score_is_in_the_fields_top_or_bottom_5_percent_is_flagged(big):
    top = services.upload_to_field(session=big.session, club="Riverside BC", rows=big_rows(10, 630), by=policy.SYSTEM)
    assert flags(top) == [
        (
            2,
            21,
            "club_at_one_end",
            "every N-S score of Riverside BC on this board (4 tables) beats 95 in 100 of the field's 20: "
            "N-S and E-W the wrong way round?",
        )
    ]
    # Entered the wrong way round: 3NT by East making, -400 at every table (and far from the field).
    bottom = services.upload_to_field(
        session=big.session, club="Hillside BC", rows=big_rows(9, -400, declarer="E"), by=policy.SYSTEM
    )
    assert [code for _b, _t, code, _m in flags(bottom)][:1] == ["club_at_one_end"]
    assert flags(bottom)[0][3].startswith("every N-S score of Hillside BC on this board (4 tables) is beaten by 95")
    usual = services.upload_to_field(session=big.session, club="Lakeside BC", rows=big_rows(9, 600), by=policy.SYSTEM)
    assert flags(usual) == []
