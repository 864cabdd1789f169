"""A dozen realistic rulings for the demo tournament, made through the services as a director
would make them: facts, laws, the auction with alerts and tempo, the adjusted score."""

import datetime

from django.contrib.auth import get_user_model
from django.db import transaction

from bridge.auction import Auction, AuctionCall, BoardRecord
from bridge.deals import next_seat, parse_deal
from bridge.engine.contract import parse_contract
from core import policy
from rulings import services
from rulings.models import Penalty, Ruling
from scoring import recalculation
from scoring.models import Event, Result


def _auction(result, *, tempo=None, alert=None):
    """A plain auction reaching the table contract: passes to declarer, the contract bid
    straight away (doubled where it was), then passes. ``tempo`` = (call index, seconds);
    ``alert`` = (call index, explanation)."""
    board = result.board
    contract = parse_contract(result.contract)
    calls, seat = [], board.dealer
    while seat != result.declarer:
        calls.append(AuctionCall("Pass"))
        seat = next_seat(seat)
    calls.append(AuctionCall(f"{contract.level}{contract.strain}"))
    if contract.doubling:
        calls.append(AuctionCall("X"))
        if contract.doubling == 2:
            calls.append(AuctionCall("XX"))
    calls += [AuctionCall("Pass") for _ in range(3)]
    if tempo:
        index, seconds = tempo
        calls[index] = AuctionCall(calls[index].call, tempo_seconds=seconds, note="agreed by both sides")
    if alert:
        index, text = alert
        calls[index] = AuctionCall(calls[index].call, alert=True, explanation=text)
    return Auction(board.dealer, calls, opening_lead=result.lead or None)


def _record(result, **auction_options):
    board = result.board
    return BoardRecord(
        board=board.number,
        vulnerability=board.vulnerability,
        deal=parse_deal(board.deal),
        auction=_auction(result, **auction_options),
    )


def _row(result, tricks_delta=0, weight=None):
    row = {
        "contract": result.contract,
        "declarer": result.declarer,
        "tricks": max(0, min(13, result.tricks + tricks_delta)),
    }
    if weight is not None:
        row["weight"] = weight
    return row


def _pick(event, session_number, board_number, table_number=1):
    """A played result near the one named; wraps round a smaller demo (the tests build one)."""
    sessions = event.sessions.count()
    session = event.sessions.get(number=(session_number - 1) % sessions + 1)
    board_number = (board_number - 1) % session.boards.count() + 1
    results = Result.objects.filter(board__session=session).exclude(contract="PASS").exclude(not_played=True)
    results = results.exclude(rulings__isnull=False).order_by("board__number", "table__number")
    preferred = results.filter(board__number=board_number)
    return (
        preferred.filter(table__number=table_number).first()
        or preferred.first()
        or results.filter(board__number__gt=board_number).first()
        or results.first()
    )


def _side_of(result):
    return "NS" if result.declarer in ("N", "S") else "EW"


def _other(side):
    return "EW" if side == "NS" else "NS"


@transaction.atomic
def load_demo_rulings(tournament):
    """Twelve rulings of different kinds across the pairs and the teams event."""
    User = get_user_model()
    director = User.objects.get(username="director")
    chief = User.objects.get(username="chief")
    pairs = tournament.events.get(kind=Event.Kind.MP_PAIRS)
    teams = tournament.events.get(kind=Event.Kind.TEAMS_ROUND_ROBIN)
    made = []

    def ruling(result, by=director, give=True, record=None, **fields):
        # Given during the session: round by round, a few minutes into the round.
        session = result.board.session
        given_at = session.starts_at + datetime.timedelta(minutes=14 * result.round.number + 3)
        made.append(
            services.rule(
                result=result,
                director=by,
                give=give,
                given_at=given_at,
                called_at=given_at - datetime.timedelta(minutes=2),
                **fields,
            )
        )
        if record is not None:
            services.attach_deal_and_auction(ruling=made[-1], by=by, record=record)
        return made[-1]

    r = _pick(pairs, 1, 3, 2)
    declaring = _side_of(r)
    ruling(
        r,
        kind=Ruling.Kind.UNAUTHORISED_INFORMATION,
        laws="16B1a, 73C, 12C1c",
        called_by="W",
        facts="After a long pause by the declarer's partner, declarer bid on. Both sides agree the pause "
        "lasted about 15 seconds.",
        ruling_text="Score adjusted: weighted, 60% one trick fewer and 40% the table result.",
        reasoning="Passing was a logical alternative: four of five players polled passed. The hesitation "
        "demonstrably suggested bidding on.",
        poll={
            "question": "You hold declarer's hand; partner paused before passing. What do you call?",
            "level": "regional masters",
            "votes": [
                {"player": name, "action": action}
                for name, action in (
                    ("R. Levi", "pass"),
                    ("M. Peretz", "pass"),
                    ("S. Katz", "pass"),
                    ("D. Mizrahi", "pass"),
                    ("Y. Golan", "4S"),
                )
            ],
        },
        outcome="adjusted",
        score_kind="weighted",
        offending_side=declaring,
        ns=[_row(r, -1, "0.6"), _row(r, 0, "0.4")],
        record=_record(r, tempo=(-3, 15)),
    )

    r = _pick(pairs, 1, 8, 4)
    ruling(
        r,
        kind=Ruling.Kind.MISINFORMATION,
        laws="20F1, 21B1a, 12C1e",
        called_by="S",
        facts="The opening bid was alerted and explained as natural; the partnership's system card shows it "
        "as artificial.",
        ruling_text="Misinformation: score assigned, one trick fewer for the declaring side.",
        reasoning="With the correct explanation the defenders would have found the killing lead.",
        outcome="adjusted",
        score_kind="assigned",
        offending_side=_side_of(r),
        ns=_row(r, -1),
        record=_record(r, alert=(-4, "natural, 5+ cards")),
    )

    r = _pick(pairs, 2, 5, 3)
    ruling(
        r,
        kind=Ruling.Kind.REVOKE,
        laws="61A, 63A1, 64A1",
        called_by="N",
        facts="A defender revoked at trick 6 and won the trick with the revoke card; the revoke was "
        "established when his partner led to the next trick.",
        ruling_text="One trick transferred to the declaring side (Law 64A1).",
        outcome="rectification",
        rectification="One trick transferred to declarer.",
    )

    r = _pick(pairs, 2, 11, 6)
    ruling(
        r,
        kind=Ruling.Kind.CLAIM,
        laws="68A, 70A, 70D1",
        called_by="E",
        facts="Declarer claimed the rest, saying 'trumps are good', with one trump outstanding.",
        ruling_text="One trick to the defence: declarer did not mention the outstanding trump.",
        reasoning="It would be careless but not irrational to play a winner before drawing the last trump.",
        outcome="adjusted",
        score_kind="assigned",
        offending_side=_side_of(r),
        ns=_row(r, -1),
    )

    r = _pick(pairs, 1, 14, 5)
    ruling(
        r,
        kind=Ruling.Kind.FOULED_BOARD,
        laws="87A, 12C2a",
        called_by="N",
        facts="Two cards were found in the wrong pocket after play: the board was fouled.",
        ruling_text="Artificial adjusted score: average plus to N-S, average minus to E-W, who moved the cards.",
        outcome="adjusted",
        score_kind="artificial",
        offending_side="EW",
        ns="AVE+",
        ew="AVE-",
    )

    r = _pick(pairs, 2, 20, 7)
    ruling(
        r,
        kind=Ruling.Kind.DIRECTORS_ERROR,
        laws="82C, 12C2a",
        by=chief,
        called_by="W",
        facts="The director wrongly allowed an insufficient bid to be corrected without rectification.",
        ruling_text="Director's error: both sides get average plus.",
        outcome="adjusted",
        score_kind="artificial",
        ns="AVE+",
        ew="AVE+",
    )

    r = _pick(pairs, 1, 17, 8)
    ruling(
        r,
        kind=Ruling.Kind.PROCEDURAL_PENALTY,
        laws="90A, 90B",
        called_by="",
        facts="The E-W pair arrived twelve minutes late for the round after a warning.",
        ruling_text="Procedural penalty: 25% of a top to E-W.",
        outcome="result_stands",
        penalty={"side": "EW", "amount": "25", "unit": Penalty.Unit.PERCENT_OF_TOP, "offence": "late arrival"},
    )

    r = _pick(pairs, 3, 2, 1)
    ruling(
        r,
        kind=Ruling.Kind.FACTS_DISPUTED,
        laws="85A1, 85B",
        give=False,
        called_by="E",
        statement_ns="North says East asked about the double and then passed quickly.",
        statement_ew="East says he asked only after the auction ended.",
        facts_found="Not established on the balance of probabilities: play continued.",
        ruling_text="Facts not established; result stands.",
        outcome="result_stands",
    )

    r = _pick(pairs, 3, 9, 4)
    ruling(
        r,
        kind=Ruling.Kind.LAW_APPLIED,
        laws="27B1a",
        give=False,
        called_by="N",
        facts="An insufficient bid of 1D over 1H was corrected to 2D, the lowest sufficient bid in the same "
        "denomination.",
        ruling_text="Law 27B1a: no further rectification; the auction continued.",
        outcome="result_stands",
    )

    r = _pick(teams, 1, 3, 1)
    ruling(
        r,
        kind=Ruling.Kind.UNAUTHORISED_INFORMATION,
        laws="16B1a, 12C1e",
        called_by="S",
        screens=True,
        tray_delay_seconds=25,
        noticed_by=_other(_side_of(r)),
        facts="The tray came back after about 25 seconds; the delay was noticed on the other side of the screen.",
        ruling_text="Result stands: the delay was within what the regulations treat as not significant.",
        reasoning="Regulations: up to 20 seconds is not significant; 25 seconds did not suggest one action "
        "over another.",
        outcome="result_stands",
        record=_record(r, tempo=(-3, 25)),
    )

    r = _pick(teams, 1, 10, 3)
    ruling(
        r,
        kind=Ruling.Kind.MISINFORMATION,
        laws="21B1a, 12C1c",
        called_by="W",
        facts="Explained as 'to play'; the agreement was a transfer.",
        ruling_text="Weighted score: 70% one trick fewer, 30% the table result.",
        outcome="adjusted",
        score_kind="weighted",
        offending_side=_side_of(r),
        ns=[_row(r, -1, "0.7"), _row(r, 0, "0.3")],
        record=_record(r, alert=(-4, "to play")),
    )

    r = _pick(teams, 1, 20, 5)
    ruling(
        r,
        kind=Ruling.Kind.DISCIPLINARY_PENALTY,
        laws="91A, 74A2",
        by=chief,
        called_by="N",
        facts="A player made offensive remarks to an opponent after the board.",
        ruling_text="Disciplinary penalty: 1 VP to the offending team.",
        outcome="result_stands",
        penalty={"side": _side_of(r), "amount": "1", "unit": Penalty.Unit.VPS, "offence": "offensive remarks"},
    )

    services.finalise_rulings(by=policy.SYSTEM)
    for event in (pairs, teams):
        recalculation.rescore_everything(event)
    return made
