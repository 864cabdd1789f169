"""The demo federation's casebook, built from the demo tournament's decided appeals."""

import datetime

from django.contrib.auth import get_user_model
from django.db import transaction

from appeals import demo as appeals_demo
from appeals import services as appeal_services
from appeals.models import Appeal
from bridge.auction import Auction, AuctionCall
from bridge.deals import generate_deal
from core import policy, roles
from national import casebooks
from rulings import services as rulings_services
from rulings.models import Ruling
from scoring import services as scoring_services
from scoring.models import Event


@transaction.atomic
def load_demo_casebook(tournament):
    """The demo federation's casebook of its decided appeals: published, commented, final, within
    hours of the last decision (the demo's sessions were days ago: never dated after today)."""
    auditor = get_user_model().objects.get(username="auditor")
    authority = tournament.authority
    at = max(
        a.decided_at
        for a in Appeal.objects.filter(
            ruling__result__board__session__event__tournament=tournament, state=Appeal.State.DECIDED
        )
        if a.decided_at is not None  # a decided appeal has its time
    )
    casebook = casebooks.compile_casebook(
        authority=authority,
        by=auditor,
        title=f"{tournament.name}: appeals",
        now=at + datetime.timedelta(hours=1),
        introduction="The decided appeals of the championship, with the players shown by seat only.",
        filters={"tournament": tournament.pk},
    )
    casebooks.publish_casebook(casebook=casebook, by=auditor, now=at + datetime.timedelta(hours=2))
    tempo = casebook.cases.get(appeal__ruling__kind=Ruling.Kind.UNAUTHORISED_INFORMATION)
    casebooks.write_commentary(
        case=tempo,
        by=auditor,
        now=at + datetime.timedelta(hours=3),
        text=(
            "A clear example of weighting after a break in tempo: the committee agreed bidding on was suggested but "
            "judged how often the pair would have found the bid without it."
        ),
        ruling_rating=60,
        decision_rating=80,
    )
    other = casebook.cases.exclude(pk=tempo.pk).first()
    if other is not None:
        casebooks.write_commentary(
            case=other,
            by=auditor,
            now=at + datetime.timedelta(hours=3),
            text=("The system card settles it. Appellants should read their own card before appealing."),
            ruling_rating=90,
            decision_rating=90,
        )
    casebooks.finalise_casebook(casebook=casebook, by=auditor, now=at + datetime.timedelta(hours=4))
    return casebook


# ---------------------------------------------------------------------------------------------
# Past seasons: two earlier tournaments of the demo federation with decided appeals, and their
# casebook, published and final, so that a ruling given now finds its precedents. Every name
# is invented.

PAST_PLAYERS = [
    ("Aldo", "Brandt"),
    ("Beatriz", "Calloway"),
    ("Cyril", "Dunmore"),
    ("Delia", "Esterhazy"),
    ("Emil", "Farrow"),
    ("Fenna", "Gorsky"),
    ("Gideon", "Hallam"),
    ("Hester", "Ilves"),
]

TEMPO_AGREED = "agreed by both sides"

PAST_SEASONS = [
    (
        "Autumn Congress 2024",
        datetime.date(2024, 10, 12),
        [
            dict(
                kind=Ruling.Kind.UNAUTHORISED_INFORMATION,
                laws="16B1a, 73C, 12C1e",
                played=("4S", "N", 10),
                # Board 1, North deals: North's slow double of 3H, then South's 4S.
                auction=[
                    "1S",
                    "2H",
                    "2S",
                    "3H",
                    ("X", {"tempo_seconds": 25, "note": TEMPO_AGREED}),
                    "P",
                    "4S",
                    "P",
                    "P",
                    "P",
                ],
                facts="North doubled 3H slowly after a long pause. South, with a weak raise, bid 4S.",
                ruling_text="Score adjusted to 3H doubled by East, one down",
                reasoning="Pass was a logical alternative for South; the slow double suggested bidding on.",
                outcome="adjusted",
                score_kind="assigned",
                ns={"contract": "3S", "declarer": "N", "tricks": 10},
                offending_side="NS",
                grounds="The pause was short and 4S was clear with South's shape.",
                reasons="A poll of peers found pass a logical alternative; bidding on was demonstrably suggested "
                "by the hesitation.",
            ),
            dict(
                kind=Ruling.Kind.MISINFORMATION,
                laws="20F1, 21B1a",
                played=("3NT", "S", 9),
                # Board 2, East deals: South's 1NT, North's 2C explained by South as natural.
                auction=[
                    "P",
                    "1NT",
                    "P",
                    ("2C", {"alert": True, "explanation": "Natural, long clubs"}),
                    "P",
                    "2D",
                    "P",
                    "3NT",
                    "P",
                    "P",
                    "P",
                ],
                facts="South explained North's 2C as natural; the system card shows it as Stayman.",
                ruling_text="Result stands",
                reasoning="East's call would have been the same with the right explanation.",
                outcome="result_stands",
                grounds="With the right explanation East doubles and we find the lead.",
                reasons="The committee agreed with the director: no damage came from the misinformation.",
            ),
        ],
    ),
    (
        "Winter Pairs 2023",
        datetime.date(2023, 1, 21),
        [
            dict(
                kind=Ruling.Kind.UNAUTHORISED_INFORMATION,
                laws="16B1a, 16B3",
                played=("5D", "E", 11),
                # Board 1, North deals: East's slow pass of 4S, then West's 5D.
                auction=[
                    "P",
                    "1D",
                    "1S",
                    "2D",
                    "4S",
                    ("P", {"tempo_seconds": 20, "note": TEMPO_AGREED}),
                    "P",
                    "5D",
                    "P",
                    "P",
                    "P",
                ],
                facts="East hesitated before passing 4S; West bid 5D.",
                ruling_text="Result stands",
                reasoning="With a void in spades, 5D was the only bid: no logical alternative to bidding on.",
                outcome="result_stands",
                grounds="The hesitation made 5D attractive; pass is an alternative.",
                reasons="The committee polled three players: none considered passing. The hesitation did not matter.",
            ),
            dict(
                kind=Ruling.Kind.CLAIM,
                laws="68A, 70D1",
                played=("4H", "S", 10),
                auction=["P", "1H", "P", "3H", "P", "4H", "P", "P", "P"],  # board 2, East deals
                facts="Declarer claimed the rest, not mentioning the outstanding trump.",
                ruling_text="Result stands",
                reasoning="No normal line loses a trick to the trump.",
                outcome="result_stands",
                grounds="Declarer could have forgotten the trump.",
                reasons="Drawing the last trump was the only normal play; the claim stands.",
            ),
        ],
    ),
]


def _auction(dealer, calls):
    """The auction as the ruling keeps it: each call a string, or (call, its alert or tempo)."""
    made = [AuctionCall(call) if isinstance(call, str) else AuctionCall(call[0], **call[1]) for call in calls]
    return Auction(dealer, made).to_dict()


def _past_tournament(authority, name, start, cases, number):
    User = get_user_model()
    director, chief = User.objects.get(username="director"), User.objects.get(username="chief")
    members = [User.objects.get(username=username) for username in ("appeals", "appeals2", "appeals3")]
    tournament = scoring_services.create_tournament(
        authority=authority, name=name, venue="Club house", start_date=start, end_date=start, by=policy.SYSTEM
    )
    scoring_services.appoint_official(tournament=tournament, user=director, role=roles.DIRECTOR, by=policy.SYSTEM)
    scoring_services.appoint_official(tournament=tournament, user=chief, role=roles.CHIEF_DIRECTOR, by=policy.SYSTEM)
    for member in members:
        scoring_services.appoint_official(
            tournament=tournament, user=member, role=roles.APPEALS_MEMBER, by=policy.SYSTEM
        )
    event = scoring_services.create_event(
        tournament=tournament, name="Pairs", kind=Event.Kind.MP_PAIRS, by=policy.SYSTEM
    )
    starts = datetime.datetime.combine(start, datetime.time(19, 0), tzinfo=tournament.zone)
    session = scoring_services.create_session(event=event, number=1, starts_at=starts, is_last=True, by=policy.SYSTEM)
    tables = scoring_services.add_tables(section=session.sections.get(), count=len(cases), by=policy.SYSTEM)
    round_ = scoring_services.add_rounds(session=session, count=1, by=policy.SYSTEM)[0]
    players = [
        scoring_services.register_player(
            authority=authority,
            first_name=first,
            last_name=last,
            membership_number=f"past-{number}-{i}",
            by=policy.SYSTEM,
        )
        for i, (first, last) in enumerate(PAST_PLAYERS[: 4 * len(cases)], start=1)
    ]
    pairs = [
        scoring_services.enter_contestant(event=event, number=n, members=players[2 * (n - 1) : 2 * n], by=policy.SYSTEM)
        for n in range(1, 2 * len(cases) + 1)
    ]
    rulings = []
    for index, case in enumerate(cases):
        board = scoring_services.create_board(
            session=session, number=index + 1, deal=generate_deal(f"past-{number}-{index}").to_pbn(), by=policy.SYSTEM
        )
        contract, declarer, tricks = case["played"]
        result = scoring_services.record_result(
            board=board,
            round=round_,
            table=tables[index],
            ns=pairs[2 * index],
            ew=pairs[2 * index + 1],
            contract=contract,
            declarer=declarer,
            tricks=tricks,
            by=policy.SYSTEM,
        )
        fields = {key: value for key, value in case.items() if key not in ("played", "grounds", "reasons", "auction")}
        ruling = rulings_services.rule(
            result=result,
            director=director,
            give=True,
            given_at=starts + datetime.timedelta(minutes=90 + index),
            **fields,
        )
        rulings.append(
            rulings_services.attach_deal_and_auction(
                ruling=ruling, by=director, auction=_auction(board.dealer, case["auction"])
            )
        )
    scoring_services.post_official_scores(session=session, at=starts + datetime.timedelta(hours=3), by=policy.SYSTEM)
    for index, (ruling, case) in enumerate(zip(rulings, cases)):
        appeals_demo.seat_players(ruling, director)
        appeal, now = appeals_demo.lodge_case(ruling, director, 10 + index, case["grounds"])
        body = appeals_demo.hear_case(appeal, chief, members, now)
        for member in body.members.all():
            appeal_services.record_vote(
                member=member, outcome="uphold", now=now + datetime.timedelta(minutes=22), by=member.user
            )
        appeal_services.decide_appeal(
            appeal=appeal,
            by=members[0],
            outcome="uphold",
            reasons=case["reasons"],
            now=now + datetime.timedelta(minutes=25),
        )
    return tournament


@transaction.atomic
def load_past_casebook(authority):
    """The casebook of two past seasons' appeals: published, then final."""
    auditor = get_user_model().objects.get(username="auditor")
    tournaments = [
        _past_tournament(authority, name, start, cases, number)
        for number, (name, start, cases) in enumerate(PAST_SEASONS, start=1)
    ]
    at = datetime.datetime.combine(datetime.date(2025, 2, 1), datetime.time(12, 0), tzinfo=tournaments[0].zone)
    casebook = casebooks.compile_casebook(
        authority=authority,
        by=auditor,
        title="Appeals of past seasons, 2023-2024",
        now=at,
        introduction="Decided appeals of earlier tournaments, with the players shown by seat only.",
        filters={"tournament": tournaments[0].pk},
    )
    for tournament in tournaments[1:]:
        for appeal in casebooks.decided_appeals(auditor, authority, {"tournament": tournament.pk}):
            casebooks.add_case(casebook=casebook, appeal=appeal, by=auditor)
    casebooks.publish_casebook(casebook=casebook, by=auditor, now=at + datetime.timedelta(days=1))
    casebooks.finalise_casebook(casebook=casebook, by=auditor, now=at + datetime.timedelta(days=2))
    return casebook
