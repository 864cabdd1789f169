"""The records the role matrix runs against, built once per test module through the services.

Two tournaments, each under its own regulating authority: side "A" is where every role of the
matrix works; side "B" is another body's tournament, built the same way by its own officials, so
every detail URL has a real id on both sides and a write that should succeed on A (for the
superuser, on B too) has what it needs.

On each side, at table 1 of board 1 (N-S pair 1, whose first player is A's ``player``, against
E-W pair 3) there is one ruling per state an appeal step needs, and at table 2 (pairs 2 and 4) a
ruling with an appeal that A's player and A's appeals member have no part in:

========= =========================================================================================
ruling    appeal (N-S, lodged by the table's first N-S player)
========= =========================================================================================
free      none: to lodge, extend the deadline, change
draft     none; the ruling is not given: to give
new       lodged: no concurrence, deposit or body yet
seated    a law part and a judgement part; concurrence, deposit; a referee appointed (not declared)
heard     concurrence, deposit, referee sitting, hearing scheduled; the appellants asked to withdraw
decided   law part decided by the chief director, the rest by the referee (upheld); a recommendation
further   decided (upheld), found without merit, further appeal lodged, the national body sitting
table2    (table 2) lodged
========= =========================================================================================

Every text a reader might be shown carries a marker (``marker(side, key, what)``), so a test can
say that a role's response does not contain what the role may not read.
"""

import datetime
from dataclasses import dataclass
from types import SimpleNamespace

from django.contrib.auth import get_user_model
from django.utils import timezone

from appeals import services as appeals
from core import policy, roles
from national import casebooks
from scoring import services as scoring
from tests.conftest import build_pairs_tournament, ruling_at, table_result

SIDES = ("A", "B")
NAMES = {"A": ("alpha", "Alpha Congress"), "B": ("bravo", "Bravo Open")}
RULINGS = ("free", "draft", "new", "seated", "heard", "decided", "further", "table2")
APPEALS = ("new", "seated", "heard", "decided", "further", "table2")

# Settings both bodies use, so that every step of the workflow can be taken.
REGULATIONS = {
    "deposits": {"currency": "GBP", "amounts": {"mp_pairs": "20.00"}},
    "further_appeal": "advisory",
    "without_merit_sanction": "none",
}

# The roles of the matrix. Except for the superuser, each works at side A's tournament only.
ROLES = (
    "anonymous",
    "director",
    "chief",
    "scorer",
    "appeals",
    "appeals_idle",
    "auditor",
    "player",
    "outsider",
    "superuser",
)


def marker(side, key, what):
    """A text that appears in one record only: ``zz-A-heard-grounds-zz``."""
    return f"zz-{side}-{key}-{what}-zz"


@dataclass
class Target:
    """One record a row is run against, with what the rules need to know about it."""

    key: str  # "ruling:heard@A"
    side: str
    obj: object
    short: str = ""  # "heard"
    at_player_table: bool = False  # side A's ``player`` played at the table (rulings and appeals)
    member_sits: bool = False  # side A's ``appeals`` member sits on the case (appeals)

    @property
    def pk(self):
        return self.obj.pk


def _user(username, **extra):
    user = get_user_model().objects.create_user(username=username, password="pw-" + username, **extra)
    return user


def build_side(side, *, director, chief, member, national, superuser, player=None):
    code, name = NAMES[side]
    record = build_pairs_tournament(code=code, name=name)
    for key, value in REGULATIONS.items():
        scoring.set_authority_setting(
            authority=record.authority, key=key, value=value, effective_from=datetime.date(2000, 1, 1), by=policy.SYSTEM
        )
    for user, role in ((director, roles.DIRECTOR), (chief, roles.CHIEF_DIRECTOR), (member, roles.APPEALS_MEMBER)):
        scoring.appoint_official(tournament=record.tournament, user=user, role=role, by=policy.SYSTEM)
    p = record.players
    if player is not None:
        p[0].user = player
        p[0].save()
    board = record.boards[0]
    t1 = table_result(record, 0, board, contract="4S", declarer="N", tricks=10)
    t2 = table_result(record, 1, board, contract="4S", declarer="N", tricks=9)
    now = timezone.now()
    # The appeal period (30 minutes) runs from here: the matrix lodges and extends within it.
    scoring.post_official_scores(session=record.session, by=director, at=now - datetime.timedelta(minutes=1))

    rulings_ = {}
    for key in RULINGS:
        rulings_[key] = ruling_at(
            t2 if key == "table2" else t1,
            director,
            give=key != "draft",
            ruling_text=marker(side, key, "ruling"),
            reasoning="No line loses a trick",
        )

    def lodge(key, lodger=p[0], law_part=False):
        grounds = marker(side, key, "grounds")
        parts = None
        if law_part:
            parts = [{"kind": "judgement", "question": grounds}, {"kind": "law", "question": "Was 70D1 applied?"}]
        return appeals.lodge_appeal(ruling=rulings_[key], by=director, player=lodger, grounds=grounds, parts=parts)

    def seat(appeal, declare=True):
        appeals.record_concurrence(appeal=appeal, player=p[1], how="in_person", by=director)
        appeals.record_deposit(appeal=appeal, by=director)
        body = appeals.constitute_body(appeal=appeal, by=chief, kind="referee", members=[member])
        if declare:
            seat = body.members.get()
            appeals.declare_conflict(member=seat, by=seat.user)
        return body

    def hear(appeal):
        seat(appeal)
        # It starts now: the body votes and decides from then on.
        return appeals.schedule_hearing(appeal=appeal, by=chief, starts_at=now, place="Room 1")

    appeals_ = {"new": lodge("new")}
    appeals_["seated"] = lodge("seated", law_part=True)
    seat(appeals_["seated"], declare=False)
    appeals_["heard"] = lodge("heard")
    hear(appeals_["heard"])
    appeals.request_withdrawal(appeal=appeals_["heard"], player=p[0], by=director, reason="We think again")
    appeals_["decided"] = lodge("decided", law_part=True)
    hear(appeals_["decided"])
    appeals.decide_law_part(
        part=appeals_["decided"].parts.get(kind="law"), by=chief, outcome="uphold", reasons="70D1 was applied"
    )
    appeals.decide_appeal(appeal=appeals_["decided"], by=member, outcome="uphold", reasons="The claim stands")
    appeals.record_recommendation(appeal=appeals_["decided"], by=member, about="law", text="Look at 70D1 again")
    appeals_["further"] = lodge("further")
    hear(appeals_["further"])
    appeals.decide_appeal(appeal=appeals_["further"], by=member, outcome="uphold", reasons="The claim stands")
    appeals.find_without_merit(appeal=appeals_["further"], by=member, reasons="No case was made")
    appeals.lodge_further_appeal(appeal=appeals_["further"], by=director, player=p[0], grounds="We go on")
    national_body = appeals.constitute_body(
        appeal=appeals_["further"], by=superuser, stage="further", size=1, members=[national]
    )
    seat = national_body.members.get()
    appeals.declare_conflict(member=seat, by=seat.user)
    appeals_["table2"] = lodge("table2", lodger=p[2])
    for key, appeal in appeals_.items():
        appeals_[key] = type(appeal).objects.get(pk=appeal.pk)

    # A team match (no boards played yet) with a penalty against the home team (Law 90).
    teams = scoring.create_event(tournament=record.tournament, name="Teams", kind="teams_rr", by=policy.SYSTEM)
    home, away = (
        scoring.enter_contestant(event=teams, number=n, name=f"Team {n} {side}", members=[], by=policy.SYSTEM)
        for n in (1, 2)
    )
    team_session = scoring.create_session(event=teams, number=1, by=policy.SYSTEM)
    open_room, closed_room = scoring.add_tables(section=team_session.sections.get(), count=2, by=policy.SYSTEM)
    match = scoring.create_match(
        round=scoring.add_rounds(session=team_session, count=1, by=policy.SYSTEM)[0],
        home=home,
        away=away,
        open_room=open_room,
        closed_room=closed_room,
        by=policy.SYSTEM,
    )
    match_penalty = scoring.add_match_penalty(
        match=match, team=home, amount="1", unit="vps", offence=marker(side, "penalty", "offence"), by=director
    )

    # A club's upload to the field, held: board 2 at table 1 sent with a score not ending in 0.
    row = {"board": 2, "round": 1, "table": 1, "ns": 1, "ew": 3, "contract": "3NT", "declarer": "N", "tricks": 9}
    upload = scoring.upload_to_field(
        session=record.session, club=marker(side, "upload", "club"), rows=[row | {"score_ns": 605}], by=director
    )

    targets = {}

    def add(kind, key, obj, **extra):
        name = f"{kind}:{key}@{side}" if key else f"{kind}@{side}"
        targets[name] = Target(key=name, side=side, obj=obj, short=key, **extra)

    add("tournament", "", record.tournament)
    add("event", "", record.event)
    add("session", "", record.session)
    add("contestant", "", record.pairs[0])
    add("board", "", board)  # board 1, with the deal and both results
    add("board", "spare", record.boards[1])  # board 2: no results, to edit and to record one on
    add("result", "t1", t1, at_player_table=True)
    add("result", "t2", t2)
    add("posting", "", record.session.score_postings.get())
    add("match", "", match)
    add("match-penalty", "", match_penalty)
    add("upload", "", upload)
    for key, ruling in rulings_.items():
        add("ruling", key, ruling, at_player_table=key != "table2")
    for key, appeal in appeals_.items():
        add(
            "appeal",
            key,
            appeal,
            at_player_table=key != "table2",
            member_sits=side == "A" and key in ("seated", "heard", "decided", "further"),
        )
    return SimpleNamespace(
        side=side,
        record=record,
        players=p,
        rulings=rulings_,
        appeals=appeals_,
        t1=t1,
        t2=t2,
        targets=targets,
        member=member,
        chief=chief,
        director=director,
    )


def build_world():
    """Both sides and one user per role (None for anonymous). Call inside a transaction that the
    caller rolls back."""
    users = {"anonymous": None}
    for role in ROLES[1:]:
        if role == "superuser":
            users[role] = get_user_model().objects.create_superuser("root", "root@example.org", "pw-root")
        else:
            users[role] = _user(role)
    national = _user("national", first_name="Nadia", last_name="National")
    a = build_side(
        "A",
        director=users["director"],
        chief=users["chief"],
        member=users["appeals"],
        national=national,
        superuser=users["superuser"],
        player=users["player"],
    )
    b = build_side(
        "B",
        director=_user("b-director"),
        chief=_user("b-chief"),
        member=_user("b-member"),
        national=national,
        superuser=users["superuser"],
        player=_user("b-player"),
    )
    tournament = a.record.tournament
    scoring.appoint_official(tournament=tournament, user=users["scorer"], role=roles.SCORER, by=policy.SYSTEM)
    scoring.appoint_official(
        tournament=tournament, user=users["appeals_idle"], role=roles.APPEALS_MEMBER, by=policy.SYSTEM
    )
    scoring.appoint_auditor(authority=a.record.authority, user=users["auditor"], by=policy.SYSTEM)
    scoring.grant_role(user=users["player"], role=roles.PLAYER, by=policy.SYSTEM)
    scoring.grant_role(user=users["outsider"], role=roles.PLAYER, by=policy.SYSTEM)
    targets = {**a.targets, **b.targets}
    # Casebooks of each body's decided appeals: a draft (to reword, leave out a case, publish) and
    # a published one (to comment on, make final), each compiled by an auditor of that body.
    b_auditor = _user("b-auditor")
    scoring.appoint_auditor(authority=b.record.authority, user=b_auditor, by=policy.SYSTEM)
    for side, auditor in (("A", users["auditor"]), ("B", b_auditor)):
        authority = (a if side == "A" else b).record.authority
        for state in ("draft", "published"):
            book = casebooks.compile_casebook(authority=authority, by=auditor, title=marker(side, state, "casebook"))
            if state == "published":
                casebooks.publish_casebook(casebook=book, by=auditor)
            targets[f"casebook:{state}@{side}"] = Target(
                key=f"casebook:{state}@{side}", side=side, obj=book, short=state
            )
            targets[f"case:{state}@{side}"] = Target(
                key=f"case:{state}@{side}", side=side, obj=book.cases.order_by("position").first(), short=state
            )
    targets.update(received_players(a, b))
    return SimpleNamespace(users=users, sides={"A": a, "B": b}, targets=targets, national=national)


def received_players(*sides):
    """On each side, two players received from an organiser's instance with their numbers kept
    apart (the side's own players hold them, issue #41): one to match ("player:apart"), one
    matched to the side's player of its number ("player:matched")."""
    from national.federation.models import Origin, PlayerMatch, ReceivedRecord
    from scoring.models import Player

    targets = {}
    for s in sides:
        code = NAMES[s.side][0]
        origin = Origin.objects.create(
            name=f"Harbour {code}", slug=f"harbour-{code}", authority=s.record.authority, public_key="-", key_id="-"
        )
        for key, own in (("apart", s.players[6]), ("matched", s.players[7])):
            copy = Player.objects.create(
                authority=s.record.authority,
                first_name=own.first_name,
                last_name=own.last_name,
                membership_number=f"{origin.slug}~{own.membership_number}",
            )
            ReceivedRecord.objects.create(
                origin=origin,
                model="scoring.player",
                origin_pk=own.pk,
                local_pk=copy.pk,
                digest="-",
                tournament=s.record.tournament,
            )
            if key == "matched":
                PlayerMatch.objects.create(player=copy, same_as=own, reason="The same person")
            name = f"player:{key}@{s.side}"
            targets[name] = Target(key=name, side=s.side, obj=copy, short=key)
    return targets
