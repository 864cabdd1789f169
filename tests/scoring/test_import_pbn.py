"""Importing a scoring program's PBN export: all of it, or nothing with the line and reason."""

from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from core import policy
from scoring import recalculation, services
from scoring.models import Board, Contestant, Event, Result, Standing

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "pbn"
pytestmark = pytest.mark.django_db


@pytest.fixture
def event(record):
    return services.create_event(
        tournament=record.tournament, name="Thursday Pairs", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )


def test_a_scoring_program_export_is_imported_whole(event, capsys):
    call_command("import_pbn", str(FIXTURES / "session_export.pbn"), "--event", str(event.pk))
    out = capsys.readouterr().out
    assert "Imported 6 boards and 36 results" in out
    session = event.sessions.get()
    assert Board.objects.filter(session=session).count() == 6
    assert Result.objects.filter(board__session=session).count() == 36
    assert Contestant.objects.get(event=event, number=6).name == "Karen Bell - Liam Ford"
    board1 = Board.objects.get(session=session, number=1)
    assert board1.deal == "N:943.J9.AKQ5.K762 J6.T7654.JT9732. K52.AQ82.84.JT98 AQT87.K3.6.AQ543"
    first = Result.objects.get(board=board1, table__number=1)
    assert (first.contract, first.declarer, first.tricks, first.lead, first.score_ns) == ("2S", "W", 8, "C2", -110)
    # The artificial row on board 5 keeps the program's A60 / A40.
    artificial = Result.objects.get(board__session=session, board__number=5, table__number=4)
    assert artificial.not_played
    assert artificial.effective.score == {"ns": "60%", "ew": "40%"}
    assert "board 5, table 4: A6040" in out


def test_imported_matchpoints_agree_with_the_program(event):
    call_command("import_pbn", str(FIXTURES / "session_export.pbn"), "--event", str(event.pk))
    recalculation.rescore_everything(event)
    board1 = Result.objects.filter(board__session__event=event, board__number=1).select_related("board_score")
    # The export's MP_NS column for board 1, tables 1-6: 1, 4, 7, 10, 1, 7.
    assert [r.board_score.ns for r in board1.order_by("table__number")] == [
        Decimal(v) for v in ("1", "4", "7", "10", "1", "7")
    ]
    board5 = Result.objects.filter(board__session__event=event, board__number=5).order_by("table__number")
    artificial = board5.get(table__number=4).board_score
    assert (artificial.ns, artificial.ew) == (Decimal("6"), Decimal("4"))
    # The program's TotalScoreTable: N-S and E-W are ranked apart; pair 6 tops N-S with 47.8,
    # pairs 1 and 3 share third with 28.8, pair 7 tops E-W with 44.2.
    table = {
        s.contestant.number: (s.field, s.place, s.total.quantize(Decimal("0.1")))
        for s in Standing.objects.filter(event=event, session=None).select_related("contestant")
    }
    assert table[6] == ("NS", "1", Decimal("47.8"))
    assert table[1] == table[3] == ("NS", "3=", Decimal("28.8"))
    assert table[5] == ("NS", "6", Decimal("11.8"))
    assert table[7] == ("EW", "1", Decimal("44.2"))
    assert table[10] == ("EW", "6", Decimal("20.2"))


@pytest.mark.parametrize(
    "name,message",
    [
        ("bad_14_cards.pbn", "line 73: Deal: North holds 14 cards and East 12: a hand has 13"),
        ("bad_unterminated_tag.pbn", "line 111: Board: the tag is not terminated"),
        ("bad_missing_column.pbn", "line 103: ScoreTable: the row has 11 columns but the header names 12"),
        ("bad_8nt.pbn", "line 192: Contract: '8NT' has level 8: a level is 1 to 7."),
        ("bad_law77.pbn", "line 194: Score_NS 110 does not match 2D by S making 8 tricks, vulnerable: Law 77 gives 90"),
        ("bad_duplicate_board.pbn", "line 156: Board: board 3 appears twice in this file with a different Deal"),
    ],
)
def test_a_broken_file_is_refused_whole_with_line_and_reason(event, name, message):
    with pytest.raises(CommandError) as exc:
        call_command("import_pbn", str(FIXTURES / name), "--event", str(event.pk))
    assert message in str(exc.value)
    assert "Nothing was imported" in str(exc.value)
    assert not event.sessions.exists()
    assert not Result.objects.filter(board__session__event=event).exists()


def test_importing_the_same_session_twice_is_refused_and_changes_nothing(event):
    call_command("import_pbn", str(FIXTURES / "session_export.pbn"), "--event", str(event.pk), "--session", "1")
    with pytest.raises(CommandError) as exc:
        call_command("import_pbn", str(FIXTURES / "session_export.pbn"), "--event", str(event.pk), "--session", "1")
    assert "This file is already imported: Session 1 of Thursday Pairs holds the same boards and results" in str(
        exc.value
    )
    assert Result.objects.filter(board__session__event=event).count() == 36
    # Without a session number too: never a silent second session.
    with pytest.raises(CommandError, match="This file is already imported: Session 1"):
        call_command("import_pbn", str(FIXTURES / "session_export.pbn"), "--event", str(event.pk))
    assert event.sessions.count() == 1


def test_a_hand_record_imported_twice_is_refused_as_already_imported(event):
    # Big Deal's hand record (no results): the second import was a new session each time (issue #29).
    hands = FIXTURES.parent / "realfiles" / "bigdeal" / "bigdeal.pbn"
    call_command("import_pbn", str(hands), "--event", str(event.pk))
    with pytest.raises(CommandError) as exc:
        call_command("import_pbn", str(hands), "--event", str(event.pk))
    assert "This hand record is already imported: Session 1 of Thursday Pairs holds the same boards and deals." in str(
        exc.value
    )
    assert event.sessions.count() == 1
    # Another hand record is a session of its own.
    call_command("import_pbn", str(FIXTURES.parent / "realfiles" / "bigdeal" / "large1.pbn"), "--event", str(event.pk))
    assert event.sessions.count() == 2


def test_another_file_into_a_session_that_has_its_boards_is_refused(event, tmp_path):
    call_command("import_pbn", str(FIXTURES / "session_export.pbn"), "--event", str(event.pk), "--session", "1")
    other = tmp_path / "other.pbn"  # the same session with one result corrected
    text = (
        (FIXTURES / "session_export.pbn")
        .read_text()
        .replace(" 2  3  2 12 1D    N  6 H5      -    50", " 2  3  2 12 1D    N  7 H5     70     -")
    )
    other.write_text(text)
    with pytest.raises(CommandError) as exc:
        call_command("import_pbn", str(other), "--event", str(event.pk), "--session", "1")
    assert "line 5: board 1 is already in Session 1 of this event" in str(exc.value)
    assert Result.objects.filter(board__session__event=event).count() == 36


def test_unknown_event_and_missing_file_are_named(event, tmp_path):
    with pytest.raises(CommandError, match="--event 999999: there is no event with that id"):
        call_command("import_pbn", str(FIXTURES / "session_export.pbn"), "--event", "999999")
    with pytest.raises(CommandError, match="No such file"):
        call_command("import_pbn", str(tmp_path / "missing.pbn"), "--event", str(event.pk))
