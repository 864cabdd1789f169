"""Received players and the desk's decision that two are one person (issue #41,
national/federation/players.py): two instances push players of the same membership numbers; they
stay apart; an auditor matches two (an audit entry saying who, which records and why), nobody
else may; a later push from one instance changes its own row only, the match standing; unmatch.

(One database plays both instances' origin and the desk here, as in test_federation_receive: the
origin's own players are the desk's own too, so each instance's players are kept apart.)"""

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from audit.models import AuditEntry
from core import policy
from national.federation import bundle as bundles
from national.federation import players, receive
from national.federation.models import PlayerMatch, ReceivedRecord
from scoring.models import Player
from tests.appeals.conftest import case  # noqa: F401 - fixtures
from tests.national.federation_helpers import deliver
from tests.national.test_casebooks import decided  # noqa: F401 - fixtures
from tests.national.test_federation_receive import sent  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db

REFUSAL = "Only the national body's auditors of the players' regulating authority match or unmatch its players."


@pytest.fixture
def two(sent):  # noqa: F811
    """A second instance, Harbour Open, sends the same tournament: players of the same numbers."""
    sent.harbour = receive.register_origin(
        name="Harbour Open",
        slug="harbour",
        authority=sent.record.authority,
        public_key=bundles.public_key_pem(),
        by=policy.SYSTEM,
    )
    status, answer = deliver(sent.harbour, bundles.build(sent.record.tournament.pk))
    assert status == 200, answer
    sent.origin_pk = min(
        ReceivedRecord.objects.filter(origin=sent.origin, model="scoring.player").values_list("origin_pk", flat=True)
    )
    sent.own = Player.objects.get(pk=sent.origin_pk)  # the desk's own (the shared origin's)
    sent.congress = copy_of(sent.origin, sent.origin_pk)
    sent.theirs = copy_of(sent.harbour, sent.origin_pk)
    return sent


def copy_of(origin, origin_pk):
    return Player.objects.get(
        pk=ReceivedRecord.objects.get(origin=origin, model="scoring.player", origin_pk=origin_pk).local_pk
    )


def fields(player):
    player.refresh_from_db()
    return (player.first_name, player.last_name, player.membership_number, player.club, player.user_id)


def test_the_same_number_from_two_instances_stays_two_players_until_an_auditor_matches_them(two):
    number = two.own.membership_number
    assert (two.congress.membership_number, two.theirs.membership_number) == (f"congress~{number}", f"harbour~{number}")
    rows, count = players.kept_apart(two.auditor)
    by_player = {row.player.pk: row for row in rows}
    assert count == 2 * ReceivedRecord.objects.filter(origin=two.origin, model="scoring.player").count()
    row = by_player[two.theirs.pk]
    assert (row.origin, row.number, row.match) == (two.harbour, number, None)
    assert {(c.player.pk, c.origin) for c in row.candidates} == {(two.own.pk, None), (two.congress.pk, two.origin)}
    readable = players.readable(two.auditor)
    before = players.persons(readable)
    assert before == readable.count()
    untouched = fields(two.theirs), fields(two.congress)

    # Nobody but an auditor of the body decides: the director is refused in the policy's words.
    with pytest.raises(PermissionDenied) as refused:
        players.match(player=two.theirs, same_as=two.congress, reason="Same person", by=two.director)
    assert str(refused.value) == REFUSAL

    decision = players.match(
        player=two.theirs, same_as=two.congress, reason="Same date of birth and club", by=two.auditor
    )
    entry = AuditEntry.objects.order_by("-sequence").first()
    name = str(two.own)
    assert (entry.action, entry.actor, entry.object_type, entry.object_id) == (
        "player.matched",
        two.auditor,
        "national.playermatch",
        str(decision.pk),
    )
    assert entry.summary == (
        f"Player {name} (Harbour Open, {number}) matched to {name} (Spring Congress, {number}) "
        "as one person: Same date of birth and club"
    )
    assert entry.after == {
        "player": two.theirs.pk,
        "origin": "harbour",
        "same_as": two.congress.pk,
        "same_as_origin": "congress",
        "membership_number": number,
        "reason": "Same date of birth and club",
    }
    # One person to the desk's reads; neither row written.
    assert players.persons(readable) == before - 1
    assert players.person_of([two.theirs.pk, two.congress.pk]) == {
        two.theirs.pk: two.congress.pk,
        two.congress.pk: two.congress.pk,
    }
    assert (fields(two.theirs), fields(two.congress)) == untouched


def test_a_later_push_from_one_instance_changes_its_own_row_only_and_the_match_stands(two):
    decision = players.match(player=two.theirs, same_as=two.congress, reason="Same person", by=two.auditor)
    congress = fields(two.congress)
    Player.objects.filter(pk=two.origin_pk).update(first_name="Renamed")  # at the (shared) origin
    status, answer = deliver(
        two.harbour, bundles.build(two.record.tournament.pk, receive.last_head(two.harbour).tree_size)
    )
    assert status == 200 and answer["changed"] == 1, answer
    assert fields(two.theirs)[:3] == ("Renamed", two.own.last_name, f"harbour~{two.own.membership_number}")
    assert fields(two.congress) == congress
    decision.refresh_from_db()
    assert (decision.state, decision.player_id, decision.same_as_id) == ("matched", two.theirs.pk, two.congress.pk)


def test_unmatching_is_another_audited_decision_and_they_are_two_again(two):
    readable = players.readable(two.auditor)
    before = players.persons(readable)
    players.match(player=two.theirs, same_as=two.own, reason="Same person", by=two.auditor)
    assert players.persons(readable) == before - 1
    with pytest.raises(PermissionDenied) as refused:
        players.unmatch(player=two.theirs, reason="No", by=two.director)
    assert str(refused.value) == REFUSAL
    decision = players.unmatch(player=two.theirs, reason="Two brothers, one number each at their clubs", by=two.auditor)
    entry = AuditEntry.objects.order_by("-sequence").first()
    name = str(two.own)
    assert (entry.action, entry.actor) == ("player.unmatched", two.auditor)
    assert entry.summary == (
        f"Player {name} (Harbour Open) no longer matched to {name} (the desk's own): "
        "Two brothers, one number each at their clubs"
    )
    assert (decision.state, decision.unmatched_by, decision.unmatch_reason) == (
        "unmatched",
        two.auditor,
        "Two brothers, one number each at their clubs",
    )
    assert players.persons(readable) == before
    # Matched again: a new decision, the one undone kept.
    players.match(player=two.theirs, same_as=two.congress, reason="After all", by=two.auditor)
    assert list(PlayerMatch.objects.filter(player=two.theirs).values_list("state", flat=True)) == [
        "matched",
        "unmatched",
    ]


def test_what_cannot_be_matched_is_refused_naming_why(two):
    def refused(**kwargs):
        kwargs.setdefault("reason", "Same person")
        with pytest.raises(ValidationError) as error:
            players.match(by=two.auditor, **kwargs)
        return error.value.message_dict

    name = str(two.own)
    assert refused(player=two.own, same_as=two.theirs) == {
        "player": [f"{name} was not kept apart from another player: there is nothing to match."]
    }
    assert refused(player=two.theirs, same_as=two.congress, reason="  ") == {
        "reason": ["Say why: the decision is kept with its reason."]
    }
    other = Player.objects.exclude(pk=two.own.pk).exclude(membership_number__contains="~").first()
    assert refused(player=two.theirs, same_as=other) == {
        "same_as": [f"{other} does not hold the membership number {two.own.membership_number} of {name}."]
    }
    players.match(player=two.congress, same_as=two.own, reason="Same person", by=two.auditor)
    # No chains: matched to the person, never to a player matched onward.
    assert refused(player=two.theirs, same_as=two.congress) == {
        "same_as": [f"{name} is matched to {name}: match {name} to {name}."]
    }
    players.match(player=two.theirs, same_as=two.own, reason="Same person", by=two.auditor)
    assert refused(player=two.theirs, same_as=two.own) == {
        "player": [f"{name} is matched to {name} already: unmatch them first."]
    }


def test_the_desk_page_lists_the_players_kept_apart_and_matches_them_on_a_form(two, client):
    page = reverse("national:federation-players")
    client.force_login(two.director)
    assert client.get(page).status_code == 403
    assert client.post(reverse("national:federation-player-match", args=[two.theirs.pk])).status_code == 403
    client.force_login(two.auditor)
    text = client.get(page).content.decode()
    assert f'id="player-{two.theirs.pk}"' in text and f'id="player-{two.congress.pk}"' in text
    assert "From Harbour Open" in text and "this desk's own" in text
    assert f'name="same_as" value="{two.congress.pk}"' in text
    answer = client.post(
        reverse("national:federation-player-match", args=[two.theirs.pk]),
        {"same_as": two.congress.pk, "reason": "Same club, same partner"},
        follow=True,
    )
    text = answer.content.decode()
    assert answer.redirect_chain == [(f"{page}#player-{two.theirs.pk}", 302)]
    assert f"Matched: {two.own} and {two.own} are one person." in text
    assert f'data-matched="{two.congress.pk}"' in text and "Same club, same partner" in text
    # No reason: refused on the page, nothing decided.
    answer = client.post(
        reverse("national:federation-player-unmatch", args=[two.theirs.pk]), {"reason": ""}, follow=True
    )
    assert "Say why the match is undone." in answer.content.decode()
    assert PlayerMatch.objects.get(player=two.theirs).state == "matched"
    answer = client.post(
        reverse("national:federation-player-unmatch", args=[two.theirs.pk]), {"reason": "Two people"}, follow=True
    )
    assert f"Unmatched: {two.own} is a person of its own again." in answer.content.decode()
    assert PlayerMatch.objects.get(player=two.theirs).state == "unmatched"
    # In the reader's language.
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "he"
    text = client.get(page).content.decode()
    assert "Received players kept apart" not in text and "Matches undone" not in text


def test_a_casebook_of_a_received_tournament_hides_a_player_kept_apart_by_the_number_written(decided):  # noqa: F811
    """A received player kept apart holds ``<instance>~<number>``, but the statements name the
    number as written at the table: the casebook hides that number too."""
    from national import casebooks
    from national.federation.models import ReceivedTournament
    from rulings import services as rulings_services
    from tests.national.federation_helpers import register_self

    number = decided.north.membership_number
    rulings_services.change_ruling(
        ruling=decided.ruling,
        by=decided.director,
        reason="member number noted",
        statement_ns=f"Member {number} says Cohen's 4S was obvious.",
    )
    origin = register_self(decided.record.authority)
    status, answer = deliver(origin, bundles.build(decided.record.tournament.pk))
    assert status == 200, answer
    copy = ReceivedTournament.objects.get(origin=origin).tournament
    assert copy_of(origin, decided.north.pk).membership_number == f"congress~{number}"
    book = casebooks.compile_casebook(
        authority=decided.record.authority, by=decided.auditor, title="Received", filters={"tournament": copy.pk}
    )
    [entry] = casebooks.build_content(book)["cases"]
    statement = entry["texts"]["statement_ns"]
    assert statement.startswith("Member ") and statement.endswith(" 4S was obvious.")
    assert number not in statement and "congress" not in statement
