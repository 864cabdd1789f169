"""Appeals for the demo tournament, one in every state, made through the services with the
times at which they would have happened."""

import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from appeals import services
from appeals.models import Concurrence
from core import policy, roles
from rulings import services as rulings_services
from rulings.models import Ruling
from scoring import recalculation
from scoring import services as scoring_services
from scoring.models import Player, Result

EXTRA_MEMBERS = [("appeals2", "Bella", "Bench"), ("appeals3", "Carl", "Chair")]


def demo_logins():
    return [(username, username + "-demo", roles.APPEALS_MEMBER) for username, _f, _l in EXTRA_MEMBERS]


def _members(tournament):
    User = get_user_model()
    users = [User.objects.get(username="appeals")]
    for username, first, last in EXTRA_MEMBERS:
        user = User.objects.create_user(
            username=username, password=username + "-demo", first_name=first, last_name=last
        )
        scoring_services.appoint_official(tournament=tournament, user=user, role=roles.APPEALS_MEMBER, by=policy.SYSTEM)
        users.append(user)
    return users


def lodge_case(ruling, director, minutes, grounds, side="NS", parts=None):
    """Lodge ``minutes`` after the session's official score, by the first member of ``side``."""
    posted = ruling.session.official_score_at
    now = posted + datetime.timedelta(minutes=minutes)
    contestant = ruling.result.ns if side == "NS" else ruling.result.ew
    players = list(contestant.members.order_by("pk"))
    appeal = services.lodge_appeal(ruling=ruling, by=director, player=players[0], grounds=grounds, now=now, parts=parts)
    for partner in players[1:] if contestant.kind == "pair" else []:
        services.record_concurrence(
            appeal=appeal,
            player=partner,
            how=Concurrence.How.IN_PERSON,
            by=director,
            now=now + datetime.timedelta(minutes=1),
        )
    if services.deposit_due(appeal):
        services.record_deposit(appeal=appeal, by=director, now=now + datetime.timedelta(minutes=2))
    return appeal, now


def hear_case(appeal, chief, members, now):
    body = services.constitute_body(
        appeal=appeal,
        by=chief,
        kind="committee",
        members=members,
        chair=members[0],
        now=now + datetime.timedelta(minutes=3),
    )
    for member in body.members.all():
        services.declare_conflict(member=member, now=now + datetime.timedelta(minutes=4), by=member.user)
    # Before the next session starts (an hour after the official score in the demo).
    services.schedule_hearing(
        appeal=appeal,
        by=chief,
        starts_at=now + datetime.timedelta(minutes=20),
        place="Committee room",
        now=now + datetime.timedelta(minutes=5),
    )
    return body


def seat_players(ruling, director):
    """Record who sat where: the first member of each pair North or East."""
    ns, ew = list(ruling.result.ns.members.order_by("pk")), list(ruling.result.ew.members.order_by("pk"))
    seats = {"N": ns[0], "S": ns[1], "E": ew[0], "W": ew[1]}
    rulings_services.record_seating(
        ruling=ruling, by=director, seating={seat: player.pk for seat, player in seats.items()}
    )
    return seats


@transaction.atomic
def load_demo_appeals(tournament):
    """Appeals lodged, constituted, scheduled, decided (varied; upheld and without merit) and
    withdrawn, on the demo's rulings."""
    User = get_user_model()
    director, chief = User.objects.get(username="director"), User.objects.get(username="chief")
    members = _members(tournament)
    scoring_services.set_authority_setting(
        authority=tournament.authority,
        key="without_merit_sanction",
        value="deposit",
        effective_from=datetime.date(2020, 1, 1),
        by=policy.SYSTEM,
    )
    rulings = {
        r.number: r
        for r in Ruling.objects.filter(
            result__board__session__event__tournament=tournament, result__board__session__score_postings__isnull=False
        )
        .exclude(state=Ruling.State.DRAFT)
        .distinct()
    }
    numbers = sorted(rulings)
    made = []

    def ruling(index):
        return rulings[numbers[index % len(numbers)]]

    # Decided: the committee varies the ruling; the new score reaches the standings. The players
    # are named in the texts, as they are at a real hearing; the casebook hides them.
    seats = seat_players(ruling(0), director)
    north, south = seats["N"], seats["S"]
    appeal, now = lodge_case(
        ruling(0),
        director,
        12,
        f"{north.first_name} {north.last_name}: the pause was short and "
        f"did not suggest bidding on; with our shape 4S is the only bid.",
    )
    body = hear_case(appeal, chief, members, now)
    services.record_hearing_notes(
        hearing=appeal.hearings.get(),
        by=members[0],
        director_present=True,
        now=now + datetime.timedelta(minutes=21),
        director_account="The director explained the poll: four of five players passed.",
        notes=f"{north.last_name} said {south.first_name} had a clear 4S bid whatever the tempo. "
        f"{seats['E'].first_name} {seats['E'].last_name} timed the pause at about 15 seconds; "
        f"{seats['W'].first_name} agreed.",
    )
    for member in body.members.all():
        services.record_vote(member=member, outcome="vary", now=now + datetime.timedelta(minutes=22), by=member.user)
    result = appeal.ruling.result
    services.decide_appeal(
        appeal=appeal,
        by=members[0],
        outcome="vary",
        now=now + datetime.timedelta(minutes=25),
        reasons="Bidding on was suggested, but not as strongly as the director found: the "
        "committee weights the outcomes 80/20.",
        score_kind="weighted",
        ns=[
            {
                "contract": result.contract,
                "declarer": result.declarer,
                "tricks": max(result.tricks - 1, 0),
                "weight": "0.8",
            },
            {"contract": result.contract, "declarer": result.declarer, "tricks": result.tricks, "weight": "0.2"},
        ],
    )
    made.append(appeal)

    # Further appeal (Law 93C): North takes the committee's decision to the federation's body
    # (binding in the demo's regulations), through the director; the national officer forms it.
    appeal.refresh_from_db()
    services.lodge_further_appeal(
        appeal=appeal,
        by=director,
        player=north,
        grounds=f"{north.first_name} {north.last_name}: the committee found a pause it did not establish.",
        now=appeal.decided_at + datetime.timedelta(minutes=30),
    )

    # Decided: upheld and found without merit; the deposit is kept.
    seat_players(ruling(1), director)
    appeal, now = lodge_case(
        ruling(1), director, 20, "The explanation was right; the opponents should have asked.", side="EW"
    )
    hear_case(appeal, chief, members, now)
    for member in appeal.body().members.all():
        services.record_vote(member=member, outcome="uphold", now=now + datetime.timedelta(minutes=22), by=member.user)
    services.decide_appeal(
        appeal=appeal,
        by=members[0],
        outcome="uphold",
        now=now + datetime.timedelta(minutes=25),
        reasons="The system card is clear; the explanation given was wrong.",
    )
    services.find_without_merit(
        appeal=appeal,
        by=members[0],
        now=now + datetime.timedelta(minutes=27),
        reasons="The appellants' own card contradicts their argument.",
    )
    made.append(appeal)

    # Scheduled: the committee sits later.
    appeal, now = lodge_case(ruling(2), director, 15, "Declarer's line was clear from the claim statement.")
    hear_case(appeal, chief, members, now)
    made.append(appeal)

    # Constituted: members named and declared, no hearing yet.
    appeal, now = lodge_case(ruling(3), director, 25, "The board was not fouled at our table.", side="EW")
    body = services.constitute_body(
        appeal=appeal,
        by=chief,
        kind="committee",
        members=members,
        chair=members[1],
        now=now + datetime.timedelta(minutes=3),
    )
    for member in body.members.all():
        services.declare_conflict(member=member, now=now + datetime.timedelta(minutes=4), by=member.user)
    made.append(appeal)

    # Lodged: waiting for the body.
    appeal, _now = lodge_case(ruling(4), director, 28, "The director's error should give us more than average plus.")
    made.append(appeal)

    # Withdrawn at the appellants' request.
    appeal, now = lodge_case(ruling(5), director, 10, "We think the penalty was too harsh.", side="EW")
    services.request_withdrawal(
        appeal=appeal,
        player=appeal.lodged_by,
        by=director,
        reason="On reflection we accept the ruling.",
        now=now + datetime.timedelta(minutes=5),
    )
    services.accept_withdrawal(appeal=appeal, by=chief, now=now + datetime.timedelta(minutes=6))
    made.append(appeal)

    made += _waiting(rulings, director, chief, members)
    for event in tournament.events.all():
        recalculation.rescore_everything(event)
    return made


def _players_rulings(director, count=2):
    """Rulings given at tables of the demo's ``player`` (claims, the result standing), earliest
    first: one for the request a director answers, one left for the player to appeal."""
    player = Player.objects.get(user__username="player")
    results = (
        Result.objects.filter(
            Q(ns__members=player) | Q(ew__members=player), board__session__score_postings__isnull=False
        )
        .exclude(rulings__isnull=False)
        .distinct()
        .order_by("board__session__number", "board__number")[:count]
    )
    return [
        rulings_services.rule(
            result=result,
            director=director,
            kind="claim",
            laws="70D1",
            give=True,
            ruling_text="The claim stands: no normal line loses a trick.",
            outcome="result_stands",
            # Asked for at the table, within the Law 92B period after the official score.
            called_at=result.board.session.official_score_at + datetime.timedelta(minutes=10),
        )
        for result in results
    ]


def _waiting(rulings, director, chief, members):
    """Live appeals waiting for the role that takes the next step, so that whoever logs in finds
    something to do: the director in charge a law part, a recommendation and a withdrawal to
    answer; a director a player's request to appeal, with its window open until two days from
    today (an extension, as the demo's sessions are in the past); the demo's ``player`` a ruling
    of their own, its window open as long, to appeal or ask to appeal."""
    free = [
        r
        for _n, r in sorted(rulings.items())
        if not r.appeals.exists() and r.state in (Ruling.State.GIVEN, Ruling.State.FINAL)
    ]
    mine = _players_rulings(director)
    made = []
    if free:  # The director in charge decides the part about law first (Law 93B1).
        ruling = free.pop(0)
        appeal, _now = lodge_case(
            ruling,
            director,
            14,
            "The tempo did not matter; and the regulation on stop cards was misapplied.",
            parts=[
                {"kind": "judgement", "question": "Was passing a logical alternative?"},
                {"kind": "law", "question": "Does the stop-card regulation make the pause authorised?"},
            ],
        )
        made.append(appeal)
    if free:  # The body could not overrule on law (93B3) and recommends: the director in charge answers.
        ruling = free.pop(0)
        appeal, now = lodge_case(
            ruling,
            director,
            9,
            "Law 12C1c does not apply to this irregularity.",
            parts=[{"kind": "law", "question": "Does Law 12C1c apply to this irregularity?"}],
        )
        part = appeal.parts.get()
        services.decide_law_part(
            part=part,
            by=chief,
            outcome="uphold",
            now=now + datetime.timedelta(minutes=2),
            reasons="Law 12C1c applies to every irregularity the Laws do not otherwise cover.",
        )
        services.appeal_law_decision(part=part, by=director, now=now + datetime.timedelta(minutes=3))
        hear_case(appeal, chief, members, now + datetime.timedelta(minutes=1))
        services.record_recommendation(
            appeal=appeal,
            by=members[0],
            about="law",
            now=now + datetime.timedelta(minutes=30),
            text="Apply Law 12C1e: the offenders gain no advantage, the non-offenders are not hurt.",
        )
        made.append(appeal)
    if free:  # The appellants ask to withdraw; the director in charge accepts (no body sits yet).
        ruling = free.pop(0)
        appeal, now = lodge_case(ruling, director, 18, "The revoke was established too late.", side="EW")
        services.request_withdrawal(
            appeal=appeal,
            player=appeal.lodged_by,
            by=director,
            now=now + datetime.timedelta(minutes=10),
            reason="Our partner remembers the play differently.",
        )
        made.append(appeal)
    for ruling in mine:  # the player's windows stay open: the demo's sessions were days ago
        services.extend_deadline(
            ruling=ruling,
            by=chief,
            until=timezone.now() + datetime.timedelta(days=2),
            reason="Demo: the window stays open for two days after the demo is loaded.",
        )
    if mine:  # The demo player asked to appeal one: a director lodges it or declines it.
        ruling = mine[0]
        player = Player.objects.get(user__username="player")
        services.request_appeal(
            ruling=ruling,
            player=player,
            by=player.user,
            about="judgement",
            grounds="The director did not ask us what our agreement was.",
        )
    return made
