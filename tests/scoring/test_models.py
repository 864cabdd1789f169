"""The competition record refuses what cannot be right, and says which field is wrong."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from core import policy
from scoring import services
from scoring.models import AuthoritySetting, Board, Result
from tests.conftest import DEAL

pytestmark = pytest.mark.django_db


def record_result(record, **fields):
    defaults = dict(
        board=record.boards[0], round=record.round, table=record.tables[0], ns=record.pairs[0], ew=record.pairs[2]
    )
    defaults.update(fields)
    return services.record_result(**defaults, by=policy.SYSTEM)


def error_of(exc_info):
    return exc_info.value.message_dict


def test_result_gets_its_law_77_score_from_the_board_vulnerability(record):
    # Board 1 is not vulnerable: 4S by North making 10 is +420; board 2 (N-S vulnerable) 3NT+2 by South 660.
    assert record_result(record, contract="4s", declarer="N", tricks=10).score_ns == 420
    result = record_result(record, board=record.boards[1], contract="3NT", declarer="S", tricks=11)
    assert (result.score_ns, result.contract, result.result_display) == (660, "3NT", "+2")


def test_east_west_declarer_scores_negative_for_north_south(record):
    result = record_result(record, contract="4DX", declarer="E", tricks=7)
    assert result.score_ns == 500  # 4Dx-3 not vulnerable: 100 + 200 + 200 to N-S


def test_passed_out_board_scores_zero_and_has_no_declarer(record):
    result = record_result(record, contract="Pass")
    assert (result.contract, result.score_ns, result.declarer, result.tricks) == ("PASS", 0, "", None)


def test_fourteen_tricks_are_refused_naming_the_field(record):
    with pytest.raises(ValidationError) as exc:
        record_result(record, contract="4S", declarer="N", tricks=14)
    assert error_of(exc) == {"tricks": ["14 tricks: declarer takes 0 to 13 tricks."]}
    assert Result.objects.count() == 0


def test_eight_notrump_is_refused(record):
    with pytest.raises(ValidationError) as exc:
        record_result(record, contract="8NT", declarer="N", tricks=9)
    assert error_of(exc) == {"contract": ["'8NT' has level 8: a level is 1 to 7."]}


def test_declarer_who_is_not_at_the_table_is_refused(record):
    with pytest.raises(ValidationError) as exc:
        record_result(record, contract="3NT", declarer="X", tricks=9)
    assert "declarer" in error_of(exc)


def test_a_board_twice_at_one_table_or_for_one_pair_is_refused(record):
    record_result(record, contract="3NT", declarer="S", tricks=9)
    with pytest.raises(ValidationError) as exc:
        record_result(record, ns=record.pairs[1], ew=record.pairs[3], contract="3NT", declarer="S", tricks=9)
    assert error_of(exc) == {"table": ["Board 1 already has a result at table 1."]}
    with pytest.raises(ValidationError) as exc:
        record_result(
            record,
            table=record.tables[1],
            ns=record.pairs[1],
            ew=record.pairs[2],
            contract="2S",
            declarer="E",
            tricks=8,
        )
    assert error_of(exc) == {"ew": ["3 has already played board 1 (E-W)."]}
    assert Result.objects.count() == 1


def test_the_database_itself_refuses_a_second_result_at_a_table(record):
    first = record_result(record, contract="3NT", declarer="S", tricks=9)
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(
            board=first.board,
            round=first.round,
            table=first.table,
            ns=record.pairs[1],
            ew=record.pairs[3],
            contract="1C",
            declarer="N",
            tricks=7,
            score_ns=70,
        )


def test_a_lead_must_be_a_card(record):
    with pytest.raises(ValidationError) as exc:
        record_result(record, contract="3NT", declarer="S", tricks=9, lead="Z9")
    assert "lead" in error_of(exc)
    assert record_result(record, contract="3NT", declarer="S", tricks=9, lead="h10").lead == "H10"


def test_not_played_board_has_no_contract(record):
    result = record_result(record, not_played=True)
    assert result.score_ns is None
    with pytest.raises(ValidationError) as exc:
        record_result(
            record, table=record.tables[1], ns=record.pairs[1], ew=record.pairs[3], not_played=True, contract="3NT"
        )
    assert "contract" in error_of(exc)


def test_correcting_a_result_rescores_it(record):
    result = record_result(record, contract="4S", declarer="N", tricks=10)
    corrected = services.correct_result(result=result, tricks=9, by=policy.SYSTEM)
    assert corrected.score_ns == -50
    assert Result.objects.get().score_ns == -50


def test_fourteen_card_hand_is_refused_naming_the_deal(record):
    bad = "N:AK96.KJ8.T74.Q932 QJ82.T942.J.KT64 T73.AQ653.AQ8.A 54.7.K96532.J875"
    with pytest.raises(ValidationError) as exc:
        services.create_board(session=record.session, number=3, deal=bad, by=policy.SYSTEM)
    assert list(error_of(exc)) == ["deal"]
    assert "14 cards" in error_of(exc)["deal"][0]
    assert not Board.objects.filter(number=3).exists()


def test_board_takes_dealer_and_vulnerability_from_its_number(record):
    board = services.create_board(session=record.session, number=7, by=policy.SYSTEM)
    assert (board.dealer, board.vulnerability) == ("S", "All")
    assert record.boards[0].deal == DEAL


def test_duplicate_board_number_in_a_session_is_refused(record):
    with pytest.raises(ValidationError) as exc:
        services.create_board(session=record.session, number=1, by=policy.SYSTEM)
    assert "__all__" in error_of(exc) or "number" in error_of(exc)


def test_tournament_must_end_after_it_starts(record):
    with pytest.raises(ValidationError) as exc:
        services.create_tournament(
            authority=record.authority,
            name="Backwards",
            start_date=datetime.date(2026, 5, 2),
            end_date=datetime.date(2026, 5, 1),
            by=policy.SYSTEM,
        )
    assert error_of(exc)["end_date"] == ["The last day is before the first day."]


def test_pairs_need_two_members_and_players_enter_once(record):
    with pytest.raises(ValidationError) as exc:
        services.enter_contestant(event=record.event, number=9, members=record.players[:3], by=policy.SYSTEM)
    assert error_of(exc) == {"members": ["A pair has 2 members, not 3."]}
    with pytest.raises(ValidationError) as exc:
        services.enter_contestant(event=record.event, number=9, members=record.players[:2], by=policy.SYSTEM)
    assert "is already entered in this event" in error_of(exc)["members"][0]


def test_regulations_default_to_the_laws_and_change_from_a_date(record):
    authority = record.authority
    assert authority.settings_on(datetime.date(2026, 1, 1))["appeal_period_minutes"] == 30
    services.set_authority_setting(
        authority=authority,
        key="appeal_period_minutes",
        value=20,
        effective_from=datetime.date(2026, 3, 1),
        by=policy.SYSTEM,
    )
    assert authority.settings_on(datetime.date(2026, 2, 28))["appeal_period_minutes"] == 30
    assert authority.settings_on(datetime.date(2026, 3, 1))["appeal_period_minutes"] == 20
    assert record.tournament.regulations()["average_plus_percent"] == "60"


def test_a_bad_regulation_value_is_refused_with_the_setting_named(record):
    with pytest.raises(ValidationError) as exc:
        services.set_authority_setting(
            authority=record.authority,
            key="laws_edition",
            value="2009",
            effective_from=datetime.date(2026, 1, 1),
            by=policy.SYSTEM,
        )
    assert error_of(exc) == {"value": ["Edition of the Laws in force: must be one of 1997, 2007, 2017"]}
    with pytest.raises(ValidationError) as exc:
        services.set_authority_setting(
            authority=record.authority,
            key="deposits",
            effective_from=datetime.date(2026, 1, 1),
            value={"amounts": {"mp_pairs": "20"}},
            by=policy.SYSTEM,
        )
    assert error_of(exc) == {"value": ["Appeal deposits by kind of event: a deposit needs a currency"]}
    assert not AuthoritySetting.objects.exists()


def test_official_score_starts_the_appeal_and_correction_clocks(record):
    session = record.session
    assert session.appeal_deadline() is None
    posted = datetime.datetime(2026, 5, 1, 21, 40, tzinfo=datetime.UTC)
    services.post_official_scores(session=session, at=posted, by=policy.SYSTEM)
    assert session.appeal_deadline() == posted + datetime.timedelta(minutes=30)
    assert session.correction_deadline() == posted + datetime.timedelta(minutes=30)
    # A re-posting after corrections restarts the clocks from the later time.
    services.post_official_scores(session=session, at=posted + datetime.timedelta(minutes=10), by=policy.SYSTEM)
    assert session.appeal_deadline() == posted + datetime.timedelta(minutes=40)
