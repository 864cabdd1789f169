"""The policy's table (core/policy.py) and its copy for readers (docs/architecture.md, "Who sees
what") say the same: every action, its step and who may take it."""

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from core import policy
from scoring import services as scoring_services
from tests.appeals.conftest import case  # noqa: F401 - a fixture

WORDS = {
    "director": policy.DIRECTOR,
    "chief director": policy.CHIEF_DIRECTOR,
    "scorer": policy.SCORER,
    "appeals member": policy.APPEALS_MEMBER,
    "auditor": policy.AUDITOR,
    "entrant": policy.ENTRANT,
    "at the table": policy.AT_TABLE,
    "captain": policy.CAPTAIN,
    "sitting member": policy.SITTING,
    "registered player": policy.REGISTERED,
}


def documented():
    text = (Path(__file__).resolve().parent.parent / "docs" / "architecture.md").read_text()
    rows = {}
    for action, step, who, superuser in re.findall(r"^\| `(\w+)` \| ([^|]+) \| ([^|]+) \| (yes|no) \|$", text, re.M):
        who = re.sub(r" \(and the `\w+` group\)", "", who.strip())
        people = set() if who == "-" else {WORDS[word.strip()] for word in who.split(",")}
        rows[action] = (step.strip(), frozenset(people), superuser == "yes")
    return rows


def test_the_architecture_page_shows_the_policy_table_as_it_is():
    assert documented() == {action: (rule.what, rule.who, rule.superuser) for action, rule in policy.TABLE.items()}


def test_an_unknown_action_is_an_error_not_a_refusal():
    with pytest.raises(LookupError, match="add it to core.policy.TABLE"):
        policy.may(None, "no_such_step", None)


def test_each_step_of_the_appeal_table_names_an_action_of_the_policy():
    from appeals import lifecycle

    rules = [rule for machine in (lifecycle.APPEAL, lifecycle.FURTHER) for rule in machine.rules.values()]
    assert rules and all(rule.action in policy.TABLE for rule in rules)


# --- Who reads the precedents (issue #38): the policy's read_precedents -------------------------

PRECEDENT_REFUSAL = "Published cases are read by the members and officials of their national body."


@pytest.fixture
def readers(case):
    """One reader of each kind of the case's national body, and people of no body or another."""
    from appeals.models import BodyMember
    from scoring.models import Player, RegulatingAuthority, TournamentOfficial
    from tests.appeals.conftest import SOON, committee, lodge
    from tests.conftest import build_pairs_tournament, make_user

    record = case.record
    body = committee(case, lodge(case))
    sitting = body.sitting().get(user=case.members[0]).user
    recused = case.members[3]
    BodyMember.objects.create(body=body, user=recused, appointed_by=case.chief, appointed_at=SOON)
    # Sitting on the body is their only place in the tournament (no longer an appeals member).
    TournamentOfficial.objects.filter(user__in=[sitting, recused]).delete()
    BodyMember.objects.filter(user=recused).update(recused_at=SOON)
    auditor = make_user("audrey")
    scoring_services.appoint_auditor(authority=record.authority, user=auditor, by=policy.SYSTEM)
    registered = make_user("rita")  # a player of the body, entered in none of its tournaments
    Player.objects.create(
        authority=record.authority, first_name="Rita", last_name="R", membership_number="r-1", user=registered
    )
    other = build_pairs_tournament(code="oth", name="Other Open")
    foreigner = make_user("fred")
    Player.objects.filter(pk=other.players[0].pk).update(user=foreigner)
    return SimpleNamespace(
        authority=record.authority,
        other=other.authority,
        all=set(RegulatingAuthority.objects.values_list("pk", flat=True)),
        director=case.director,
        chief=case.chief,
        appeals_member=case.members[1],
        sitting=sitting,
        recused=recused,
        auditor=auditor,
        registered=registered,
        foreigner=foreigner,
        nobody=make_user("nemo"),
        superuser=make_user("root", is_superuser=True),
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    "reader", ["director", "chief", "appeals_member", "sitting", "auditor", "registered", "superuser"]
)
def test_each_kind_of_reader_reads_the_published_cases_of_their_own_body(readers, reader):
    from national import precedent_selectors

    user = getattr(readers, reader)
    own = readers.all if reader == "superuser" else {readers.authority.pk}
    assert precedent_selectors.reader_authorities(user) == own
    assert policy.may(user, "read_precedents", readers.authority)
    assert policy.may(user, "read_precedents", readers.other) == (reader == "superuser")
    precedent_selectors.require_reader(user)  # no refusal


@pytest.mark.django_db
@pytest.mark.parametrize("reader", ["nobody", "recused", "foreigner"])
def test_a_person_of_no_body_or_another_is_refused_in_the_policys_words(readers, reader, client):
    from django.core.exceptions import PermissionDenied
    from django.urls import reverse

    from national import precedent_selectors

    user = getattr(readers, reader)
    assert not policy.may(user, "read_precedents", readers.authority)
    if reader == "foreigner":  # a player of another body reads that body's cases, not these
        assert precedent_selectors.reader_authorities(user) == {readers.other.pk}
        return
    assert precedent_selectors.reader_authorities(user) == set()
    with pytest.raises(PermissionDenied) as refused:
        precedent_selectors.require_reader(user)
    assert str(refused.value) == PRECEDENT_REFUSAL
    with pytest.raises(PermissionDenied) as refused:
        policy.require(user, "read_precedents", readers.authority)
    assert str(refused.value) == PRECEDENT_REFUSAL
    client.force_login(user)
    assert client.get(reverse("national:precedents")).status_code == 403
