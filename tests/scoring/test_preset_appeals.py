"""Presets at work through the appeals services as they are (issue #17): an authority created
with the EBU preset sanctions an appeal without merit as the EBU does, and a UFSB appeal goes
to the chief judge on law, then the committee, then the national federation."""

import datetime
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.core.exceptions import ValidationError

from appeals import services
from appeals.models import AppealEvent, Deposit, MeritWarning
from core import policy
from rulings.models import Ruling
from scoring import recalculation
from scoring import services as scoring_services
from scoring.models import Board, BoardScore, Event, MatchPenalty, MatchScore
from tests.appeals.conftest import SOON, case, committee, lodge, team_event, vote_all  # noqa: F401 - case is a fixture
from tests.conftest import DEAL, TABLE_RESULTS, make_user

pytestmark = pytest.mark.django_db


def field_under(preset, code):
    """The ``field`` of tests/conftest.py (seven tables, board 1, table 7 is table X), under an
    authority created with ``preset``."""
    authority = scoring_services.create_authority_with_preset(
        name=f"{code.upper()} body", code=code, preset=preset, time_zone="Europe/London", by=policy.SYSTEM
    )
    tournament = scoring_services.create_tournament(
        authority=authority,
        name="Spring Congress",
        start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 2),
        by=policy.SYSTEM,
    )
    event = scoring_services.create_event(
        tournament=tournament, name="Pairs", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )
    session = scoring_services.create_session(event=event, number=1, by=policy.SYSTEM)
    tables = scoring_services.add_tables(section=session.sections.get(), count=7, by=policy.SYSTEM)
    round_ = scoring_services.add_rounds(session=session, count=1, by=policy.SYSTEM)[0]
    players = [
        scoring_services.register_player(
            authority=authority,
            first_name=f"P{i}",
            last_name=f"Player{i}",
            membership_number=f"{code}-{i}",
            by=policy.SYSTEM,
        )
        for i in range(1, 29)
    ]
    pairs = [
        scoring_services.enter_contestant(event=event, number=n, members=players[2 * (n - 1) : 2 * n], by=policy.SYSTEM)
        for n in range(1, 15)
    ]
    board = scoring_services.create_board(session=session, number=1, deal=DEAL, by=policy.SYSTEM)
    results = [
        scoring_services.record_result(
            board=board,
            round=round_,
            table=tables[t],
            ns=pairs[t],
            ew=pairs[7 + t],
            contract=contract,
            declarer=declarer,
            tricks=tricks,
            by=policy.SYSTEM,
        )
        for t, (contract, declarer, tricks) in enumerate(TABLE_RESULTS + [("4S", "N", 10)])
    ]
    recalculation.recalculate_board(board.pk)
    return SimpleNamespace(
        authority=authority,
        tournament=tournament,
        event=event,
        session=session,
        tables=tables,
        round=round_,
        players=players,
        pairs=pairs,
        boards=[board],
        results=results,
    )


@pytest.fixture
def field(request, db):
    """Overrides tests/conftest.py's: the preset is the test's parameter."""
    return field_under(request.param, request.param)


def actions(appeal):
    return list(appeal.events.order_by("at", "pk").values_list("action", flat=True))


@pytest.mark.parametrize("field", ["ebu"], indirect=True)
def test_an_ebu_appeal_without_merit_loses_its_deposit_and_a_quarter_of_a_top(case):
    regulations = case.record.tournament.regulations()
    assert (regulations["without_merit_sanction"], regulations["appeals_committee_size"]) == ("deposit_and_penalty", 3)
    appeal = lodge(case)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    body = committee(case, appeal)
    with pytest.raises(ValidationError) as error:  # the EBU asks a deposit before a hearing
        services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    assert error.value.message_dict["deposit"][0] == "The deposit of 20.00 GBP has not been received."
    deposit = services.record_deposit(appeal=appeal, by=case.director, now=SOON)
    assert (deposit.amount, deposit.currency) == (Decimal("20.00"), "GBP")  # 20 GBP at pairs
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    vote_all(body, "uphold")
    appeal = services.decide_appeal(
        appeal=appeal, by=case.members[0], outcome="uphold", reasons="Pass is a LA", now=SOON
    )
    # No penalty given: the regulations' figure for matchpoint pairs applies.
    appeal = services.find_without_merit(appeal=appeal, by=case.members[0], reasons="No case was made", now=SOON)
    assert (appeal.without_merit, appeal.sanction) == (True, "deposit_and_penalty")
    assert appeal.deposits.get().state == Deposit.State.FORFEITED
    assert case.record.results[6].effective.penalty == {"ns": "25%"}
    recalculation.recalculate_board(case.record.boards[0].pk)
    assert BoardScore.objects.get(result=case.record.results[6]).ns == Decimal("2")  # 5 MP less 25% of a top of 12
    note = appeal.events.get(action=AppealEvent.Action.WITHOUT_MERIT).note
    assert "deposit of 20.00 GBP kept" in note and "procedural penalty of 25% on N-S" in note


@pytest.mark.parametrize("field", ["ebu"], indirect=True)
def test_an_ebu_team_appeal_without_merit_costs_the_team_1_vp_in_its_match(case):
    teams = team_event(case.record, case.director)
    appeal = services.lodge_appeal(
        ruling=teams.ruling, by=case.director, player=teams.captain, grounds="Declarer had not claimed", now=SOON
    )
    deposit = services.record_deposit(appeal=appeal, by=case.director, now=SOON)
    assert (deposit.amount, deposit.currency) == (Decimal("30.00"), "GBP")  # 30 GBP at teams
    body = committee(case, appeal)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    vote_all(body, "uphold")
    appeal = services.decide_appeal(
        appeal=appeal, by=case.members[0], outcome="uphold", reasons="The claim stands", now=SOON
    )
    appeal = services.find_without_merit(appeal=appeal, by=case.members[0], reasons="No case was made", now=SOON)
    assert appeal.deposits.get().state == Deposit.State.FORFEITED
    penalty = MatchPenalty.objects.get()
    assert (penalty.team, penalty.amount, penalty.unit, penalty.offence) == (
        teams.team1,
        Decimal("1"),
        "vps",
        "Appeal without merit: No case was made",
    )
    board = Board.objects.get(session=teams.session)
    recalculation.recalculate_board(board.pk)
    score = MatchScore.objects.get(match__home=teams.team1)
    # The Lions won board 1 by 470 points, 10 IMPs: on the WBF discrete scale the EBU has used
    # since 1 September 2013, 18-2 over one board (its 18 VP band is 9-10 IMPs), less 1.
    assert (score.home_imps, score.home_vp, score.away_vp, score.home_vp_penalty) == (
        10,
        Decimal("17.00"),
        Decimal("2.00"),
        1,
    )
    note = appeal.events.get(action=AppealEvent.Action.WITHOUT_MERIT).note
    assert "deposit of 30.00 GBP kept" in note and "procedural penalty of 1 VP" in note


@pytest.mark.parametrize("field", ["ufsb"], indirect=True)
def test_a_ufsb_appeal_goes_to_the_chief_judge_then_the_committee_then_the_federation(case):
    regulations = case.record.tournament.regulations()
    assert (regulations["appeals_body"], regulations["further_appeal"], regulations["appeal_period_minutes"]) == (
        "committee",
        "binding",
        30,
    )
    appeal = lodge(
        case,
        parts=[
            {"kind": "judgement", "question": "Was pass a logical alternative? (Rule 16, paragraph 1)"},
            {"kind": "law", "question": "Does Rule 12, paragraph 3 allow the adjustment?"},
        ],
    )
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    body = committee(case, appeal)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)  # no deposit asked
    vote_all(body, "uphold")
    # First the chief judge, on law: the committee cannot decide before.
    with pytest.raises(ValidationError) as error:
        services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="LA", now=SOON)
    assert "The director in charge first decides the part about law" in error.value.message_dict["parts"][0]
    services.decide_law_part(
        part=appeal.parts.get(kind="law"), by=case.chief, outcome="uphold", reasons="Rule 12 allows it", now=SOON
    )
    # Then the committee, on the rest.
    appeal = services.decide_appeal(
        appeal=appeal, by=case.members[0], outcome="uphold", reasons="Pass is a logical alternative", now=SOON
    )
    assert appeal.state == "decided"
    # Then the national federation, whose decision binds.
    further = services.lodge_further_appeal(
        appeal=appeal, by=case.director, player=case.north, grounds="Rule 16, paragraph 1 was misread", now=SOON
    )
    assert further.binding
    federation = make_user("federation", first_name="Olena")
    scoring_services.appoint_auditor(authority=case.record.authority, user=federation, by=policy.SYSTEM)
    national = services.constitute_body(
        appeal=appeal, by=federation, stage="further", size=1, members=[federation], now=SOON
    )
    seat = national.members.get()
    services.declare_conflict(member=seat, by=seat.user, now=SOON)
    further = services.decide_further_appeal(
        further_appeal=further, by=federation, outcome="overturn", reasons="No logical alternative to 4S", now=SOON
    )
    assert (further.state, further.outcome) == ("decided", "overturn")
    recalculation.recalculate_board(case.record.boards[0].pk)
    assert BoardScore.objects.get(result=case.record.results[6]).ns == Decimal("8")  # the table's +420 again
    case.ruling.refresh_from_db()
    assert case.ruling.state == Ruling.State.CHANGED_BY_APPEAL
    steps = [a for a in actions(appeal) if a in ("law_part_decided", "decided", "further_lodged", "further_decided")]
    assert steps == ["law_part_decided", "decided", "further_lodged", "further_decided"]


@pytest.mark.parametrize("field", ["ebl"], indirect=True)
def test_an_ebl_review_goes_to_a_single_reviewer_and_no_deposit_is_asked(case):
    appeal = lodge(case)
    body = services.constitute_body(appeal=appeal, by=case.chief, members=[case.members[0]], now=SOON)
    assert (body.kind, body.size) == ("reviewer", 1)  # the regulations' body, no committee
    with pytest.raises(ValidationError) as error:
        services.record_deposit(appeal=appeal, by=case.director, now=SOON)
    assert "No deposit is asked" in error.value.message_dict["amount"][0]


@pytest.mark.parametrize("field", ["acbl"], indirect=True)
def test_an_acbl_appeal_without_merit_is_a_warning_against_each_appellant(case):
    appeal = lodge(case)
    services.record_concurrence(appeal=appeal, player=case.south, how="in_person", by=case.director, now=SOON)
    body = services.constitute_body(
        appeal=appeal, by=case.chief, members=case.members[:3], chair=case.members[0], now=SOON
    )
    assert body.kind == "director_panel"
    for member in body.members.all():
        services.declare_conflict(member=member, now=SOON, by=member.user)
    services.schedule_hearing(appeal=appeal, by=case.chief, starts_at=SOON, now=SOON)
    vote_all(body, "uphold")
    appeal = services.decide_appeal(appeal=appeal, by=case.members[0], outcome="uphold", reasons="LA", now=SOON)
    appeal = services.find_without_merit(appeal=appeal, by=case.members[0], reasons="No case", now=SOON)
    assert appeal.sanction == "warning"
    assert set(MeritWarning.objects.values_list("player", flat=True)) == {case.north.pk, case.south.pk}
    assert case.record.results[6].effective.penalty is None  # no score penalty at the ACBL
