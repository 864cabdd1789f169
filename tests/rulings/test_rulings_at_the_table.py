"""Issue #13: rulings opened before the table's result, imported deals checked against the
board, Law 90 and Law 91 penalties apart, and what a director also records (statements, a Law
16B poll, the Law 83 notice, attachments); the phone form's errors at their fields; times in
the tournament's time zone."""

from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from audit.models import AuditEntry
from core import roles
from rulings import selectors, services
from rulings.models import Penalty, Ruling
from scoring.models import Result, ScoreChange
from tests.conftest import make_user, table_result

pytestmark = pytest.mark.django_db
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "lin"
BOARD_7_LINK = (FIXTURES / "handviewer.txt").read_text().strip()
BOARD_1_LINK = (FIXTURES / "handviewer_board1.txt").read_text().strip()
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
PDF = b"%PDF-1.4\n%\xe2\xe3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def board_2(field):
    return field.boards[1]  # no result at any table yet


# --- A ruling before the result --------------------------------------------------------------


def open_during_the_auction(field, director, **extra):
    return services.rule(
        board=board_2(field),
        table=field.tables[2],
        round=field.round,
        director=director,
        kind="law_applied",
        called_by="E",
        facts="East bid 1S after North's 1NT: insufficient.",
        laws="27B1a",
        ruling_text="Insufficient bid corrected to 2S: no further rectification",
        outcome="rectification",
        **extra,
    )


def test_a_ruling_opens_on_a_board_and_table_before_the_result(field, director):
    ruling = open_during_the_auction(field, director)
    assert (ruling.board, ruling.table, ruling.round, ruling.result) == (
        board_2(field),
        field.tables[2],
        field.round,
        None,
    )
    assert ruling.state == Ruling.State.DRAFT and ruling.awaiting_result
    awaiting = selectors.filtered_rulings(director, state=selectors.AWAITING_RESULT)
    assert list(awaiting) == [ruling]
    with pytest.raises(ValidationError) as exc:
        services.give_ruling(ruling=ruling, by=director)
    assert exc.value.message_dict["result"] == [
        "Table 3 has no result for board 2 yet: the ruling is given once the result is entered (it waits for it "
        "in the list of rulings)."
    ]


def test_an_adjusted_score_waits_for_the_result(field, director):
    with pytest.raises(ValidationError) as exc:
        services.rule(
            board=board_2(field),
            table=field.tables[2],
            director=director,
            kind="ui",
            laws="16B1a",
            ruling_text="Adjusted",
            outcome="adjusted",
            score_kind="artificial",
            ns="AVE-",
            ew="AVE+",
            offending_side="NS",
        )
    assert exc.value.message_dict["outcome"] == [
        "Table 3 has no result for board 2 yet: the adjusted score is entered once the result is (save the "
        "ruling now; it waits for its result)."
    ]
    assert not Ruling.objects.exists()


def test_the_result_is_attached_when_it_exists_and_the_ruling_is_then_given(field, director):
    ruling = open_during_the_auction(field, director, give=False)
    assert list(selectors.filtered_rulings(director, state=selectors.AWAITING_RESULT)) == [ruling]
    result = table_result(field, 2, board_2(field), contract="2S", declarer="E", tricks=8)
    # Entered, not yet attached: no longer awaiting it.
    assert not selectors.filtered_rulings(director, state=selectors.AWAITING_RESULT).exists()
    ruling = services.update_draft(
        ruling=ruling,
        by=director,
        kind="ui",
        laws="16B1a, 12C1e",
        ruling_text="Adjusted to 2S E -1",
        outcome="adjusted",
        score_kind="assigned",
        ns={"contract": "2S", "declarer": "E", "tricks": 7},
        offending_side="EW",
        give=True,
    )
    assert ruling.result == result and ruling.state == Ruling.State.GIVEN
    assert Result.objects.get(pk=result.pk).effective.score == {"ns": 50}
    assert ScoreChange.objects.get(result=result).cause_label == "ruling 1"
    assert not selectors.filtered_rulings(director, state=selectors.AWAITING_RESULT).exists()
    assert AuditEntry.objects.filter(action="ruling.result_attached").count() == 1


@pytest.mark.parametrize(
    "numbers,errors",
    [
        ({"board": 9, "table": 3}, {"board": ["Board 9 is not played in Session 1."]}),
        ({"board": 2, "table": 30}, {"table": ["There is no table 30 in Session 1."]}),
        ({"board": 2, "table": 3, "round": 5}, {"round": ["Session 1 has no round 5."]}),
    ],
)
def test_board_and_table_numbers_are_checked(field, numbers, errors):
    with pytest.raises(ValidationError) as exc:
        selectors.find_table(field.session, **numbers)
    assert {
        k: [m.replace(str(field.session), "Session 1") for m in v] for k, v in exc.value.message_dict.items()
    } == errors


def test_board_and_table_numbers_lead_straight_to_the_form(client, field, director):
    client.force_login(director)
    query = {"session": field.session.pk, "board": 2, "table": 3}
    page = client.get(reverse("rulings:ruling-open"), query)
    assert page.status_code == 200 and 'id="awaiting-result"' in page.content.decode()
    response = client.post(
        reverse("rulings:ruling-open") + f"?session={field.session.pk}&board=2&table=3",
        {
            "kind": "law_applied",
            "facts": "Lead out of turn by West",
            "laws": "54A",
            "outcome": "rectification",
            "ruling_text": "Declarer accepted the lead",
            "draft": "1",
        },
    )
    ruling = Ruling.objects.get()
    assert response.status_code == 302 and ruling.result is None and ruling.table == field.tables[2]
    listing = client.get(reverse("rulings:rulings"), {"state": "awaiting_result"}).content.decode()
    assert reverse("rulings:ruling", args=[ruling.pk]) in listing and "Awaiting its result" in listing
    # With a result at the table, the numbers lead to the form on that result.
    response = client.get(reverse("rulings:ruling-open"), {"session": field.session.pk, "board": 1, "table": 7})
    assert response.status_code == 302 and response.url == reverse("rulings:ruling-new", args=[field.results[6].pk])


# --- Imported deals must be the board's ------------------------------------------------------


def test_a_deal_of_another_board_is_refused_naming_each_field(field, director):
    with pytest.raises(ValidationError) as exc:
        services.rule(
            result=field.results[6],
            director=director,
            kind="mi",
            laws="20F1",
            ruling_text="Result stands",
            deal_source=BOARD_7_LINK,
        )
    assert exc.value.message_dict["deal_source"] == [
        "Not the board ruled on: the file is board 7, the ruling is on board 1.",
        "Not the board ruled on: the dealer in the file is South, board 1's dealer is North.",
        "Not the board ruled on: the vulnerability in the file is All, board 1's is None.",
        "Paste the deal of board 1, or accept this one with a reason.",
    ]
    assert not Ruling.objects.exists()


def test_a_deal_of_another_board_is_accepted_with_a_reason(field, director):
    ruling = services.rule(
        result=field.results[6],
        director=director,
        kind="mi",
        laws="20F1",
        ruling_text="Result stands",
        deal_source=BOARD_7_LINK,
        deal_override="The event dealt board 7's cards as board 1",
    )
    assert ruling.deal_override == "The event dealt board 7's cards as board 1" and ruling.auction
    entry = AuditEntry.objects.get(action="ruling.deal_override")
    assert set(entry.after["differences"]) == {"board", "dealer", "vulnerability"}


def test_the_boards_own_deal_is_accepted(field, director):
    ruling = services.rule(
        result=field.results[6],
        director=director,
        kind="mi",
        laws="20F1",
        ruling_text="Result stands",
        deal_source=BOARD_1_LINK,
    )
    assert ruling.auction and ruling.deal_override == ""


# --- Penalties: Law 90 or Law 91 -------------------------------------------------------------


def test_a_disciplinary_measure_has_no_score_value(field, director):
    ruling = services.rule(
        result=field.results[6],
        director=director,
        kind="disciplinary_penalty",
        laws="91A",
        ruling_text="Pair 7 N-S warned",
        outcome="result_stands",
    )
    # Law 91A's points are in the board's units (tests/rulings/test_law91_points_and_disqualification.py);
    # its suspension has no amount.
    with pytest.raises(ValidationError) as exc:
        services.add_penalty(
            ruling=ruling,
            by=ruling.director,
            kind="disciplinary",
            side="NS",
            unit="suspension",
            amount=3,
            offence="Abuse",
        )
    assert exc.value.message_dict["amount"] == [
        "A disciplinary penalty (Law 91) has no matchpoint or IMP value of its own: leave the amount empty."
    ]
    with pytest.raises(ValidationError) as exc:
        services.add_penalty(
            ruling=ruling, by=ruling.director, kind="procedural", side="NS", unit="suspension", offence="Slow play"
        )
    assert exc.value.message_dict["unit"][0].startswith("A procedural penalty (Law 90) is in matchpoints")


def test_the_form_records_the_law_chosen_for_the_penalty(client, field, director):
    client.force_login(director)
    north = field.pairs[6].members.order_by("pk").first()
    response = client.post(
        reverse("rulings:ruling-new", args=[field.results[6].pk]),
        {
            "kind": "disciplinary_penalty",
            "laws": "91A",
            "ruling_text": "North suspended for the session",
            "outcome": "result_stands",
            "penalty_kind": "disciplinary",
            "penalty_side": "NS",
            "penalty_measure": "suspension",
            "penalty_player": str(north.pk),
            "penalty_amount": "25",
            "penalty_unit": "pct",
            "penalty_offence": "Abuse of an opponent",
            "give": "1",
        },
    )
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.kind, penalty.unit, penalty.amount, penalty.player) == ("disciplinary", "suspension", None, north)
    assert not hasattr(Result.objects.get(pk=field.results[6].pk), "effective")  # no score value
    response = client.post(
        reverse("rulings:ruling-new", args=[field.results[5].pk]),
        {
            "kind": "procedural_penalty",
            "laws": "90A",
            "ruling_text": "Slow play",
            "outcome": "result_stands",
            "penalty_kind": "procedural",
            "penalty_side": "EW",
            "penalty_amount": "25",
            "penalty_unit": "pct",
            "penalty_offence": "Slow play",
            "give": "1",
        },
    )
    assert response.status_code == 302
    assert Penalty.objects.get(kind="procedural").unit == "pct"
    assert Result.objects.get(pk=field.results[5].pk).effective.penalty == {"ew": "25%"}


# --- The phone form --------------------------------------------------------------------------


def test_radio_buttons_sit_inside_their_labels(client, field, director):
    client.force_login(director)
    page = client.get(reverse("rulings:ruling-new", args=[field.results[6].pk])).content.decode()
    assert '<label for="id_outcome_2"><input type="radio" name="outcome" value="adjusted"' in page
    css = (Path(__file__).resolve().parents[2] / "static" / "css" / "site.css").read_text()
    assert ".row2[hidden], .row3[hidden]" in css


def test_score_errors_show_at_the_field_with_its_label(client, field, director):
    client.force_login(director)
    response = client.post(
        reverse("rulings:ruling-new", args=[field.results[6].pk]),
        {
            "kind": "ui",
            "laws": "16B1a",
            "ruling_text": "Adjusted",
            "outcome": "adjusted",
            "score_kind": "weighted",
            "offending_side": "NS",
            "w1_contract": "4S",
            "w1_declarer": "N",
            "w1_tricks": "10",
            "w1_weight": "0.5",
            "w2_contract": "8S",
            "w2_declarer": "N",
            "w2_tricks": "10",
            "w2_weight": "0.5",
            "give": "1",
        },
    )
    form = response.context["form"]
    assert form.errors["w2_contract"] == ["contract: '8S' has level 8: a level is 1 to 7."]
    assert not form.non_field_errors()
    page = response.content.decode()
    assert "ns[2]" not in page and "Row 2" in page
    response = client.post(
        reverse("rulings:ruling-new", args=[field.results[6].pk]),
        {
            "kind": "ui",
            "laws": "16B1a",
            "ruling_text": "Adjusted",
            "outcome": "adjusted",
            "score_kind": "assigned",
            "offending_side": "NS",
            "contract": "4S",
            "declarer": "N",
            "tricks": "",
            "give": "1",
        },
    )
    assert list(response.context["form"].errors) == ["contract"]


def test_times_are_in_the_tournaments_zone(client, field, director):
    from scoring.models import Tournament

    Tournament.objects.filter(pk=field.tournament.pk).update(time_zone="Asia/Jerusalem")
    field.tournament.refresh_from_db()
    ruling = services.rule(
        result=field.results[6],
        director=director,
        kind="claim",
        laws="70D1",
        ruling_text="Claim accepted",
        outcome="result_stands",
        give=True,
    )
    client.force_login(director)
    page = client.get(reverse("rulings:ruling", args=[ruling.pk])).content.decode()
    given = ruling.given_at.astimezone(field.tournament.zone)
    # The server writes the time in the tournament's zone, in the reader's format, with the zone.
    shown = f"{given.day} {given:%b %Y %H:%M} {given.tzname()} (Asia/Jerusalem)"
    stamp = given.isoformat(timespec="seconds")
    assert f'<time datetime="{stamp}" data-zone="Asia/Jerusalem" dir="ltr">{shown}</time>' in page


# --- What a director also records ------------------------------------------------------------


def test_statements_poll_notice_and_attachment_from_the_form(client, field, director):
    client.force_login(director)
    response = client.post(
        reverse("rulings:ruling-new", args=[field.results[6].pk]),
        {
            "kind": "ui",
            "laws": "16B1a",
            "ruling_text": "Result stands",
            "outcome": "result_stands",
            "facts": "East called at trick 1",
            "statement_ns": "No pause",
            "statement_ew": "A long pause",
            "poll_question": "Would you pass 3S?",
            "poll_votes": "A. Cohen: pass\nB. Levi: Pass\nC. Katz: 4S",
            "appeal_notice": "given",
            "attachment": SimpleUploadedFile("card.png", PNG, "image/png"),
            "attachment_description": "System card",
            "give": "1",
        },
    )
    assert response.status_code == 302
    ruling = Ruling.objects.get()
    assert (ruling.statement_ns, ruling.statement_ew) == ("No pause", "A long pause")
    assert ruling.poll == {
        "question": "Would you pass 3S?",
        "level": "",
        "table_action": "",
        "players": [
            {"player": "A. Cohen", "action": "pass", "considered": [], "level": "peer"},
            {"player": "B. Levi", "action": "Pass", "considered": [], "level": "peer"},
            {"player": "C. Katz", "action": "4S", "considered": [], "level": "peer"},
        ],
        "count": {"pass": 2, "4S": 1},
    }
    assert ruling.appeal_notice == "given" and ruling.appeal_notice_at == ruling.given_at
    attachment = ruling.attachments.get()
    assert (attachment.content_type, attachment.size, attachment.description) == ("image/png", len(PNG), "System card")
    assert default_storage.exists(attachment.file.name)
    served = client.get(reverse("rulings:ruling-attachment", args=[ruling.pk, attachment.pk]))
    assert served["Content-Type"] == "image/png" and served.content == PNG
    page = client.get(reverse("rulings:ruling", args=[ruling.pk])).content.decode()
    assert '<bdi class="nowrap">Pass 2</bdi>' in page and "Players told of the right to appeal (Law 83)" in page


def test_a_poll_line_without_an_action_is_refused_at_its_field(client, field, director):
    client.force_login(director)
    response = client.post(
        reverse("rulings:ruling-new", args=[field.results[6].pk]),
        {
            "kind": "ui",
            "laws": "16B1a",
            "ruling_text": "Result stands",
            "outcome": "result_stands",
            "poll_question": "Would you pass?",
            "poll_votes": "A. Cohen pass",
            "give": "1",
        },
    )
    assert response.context["form"].errors["poll_votes"] == [
        'Line 1: write the player, a colon, and the action they chose, e.g. "A. Cohen: pass".'
    ]


@pytest.mark.parametrize(
    "name,content,message",
    [
        ("notes.txt", b"hello", "notes.txt is not a photo or a PDF: attach a JPEG, PNG, GIF or WebP image or a PDF."),
        ("fake.png", b"<html>", "fake.png is not a photo or a PDF: attach a JPEG, PNG, GIF or WebP image or a PDF."),
        ("huge.pdf", PDF + b"0" * (5 * 1024 * 1024), "huge.pdf is 5.0 MB: an attachment is at most 5 MB."),
    ],
)
def test_attachments_are_checked_by_size_and_content(field, director, name, content, message):
    ruling = services.rule(
        result=field.results[6],
        director=director,
        kind="claim",
        laws="70D1",
        ruling_text="Claim",
        outcome="result_stands",
    )
    with pytest.raises(ValidationError) as exc:
        services.add_attachment(ruling=ruling, by=director, upload=SimpleUploadedFile(name, content))
    assert exc.value.message_dict["attachment"] == [message]
    assert not ruling.attachments.exists()


def test_a_pdf_attachment_is_kept_and_only_readers_of_the_ruling_get_it(client, field, director):
    ruling = services.rule(
        result=field.results[6],
        director=director,
        kind="claim",
        laws="70D1",
        ruling_text="Claim",
        outcome="result_stands",
    )
    attachment = services.add_attachment(
        ruling=ruling, by=director, upload=SimpleUploadedFile("claim statement.pdf", PDF)
    )
    assert attachment.content_type == "application/pdf" and attachment.file.name.endswith(".pdf")
    assert attachment.file.name.startswith(f"rulings/{ruling.pk}/claim_statement")
    outsider = make_user("outsider", role=roles.PLAYER)
    client.force_login(outsider)
    assert client.get(reverse("rulings:ruling-attachment", args=[ruling.pk, attachment.pk])).status_code == 404


def test_the_time_the_director_was_called_is_read_in_the_tournaments_zone(client, field, director):
    import datetime

    from django.utils import timezone

    from scoring.models import Tournament

    Tournament.objects.filter(pk=field.tournament.pk).update(time_zone="Asia/Jerusalem")
    client.force_login(director)
    response = client.post(
        reverse("rulings:ruling-new", args=[field.results[6].pk]),
        {
            "kind": "claim",
            "laws": "70D1",
            "ruling_text": "Claim accepted",
            "outcome": "result_stands",
            "called_at": "2026-11-23T20:15",
            "draft": "1",
        },
    )
    assert response.status_code == 302
    assert Ruling.objects.get().called_at == datetime.datetime(2026, 11, 23, 18, 15, tzinfo=datetime.UTC)
    assert timezone.get_current_timezone_name() == "UTC"  # not left active after the request
    page = client.get(reverse("rulings:ruling-edit", args=[Ruling.objects.get().pk])).content.decode()
    assert 'value="2026-11-23T20:15"' in page
