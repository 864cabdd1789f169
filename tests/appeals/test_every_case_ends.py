"""Every case of the demo reaches an end on the web (issue #42, item 1: no dead end).

The small demo is loaded now, as `make run` loads it; then every appeal, further appeal, deposit,
request to appeal and ruling it holds is taken, state by state, to an end through the forms its
pages offer the demo's logins (each step's form is found on the page the person reads, then
posted): an appeal decided or withdrawn, a further appeal decided, a deposit returned or kept, a
request lodged or declined, a ruling final, changed by an appeal or superseded. A step the page
does not offer, or one it offers that does not move the case on, fails the test.
"""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from appeals import selectors
from appeals.models import Appeal, AppealPart, AppealRequest, Deposit, FurtherAppeal, Stage
from core import policy
from rulings.models import Ruling
from rulings.services import finalise_rulings

pytestmark = [pytest.mark.django_db, pytest.mark.second_round]

APPEAL_ENDS = {Appeal.State.DECIDED, Appeal.State.WITHDRAWN}
RULING_ENDS = {Ruling.State.FINAL, Ruling.State.CHANGED_BY_APPEAL, Ruling.State.SUPERSEDED}


@pytest.fixture
def demo():
    from appeals.demo import load_demo_appeals
    from rulings.demo import load_demo_rulings
    from scoring.demo import load_demo

    tournament = load_demo(pairs_tables=4, boards_per_session=8, pairs_sessions=2, teams=4, boards_per_match=2)
    load_demo_rulings(tournament)
    load_demo_appeals(tournament)
    return tournament


class Walker:
    """The demo's logins, each with a browser of its own, taking the steps their pages offer."""

    def __init__(self, tournament):
        self.tournament = tournament
        self.clients = {}

    def client(self, username):
        if username not in self.clients:
            self.clients[username] = Client()
            self.clients[username].force_login(get_user_model().objects.get(username=username))
        return self.clients[username]

    def page(self, username, path):
        response = self.client(username).get(path)
        assert response.status_code == 200, (username, path, response.status_code)
        return response.content.decode()

    def step(self, username, appeal, step, **data):
        """``username`` finds the step's form on the case page and posts it; the answer is "Recorded."."""
        door = f"/appeals/{appeal.pk}/{step}/"
        assert f'action="{door}"' in self.page(username, f"/appeals/{appeal.pk}/"), (username, appeal, step)
        response = self.client(username).post(door, data, follow=True)
        page = response.content.decode()
        errors = re.findall(r'<li class="error">(.*?)</li>', page)
        assert "Recorded." in page, (username, appeal, step, errors)


def local_now(tournament, minutes=0):
    moment = timezone.now() + datetime.timedelta(minutes=minutes)
    return moment.astimezone(tournament.zone).strftime("%Y-%m-%dT%H:%M")


def members_of(body):
    return [m.user.username for m in body.members.select_related("user") if m.recused_at is None]


def next_step(walk, appeal):
    """Take the one step that moves ``appeal`` on, as the person whose step it is."""
    tournament = walk.tournament
    body = appeal.body()
    if appeal.withdrawal_requested_at:
        return walk.step("chief" if body is None else members_of(body)[0], appeal, "accept-withdrawal")
    for part in appeal.parts.filter(kind=AppealPart.Kind.LAW, outcome=""):
        return walk.step(
            "chief", appeal, "law-part", part=part.pk, **{"law-decision": "uphold", "law-reasons": "Law applied"}
        )
    for player in selectors.concurrence_awaited(appeal):
        return walk.step("director", appeal, "concurrence", player=player.pk, how="in_person")
    if selectors.deposit_due(appeal) and not appeal.deposits.filter(stage=Stage.EVENT).exists():
        return walk.step("director", appeal, "deposit")
    if body is None:
        return walk.step("chief", appeal, "constitute", kind="committee", **_committee())
    for member in body.members.filter(recused_at=None, declared_at=None).select_related("user"):
        return walk.step(member.user.username, appeal, "declare", conflict="")
    if appeal.state == Appeal.State.CONSTITUTED:
        if appeal.decision_overdue():
            walk.step("chief", appeal, "extend-decision", until=local_now(tournament, 180), reason="Posted again")
        return walk.step("director", appeal, "schedule", starts_at=local_now(tournament), mode="written")
    for member in body.members.filter(recused_at=None, vote="").select_related("user"):
        return walk.step(member.user.username, appeal, "vote", outcome="uphold")
    return walk.step(members_of(body)[0], appeal, "decide", **{"decide-decision": "uphold", "decide-reasons": "Upheld"})


def _committee():
    users = get_user_model().objects
    members = [users.get(username=name).pk for name in ("appeals", "appeals2", "appeals3")]
    return {"members": members, "chair": members[0]}


def finish_further(walk, further):
    appeal = further.appeal
    body = appeal.body(Stage.FURTHER)
    if body is None:
        auditor = get_user_model().objects.get(username="auditor")
        return walk.step("auditor", appeal, "further-body", members=[auditor.pk], chair=auditor.pk)
    for member in body.members.filter(recused_at=None, declared_at=None).select_related("user"):
        return walk.step(member.user.username, appeal, "declare", conflict="")
    return walk.step(
        members_of(body)[0], appeal, "decide-further", **{"further-decision": "uphold", "further-reasons": "Upheld"}
    )


def until_ended(is_open, take, what, limit=20):
    for _ in range(limit):
        if not is_open():
            return
        take()
    pytest.fail(f"{what} did not reach an end in {limit} steps")


def test_every_appeal_further_appeal_deposit_request_and_ruling_of_the_demo_ends_on_the_web(demo):
    walk = Walker(demo)
    states = {a.pk: a.state for a in Appeal.objects.all()}
    assert {Appeal.State.LODGED, Appeal.State.CONSTITUTED, Appeal.State.SCHEDULED} <= set(states.values())

    for request in AppealRequest.objects.filter(state=AppealRequest.State.OPEN):
        page = walk.page("director", f"/appeals/lodge/{request.ruling_id}/")
        assert 'value="from_request"' in page
        walk.client("director").post(
            f"/appeals/lodge/{request.ruling_id}/", {"action": "from_request", "request": request.pk}
        )
        request.refresh_from_db()
        assert request.state == AppealRequest.State.LODGED

    for pk in Appeal.objects.values_list("pk", flat=True):

        def still_open(pk=pk):
            return Appeal.objects.get(pk=pk).state not in APPEAL_ENDS

        until_ended(still_open, lambda pk=pk: next_step(walk, Appeal.objects.get(pk=pk)), f"appeal {pk}")

    for pk in FurtherAppeal.objects.values_list("pk", flat=True):
        until_ended(
            lambda pk=pk: FurtherAppeal.objects.get(pk=pk).state != FurtherAppeal.State.DECIDED,
            lambda pk=pk: finish_further(walk, FurtherAppeal.objects.get(pk=pk)),
            f"further appeal {pk}",
        )

    for deposit in Deposit.objects.filter(state=Deposit.State.HELD).select_related("appeal"):
        walk.step("director", deposit.appeal, "return-deposit", deposit=deposit.pk)
    assert set(Deposit.objects.values_list("state", flat=True)) <= {Deposit.State.RETURNED, Deposit.State.FORFEITED}

    for ruling in Ruling.objects.filter(state=Ruling.State.DRAFT):
        assert f'action="/rulings/{ruling.pk}/give/"' in walk.page("director", f"/rulings/{ruling.pk}/")
        walk.client("director").post(f"/rulings/{ruling.pk}/give/")
    # A given ruling nobody appeals is final once its window has passed (the beat's finalise_rulings),
    # the window opened by the official score, which the director posts on the session's page.
    for ruling in Ruling.objects.filter(state=Ruling.State.GIVEN).select_related("result__board__session"):
        session = ruling.result.board.session
        if ruling.appeal_deadline() is None:
            door = f"/sessions/{session.pk}/post-score/"
            assert f'action="{door}"' in walk.page("director", f"/sessions/{session.pk}/")
            walk.client("director").post(door, {"note": ""})
            assert ruling.appeal_deadline() is not None
    finalise_rulings(by=policy.SYSTEM, now=timezone.now() + datetime.timedelta(days=3))
    assert set(Ruling.objects.values_list("state", flat=True)) <= RULING_ENDS
    assert set(Appeal.objects.values_list("state", flat=True)) <= APPEAL_ENDS
